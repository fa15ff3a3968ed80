"""digamma and trigamma (polygamma(1, .)) as PyTorch's CPU kernels compute them, element
by element in the input's precision (ATen's `calc_digamma` and `trigamma`, derived from
the Cephes library), to the last bit.

digamma(x): +-inf at +-0 (the sign opposite to the zero's), NaN at the negative integers
and -inf; for other x < 0 the reflection digamma(1 - x) - pi / tan(pi r), r the
fractional part of x, the quotient in double (then rounded, in float32); for x >= 0,
1 / x is subtracted while x < 10 (x grows by 1 each time); at exactly 10 the result is
that sum plus psi(10); above, sum + log(x) - 0.5 / x - z p(z) with z = 1 / x^2 and p
Cephes's degree-6 asymptotic polynomial by Horner (left out from 1e17 on).  The C
library's log: NumPy's for float64, `libm_logf` for float32.

trigamma(x): below 0.5, -pi^2 / sin(pi x)^2 and x -> 1 - x, the final sign flipped; then
six terms 1 / x^2 with x growing by 1, then (1 + 1/(2x) + ixx (1/6 - ixx (1/30 - ixx /
42))) / x with ixx = 1 / x^2, its three multiply-adds fused (ATen's AVX2 build contracts
them).  The sine is the C library's: NumPy's float64 sin, and glibc's `sinf` itself
for float32 (not correctly rounded: a float64 sine rounded to float32 differs on about
one value in 250), called through ctypes where the C library has it."""

from __future__ import annotations

import math

import numpy as np

from .fma import fma, fma32
from .libm_log import libm_log

#: Cephes's asymptotic coefficients, highest power first
_A = (
    8.33333333333333333333e-2,
    -2.10927960927960927961e-2,
    7.57575757575757575758e-3,
    -4.16666666666666666667e-3,
    3.96825396825396825397e-3,
    -8.33333333333333333333e-3,
    8.33333333333333333333e-2,
)
_PSI_10 = 2.25175258906672110764


def _digamma_from_positive(x):
    """digamma of x >= 0 (no zeros, NaNs or infinities among them but +inf)."""
    dt = x.dtype.type
    one = dt(1)
    acc = np.zeros_like(x)
    x = x.copy()
    low = x < 10
    while low.any():
        acc[low] -= one / x[low]
        x[low] += one
        low = x < 10
    z = one / (x * x)
    p = np.zeros_like(x)
    for a in _A:
        p = p * z + dt(a)
    y = np.where(x < dt(1e17), z * p, dt(0))
    out = acc + libm_log(x) - dt(0.5) / x - y
    return np.where(x == 10, acc + dt(_PSI_10), out)


def digamma(x):
    """ATen's calc_digamma, element-wise, on a float32 or float64 array."""
    x = np.asarray(x)
    dt = x.dtype.type
    with np.errstate(all="ignore"):
        neg = x < 0
        pole = neg & (np.trunc(x) == x)
        bad = np.isnan(x) | (x == 0)
        start = np.where(neg, dt(1) - x, x)
        out = _digamma_from_positive(np.where(bad | pole, dt(1), start))
        if neg.any():
            r = np.modf(x.astype(np.float64))[0]
            out = np.where(neg, out - (math.pi / np.tan(math.pi * r)).astype(x.dtype), out)
        out = np.where(pole, dt(np.nan), out)
        out = np.where(x == 0, np.copysign(dt(np.inf), -x), out)
        out = np.where(np.isnan(x), x, out)
    return out


def trigamma(x):
    """ATen's trigamma (polygamma(1, x)), element-wise, on a float32 or float64 array."""
    x = np.asarray(x)
    dt = x.dtype.type
    one = dt(1)
    with np.errstate(all="ignore"):
        low = x < dt(0.5)
        acc = np.zeros_like(x)
        if low.any():
            if dt is np.float32:
                s = np.ones_like(x)
                s[low] = _sinf(np.float32(math.pi) * x[low])
                pi2 = np.float32(math.pi) * np.float32(math.pi)
            else:
                s = np.sin(math.pi * x)
                pi2 = math.pi * math.pi
            acc = np.where(low, -(pi2 / (s * s)), acc).astype(x.dtype)
            x = np.where(low, one - x, x)
        for _ in range(6):
            acc = acc + one / (x * x)
            x = x + one
        ixx = one / (x * x)
        six, thirty, fortytwo = (
            (np.float32(1 / 6), np.float32(1 / 30), np.float32(1 / 42))
            if dt is np.float32
            else (1 / 6, 1 / 30, 1 / 42)
        )
        if dt is np.float32:
            wide = ixx.astype(np.float64)
            inner = fma32(-wide, fma32(-wide, fortytwo, thirty), six)
            tail = fma32(wide, inner, one + one / (dt(2) * x))
        else:
            tail = fma(ixx, fma(-ixx, fma(-ixx, fortytwo, thirty), six), one + one / (2 * x))
        acc = acc + tail / x
        return np.where(low, -acc, acc).astype(x.dtype)


_SINF: list = []


def _sinf(v):
    """The C library's sinf of each float32 value (a float64 sine rounded, without one)."""
    if not _SINF:
        import ctypes.util  # (its import brings subprocess, signal's enums: start-up time)

        fn = None
        try:
            fn = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6").sinf
            fn.restype, fn.argtypes = ctypes.c_float, (ctypes.c_float,)
        except (OSError, AttributeError):
            fn = None
        _SINF.append(fn)
    fn = _SINF[0]
    if fn is None:
        return np.sin(v.astype(np.float64)).astype(np.float32)
    return np.array([fn(t) for t in v.ravel().tolist()], np.float32).reshape(v.shape)
