"""More of plain Python as CPython answers it (tests/language/test_plain_python.py's
companion): number literals in every base, the attributes and methods of numbers,
frozenset, id and ascii, str.format's field indexing and attributes, built-ins that
take no keywords, iterators' __next__, and the standard modules' groupby,
Counter.most_common and update, namedtuple._replace and its errors, and re.error.
Each program runs in gradcli with the fast tier and without it, and in the CPython
running the tests; the three must print the same."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import run_inprocess

PROGRAMS = {
    "container_special_methods_by_name": """
d = {"a": 1}
f = lambda k, v: d.__setitem__(k, v)
f("b", 2)
print(d, d.__getitem__("b"), d.__contains__("a"), d.__len__(), "z" in d)
d.__delitem__("a")
print(d)
lst = [3, 1, 2]
lst.__setitem__(0, 9)
print(lst, lst.__getitem__(-1), lst.__getitem__(slice(0, 2)), lst.__len__(), lst.__contains__(9))
lst.__delitem__(1)
print(lst, [1, 2].__getitem__(0), "abc".__getitem__(1), "abc".__len__(), "abc".__contains__("b"))
print(sorted(["x", "y", "w"], key={"x": 2, "y": 1, "w": 3}.__getitem__), max(d, key=d.__getitem__))
print({1, 2}.__contains__(2), {1, 2}.__len__())
for bad in [lambda: d.__getitem__("q"), lambda: lst.__getitem__(10), lambda: lst.__setitem__(10, 1), lambda: d.__contains__([]), lambda: d.__len__(1), lambda: d.__delitem__("q"), lambda: lst.__getitem__("a")]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
""",
    "type_is_after_dataclass_and_total_ordering": """
import functools
from dataclasses import dataclass
@dataclass
class P:
    x: float
@functools.total_ordering
class A:
    def __init__(self, v):
        self.v = v
    def __eq__(self, o):
        return self.v == o.v
    def __lt__(self, o):
        return self.v < o.v
def kinds(v):
    return type(v) is dict, type(v) is tuple, type(v) is list, type(v) is set
print(P(1), A(1) >= A(2), kinds({}), kinds(()), kinds([]), kinds(set()))
print(type({}) is dict, type((1,)) is tuple, isinstance(P(2), P), type(vars(P(3))) is dict)
""",
    "assignment_expressions": """
xs = [1, 2, 3, 4]
if (n := len(xs)) > 3:
    print("long", n)
ys = [y for x in xs if (y := x * 2) > 4]
print(ys, y)
def f(data):
    out = [z for d in data if (z := d ** 2) % 2 == 0]
    return out, z
print(f([1, 2, 3, 4, 6]))
i = 0
while (v := xs[i]) < 3:
    i += 1
print(v, i)
print((w := 10) + w, max(m := 3, 2), m, xs[(k := 1)], k)
def g():
    pairs = [(a, s) for a in range(4) if (s := a * a) > 1]
    return pairs, s
print(g())
print([[q := j * k for k in range(2)] for j in range(3)], q)
print((lambda a: (b := a + 1) * b)(2))
def counter():
    hits = 0
    def bump(v):
        nonlocal hits
        return [h for h in [v] if (hits := hits + h)]
    return bump, lambda: hits
bump, read = counter()
_ = bump(2)
_ = bump(3)
print(read(), sum(t for t in range(5) if (last := t) % 2), last)
def total(rows):
    count = 0
    for r in rows:
        if (c := len(r)) > 1:
            count += c
    return count, c
print(total([[1], [1, 2], [3, 4, 5]]), [u := 5, u + 1])
""",
    "a_builtin_type_lacks_an_attribute": """
for t in (str, int, float, bool, list, tuple, dict, set, frozenset, range):
    try:
        t.nope
    except AttributeError as e:
        print(e)
print(list(map(str.upper, ["a", "b"])), str.join("-", ["x", "y"]))
""",
    "an_attribute_object_lacks_names_object": """
class C:
    pass
for cls in C.__mro__:
    for name in ("zork", "__foo__"):
        try:
            getattr(cls, name)
        except AttributeError as e:
            print(e)
""",
    "number_literals_in_every_base": """
print(0xff, 0o17, 0b101, 1_000, 0XFF, 0B11, 0O7, 0x_f, 00_0, 0_0, 1.e5, .5, 1_0.5e-1_0)
def f(n):
    return -0x10 + 0b1 * 0o10 + n * 0xDEAD_BEEF + 1e1_0
