"""float64 `x ** y` as PyTorch's vectorised CPU kernel computes it, to the last bit.

For a float64 tensor raised to a number it does not multiply out (numerics/floats/powers.py) and
for `tensor ** tensor`, PyTorch's pow kernel (`cpu_kernel_vec`) evaluates whole blocks
of 8 values (two 4-double AVX2 vectors) with SLEEF's `Sleef_powd4_u10` and the values
after the last whole block of each thread's range with the C library's `pow` (NumPy's
float64 power).  SLEEF's pow is accurate to 1 ulp, not correctly rounded, so the two
differ in the last bit on some values (`x ** 1.5` on 2,000 values of linspace(0.1, 10):
on dozens).

SLEEF's algorithm (Shibata's papers; SLEEF's `xpow`, `logk` and `expk` of its AVX2
double build, whose multiply-adds are fused), one NumPy operation for each vector
instruction, on the double-double steps of numerics/floats/sleef_u10.py: log|x| as a
double-double (x reduced to m in [0.75, 1.5) times 2^e, then 2 atanh((m-1)/(m+1)) by
a degree-8 polynomial in Estrin's order with the first terms in double-double), times
y in double-double, then exp of that (a degree-9 polynomial of the reduced argument,
finished in double-double, scaled by 2^q in two products), then IEEE's special cases
(zeros, infinities, NaN, negative bases with integer exponents).  Checked against
torch 2.13 bit for bit (tests/golden/pow64.json).
"""

from __future__ import annotations

import numpy as np

from .. import native
from ..parallel import chunks
from .fma import estrin10
from .sleef_pow_poly import EXP as _EXP
from .sleef_pow_poly import LOG as _LOG
from .sleef_pow_poly import LOG_C as _LOG_C
from .sleef_pow_poly import OVER as _OVER
from .tensor_iter import sleef_blocks
from .sleef_u10 import (
    _C,
    _I32,
    _U32,
    D,
    _add2_ff,
    _add2_pf,
    _add_fp,
    _add_pp,
    _all_ones,
    _div,
    _fm,
    _ilogb2k,
    _ldexp2,
    _mul_pf,
    _mul_pp,
    _rint_i32,
    _squ,
)

_LN2, _R_LN2, _L2U, _L2L = _C[D]["ln2"], _C[D]["rln2"], _C[D]["l2u"], _C[D]["l2l"]
_DBL_MIN = 2.2250738585072014e-308
_TWO64 = 18446744073709551616.0


def _ldexp3(d, q):
    """d * 2^q by adding q to the exponent bits (SLEEF's vldexp3: q << 20 in 32 bits,
    added to the upper half of each double's bits)."""
    hi = (q.astype(_I32) << 20).astype(_U32).astype(np.uint64) << np.uint64(32)
    return (d.view(np.uint64) + hi).view(D)


def _poly9(x, x2, x4, x8, c):
    """SLEEF's POLY9(x, x2, x4, x8, c8 .. c0): fused multiply-adds in Estrin's order."""
    c8, c7, c6, c5, c4, c3, c2, c1, c0 = c
    p8 = _fm(x4, _fm(x2, _fm(x, c7, c6), _fm(x, c5, c4)), _fm(x2, _fm(x, c3, c2), _fm(x, c1, c0)))
    return _fm(x8, c8, p8)


def _logk(d):
    """log(d) for d >= 0 as a double-double (SLEEF's logk)."""
    o = d < _DBL_MIN
    d = np.where(o, d * _TWO64, d)
    e = _ilogb2k(d * (1.0 / 0.75))
    m = _ldexp3(d, -e)
    e = np.where(o, e - 64, e)
    xx, xy = _div(*_add2_ff(-1.0, m), *_add2_ff(1.0, m))
    x2x, x2y = _squ(xx, xy)
    x4 = x2x * x2x
    x8 = x4 * x4
    t = _poly9(x2x, x4, x8, x8 * x8, _LOG)
    sx, sy = _mul_pf(_LN2[0], _LN2[1], e.astype(D))
    sx, sy = _add_pp(sx, sy, xx * 2.0, xy * 2.0)
    xx, xy = _mul_pp(x2x, x2y, xx, xy)
    sx, sy = _add_pp(sx, sy, *_mul_pp(xx, xy, *_LOG_C))
    xx, xy = _mul_pp(x2x, x2y, xx, xy)
    return _add_pp(sx, sy, *_mul_pf(xx, xy, t))


