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


def test_compiled_welford_is_pythons():
    """The compiled loop (native_norms.var_rows_ir) gives the Python floats' m2 and NumPy's
    columns' bit for bit: random rows of wide spreads, infinities, NaNs, empty rows."""
    from gradcli.numerics import native

    if native.ready(1) is None:
        pytest.skip("the compiled loops are not loaded")
    rng = np.random.default_rng(8)
    shapes = [((64, 128), [1]), ((3, 5, 7), [0, 2]), ((200, 3), [0]), ((7, 1000), [1])]
    shapes += [((1, 1), [1]), ((4, 0), [1])]
    for shape, axes in shapes:
        for dt in (np.float32, np.float64):
            for spread in (0, 3, 30):
                x = rng.standard_normal(shape) * 10.0 ** rng.integers(-spread, spread + 1, shape)
                x = x.astype(dt)
                if x.size > 4 and spread:
                    x.flat[1], x.flat[3] = (np.inf, np.nan) if spread == 30 else (-0.0, 1e-300)
                for corr, root in ((0, False), (1, True), (2, False)):
                    with np.errstate(all="ignore"):
                        got = welford.welford_var(x, axes, corr, root, False)
                        with native.numpy_only():
                            ref = welford.welford_var(x, axes, corr, root, False)
                    assert got.dtype == ref.dtype and got.shape == ref.shape
                    assert ((got == ref) | (np.isnan(got) & np.isnan(ref))).all(), (shape, dt)
