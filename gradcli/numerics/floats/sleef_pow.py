"""float32 `x ** y` as PyTorch's vectorised CPU kernel computes it, to the last bit.

For a floating tensor raised to a number other than the few it multiplies out
(gradcli/numerics/floats/powers.py), PyTorch's `pow` kernel (ATen/native/cpu/PowKernel.cpp,
`cpu_kernel_vec`) evaluates whole blocks of 16 values (two 8-float AVX2 vectors)
with SLEEF's `Sleef_powf8_u10` (the exponent rounded to float) and the values
left after the last whole block one at a time with the C library's double `pow`
(the exponent as a double), rounded to float; a tensor of more than 32,768 values
is first cut into one range per thread (gradcli/numerics/parallel.py), each with its
own left-over values.  SLEEF's pow is accurate to 1 ulp, not correctly rounded:
on the tutorial's `linspace(-pi, pi, 2000) ** 4` it differs from the correctly
rounded value on 38 of 2,000 values.

This module computes SLEEF's algorithm (Shibata, "Efficient evaluation methods of
elementary functions suitable for SIMD computation", and SLEEF's documentation of
`powf_u10`), one float32 operation of NumPy for each of the vector kernel's, with
the fused multiply-adds of the AVX2 build rounded once (`fma.fma32`):
pow(x, y) = exp(y * log|x|), with log|x| and the product carried in
"double-float" (an unevaluated sum of two floats, about 48 bits), then IEEE's
special cases (zeros, infinities, nan, negative bases with integer exponents).
Checked against torch 2.13 bit for bit (tests/golden/numerics.json "sleef_pows").
"""

from __future__ import annotations

import numpy as np

from .fma import fma32
from ..parallel import chunks
from .tensor_iter import VEC_BLOCK

F = np.float32
_I = np.int32
_ALL_ONES = np.array(-1, dtype=_I).view(F)  # the NaN whose 32 bits are all set
BLOCK = VEC_BLOCK[np.float32]  # 2 x 8 floats: vectorized_loop's step


def _fma(a, b, c):
    return fma32(np.asarray(a, dtype=np.float64), b, c)


# ------------------------------------------------------- double-float arithmetic


def _add2_ff(x, y):
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


def _add2_dff(xx, xy, y):
    s = xx + y
    v = s - xx
    return s, ((xx - (s - v)) + (y - v)) + xy


def _add2_dd(xx, xy, yx, yy):
    s = xx + yx
    v = s - xx
    return s, ((xx - (s - v)) + (yx - v)) + (xy + yy)


def _add_dd(xx, xy, yx, yy):
    s = xx + yx
    return s, (((xx - s) + yx) + xy) + yy


def _add_fd(x, yx, yy):
    s = x + yx
    return s, ((x - s) + yx) + yy


def _mul_df(xx, xy, y):
    s = xx * y
    return s, _fma(xy, y, _fma(xx, y, -s))


def _mul_dd(xx, xy, yx, yy):
    s = xx * yx
    return s, _fma(xx, yy, _fma(xy, yx, _fma(xx, yx, -s)))


def _squ(xx, xy):
    s = xx * xx
    return s, _fma(xx + xx, xy, _fma(xx, xx, -s))


def _div_dd(nx, ny, dx, dy):
    t = F(1) / dx
    s = nx * t
    u = _fma(t, nx, -s)
    v = _fma(-dy, t, _fma(-dx, t, F(1)))
    return s, _fma(s, v, _fma(ny, t, u))


def _bits(x):
    return x.view(_I)


def _from_bits(i):
    return np.asarray(i, dtype=_I).view(F)


# ------------------------------------------------------------ log and exp

_FLT_MIN = F(1.17549435e-38)
_TWO64 = F(18446744073709551616.0)
_R75 = F(1.0) / F(0.75)
_LN2 = (F(0.69314718246459960938), F(-1.904654323148236017e-09))
_C = (F(0.66666662693023681640625), F(3.69183861259614332084311e-09))


def _logk_split(d):
    """(e, m): d = m * 2^e with m in [0.75, 1.5) (subnormals scaled first)."""
    o = d < _FLT_MIN
    d = np.where(o, d * _TWO64, d)
    e = ((_bits(d * _R75) >> 23) & 0xFF) - 0x7F
    m = _from_bits(_bits(d) + (-e << 23))
    return np.where(o, e - 64, e), m


def _logk(d):
    """log(d) for d >= 0 as a double-float (hi, lo)."""
    e, m = _logk_split(d)
    xx, xy = _div_dd(*_add2_ff(F(-1), m), *_add2_ff(F(1), m))
    x2x, x2y = _squ(xx, xy)
    t = _fma(
        _fma(F(0.240320354700088500976562), x2x, F(0.285112679004669189453125)),
        x2x,
        F(0.400007992982864379882812),
    )
    sx, sy = _mul_df(_LN2[0], _LN2[1], e.astype(F))
    sx, sy = _add_dd(sx, sy, xx * F(2), xy * F(2))
    px, py = _mul_dd(x2x, x2y, xx, xy)
    qx, qy = _add2_dd(*_mul_df(x2x, x2y, t), _C[0], _C[1])
    return _add_dd(sx, sy, *_mul_dd(px, py, qx, qy))


