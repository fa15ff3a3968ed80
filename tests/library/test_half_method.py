"""x.half(): a copy as torch.float16 (ToCopyBackward0), printed as torch 2.13 prints it
(the expected output recorded from torch with float64 as the default dtype)."""

import pytest

from conftest import run_inprocess

SOURCE = "x = torch.tensor([1.5, 2.25, 1e5, 0.1], requires_grad=True)\ny = x.half()\nprint(y)\nprint(y.dtype)\ny.sum().backward()\nprint(x.grad)\nprint(torch.tensor([3, 70000]).half())\n"

TORCH_OUTPUT = "tensor([1.5000, 2.2500,    inf, 0.1000], dtype=torch.float16,\n       grad_fn=<ToCopyBackward0>)\ntorch.float16\ntensor([1., 1., 1., 1.])\ntensor([3., inf], dtype=torch.float16)\n"


@pytest.mark.parametrize("tier", [(), ("--no-fast-tier",)])
def test_half_prints_as_torch(tier):
    r = run_inprocess(SOURCE, ("eval", *tier, "-"))
    assert r.returncode == 0, r.stderr
    assert r.stdout == TORCH_OUTPUT
