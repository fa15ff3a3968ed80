"""The values of `torch.linalg.vector_norm` (and `x.norm()`) as ATen's CPU kernels compute
them (ReduceOpsKernel.cpp's norm_kernel_tensor_iterator_impl), for the last bit:

- every reduced dim of size 1: `|x|` (`x != 0` for ord 0), no reduction at all;
- ord 2 over the innermost (memory-order) dim of float32/float64: one row at a time,
  AVX2 lanes (8 float32 / 4 float64) each summing `x * x` of every 8th (4th) value from
  0, the lanes added left to right, then the tail one by one as the compiled kernel
  does it (fused multiply-adds; float32 squares 4 at a time first), then `sqrt` (one
  short float64 row: the same operations in Python floats);
- anything else (binary_kernel_reduce with NormOps/NormOneOps/NormTwoOps/NormZeroOps/
  AbsMaxOps/AbsMinOps): per output, the terms (`|x|^ord`, `|x|`, `x * x`, `x != 0`)
  summed one after the other from 0 in the input's memory order, in x's dtype, then
  `acc ^ (1 / ord)` (1 / ord in x's dtype) or `sqrt`; a whole-tensor reduction of more
  than 32,768 values is cut between threads as at::parallel_for cuts it (numerics/parallel),
  the pieces' sums added in order.
The reduced values are visited in C order of a contiguous copy (what torch does for a
contiguous input; a transposed one is visited in its own memory order by torch)."""

from __future__ import annotations

import math
import struct

import numpy as np

from ..floats.fma import fma, fma32, one_rounding
from ..parallel import chunks

#: Vectorized<T>::size() on AVX2 (torch's CPU capability where the goldens are recorded)
LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}


def _terms(x, p):
    a = np.abs(x)
    if p == 2:
        return x * x
    if p == 1:
        return a
    if p == 0:
        return (x != 0).astype(x.dtype)
    with np.errstate(all="ignore"):  # (an array of exponents: NumPy's pow() for each,
        return np.power(a, np.full_like(a, p))  # never its reciprocal/sqrt/square shortcuts)


def _seq(t):
    """Sums along the last axis, one value after the other from 0 (t has >= 1 column)."""
    return (
        np.add.accumulate(t, axis=-1)[..., -1] if t.shape[-1] else np.zeros(t.shape[:-1], t.dtype)
    )


def _project(acc, p, dt):
    with np.errstate(all="ignore"):
        if p == 2:
            return np.sqrt(acc)
        if p in (0, 1):
            return acc
        return np.power(acc, np.full_like(acc, dt.type(1) / dt.type(p)))


def _fma32(a, b, c):
    """fma(a, b, c) rounded to float32, for Python floats holding float32 values: the
    product and sum in double, rounded once more, except where the double sum is a float32
    midpoint (then numerics/floats/fma's exact fma32)."""
    s = a * b + c  # a * b is exact in double
    if (struct.unpack("<Q", struct.pack("<d", s))[0] & 0x1FFFFFFF) == 0x10000000:
        return float(fma32(np.asarray(a, np.float64), b, c))
    return float(np.float32(s))


#: one float64 row of at most this many values is summed in Python floats (fewer steps)
_SHORT = 64


def _short64(row):
    """The AVX2 p=2 kernel on one short float64 row (a list of Python floats), in Python's
    IEEE double arithmetic: the same operations in the same order as `_lanes`; None when
    the sum is not finite (an inf or NaN: NumPy's steps keep a NaN's sign and payload)."""
    n = len(row)
    body = n - n % 4
    if body:
        l0, l1, l2, l3 = (v * v for v in row[:4])
        for i in range(4, body, 4):
            v0, v1, v2, v3 = row[i : i + 4]
            l0 = l0 + v0 * v0
            l1 = l1 + v1 * v1
            l2 = l2 + v2 * v2
            l3 = l3 + v3 * v3
        acc = ((l0 + l1) + l2) + l3
    else:
        acc = 0.0
    if not math.isfinite(acc):
        return None
    for v in row[body:]:
        if not math.isfinite(v):
            return None
        acc = one_rounding(v, v, acc)  # (the tail's fused multiply-adds)
        if not math.isfinite(acc):
            return None
    return np.sqrt(np.asarray([acc], np.float64))