print(f(2), [0b1 << k for k in range(3)])
""",
    "attributes_and_methods_of_numbers": """
def f(i, x):
    return (i.real, i.imag, i.bit_length(), i.as_integer_ratio(), i.bit_count(),
            i.conjugate(), i.numerator, i.denominator, x.is_integer(), x.hex(),
            x.as_integer_ratio(), x.real, x.imag, x.conjugate())
print(f(7, 2.5), f(-12, 2.0), True.real, (5).foo if False else 0)
print(int.bit_length(255), float.is_integer(3.0), list(map(int.bit_length, [1, 2, 300])))
print(float.fromhex("0x1.8p1"), dict.fromkeys("abc"), dict.fromkeys([1, 2], 0))
for bad in (float("inf"), float("nan")):
    try:
        bad.as_integer_ratio()
    except (OverflowError, ValueError) as e:
        print(type(e).__name__, e)
try:
    (5.0).bit_length()
except AttributeError as e:
    print(e)
try:
    dict.fromkeys([[1]])
except TypeError as e:
    print(e)
""",
    "frozenset_id_and_ascii": """
def f():
    a = frozenset([3, 1, 2, 2])
    print(a, len(a), 2 in a, type(a), isinstance(a, frozenset), frozenset(), sorted(a))
    print(a | {9}, a & frozenset([1, 5]), a - {1}, a.union([7]), a.issubset({1, 2, 3, 4}))
    d = {a: 1}
    print(d[frozenset([1, 2, 3])], a == {1, 2, 3}, repr(frozenset([1])))
    x = [1]
    print(id(x) == id(x), id(x) != id([1]), type(id(x)), ascii("h\\u00e9llo"), ascii([1, "\\u00fc"]))
    try:
        a.add(2)
    except AttributeError as e:
        print(e)
    try:
        frozenset([[1]])
    except TypeError as e:
        print(e)
f()
""",
    "format_fields_index_and_attributes": """
class A:
    def __init__(self):
        self.b = 4
def f():
    print('{0[1]}'.format([5, 6]), '{0[a]}'.format({'a': 3}), '{x[0][1]}'.format(x=[[1, 2]]))
    print('{a.b}'.format(a=A()), '{0.b:>5}|'.format(A()), '{0.real}'.format(3), '{0[0]}'.format("xyz"))
    print('{:{}}|'.format(3, 5), '{0:{1}.{2}f}'.format(3.14159, 10, 2), '{:>{w}}'.format('a', w=4))
    print('{!r:>8}|{!s:<5}|{!a}'.format('\\u00e9', 'x', '\\u00fc'), '{a}'.format_map({'a': 5}))
    for fmt, args in (('{0!x}', [1]), ('{0[}', [[1]]), ('{0.}', [[1]]), ('}', [1]),
                      ('{0[5]}', [[1]]), ('{0[a]}', [{'b': 1}]), ('{}{1}', [1, 2]),
                      ('{0.nope}', [A()])):
        try:
            fmt.format(*args)
        except (ValueError, IndexError, KeyError, AttributeError) as e:
            print(type(e).__name__, e)
f()
""",
    "isinstance_of_type": """
class A:
    pass
print(isinstance(int, type), isinstance(3, type), isinstance(A, type), isinstance(A(), type),
      isinstance(str, (int, type)), isinstance(len, type), isinstance(ValueError, type))
print(Ellipsis, ... is Ellipsis)
""",
    "built_ins_that_take_no_keywords": """
calls = [
    lambda: abs(x=1), lambda: len(obj=[1]), lambda: sorted(iterable=[1]),
    lambda: sorted([1], cmp=None), lambda: sum([1], zzz=1), lambda: min(key=len),
    lambda: enumerate([1], begin=1), lambda: list(x=[1]), lambda: chr(i=65),
    lambda: isinstance(obj=1, class_or_tuple=int), lambda: next(iterator=iter([1])),
]
for c in calls:
    try:
        c()
    except TypeError as e:
        print(e)
print(sum([1, 2], start=5), sorted([3, 1], reverse=True), enumerate([1], start=2).__next__())
""",
    "iterators_next_method_and_type": """
def g():
    yield 1
