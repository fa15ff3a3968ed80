"""No module changes another module's functions, or a class's methods from outside
its class body, at run time: the package's behaviour is what its source says where a
function is defined.  Modes (forward mode, saved-tensor hooks, the loop recorder) are
state that the one `Function.apply` consults (gradcli/engine/modes.py), and upward
calls go through tables the lower layer declares, never through a reassigned attribute.

This test reads every module of gradcli/ and finds each assignment `X.name = value`
(also augmented, and `setattr(X, ...)`) whose `X` is a module or a class known where
the statement stands (an import or a class of the module, not a local variable or a
parameter); it imports that module to see what `X` is, and fails when X is a module
(another module's global set from outside: a module changes its own state through its
own functions), or a class whose attribute is a function: it holds one now (a
function, method, classmethod, staticmethod or property), or the value assigned is one
(a lambda, a function defined in the module or the enclosing function,
classmethod(...) ...).  A class's data attributes (a counter, a table of names) are
not its business.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import types
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "gradcli"

#: (module, target as written) -> why it is allowed; empty is the goal
ALLOWED: dict[tuple[str, str], str] = {}

_ROUTINE_MAKERS = {"classmethod", "staticmethod", "property"}


def _module_name(path):
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _bound_names(fn):
    """Names bound in function `fn`'s own scope (its parameters, assignments, loop and
    with targets, imports, nested defs), minus those declared global."""
    names, glob = set(), set()
    a = fn.args
    for arg in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]:
        if arg is not None:
            names.add(arg.arg)
    todo = list(fn.body)
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Global):
            glob.update(n.names)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(n.name)
            continue  # (its own scope)
        elif isinstance(n, ast.Lambda):
            continue
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            names.add(n.id)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            for al in n.names:
                names.add((al.asname or al.name).split(".")[0])
        elif isinstance(n, ast.ExceptHandler) and n.name:
            names.add(n.name)
        todo.extend(ast.iter_child_nodes(n))
    return names - glob


def _defs_in(body):
    return {
        n.name for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
    }


def _chain(node):
    """['a', 'b'] for the expression a.b, or None when it is not names and attributes."""
    out = []
    while isinstance(node, ast.Attribute):
        out.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    out.append(node.id)
    return out[::-1]


def _is_routine(v):
    return (
        inspect.isroutine(v)
        or isinstance(v, (classmethod, staticmethod, property))
        or (callable(v) and not inspect.isclass(v) and not isinstance(v, (type(None),)))
    )


def _value_is_function(value, local_defs, module_defs):
    if isinstance(value, ast.Lambda):
        return True
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        return value.func.id in _ROUTINE_MAKERS
    if isinstance(value, ast.Name):
        return value.id in local_defs or value.id in module_defs
    return False


def _assignments(tree):
    """(target expression, value expression or None for setattr, the names bound in the
    enclosing functions, the defs visible there, line) for each attribute assignment."""
    module_defs = _defs_in(tree.body)
    found = []

    def visit(node, bound, defs):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(
                    child,
                    bound | _bound_names(child),
                    defs | {n.name for n in ast.walk(child) if isinstance(n, ast.FunctionDef)},
                )
                continue
            if isinstance(child, ast.Assign):
                for t in child.targets:
                    for e in t.elts if isinstance(t, ast.Tuple) else [t]:
                        if isinstance(e, ast.Attribute):
                            found.append((e, child.value, bound, defs, child.lineno))
            elif isinstance(child, (ast.AugAssign, ast.AnnAssign)):
                if isinstance(child.target, ast.Attribute) and child.value is not None:
                    found.append((child.target, child.value, bound, defs, child.lineno))
            elif (
                isinstance(child, ast.Call)
                and isinstance(child.func, ast.Name)
                and child.func.id == "setattr"
                and child.args
            ):
                found.append((child.args[0], None, bound, defs, child.lineno))
            visit(child, bound, defs)

    visit(tree, frozenset(), frozenset())
    return found, module_defs


def _target_object(mod, names):
    obj = mod
    for n in names:
        obj = getattr(obj, n, None)
        if obj is None:
            return None
    return obj


def _patches_in(tree, load):
    """(target as written, line) of each reassigned function in `tree`; `load()` gives
    its module (imported only when it has a candidate)."""
    found, module_defs = _assignments(tree)
    mod, out = None, []
    for target, value, bound, defs, line in found:
        if value is None:  # setattr(X, ...)
            names, attr = _chain(target), None
        else:
            names, attr = _chain(target.value), target.attr
        if names is None or names[0] in bound or names[0] in ("self", "cls"):
            continue
        if mod is None:
            mod = load()
        obj = _target_object(mod, names)
        if not (
            (inspect.ismodule(obj) and obj.__name__.split(".")[0] == "gradcli")
            or inspect.isclass(obj)
        ):
            continue
        if attr is not None and inspect.isclass(obj):
            now = inspect.getattr_static(obj, attr, None)
            if not (_is_routine(now) or _value_is_function(value, defs, module_defs)):
                continue
        out.append((".".join(names) + ("" if attr is None else "." + attr), line))
    return out


def _patches():
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = _module_name(path)
        tree = ast.parse(path.read_text(), str(path))
        for text, line in _patches_in(tree, lambda name=name: importlib.import_module(name)):
            out.append((name, text, line))
    return out


def test_no_module_reassigns_functions_of_another():
    bad = [f"{mod}:{line}: {text}" for mod, text, line in _patches() if (mod, text) not in ALLOWED]
    assert not bad, "functions reassigned from outside their definition:\n" + "\n".join(bad)


def test_the_allow_list_has_no_stale_entries():
    found = {(mod, text) for mod, text, _ in _patches()}
    stale = [k for k in ALLOWED if k not in found]
    assert not stale, f"allowed but no longer found (remove them): {stale}"


def test_the_reader_finds_a_reassignment():
    """The reader itself, on a module written for it: what it must catch and what not."""
    src = (
        "from gradcli.engine.function import Function\n"
        "from gradcli.engine import observe\n"
        "import sys\n"
        "class State:\n"
        "    counter = 0\n"
        "def f():\n"
        "    Function.apply = classmethod(lambda cls: None)\n"
        "    def tracer(): pass\n"
        "    observe.TRACER = tracer\n"
        "    setattr(Function, 'apply2', None)\n"
        "    State.counter += 1\n"  # data
        "    Function.name = 'X'\n"  # data
        "def g(Function):\n"
        "    Function.apply = None\n"  # a parameter: not the class
        "State.hook = g\n"
        "sys.stdout = None\n"  # not the package's
    )
    mod = types.ModuleType("probe")
    exec(compile(src, "probe", "exec"), mod.__dict__)
    got = _patches_in(ast.parse(src), lambda: mod)
    assert got == [
        ("Function.apply", 7),
        ("observe.TRACER", 9),
        ("Function", 10),
        ("State.hook", 15),
    ]
