"""The compiled manual step of numerics/native_steps.py (`native_layers.scaled_pass`: `x op=
y * g` in one pass, a replayed loop's `w -= lr * w.grad`) against NumPy's two ufuncs, bit
for bit: each op, both float dtypes, every length around the vectors' widths, values
across the range with signed zeros, infinities and NaNs, factors that round, overflow
and underflow; a gradient that is the parameter's own array (tests/language/
test_replay_steps.py runs the replayed loops' steps against the same loops as compiled)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.numerics import native, native_layers
from gradcli.numerics.floats.singles import weak

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")

UFUNCS = [np.add, np.subtract, np.multiply]


@pytest.fixture
def loops(monkeypatch):
    if native._state["lib"] is False:  # (not loaded yet: load it now, not by the budget)
        monkeypatch.setitem(native._state, "cost", 0.0)
    if native.ready(1) is None:
        pytest.skip("the compiled loops are off")
    monkeypatch.setattr(native_layers, "SCALED_BYTES", 0)  # (every length through the loop)


def test_small_arrays_are_left_to_numpy():
    d = np.ones(native_layers.SCALED_BYTES // 8 - 1)
    assert not native_layers.scaled_pass(d, d, weak(0.1, d), np.subtract)


def _values(rng, n, dt):
    v = rng.standard_normal(n) * np.exp(rng.uniform(-60, 60, n))
    pick = rng.random(n)
    v = np.where(pick < 0.03, rng.choice([0.0, -0.0, np.inf, -np.inf, np.nan], n), v)
    with np.errstate(over="ignore"):
        return np.ascontiguousarray(v.astype(dt))


def _bits(a):
    return a.view(np.uint32 if a.dtype == np.float32 else np.uint64)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("ufunc", UFUNCS)
def test_the_step_is_numpy_s(dt, ufunc, loops):
    rng = np.random.default_rng(7)
    for n in [*range(1, 20), 31, 32, 33, 1000, 4099]:
        for y in (0.1, -0.5, 1 / 3, 3.7e-3, 1e30, 1e-300, 7, -2):
            d, g = _values(rng, n, dt), _values(rng, n, dt)
            w = weak(y, g)
            assert type(w) is np.ndarray and w.dtype == dt
            with np.errstate(all="ignore"):
                want = ufunc(d, np.multiply(g, w))
            assert native_layers.scaled_pass(d, g, w, ufunc)
            np.testing.assert_array_equal(_bits(d), _bits(want))


@pytest.mark.parametrize("ufunc", UFUNCS)
def test_a_gradient_that_is_the_array_itself(ufunc, loops):
    d = _values(np.random.default_rng(3), 100, np.float64)
    with np.errstate(all="ignore"):
        want = ufunc(d, np.multiply(d, weak(0.1, d)))
    assert native_layers.scaled_pass(d, d, weak(0.1, d), ufunc)
    np.testing.assert_array_equal(_bits(d), _bits(want))


def test_overlapping_arrays_are_left_to_numpy(loops):
    base = np.arange(20.0)
    assert not native_layers.scaled_pass(base[:10], base[1:11], weak(0.1, base), np.subtract)
    np.testing.assert_array_equal(base, np.arange(20.0))


def test_another_op_is_left_to_numpy(loops):
    d = np.ones(8)
    assert not native_layers.scaled_pass(d, d, weak(0.1, d), np.divide)