def f():
    e = enumerate("ab")
    print(next(e), e.__next__(), type(e), type(zip([1])), type(map(str, [1])))
    x = g()
    print(x.__next__(), iter(x) is x, x.__iter__() is x)
    it = iter([1, 2])
    print(it.__next__(), type(it))
    try:
        x.__next__()
    except StopIteration:
        print("done")
f()
""",
    "groupby_counter_namedtuple_and_re_error": """
import itertools, collections, re
from collections import namedtuple
for k, g in itertools.groupby("aabbbc"):
    print(k, list(g))
print([(k, len(list(g))) for k, g in itertools.groupby([1, 3, 2, 4, 5], key=lambda v: v % 2)])
c = collections.Counter("abracadabra")
print(c.most_common(2), c.most_common(), sorted(c.elements())[:4], c.total())
c.subtract("aaa")
print(c["a"], c)
P = namedtuple("P", "x y")
p = P(1, 2)
print(p._replace(x=5), p._asdict(), P._fields, p._fields, P._make([3, 4]))
try:
    re.sub("(", "", "x")
except re.error as ex:
    print(type(ex).__name__, ex, isinstance(ex, Exception), re.error, type(ex))
print("a\\tbc\\td".expandtabs(), "a\\tb".expandtabs(4), "x\\ty".expandtabs(tabsize=2))
""",
    "methods_refuse_keywords_as_python_does": """
def f():
    calls = [
        lambda: [1].append(x=1), lambda: [1].index(value=1), lambda: {1: 2}.get(key=1),
        lambda: "abc".replace(old="a", new="b"), lambda: "ab".strip(chars="a"),
        lambda: [1].pop(index=0), lambda: "a".split(x=1), lambda: [].sort(cmp=1),
        lambda: (7).bit_length(x=1), lambda: "a".ljust(width=3), lambda: divmod(a=7, b=2),
        lambda: int(x="10"), lambda: float(x="1"), lambda: max(), lambda: min(key=len),
        lambda: list(zip([1, 2], [2], strict=True)), lambda: list(zip([1], [2, 3], strict=True)),
        lambda: list(zip([1, 2], [2, 3], [4], strict=True)),
        lambda: list(zip([1], [2], [4, 5], strict=True)),
    ]
    for c in calls:
        try:
            c()
        except (TypeError, ValueError) as e:
            print(type(e).__name__, e)
    print("a,b".split(sep=","), sorted([2, 1], reverse=True), int("11", base=2))
f()
""",
    "strings_prefixes_translate_and_predicates": """
def f(s):
    t = str.maketrans("el", "ip")
    print(s.translate(t), s.translate({ord("h"): None, ord("o"): "0"}), u"abc", U"x" + R"\\d")
    print(s.isascii(), "A1".isdecimal(), "\u00bd".isnumeric(), "x".isprintable(), "Hello World".istitle())
    print(type(print), type(f), type([].append), type(len), str.maketrans({"a": "b"}))
f("hello")
""",
    "counter_update_adds_counts_and_namedtuples_refuse_in_pythons_words": """
from collections import Counter, namedtuple
def f(words):
    c = Counter(words[0])
    c.update(words[1])
    c.update({"x": 2, "a": -1}, y=4)
    c.update()
    return sorted(c.items())
print(f(["banana", "ab"]))
P = namedtuple("P", "a b c")
Q = namedtuple("Q", ["a", "b"], defaults=[0])
for call in (lambda: P(1, 2, 3, 4), lambda: P(1), lambda: P(), lambda: P(1, 2, d=3),
             lambda: P(1, 2, a=3), lambda: Q(1, 2, 3), lambda: Q(), lambda: P._make([1]),
             lambda: P(1, 2, 3)._replace(d=1, e=2), lambda: Q(1)._replace(b=7),
             lambda: namedtuple("R", "x x"), lambda: namedtuple("R", "a _b"),
             lambda: namedtuple("R", "a 1b"), lambda: namedtuple("R", ["a", "def"]),
             lambda: namedtuple("class", "a"), lambda: namedtuple("R", [1, True]),
             lambda: namedtuple("_R", "a, b  c")._fields):
    try:
        print(call())
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
""",
    "with_of_a_value_without_the_protocol_is_pythons_type_error": """
def f(v):
    with v:
        pass
def g(v):
    with v as w:
        yield w
