"""gradcli's convolutions against PyTorch's, live, where PyTorch makes MKL's per-sample
gemms on its two threads and gradcli computes the threads' parts on one
(gradcli/numerics/mkl.py's `cut` and `shared`, docs/developer/numerics.md): float64
convolutions with groups and dilations and float32 single samples (conv_gemm_cases.py),
the output and the gradients of the input, weight and bias.  Run against a Python with
torch ($GRADCLI_TORCH_PYTHON, as the differential test), held to its AVX2 kernels;
skipped without one, without the mkl package, or where torch runs another number of
threads than gradcli's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import gradcli.session  # noqa: F401  (registers the built-ins)
from conftest import needs_mkl
from differential import runner
from differential.conv_gemm_cases import cases, digest, operands
from gradcli.core.tensor import Tensor
from gradcli.library.autograd_api import backward
from gradcli.numerics import mkl, parallel
from gradcli.ops.registry import FUNCTIONS

HERE = Path(__file__).resolve().parent
SEED = 0


@pytest.fixture(scope="module")
def torch_results():
    return runner.torch_conv_results("conv_gemm_cases", SEED, len(cases(SEED)))


def gradcli_run(c):
    x_, w_, b_, g = operands(c)
    x, w = Tensor(x_, requires_grad=True), Tensor(w_, requires_grad=True)
    b = None if b_ is None else Tensor(b_, requires_grad=True)
    y = FUNCTIONS["conv2d"](x, w, b, dilation=c["dilation"], groups=c["groups"])
    backward(y, Tensor(g))
    return {
        "out": digest(y.data),
        "gx": digest(x.grad.data),
        "gw": digest(w.grad.data),
        "gb": None if b is None else digest(b.grad.data),
    }


def _differing(results):
    return [
        (c, key)
        for c, t in zip(cases(SEED), results)
        for key, got in gradcli_run(c).items()
        if got != t[key]
    ]


@needs_mkl
def test_convolutions_are_pytorchs(torch_results):
    bad = _differing(torch_results)
    assert not bad, f"{len(bad)} results differ from torch, first: {bad[:5]}"


@needs_mkl
@pytest.mark.skipif(parallel.THREADS != 2, reason="the cases are drawn for two threads")
def test_one_call_on_one_thread_would_differ(torch_results, monkeypatch):
    """Each gemm as one call on one thread gives other bits than torch's in some results:
    the threads' parts matter, and the test above can fail."""
    monkeypatch.setitem(mkl._state, "gemm", False)
    local = mkl.FNS["MKL_Set_Num_Threads_Local"]
    # one thread, which mkl.py does not know of (it would set PyTorch's back)
    noted, before, mkl._LOCAL[0] = mkl._LOCAL[0], local(1), None
    try:
        bad = _differing(torch_results)
    finally:
        local(before)
        mkl._LOCAL[0] = noted
    assert len(bad) >= 5


@needs_mkl
@pytest.mark.skipif(not mkl.available() or not mkl._state["gemm"], reason="no shared gemms")
def test_the_cases_reach_shared_products():
    """The weight gradients' per-sample gemms (grad_output @ columns.T, added up with beta
    1) of many cases are shared between MKL's threads, some with a part of one column."""
    kinds = []
    for c in cases(SEED):
        span = c["dilation"] * (c["k"] - 1) + 1
        rows, cols = c["o"] // c["groups"], c["c"] // c["groups"] * c["k"] * c["k"]
        positions = (c["h"] - span + 1) * (c["w"] - span + 1)
        p = "s" if c["dtype"] == "float32" else "d"
        plan = mkl._plan(p, cols, rows, positions, True, 1.0)
        if isinstance(plan, tuple):
            kinds.append((rows if plan[0] else cols) - plan[1] == 1)
    assert len(kinds) >= 15 and any(kinds)
