"""An object's variables as Python shows them (`obj.__dict__`, `vars(obj)`: a live dict in
Python's names that writes through to the object), the set operators of a dict's keys
and items views, `ast.literal_eval`, and an import in a function's body of a module the
language has not (Python's ModuleNotFoundError when it runs).  Each program runs in
gradcli with the fast tier and without it, and in the CPython running the tests; the
three must print the same."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import run_inprocess

PROGRAMS = {
    "a_config_class_fills_its_dict": """
class CfgNode:
    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)
    def __str__(self):
        return "".join("%s: %s\\n" % (k, v) for k, v in self.__dict__.items())
    def to_dict(self):
        return {k: v.to_dict() if isinstance(v, CfgNode) else v for k, v in self.__dict__.items()}
    def merge_from_dict(self, d):
        self.__dict__.update(d)
c = CfgNode(a=1, b="x")
c.sub = CfgNode(n=None)
c.merge_from_dict({"lr": 3e-4, "betas": (0.9, 0.95)})
print(c, end="")
print(c.to_dict(), c.lr, hasattr(c, "betas"))
""",
    "the_dict_is_live_and_writes_through": """
class P:
    cls_attr = 5
    def __init__(self):
        self.x = 1
        self.language_model = "kept apart by the language, shown by its name"
p = P()
d = p.__dict__
print(d, vars(p) == d, type(d), type(d) is dict, isinstance(d, dict), len(d))
p.y = 2
print(d, "y" in d, list(d), d["y"], d.get("z", 0), sorted(d.items()), "cls_attr" in d)
d["z"] = 3
print(p.z, p.language_model[:4])
del d["x"]
print(hasattr(p, "x"), d.pop("y"), d.pop("q", None), d.setdefault("k", []), p.k)
d.update({"u": 1}, v=2)
print(p.u, p.v, dict(d), {**d}, d.copy(), list(reversed(d)), d | {"w": 0})
p.__dict__ |= {"w": 9}
print(p.w)
p.__dict__ = {"only": 1}
print(vars(p), hasattr(p, "u"))
vars(p).clear()
print(vars(p), p.__dict__)
for bad in ({"s": 1}, [("t", 2)]):
    p.__dict__.update(bad)
print(sorted(vars(p)))
""",
    "the_dict_prints_copies_and_formats_as_a_dict": """
import copy
import json
class Box:
    def __init__(self, a, b):
        self.a, self.b = a, b
    def __repr__(self):
        return f"{type(self).__name__}({self.__dict__})"
b = Box(1, [2, 3])
print(b, repr(vars(b)), str(b.__dict__), f"{b.__dict__!r:>30}", "{0.__dict__}".format(b))
print(json.dumps(vars(b)), json.dumps(b.__dict__, sort_keys=True))
c = copy.deepcopy(vars(b))
c["b"].append(4)
print(c, b.b, copy.copy(b.__dict__) == vars(b), vars(b) != {"a": 1})
e = copy.copy(b)
e.a = 7
print(vars(e), vars(b), sorted(vars(b).keys() - {"a"}), [k for k in b.__dict__])
""",
    "subclasses_have_one": """
class A:
    def __init__(self):
        self.a = 1
class B(A):
    def __init__(self):
        super().__init__()
        self.b = 2
print(vars(B()), B().__dict__)
""",
    "argparse_namespace_has_one": """
import argparse
p = argparse.ArgumentParser()
p.add_argument("--lr", type=float, default=0.1)
p.add_argument("--epochs", type=int, default=3)
args = p.parse_args(["--lr", "0.5"])
print(vars(args), args.__dict__, vars(args) is args.__dict__)
for k, v in vars(args).items():
    print(k, v)
vars(args)["epochs"] = 7
args.__dict__.update(seed=1)
print(args.epochs, args.seed, args)
""",
    "what_has_no_dict": """
for v in (1, "s", [1], None, print):
    try:
        vars(v)
    except TypeError as e:
        print(e)
class C:
    pass
try:
    vars(C(), C())
except TypeError as e:
    print(e)
try:
    C().__dict__ = 3
except TypeError as e:
    print(e)
""",
    "keys_and_items_views_as_sets": """
d = {"a": 1, "b": 2, "c": 3}
print(sorted(d.keys() - {"a"}), sorted(d.keys() - ["b"]), sorted(["a", "z"] - d.keys()))
print(sorted(d.keys() & {"a", "q"}), sorted(d.keys() | {"q"}), sorted(d.items() & {("a", 1)}))
print(sorted({"q"} | d.keys()), sorted(("a",) & d.keys()), type(d.keys() - set()))
k = d.keys()
k -= {"a"}
print(sorted(k), len(d))
try:
    d.values() - {1}
except TypeError as e:
    print(e)
def split(named, used):
    return sorted(named.keys() - used), len(named.keys() - used) == 0
print(split({"w": 1, "b": 2}, {"w"}), split({"w": 1}, {"w"}))
""",
    "literal_eval_of_the_literals": """
from ast import literal_eval
import ast
for t in ["20", "3.5e-4", "(0.9, 0.95)", "[1, {'a': None}]", "True", "'x'", "-3", "{1, 2}",
          " 7", "1_000", "None"]:
    v = literal_eval(t)
    print(repr(v), type(v).__name__)
for t in ["abc", "f(1)", "1 + x", 3, None]:
    try:
        print(ast.literal_eval(t))
    except ValueError as e:
        print("ValueError", str(e).split(":")[0])
""",
    "an_import_in_a_function_fails_when_it_runs": """
def from_pretrained():
    from transformers import GPT2LMHeadModel
    return GPT2LMHeadModel
def plot():
    try:
        import math, tqdm
    except ImportError as e:
        print(type(e).__name__, e, math.pi > 3)
        return None
def nested():
    def inner():
        import wandb.sdk as w
        return w
    return inner
print("defined")
plot()
for f in (from_pretrained, nested()):
    try:
        f()
    except ModuleNotFoundError as e:
        print(type(e).__name__, e, isinstance(e, ImportError))
""",
}


def _cpython(source):
    r = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.mark.parametrize("tier", ((), ("--no-fast-tier",)), ids=("fast", "closures"))
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_as_cpython_prints(name, tier):
    source = PROGRAMS[name]
    r = run_inprocess(source, ("eval", *tier, "-"))
    assert r.returncode == 0, r.stderr
    assert r.stdout == _cpython(source)


@pytest.mark.parametrize(
    "source, words",
    (
        ("class C:\n    pass\nc = C()\nc.__dict__['__len__'] = 1\n", "special names"),
        ("class C:\n    pass\nc = C()\nc.__dict__[1] = 1\n", "named by strings"),
        ("class C:\n    pass\nc = C()\nc.__dict__.update({2: 0})\n", "named by strings"),
        ("class C:\n    pass\nc = C()\nc.__dict__ = {'__init__': print}\n", "special names"),
        ("vars()\n", "reads the caller's frame"),
        ("import torch\nvars(torch.nn.Linear(1, 1))\n", "library's own state"),
        ("import torch\nclass M(torch.nn.Module):\n    pass\nM().__dict__\n", "library's own"),
        ("class E(ValueError):\n    pass\nvars(E())\n", "library's own state"),
    ),
)
def test_what_has_no_dict_here_is_refused_with_the_reason(source, words):
    r = run_inprocess(source)
    assert r.returncode == 1
    assert words in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_an_unknown_module_at_top_level_stays_a_syntax_error():
    r = run_inprocess("print(1)\nimport transformers\n")
    assert r.returncode == 2 and r.stdout == ""
    assert "SyntaxError: no module named 'transformers'" in r.stderr
