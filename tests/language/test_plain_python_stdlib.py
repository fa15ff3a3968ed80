"""functools.partial, lru_cache and the lazy itertools as CPython answers them: a partial's
func, args and keywords, its repr, a partial of a partial; a cached function's hits,
misses, eviction and cache_info(); itertools.cycle, repeat, takewhile,
dropwhile, filterfalse, compress and tee; `class B(typing.NamedTuple)` with defaults,
methods and Python's errors, and NamedTuple's call; collections' classes (deque, OrderedDict, Counter,
defaultdict) to isinstance, issubclass and type(); `class Phase(enum.Enum)` with auto(),
aliases, methods, @unique and Python's errors; a function's own attributes (`f.calls = 0`),
kept through functools.wraps; abc's abstract classes; contextlib.contextmanager, its
errors raised at the yield, and `with ... as` binding what __enter__ gives. Each program runs in gradcli with the fast tier
and without it, and in the CPython running the tests; the three must print the same. An
endless cycle or repeat stops at the list-size limit, as itertools.count does.  `logging`'s
programs must also write the same on stderr (the time of `%(asctime)s` aside)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from conftest import run_inprocess

PROGRAMS = {
    "partial_parts_and_repr": """
import functools
def f(a, b=1, *, c=0):
    return a + b + c
p = functools.partial(f, 2, b=3)
print(p.func.__name__, p.args, p.keywords)
q = functools.partial(p, c=4)
print(q(), q(b=10), q.func is f, q.args, q.keywords, callable(q), type(q))
m = functools.partial(functools.partial(max, 5, key=abs), -7, key=None)
print(m, m(), m.args, functools.partial(max, [1, "a"]))
print(list(map(functools.partial(pow, 2), range(4))))
class A:
    def m(self, x, y):
        return x * y
print(functools.partial(A().m, 3)(4), functools.partial(sorted, key=len)(["aaa", "b", "cc"]))
try:
    functools.partial(5)
except TypeError as e:
    print(e)
""",
    "lru_cache_and_cache": """
import functools
from functools import lru_cache, cache
@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(30), fib.cache_info(), fib.__name__)
@lru_cache
def sq(x):
    print("computing", x)
    return x * x
print(sq(3), sq(3), sq(4), sq.cache_info())
sq.cache_clear()
print(sq.cache_info(), sq(3))
@cache
def f(a, b=2):
    return a + b
print(f(1), f(1, b=2), f(1, 2), f.cache_info().hits, f.cache_info().misses)
@lru_cache(maxsize=2)
def g(x):
    print("g", x)
    return -x
for v in (1, 2, 1, 3, 2, 1):
    g(v)
print(g.cache_info(), g.cache_info().currsize, type(g))
class P:
    def __init__(self, v):
        self.v = v
    def __hash__(self):
        return hash(self.v)
    def __eq__(self, o):
        return self.v == o.v
@cache
def h(p):
    print("h", p.v)
    return p.v
print(h(P(1)), h(P(1)), h(P(2)))
try:
    sq([1])
except TypeError as e:
    print(e)
""",
    "lazy_itertools": """
import itertools
print(list(itertools.islice(itertools.cycle("ab"), 5)), list(itertools.cycle([])))
print(list(itertools.repeat(7, 3)), list(itertools.repeat("x", -1)))
print(list(zip(range(3), itertools.repeat(0))), sum(itertools.islice(itertools.repeat(2), 10)))
print(list(itertools.takewhile(lambda x: x < 3, [1, 2, 5, 1])))
print(list(itertools.dropwhile(lambda x: x < 3, [1, 2, 5, 1])))
print(list(itertools.filterfalse(lambda x: x % 2, range(7))))
print(list(itertools.compress("abcdef", [1, 0, 1, 0, 1, 1])))
a, b = itertools.tee([1, 2, 3])
print(list(a), list(b), next(iter(itertools.tee("xy", 3)[2])), len(itertools.tee("x", 0)))
def gen():
    yield 1
    yield 2
c = itertools.cycle(gen())
print([next(c) for _ in range(5)])
for bad in (lambda: itertools.cycle(5), lambda: itertools.repeat(1, 2.5)):
    try:
        bad()
    except TypeError as e:
        print(e)
