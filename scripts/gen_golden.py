"""Record gradcli's golden files from real PyTorch.

Run with the torch venv (torch is never a test dependency):

    $TORCH_PYTHON scripts/gen_golden.py

Writes, relative to the repository root:

  tests/golden/cases.json          {name: {"source", "stdout", "error"[, "warnings"]}}
  tests/golden/grad_fn_names.json  {"setup": src, "names": {expr: name | null}}
  tests/golden/reliability.json  like cases.json, from golden_cases_reliability.py
                                   (``--reliability`` writes only this file)
  tests/golden/differential.json  the same from golden_cases_differential.py
                                   (``--differential`` writes only this file)
  tests/golden/examples.json       {"seed_000": {"file", "seed", "stdout", "error"[, "warnings"]}, ...}

How a program is run (the same for cases and examples):

  * ``torch.set_default_dtype(torch.float64)``;
  * a fresh namespace holding ``torch``, ``F = torch.nn.functional`` and
    ``display`` (prints ``repr`` of each argument on its own line and returns
    None);
  * every top-level statement is run on its own, and an expression statement
    displays its repr (``sys.displayhook``) at top level only, as Jupyter does
    (gradcli's display rule): a top-level expression statement is compiled in
    ``'single'`` mode, any other statement in ``'exec'`` mode, so expressions
    inside if/while/for/with blocks and functions display nothing; a statement
    whose line ends in ``;`` displays nothing (IPython's rule);
  * ``<XBackward0 object at 0x...>`` is normalised to ``<XBackward0>``, and
    ``<a.b.C object at 0x...>`` to ``<a.b.C object>``;
  * the first exception stops the program: its type name and the first line
    of its message are recorded, with the stdout written before it;
  * warnings (e.g. ``.grad`` of a non-leaf) go to stderr in torch; they are
    recorded separately under "warnings"; the tests require each one's text
    on gradcli's stderr.

Examples run in a fresh process each, after ``torch.manual_seed(EXAMPLE_SEED)``.
This torch (2.13) seeds its default generator NON-deterministically at start-up
(``torch.initial_seed()`` differs from run to run), so "torch's default stream"
does not exist; the recorded seed is stored in examples.json ("seed") and
tests/test_examples.py runs ``gradcli eval --seed SEED FILE``.  The value is
67280421310721, the fixed default seed of earlier PyTorch releases.
"""

import ast
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import warnings

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GOLDEN = os.path.join(ROOT, "tests", "golden")
EXAMPLES = os.path.join(HERE, "examples")

EXAMPLE_SEED = 67280421310721

_OBJ_RE = re.compile(r"<([A-Za-z_][A-Za-z0-9_]*) object at 0x[0-9a-fA-F]+>")


_DOTTED_RE = re.compile(r"<([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+) object at 0x[0-9a-fA-F]+>")


def normalise(text):
    """grad_fn objects print as gradcli prints them (<MulBackward0>); other objects
    (torch.utils.hooks.RemovableHandle) lose their address."""
    return _DOTTED_RE.sub(r"<\1 object>", _OBJ_RE.sub(r"<\1>", text))


def display(*values):
    for v in values:
        print(repr(v))


def _displayhook(value):
    if value is not None:
        print(repr(value))


def _ends_in_semicolon(lines, node):
    """Whether the statement ends its line with ';' (a ';' before another statement on
    the line only separates them)."""
    rest = lines[node.end_lineno - 1][node.end_col_offset :].strip()
    return rest.startswith(";") and rest[1:].strip()[:1] in ("", "#")


def run_program(source, filename="<case>", seed=None, module="__gradcli_case__"):
    """Run ``source`` as described in the module docstring.

    Returns a dict {"stdout", "error", "warnings"}.
    """
    torch.set_default_dtype(torch.float64)
    if seed is not None:
        torch.manual_seed(seed)
    ns = {
        "__name__": module,
        "torch": torch,
        "F": torch.nn.functional,
        "display": display,
    }
    tree = ast.parse(source, filename)
    buf = io.StringIO()
    error = None
    old_hook = sys.displayhook
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sys.displayhook = _displayhook
        try:
            with contextlib.redirect_stdout(buf):
                lines = source.split("\n")
                for node in tree.body:
                    if isinstance(node, ast.Expr) and not _ends_in_semicolon(lines, node):
                        code = compile(ast.Interactive(body=[node]), filename, "single")
                    else:
                        code = compile(ast.Module(body=[node], type_ignores=[]), filename, "exec")
                    try:
                        exec(code, ns)
                    except Exception as e:  # noqa: BLE001 - record any error
                        msg = str(e)
                        first = msg.splitlines()[0] if msg else ""
                        error = {"type": type(e).__name__, "message": first}
                        break
        finally:
            sys.displayhook = old_hook
    # sanity: a case must not leak global state into the next one
    assert torch.is_grad_enabled(), "grad mode left disabled by " + filename
    assert torch.get_default_dtype() == torch.float64
    warns = []
    for w in caught:
        text = normalise(str(w.message)).splitlines()[0]
        if w.category is DeprecationWarning and "torch.jit.script" in text:
            continue  # torch's own modules loading (forward_ad's first use), not the program
        warns.append("%s: %s" % (w.category.__name__, text))
    return {"stdout": normalise(buf.getvalue()), "error": error, "warnings": warns}


