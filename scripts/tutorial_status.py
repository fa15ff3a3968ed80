"""Where each tutorial of the suite (tests/tutorials/) stands under gradcli: a work list.

    .venv/bin/python scripts/tutorial_status.py [--no-census] [--torch-python PY] [NAME ...]

Part 1, per tutorial: gradcli runs it as tests/fidelity/test_tutorials.py does
(``python -m gradcli eval FLAGS FILE``, FLAGS from tests/golden/tutorials.json) and
the script prints "passes" (with gradcli's and torch's times), or where it stops:
the line of the tutorial and gradcli's error, or the first line of output that
differs from torch's.

Part 2, the census (skipped with --no-census): gradcli stops at the FIRST problem,
so part 1 hides what comes after it.  The census reads every tutorial with Python's
``ast`` and lists what it uses -- syntax features, imported modules, Python
built-ins, names reached through torch (``torch.nn.Linear``, ``F.relu``,
``fwAD.make_dual`` ...) and tensor methods/attributes -- then asks gradcli about
each one with a tiny probe program (run in this process).  What gradcli rejects
is printed grouped by feature with the tutorials that need it, most needed first:
which features unblock the most tutorials.  Tensor methods are told apart from
other methods with real torch (``hasattr(torch.Tensor, name)``) when a Python with
torch is given (--torch-python, default $TORCH_PYTHON
when it exists); without one that part is skipped.

A probe says only "gradcli accepts this in a tiny program", not that the tutorial
will then pass (values must still match torch's to the last digit).
"""

import argparse
import ast
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TUTORIALS = os.path.join(ROOT, "tests", "tutorials")
GOLDEN = os.path.join(ROOT, "tests", "golden", "tutorials.json")
TIMEOUT = 300

# ---------------------------------------------------------------------------
# part 1: run each tutorial
# ---------------------------------------------------------------------------

_ERR_RE = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?P<msg>.*)$")


def run_tutorial(rec):
    env = dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8")
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "gradcli", "eval", *rec["flags"], rec["file"]],
            capture_output=True,
            text=True,
            encoding="utf-8",
            cwd=ROOT,
            env=env,
            timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - start
    return proc, time.perf_counter() - start


def first_difference(want, got):
    """(line number, wanted line, got line) of the first output line that differs."""
    w, g = want.splitlines(), got.splitlines()
    for i in range(max(len(w), len(g))):
        a = w[i] if i < len(w) else "<end of output>"
        b = g[i] if i < len(g) else "<end of output>"
        if a != b:
            return i + 1, a, b
    return None


def describe(name, rec, proc, seconds):
    """(passed, one-paragraph text) for a tutorial run."""
    if proc is None:
        return False, "%s: TIMEOUT after %d s" % (name, TIMEOUT)
    timing = "gradcli %.1f s (whole process), torch %.1f s" % (seconds, rec["torch_seconds"])
    same_out = proc.stdout == rec["stdout"]
    if rec["error"] is None and same_out and proc.returncode == 0:
        return True, "%s: passes (%s)" % (name, timing)
    if proc.returncode != 0:
        lines = proc.stderr.splitlines()
        head = next((i for i, l in enumerate(lines) if _ERR_RE.match(l)), None)
        if head is not None:
            m = _ERR_RE.match(lines[head])
            src = lines[head + 1].strip() if head + 1 < len(lines) else ""
            text = "%s: stops at line %s: %s\n    %s" % (name, m["line"], src, m["msg"])
            if rec["error"] is not None and same_out and rec["error"]["type"] in m["msg"]:
                return True, "%s: passes (raises as torch does; %s)" % (name, timing)
        else:
            text = "%s: exit code %d\n    %s" % (name, proc.returncode, "\n    ".join(lines[-5:]))
        diff = first_difference(rec["stdout"], proc.stdout)
        if diff is not None and diff[0] <= len(proc.stdout.splitlines()):
            text += "\n    (and output line %d already differs: torch %r, gradcli %r)" % diff
        return False, text
    diff = first_difference(rec["stdout"], proc.stdout)
    if diff is None:
        return False, "%s: output matches, but torch raised %s: %s" % (
            name,
            rec["error"]["type"],
            rec["error"]["message"],
        )
    return (
        False,
        "%s: runs to the end, output line %d differs:\n    torch:   %s\n    gradcli: %s"
        % (name, diff[0], diff[1], diff[2]),
    )