for v in (5, None, "s", [1], {1: 2}, 2.5):
    for call in (lambda: f(v), lambda: list(g(v))):
        try:
            call()
        except TypeError as e:
            print(e)
""",
    "positional_only_parameters": """
import inspect
def f(a, b=1, /, c=2, *r, d=0, **k):
    return a + b + c + d
g = lambda a, /, b=2: a + b
def h(a, b, /, **kw):
    return a, b, kw
print(f(1), f(1, 2, c=3), g(1), g(1, b=5), h(1, 2, a=3), inspect.signature(f))
for call in (lambda: f(a=1), lambda: g(a=1), lambda: h(1, a=2)):
    try:
        call()
    except TypeError as e:
        print(e)
""",
    "set_displays_of_constants_in_cpythons_order": """
def f(n):
    print({-6, 73522, 4, 3716, 5}, {n, 73522, 4, 3716, 5}, {(1, 2), 33, -1, 97})
f(-6)
print({-6, 73522, 4, 3716, 5}, {9, 1 << 20, 17, 33})
""",
    "augmented_operators_refused_name_the_augmented_operator": """
class A:
    pass
class B:
    def __add__(s, o):
        return NotImplemented
    def __pow__(s, o):
        return NotImplemented
def tryit(f):
    try:
        f()
    except TypeError as e:
        print(e)
def f1():
    x = 1
    x += A()
def f2():
    y = [1]
    y -= A()
def f3():
    a = A()
    a *= 2
def f4():
    b = B()
    b += 1
def f5():
    b = B()
    b += B()
def f6():
    x = 2.0
    x **= A()
def f7():
    b = B()
    b **= 2
for f in (f1, f2, f3, f4, f5, f6, f7):
    tryit(f)
x = 1
try:
    x += A()
except TypeError as e:
    print(e)
b = B()
try:
    b += 1
except TypeError as e:
    print(e)
try:
    print(1 + A())
except TypeError as e:
    print(e)
""",
    "comparisons_of_objects_of_one_class": """
class F:
    def __init__(self, n, d):
        self.n = n
        self.d = d
    def __lt__(self, o):
        return self.n * o.d < o.n * self.d
    def __eq__(self, o):
        if not isinstance(o, F):
            return NotImplemented
        return self.n * o.d == o.n * self.d
    def __repr__(self):
        return f"F({self.n}, {self.d})"
class G:
    def __init__(self, v):
        self.v = v
    def __lt__(self, o):
        print("lt", self.v, o.v)
        return NotImplemented
    def __gt__(self, o):
        print("gt", self.v, o.v)
        return self.v > o.v
class H:
    def __lt__(self, o):
        return NotImplemented
    def __eq__(self, o):
        return NotImplemented
    def __ne__(self, o):
        return NotImplemented
def cmp(a, b):
    return a < b, a == b, a != b, a > b
def heapish(xs):
    out = []
    for x in xs:
        i = len(out)
        out.append(x)
        while i > 0 and out[i] < out[i - 1]:
            out[i], out[i - 1] = out[i - 1], out[i]
            i -= 1
    return out
print(cmp(F(1, 2), F(2, 4)), cmp(F(1, 3), F(1, 2)))
print(heapish([F(3, 4), F(1, 2), F(5, 6), F(1, 8)]))
print(sorted([F(3, 4), F(1, 2), F(1, 8)]))
def g(a, b):
    return a < b, b < a
print(g(G(1), G(2)))
def h(a, b):
    return a == b, a != b, a == a, a != a
x = H()
print(h(x, H()))
def bad(a, b):
    return a < b
try:
    bad(x, H())
except TypeError as e:
    print("TypeError", e)
""",
    "unbound_super": """
class A:
    def m(self):
        return super(A).__init__()
print(A().m(), repr(super(A)))
for attempt in (lambda: super(A).m, lambda: super(3), lambda: super(3, A())):
    try:
        attempt()
    except (AttributeError, TypeError) as e:
        print(type(e).__name__, e)
""",
    "in_place_special_methods": """
class Acc:
    def __init__(self, v):
        self.v = v
    def __iadd__(self, o):
        print("iadd", o.v if isinstance(o, Acc) else o)
        if isinstance(o, Acc):
            self.v += o.v
            return self
        return NotImplemented
    def __add__(self, o):
        print("add")
        if isinstance(o, Acc):
            return Acc(self.v + o.v)
        return NotImplemented
    def __imul__(self, o):
        self.v *= o
        return self
    def __repr__(self):
        return f"Acc({self.v})"