""",
    "typing_named_tuple_class": """
import typing
from typing import NamedTuple
class Batch(NamedTuple):
    "a batch"
    x: list
    y: int = 0
    scale = 2
    def total(self, extra=0):
        return sum(self.x) * self.scale + self.y + extra
b = Batch([1, 2], y=3)
print(b, b.total(), b.total(extra=1), b.scale, Batch.scale, Batch.__doc__, Batch._fields)
print(Batch._field_defaults, b._replace(y=5), b._asdict(), Batch._make([[4], 1]))
print(isinstance(b, Batch), isinstance(b, tuple), type(b) is Batch, type(b).__name__, len(b))
xs, y = b
print(xs, y, b[0], b == ([1, 2], 3), Batch([1]))
class P(typing.NamedTuple):
    a: int
print(P(1), P.__doc__, P.__name__)
Q = NamedTuple("Q", [("x", int), ("y", float)])
R = typing.NamedTuple("R", a=int)
print(Q(1, 2.0), Q._fields, R(a=3), type(R(1)) is R)
for bad in (lambda: NamedTuple("B", [("x", int)], y=int), lambda: NamedTuple("B", [("x",)])):
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
def local():
    class L(NamedTuple):
        z: int
    return L
print(local().__qualname__, type(local()(1)).__qualname__)
try:
    class A(NamedTuple):
        x: int = 1
        y: int
except TypeError as e:
    print(e)
try:
    class A(NamedTuple):
        _x: int
except ValueError as e:
    print(e)
try:
    class A(NamedTuple, object):
        x: int
except TypeError as e:
    print(e)
try:
    Batch()
except TypeError as e:
    print(e)
try:
    Batch(1, 2, 3)
except TypeError as e:
    print(e)
""",
    "collections_classes_are_types": """
import collections
from collections import Counter, OrderedDict, defaultdict, deque, namedtuple
q = deque([1, 2], maxlen=3)
print(isinstance(q, deque), isinstance(q, collections.deque), isinstance([], deque))
print(isinstance(q, (list, deque)), type(q) is deque, type(q), type(q).__name__, deque)
d = OrderedDict(a=1)
print(isinstance(d, OrderedDict), isinstance(d, dict), isinstance({}, OrderedDict))
print(issubclass(OrderedDict, dict), issubclass(Counter, dict), issubclass(deque, list))
print(isinstance(defaultdict(int), defaultdict), isinstance(Counter("ab"), Counter))
print(type(Counter("ab")) is Counter, OrderedDict, Counter, defaultdict)
P = namedtuple("P", "x y")
print(type(P(1, 2)) is P, type(P(1, 2)), P.__doc__)
""",
    "enum_classes": """
import enum
from enum import Enum, auto, unique
class Phase(enum.Enum):
    TRAIN = "train"
    EVAL = "eval"
    def short(self):
        return self.value[0]
class Color(Enum):
    RED = auto()
    GREEN = auto()
    CRIMSON = 1
print(Phase.TRAIN, repr(Phase.EVAL), Phase("eval"), Phase["TRAIN"], Phase.TRAIN.name)
print(list(Phase), len(Phase), Phase.TRAIN in Phase, [p.value for p in Phase], Phase.EVAL.short())
print(list(Color), Color.CRIMSON, Color(2), Color.RED is Color.CRIMSON, sorted(c.name for c in Color))
print(type(Phase.TRAIN), type(Phase.TRAIN) is Phase, Phase, type(Phase.EVAL).__name__)
print(isinstance(Phase.TRAIN, Phase), isinstance(Phase.TRAIN, Enum), isinstance("train", Phase))
d = {Phase.TRAIN: 1, Phase.EVAL: 2}
print(d[Phase.EVAL], f"{Phase.TRAIN}", str(Phase.EVAL), Phase.TRAIN == "train", {Phase.EVAL})
for ph in Phase:
    if ph is Phase.EVAL:
        print("eval phase", ph.value.upper())
class Base(Enum):
    def describe(self):
        return f"{self.name}={self.value}"
class Mode(Base):
    FAST = "f"
    SLOW = "s"
