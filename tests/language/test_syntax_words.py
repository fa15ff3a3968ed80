"""Syntax errors in Python's words: the message, its type (IndentationError, TabError)
and its line, each compared with what the running CPython's own compiler says about the
same program (so the expectation is Python's, never typed by hand)."""

from __future__ import annotations

import re
import sys

import pytest

from conftest import run_inprocess

CASES = [
    "if True:\nprint(1)\n",
    "def f():\nreturn 1\n",
    "class A:\nx = 1\n",
    "for i in range(3):\npass\n",
    "while x:\n\npass\n",
    "try:\nx = 1\n",
    "try:\n  x = 1\nexcept:\nx\n",
    "if x:\n  pass\nelif y:\nx\n",
    "if x:\n  pass\nelse:\nx\n",
    "with no_grad():\nx\n",
    "@f\ndef g():\nreturn 1\n",
    "def f(x):\n",
    "class P:\n    def f(self):\n",
    "def f():\n    for i in range(3):\n",
    "class A\n  pass\n",
    "if x\n  pass\n",
    "for i in range(3)\n  print(i)\n",
    "def f(x) return x\n",
    "try:\n  pass\nx = 1\n",
    "try:\n  pass\n",
    "x = 3 if 2\n",
    "s = 'abc\n",
    "s = '''abc\n",
    "x = 1\n  y = 2\n",
    "if True:\n    x = 1\n  y = 2\n",
    "if True:\n\tx = 1\n        y = 2\n",
    "xs = [1]\nprint(sum(x for x in xs, 5))\n",
    "def f(xs):\n    return max(1, (y for y in xs), x for x in xs)\n",
    "xs = [1]\nprint(sum(x for x in xs,))\n",
    "xs = [1]\nprint(sum(x for x in xs , ))\n",
    "def f(xs):\n    return sum(x for x in xs,)\n",
    "xs = [1]\nprint([x for x in xs if (x := 1)])\n",
    "class C:\n    v = [y for x in [1] if (y := x)]\n",
    "def f():\n    return [[j for j in range(2) if (i := j)] for i in range(2)]\n",
]


def python_says(source):
    try:
        compile(source, "<stdin>", "exec")
    except SyntaxError as e:
        return type(e).__name__, e.msg, e.lineno
    raise AssertionError(f"CPython compiles {source!r}")


@pytest.mark.skipif(sys.version_info < (3, 11), reason="Python 3.11's messages")
@pytest.mark.parametrize("source", CASES)
def test_syntax_errors_say_what_python_says(source):
    kind, message, line = python_says(source)
    r = run_inprocess(source)
    assert r.returncode == 2, r
    first = r.stderr.splitlines()[0]
    m = re.match(r"<stdin>:(\d+):(\d+): (\w+): (.*)$", first)
    assert m, r.stderr
    assert (m[3], m[4], int(m[1])) == (kind, message, line), r.stderr
    assert "^" in r.stderr and "Traceback" not in r.stderr


def test_an_unknown_short_name_is_not_taken_for_a_keyword():
    r = run_inprocess("f(1)\n")
    assert "NameError: name 'f' is not defined" in r.stderr and "hint" not in r.stderr, r
    r = run_inprocess("whiel\n")
    assert "did you mean 'while'?" in r.stderr, r