def _record(result, **extra):
    rec = dict(extra)
    rec["stdout"] = result["stdout"]
    rec["error"] = result["error"]
    if result["warnings"]:
        rec["warnings"] = result["warnings"]
    return rec


def gen_cases():
    sys.path.insert(0, os.path.join(ROOT, "tests"))  # the cases are test data
    import golden_cases

    out = {}
    for name, source in golden_cases.CASES:
        res = run_program(source, "<%s>" % name)
        out[name] = _record(res, source=source)
    return out, golden_cases


def gen_reliability():
    """tests/golden/reliability.json from tests/golden_cases_reliability.py."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))  # the cases are test data
    import golden_cases_reliability

    return {
        name: _record(run_program(source, "<%s>" % name), source=source)
        for name, source in golden_cases_reliability.CASES
    }


def gen_differential():
    """tests/golden/differential.json from tests/golden_cases_differential.py."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))  # the cases are test data
    import golden_cases_differential

    return {
        name: _record(run_program(source, "<%s>" % name), source=source)
        for name, source in golden_cases_differential.CASES
    }


def gen_grad_fn_names(golden_cases):
    torch.set_default_dtype(torch.float64)
    ns = {"torch": torch, "F": torch.nn.functional}
    exec(compile(golden_cases.GRAD_FN_SETUP, "<setup>", "exec"), ns)
    names = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for expr in golden_cases.GRAD_FN_EXPRS:
            if expr in names:
                raise ValueError("duplicate grad_fn expression: " + expr)
            value = eval(compile(expr, "<expr>", "eval"), ns)
            fn = value.grad_fn
            names[expr] = None if fn is None else type(fn).__name__
            # the printed form must be exactly <NAME> (or None)
            printed = normalise(str(fn))
            assert printed == ("None" if fn is None else "<%s>" % names[expr]), printed
    return {"setup": golden_cases.GRAD_FN_SETUP, "names": names}


def gen_examples():
    out = {}
    if not os.path.isdir(EXAMPLES):
        return out
    for fname in sorted(os.listdir(EXAMPLES)):
        if not fname.endswith(".ag"):
            continue
        path = os.path.join(EXAMPLES, fname)
        # fresh process: torch's default RNG state, no state from other files
        proc = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--run-file", path, str(EXAMPLE_SEED)],
            capture_output=True,
            text=True,
            check=True,
        )
        res = json.loads(proc.stdout)
        rel = os.path.relpath(path, ROOT)
        out[fname[:-3]] = _record(res, file=rel, seed=EXAMPLE_SEED)
    return out


def record_cases(cases, filename, lstrip=False, drop_warning=None):
    """Record (name, source) cases into tests/golden/<filename>, each run as a program of
    its own (module __main__: classes print as a program's own do); `lstrip`: leading
    newlines of a source dropped; `drop_warning(text)`: warnings not to record."""
    out = {}
    for name, source in cases:
        if name in out:
            raise ValueError("duplicate case " + name)
        if lstrip:
            source = source.lstrip("\n")
        result = run_program(source, "<%s>" % name, module="__main__")
        if drop_warning is not None:
            result["warnings"] = [w for w in result["warnings"] if not drop_warning(w)]
        out[name] = _record(result, source=source)
    path = os.path.join(GOLDEN, filename)
    _write(path, out)
    print(f"{len(out)} cases -> {path}")


def _write(path, data):
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1, ensure_ascii=False)
        fh.write("\n")


def main(argv):
    if len(argv) == 3 and argv[0] == "--run-file":
        with open(argv[1], encoding="utf-8") as fh:
            src = fh.read()
        res = run_program(src, argv[1], seed=int(argv[2]))
        sys.__stdout__.write(json.dumps(res))
        return 0
    if argv == ["--reliability"]:
        _write(os.path.join(GOLDEN, "reliability.json"), gen_reliability())
        return 0
    if argv == ["--differential"]:
        _write(os.path.join(GOLDEN, "differential.json"), gen_differential())
        return 0
    if argv:
        print(__doc__)
        return 2
    os.makedirs(GOLDEN, exist_ok=True)
    cases, golden_cases = gen_cases()
    _write(os.path.join(GOLDEN, "cases.json"), cases)
    names = gen_grad_fn_names(golden_cases)
    _write(os.path.join(GOLDEN, "grad_fn_names.json"), names)
    _write(os.path.join(GOLDEN, "reliability.json"), gen_reliability())
    _write(os.path.join(GOLDEN, "differential.json"), gen_differential())
    examples = gen_examples()
    _write(os.path.join(GOLDEN, "examples.json"), examples)
    n_err = sum(1 for c in cases.values() if c["error"])
    print(
        "torch %s: %d cases (%d ending in an error), %d grad_fn names, %d examples"
        % (torch.__version__, len(cases), n_err, len(names["names"]), len(examples))
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
