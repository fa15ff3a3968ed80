"""float32/float64 softmax over a dim other than the last, as PyTorch's CPU kernel
computes it (ATen/native/cpu/SoftMaxKernel.cpp, `_vec_softmax`; AVX2 vectors, as the
last-dim kernels in sleef_explog.py and softmax64.py).

The input is seen as (outer, dim, inner): outer * inner columns of `dim` values.
`at::parallel_for` cuts the columns between threads (numerics/parallel.py); torch 2.13
cuts any range of more than one column (measured: its grain is below the smallest
case tried, 9 columns).  In each thread's range a column starts a vector of LANES
columns when the vector stays inside its row of `inner` and inside the range; such
columns take the vector code: their max, then exp(x - max) with SLEEF's exp, added up
along the dim one after the other, then each divided by the sum.  The other columns
(the end of a row, the end of a range) take the scalar code: the same steps with the
C library's exp.  Checked bit for bit against torch 2.13 (AVX2) on 80 shapes
(tests/golden/softmax_dims.json).
"""

from __future__ import annotations

import numpy as np

from .fma import fma
from ..parallel import chunks
from .sleef_explog import logf
from .sleef_u10 import sleef_log
from .torch_exp import _libm_exp, _sleef_exp

#: values per vector (AVX2), by dtype
LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}


def vector_columns(outer, inner, lanes):
    """A boolean mask over the outer * inner columns: True where `_vec_softmax` takes
    its vector code."""
    n = outer * inner
    mask = np.zeros(n, bool)
    for b, e in chunks(n, 1):
        p = np.arange(b, e)
        row = p // inner
        first, last = b // inner, (e - 1) // inner
        start = np.where(row == first, b % inner, 0)  # where the range enters the row
        stop = np.where(row == last, e - last * inner, inner)  # where it leaves it
        mask[b:e] = (p % inner - start) < (stop - start) // lanes * lanes
    return mask


def softmax_dim(x, axis):
    """softmax(x, axis) for a float32/float64 array and an axis before its last."""
    x3 = _columns(x, axis)
    outer, _, inner = x3.shape
    vec = vector_columns(outer, inner, LANES[x.dtype]).reshape(outer, 1, inner)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        e = _exp_by_column(x3 - x3.max(axis=1, keepdims=True), vec)
        return (e / _sum_along(e)[:, None]).reshape(x.shape)


def _sum_along(a3):
    """The sums of (outer, dim, inner) values along the dim, from 0, one value after the
    other (the kernels' vertical sums)."""
    total = np.zeros((a3.shape[0], a3.shape[2]), a3.dtype)
    for d in range(a3.shape[1]):
        total = total + a3[:, d]
    return total


def _columns(a, axis):
    """a as (outer, dim, inner), contiguous."""
    shape = a.shape
    return np.ascontiguousarray(a).reshape(
        int(np.prod(shape[:axis], dtype=np.int64)),
        shape[axis],
        int(np.prod(shape[axis + 1 :], dtype=np.int64)),
    )


def softmax_backward_dim(g, out, axis):
    """_softmax_backward_data over a dim before the last (`_vec_softmax_backward`):
    out * (g - sum(g * out)), the sum along the dim one after the other, each step one
    fused multiply-add (the kernel's `sum += g * out`, contracted by the compiler)."""
    g3, o3 = _columns(np.asarray(g, out.dtype), axis), _columns(out, axis)
    dt = out.dtype.type
    total = np.zeros((g3.shape[0], g3.shape[2]), out.dtype)
    for d in range(g3.shape[1]):
        total = np.asarray(fma(g3[:, d], o3[:, d], total, dt), out.dtype)
    return (o3 * (g3 - total[:, None])).reshape(out.shape)


def _vector_tail(inner, lanes):
    """The columns of a row `_vec_logsoftmax` and the backward kernels take with their
    vector code: they walk each row in chunks of whole vectors (CHUNK_SIZE, a multiple
    of the vector), so only the last inner % lanes columns take the scalar code."""
    return np.arange(inner) < inner - inner % lanes


def _exp_by_column(s, vec):
    """exp of (outer, dim, inner) values: SLEEF's where `vec` (a mask broadcasting to
    them) is true, the C library's elsewhere."""
    if vec.all():
        return _sleef_exp(s)
    return np.where(vec, _sleef_exp(s), _libm_exp(s))


def log_softmax_dim(x, axis):
    """log_softmax(x, axis) over a dim before the last (`_vec_logsoftmax`): the max
    along the dim as `data > max ? data : max` from -inf (NaN is passed over), the sum
    of exp(x - max) one after the other, its log (SLEEF's, every column), then
    x - max - log(sum)."""
    x3 = _columns(x, axis)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        m = np.full((x3.shape[0], x3.shape[2]), -np.inf, x.dtype)
        for d in range(x3.shape[1]):
            m = np.where(x3[:, d] > m, x3[:, d], m)
        s = x3 - m[:, None]
        e = _exp_by_column(s, _vector_tail(x3.shape[2], LANES[x.dtype]))
        total = _sum_along(e)
        ls = logf(total) if x.dtype == np.float32 else sleef_log(total)
        return (s - ls[:, None]).reshape(x.shape)


def log_softmax_backward_dim(g, out, axis):
    """_log_softmax_backward_data over a dim before the last
    (`_vec_log_softmax_backward`): g - exp(out) * sum(g), the sum along the dim one
    after the other, the product and difference one fused multiply-add."""
    g3, o3 = _columns(np.asarray(g, out.dtype), axis), _columns(out, axis)
    total = _sum_along(g3)
    with np.errstate(invalid="ignore", over="ignore"):
        e = _exp_by_column(o3, _vector_tail(o3.shape[2], LANES[out.dtype]))
        r = fma(-e, np.broadcast_to(total[:, None], e.shape), g3, out.dtype.type)
    return np.asarray(r, out.dtype).reshape(out.shape)
