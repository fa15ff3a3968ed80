"""PyTorch's `torch.exp2` of float32/float64 tensors: on whole blocks of two vectors of
each contiguous run, `Vectorized<T>::exp2()` -- SLEEF's 1-ulp `Sleef_exp2f8_u10` /
`Sleef_exp2d4_u10` of the AVX2 build (fused multiply-adds) --, and the C library's
`exp2`/`exp2f` (NumPy's) on the values after them (numerics/floats/tensor_iter.py).

Re-implemented in NumPy from SLEEF's published algorithm: q = rint(d), s = d - q, a
polynomial in s (float32: degree 6 by Horner's scheme; float64: degree 11, its first ten
terms by Estrin's scheme), all fused, times 2^q in two products; d >= 128 (1024) is
inf, d < -150 (-2000) is +0.
"""

from __future__ import annotations

import numpy as np

from .fma import estrin10, fma
from .tensor_iter import sleef_blocks

_CF = (
    +0.1535920892e-3,
    +0.1339262701e-2,
    +0.9618384764e-2,
    +0.5550347269e-1,
    +0.2402264476e0,
    +0.6931471825e0,
)
# c9 .. c0 of the float64 polynomial's Estrin part, then ln 2
_CD = (
    +0.4434359082926529454e-9,
    +0.7073164598085707425e-8,
    +0.1017819260921760451e-6,
    +0.1321543872511327615e-5,
    +0.1525273353517584730e-4,
    +0.1540353045101147808e-3,
    +0.1333355814670499073e-2,
    +0.9618129107597600536e-2,
    +0.5550410866482046596e-1,
    +0.2402265069591012214e0,
)
_LN2D = +0.6931471805599452862e0


def _rint_int(u):
    """cvtps2dq / cvtpd2dq of an already rounded value: int32, INT_MIN when out of range."""
    return np.where(np.abs(u) < 2.0**31, u, -(2.0**31)).astype(np.int32)


def exp2f(d):
    """Sleef_exp2f8_u10 of a float32 array."""
    d = np.asarray(d, np.float32)
    f = np.float32
    with np.errstate(all="ignore"):
        u = np.rint(d)
        q = _rint_int(u)
        s = d - u
        u = np.full(d.shape, f(_CF[0]), f)
        for c in _CF[1:]:
            u = fma(u, s, f(c), f)
        u = fma(u, s, f(1), f)
        h = q >> 1
        u = u * _pow2f(h) * _pow2f(q - h)
        u = np.where(d >= 128, f(np.inf), u)
        u = np.where(d < -150, f(0), u)
    return u.astype(f)


def _pow2f(q):
    return ((q.astype(np.int32) + 0x7F) << 23).view(np.float32)


def _pow2d(q):
    return ((q.astype(np.int64) + 0x3FF) << 52).view(np.float64)


def exp2d(d):
    """Sleef_exp2d4_u10 of a float64 array."""
    d = np.asarray(d, np.float64)
    with np.errstate(all="ignore"):
        u = np.rint(d)
        q = _rint_int(u)
        s = d - u
        u = estrin10(s, _CD)
        u = fma(u, s, _LN2D)
        u = fma(u, s, 1.0)
        h = q >> 1
        u = u * _pow2d(h) * _pow2d(q - h)
        u = np.where(d >= 1024, np.inf, u)
        u = np.where(d < -2000, 0.0, u)
    return u


def exp2(x):
    """torch.exp2 of a float32/float64 array (other dtypes: NumPy's exp2)."""
    x = np.asarray(x)
    return sleef_blocks(exp2f if x.dtype == np.float32 else exp2d, np.exp2, (x,))