# ---------------------------------------------------------------------------
# part 2: the census
# ---------------------------------------------------------------------------


# syntax features: (label, issue, probe program, test on an ast node)
def _is_call_with(node, pred):
    return isinstance(node, ast.Call) and pred(node)


SYNTAX = [
    ("class statement", 13, "class A:\n    pass\n", lambda n: isinstance(n, ast.ClassDef)),
    (
        "class with a method and an instance attribute",
        13,
        "class A:\n    def __init__(self, v):\n        self.v = v\n    def get(self):\n        return self.v\nA(1).get()\n",
        lambda n: (
            isinstance(n, ast.ClassDef) and any(isinstance(b, ast.FunctionDef) for b in n.body)
        ),
    ),
    (
        "class attribute (name = value in a class body)",
        13,
        "class A:\n    x = 1\nA.x\n",
        lambda n: isinstance(n, ast.ClassDef) and any(isinstance(b, ast.Assign) for b in n.body),
    ),
    (
        "@staticmethod",
        13,
        "class A:\n    @staticmethod\n    def f(x):\n        return x\nA.f(1)\n",
        lambda n: (
            isinstance(n, ast.FunctionDef)
            and any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in n.decorator_list)
        ),
    ),
    (
        "decorator (user function or expression)",
        13,
        "def d(f):\n    return f\n@d\ndef g():\n    return 1\ng()\n",
        lambda n: (
            isinstance(n, ast.FunctionDef)
            and any(
                not (isinstance(d, ast.Name) and d.id == "staticmethod") for d in n.decorator_list
            )
        ),
    ),
    (
        "super()",
        13,
        "class A:\n    def f(self):\n        return 1\nclass B(A):\n    def f(self):\n        return super().f()\nB().f()\n",
        lambda n: _is_call_with(n, lambda c: isinstance(c.func, ast.Name) and c.func.id == "super"),
    ),
    ("list comprehension", 13, "[i for i in range(2)]\n", lambda n: isinstance(n, ast.ListComp)),
    ("dict comprehension", 13, "{i: i for i in range(2)}\n", lambda n: isinstance(n, ast.DictComp)),
    (
        "generator expression",
        13,
        "sum(i for i in range(2))\n",
        lambda n: isinstance(n, ast.GeneratorExp),
    ),
    ("dict literal", 13, "d = {'a': 1}\n", lambda n: isinstance(n, ast.Dict)),
    (
        "item assignment d[k] = v",
        13,
        "d = [0]\nd[0] = 1\n",
        lambda n: (
            isinstance(n, ast.Assign) and any(isinstance(t, ast.Subscript) for t in n.targets)
        ),
    ),
    (
        "`is` / `is not`",
        13,
        "None is None\n1 is not None\n",
        lambda n: (
            isinstance(n, ast.Compare) and any(isinstance(o, (ast.Is, ast.IsNot)) for o in n.ops)
        ),
    ),
    (
        "`in` / `not in`",
        13,
        "1 in [1]\n",
        lambda n: (
            isinstance(n, ast.Compare) and any(isinstance(o, (ast.In, ast.NotIn)) for o in n.ops)
        ),
    ),
    ("lambda", 13, "f = lambda x: x\nf(1)\n", lambda n: isinstance(n, ast.Lambda)),
    (
        "try/except",
        13,
        "try:\n    pass\nexcept Exception as e:\n    pass\n",
        lambda n: isinstance(n, ast.Try),
    ),
    ("del statement", 13, "a = 1\ndel a\n", lambda n: isinstance(n, ast.Delete)),
    (
        "f(*args) call",
        13,
        "def f(*a):\n    return a\nf(*[1, 2])\n",
        lambda n: _is_call_with(n, lambda c: any(isinstance(a, ast.Starred) for a in c.args)),
    ),
    (
        "f(**kwargs) call",
        13,
        "def f(**k):\n    return k\nf(**{'a': 1})\n",
        lambda n: _is_call_with(n, lambda c: any(k.arg is None for k in c.keywords)),
    ),
    (
        "def f(*args)",
        13,
        "def f(*a):\n    return a\nf(1, 2)\n",
        lambda n: isinstance(n, (ast.FunctionDef, ast.Lambda)) and n.args.vararg is not None,
    ),
    (
        "def f(**kwargs)",
        13,
        "def f(**k):\n    return k\nf(a=1)\n",
        lambda n: isinstance(n, (ast.FunctionDef, ast.Lambda)) and n.args.kwarg is not None,
    ),
    (
        "nested tuple loop target: for i, (a, b) in ...",
        13,
        "for i, (a, b) in [(1, (2, 3))]:\n    pass\n",
        lambda n: (
            isinstance(n, ast.For)
            and isinstance(n.target, ast.Tuple)
            and any(isinstance(e, ast.Tuple) for e in n.target.elts)
        ),
    ),
    (
        "f-string format spec {x:>7f}",
        13,
        "f'{1.5:>7f} {3:>5d} {0.5:>0.1f}'\n",
        lambda n: isinstance(n, ast.FormattedValue) and n.format_spec is not None,
    ),
    (
        "with ... as name",
        13,
        "import torch\nwith torch.no_grad() as g:\n    pass\n",
        lambda n: isinstance(n, ast.With) and any(i.optional_vars is not None for i in n.items),
    ),
    (
        "augmented assignment to an attribute (obj.x += 1)",
        13,
        "class A:\n    pass\na = A()\na.x = 1\na.x += 1\n",
        lambda n: isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Attribute),
    ),
    (
        "if statement on one line (if c: stmt)",
        13,
        "x = 1\nif x < 0: x *= -1\n",
        lambda n: isinstance(n, ast.If) and n.body and n.body[0].lineno == n.lineno,
    ),
    (
        "docstring / bare string statement",
        13,
        'def f():\n    """doc"""\n    return 1\nf()\n',
        lambda n: (
            isinstance(n, ast.Expr)
            and isinstance(n.value, ast.Constant)
            and isinstance(n.value.value, str)
        ),
    ),
    ("assert statement", 13, "assert 1 == 1\n", lambda n: isinstance(n, ast.Assert)),
    (
        "conditional expression (a if c else b)",
        13,
        "1 if True else 2\n",
        lambda n: isinstance(n, ast.IfExp),
    ),
    (
        "multi-line conditional expression in parentheses",
        13,
        "x = (\n    1\n    if False\n    else 2\n    if True\n    else 3\n)\n",
        lambda n: isinstance(n, ast.IfExp) and isinstance(n.orelse, ast.IfExp),
    ),
    (
        "tuple of attributes as assignment target (a.x, b.y = ...)",
        13,
        "class A:\n    pass\na = A()\na.x, a.y = 1, 2\n",
        lambda n: (
            isinstance(n, ast.Assign)
            and any(
                isinstance(t, ast.Tuple) and any(isinstance(e, ast.Attribute) for e in t.elts)
                for t in n.targets
            )
        ),
    ),
]