def _lanes(rows):
    """The AVX2 p=2 kernel on each row of the 2-D array `rows`."""
    n = rows.shape[1]
    if rows.shape[0] == 1 and n <= _SHORT and rows.dtype == np.float64:
        r = _short64(rows[0].tolist())
        if r is not None:
            return r
    k = LANES[rows.dtype]
    body = n - n % k
    dt = rows.dtype
    if body:
        blocks = rows[:, :body].reshape(rows.shape[0], body // k, k)
        lanes = np.add.accumulate(blocks * blocks, axis=1)[:, -1, :]
        acc = np.add.accumulate(lanes, axis=1)[:, -1]
    else:
        acc = np.zeros(rows.shape[0], dt)
    # the tail `acc += x * x` as GCC compiled it: float32 squares 4 at a time (SSE, then
    # added in order) while 4 are left, the others one fused multiply-add each
    j = body
    if rows.shape[0] == 1 and dt == np.float32:  # one row: Python floats, faster
        f32 = np.float32
        a = f32(acc[0])
        tail = rows[0, body:]
        while n - j >= 4:
            for sq in (tail[j - body : j - body + 4] * tail[j - body : j - body + 4]).tolist():
                a = f32(a + f32(sq))
            j += 4
        a = float(a)
        for v in tail[j - body :].tolist():
            a = _fma32(v, v, a)
        return np.sqrt(np.asarray([a], dt))
    if dt == np.float32:
        while n - j >= 4:
            sq = rows[:, j : j + 4] * rows[:, j : j + 4]
            for i in range(4):
                acc = acc + sq[:, i]
            j += 4
    for k in range(j, n):
        acc = fma(rows[:, k], rows[:, k], acc, dt.type).astype(dt, copy=False)
    return np.sqrt(acc)


def vector_norm(x, p, axes, keepdim):
    """x's p-norm over `axes` (a tuple of non-negative dims, or None: all), float array."""
    if axes is None and p == 2 and x.size > 1 and x.dtype in LANES:  # (the whole tensor)
        return _lanes(x.reshape(1, x.size)).reshape((1,) * x.ndim if keepdim else ())
    nd = x.ndim
    red = tuple(range(nd)) if axes is None or not len(axes) else tuple(sorted(axes))
    dt = x.dtype
    shape = x.shape
    out_shape = (
        tuple(1 if i in red else n for i, n in enumerate(shape))
        if keepdim
        else tuple(n for i, n in enumerate(shape) if i not in red)
    )
    if all(shape[i] == 1 for i in red):  # a reduction over size-1 dims: |x| (x != 0)
        r = np.abs(x) if p != 0 else (x != 0).astype(dt)
        return np.asarray(r.reshape(out_shape), dtype=dt)
    keep = [i for i in range(nd) if i not in red]
    y = np.ascontiguousarray(x if not keep else np.transpose(x, keep + list(red)))
    nout = int(np.prod([shape[i] for i in keep])) if keep else 1
    nred = int(np.prod([shape[i] for i in red])) if red else 1
    flat = y.reshape(nout, nred)
    if not flat.size:  # (an inf norm over an empty dim is the caller's error)
        return np.full(out_shape, math.inf if p < 0 else 0, dt)
    if p == math.inf:
        return np.max(np.abs(flat), axis=1).reshape(out_shape).astype(dt, copy=False)
    if p == -math.inf:
        return np.min(np.abs(flat), axis=1).reshape(out_shape).astype(dt, copy=False)
    # size-1 dims are coalesced away; ord 2 is vectorised when the reduced dims left are
    # the innermost ones (one reduced dim after TensorIterator merges them)
    red1 = [i for i in red if shape[i] != 1]
    keep1 = [i for i in keep if shape[i] != 1]
    if p == 2 and dt in LANES and (not keep1 or max(keep1) < min(red1)):
        return _lanes(flat).reshape(out_shape)
    if nout == 1 and nred > 1:
        total = dt.type(0)
        for b, e in chunks(nred):
            total = dt.type(total + _seq(_terms(flat[0, b:e], p)))
        acc = np.asarray([total], dt)
    else:
        acc = _seq(_terms(flat, p))
    return np.asarray(_project(acc, p, dt), dtype=dt).reshape(out_shape)
