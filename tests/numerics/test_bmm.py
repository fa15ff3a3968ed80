"""torch.bmm and matmul with an operand of 3 or more dims, their gradients and grad_fn
names, bit for bit as PyTorch 2.13 computes them on the CPU (gradcli/numerics/linalg/bmm.py,
gradcli/numerics/mkl.py `bmm`; golden tests/golden/bmm.json from scripts/gen_golden.py bmm,
inputs in tests/numerics/bmm_cases.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bmm_cases import CASES, operand, out_grad

import gradcli.session  # noqa: F401  (registers the built-ins)
from gradcli.numerics.linalg.bmm import torch_bmm
from gradcli.core.tensor import Tensor
from gradcli.library.autograd_api import backward
from gradcli.ops.registry import FUNCTIONS
from conftest import digest as _digest, needs_mkl

GOLDEN = json.loads((Path(__file__).parents[1] / "golden" / "bmm.json").read_text("utf-8"))


@needs_mkl
@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: f"{c['case']}-{c['dtype']}")
def test_batched_products_and_their_gradients_are_pytorchs(case):
    i, dt = case["case"], case["dtype"]
    op, sa, sb, ta, tb, ga, gb = CASES[i]
    a = Tensor(operand(sa, ta, dt, 2 * i), requires_grad=ga)
    b = Tensor(operand(sb, tb, dt, 2 * i + 1), requires_grad=gb)
    r = FUNCTIONS[op](a, b)
    assert _digest(r.data) == case["out"]
    assert r.grad_fn.name == case["name"]
    backward(r, Tensor(out_grad(r.data.shape, dt, 100 + i)))
    if ga:
        assert _digest(a.grad.data) == case["ga"]
    if gb:
        assert _digest(b.grad.data) == case["gb"]


def test_the_golden_covers_every_case():
    assert len(GOLDEN["cases"]) == 2 * len(CASES)


def test_bmms_own_loop_rounds_each_product():
    """Below 400 multiply-adds an item bmm adds rounded products in order, from 0."""
    a = np.array([[[1e8, 1.0, -1e8]]], np.float32)
    b = np.array([[[1.0], [1.0], [1.0]]], np.float32)
    assert torch_bmm(a, b)[0, 0, 0] == 0.0  # (1e8 + 1) rounds to 1e8
    assert torch_bmm(np.zeros((2, 3, 0)), np.zeros((2, 0, 4))).shape == (2, 3, 4)


def test_bmm_errors():
    from gradcli.runtime.errors import GradRuntimeError

    with pytest.raises(GradRuntimeError, match="batch1 must be a 3D tensor"):
        FUNCTIONS["bmm"](Tensor(np.zeros((2, 3))), Tensor(np.zeros((2, 3, 4))))
    with pytest.raises(
        GradRuntimeError,
        match=r"Expected size for first two dimensions of "
        r"batch2 tensor to be: \[2, 3\] but got: \[2, 4\]",
    ):
        FUNCTIONS["bmm"](Tensor(np.zeros((2, 2, 3))), Tensor(np.zeros((2, 4, 4))))
