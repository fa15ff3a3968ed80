"""Fused multiply-add, a * b + c rounded once, as PyTorch's CPU kernels compute it.

PyTorch's vectorised kernels are compiled with FMA contraction, so an expression
like `start + step * i` in `arange` and `linspace` is one rounding, not two.
NumPy has no fma; this emulates it with error-free transformations: the product
exactly as p + e (Dekker's product), then c + p exactly as s + t (Knuth's sum),
and the result s + (t + e).  That is the correctly rounded a * b + c except when
the exact value lies within about 2^-100 of a rounding boundary.  For float32
the product is exact in float64 and only the rounding of the sum needs care
(`fma32`, also used by gradcli/random.py).
"""

from __future__ import annotations

import math

import numpy as np

_SPLIT = 134217729.0  # 2^27 + 1, Veltkamp's splitter for doubles


def _split(a):
    t = a * _SPLIT
    hi = t - (t - a)
    return hi, a - hi


def fma32(a, b, c) -> np.ndarray:
    """Correctly rounded float32 ``a*b + c`` (as the FMA instruction computes it).

    Operands are float32 values; at least one of ``a``/``b`` must be a float64
    array (holding float32-representable values) so that the product ``a*b``
    is computed exactly in float64.  The float64 sum ``s`` is then rounded to
    float32.  That double rounding can only go wrong when ``s`` lands exactly
    on a float32 rounding midpoint while the exact sum does not; those (rare)
    elements are fixed using the exact rounding error of the sum.
    """
    p = np.asarray(a * b)
    assert p.dtype == np.float64
    s = np.asarray(p + c)
    r = s.astype(np.float32)
    mid = (s.view(np.uint64) & np.uint64(0x1FFFFFFF)) == np.uint64(0x10000000)
    if mid.any():
        idx = mid  # a mask: 0-d operands too (np.nonzero refuses them)
        ps = np.broadcast_to(p, s.shape)[idx]
        cs = np.broadcast_to(np.asarray(c, dtype=np.float64), s.shape)[idx]
        ss = s[idx]
        bb = ss - ps
        err = (ps - (ss - bb)) + (cs - bb)  # exact: s + err == p + c
        fixed = np.where(
            err > 0, np.nextafter(ss, np.inf), np.where(err < 0, np.nextafter(ss, -np.inf), ss)
        )
        r[idx] = fixed.astype(np.float32)
    return r


def fma(a, b, c, dtype=np.float64):
    """a * b + c, rounded once to `dtype` (float64 or float32); arrays broadcast."""
    if dtype == np.float32:
        return fma32(np.asarray(a, dtype=np.float64), b, c)
    a, b, c = (np.asarray(v, dtype=np.float64) for v in (a, b, c))
    p = a * b
    with np.errstate(over="ignore", invalid="ignore"):
        ah, al = _split(a)
        bh, bl = _split(b)
        e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
        s = c + p
        z = s - c
        t = (c - (s - z)) + (p - z)
        r = s + (t + e)
    # overflow: the plain result; an exact zero: the plain sum's, whose sign is IEEE's
    # (-0.0 only from -0.0 + -0.0) where the corrections' +0.0 would lose it
    return np.where(np.isfinite(r) & ((r != 0) | (s != 0)), r, s)


def exact_scalar(a, b, c):
    """a * b + c for Python floats, rounded once (exact rational arithmetic): for the
    values `fma` cannot split, products near the bottom or top of the double range."""
    a, b, c = float(a), float(b), float(c)
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return a * b + c
    from fractions import Fraction  # (rarely needed: 2.6 ms of start-up saved)

    exact = Fraction(a) * Fraction(b) + Fraction(c)
    try:
        return float(exact)
    except OverflowError:  # beyond the largest double: rounds to inf
        return math.inf if exact > 0 else -math.inf


def unsplittable(a, b):
    """Where `fma(a, b, c)` (float64) may be wrong: Dekker's split of the product
    under- or overflows (|a*b| below 2^-900, or an operand above 2^990)."""
    p = np.abs(np.asarray(a * b, dtype=np.float64))
    with np.errstate(invalid="ignore"):
        return ((p < 2.0**-900) & (p > 0)) | (np.abs(a) > 2.0**990) | (np.abs(b) > 2.0**990)


def estrin10(s, c):
    """SLEEF's degree-9 polynomial in s (float64) with coefficients c = (c9, ..., c0), in
    its Estrin order (POLY10 of SLEEF's estrin.h: fused multiply-adds on s, s^2, s^4
    and s^8), as its exp and exp2 kernels evaluate it."""
    s2 = s * s
    s4 = s2 * s2
    s8 = s4 * s4
    c9, c8, c7, c6, c5, c4, c3, c2, c1, c0 = c
    p8 = fma(s4, fma(s2, fma(s, c7, c6), fma(s, c5, c4)), fma(s2, fma(s, c3, c2), fma(s, c1, c0)))
    return fma(s8, fma(s, c9, c8), p8)
