"""summation.inner_sums (the rows of a 2-D array, each a whole sum in PyTorch's order)
by the compiled loop (native_sum_calls.row_sums: numerics/native_sums.py's sums, one call for all
the rows) against NumPy's emulation (native.numpy_only), bit for bit: every row length
from one vector to a few hundred values and random ones up to a thread's range, both
float dtypes, values across the range with cancellation, signed zeros, infinities and
NaNs."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.numerics import native
from gradcli.numerics.parallel import GRAIN
from gradcli.numerics.sums.summation import inner_sums

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")


def _rows(rng, rows, m, dt, kind):
    v = rng.standard_normal((rows, m)) * 10.0 ** rng.integers(-3, 4, (rows, m))
    if kind == 1:  # signed zeros and ties
        v = np.where(rng.random((rows, m)) < 0.5, rng.choice([0.0, -0.0, 1.0], (rows, m)), v)
    elif kind == 2:  # all -0
        v = -np.zeros((rows, m))
    elif kind == 3:  # a few infinities and NaNs
        pick = rng.random((rows, m))
        v = np.where(pick < 0.01, np.inf, np.where(pick > 0.995, np.nan, v))
    with np.errstate(over="ignore"):
        return np.ascontiguousarray(v.astype(dt))


def _same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    nan = np.isnan(want)
    assert (np.isnan(got) == nan).all()
    ints = np.uint32 if want.dtype == np.float32 else np.uint64
    np.testing.assert_array_equal(got[~nan].view(ints), want[~nan].view(ints))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_row_sums_are_the_emulation(dt, monkeypatch):
    if native._state["lib"] is False:  # (not loaded yet: load it now, not by the budget)
        monkeypatch.setitem(native._state, "cost", 0.0)
    if native.ready(1) is None:
        pytest.skip("the compiled loops are off")
    dt = np.dtype(dt)
    rng = np.random.default_rng(11 + dt.itemsize)
    lanes = 32 // dt.itemsize
    sizes = list(range(lanes, 400)) + [int(n) for n in rng.integers(400, GRAIN + 1, 40)]
    sizes += [1024, 2048, 4096, GRAIN]
    for i, m in enumerate(sizes):
        x = _rows(rng, int(rng.integers(1, 6)), m, dt, i % 4)
        with native.numpy_only():
            want = inner_sums(x)
        got = inner_sums(x)
        _same(got, want)
