"""`self + alpha * other` as PyTorch's CPU add kernel computes it (torch.add/sub with
`alpha=`, `x.add_(y, alpha=)`): ATen's ufunc `add` is `vec::fmadd(other, alpha, self)`
on whole blocks of two vectors and `self + alpha * other` in its scalar code, which
the compiler contracts to one fused multiply-add as well -- except in one case,
measured on torch 2.13's AVX2 build: when `other` is a broadcast scalar along the
run (a Python number, a 0-d tensor, a column broadcast along a row), the compiler
hoists `alpha * other` out of the scalar loop after the blocks and vectorises that
loop with SSE (4 float32 or 2 float64 lanes) after peeling its first value: there
the product is rounded on its own and added (two roundings).  So in such a run's
tail of m values, the first and the last (m - 1) % lanes are fused, the others not.

Integers wrap as C++'s do; bool is `self or (alpha and other)`.  `sub(a, b, alpha)`
is `add(a, b, -alpha)`, as in ATen.
"""

from __future__ import annotations

import numpy as np

from . import half
from .fma import exact_scalar, fma, unsplittable
from ..parallel import chunks
from .tensor_iter import VEC_BLOCK, _inner_run, _order

_LANES = {np.dtype(np.float32): 4, np.dtype(np.float64): 2}  # SSE lanes of the tail loop


def scaled_add(a, b, alpha, dt):
    """a + alpha * b in dtype `dt` (a and b arrays or Python numbers, already of a
    kind that casts to dt; alpha a Python number of that kind)."""
    dt = np.dtype(dt)
    if dt.kind == "b":
        return np.logical_or(a, np.logical_and(bool(alpha), b))
    if dt.kind in "iu":
        a, b = np.asarray(a).astype(dt), np.asarray(b).astype(dt)
        return np.asarray(a + dt.type(alpha) * b, dtype=dt)
    if dt not in _LANES:  # float16: numerics/floats/half.py
        return half.scaled_add(a, b, alpha)
    shape = np.broadcast_shapes(np.shape(a), np.shape(b))
    A = np.broadcast_to(np.asarray(a, dt), shape)
    B = np.broadcast_to(np.asarray(b, dt), shape)
    al = dt.type(alpha)
    out = np.asarray(fma(B, al, A, dt)).astype(dt, copy=False)
    if dt == np.float64:
        far = unsplittable(B, al) & np.isfinite(B) & np.isfinite(A)
        if far.any():  # products near the ends of the double range
            out = out.copy()
            out[far] = [exact_scalar(b, al, a) for a, b in zip(A[far].tolist(), B[far].tolist())]
    split = _unfused(A, B, dt)
    if split is not None and split.any():
        plain = (A + (B * al).astype(dt)).astype(dt)
        out = np.where(split, plain, out)
    return out


def _unfused(A, B, dt):
    """The mask (in A's shape) of the values computed with two roundings, or None."""
    if not A.size or not A.ndim:
        return None
    arrays = [A, B]
    perm = _order(arrays)
    n, strides = _inner_run(arrays, perm)
    if strides[1] != 0 or strides[0] != dt.itemsize or n < 2:
        return None
    step, lanes = VEC_BLOCK[dt.type], _LANES[dt]
    size = A.size
    mask = np.zeros(size, dtype=bool)
    p = np.arange(size)
    for begin, end in chunks(size):
        q = p[begin:end]
        row = q // n * n
        start = np.maximum(row, begin)
        stop = np.minimum(row + n, end)
        tail = start + (stop - start) // step * step
        off = q - tail
        mask[begin:end] = (off >= 1) & (off < 1 + (stop - tail - 1) // lanes * lanes)
    outer_first = perm[::-1]
    permuted = tuple(A.shape[d] for d in outer_first)
    return np.ascontiguousarray(mask.reshape(permuted).transpose(np.argsort(outer_first)))
