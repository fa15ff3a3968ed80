"""The compiled loops of numerics/native_grads.py against NumPy's emulation
(native.numpy_only), bit for bit: `summation.outer_sum` (a bias's gradient: every batch
size from 1 to a few hundred, sizes whose cascade fills two and three levels, every
column count around the blocks' and vectors' widths) and tanh's backward
(`fused_grads.tanh_backward_values`: values across the range, signed zeros, values whose
fused step the emulation decides, infinities and NaNs), both float dtypes."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.numerics import native, native_layers
from gradcli.numerics.sums.summation import outer_sum
from gradcli.ops.fused_grads import tanh_backward_values

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")


def _values(rng, shape, dt, kind):
    v = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)
    if kind == 1:  # signed zeros and ties
        v = np.where(rng.random(shape) < 0.5, rng.choice([0.0, -0.0, 1.0], shape), v)
    elif kind == 2:  # all -0
        v = -np.zeros(shape)
    elif kind == 3:  # a few infinities and NaNs
        pick = rng.random(shape)
        v = np.where(pick < 0.01, np.inf, np.where(pick > 0.995, np.nan, v))
    with np.errstate(over="ignore"):
        return np.ascontiguousarray(v.astype(dt))


def _same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    nan = np.isnan(want)
    assert (np.isnan(got) == nan).all()
    ints = np.uint32 if want.dtype == np.float32 else np.uint64
    np.testing.assert_array_equal(got[~nan].view(ints), want[~nan].view(ints))


@pytest.fixture
def loops(monkeypatch):
    if native._state["lib"] is False:  # (not loaded yet: load it now, not by the budget)
        monkeypatch.setitem(native._state, "cost", 0.0)
    if native.ready(1) is None:
        pytest.skip("the compiled loops are off")


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_outer_sum_is_the_emulation(dt, loops):
    dt = np.dtype(dt)
    rng = np.random.default_rng(5 + dt.itemsize)
    lanes = 32 // dt.itemsize
    rows = list(range(1, 300)) + [511, 512, 513, 4095, 4096, 4097, 9000, 70000]
    for i, m in enumerate(rows):
        cols = [1, 3, 4, 5, lanes - 1, lanes, 4 * lanes - 1, 4 * lanes, 4 * lanes + 3]
        n = cols[i % len(cols)] if m < 4000 else cols[i % 3 + 5]
        x = _values(rng, (m, n), dt, i % 4)
        with native.numpy_only():
            want = outer_sum(x)
        _same(outer_sum(x), want)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_tanh_backward_is_the_emulation(dt, loops):
    dt = np.dtype(dt)
    rng = np.random.default_rng(7 + dt.itemsize)
    for i, n in enumerate([1, 2, 7, 8, 9, 31, 32, 33, 100, 768, 5000]):
        g = _values(rng, (n,), dt, i % 2)
        y = np.tanh(_values(rng, (n,), dt, i % 3))
        if i % 4 == 3:  # values whose step the emulation decides: tiny, huge, inf, nan
            y[: min(n, 4)] = np.array([1e-300, 3e200, np.inf, np.nan], dt)[: min(n, 4)]
        with native.numpy_only():
            want = tanh_backward_values(g, y)
        _same(tanh_backward_values(g, y), want)
        got = native_layers.tanh_backward(g, y)
        if got is not None:  # (None where a step needs the emulation: the caller's path)
            _same(got, want)


def test_tanh_backward_takes_the_loop(loops):
    """The loop itself answers on plain values (the path the backward takes)."""
    y = np.tanh(np.linspace(-3, 3, 101))
    g = np.linspace(0.5, 1.5, 101)
    assert native_layers.tanh_backward(g, y) is not None
    assert native_layers.outer_sum(g.reshape(1, -1), 0) is not None
