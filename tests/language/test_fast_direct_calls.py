"""Calls the fast tier makes without the general call's steps, each where no code of the
program can run: a tensor's method of a pure op (`fast_builtins.tensor_site`), an op
that declares itself quiet (`torch.where`, `torch.ones_like`: `torch_site`), a
custom Function's `ctx.saved_tensors` (`language_quiet_attrs`), a comparison of a tensor
with a tensor or a number, `&` of two tensors.  Each program prints, and fails, as it
does with the fast tier off; the sites answer what the general call answers."""

from __future__ import annotations

import pytest

import gradcli.session  # noqa: F401  (loads every op and built-in)
from gradcli.core.tensor import Tensor
from gradcli.language.fast_builtins import SLOW, tensor_site
from gradcli.ops.creation import tensor
from tests.language.test_fast_tier import both

_METHODS = (
    "def f(x, y, k):\n"
    "    return x.clamp(-k, k), x.mean(), x.sum(1), x.pow(2), x.add(y), x.t().exp()\n"
    "x = torch.tensor([[-2.0, 0.5, 3.0], [1.0, -0.25, 0.0]], requires_grad=True)\n"
    "y = torch.tensor([1.0, 2.0, 3.0])\n"
    "out = f(x, y, 1.0)\n"
    "print(out)\n"
    "sum(o.sum() for o in out).backward()\n"
    "print(x.grad)\n"
)
_SAVED = (
    "import inspect\n"
    "class Sq(torch.autograd.Function):\n"
    "    @staticmethod\n"
    "    def forward(ctx, x):\n"
    "        ctx.save_for_backward(x)\n"
    "        return x * x\n"
    "    @staticmethod\n"
    "    def backward(ctx, g):\n"
    "        (x,) = ctx.saved_tensors\n"
    "        print(ctx.needs_input_grad)\n"
    "        return 2 * x * g\n"
    "def up(t):\n"
    "    fr = inspect.currentframe().f_back\n"
    "    print('unpacked', fr is not None)\n"
    "    return t\n"
    "x = torch.tensor([1.0, -3.0], requires_grad=True)\n"
    "Sq.apply(x).sum().backward()\n"
    "print(x.grad)\n"
    "with torch.autograd.graph.saved_tensors_hooks(lambda t: t, up):\n"
    "    y = Sq.apply(x)\n"
    "y.sum().backward()\n"
    "print(x.grad)\n"
)
_COMPARED = (
    "def f(x, y, k):\n"
    "    return (x >= -k) & (x <= k), x < y, x == y, x != 2, x > True, (x > 0) & (y > 1)\n"
    "x = torch.tensor([-2.0, 0.5, 3.0])\n"
    "print(f(x, torch.tensor([1.0, 0.5, 2.0]), 1.0))\n"
    "def g(x, v):\n"
    "    return x == v, x != v\n"
    "print(g(x, None), g(x, 'a'))\n"
)

_QUIET = (
    "def f(x, k):\n"
    "    m = torch.where(x > 0, torch.ones_like(x), torch.full_like(x, k))\n"
    "    return m, torch.zeros_like(x), torch.where(x < 1, x, 2.0), x.where(x > 0, m)\n"
    "x = torch.tensor([-2.0, 0.5, 3.0], requires_grad=True)\n"
    "out = f(x, 0.25)\n"
    "print(out)\n"
    "out[2].sum().backward()\n"
    "print(x.grad)\n"
)

PROGRAMS = {
    "tensor_methods": _METHODS,
    "tensor_method_error": _METHODS.replace("x.sum(1)", "x.sum(5)"),
    "tensor_method_list_argument": _METHODS.replace("x.add(y)", "x.add([1.0, 2.0, 3.0])"),
    "tensor_method_of_pure_method_op_with_tensor": _METHODS.replace("x.pow(2)", "x.pow(y)"),
    "ctx_saved_tensors": _SAVED,
    "ctx_saved_tensors_twice": _SAVED.replace(
        "        print(ctx.needs_input_grad)\n", "        print(len(ctx.saved_tensors))\n"
    ),
    "quiet_ops": _QUIET,
    "quiet_op_error": _QUIET.replace("torch.where(x > 0,", "torch.where(x,"),
    "negated_float_literals": (
        "def f(x):\n    return -0.0, -1.5, -(2.0), -x, 1 / -0.0 if x else -1e308 * 10\n"
        "print(f(0), f(2.5))\nprint(f(torch.tensor([1.0])))\n"
    ),
    "compared": _COMPARED,
    "compared_badly": _COMPARED + "print(g(x, [1.0, 2.0, 3.0]), x < 'a')\n",
    "bitwise_float_tensors": _COMPARED + "print(x & x)\n",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_direct_calls_both_ways(name):
    both(PROGRAMS[name])


def test_tensor_site_answers_only_its_case():
    """A pure op's method with tensors and numbers is called; another argument, a method
    of no pure op (backward: it runs hooks) has no site or answers SLOW."""
    x = tensor([[-2.0, 0.5], [3.0, 1.0]])
    r = tensor_site("clamp", 1, 0)(x, -1.0, 1.0)
    assert type(r) is Tensor and r.data.tolist() == [[-1.0, 0.5], [1.0, 1.0]]
    assert tensor_site("clamp", 1, 0)(x, "a", 1.0) is SLOW
    assert tensor_site("pow", 1, 0)(x, x) is SLOW  # (pure as a method with numbers only)
    assert type(tensor_site("pow", 1, 0)(x, 2)) is Tensor
    assert tensor_site("backward", 1, 0) is None
    assert tensor_site("register_hook", 1, 0) is None


def test_quiet_ops_are_called_directly():
    """An op declared quiet (never replayed) is called by torch's namespace's site."""
    from gradcli.language.fast_builtins import torch_site
    from gradcli.library.torch_ns import namespace

    x = tensor([-2.0, 0.5])
    ones = torch_site("ones_like", 1, 0)(namespace(), x)
    assert type(ones) is Tensor and ones.data.tolist() == [1.0, 1.0]
    picked = torch_site("where", 1, 0)(namespace(), x > 0.0, x, 3.0)
    assert picked.data.tolist() == [3.0, 0.5]
    assert torch_site("randint", 1, 0) is None  # (neither pure nor quiet)
