"""gradcli's float32 convolutions against PyTorch's, live, where PyTorch runs oneDNN's
direct AVX2 kernels (numerics/onednn_conv.py, docs/developer/numerics.md): the output,
the weight's and the bias's gradients and the input's, each where onednn_conv.plan says
the direct kernel computes it, on random shapes, strides and paddings (conv_cases.py),
with the compiled chains of numerics/native.py and without them.  Run against a Python with torch
($GRADCLI_TORCH_PYTHON, as the differential test), held to its AVX2 kernels; skipped
without one, or where torch runs another number of threads than gradcli's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import gradcli.session  # noqa: F401  (registers the built-ins)
from differential import runner
from differential.conv_cases import cases, digest, operands
from gradcli.core.tensor import Tensor
from gradcli.library.autograd_api import backward
from gradcli.numerics import native, onednn_conv
from gradcli.ops.registry import FUNCTIONS

HERE = Path(__file__).resolve().parent
SEED = 0


@pytest.fixture(scope="module")
def torch_results():
    return runner.torch_conv_results("conv_cases", SEED, len(cases(SEED)))


def gradcli_run(c):
    x_, w_, b_, g = operands(c)
    x, w = Tensor(x_, requires_grad=True), Tensor(w_, requires_grad=True)
    b = None if b_ is None else Tensor(b_, requires_grad=True)
    y = FUNCTIONS["conv2d"](x, w, b, stride=c["stride"], padding=c["padding"])
    backward(y, Tensor(g))
    plan = onednn_conv.plan(
        c["h"], c["w"], c["kh"], c["kw"], 1, c["stride"], c["padding"], (1, 1), g.shape[2:]
    )
    assert plan.weights  # (conv_cases draws these)
    out = {"gw": digest(w.grad.data), "gb": None if b is None else digest(b.grad.data)}
    if plan.forward:
        out["out"] = digest(y.data)
    if plan.data:
        out["gx"] = digest(x.grad.data)
    return out


def _differing(results):
    return [
        (c, key)
        for c, t in zip(cases(SEED), results)
        for key, got in gradcli_run(c).items()
        if got != t[key]
    ]


@pytest.mark.parametrize("path", ["native", "numpy"])
def test_convolutions_are_pytorchs(torch_results, path):
    if path == "native":
        if not native.available():
            pytest.skip("llvmlite is not installed")
        bad = _differing(torch_results)
    else:
        with native.numpy_only():
            bad = _differing(torch_results)
    assert not bad, f"{len(bad)} results differ from torch, first: {bad[:5]}"


def test_the_cases_reach_every_pass():
    """Most cases run the forward and the input's gradient through the direct kernels
    too, and some run neither (the forward's unrolling, strides)."""
    plans = [
        onednn_conv.plan(
            c["h"],
            c["w"],
            c["kh"],
            c["kw"],
            1,
            c["stride"],
            c["padding"],
            (1, 1),
            operands(c)[3].shape[2:],
        )
        for c in cases(SEED)
    ]
    assert sum(p.forward for p in plans) > len(plans) // 2
    assert sum(p.data for p in plans) > len(plans) // 4
    assert not all(p.forward for p in plans) and not all(p.data for p in plans)
