"""Fused multiply-add, a * b + c rounded once, as PyTorch's CPU kernels compute it.

PyTorch's vectorised kernels are compiled with FMA contraction, so an expression
like `start + step * i` in `arange` and `linspace` is one rounding, not two.
NumPy has no fma; this emulates it with error-free transformations: the product
exactly as p + e (Dekker's product), then c + p exactly as s + t (Knuth's sum),
and the result s + (t + e) with t + e rounded to odd (Boldo and Melquiond's emulated
FMA): the correctly rounded a * b + c, a tie included, wherever the product can be
split (operands at most 2^990, a product 0 or at least 2^-900).  For float32
the product is exact in float64 and only the rounding of the sum needs care
(`fma32`, also used by gradcli/random.py).
"""

from __future__ import annotations

import math
import struct
from math import fsum

import numpy as np

from .. import native

_SPLIT = 134217729.0  # 2^27 + 1, Veltkamp's splitter for doubles


def _split(a):
    t = a * _SPLIT
    hi = t - (t - a)
    return hi, a - hi


class Split:
    """A float64 operand of `fma` with its Veltkamp halves, computed once (when first
    needed: the compiled loops of numerics/native.py take the value alone) for a value
    used in several fused steps (the same operations as `fma` does on it each time)."""

    __slots__ = ("value", "_halves")

    def __init__(self, a):
        self.value = a if _finite_float(a) else np.asarray(a, dtype=np.float64)
        self._halves = None

    def halves(self):
        if self._halves is None:
            with np.errstate(over="ignore", invalid="ignore"):
                self._halves = _split(self.value)
        return self._halves


_LOW29, _HALF29 = np.uint64(0x1FFFFFFF), np.uint64(0x10000000)  # float64 bits below float32's


def fma32(a, b, c) -> np.ndarray:
    """Correctly rounded float32 ``a*b + c`` (as the FMA instruction computes it).

    Operands are float32 values; at least one of ``a``/``b`` must be a float64
    array (holding float32-representable values) so that the product ``a*b``
    is computed exactly in float64.  The float64 sum ``s`` is then rounded to
    float32.  That double rounding can only go wrong when ``s`` lands exactly
    on a float32 rounding midpoint while the exact sum does not; those (rare)
    elements are fixed using the exact rounding error of the sum.

    The compiled loop of `numerics/native.py` takes the step once it is loaded (a small
    step of plain operands through `native.quick`, a large one once it pays), with the
    same result (a NaN among them: the whole step here).
    """
    r = native.quick("fma32", a, b, c)
    if r is not None:
        return r
    n = _size(a, b, c)
    lib = native.ready(n, native.MIN_SIZE_F32)
    if lib:
        r, flags = native.fused(lib, "fma32", a, b, c)
        if flags is None:
            return r
        part = _fma32(*(np.broadcast_to(v, r.shape)[flags] for v in (a, b, c)))
        if not np.isnan(part).any():  # (a NaN's sign and payload follow NumPy's loops)
            r[flags] = part
            return r
    t0 = native.start(n, native.MIN_SIZE_F32)
    try:
        return _fma32(a, b, c)
    finally:
        native.spent(t0)


_F64, _F32 = np.dtype(np.float64), np.dtype(np.float32)
_NUMBERS = (float, int, np.float64, np.float32)


def _scalars(a, b, c):
    """[a, b, c] as Python numbers when each is a finite number: a Python float or int,
    a NumPy float64 or float32 scalar or 0-d array (or a `Split` of one); else None."""
    out = []
    for v in (a, b, c):
        t = type(v)
        if t is Split:
            v = v.value
            t = type(v)
        if t is np.ndarray:
            if v.ndim or v.dtype.char not in "fd":
                return None
            v = v.item()
        elif t is int:
            out.append(v)
            continue
        elif t in _NUMBERS:
            v = float(v)
        else:
            return None
        if v - v != 0.0:  # inf or nan: the array steps (a NaN's sign and payload)
            return None
        out.append(v)
    return out


_TWO53 = 9007199254740992.0
#: Veltkamp's splitter for doubles (2**27 + 1), and the bounds of one_rounding's quick way
_SPLITTER = 134217729.0
_TINY, _LARGE, _HUGE = 2.0**-880, 2.0**960, 2.0**1000
_HUGE32 = 2.0**120  # (float32: a sum that rounds to no infinity)
_low_byte = struct.Struct("<d").pack  # (a double's bytes, its last bit's first)
_pack32, _unpack32 = struct.Struct("<f").pack, struct.Struct("<f").unpack
_HALF32 = 1 << 28  # a float32 midpoint's low 29 bits of a double's 53
_BIG32 = 2.0**128