class P:
    def __init__(self, v):
        self.v = v
    def __add__(self, o):
        return P(self.v + o.v)
    def __repr__(self):
        return f"P({self.v})"
def f(a, b):
    c = a
    c += b
    c *= 3
    return a, c
print(f(Acc(1), Acc(2)))
def g(a, b):
    a += b
    return a
print(g(P(1), P(2)), g(Acc(1), Acc(5)))
def h(a, x):
    a += x
    return a
try:
    h(Acc(1), 2)
except TypeError as e:
    print("TypeError", e)
def k(a):
    a -= a
    return a
try:
    k(Acc(1))
except TypeError as e:
    print("TypeError", e)
""",
    "data_model_patterns_of_published_code": """
from dataclasses import dataclass, field

class Version:
    def __init__(self, major, minor=0):
        self.major, self.minor = major, minor
    @classmethod
    def parse(cls, text):
        a, b = text.split(".")
        return cls(int(a), int(b))
    @staticmethod
    def zero():
        return Version(0)
    @property
    def key(self):
        return (self.major, self.minor)
    def __eq__(self, o):
        return self.key == o.key
    def __lt__(self, o):
        return self.key < o.key
    def __ge__(self, o):
        return not self < o
    def __le__(self, o):
        return self < o or self == o
    def __hash__(self):
        return hash(self.key)
    def __repr__(self):
        return f"Version({self.major}.{self.minor})"

vs = [Version.parse("1.2"), Version(1), Version.zero(), Version.parse("0.9")]
print(sorted(vs), max(vs), Version(1, 2) >= Version(1, 1), Version(2) <= Version(1))
print({Version(1): "a"}[Version(1, 0)], len(set(vs + [Version(1)])))

class Countdown:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        return self
    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n

print(list(Countdown(3)), sum(Countdown(4)), [x * 2 for x in Countdown(2)])

class Timer:
    def __init__(self, name):
        self.name = name
        self.log = []
    def __enter__(self):
        self.log.append("enter " + self.name)
        return self
    def __exit__(self, exc_type, exc, tb):
        self.log.append(f"exit {exc_type.__name__ if exc_type else None}")
        return exc_type is KeyError

with Timer("a") as t:
    pass
with Timer("b") as u:
    {}["x"]
print(t.log, u.log)

@dataclass(order=True)
class Point:
    x: float
    y: float = 0.0
    tags: list = field(default_factory=list)

p = Point(1.0, 2.0)
print(p, p == Point(1.0, 2.0), Point(0.5) < p, p.tags)

class Temp:
    def __init__(self):
        self._c = 0.0
    @property
    def celsius(self):
        return self._c
    @celsius.setter
    def celsius(self, v):
        if v < -273.15:
            raise ValueError("too cold")
        self._c = v
    @property
    def fahrenheit(self):
        return self._c * 9 / 5 + 32

tt = Temp()
tt.celsius = 100.0
print(tt.fahrenheit)
try:
    tt.celsius = -300
except ValueError as e:
    print("ValueError", e)

class Poly:
    def __init__(self, *cs):
        self.cs = list(cs)
    def __call__(self, x):
        return sum(c * x ** i for i, c in enumerate(self.cs))
    def __len__(self):
        return len(self.cs)
    def __getitem__(self, i):
        return self.cs[i]
    def __contains__(self, v):
        return v in self.cs
    def __bool__(self):
        return any(self.cs)
    def __neg__(self):
        return Poly(*[-c for c in self.cs])
    def __format__(self, spec):
        return " + ".join(format(c, spec) for c in self.cs)
print(Poly(1, 2, 3)(2.0), len(Poly(1, 2)), Poly(1, 2)[1], 2 in Poly(1, 2), bool(Poly(0, 0)))
print(f"{Poly(1.5, 2.25):.1f}", (-Poly(1, 2)).cs, list(Poly(4, 5)))
""",
    "functools_total_ordering": """
import functools