PY_BUILTINS = {
    "abs",
    "all",
    "any",
    "bool",
    "delattr",
    "dict",
    "enumerate",
    "float",
    "getattr",
    "hasattr",
    "int",
    "isinstance",
    "len",
    "list",
    "max",
    "min",
    "next",
    "print",
    "range",
    "reversed",
    "round",
    "setattr",
    "slice",
    "sorted",
    "str",
    "sum",
    "super",
    "tuple",
    "type",
    "zip",
    "staticmethod",
    "classmethod",
    "property",
    "iter",
    "map",
    "filter",
    "globals",
    "Exception",
    "set",
    "object",
    "id",
    "repr",
    "format",
    "divmod",
    "pow",
    "callable",
    "issubclass",
}

# names reached through these (Python's own modules) are the language's business
PY_MODULES = {"math", "random", "functools", "os", "numpy"}

# attribute names that are also dict/list methods: where a tutorial uses them, the
# receiver is a dict (`params.items()`), so they are not counted as tensor methods
NOT_TENSOR = {"values", "items", "keys", "insert", "append", "pop", "copy", "index", "count"}


# which issue a torch name belongs to
def issue_of_name(dotted):
    if dotted.split(".")[0] in PY_MODULES:
        return 13
    if dotted.startswith("torch.autograd.Function"):
        return 15
    if dotted.startswith("torch.nn.") and not dotted.startswith("torch.nn.functional"):
        return 14
    if dotted in ("torch.nn",):
        return 14
    return None