def one_rounding(a, b, c, single=False):
    """a * b + c of finite Python numbers, rounded once to a double (or, `single`, to
    float32: a Python float holding it), as the FMA instruction rounds: the exact value
    as a ratio of ints and Python's int division, which rounds correctly (to nearest,
    ties to even, subnormals too).  An exact zero is +0.0 unless both terms are zeros of
    the sign -0.0 (IEEE's sum of zeros).  Doubles of moderate size take a quicker way to
    the same value: the product's exact error (Dekker's product) and Python's `math.fsum`
    of the three terms, which is their exact sum rounded once; for float32, that sum
    rounded to odd (the neighbour with an odd last bit when it is not exact), which
    rounds to float32 as the exact value does (53 bits are more than 24 + 1)."""
    if type(a) is float and type(b) is float and type(c) is float:
        p = a * b
        big = _HUGE32 if single else _HUGE
        if (
            _TINY < abs(p) < big
            and _TINY < abs(a) < _LARGE
            and _TINY < abs(b) < _LARGE
            and abs(c) < big
        ):
            # (no overflow splitting or summing, no underflow in the partial products:
            # the error of the product is a double, a * b == p + e exactly)
            t = _SPLITTER * a
            ah = t - (t - a)
            al = a - ah
            t = _SPLITTER * b
            bh = t - (t - b)
            bl = b - bh
            e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
            if not single:
                return p + c if not e else fsum((p, e, c))
            s = fsum((p, e, c))
            rest = fsum((p, e, c, -s))  # (its sign is the exact remainder's)
            if rest and not _low_byte(s)[0] & 1:
                s = math.nextafter(s, math.inf if rest > 0 else -math.inf)
            return _unpack32(_pack32(s))[0]  # (rounded to float32 as C's cast rounds)
    na, da = a.as_integer_ratio()
    nb, db = b.as_integer_ratio()
    nc, dc = c.as_integer_ratio()
    num = na * nb * dc + nc * da * db
    if not num:
        if nc:  # (a nonzero product and c cancelling exactly)
            return 0.0
        negative = math.copysign(1.0, a) * math.copysign(1.0, b) < 0
        return -0.0 if negative and math.copysign(1.0, c) < 0 else 0.0
    den = da * db * dc
    try:
        d = num / den
    except OverflowError:  # beyond the largest double: rounds to inf
        return math.inf if num > 0 else -math.inf
    if not single:
        return d
    # float32: rounding the double again is the single rounding unless the double is a
    # float32 midpoint (then the exact value says which way)
    if d >= _BIG32 or d <= -_BIG32:  # (beyond float32's midpoint below 2**128)
        return d * math.inf
    m, e = math.frexp(d)
    if e >= -125:  # (float32's normal range: 24 of the double's 53 bits)
        low = int(m * _TWO53) & 0x1FFFFFFF
        mid = low == _HALF32
    else:  # float32's subnormals: multiples of 2**-149
        q = d * 2.0**150
        mid = q == int(q) and int(q) & 1
    f32 = np.float32(d)
    f = float(f32)
    if mid:
        dn, dd = d.as_integer_ratio()
        side = num * dd - dn * den  # the exact value against the double's: > 0 above
        if side:  # the neighbour on the exact value's side of the midpoint
            if (f > d) != (side > 0):
                f = float(np.nextafter(f32, np.float32(math.inf if side > 0 else -math.inf)))
    return f


def _size(a, b, c):
    """The number of values of a fused step (its largest operand's, the others broadcast;
    a Python number has no size)."""
    n = 1
    for v in (a, b, c):
        if type(v) is np.ndarray and v.size > n:
            n = v.size
        elif type(v) is Split and type(v.value) is np.ndarray and v.value.size > n:
            n = v.value.size
    return n


def _fma32(a, b, c) -> np.ndarray:
    p = np.asarray(a * b)
    assert p.dtype == np.float64
    s = np.asarray(p + c)
    r = s.astype(np.float32)
    mid = (s.view(np.uint64) & _LOW29) == _HALF29
    if np.count_nonzero(mid):  # (cheaper than mid.any() on the small arrays of a loop)
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


