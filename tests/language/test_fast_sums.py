"""sum(generator expression) in the fast tier, summed as it goes (fast_builtins.summed,
fast_comprehensions' kind "sum"): each program prints the same lines and ends with the
same error with the fast tier and without it (`--no-fast-tier`), and the general sum is
not reached."""

from __future__ import annotations

from unittest import mock

from gradcli.language import fast_builtins
from tests.conftest import run_inprocess
from tests.language.test_fast_tier import both

# clauses, a start, a generator as the items, a loop of the program, errors of the
# items' iteration, of an item and of an addition, in a call chain
SUMMED = (
    "import torch\n"
    "def gen(n):\n    for i in range(n):\n        yield i\n    raise ValueError('gen')\n"
    "def f(xs, k):\n    return (sum(x * y for x in xs for y in range(k) if y), "
    "sum((x for x in xs), 0.5), sum(x for x in []), sum(i for i, x in enumerate(xs)))\n"
    "print(f([1, 2.5], 3), f(range(4), 2))\n"
    "ws = [torch.tensor(v, requires_grad=True) for v in [0.5, -1.5]]\n"
    "for k in range(3):\n    s = sum(w * k for w in ws)\n    t = sum((w for w in ws), s)\n"
    "t.backward()\nprint(s, t, [w.grad for w in ws])\n"
    "def g(n):\n    return sum(x for x in gen(n))\n"
    "def h(xs):\n    return sum(x for x in xs)\n"
    "def chain(xs):\n    return h(xs)\n"
    "print(h([2, 3]))\n"
    "cases = [lambda: g(2), lambda: chain([1, 'a']), lambda: h([torch.ones(2), torch.ones(3)])]\n"
    "for case in cases:\n"
    "    try:\n        case()\n"
    "    except Exception as e:\n        print(type(e).__name__, e)\n"
    "chain([1, None])\n"
)


def test_summed_generators_both_ways():
    both(SUMMED)
    both(SUMMED, "--max-steps", "40")


def test_sum_of_a_generator_is_summed_as_it_goes():
    """sum(generator expression) in a function and in a loop of the program adds each
    item as the generator's loop makes it: no generator, no general sum's items."""
    source = (
        "import torch\nxs = [torch.tensor(1.5, requires_grad=True), 2.0]\n"
        "def f(k):\n    return sum(x * k for x in xs)\n"
        "for k in range(3):\n    s = sum(f(j) for j in range(k))\n"
        "print(s, sum(x for x in [1, 2]))\n"
    )
    refuse = mock.Mock(side_effect=AssertionError("the general sum"))
    with mock.patch.object(fast_builtins, "sum_items", refuse):
        r = run_inprocess(source)
    assert (r.returncode, r.stdout) == (0, "tensor(3.5000, grad_fn=<AddBackward0>) 3\n"), r.stderr
    both(source)
    both(source, "--max-steps", "30")