@functools.total_ordering
class Version:
    def __init__(self, major, minor=0):
        self.major, self.minor = major, minor
    def __eq__(self, o):
        if not isinstance(o, Version):
            return NotImplemented
        return (self.major, self.minor) == (o.major, o.minor)
    def __lt__(self, o):
        if not isinstance(o, Version):
            return NotImplemented
        return (self.major, self.minor) < (o.major, o.minor)
    def __hash__(self):
        return hash((self.major, self.minor))
    def __repr__(self):
        return f"Version({self.major}.{self.minor})"

a, b = Version(1, 2), Version(1, 10)
print(a < b, a <= b, a > b, a >= b, a == b, a != b, b >= a, a <= a)
print(sorted([b, a, Version(0)]), max(a, b), min(a, b))
print(Version.__gt__.__name__, Version.__ge__.__qualname__)

@functools.total_ordering
class Rev:
    def __init__(self, v):
        self.v = v
    def __eq__(self, o):
        return self.v == o.v
    def __gt__(self, o):
        return self.v < o.v
print(Rev(1) > Rev(2), Rev(1) < Rev(2), Rev(1) <= Rev(1), Rev(3) >= Rev(2))
for bad in (lambda: a < 3, lambda: a >= "x"):
    try:
        bad()
    except TypeError as e:
        print("TypeError", e)
try:
    @functools.total_ordering
    class Nothing:
        pass
except ValueError as e:
    print("ValueError", e)
""",
    "object_called_a_bare_sentinel": """
MISSING = object()
def get(d, k, default=MISSING):
    v = d.get(k, MISSING)
    if v is MISSING:
        return "missing" if default is MISSING else default
    return v
print(get({1: 2}, 1), get({}, 1), get({}, 1, 0))
x, s = object(), object()
print(type(x), type(x) is object, isinstance(x, object), x == s, x != s, x is s, x == x)
print(len({x: 1, s: 2}), len({x, s, x}), bool(x), hash(x) == hash(x), str(x) == repr(x))
print(type(x).__name__, hasattr(x, "foo"), repr(x).startswith("<object object"))
for attempt in ("x.foo = 1", "x.foo", "object(1)", "object(a=1)"):
    try:
        exec_ = {"x.foo = 1": lambda: setattr(x, "foo", 1), "x.foo": lambda: x.foo,
                 "object(1)": lambda: object(1), "object(a=1)": lambda: object(a=1)}
        exec_[attempt]()
    except (AttributeError, TypeError) as e:
        print(attempt, type(e).__name__, e)
""",
    "generators_resumed_with_send": """
def averager():
    total, count, avg = 0.0, 0, None
    while True:
        v = yield avg
        if v is None:
            return count
        total += v
        count += 1
        avg = total / count
a = averager()
print(next(a), [a.send(x) for x in (10, 20, 3)])
try:
    a.send(None)
except StopIteration:
    print("done")
def inner():
    got = []
    while len(got) < 3:
        v = yield len(got)
        got.append(v)
    return got
def outer():
    r = yield from inner()
    print("inner gave", r)
    yield "end"
o = outer()
print(next(o), o.send("a"), o.send("b"), o.send("c"))
fresh = averager()
try:
    fresh.send(1)
except TypeError as e:
    print(e)
def plain():
    x = yield 1
    y = yield x
    yield (x, y)
p = plain()
print(p.send(None), next(p), p.send(5))
""",
    "sequences_compared_by_their_first_differing_items": """
for a, b in [((1, 2), ("a", 3)), ([1, [2, 3]], [1, [2, "x"]]), ((None,), (1,)),
             ((1, 2), (1, 2, 3)), ((1, "a"), (2, 3)), ([], [0]), ((1, 2.5), (1, 2.5))]:
    for op in ("<", "<=", ">", ">="):
        try:
            r = (a < b) if op == "<" else (a <= b) if op == "<=" else (a > b) if op == ">" else (a >= b)
            print(op, r)
        except TypeError as e:
            print(op, e)
""",
    "a_number_by_zero_is_pythons_zero_division_error": """