_R_LN2 = F(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2U, _L2L = F(0.693145751953125), F(1.428606765330187045e-06)
_EXPC = [
    F(0.00136324646882712841033936),
    F(0.00836596917361021041870117),
    F(0.0416710823774337768554688),
    F(0.166665524244308471679688),
    F(0.499999850988388061523438),
]


def _ldexp(x, q):
    """x * 2^q as SLEEF's vldexp computes it (in up to five products)."""
    m = q >> 31
    m = (((m + q) >> 6) - m) << 4
    q = q - (m << 2)
    m = m + 0x7F
    m = np.where(m > 0, m, 0)
    m = np.where(m > 0xFF, 0xFF, m)
    u = _from_bits(m << 23)
    x = x * u * u * u * u
    return x * _from_bits((q + 0x7F) << 23)


def _expk(dx, dy):
    """exp(dx + dy) to one float."""
    with np.errstate(invalid="ignore", over="ignore"):
        u = (dx + dy) * _R_LN2
        q = np.rint(u)
        q = np.where(np.abs(q) < 2**31, q, -(2**31)).astype(_I)  # cvtps: out of range -> INT_MIN
    fq = q.astype(F)
    sx, sy = _add2_dff(dx, dy, fq * -_L2U)
    sx, sy = _add2_dff(sx, sy, fq * -_L2L)
    s = sx + sy  # normalise
    sx, sy = s, (sx - s) + sy
    u = _EXPC[0]
    for c in _EXPC[1:]:
        u = _fma(u, sx, c)
    tx, ty = _add_dd(sx, sy, *_mul_df(*_squ(sx, sy), u))
    tx, ty = _add_fd(F(1), tx, ty)
    r = _ldexp(tx + ty, q)
    return np.where(dx < F(-104), F(0), r)


def sleef_powf(x, y):
    """Sleef_powf8_u10 of float32 arrays x and y (broadcast together)."""
    x, y = np.broadcast_arrays(np.asarray(x, F), np.asarray(y, F))
    with np.errstate(all="ignore"):
        ay = np.abs(y)
        yisint = (np.trunc(y) == y) | (ay > F(1 << 24))
        ti = np.where(ay < F(1 << 24), np.trunc(y), 0).astype(_I)
        yisodd = ((ti & 1) == 1) & yisint & (ay < F(1 << 24))
        lx, ly = _logk(np.abs(x))
        r = _expk(*_mul_df(lx, ly, y))
        r = np.where(np.isnan(r), F(np.inf), r)
        sign = np.where(x > 0, F(1), np.where(yisint, np.where(yisodd, F(-1), F(1)), F(np.nan)))
        r = r * sign
        efx = np.abs(x) - F(1)
        efx = np.where(np.signbit(y), -efx, efx)
        r = np.where(np.isinf(y), np.where(efx < 0, F(0), np.where(efx == 0, F(1), F(np.inf))), r)
        zx = x == 0
        lim = np.where(np.where(zx, -y, y) < 0, F(0), F(np.inf))
        r = np.where(np.isinf(x) | zx, np.where(yisodd, np.copysign(F(1), x), F(1)) * lim, r)
        r = np.where(np.isnan(x) | np.isnan(y), _ALL_ONES, r)  # SLEEF ors in all bits
        r = np.where((y == 0) | (x == 1), F(1), r)
    return r.astype(F, copy=False)


_CACHE: list = []  # [(the input's bytes, exponent, result)], the most recent first
_CACHE_SIZE = 4


def _cached(key, ef):
    """The result for an input seen lately (a training loop raises the same data to the
    same powers every step); `key`, the input's bytes, compared bit for bit, nan
    included."""
    for i, (x, e, out) in enumerate(_CACHE):
        if e == ef and x == key:
            if i:
                _CACHE.insert(0, _CACHE.pop(i))
            return out.copy()
    return None


def torch_powf(a, e):
    """PyTorch's float32 `a ** e` (a an array, e a number) by blocks, as its kernel:
    SLEEF on whole blocks of 16, the C library's double pow (NumPy's float64
    power) on the rest of each thread's range."""
    flat = np.ascontiguousarray(a).reshape(-1)
    ef = F(e)
    big = BLOCK <= flat.size <= 1 << 16  # worth remembering, and small enough to keep
    if big:
        key = flat.tobytes()
        hit = _cached(key, (ef, float(e)))
        if hit is not None:
            return hit.reshape(np.shape(a))
    out = np.empty_like(flat)
    for b, end in chunks(flat.size):
        k = b + (end - b) // BLOCK * BLOCK
        if k > b:
            out[b:k] = sleef_powf(flat[b:k], ef)
        if end > k:  # std::pow(float, double): in double, then rounded
            out[k:end] = np.power(flat[k:end].astype(np.float64), float(e))
    if big:
        _CACHE.insert(0, (key, (ef, float(e)), out.copy()))
        del _CACHE[_CACHE_SIZE:]
    return out.reshape(np.shape(a))
