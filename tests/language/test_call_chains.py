"""The call chain of an error raised in a function, a method or a special method:
each program runs in CPython and in gradcli, both tiers (`--no-fast-tier`), and the
rows of gradcli's chain name the same functions at the same lines as the frames of
CPython's traceback do (a method by its name, `__init__` when a class is called,
`__add__` under `+`, `__lt__` in `sorted`, a generator where it is resumed, a lambda
as `<lambda>`). CPython's comprehension frames (`<listcomp>`, `<genexpr>`) are left
out: gradcli runs a comprehension in the function around it, where CPython 3.12
inlines it too."""

from __future__ import annotations

import re
import traceback

import pytest

from tests.conftest import run_inprocess

PROGRAMS = {
    "method": """
class A:
    def m(self, x):
        return x + "a"

def f(a):
    return a.m(1)

f(A())
""",
    "method_at_top_level": """
class A:
    def m(self):
        return self.z

A().m()
""",
    "bound_method_called_later": """
class A:
    def m(self):
        return self.z

def f():
    g = A().m
    return g()

f()
""",
    "init": """
class A:
    def __init__(self, x):
        self.x = x + "a"

def f():
    return A(1)

f()
""",
    "super_init": """
class A:
    def __init__(self, x):
        self.x = x * "a" * 1.5

class B(A):
    def __init__(self, x):
        super().__init__(x)

b = B(2)
""",
    "operator": """
class V:
    def __init__(self, x):
        self.x = x
    def __add__(self, o):
        return V(self.x + o.x)

def total(vs):
    s = vs[0]
    for v in vs[1:]:
        s = s + v
    return s

total([V(1), V(2), V("s")])
""",
    "operator_in_top_level_loop": """
class V:
    def __init__(self, x):
        self.x = x
    def __mul__(self, k):
        return V(self.x * k + "a")

v = V(1)
for i in range(3):
    w = v * 2
""",
    "comparison_in_sorted": """
class P:
    def __init__(self, v):
        self.v = v
    def __lt__(self, o):
        return self.v < o.w

def f(xs):
    return sorted(xs)

f([P(1), P(2)])
""",
    "repr_and_len": """
class C:
    def __repr__(self):
        return 1 + "c"
    def __len__(self):
        return "x" + 1

def f(c, k):
    if k:
        return len(c)
    return repr(c)

f(C(), 0)
""",
    "call_getitem_bool": """
class C:
    def __call__(self, a):
        return a.q
    def __getitem__(self, k):
        return k + "a"
    def __bool__(self):
        return 1 + "b"

def run(k):
    c = C()
    if k == 0:
        return c[1]
    if k == 1:
        if c:
            return 1
    return c(3)

run(2)
""",
    "lambda_key": """
def f(xs):
    return sorted(xs, key=lambda x: x + "a")

f([1, 2])
""",
    "nested_functions": """
def outer(x):
    def inner(y):
        return y + "a"
    return inner(x)

class T:
    def m(self):
        return outer(self)

T().m()
""",
    "generator_in_a_loop": """
def gen(n):
    for i in range(n):
        yield i + "a"

def f():
    t = 0
    for x in gen(2):
        t = t + x
    return t

f()
""",
    "generator_in_a_comprehension": """
def gen(n):
    for i in range(n):
        yield i + "a"

def f():
    return [x for x in gen(2) if x]

f()
""",
    "generator_in_a_generator": """
def gen(n):
    for i in range(n):
        yield i + "a"

def g():
    for x in gen(2):
        yield x

for y in g():
    pass
""",
    "method_of_a_method": """
class Stack:
    def __init__(self):
        self.items = []
    def push(self, v):
        self.items.append(v)
        return self.check()
    def check(self):
        return self.items[0] + "a"

s = Stack()
s.push(1)
""",
}

_ROW = re.compile(r"^  <stdin>:(\d+)(?::\d+)?(?: in (\S+))?: ")


def _cpython_frames(source):
    """(line, function) of each frame of CPython's traceback for the program."""
    try:
        exec(compile(source, "<program>", "exec"), {"__name__": "__main__"})
    except Exception as e:
        frames = traceback.extract_tb(e.__traceback__)
    else:
        raise AssertionError("the program raised nothing in CPython")
    return [
        (f.lineno, f.name)
        for f in frames
        if f.filename == "<program>" and f.name not in ("<listcomp>", "<genexpr>")
    ]


def _gradcli_frames(stderr):
    """(line, function) of each row of gradcli's call chain (`<module>` for the top
    level, as CPython names it)."""
    rows = [_ROW.match(line) for line in stderr.splitlines()]
    return [(int(m.group(1)), m.group(2) or "<module>") for m in rows if m]


def _both(source):
    """The program run in both tiers (the command line raises Python's recursion limit
    for the process, runtime/stack.deepen); their outputs are the same."""
    fast, slow = [
        run_inprocess(source, ("eval", *flags, "-")) for flags in ((), ("--no-fast-tier",))
    ]
    assert (fast.stdout, fast.stderr, fast.returncode) == (
        slow.stdout,
        slow.stderr,
        slow.returncode,
    )
    return fast


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_call_chain_names_the_functions_as_python_does(name):
    source = PROGRAMS[name].lstrip("\n")
    expected = _cpython_frames(source)
    fast = _both(source)
    assert "call chain (innermost last):" in fast.stderr
    assert _gradcli_frames(fast.stderr) == expected


def test_recursion_through_a_method_keeps_its_words():
    """A method that calls itself without end: the depth limit's message and hint, the
    chain's rows named by the method (its middle folded)."""
    source = "class N:\n    def down(self, n):\n        return self.down(n + 1)\n\nN().down(0)\n"
    lines = _both(source).stderr.splitlines()
    assert "(1000 nested calls of user functions)" in lines[0]
    assert lines[0].startswith("<stdin>:3:")
    assert "maximum recursion depth exceeded" in lines[0]
    assert "hint: raise it with --max-depth" in lines
    rows = [m for m in map(_ROW.match, lines) if m]
    assert rows[0].group(2) is None  # (the top level's call)
    assert {m.group(2) for m in rows[1:]} == {"down"}
    assert any(line.startswith("  ... (") for line in lines)