print(Mode.FAST.describe(), [m.describe() for m in Mode])
@unique
class U(Enum):
    X = 1
print(U.X)
try:
    Phase("test")
except ValueError as e:
    print(e)
try:
    Phase["X"]
except KeyError as e:
    print(repr(e))
try:
    class E2(Phase):
        X = 1
except TypeError as e:
    print(e)
try:
    @enum.unique
    class B(Enum):
        X = 1
        Y = 1
except ValueError as e:
    print(e)
""",
    "function_attributes": """
import functools
def f():
    return 1
f.calls = 0
f.calls += 1
f.tag = "x"
print(f.calls, f.tag, f())
def counted(fn):
    @functools.wraps(fn)
    def inner(*a):
        inner.calls += 1
        return fn(*a)
    inner.calls = 0
    return inner
@counted
def g(x):
    return x * 2
_ = g(1) + g(2)
print(g.calls, g.__name__)
def marked(fn):
    fn.marked = True
    return fn
@counted
@marked
def h():
    return 0
print(h.marked, h.calls)
class A:
    def m(self):
        return 1
A.m.note = 5
print(A().m.note)
for bad in ("A().m.other = 1", "print(f.nope)"):
    try:
        if bad.startswith("A"):
            A().m.other = 1
        else:
            print(f.nope)
    except AttributeError as e:
        print(e)
""",
    "abc_abstract_classes": """
import abc
from abc import ABC, abstractmethod

class Base(ABC):
    @abstractmethod
    def forward(self, x):
        pass

    @abstractmethod
    def loss(self, x):
        pass

    @staticmethod
    @abstractmethod
    def make():
        pass

    def run(self, x):
        return self.loss(self.forward(x))

class Half(Base):
    def forward(self, x):
        return x * 2

class Full(Half):
    def loss(self, x):
        return x + 1

    @staticmethod
    def make():
        return Full()

for c in (Base, Half, Full):
    try:
        print(c.__name__, c().run(3))
    except TypeError as e:
        print(e)
print(isinstance(Full(), Base), isinstance(Full(), ABC), issubclass(Full, abc.ABC), Full.make().run(1))
class Plain(ABC):
    def f(self):
        return 1
print(Plain().f())
""",
    "contextmanager_generators": """
import contextlib
from contextlib import contextmanager

@contextmanager
def tag(name):
    print("enter", name)
    try:
        yield name.upper()
    except ValueError as e:
        print("handled", e)
    finally:
        print("exit", name)

with tag("a") as t:
    print("body", t)
with tag("b"):
    raise ValueError("bad")
print("after b")
try:
    with tag("c"):
        raise KeyError("k")
except KeyError as e:
    print("outer", repr(e))

@contextlib.contextmanager
def noyield():
    if False:
        yield

try:
    with noyield():
        pass
except RuntimeError as e:
    print(e)

@contextmanager
def twice():
    yield 1
    yield 2
try:
    with twice() as v:
        print(v)
except RuntimeError as e:
    print(e)
with contextlib.nullcontext(5) as v:
    print(v)
def gen_use():
    with tag("g") as t:
        yield t
print(list(gen_use()))
""",
}


LOGGING = {
    "no_config": """
import logging
log = logging.getLogger(__name__)
log.info("not shown %d", 1)
log.debug("nor this")
log.warning("bare %s", "message")
print(log, logging.getLogger(), log.getEffectiveLevel(), log.isEnabledFor(logging.INFO))
logging.warning("lr too high: %s", 0.5)
logging.info("root at WARNING")
log.warning("now through the root's handler %d", 3)
log.setLevel(logging.DEBUG)
log.debug("debug %.4f", 1.23456)
print(logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR, logging.CRITICAL)
print(logging.getLevelName(20), logging.getLevelName(25), logging.getLevelName("INFO"))
log.error("err %(a)s", {"a": 1})
log.critical("100%")
log.log(35, "custom level")
c = logging.getLogger("__main__.child")
print(c, c.parent is log, c.name, logging.getLogger("__main__") is log)
c.info("child info %r", [1, "a"])
""",
    "warn_and_the_last_resort": """
