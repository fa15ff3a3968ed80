"""F.layer_norm and F.group_norm bit for bit as torch 2.13's CPU kernels
(gradcli/numerics/floats/layer_norm.py, group_norm.py): the value and the gradients of
input, weight and bias, float32 and float64, for the cases of
tests/numerics/layer_norm_cases.py.  Digests recorded from torch by scripts/gen_golden.py
norms (tests/golden/layer_norm.json, group_norm.json)."""

from __future__ import annotations

import io

import pytest

from conftest import load_golden
from exact_cases import nan_digest
from layer_norm_cases import GROUP_NORM, LAYER_NORM, group_norm_input, layer_norm_input
from gradcli.core.tensor import Tensor
from gradcli.output import TextOutput
from gradcli.session import Session

GOLDEN = load_golden("layer_norm.json")


def _run(c):
    shape, k, affine = tuple(c["shape"]), c["k"], c["affine"]
    x, g, w, b = layer_norm_input(shape, k, c["dtype"], *c["range"])
    s = Session(TextOutput(io.StringIO(), quiet=True))
    s.scope.vars.update(
        x=Tensor(x, requires_grad=True),
        g=Tensor(g),
        w=Tensor(w, requires_grad=True) if affine in ("both", "weight") else None,
        b=Tensor(b, requires_grad=True) if affine in ("both", "bias") else None,
    )
    s.run(
        "import torch.nn.functional as F\n"
        f"y = F.layer_norm(x, {shape[len(shape) - k :]}, w, b, {c['eps']!r})\n"
        "y.backward(g)\n"
    )
    v = s.scope.vars
    return {
        "out": v["y"].data,
        "grad": v["x"].grad.data,
        "grad_weight": None if v["w"] is None else v["w"].grad.data,
        "grad_bias": None if v["b"] is None else v["b"].grad.data,
    }


@pytest.mark.parametrize("case", range(len(LAYER_NORM)), ids=[str(c[0]) for c in LAYER_NORM])
def test_layer_norm_is_pytorchs(case):
    shape, k, eps, affine, rng = LAYER_NORM[case]
    cases = [
        c
        for c in GOLDEN["cases"]
        if (tuple(c["shape"]), c["k"], c["eps"], c["affine"], tuple(c["range"]))
        == (shape, k, eps, affine, rng)
    ]
    assert len(cases) == 2
    for c in cases:
        got = _run(c)
        for key, value in got.items():
            want = c[key]
            assert (value is None and want is None) or nan_digest(value) == want, (key, c)


GROUP = load_golden("group_norm.json")


def _run_group(c):
    shape, affine = tuple(c["shape"]), c["affine"]
    x, g, w, b = group_norm_input(shape, c["dtype"], *c["range"])
    s = Session(TextOutput(io.StringIO(), quiet=True))
    s.scope.vars.update(
        x=Tensor(x, requires_grad=True),
        g=Tensor(g),
        w=Tensor(w, requires_grad=True) if affine in ("both", "weight") else None,
        b=Tensor(b, requires_grad=True) if affine == "both" else None,
    )
    s.run(
        "import torch.nn.functional as F\n"
        f"y = F.group_norm(x, {c['groups']}, w, b, {c['eps']!r})\n"
        "y.backward(g)\n"
    )
    v = s.scope.vars
    return {
        "out": v["y"].data,
        "grad": v["x"].grad.data,
        "grad_weight": None if v["w"] is None else v["w"].grad.data,
        "grad_bias": None if v["b"] is None else v["b"].grad.data,
    }


@pytest.mark.parametrize("case", range(len(GROUP_NORM)), ids=[str(c[0]) for c in GROUP_NORM])
def test_group_norm_is_pytorchs(case):
    shape, groups, eps, affine, rng = GROUP_NORM[case]
    cases = [
        c
        for c in GROUP["cases"]
        if (tuple(c["shape"]), c["groups"], c["eps"], c["affine"], tuple(c["range"]))
        == (shape, groups, eps, affine, rng)
    ]
    assert len(cases) == 2
    for c in cases:
        got = _run_group(c)
        for key, value in got.items():
            want = c[key]
            assert (value is None and want is None) or nan_digest(value) == want, (key, c)
