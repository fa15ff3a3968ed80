"""The Python of the tutorials (issue 13): golden files recorded from torch 2.13
(scripts/gen_golden_language.py from tests/language_cases.py), and the sandbox and
limits for what the language can now express (classes, generators, decorators,
the safe modules)."""
from __future__ import annotations

import pytest

try:
    from test_golden_cases import check_result, load_golden, run_inprocess
    from test_sandbox import Run, assert_refused
except ImportError:  # pragma: no cover - run from the repository root as a package
    from tests.test_golden_cases import check_result, load_golden, run_inprocess
    from tests.test_sandbox import Run, assert_refused

CASES = load_golden("language.json")


@pytest.mark.parametrize("name", list(CASES))
def test_language_golden(name):
    case = CASES[name]
    result = run_inprocess(case["source"])
    check_result(result, case["stdout"], case["error"], what=name,
                 warnings=case.get("warnings", ()))


# ---------------------------------------------------------------- sandbox

ESCAPES = [
    # classes: no dunder, no class internals, no Python object behind them
    ("class C:\n    pass\nC.__dict__", "AttributeError"),
    ("class C:\n    pass\nC.__subclasses__()", "AttributeError"),
    ("class C:\n    pass\nC.__mro__", "AttributeError"),
    ("class C:\n    pass\nC.__bases__", "AttributeError"),
    ("class C:\n    pass\nC.mro()", "AttributeError"),
    ("class C:\n    pass\nC().__class__", "AttributeError"),
    ("class C:\n    pass\nC().__dict__", "AttributeError"),
    ("class C:\n    def m(self):\n        pass\nC().m.__func__", "AttributeError"),
    ("class C:\n    def m(self):\n        pass\nC().m.fn", "AttributeError"),
    ("class C:\n    def m(self):\n        pass\nC.m.__globals__", "AttributeError"),
    ("class C:\n    pass\nc = C()\nc.__class__ = int", "AttributeError"),
    ("class C:\n    def __del__(self):\n        pass", "TypeError"),
    ("class C:\n    def __getattribute__(self, n):\n        pass", "TypeError"),
    ("class C:\n    def __init_subclass__(cls):\n        pass", "TypeError"),
    ("class C(int):\n    pass", "TypeError"),
    ("class C(type(1)):\n    pass", "TypeError"),
    ("class C(metaclass=print):\n    pass", "TypeError"),
    ("class C:\n    pass\nsuper(C, C()).__init_subclass__", "AttributeError"),
    ("class C:\n    def m(self):\n        return super().__class__\nC().m()", "AttributeError"),
    ("type(1).__subclasses__", "AttributeError"),
    ("type(ones(2))('x')", "TypeError"),
    # generators and iterators
    ("def g():\n    yield 1\ng().gi_frame", "AttributeError"),
    ("def g():\n    yield 1\ng().gi_code", "AttributeError"),
    ("def g():\n    yield 1\ng().fn", "AttributeError"),
    ("(x for x in [1]).gi_frame", "AttributeError"),
    ("zip([1]).items", "AttributeError"),
    # decorators and functions made by them
    ("@torch.no_grad()\ndef f():\n    pass\nf.fn", "AttributeError"),
    ("def f():\n    pass\nf.__code__", "AttributeError"),
    ("staticmethod(print).__func__", "AttributeError"),
    ("property(print).fget", "AttributeError"),
    # exceptions
    ("try:\n    1 // 0\nexcept Exception as e:\n    e.__traceback__", "AttributeError"),
    ("try:\n    1 // 0\nexcept Exception as e:\n    e.with_traceback", "AttributeError"),
    ("ValueError.__subclasses__()", "AttributeError"),
    # the modules: exactly their surface
    ("import math\nmath.__dict__", "AttributeError"),
    ("import math\nmath.os", "AttributeError"),
    ("import random\nrandom._inst", "AttributeError"),
    ("import random\nrandom.Random", "AttributeError"),
    ("import random\nrandom.seed.fn", "AttributeError"),
    ("import functools\nfunctools.partial(print, 1).func", "AttributeError"),
    ("import functools\nfunctools.update_wrapper", "AttributeError"),
    ("import copy\ncopy.sys", "AttributeError"),
    ("import time\ntime.sleep(1)", "AttributeError"),
    ("import math\nmath.randn(2)", "AttributeError"),
    ("from collections import namedtuple\nP = namedtuple('P', 'x')\nP(1)._asdict", "AttributeError"),
    ("import os", "SyntaxError"),
    ("import sys", "SyntaxError"),
    ("import numpy as np", "SyntaxError"),
    ("import math.os", "SyntaxError"),
    ("from os import path", "SyntaxError"),
    ("from functools import lru_cache", "SyntaxError"),
    ("import importlib", "SyntaxError"),
    # dict/set methods are an allowlist too
    ("{}.__class__", "AttributeError"),
    ("{}.fromkeys", "AttributeError"),
    ("set().__iand__", "AttributeError"),
]


@pytest.mark.parametrize("source,type_name", ESCAPES, ids=[s for s, _ in ESCAPES])
def test_language_escapes_are_errors(source, type_name):
    assert_refused(source, type_name)


# ---------------------------------------------------------------- limits

LIMITED = [
    # recursion through methods, generators and comprehensions hits --max-depth
    "class C:\n    def f(self, n):\n        return self.f(n + 1)\nC().f(0)",
    "def g(n):\n    yield from g(n + 1)\nlist(g(0))",
    "f = lambda n: [f(n + 1) for _ in [0]]\nf(0)",
    # sizes: comprehensions, generators, modules
    "[0 for _ in range(10 ** 9)]",
    "{i for i in range(10 ** 9)}",
    "def g():\n    i = 0\n    while True:\n        yield i\n        i += 1\nlist(g())",
    "import itertools\nlist(itertools.product(range(10 ** 5), range(10 ** 5)))",
    "import itertools\nitertools.product(range(10 ** 9))",
    "import math\nmath.factorial(10 ** 6)",
    "import random\nrandom.sample(range(10 ** 12), 10 ** 9)",
    "import random\nrandom.getrandbits(10 ** 9)",
]


@pytest.mark.parametrize("source", LIMITED)
def test_language_limits(source):
    from gradcli.base.limits import limits
    saved = limits.max_steps
    limits.max_steps = 10 ** 6
    try:
        e = assert_refused(source)
    finally:
        limits.max_steps = saved
    assert e.type_name in ("LimitError", "ValueError"), (source, e.type_name, e.message)


def test_limits_are_not_catchable():
    r = Run("def f(n):\n    return f(n + 1)\ntry:\n    f(0)\nexcept Exception:\n    print('caught')")
    assert r.error is not None and r.error.type_name == "LimitError"
    assert "caught" not in r.out


def test_class_instances_keep_their_own_attributes():
    r = Run("class C:\n    def __init__(self, v):\n        self.v = v\na = C(1)\nb = C(2)\n")
    assert r.error is None
    assert r.value("a").v == 1 and r.value("b").v == 2
