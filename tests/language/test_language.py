"""The Python of the tutorials: golden files recorded from torch 2.13
(scripts/gen_golden.py language from tests/language/language_cases.py), and the sandbox and
limits for what the language can now express (classes, generators, decorators,
the safe modules)."""

from __future__ import annotations

import contextlib
import io

import re

import pytest

from conftest import Run, assert_refused, check_result, load_golden, run_inprocess
from gradcli.runtime.errors import GradError
from gradcli.output import TextOutput
from gradcli.session import Session, reset_globals

CASES = load_golden("language.json")


@pytest.mark.parametrize("name", list(CASES))
def test_language_golden(name):
    case = CASES[name]
    result = run_inprocess(case["source"])
    check_result(
        result, case["stdout"], case["error"], what=name, warnings=case.get("warnings", ())
    )


# ---------------------------------------------------------------- sandbox

ESCAPES = [
    # classes: no dunder, no class internals, no Python object behind them
    ("class C:\n    pass\nC.__dict__", "AttributeError"),
    ("class C:\n    pass\nC.__subclasses__()", "AttributeError"),
    ("class C:\n    pass\nC.mro()", "AttributeError"),
    ("class C:\n    pass\nC().__class__", "AttributeError"),
    ("class C:\n    pass\nC().__dict__.__class__.__base__", "AttributeError"),
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
    ("import functools\nfunctools.partial(print, 1).func.__globals__", "AttributeError"),
    ("import functools\nfunctools.update_wrapper", "AttributeError"),
    ("import copy\ncopy.sys", "AttributeError"),
    ("import time\ntime.sleep(1)", "AttributeError"),
    ("import math\nmath.randn(2)", "AttributeError"),
    (
        "from collections import namedtuple\nP = namedtuple('P', 'x')\nP(1)._asdict.fn",
        "AttributeError",
    ),
    ("import os\nos.getcwd()", "AttributeError"),  # os, sys: empty modules
    ("import sys\nsys.modules", "AttributeError"),
    ("import numpy as np\nnp.load", "AttributeError"),  # numpy: an allowlist, no files
    ("import os\nos.__dict__", "AttributeError"),
    ("from sys import modules", "SyntaxError"),
    ("import os.path", "SyntaxError"),
    ("import math.os", "SyntaxError"),
    ("from os import path", "SyntaxError"),
    ("from functools import singledispatch", "SyntaxError"),
    ("import importlib", "SyntaxError"),
    # dict/set methods are an allowlist too
    ("{}.__class__", "AttributeError"),
    ("{}.fromkeys", "AttributeError"),
    ("set().__iand__", "AttributeError"),
]


