"""F.batch_norm bit for bit as torch 2.13's CPU kernels (gradcli/numerics/floats/batch_norm.py):
the value, the gradients of input, weight and bias, and the running statistics, for
inputs that take ATen's channels-last kernels ((N, C), (N, C, 1, ...)) and its contiguous
ones ((N, C, L...)) and its general path (a permuted input, or a gradient laid out
otherwise), in training and evaluation, float32 and float64.  Digests recorded
from torch by scripts/gen_golden.py kernels (tests/golden/batch_norm.json)."""

from __future__ import annotations

import io

import pytest

from conftest import load_golden
from exact_cases import BATCH_NORM, BATCH_NORM_LAYOUTS, batch_norm_input, nan_digest
from gradcli.core.tensor import Tensor
from gradcli.output import TextOutput
from gradcli.session import Session

GOLDEN = load_golden("batch_norm.json")


def _run(c):
    perm = c["perm"]
    x, g, w, b, rm, rv = batch_norm_input(tuple(c["shape"]), c["dtype"], perm)
    s = Session(TextOutput(io.StringIO(), quiet=True))
    affine = c["affine"]
    s.scope.vars.update(
        x=Tensor(x, requires_grad=True),
        g=Tensor(g),
        w=Tensor(w, requires_grad=True) if affine else None,
        b=Tensor(b, requires_grad=True) if affine else None,
        rm=Tensor(rm),
        rv=Tensor(rv),
    )
    xp = "x" if perm is None else f"x.permute{tuple(perm)}"
    out = "y.transpose(0, 1)" if c["grad_transposed"] else "y"
    s.run(
        "import torch.nn.functional as F\n"
        f"y = F.batch_norm({xp}, rm, rv, w, b, training={c['training']})\n"
        f"{out}.backward(g.reshape(-1).reshape({out}.shape))\n"
    )
    v = s.scope.vars
    return {
        "out": v["y"].data,
        "grad": v["x"].grad.data,
        "grad_weight": v["w"].grad.data if affine else None,
        "grad_bias": v["b"].grad.data if affine else None,
        "running_mean": v["rm"].data,
        "running_var": v["rv"].data,
    }


def _check(cases):
    checked = 0
    for c in cases:
        got = _run(c)
        mode = "training" if c["training"] else "eval"
        where = (c["dtype"], c["shape"], c["perm"], c["grad_transposed"], mode, c["affine"])
        for key, value in got.items():
            want = c[key]
            assert (value is None and want is None) or nan_digest(value) == want, (key, where)
        checked += 1
    return checked


@pytest.mark.parametrize("shape", BATCH_NORM, ids=[str(s) for s in BATCH_NORM])
def test_batch_norm_is_pytorchs(shape):
    cases = [c for c in GOLDEN["cases"] if tuple(c["shape"]) == shape and c["perm"] is None]
    assert _check(cases) == 8


@pytest.mark.parametrize(
    "shape, perm", BATCH_NORM_LAYOUTS, ids=[f"{s}-{p}" for s, p in BATCH_NORM_LAYOUTS]
)
def test_batch_norm_of_other_layouts_is_pytorchs(shape, perm):
    cases = [c for c in GOLDEN["cases"] if tuple(c["shape"]) == shape and c["perm"] == list(perm)]
    assert _check(cases) == 8
