"""A comprehension of the fast tier over a plain lazy iterator (zip, enumerate or iter of
lists, tuples, ranges, strings or tensors) goes through its own iterator, not its
__next__: each program prints the same lines and ends with the same error with the
fast tier and without it (`--no-fast-tier`), also under --max-steps."""

from __future__ import annotations

from unittest import mock

import pytest

from gradcli.library.stdlib import LazyIterator
from tests.conftest import run_inprocess
from tests.language.test_fast_tier import both

# zip, enumerate, iter of lists, tensors and strings; an iterator shared with the
# comprehension's own `next`, one partly gone through, a generator's zip (not plain),
# a loop of the program, a generator expression and a sum over them
PROGRAM = (
    "import torch\n"
    "def f(a, b):\n"
    "    z = zip(a, b)\n    first = next(z)\n"
    "    return first, [x * y for x, y in z], {i: c for i, c in enumerate('abc', 1)}\n"
    "def g(a):\n"
    "    it = iter(a)\n    return [(x, next(it, None)) for x in it]\n"
    "def h(n):\n"
    "    return [p for p in zip((i for i in range(n)), 'xyz')], sum(i * v for i, v in enumerate([2, 3]))\n"
    "print(f([1, 2, 3], [4, 5, 6]), g([1, 2, 3, 4, 5]), h(5))\n"
    "t = torch.tensor([[1.0, 2.0], [3.0, 4.0]])\n"
    "for k in range(2):\n"
    "    rows = [r * k for r, w in zip(t, [1, 2])]\n"
    "    n = sum(len(s) for i, s in enumerate(['ab', 'c']))\n"
    "print(rows, n, [x for x in zip()])\n"
    "def bad(a):\n    return [x + 1 for x, y in zip(a, a)]\n"
    "bad([1, 'a'])\n"
)


@pytest.mark.parametrize("flags", [(), ("--max-steps", "20"), ("--max-steps", "1000")])
def test_plain_iterators_both_ways(flags):
    both(PROGRAM, *flags)


def test_plain_iterators_are_gone_through_directly():
    source = (
        "def f(a, b):\n    return [x * y for x, y in zip(a, b)], [i for i, _ in enumerate(a)]\n"
        "print(f([1, 2], [3, 4]))\n"
    )
    refuse = mock.Mock(side_effect=AssertionError("__next__ called"))
    with mock.patch.object(LazyIterator, "__next__", refuse):
        r = run_inprocess(source)
    assert (r.returncode, r.stdout) == (0, "([3, 8], [0, 1])\n"), r.stderr