import logging
log = logging.getLogger("a")
print(type(log).__name__, logging.root is logging.getLogger(), logging.root)
log.warn("old %d", 1)
logging.warn("old too")
log.handlers.clear()
log.setLevel(logging.INFO)
log.info("through the root's handler")
print(logging.getLogger("a.b").getEffectiveLevel(), log.hasHandlers())
logging.root.handlers = []
log.info("no handler: the last resort shows WARNING and above")
log.error("bare %s", "error")
""",
    "basic_config": """
import logging
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
log = logging.getLogger(__name__)
for epoch in range(2):
    log.info("epoch %d loss %.4f", epoch, 0.123456)
log.debug("not shown at INFO")
logging.basicConfig(level=logging.DEBUG)
log.debug("still not shown: the root has its handler")
print(logging.getLogger().level, log.getEffectiveLevel())
logging.basicConfig(level="DEBUG", format="%(name)s|%(levelno)d|%(message)s", force=True)
log.debug("now shown %s", (1, 2))
h = logging.StreamHandler()
h.setFormatter(logging.Formatter("[%(levelname)-8s] %(name)s: %(message)s"))
other = logging.getLogger("train")
other.addHandler(h)
other.propagate = False
other.info("own handler %r", "x")
for bad in ("LOUD", 1.5):
    try:
        log.setLevel(bad)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
try:
    logging.basicConfig(force=True, bogus=1)
except ValueError as e:
    print(e)
print(log.isEnabledFor(10), logging.getLogger("train") is other, other.handlers[0] is h)
logging.disable(logging.INFO)
log.info("disabled")
log.warning("shown %s", {"a": 1})
def train(n):
    for i in range(n):
        logging.getLogger("trainer").warning("step %d of %d", i, n)
train(2)
""",
}


def _times_aside(text):
    """The text with its times as TIME (and a program's file named as CPython's -c names it)."""
    text = text.replace("<stdin>:", "<string>:")
    return re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}", "TIME", text)


@pytest.mark.parametrize("tier", ((), ("--no-fast-tier",)), ids=("fast", "closures"))
@pytest.mark.parametrize("name", sorted(LOGGING))
def test_logging_writes_as_cpython(name, tier):
    source = LOGGING[name]
    r = run_inprocess(source, ("eval", *tier, "-"))
    assert r.returncode == 0, r.stderr
    py = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, timeout=60)
    assert r.stdout == py.stdout
    assert _times_aside(r.stderr) == _times_aside(py.stderr)
    assert "TIME INFO epoch 1" in _times_aside(r.stderr) or name != "basic_config"


@pytest.mark.parametrize(
    "source",
    (
        'import logging\ntry:\n    [][1]\nexcept IndexError:\n    logging.exception("x")\n',
        'import logging\nlogging.basicConfig(filename="log.txt")\n',
        'import logging\nlogging.basicConfig(format="%(funcName)s %(message)s")\n',
    ),
)
def test_logging_refuses_what_it_cannot_do_as_cpython(source):
    r = run_inprocess(source, ("eval", "-"))
    assert r.returncode != 0
    assert "NotImplementedError" in r.stderr or "reaches no files" in r.stderr


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


@pytest.mark.parametrize("call", ("itertools.cycle([1, 2])", "itertools.repeat(0)"))
def test_an_endless_iterator_listed_stops_at_the_list_size_limit(call):
    r = run_inprocess(f"import itertools\nlist({call})\n", ("eval", "-"))
    assert r.returncode != 0
    assert "LimitError" in r.stderr and "more than the limit of" in r.stderr


@pytest.mark.parametrize("tier", ((), ("--no-fast-tier",)), ids=("fast", "closures"))
def test_an_error_through_a_contextmanager_is_placed_in_the_block(tier):
    source = (
        "import contextlib\n@contextlib.contextmanager\ndef c():\n    yield 1\n"
        "def f():\n    with c():\n        x = [][1]\nf()\n"
    )
    r = run_inprocess(source, ("eval", *tier, "-"))
    assert r.returncode != 0
    assert ":7:16: IndexError: list index out of range" in r.stderr
    assert "yield" not in r.stderr