import math
def each(a, b):
    r = []
    for op in ("/", "//", "%", "**", "divmod", "pow"):
        try:
            if op == "/":
                r.append(a / b)
            elif op == "//":
                r.append(a // b)
            elif op == "%":
                r.append(a % b)
            elif op == "**":
                r.append(b ** -a)
            elif op == "divmod":
                r.append(divmod(a, b))
            else:
                r.append(pow(b, -1))
        except ZeroDivisionError as e:
            r.append(str(e))
    return r
for a, b in ((7, 0), (7.0, 0.0), (1, 0.0), (1.5, 0), (True, False), (0, 0), (7, 2), (-7.5, 2)):
    print(each(a, b))
def aug(a, b):
    r = []
    for op in range(4):
        x = a
        try:
            if op == 0:
                x /= b
            elif op == 1:
                x //= b
            elif op == 2:
                x %= b
            else:
                x = b
                x **= -2
            r.append(x)
        except ZeroDivisionError as e:
            r.append(str(e))
    return r
print(aug(3, 0), aug(3.0, 0.0), aug(3, 0.0), aug(3, 2))
t = 1.0
n = 0
i = 3
while i > -3:
    try:
        t += 6 / (i - 1) + 6.0 // (i + 1) + 6.5 % i + (i - 2) ** -1
        n += 1
    except ArithmeticError as e:
        print(i, type(e).__name__, e)
    i -= 1
print(t, n)
for k in range(3):
    try:
        print([1.0 / (j - k) for j in range(3)])
    except ZeroDivisionError as e:
        print("list", e)
    try:
        print({j: 10 % (j - k) for j in range(3)})
    except ZeroDivisionError as e:
        print("dict", e)
    try:
        print(sum(2 ** (k - j) for j in range(3)), sum(0 ** (k - j) for j in range(3)))
    except ZeroDivisionError as e:
        print("gen", e)
try:
    1 / 0
except ZeroDivisionError as e:
    print(repr(e), e.args)
for a, b, m in ((3, 2, 5), (1, 2, 0), (0, -1, 5)):
    try:
        print(pow(a, b, m))
    except ValueError as e:
        print("ValueError", e)
for a, b in ((7, 2), (1, 0), (1.0, 0.0), (-0.0, 3)):
    try:
        print(math.fmod(a, b))
    except ValueError as e:
        print("ValueError", e)
print(0 ** 0, 0.0 ** 0, 2 ** -1, 0.0 ** 0.5, 1 / 4, 7.5 // 2, -7 % 3, True / 2)
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


#: programs that end in a Python number by zero, and the operator it is at
BY_ZERO = (
    ("x = 3\ny = x / 0\n", "/"),
    ("print(1.0 / 0)\n", "/"),
    ("def f(x):\n    return x % 0.0\nfor i in range(3):\n    f(i)\n", "%"),
    ("t = 1.5\nfor i in range(3):\n    t //= i\n", "//="),
    ("print([i ** -1 for i in range(3)])\n", "**"),
    (
        "def g(n):\n    t = 0\n    while n >= -1:\n        t += 1 / n\n        n -= 1\n    return t\ng(2)\n",
        "/",
    ),
)


@pytest.mark.parametrize("tier", ((), ("--no-fast-tier",)), ids=("fast", "closures"))
@pytest.mark.parametrize(
    "source,op",
    BY_ZERO,
    ids=("top_level", "printed", "def_in_loop", "augmented", "comprehension", "while_in_def"),
)
def test_a_number_by_zero_uncaught_is_reported_as_pythons_errors_are(source, op, tier):
    """Python's ZeroDivisionError in its words, placed at the operator with its line and
    caret and ending the run as `7 // 0` does (it was inf or nan)."""
    python = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True)
    message = python.stderr.splitlines()[-1]
    assert message.startswith("ZeroDivisionError: "), python.stderr
    r = run_inprocess(source, ("eval", *tier, "-"))
    assert r.returncode == run_inprocess("7 // 0\n", ("eval", *tier, "-")).returncode == 1
    number, text = next((i, t) for i, t in enumerate(source.splitlines(), 1) if op in t)
    col = text.index(op) + 1
    first, shown, caret = r.stderr.splitlines()[:3]
    assert first == f"<stdin>:{number}:{col}: {message}", r.stderr
    assert (shown, caret) == ("    " + text, " " * (col + 3) + "^"), r.stderr


def test_a_number_by_zero_runs_in_the_fast_tier_and_tensors_keep_inf():
    """The program's defs and loops that divide by zero are the fast tier's (its guards
    leave the zero to binary_op); a tensor by zero, and a number by a zero tensor, stay
    PyTorch's inf and nan, and NumPy's scalars NumPy's."""
    from conftest import Run

    r = Run(PROGRAMS["a_number_by_zero_is_pythons_zero_division_error"])
    assert r.error is None
    assert r.session.scope.vars["each"].fast is not None
    assert r.session.scope.vars["aug"].fast is not None
    source = (
        "import numpy as np\nimport torch\nx = torch.tensor([1.0, -1.0, 0.0])\n"
        "def f(t, k):\n    return t / k, k / t, t // k, t % k, t ** -1\n"
        "for k in (0, 0.0):\n    print(x / k, x // k, x % k, 1 / torch.tensor(0.), k ** torch.tensor(-1.))\n"
        "    print(*f(torch.tensor(0.), k))\n"
        "print(np.float64(1) / 0, np.float64(1) // 0, np.float64(1) % 0, np.float64(0) ** -1)\n"
    )
    row = (
        "tensor([inf, -inf, nan]) tensor([inf, -inf, nan]) tensor([nan, nan, nan]) tensor(inf) "
        "tensor(inf)\ntensor(nan) tensor(nan) tensor(nan) tensor(nan) tensor(inf)\n"
    )
    for tier in ((), ("--no-fast-tier",)):
        r = run_inprocess(source, ("eval", *tier, "-"))
        assert r.returncode == 0, r.stderr
        assert r.stdout == row + row + "inf inf nan inf\n"


@pytest.mark.parametrize(
    "text", ("0x", "0b12", "0o8", "010", "0_1", "1__0", "1_", "1.5_", "0__0", "0b1_")
)
def test_a_malformed_number_literal_is_pythons_syntax_error(text):
    try:
        compile(f"x = {text}\n", "<program>", "exec")
    except SyntaxError as e:
        python = e.msg
    else:
        raise AssertionError(text)
    r = run_inprocess(f"x = {text}\n")
    assert r.returncode != 0
    assert f"SyntaxError: {python}" in r.stderr.splitlines()[0], (python, r.stderr)


@pytest.mark.parametrize(
    "source",
    (
        "def f(/, a):\n    pass\n",
        "def f(a, /, /):\n    pass\n",
        "def f(*, a, /):\n    pass\n",
        "x = 1j\n",
        "x = b'abc'\n",
    ),
)
def test_what_stays_out_is_a_syntax_error_with_the_reason(source):
    r = run_inprocess(source)
    assert r.returncode != 0
    first = r.stderr.splitlines()[0]
    try:
        compile(source, "<program>", "exec")
    except SyntaxError as e:  # Python's own words where Python refuses it too
        assert f"SyntaxError: {e.msg}" in first, first
    else:  # a literal of a type gradcli has not: its reason
        assert "SyntaxError:" in first and "not supported" in first, first


def test_complex_and_bytes_are_refused_with_the_reason_and_answer_isinstance():
    r = run_inprocess("print(isinstance(1, complex), isinstance('a', bytes), complex)\n")
    assert r.stdout == "False False <class 'complex'>\n", r.stderr
    for call in ("complex(1, 2)", "bytes([65])", "'a'.encode()"):
        r = run_inprocess(call + "\n")
        assert r.returncode != 0
        assert "gradcli has no" in r.stderr or "not supported" in r.stderr, r.stderr


@pytest.mark.parametrize("tier", ((), ("--no-fast-tier",)), ids=("fast", "closures"))
def test_an_error_in_a_generated_method_shows_its_generated_line(tier):
    # dataclass's and total_ordering's methods are generated text: an error in one is
    # placed in that text (Python's `<string>`), the program's call and method beside it
    source = """from dataclasses import dataclass
import functools
@dataclass(order=True)
class P:
    x: int
    y: int
@functools.total_ordering
class V:
    def __init__(self, v):
        self.v = v
    def __eq__(self, o):
        return self.v == o.v
    def __lt__(self, o):
        return self.v < o.v
try:
    V(1) >= 3
except AttributeError as e:
    print(e)
print(P(1, 2) < P("a", 3))
"""
    r = run_inprocess(source, ("eval", *tier, "-"))
    assert r.returncode == 1
    assert r.stdout == "'int' object has no attribute 'v'\n"
    first = r.stderr.splitlines()[0]
    assert first.startswith("<dataclass>:"), r.stderr
    assert first.endswith("TypeError: '<' not supported between instances of 'int' and 'str'")
    assert "return (self.x, self.y" in r.stderr
    assert "<stdin>:19:" in r.stderr  # the program's line in the call chain