def _operand(a):
    """(a, its high half, its low half) as float64 values for `fma`."""
    if isinstance(a, Split):
        return (a.value, *a.halves())
    if not _finite_float(a):
        a = np.asarray(a, dtype=np.float64)
    ah, al = _split(a)
    return a, ah, al


def _finite_float(a):
    """Whether a is a finite Python float: split in Python's arithmetic, IEEE double's
    as NumPy's (a nan or inf goes through NumPy, whose nan signs are kept)."""
    return type(a) is float and math.isfinite(a)


def fma(a, b, c, dtype=np.float64):
    """a * b + c, rounded once to `dtype` (float64 or float32); arrays broadcast.  An
    operand may be given as a `Split` (its halves computed once for several steps)."""
    v = _scalars(a, b, c)
    if v is not None:  # three finite numbers: the exact value, rounded once
        single = dtype == np.float32
        return np.array(one_rounding(*v, single), dtype=_F32 if single else _F64)
    # (after the numbers: `quick` declines them, an optimizer's steps on 0-d parameters)
    r = native.quick("fma32" if dtype == np.float32 else "fma64", a, b, c)
    if r is not None:
        return r
    if dtype == np.float32:
        if isinstance(a, Split):
            a = a.value
        if isinstance(b, Split):
            b = b.value
        return fma32(np.asarray(a, dtype=np.float64), b, c)
    n = _size(a, b, c)
    lib = native.ready(n)
    if lib:
        args = [v.value if type(v) is Split else v for v in (a, b, c)]
        r, flags = native.fused(lib, "fma64", *args)
        if flags is None:
            return r
        part = _fma64(*(np.broadcast_to(v, r.shape)[flags] for v in args))
        if not np.isnan(part).any():  # (a NaN's sign and payload follow NumPy's loops)
            r[flags] = part
            return r
    t0 = native.start(n)
    try:
        return _fma64(a, b, c)
    finally:
        native.spent(t0)


def _fma64(a, b, c):
    """fma() of doubles by Dekker's product and Knuth's sum, in NumPy."""
    c = np.asarray(c, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        a, ah, al = _operand(a)
        b, bh, bl = _operand(b)
        p = a * b
        # e = ((ah * bh - p) + ah * bl + al * bh) + al * bl and
        # r = s + (t + e), t = (c - (s - z)) + (p - z): the same operations in the same
        # order, into the arrays already made (each has its expression's whole shape)
        e = ah * bh
        into = e if isinstance(e, np.ndarray) else None
        e = np.subtract(e, p, out=into)
        e = np.add(e, ah * bl, out=into)
        e = np.add(e, al * bh, out=into)
        e = np.add(e, al * bl, out=into)
        s = c + p
        z = s - c
        t = c - (s - z)
        into = t if isinstance(t, np.ndarray) else None
        t = np.add(t, p - z, out=into)
        # the small terms' sum rounded to odd (Boldo and Melquiond's emulated FMA): a
        # rounded-to-nearest one can land on a midpoint of s's last bit that the exact
        # sum is beside (a product ending in half an ulp beside a tiny addend), and s +
        # it would then round to even where the exact value rounds away
        # (an infinite or NaN u makes r one too: s is returned below)
        u = np.asarray(t + e)
        v = u - t
        err = (t - (u - v)) + (e - v)
        bits = u.view(np.uint64)
        odd = (bits & np.uint64(1)) == 0
        odd &= err != 0
        if np.count_nonzero(odd):
            # one step of the bits towards err (u is not 0 where err is not): away from
            # 0 where they have one sign, else towards it
            away = (err > 0) != (u < 0)
            u = (bits + (odd & away) - (odd & ~away)).view(np.float64)
        r = np.add(s, u)
        # overflow: the plain result; an exact zero: the plain sum's, whose sign is IEEE's
        # (-0.0 only from -0.0 + -0.0) where the corrections' +0.0 would lose it
        if np.count_nonzero(np.isfinite(r)) == r.size and np.count_nonzero(r) == r.size:
            return np.asarray(r)
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
    s = s if isinstance(s, Split) else Split(s)
    s2 = Split(s.value * s.value)
    s4 = Split(s2.value * s2.value)
    s8 = s4.value * s4.value
    c9, c8, c7, c6, c5, c4, c3, c2, c1, c0 = c
    p8 = fma(s4, fma(s2, fma(s, c7, c6), fma(s, c5, c4)), fma(s2, fma(s, c3, c2), fma(s, c1, c0)))
    return fma(s8, fma(s, c9, c8), p8)
