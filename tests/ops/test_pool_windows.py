"""max_pool2d's strided windows (MaxPool2d._strided: one strided view of the input per
window position, over the outputs that have it inside) against the gathered windows
(MaxPool2d._gathered: every window gathered by its flat indices, argmax along it), bit
for bit in the values and in the chosen indices, on random bit patterns (NaN payloads,
infinities, signed zeros, ties) with random kernels, strides, paddings, dilations and
ceil_mode, in float32 and float64."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.numerics import native, native_layers
from gradcli.ops import nn, pool_windows


def _values(rng, shape, dtype):
    n = int(np.prod(shape))
    x = rng.standard_normal(n).astype(dtype)
    kind = rng.random(n)
    x = np.where(kind < 0.05, np.nan, x)
    x = np.where((kind >= 0.05) & (kind < 0.1), -np.inf, x)
    x = np.where((kind >= 0.1) & (kind < 0.12), np.inf, x)
    x = np.where((kind >= 0.12) & (kind < 0.2), rng.choice([0.0, -0.0, 1.0]), x).astype(dtype)
    if rng.random() < 0.5:  # NaNs with other payloads and signs
        bits = x.view(np.uint32 if dtype == np.float32 else np.uint64)
        nan = np.isnan(x)
        bits[nan] ^= rng.integers(1, 1000, int(nan.sum())).astype(bits.dtype)
    if rng.random() < 0.3:
        x[...] = -np.inf  # every window all -inf: the first position's index
    return x.reshape(shape)


def _geometry(rng):
    while True:
        kh, kw = (int(v) for v in rng.integers(1, 5, 2))
        sh, sw = (int(v) for v in rng.integers(1, 4, 2))
        dh, dw = (int(v) for v in rng.integers(1, 3, 2))
        ph, pw = int(rng.integers(0, kh // 2 + 1)), int(rng.integers(0, kw // 2 + 1))
        H, W = (int(v) for v in rng.integers(1, 14, 2))
        ceil = bool(rng.integers(2))
        oh = nn._pool_size(H, kh, sh, ph, dh, ceil)
        ow = nn._pool_size(W, kw, sw, pw, dw, ceil)
        if oh > 0 and ow > 0:
            return (kh, kw), (sh, sw), (ph, pw), (dh, dw), ceil, (H, W), (oh, ow)


@pytest.mark.parametrize("seed", range(60))
def test_strided_windows_equal_gathered(seed):
    rng = np.random.default_rng(seed)
    (kh, kw), (sh, sw), (ph, pw), (dh, dw), ceil, (H, W), (oh, ow) = _geometry(rng)
    dtype = np.float32 if seed % 2 else np.float64
    x = _values(rng, (int(rng.integers(1, 4)), int(rng.integers(1, 4)), H, W), dtype)
    flat, valid = nn._pool_index(H, W, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow)
    gathered = nn.MaxPool2d.__new__(nn.MaxPool2d)
    want = gathered._gathered(x, flat, valid, (oh, ow))
    strided = nn.MaxPool2d.__new__(nn.MaxPool2d)
    window = ((kh, kw), (sh, sw), (dh, dw))
    got = strided._strided(x, flat, (oh, ow), window, (ph, pw))
    ints = np.uint32 if dtype == np.float32 else np.uint64
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.view(ints), want.view(ints))
    np.testing.assert_array_equal(strided.idx, gathered.idx)


@pytest.mark.parametrize("seed", range(40))
def test_inside_windows_equal_gathered(seed):
    """MaxPool2d._windows (every window inside the input: the values at the first
    position compared on, NumPy's maximum where no value is NaN) against the gathered
    windows, also where the values are only signed zeros and ties, or have no NaN."""
    rng = np.random.default_rng(1000 + seed)
    while True:
        (kh, kw), (sh, sw), _, (dh, dw), _, (H, W), _ = _geometry(rng)
        oh, ow = nn._pool_size(H, kh, sh, 0, dh, False), nn._pool_size(W, kw, sw, 0, dw, False)
        if oh > 0 and ow > 0:
            break
    dtype = np.float32 if seed % 2 else np.float64
    shape = (int(rng.integers(1, 4)), int(rng.integers(1, 4)), H, W)
    x = _values(rng, shape, dtype)
    if seed % 4 < 2:  # no NaN: signed zeros, ties and infinities only
        x = np.where(np.isnan(x), rng.choice([0.0, -0.0, 2.0], x.shape), x).astype(dtype)
    flat, valid = nn._pool_index(H, W, kh, kw, sh, sw, 0, 0, dh, dw, oh, ow)
    gathered = nn.MaxPool2d.__new__(nn.MaxPool2d)
    want = gathered._gathered(x, flat, valid, (oh, ow))
    inside = nn.MaxPool2d.__new__(nn.MaxPool2d)
    got, local = inside._windows(x, (oh, ow), ((kh, kw), (sh, sw), (dh, dw)))
    ints = np.uint32 if dtype == np.float32 else np.uint64
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.view(ints), want.view(ints))
    np.testing.assert_array_equal(inside.idx, gathered.idx)
    planes = (np.arange(shape[0] * shape[1]) * (H * W)).reshape(shape[0], shape[1], 1, 1)
    np.testing.assert_array_equal(local, inside.idx - planes)


@pytest.mark.parametrize("seed", range(40))
def test_gathered_windows_equal_gathered(seed):
    """pool_windows.gathered_windows (every window inside the input, gathered first: the
    maximum by NumPy's maximum in window order, the first position equal to it) against
    the gathered argmax, bit for bit in the values and the chosen indices, with signed
    zeros, ties and infinities; an input with a NaN in a window is declined (None)."""
    rng = np.random.default_rng(2000 + seed)
    while True:
        (kh, kw), (sh, sw), _, (dh, dw), _, (H, W), _ = _geometry(rng)
        oh, ow = nn._pool_size(H, kh, sh, 0, dh, False), nn._pool_size(W, kw, sw, 0, dw, False)
        if oh > 0 and ow > 0:
            break
    dtype = np.float32 if seed % 2 else np.float64
    shape = (int(rng.integers(1, 4)), int(rng.integers(1, 4)), H, W)
    x = _values(rng, shape, dtype)
    if seed % 4 < 3:  # no NaN: signed zeros, ties and infinities only
        x = np.where(np.isnan(x), rng.choice([0.0, -0.0, 2.0], x.shape), x).astype(dtype)
    window = ((kh, kw), (sh, sw), (dh, dw))
    got = pool_windows.gathered_windows(x, (oh, ow), window)
    flat, valid = nn._pool_index(H, W, kh, kw, sh, sw, 0, 0, dh, dw, oh, ow)
    gathered = nn.MaxPool2d.__new__(nn.MaxPool2d)
    want = gathered._gathered(x, flat, valid, (oh, ow))
    if np.isnan(want).any():
        assert got is None
        return
    values, local, idx = got
    ints = np.uint32 if dtype == np.float32 else np.uint64
    assert values.dtype == want.dtype
    np.testing.assert_array_equal(values.view(ints), want.view(ints))
    np.testing.assert_array_equal(idx, gathered.idx)
    planes = (np.arange(shape[0] * shape[1]) * (H * W)).reshape(shape[0], shape[1], 1, 1)
    np.testing.assert_array_equal(local, idx - planes)


def _inside_case(rng, seed):
    while True:
        (kh, kw), (sh, sw), _, (dh, dw), _, (H, W), _ = _geometry(rng)
        oh, ow = nn._pool_size(H, kh, sh, 0, dh, False), nn._pool_size(W, kw, sw, 0, dw, False)
        if oh > 0 and ow > 0:
            break
    dtype = np.float32 if seed % 2 else np.float64
    shape = (int(rng.integers(1, 4)), int(rng.integers(1, 4)), H, W)
    return _values(rng, shape, dtype), ((kh, kw), (sh, sw), (dh, dw)), (oh, ow)


_compiled = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")


@_compiled
@pytest.mark.parametrize("seed", range(60))
def test_native_windows_equal_gathered(seed):
    """pool_windows.native_windows (the compiled loop: the compares output after output)
    against the gathered argmax, bit for bit in the values, the chosen indices in the
    batch and in each plane, NaN payloads, signed zeros, ties and infinities included."""
    rng = np.random.default_rng(3000 + seed)
    x, window, (oh, ow) = _inside_case(rng, seed)
    (kh, kw), (sh, sw), (dh, dw) = window
    N, C, H, W = x.shape
    values, local, idx = pool_windows.native_windows(x, (oh, ow), window)
    flat, valid = nn._pool_index(H, W, kh, kw, sh, sw, 0, 0, dh, dw, oh, ow)
    gathered = nn.MaxPool2d.__new__(nn.MaxPool2d)
    want = gathered._gathered(x, flat, valid, (oh, ow))
    ints = np.uint32 if x.dtype == np.float32 else np.uint64
    assert values.dtype == want.dtype and values.shape == want.shape
    np.testing.assert_array_equal(values.view(ints), want.view(ints))
    np.testing.assert_array_equal(idx, gathered.idx)
    planes = (np.arange(N * C) * (H * W)).reshape(N, C, 1, 1)
    np.testing.assert_array_equal(local, idx - planes)


@_compiled
@pytest.mark.parametrize("seed", range(20))
def test_native_scatter_equal_add_at(seed):
    """native.pool_scatter (max_pool2d's backward: each output's gradient added into its
    input's in order) against np.add.at from zeros, bit for bit, with overlapping windows
    (one input chosen by several outputs) and gradients of every magnitude and sign."""
    rng = np.random.default_rng(4000 + seed)
    x, window, oshape = _inside_case(rng, seed)
    _, _, idx = pool_windows.native_windows(x, oshape, window)
    g = (rng.standard_normal(idx.shape) * 10.0 ** rng.integers(-8, 8, idx.shape)).astype(x.dtype)
    g.reshape(-1)[::7] = -0.0
    got = native_layers.pool_scatter(g, idx, x.size)
    want = np.zeros(x.size, x.dtype)
    np.add.at(want, idx.reshape(-1), g.reshape(-1))
    ints = np.uint32 if x.dtype == np.float32 else np.uint64
    np.testing.assert_array_equal(got.view(ints), want.view(ints))
