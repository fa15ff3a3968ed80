"""LayerNorm's emulation (numerics/floats/layer_norm.py) gives the same bits with the
compiled loops loaded (the weight's gradient's chains of fused steps in one call,
`native_sum_calls.fma_chain`, the lanes' moments merged in one call,
`native_layers.lane_merge`, the chunks' Welford steps in one call, `native_layers.welford`,
the fused steps through `native.quick`) as with NumPy only:
the moments, the output and the three gradients of random rows of many sizes (odd ones
leaving vector tails, one chunk and several), float32 and float64, with signed zeros,
wide values, an infinity and a NaN."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.numerics import native, native_layers
from gradcli.numerics.floats import layer_norm as ln

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")


def _all(x, dt):
    mean, var = ln.moments(x)
    rstd = (dt.type(1) / np.sqrt(var + dt.type(1e-5))).astype(dt)
    gamma = (x[0] * dt.type(0.5) + dt.type(1)).astype(dt)
    beta = x[-1][::-1].copy()
    y = ln.forward(x, mean, rstd, gamma, beta)
    dy = (x[::-1] * dt.type(0.25) - dt.type(1)).astype(dt)
    grads = ln.backward(dy, x, mean, rstd, gamma)
    grads_plain = ln.backward(dy, x, mean, rstd, None)
    return [mean, var, y, *grads, *grads_plain[:2]]


def _values(rng, shape, dt, spread):
    v = rng.standard_normal(shape) * 10.0 ** rng.integers(-spread, spread + 1, shape)
    return v.astype(dt)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_layer_norm_native_is_numpys(dt):
    dt = np.dtype(dt)
    if native.ready(1) is None:
        pytest.skip("the compiled loops are not loaded")
    rng = np.random.default_rng(5 + dt.itemsize)
    shapes = [(m, n) for m in (1, 2, 3, 7) for n in (1, 3, 4, 5, 8, 9, 17, 24, 31)]
    shapes += [(int(rng.integers(1, 70)), int(rng.integers(1, 300))) for _ in range(40)]
    shapes += [(5, 129), (3, 263), (2, 1031)]
    for k, shape in enumerate(shapes):
        x = _values(rng, shape, dt, 2 if k % 3 else 0)
        if k % 7 == 3:
            x[0, 0] = -0.0
            x[-1, -1] = 0.0
        if k % 11 == 5:
            x[-1, 0] = np.inf
        if k % 13 == 6:
            x[0, -1] = np.nan
        with np.errstate(all="ignore"):
            got = _all(x, dt)
            with native.numpy_only():
                ref = _all(x, dt)
        for g, r in zip(got, ref):
            assert g.dtype == r.dtype and g.shape == r.shape
            same = (g.view(np.uint8) == r.view(np.uint8)).reshape(*g.shape, -1).all(-1)
            same |= np.isnan(g) & np.isnan(r)  # (a NaN's payload follows NumPy's loops)
            assert same.all(), (shape, k)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_lane_merge_runs(dt):
    """The compiled merge takes plain rows (so the comparison above compares it), and
    leaves a row whose step the emulation must decide (an infinity) to NumPy."""
    dt = np.dtype(dt)
    if native.ready(1) is None:
        pytest.skip("the compiled loops are not loaded")
    rng = np.random.default_rng(3)
    m1, m2 = rng.standard_normal((5, 8)).astype(dt), rng.random((5, 8)).astype(dt)
    c = np.array([1 / (k + 1) for k in range(8)], dt)
    n_old = np.arange(8, dtype=dt)
    s = np.zeros(5, dt)
    assert native_layers.lane_merge(m1, m2, c, n_old, s, s) is not None
    m1[2, 3] = np.inf
    assert native_layers.lane_merge(m1, m2, c, n_old, s, s) is None


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_welford_runs(dt):
    """The compiled chunks' steps take plain rows, and leave a row with a NaN to NumPy."""
    dt = np.dtype(dt)
    if native.ready(1) is None:
        pytest.skip("the compiled loops are not loaded")
    x = np.random.default_rng(4).standard_normal((3, 200)).astype(dt)
    c = np.array([1 / (j + 1) for j in range(16)], dt)
    got = native_layers.welford(x, 200 // 8, 8, c)
    assert got is not None and got[0].shape == (3, 2, 8)
    x[1, 7] = np.nan
    assert native_layers.welford(x, 200 // 8, 8, c) is None
