"""The compiled row loops of numerics/native_softmax.py (softmax and log_softmax over the
last dim and their backward, one pass per row) give the bits of the NumPy emulations
(floats/softmax64.py, floats/sleef_explog.py; GRADCLI_NO_NATIVE's path, checked against
torch by the goldens) on every row length around the vectors' (4 doubles, 8 floats),
rows of many scales, and rows with infinities, NaNs, signed zeros and subnormals, which
the loops hand back to the emulation (the public functions' results are the same bits
either way)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.numerics import native
from gradcli.numerics.floats import rows, sleef_explog, softmax64

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")

MODULES = {np.float64: softmax64, np.float32: sleef_explog}
LENGTHS = (1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 31, 32, 33, 100, 1000)


def _same(got, ref, what):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype, what
    diff = np.flatnonzero(got.reshape(-1).view(np.uint8) != ref.reshape(-1).view(np.uint8))
    assert not diff.size, f"{what}: {diff.size} bytes of {got.size} values differ"


def _four(mod, x, g):
    """The four kernels' results: log_softmax, softmax and their backward of g."""
    lsm, sm = mod.log_softmax_lastdim(x), mod.softmax_lastdim(x)
    return {
        "log_softmax": lsm,
        "softmax": sm,
        "log_softmax_bwd": mod.log_softmax_backward_lastdim(g, lsm),
        "softmax_bwd": mod.softmax_backward_lastdim(g, sm),
    }


def _check(dt, x, g, must_compile):
    mod = MODULES[dt]
    with native.numpy_only():
        ref = _four(mod, x, g)
    got = _four(mod, x, g)
    for kind, r in ref.items():
        what = (dt.__name__, x.shape, kind)
        _same(got[kind], r, what)
        if must_compile:  # (the loop itself, not the emulation it may hand back to)
            fwd = kind.removesuffix("_bwd")
            c = rows.compiled(kind, g, ref[fwd]) if kind != fwd else rows.compiled(kind, x)
            assert c is not None, what
            _same(c, r, what)


@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("d", LENGTHS)
def test_rows_of_every_length_are_the_emulations(dt, d):
    rng = np.random.default_rng(d)
    for n_rows, scale in ((1, 1.0), (5, 0.01), (37, 3.0), (70, 30.0), (3, 300.0)):
        x = (rng.standard_normal((n_rows, d)) * scale).astype(dt)
        g = rng.standard_normal((n_rows, d)).astype(dt)
        _check(dt, x, g, True)
    # a batch of rows in more dims, and rows of equal values (the max a row's every value)
    x = rng.standard_normal((2, 3, d)).astype(dt)
    _check(dt, x, rng.standard_normal(x.shape).astype(dt), True)
    x = np.full((4, d), 2.5, dt)
    _check(dt, x, np.ones((4, d), dt), True)


def _edge_rows(dt, d, rng):
    fi = np.finfo(dt)
    specials = [np.inf, -np.inf, np.nan, 0.0, -0.0, fi.tiny, fi.smallest_subnormal, fi.max, -fi.max]
    out = []
    for v in specials:
        x = rng.standard_normal((3, d)).astype(dt)
        x[1, rng.integers(0, d)] = v
        x[2, :] = v
        out.append(x)
    z = np.zeros((3, d), dt)
    z[0, 0] = -0.0
    z[1, :] = -0.0
    z[2, d // 2] = -0.0
    out.append(z)
    neg = -np.abs(rng.standard_normal((2, d))).astype(dt)
    neg[:, -1] = -0.0  # a row whose largest value is -0 alone
    out.append(neg)
    return out


@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("d", (1, 3, 4, 7, 8, 9, 17, 100))
def test_rows_with_edge_values_are_the_emulations(dt, d):
    rng = np.random.default_rng(100 + d)
    with np.errstate(all="ignore"):
        for x in _edge_rows(dt, d, rng):
            g = rng.standard_normal(x.shape).astype(dt)
            _check(dt, x, g, False)
            g[0, 0] = np.inf  # a gradient that is not finite
            _check(dt, x, g, False)


@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=["float64", "float32"])
def test_the_loops_hand_back_what_they_cannot_decide(dt):
    """A NaN, an infinity, or a maximum of zero beside a -0 sends the call to the
    emulation (its NaNs, its zeros' signs)."""
    x = np.array([[1.0, 2.0, 3.0], [0.0, -0.0, -1.0]], dt)
    assert rows.compiled("log_softmax", x) is None
    x[1] = (np.nan, 1.0, 2.0)
    assert rows.compiled("softmax", x) is None
    x[1] = (-0.0, -1.0, -2.0)  # -0 alone: its sign is every order's
    assert rows.compiled("log_softmax", x) is not None
    g = np.array([[1.0, np.inf, 0.0], [0.0, 0.0, 0.0]], dt)
    assert rows.compiled("softmax_bwd", g, np.full_like(g, 0.25)) is None
