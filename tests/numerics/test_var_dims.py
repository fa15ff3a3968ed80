"""var and std over some dims (not all), and their gradients, bit for bit as torch
2.13's CPU kernel (gradcli/numerics/sums/welford.py) and derivatives (ops/moments.py): digests
recorded from torch by scripts/gen_golden.py kernels (tests/golden/var_dims.json)."""

from __future__ import annotations

import io

import numpy as np
import pytest

from conftest import load_golden
from exact_cases import VAR_DIMS, nan_digest, var_input
from gradcli.numerics.sums import welford
from gradcli.core.tensor import Tensor
from gradcli.output import TextOutput
from gradcli.session import Session

GOLDEN = load_golden("var_dims.json")


def _run(c):
    x, g = var_input(tuple(c["shape"]), c["dtype"])
    s = Session(TextOutput(io.StringIO(), quiet=True))
    s.scope.vars.update(x=Tensor(x, requires_grad=True), g=Tensor(g))
    dim = tuple(c["dim"]) if isinstance(c["dim"], list) else c["dim"]
    s.run(
        f"y = x.{c['op']}({dim}, correction={c['correction']}, keepdim={c['keepdim']})\n"
        "y.backward(g.reshape(-1)[:y.numel()].reshape(y.shape))\n"
    )
    return s.scope.vars["y"].data, s.scope.vars["x"].grad.data


@pytest.mark.parametrize("case", VAR_DIMS, ids=[f"{s}-{d}-{k}-{c}" for s, d, k, c in VAR_DIMS])
@pytest.mark.parametrize("python_rows", [welford.PYTHON_ROWS, 0])
def test_var_and_std_over_dims_are_pytorchs(case, python_rows, monkeypatch):
    """Both ways of computing (Python's floats for few outputs, NumPy across many)."""
    monkeypatch.setattr(welford, "PYTHON_ROWS", python_rows)
    shape, dim, keepdim, correction = case
    dim = list(dim) if isinstance(dim, tuple) else dim
    checked = 0
    for c in GOLDEN["cases"]:
        if (tuple(c["shape"]), c["dim"], c["keepdim"], c["correction"]) != (
            shape,
            dim,
            keepdim,
            correction,
        ):
            continue
        y, gx = _run(c)
        where = (c["op"], c["dtype"], shape, dim)
        assert nan_digest(y) == c["out"], where
        assert nan_digest(gx) == c["grad"], where
        checked += 1
    assert checked == 4


def test_numpys_var_differs():
    """NumPy's two-pass var differs from torch's Welford in the last bit (what these tests
    would catch going back)."""
    c = next(
        c
        for c in GOLDEN["cases"]
        if (c["op"], c["dtype"], c["shape"], c["dim"]) == ("var", "float64", [300, 200], 1)
    )
    x, _ = var_input((300, 200), "float64")
    assert nan_digest(np.var(x, axis=1, ddof=1)) != c["out"]