def _expk(dx, dy):
    """exp(dx + dy) to one double (SLEEF's expk)."""
    dq = np.rint((dx + dy) * _R_LN2)
    q = _rint_i32(dq)
    sx, sy = _add2_pf(dx, dy, dq * -_L2U)
    sx, sy = _add2_pf(sx, sy, dq * -_L2L)
    s = sx + sy  # ddnormalize
    sx, sy = s, (sx - s) + sy
    u = estrin10(sx, _EXP)
    tx, ty = _add_fp(1.0, sx, sy)
    tx, ty = _add_pp(tx, ty, *_mul_pf(*_squ(sx, sy), u))
    r = _ldexp2(tx + ty, q)
    return np.where(dx < -1000, 0.0, r)


#: values per call of `_powd` (its ~700 NumPy operations stay in the cache: about 2.7x
#: faster than on all of a million values at once)
BLOCK = 8192


def sleef_powd(x, y):
    """Sleef_powd4_u10 of float64 arrays x and y (broadcast together), element-wise:
    numerics/native.py's compiled kernel (the same bits) once it pays, else NumPy's
    emulation."""
    x, y = np.broadcast_arrays(np.asarray(x, D), np.asarray(y, D))
    lib = native.ready(x.size)
    if lib:
        x, y = np.ascontiguousarray(x), np.ascontiguousarray(y)
        return native.binary(lib, "powd", x, y, _powd)
    t0 = native.start(x.size)
    try:
        return _blocks(x, y)
    finally:
        native.spent(t0)


def torch_powd(a, e):
    """PyTorch's float64 `a ** e` (a an array, e a number) as its kernel runs it: SLEEF
    on the whole blocks of 8 of each thread's range, the C library's pow (NumPy's) on the
    rest; a result of the last few kept for the same bits and exponent (a training loop
    raises the same data to the same powers every step, as sleef_pow.torch_powf keeps)."""
    if not a.flags.c_contiguous:
        return sleef_blocks(sleef_powd, np.power, (a, D(e)))
    flat = a.reshape(-1)
    ef = D(e)
    kept = 8 <= flat.size <= 1 << 16  # worth remembering, and small enough to keep
    if kept:
        key = flat.tobytes()
        hit = _cached(key, ef)
        if hit is not None:
            return hit.reshape(a.shape)
    out = np.empty_like(flat)
    with np.errstate(all="ignore"):
        for b, end in chunks(flat.size):
            k = b + (end - b) // 8 * 8
            if k > b:
                out[b:k] = sleef_powd(flat[b:k], np.full(k - b, ef))
            if end > k:
                out[k:end] = np.power(flat[k:end], ef)
    if kept:
        _CACHE.insert(0, (key, ef.view(np.uint64), out.copy()))
        del _CACHE[_CACHE_SIZE:]
    return out.reshape(a.shape)


_CACHE: list = []  # [(the input's bytes, the exponent's bits, the result)], the most recent first
_CACHE_SIZE = 4


def _cached(key, ef):
    """A copy of the result for an input seen lately (`key`: its bytes, compared bit for
    bit, NaN and -0.0 included), else None."""
    eb = ef.view(np.uint64)
    for i, (x, e, out) in enumerate(_CACHE):
        if e == eb and x == key:
            if i:
                _CACHE.insert(0, _CACHE.pop(i))
            return out.copy()
    return None


def _blocks(x, y):
    if x.size <= BLOCK:
        return _powd(x, y)
    xf, yf = x.reshape(-1), y.reshape(-1)
    out = np.empty(xf.size, D)
    for i in range(0, xf.size, BLOCK):
        out[i : i + BLOCK] = _powd(xf[i : i + BLOCK], yf[i : i + BLOCK])
    return out.reshape(x.shape)


def _powd(x, y):
    with np.errstate(all="ignore"):
        yisint = np.rint(y) == y
        half = y * 0.5
        yisodd = (np.rint(half) != half) & yisint
        dx, dy = _mul_pf(*_logk(np.abs(x)), y)
        r = _expk(dx, dy)
        r = np.where(dx > _OVER, np.inf, r)
        r = r * np.where(x > 0, 1.0, np.where(yisint, np.where(yisodd, -1.0, 1.0), np.nan))
        efx = np.abs(x) - 1.0
        efx = np.where(np.signbit(y), -efx, efx)
        r = np.where(np.isinf(y), np.where(efx < 0, 0.0, np.where(efx == 0, 1.0, np.inf)), r)
        zx = x == 0
        lim = np.where(np.signbit(y) != zx, 0.0, np.inf)
        lim = np.where(np.signbit(np.where(yisodd, x, 1.0)), -lim, lim)
        r = np.where(np.isinf(x) | zx, lim, r)
        r = _all_ones(r, np.isnan(x) | np.isnan(y))  # SLEEF ors in every bit
        r = np.where((y == 0) | (x == 1), 1.0, r)
    return r
