"""max_pool2d's forward on a small input whose every window lies inside it, with the
windows gathered first: one gather of every window's values into a (positions, outputs)
array, so each compare runs over all the outputs at once (the strided views of
`MaxPool2d._windows` have rows as short as the output's width, where NumPy's per-row
cost is most of the time).

The same values and choices as `_windows`: NumPy's maximum taken in window order from
the values at position 0 (it gives its second operand, the earlier value, where the two
are equal), and each output's choice the first position holding a value equal to that
maximum (what the compares in window order choose: the first greatest, a signed zero
equal to the other).  An input with a NaN in a window is left to `_windows` (None)."""

from __future__ import annotations

import numpy as np

from ..numerics import native, native_layers, per_shape

#: the gathered windows (positions x outputs) of a pooling at most this large (kept with
#: its index by per_shape: a larger one goes the strided way)
MOST = per_shape.VALUES // 2

_memo = per_shape.memo()


@_memo
def _plan(planes, H, W, kh, kw, sh, sw, dh, dw, oh, ow):
    """(the flat index (K, outputs) of every window's positions in the batch, the
    in-plane offset of the position each weight picks (weight K - k for position k, 0
    unused), each output's window corner in its plane (outputs,), each output's plane
    start (outputs,), the weights K - k (K, 1))."""
    K = kh * kw
    offsets = np.array([(k // kw) * dh * W + (k % kw) * dw for k in range(K)], np.int64)
    corner = (np.arange(oh, dtype=np.int64) * (sh * W)).reshape(oh, 1) + np.arange(ow) * sw
    start = np.repeat(np.arange(planes, dtype=np.int64) * (H * W), oh * ow)
    corner = np.tile(corner.reshape(-1), planes)
    index = offsets.reshape(K, 1) + (corner + start).reshape(1, -1)
    by_weight = np.zeros(K + 1, np.int64)
    by_weight[K - np.arange(K)] = offsets
    weights = (K - np.arange(K, dtype=np.uint8)).reshape(K, 1)
    return index, by_weight, corner, start, weights


def gathered_windows(x, oshape, window):
    """(the maxima (N, C, oh, ow), the chosen positions in each plane, the chosen
    positions in the batch (flat)), or None where this does not apply: an input with a
    NaN in some window, windows too many (MOST), a non-float or non-native dtype."""
    (kh, kw), (sh, sw), (dh, dw) = window
    N, C, H, W = x.shape
    oh, ow = oshape
    K = kh * kw
    M = N * C * oh * ow
    if K * M > MOST or K > 255 or not M or x.dtype.char not in "fd":
        return None
    index, by_weight, corner, start, weights = _plan(N * C, H, W, kh, kw, sh, sw, dh, dw, oh, ow)
    win = np.take(x.reshape(-1), index)  # (K, M)
    best = win[0].copy()
    for k in range(1, K):
        np.maximum(win[k], best, out=best)
    if np.isnan(best).any():  # (a NaN in a window is the maximum: _windows's compares)
        return None
    # the first position equal to the maximum: the largest weight K - k among them
    pick = np.equal(win, best).view(np.uint8)
    pick *= weights
    local = by_weight[pick.max(axis=0)]
    local += corner
    shape = (N, C, oh, ow)
    return best.reshape(shape), local.reshape(shape), (local + start).reshape(shape)


@_memo
def _native_offsets(W, kh, kw, dh, dw):
    """(the window positions' offsets from its corner (K,),) for the compiled loop."""
    offsets = [(k // kw) * dh * W + (k % kw) * dw for k in range(kh * kw)]
    return (np.array(offsets, np.int64),)


def native_windows(x, oshape, window):
    """gathered_windows's three arrays made by the compiled loop (numerics/native_pool.py:
    the compares of `MaxPool2d._windows` output after output, NaNs included), or None
    where the loops are not loaded or x is not a C-contiguous float32/float64 array in
    the machine's byte order."""
    if (
        x.dtype.char not in "fd"
        or not x.dtype.isnative
        or not x.flags.c_contiguous
        or native.loaded() is None
    ):
        return None
    (kh, kw), (sh, sw), (dh, dw) = window
    N, C, H, W = x.shape
    oh, ow = oshape
    (offsets,) = _native_offsets(W, kh, kw, dh, dw)
    shape = (N, C, oh, ow)
    out = np.empty(shape, x.dtype)
    local = np.empty(shape, np.int64)
    flat = np.empty(shape, np.int64)
    geometry = (N * C, oh, ow, H * W, sh * W, sw)
    if not native_layers.pool_max(x, geometry, offsets, out, local, flat):
        return None
    return out, local, flat
