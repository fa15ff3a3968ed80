"""gradcli's matrix products against PyTorch's, live, on shapes near the edges of the rules
that make MKL's gemm on one thread with the bits of PyTorch's two (gradcli/numerics/
mkl.py's `cut`, `solo` and `shared`, docs/developer/numerics.md): torch.mm and its
gradients, torch.addmm with beta and alpha, 3-D @ 2-D matmul and torch.bmm, both float
dtypes, transposed operands (mm_cases.py).  Run against a Python with torch
($GRADCLI_TORCH_PYTHON, as the differential test), held to its AVX2 kernels; skipped
without one, or without the mkl package.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

import gradcli.session  # noqa: F401  (registers the built-ins)
from conftest import needs_mkl
from differential import runner
from differential.mm_cases import cases, digest, operands
from gradcli.core.tensor import Tensor
from gradcli.library.autograd_api import backward
from gradcli.numerics import mkl, parallel
from gradcli.ops.registry import FUNCTIONS

HERE = Path(__file__).resolve().parent
SEED = 0


@pytest.fixture(scope="module")
def torch_results():
    python = runner.torch_python()
    if python is None:
        pytest.skip("no Python with torch (set GRADCLI_TORCH_PYTHON; .ci/run does)")
    env = dict(os.environ)
    for name, value in runner.AVX2.items():
        env.setdefault(name, value)
    r = subprocess.run(
        [python, str(HERE / "torch_mm.py"), str(SEED), str(len(cases(SEED)) // 2)],
        capture_output=True,
        text=True,
        cwd=HERE,
        env=env,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    got = json.loads(r.stdout)
    if got["info"]["threads"] != parallel.THREADS:
        pytest.skip(f"torch runs {got['info']['threads']} threads, gradcli {parallel.THREADS}")
    return got["results"]


def gradcli_run(c):
    a_, b_, g, bias = operands(c)
    a, b = Tensor(a_, requires_grad=True), Tensor(b_, requires_grad=True)
    if c["op"] == "mm":
        out = FUNCTIONS["mm"](a, b)
    elif c["op"] == "addmm":
        out = FUNCTIONS["addmm"](Tensor(bias), a, b, beta=c["beta"], alpha=c["alpha"])
    elif c["op"] == "bmm":
        out = FUNCTIONS["bmm"](a, b)
    else:
        out = FUNCTIONS["matmul"](a, b)
    backward(out, Tensor(g))
    return {"out": digest(out.data), "ga": digest(a.grad.data), "gb": digest(b.grad.data)}


def _differing(results):
    return [
        (c, key)
        for c, t in zip(cases(SEED), results)
        for key, got in gradcli_run(c).items()
        if got != t[key]
    ]


@needs_mkl
def test_products_near_the_one_thread_rule_are_pytorchs(torch_results):
    bad = _differing(torch_results)
    assert not bad, f"{len(bad)} results differ from torch, first: {bad[:5]}"


@needs_mkl
@pytest.mark.skipif(parallel.THREADS != 2, reason="the cases are drawn for two threads")
def test_one_thread_everywhere_would_differ(torch_results, monkeypatch):
    """The cases reach products whose bits on one thread (each one gemm call) are not
    PyTorch's: the rules matter, and the test above can fail."""
    monkeypatch.setitem(mkl._state, "gemm", False)
    local = mkl.FNS["MKL_Set_Num_Threads_Local"]
    # one thread, which mkl.py does not know of (it would set PyTorch's back)
    noted, before, mkl._LOCAL[0] = mkl._LOCAL[0], local(1), None
    try:
        bad = _differing(torch_results)
    finally:
        local(before)
        mkl._LOCAL[0] = noted
    assert len(bad) >= 10