def collect(source):
    """What a tutorial uses: {"syntax": set(labels), "imports": set(stmt text),
    "builtins": set(names), "names": set(dotted torch-rooted names),
    "attrs": set(attribute names used on other values)}."""
    tree = ast.parse(source)
    aliases = {}  # local name -> dotted module or object path
    imports = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                imports.add("import %s%s" % (a.name, " as " + a.asname if a.asname else ""))
                if a.asname:
                    aliases[a.asname] = a.name
                else:
                    aliases[a.name.split(".")[0]] = a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            for a in node.names:
                imports.add("from %s import %s" % (node.module, a.name))
                aliases[a.asname or a.name] = "%s.%s" % (node.module, a.name)
    syntax = set()
    for node in ast.walk(tree):
        for label, _issue, _probe, test in SYNTAX:
            try:
                if test(node):
                    syntax.add(label)
            except AttributeError:
                pass
    assigned = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            assigned.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            assigned.add(node.name)
        elif isinstance(node, ast.arg):
            assigned.add(node.arg)
    builtins = set()
    names = set()
    attrs = set()
    chain_nodes = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if node.id in PY_BUILTINS and node.id not in assigned:
                builtins.add(node.id)
        if isinstance(node, ast.Attribute) and id(node) not in chain_nodes:
            parts = []
            cur = node
            while isinstance(cur, ast.Attribute):
                chain_nodes.add(id(cur))
                parts.append(cur.attr)
                cur = cur.value
            if isinstance(cur, ast.Name) and cur.id in aliases:
                names.add(".".join([aliases[cur.id]] + parts[::-1]))
            else:
                attrs.update(parts)
    for alias, target in aliases.items():
        # names imported with `from X import y` and used bare: probe X.y
        if "." in target:
            names.add(target)
    return {
        "syntax": syntax,
        "imports": imports,
        "builtins": builtins,
        "names": names,
        "attrs": attrs,
    }


_PROBE = None


def probe(program):
    """None if gradcli runs ``program`` (with -q --dtype float32), else the error line."""
    global _PROBE
    if _PROBE is None:
        _PROBE = _make_prober()
    return _PROBE(program)


def _make_prober():
    sys.path.insert(0, ROOT)
    try:
        from gradcli.cli import main
        from gradcli.session import reset_globals
    except ImportError:
        main = None

    def inprocess(program):
        reset_globals()
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(["eval", "-q", "--dtype", "float32", "-e", program])
            except SystemExit as e:
                code = e.code
        return None if code == 0 else _error_line(err.getvalue(), code)

    def subproc(program):
        proc = subprocess.run(
            [sys.executable, "-m", "gradcli", "eval", "-q", "--dtype", "float32", "-e", program],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=dict(os.environ, NO_COLOR="1"),
            timeout=60,
        )
        return None if proc.returncode == 0 else _error_line(proc.stderr, proc.returncode)

    return inprocess if main is not None else subproc


def _error_line(stderr, code):
    for line in stderr.splitlines():
        m = _ERR_RE.match(line)
        if m:
            return m["msg"]
    return "exit code %s: %s" % (code, stderr.strip().splitlines()[-1:] or "")


def tensor_attrs(names, torch_python):
    """The subset of ``names`` that are attributes of torch.Tensor (asked of real torch)."""
    if not torch_python or not os.path.exists(torch_python):
        return None
    code = (
        "import json, sys, torch\n"
        "names = json.loads(sys.stdin.read())\n"
        "print(json.dumps([n for n in names if hasattr(torch.Tensor, n)]))\n"
    )
    proc = subprocess.run(
        [torch_python, "-c", code],
        input=json.dumps(sorted(names)),
        capture_output=True,
        text=True,
        timeout=300,
    )
    if proc.returncode != 0:
        return None
    return set(json.loads(proc.stdout))