# `x.__class__` is what type(x) gives (the language's value for the class): each attempt
# above that stopped there goes one step further now
ESCAPES = [
    (re.sub(r"\.__class__(?!\s*=[^=])", ".__class__.__subclasses__()", s), t) for s, t in ESCAPES
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
    r = _limited(source)
    e = r.error
    assert e is not None, f"{source!r} ran: {r.out!r}"
    assert e.type_name in ("LimitError", "ValueError"), (source, e.type_name, e.message)


def _limited(source):
    """Run with --max-steps 10**6."""
    from gradcli.runtime import context

    reset_globals()
    stream = io.StringIO()
    session = Session(TextOutput(stream), filename="<test>")
    session.context.limits.max_steps = 10**6
    context.activate(session.context)
    r = Run.__new__(Run)
    r.session, r.error, r.stream = session, None, stream
    with contextlib.redirect_stderr(io.StringIO()):
        try:
            session.run(source)
        except GradError as e:
            r.error = e
    reset_globals()
    r.out = stream.getvalue()
    return r


def test_limits_are_not_catchable():
    r = Run(
        "def f(n):\n    return f(n + 1)\ntry:\n    f(0)\nexcept Exception:\n    print('caught')"
    )
    assert r.error is not None and r.error.type_name == "LimitError"
    assert "caught" not in r.out


def test_class_instances_keep_their_own_attributes():
    r = Run("class C:\n    def __init__(self, v):\n        self.v = v\na = C(1)\nb = C(2)\n")
    assert r.error is None
    assert r.value("a").v == 1 and r.value("b").v == 2


# ------------------------------------------- the class rules (docs/developer/architecture.md)


def _run_with(source, **names):
    """Run source with Python values bound (library classes, as nn/autograd bind theirs)."""
    reset_globals()
    out = io.StringIO()
    session = Session(TextOutput(out), filename="<test>")
    session.scope.vars.update(names)
    with contextlib.redirect_stderr(io.StringIO()):
        try:
            session.run(source)
        except GradError as e:
            return out.getvalue(), e
    return out.getvalue(), None


class FakeModule:
    """A library base as nn.Module is one: registers tensors that require grad."""

    language_subclassable = True

    def __init__(self):
        self.__dict__["_params"] = {}

    def language_setattr(self, name, value):
        from gradcli.core.tensor import Tensor

        if type(value) is Tensor and value.requires_grad:
            self._params[name] = value
        self.__dict__[name] = value

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def __repr__(self):
        return f"{type(self).__name__}(params={len(self._params)})"

    language_methods = {"parameters": lambda self: list(self._params.values())}
    language_attrs = {"training": lambda self: True}


class FakeContext:
    def language_setattr(self, name, value):
        self.__dict__[name] = value

    language_methods = {"save_for_backward": lambda self, *t: self.__dict__.update(saved=t)}
    language_attrs = {"saved_tensors": lambda self: self.__dict__.get("saved", ())}


class FakeFunction:
    """A library base as torch.autograd.Function is one: Fn.apply calls cls.forward."""

    language_subclassable = True

    @classmethod
    def apply(cls, *args):
        ctx = FakeContext()
        out = cls.forward(ctx, *args)
        return out, cls.backward(ctx, 1.0)

    language_methods = {"apply": None}


def test_user_class_on_a_library_base():
    out, err = _run_with(
        """
class Lin(Base):
    def __init__(self, w):
        super().__init__()
        self.w = w
        self.note = 'plain'
    def forward(self, x):
        return x * self.w
m = Lin(tensor(2.0, requires_grad=True))
print(m(tensor(3.0)), len(m.parameters()), m.training, m.note)
print(m)
""",
        Base=FakeModule,
    )
    assert err is None, err
    assert out == "tensor(6., grad_fn=<MulBackward0>) 1 True plain\nLin(params=1)\n"


def test_user_function_class_with_static_methods():
    out, err = _run_with(
        """
class Double(Fn):
    @staticmethod
    def forward(ctx, x):
        ctx.k = 2
        ctx.save_for_backward(x)
        return x * ctx.k
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * ctx.k
print(Double.apply(3))
""",
        Fn=FakeFunction,
    )
    assert err is None, err
    assert out == "(6, 2.0)\n"


def test_library_base_internals_stay_out_of_reach():
    for source in (
        "class L(Base):\n    pass\nL()._params.__class__.__subclasses__()",
        "class L(Base):\n    pass\nL().__call__",
        "class L(Base):\n    pass\nL().language_setattr",
        "class L(Base):\n    pass\nL.language_methods",
    ):
        _, err = _run_with(source, Base=FakeModule)
        assert err is not None and err.type_name == "AttributeError", (source, err)


def test_the_time_module_reads_the_clocks():
    """`import time`: perf_counter, time, monotonic and process_time (the CPU time of the
    process, which scripts/bench.py reads inside a gradcli program) read Python's clocks;
    nothing else of the module is there."""
    r = run_inprocess(
        "import time\n"
        "t0 = time.process_time()\n"
        "s = 0.0\n"
        "for i in range(20000):\n"
        "    s += i\n"
        "t1 = time.process_time()\n"
        "print(t1 > t0, type(t1).__name__)\n"
        "print([type(f()).__name__ for f in (time.perf_counter, time.time, time.monotonic)])\n"
        "print(time.perf_counter() <= time.perf_counter())\n"
    )
    assert r.stdout == "True float\n['float', 'float', 'float']\nTrue\n", r.stderr
    assert_refused("import time\ntime.thread_time()", "AttributeError")


@pytest.mark.parametrize(
    "source",
    [
        "from __future__ import foo",
        "from __future__ import braces",
        "from __future__ import *",
        "from __future__ import division, nope",
    ],
)
def test_future_import_errors_are_pythons(source):
    """An unknown __future__ feature is Python's compile-time SyntaxError, in its words
    (taken from this CPython), placed at the feature's name."""
    with pytest.raises(SyntaxError) as py:
        compile(source, "<s>", "exec")
    e = assert_refused(source, "SyntaxError", py.value.msg)
    assert e.message == py.value.msg


def test_an_invalid_escape_keeps_its_backslash_without_a_warning():
    """`"a\\o"` is `a\\o`, as CPython 3.11 reads it, in the closures, the fast tier (an
    f-string in a def) and a docstring; the DeprecationWarning Python's compiler gives for
    it is not shown (nor made an error by warnings set to errors)."""
    import warnings

    source = (
        'x = "a\\o" + r"\\o"\n'
        "def f(n):\n"
        '    "doc \\d"\n'
        '    return f"b\\o{n}"\n'
        "print(x, f(1), f.__doc__)\n"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = run_inprocess(source)
    assert (out.stdout, out.stderr) == ("a\\o\\o b\\o1 doc \\d\n", "")
