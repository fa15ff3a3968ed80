"""Batch normalisation's channels-last kernels (numerics/floats/batch_norm.py) give the same
bits with the compiled loops loaded (the whole forward and the whole backward in one call
each, numerics/native_bn.py through `native_layers.bn_forward` and `bn_backward`) as with
NumPy only: the output, mean, invstd, running statistics and the three gradients, in
training and evaluation, of (N, C) batches of many sizes (channel counts leaving vector
tails, one row chunk and several) and channels-last (N, C, H, W) and (N, C, D, H, W)
ones, float32 and float64, with and without weight, bias and running statistics, with
signed zeros, wide and tiny values, an infinity and a NaN."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.numerics import native, native_layers
from gradcli.numerics.floats import batch_norm as bn

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")


def _all(x, g, w, b, rm, rv, momentum):
    y, mean, inv, new_rm, new_rv = bn.train_forward(x, 1e-5, momentum, rm, rv, w, b)
    out = [y, mean, inv, new_rm, new_rv]
    out += bn.backward(g, x, mean, inv, w, True)
    back_inv = bn.eval_invstd(inv * inv, 1e-5, backward=True)
    out += bn.backward(g, x, mean, back_inv, w, False)
    out.append(bn.transform(x, mean, bn.eval_invstd(inv * inv, 1e-5, x=x), w, b))
    return out


def _channels_last(a):
    return np.moveaxis(np.ascontiguousarray(np.moveaxis(a, 1, -1)), -1, 1)


def _same(got, ref, what):
    for k, (g, r) in enumerate(zip(got, ref)):
        if r is None:
            assert g is None, (what, k)
            continue
        assert g.dtype == r.dtype and g.shape == r.shape, (what, k)
        g, r = np.ascontiguousarray(g), np.ascontiguousarray(r)
        same = (g.view(np.uint8) == r.view(np.uint8)).reshape(*g.shape, -1).all(-1)
        same |= np.isnan(g) & np.isnan(r)  # (a NaN's payload follows NumPy's loops)
        assert same.all(), (what, k)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_batch_norm_native_is_numpys(dt):
    dt = np.dtype(dt)
    if native.ready(1) is None:
        pytest.skip("the compiled loops are not loaded")
    rng = np.random.default_rng(11 + dt.itemsize)
    shapes = [(n, c) for n in (2, 3, 5, 32) for c in (1, 3, 4, 7, 8, 9, 17, 64)]
    shapes += [(int(rng.integers(2, 90)), int(rng.integers(1, 70))) for _ in range(30)]
    shapes += [(4, 3, 5, 6), (2, 16, 3, 3), (2, 5, 3, 2, 2), (9, 4, 1)]
    for k, shape in enumerate(shapes):
        c = shape[1]
        scale = 10.0 ** rng.integers(-2, 3)
        x = (rng.standard_normal(shape) * scale + rng.standard_normal(c).reshape(
            (1, c) + (1,) * (len(shape) - 2)
        )).astype(dt)  # fmt: skip
        g = rng.standard_normal(shape).astype(dt)
        if k % 7 == 3:
            x.flat[::5] = -0.0
            g.flat[::3] = 0.0
        if k % 11 == 5:
            x.flat[1] = np.inf
        if k % 13 == 6:
            x.flat[-1] = np.nan
        if k % 17 == 8:
            x *= dt.type(1e300 if dt == np.float64 else 1e37)
        if k % 19 == 9:
            x *= dt.type(1e-300 if dt == np.float64 else 1e-38)
        if len(shape) in (4, 5) and k % 2:
            x, g = _channels_last(x), _channels_last(g)
        w = None if k % 5 == 1 else rng.standard_normal(c).astype(dt)
        b = None if k % 5 == 2 else rng.standard_normal(c).astype(dt)
        rm = None if k % 4 == 3 else rng.standard_normal(c).astype(dt)
        rv = None if rm is None else rng.random(c).astype(dt)
        momentum = (0.1, 1 / 3, 1.0)[k % 3]
        with np.errstate(all="ignore"):
            got = _all(x, g, w, b, rm, rv, momentum)
            with native.numpy_only():
                ref = _all(x, g, w, b, rm, rv, momentum)
        _same(got, ref, (shape, k))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_batch_norm_native_runs(dt):
    """The compiled forward and backward take plain rows (so the comparison above
    compares them), and leave rows whose fused step the emulation must decide (a NaN)
    to NumPy."""
    dt = np.dtype(dt)
    if native.ready(1) is None:
        pytest.skip("the compiled loops are not loaded")
    rng = np.random.default_rng(4)
    x, g = rng.standard_normal((6, 10)).astype(dt), rng.standard_normal((6, 10)).astype(dt)
    w, b = np.ones(10, dt), np.zeros(10, dt)
    out = np.zeros((4, 10), dt)
    k = np.array((1e-5, 0.1, 0.9))
    assert native_layers.bn_forward(x, 3, 1, w, b, w, w, out, k) is not None
    mean, inv = out[0].copy(), out[1].copy()
    assert native_layers.bn_backward(g, x, 3, 1, mean, inv, w) is not None
    x[2, 9] = np.nan
    with np.errstate(all="ignore"):
        assert native_layers.bn_forward(x, 3, 1, w, b, w, w, out, k) is None
        assert native_layers.bn_backward(g, x, 3, 1, mean, inv, w) is None