def census(names_to_run, torch_python):
    uses = {}
    for name in names_to_run:
        with open(os.path.join(TUTORIALS, name + ".py"), encoding="utf-8") as fh:
            uses[name] = collect(fh.read())
    missing = {}  # (kind, feature, issue) -> {"error": text, "tutorials": set}

    def note(kind, feature, issue, error, tutorial):
        entry = missing.setdefault((kind, feature, issue), {"error": error, "tutorials": set()})
        entry["tutorials"].add(tutorial)

    probes = {}

    def check(program):
        if program not in probes:
            probes[program] = probe(program)
        return probes[program]

    syntax_by_label = {label: (issue, prog) for label, issue, prog, _ in SYNTAX}
    all_attrs = set().union(*(u["attrs"] for u in uses.values())) if uses else set()
    tensor_names = tensor_attrs(all_attrs, torch_python)
    for tut, u in sorted(uses.items()):
        for label in sorted(u["syntax"]):
            issue, prog = syntax_by_label[label]
            err = check(prog)
            if err:
                note("syntax", label, issue, err, tut)
        for stmt in sorted(u["imports"]):
            err = check(stmt + "\n")
            if err:
                module = stmt.split()[1].split(".")[0]
                note("import", stmt, 13 if module in PY_MODULES else None, err, tut)
        for b in sorted(u["builtins"]):
            err = check(b + "\n")
            if err:
                note("built-in", b, 13, err, tut)
        for dotted in sorted(u["names"]):
            root = dotted.split(".")[0]
            err = check("import %s\n%s\n" % (root, dotted))
            if err:
                note("name", dotted, issue_of_name(dotted), err, tut)
        if tensor_names is not None:
            for attr in sorted((u["attrs"] & tensor_names) - NOT_TENSOR):
                if attr.startswith("_"):
                    continue
                err = check("import torch\ntorch.ones(2, 2, requires_grad=True).%s\n" % attr)
                if err:
                    note("tensor attribute", "Tensor." + attr, None, err, tut)
    return missing, tensor_names is not None


def print_census(missing, with_tensor):
    print()
    print("=" * 78)
    print("CENSUS: what the tutorials use that gradcli rejects in a tiny probe program,")
    print("grouped by feature, most needed first (count = tutorials that use it)")
    if not with_tensor:
        print("(tensor methods not checked: no Python with torch given, see --torch-python)")
    print("=" * 78)
    kinds = ["syntax", "import", "built-in", "name", "tensor attribute"]
    for issue in (13, 14, 15, None):
        rows = [(k, v) for k, v in missing.items() if k[2] == issue]
        if not rows:
            continue
        title = {
            13: "the language",
            14: "torch.nn",
            15: "custom autograd.Function",
            None: "the rest of the torch API (func, forward AD, data, ...)",
        }[issue]
        print()
        print("## " + title)
        rows.sort(key=lambda kv: (-len(kv[1]["tutorials"]), kinds.index(kv[0][0]), kv[0][1]))
        for (kind, feature, _), v in rows:
            print("%3d  %-16s %s" % (len(v["tutorials"]), kind, feature))
            print("       gradcli: %s" % v["error"][:150])
            print("       in: %s" % ", ".join(sorted(v["tutorials"])))


def print_blockers(missing, names):
    """Per tutorial, which issues' features it still lacks; grouped by that set."""
    label = {13: "13", 14: "14", 15: "15", None: "other"}
    needs = {name: set() for name in names}
    for (_kind, _feature, issue), v in missing.items():
        for tut in v["tutorials"]:
            needs[tut].add(label[issue])
    groups = {}
    for name, issues in needs.items():
        groups.setdefault(tuple(sorted(issues)), []).append(name)
    print()
    print("## tutorials by the issues whose features they still lack (census only)")
    for key in sorted(groups, key=lambda k: (len(k), k)):
        print(
            "  %-22s %2d  %s"
            % ("+".join(key) or "(none)", len(groups[key]), ", ".join(sorted(groups[key])))
        )


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="tutorials (default: all)")
    ap.add_argument("--no-census", action="store_true", help="only part 1")
    default_torch = os.environ.get("TORCH_PYTHON", "python3")  # a Python with torch==2.13.0
    ap.add_argument(
        "--torch-python",
        default=default_torch,
        help="a Python with torch, to tell tensor methods apart (default %(default)s)",
    )
    args = ap.parse_args(argv)
    with open(GOLDEN, encoding="utf-8") as fh:
        golden = json.load(fh)
    golden.pop("_about", None)
    names = args.names or sorted(golden)
    passed = 0
    for name in names:
        proc, seconds = run_tutorial(golden[name])
        ok, text = describe(name, golden[name], proc, seconds)
        passed += ok
        print(text, flush=True)
    print("\n%d of %d tutorials pass" % (passed, len(names)))
    if not args.no_census:
        missing, with_tensor = census(names, args.torch_python)
        print_census(missing, with_tensor)
        print_blockers(missing, names)


if __name__ == "__main__":
    main(sys.argv[1:])
