"""`log1p`, `expm1`, `sinh` and `cosh` as PyTorch's CPU kernels compute them, to the
last bit: its `Vectorized<float>`/`Vectorized<double>` call SLEEF's 1-ulp functions
(`Sleef_log1pf8_u10`, `Sleef_expm1d4_u10`, `Sleef_sinhf8_u10`, ... of the AVX2
build, whose multiply-adds are fused).  `torch.log1p`/`torch.expm1` run them over the
whole tensor (ATen's vml `map`, the last partial vector padded), so every value is
SLEEF's; `torch.sinh`/`torch.cosh` run them on whole blocks of two vectors and the C
library's `sinh`/`cosh` on the values after the last block of each thread's range
(`torch_exp.kernel`; NumPy's sinh/cosh are glibc's).

Re-implemented in NumPy from SLEEF's published algorithms (Shibata's papers and
SLEEF's documentation), one NumPy operation for each vector instruction:
log1p(d): e = the exponent of (1 + d) * 4/3, m = d * 2^-e + (2^-e - 1) fused,
x = m / (2 + m) in double-float (double-double for float64), log1p = e*ln2 + 2x +
x^3 * p(x^2) (p of degree 2 by Horner for float32, 6 by Estrin for float64).
expm1, sinh, cosh: exp(d) as a double-float (`_expk2`: q = rint(d / ln 2), s = d -
q*ln2 in two double-float steps, a polynomial in s by fused steps, finished in
double-float arithmetic, scaled by 2^q in two products), then expm1 = exp - 1,
sinh = (e - 1/e) / 2, cosh = (e + 1/e) / 2 in double-float, and SLEEF's special
cases (their NaN results carry SLEEF's bit patterns: all bits set where it ORs a
mask in).  Checked bit for bit against torch 2.13 (tests/golden/exact_numerics.json).
"""

from __future__ import annotations

import numpy as np

from .. import native
from .fma import Split, fma, fma32

F, D = np.float32, np.float64
_I32, _U32, _I64 = np.int32, np.uint32, np.int64


def _fm(a, b, c):
    """a * b + c rounded once, in a's dtype (the vector FMA)."""
    if isinstance(a, Split):
        return fma(a, b, c)
    a = np.asarray(a)
    if a.dtype == F:
        return fma32(a.astype(D), b.value if isinstance(b, Split) else b, c)
    return fma(a, b, c)


# ------------------------------------------------ double-float (double-double) steps
# (hi, lo) pairs; the same code serves float32 and float64, as SLEEF's df.h / dd.h.


def _add_ff(x, y):  # dfadd_vf2_vf_vf
    s = x + y
    return s, (x - s) + y


def _add2_ff(x, y):  # dfadd2_vf2_vf_vf
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


def _add_pf(xx, xy, y):  # dfadd_vf2_vf2_vf
    s = xx + y
    return s, ((xx - s) + y) + xy


def _add2_pf(xx, xy, y):  # dfadd2_vf2_vf2_vf
    s = xx + y
    v = s - xx
    return s, ((xx - (s - v)) + (y - v)) + xy


def _add_fp(x, yx, yy):  # dfadd_vf2_vf_vf2
    s = x + yx
    return s, ((x - s) + yx) + yy


def _add_pp(xx, xy, yx, yy):  # dfadd_vf2_vf2_vf2 (|x| >= |y|)
    s = xx + yx
    return s, (((xx - s) + yx) + xy) + yy


def _add2_pp(xx, xy, yx, yy):  # dfadd2_vf2_vf2_vf2
    s = xx + yx
    v = s - xx
    return s, ((xx - (s - v)) + (yx - v)) + (xy + yy)


def _sub_pp(xx, xy, yx, yy):  # dfsub_vf2_vf2_vf2
    s = xx - yx
    return s, (((xx - s) - yx) + xy) - yy


def _shared(x):
    """x for several fused steps: a float64 array split once (fma.Split), else x."""
    return Split(x) if isinstance(x, np.ndarray) and x.dtype == D else x


def _mul_pf(xx, xy, y):  # dfmul_vf2_vf2_vf
    s = xx * y
    y = _shared(y)
    return s, _fm(xy, y, _fm(xx, y, -s))


def _mul_pp(xx, xy, yx, yy):  # dfmul_vf2_vf2_vf2
    s = xx * yx
    xx, yx = _shared(xx), _shared(yx)
    return s, _fm(xx, yy, _fm(xy, yx, _fm(xx, yx, -s)))


def _squ(xx, xy):  # dfsqu_vf2_vf2
    s = xx * xx
    return s, _fm(xx + xx, xy, _fm(xx, xx, -s))


def _rec(dx, dy):  # dfrec_vf2_vf2
    one = dx.dtype.type(1)
    q = one / dx
    qs = _shared(q)
    return q, q * _fm(-dy, qs, _fm(-dx, qs, one))


def _div(nx, ny, dx, dy):  # dfdiv_vf2_vf2_vf2
    one = dx.dtype.type(1)
    t = one / dx
    q = nx * t
    ts = _shared(t)
    u = _fm(ts, nx, -q)
    r = _fm(-dy, ts, _fm(-dx, ts, one))
    return q, _fm(q, r, _fm(ny, ts, u))


# ------------------------------------------------------------- bits and scaling

_LAY = {F: (_I32, 23, 0x7F, 0xFF), D: (_I64, 52, 0x3FF, 0x7FF)}


def _pow2i(q, t):
    """2^q from its exponent bits, (q + bias) << mantissa bits in 32-bit integers
    (wrapping, as the vector instruction), for float32 (t=F) or float64."""
    q = q.astype(_I32)
    if t is F:
        return ((q + _I32(0x7F)) << 23).view(F)
    hi = (q + _I32(0x3FF)) << 20
    return (hi.astype(_U32).astype(np.uint64) << np.uint64(32)).view(D)


def _ldexp2(x, q):
    """x * 2^q in two products (SLEEF's vldexp2)."""
    h = q >> 1
    return x * _pow2i(h, x.dtype.type) * _pow2i(q - h, x.dtype.type)


def _rint_i32(u):
    """cvtps2dq / cvtpd2dq: to the nearest int32, nan and out of range -> INT_MIN."""
    with np.errstate(invalid="ignore"):
        r = np.rint(u)
        return np.where(np.abs(r) < 2**31, r, -(2**31)).astype(_I32)


def _ilogb2k(d):
    """The biased exponent field of d, less the bias (SLEEF's vilogb2k)."""
    ti, mb, bias, mask = _LAY[d.dtype.type]
    return (((d.view(ti) >> mb) & mask) - bias).astype(_I32)


def _ldexp3_one(e, t):
    """1.0 * 2^-e by adding -e to the exponent bits (SLEEF's vldexp3)."""
    if t is F:
        return (np.asarray(1.0, F).view(_I32) + (-e << 23)).view(F)
    hi = ((-e) << 20).astype(_U32).astype(np.uint64) << np.uint64(32)
    return (np.asarray(1.0, D).view(np.uint64) + hi).view(D)


def _all_ones(r, mask):
    """r with every bit set where mask (SLEEF's `vor` of a comparison mask)."""
    ti = _I32 if r.dtype == F else _I64
    return np.where(mask, np.asarray(-1, ti).view(r.dtype), r)


def _negzero(d):
    return (d == 0) & np.signbit(d)


# ------------------------------------------------------------------------ constants

_C = {
    F: {
        "ln2": (F(0.69314718246459960938), F(-1.904654323148236017e-09)),
        "rln2": F(1.442695040888963407359924681001892137426645954152985934135449406931),
        "l2u": F(0.693145751953125),
        "l2l": F(1.428606765330187045e-06),
        "tiny": F(1.17549435e-38),
        "big": F(18446744073709551616.0),
        "r75": F(1.0) / F(0.75),
        "log1p": [F(0.3027294874), F(0.3996108174), F(0.6666694880)],
        "exp": [F(0.1980960224e-3), F(0.1394256484e-2), F(0.8333456703e-2), F(0.4166637361e-1)],
        "c1": F(0.166666659414234244790680580464),
        "under": F(-104),
        "expm1": (F(88.72283172607421875), F(-16.635532333438687426013570)),
        "hyp": F(89),
        "bound": F(1e38),
    },
    D: {
        "ln2": (0.693147180559945286226764, 2.319046813846299558417771e-17),
        "rln2": 1.442695040888963407359924681001892137426645954152985934135449406931,
        "l2u": 0.69314718055966295651160180568695068359375,
        "l2l": 0.28235290563031577122588448175013436025525412068e-12,
        "tiny": 2.2250738585072014e-308,
        "big": 18446744073709551616.0,
        "r75": 1.0 / 0.75,
        # c6 .. c0 of log1p's polynomial, c9 .. c0 of exp's (Estrin's scheme)
        "log1p": [
            0.1532076988502701353e0,
            0.1525629051003428716e0,
            0.1818605932937785996e0,
            0.2222214519839380009e0,
            0.2857142932794299317e0,
            0.3999999999635251990e0,
            0.6666666666667333541e0,
        ],
        "exp": [
            0.1602472219709932072e-9,
            0.2092255183563157007e-8,
            0.2505230023782644465e-7,
            0.2755724800902135303e-6,
            0.2755731892386044373e-5,
            0.2480158735605815065e-4,
            0.1984126984148071858e-3,
            0.1388888888886763255e-2,
            0.8333333333333347095e-2,
            0.4166666666666669905e-1,
        ],
        "c1": 0.1666666666666666574e0,
        "under": -1000.0,
        "expm1": (709.782712893383996732223, -36.736800569677101399113302437),
        "hyp": 710.0,
        "bound": 1e307,
    },
}


def _poly4(x, x2, c3, c2, c1, c0):
    return _fm(x2, _fm(x, c3, c2), _fm(x, c1, c0))


# ------------------------------------------------------------------------- kernels


def _expk2(d):
    """exp(d) as a double-float (SLEEF's expk2f / expk2 with a zero low part)."""
    t = d.dtype.type
    c = _C[t]
    u = d * c["rln2"]
    if t is F:
        q = _rint_i32(u)
        fq = q.astype(t)
    else:  # the rounded double, and it converted to int32
        fq = np.rint(u)
        q = _rint_i32(fq)
    sx, sy = _add2_ff(d, fq * -c["l2u"])
    sx, sy = _add2_pf(sx, sy, fq * -c["l2l"])
    if t is F:
        p = c["exp"]
        u = _fm(_fm(_fm(p[0], sx, p[1]), sx, p[2]), sx, p[3])
        tx, ty = _add2_pf(*_mul_pf(sx, sy, u), c["c1"])
        tx, ty = _add2_pf(*_mul_pp(sx, sy, tx, ty), F(0.5))
        tx, ty = _add2_pp(sx, sy, *_mul_pp(*_squ(sx, sy), tx, ty))
        tx, ty = _add_fp(F(1), tx, ty)
    else:
        s2x, s2y = _squ(sx, sy)
        s4x, s4y = _squ(s2x, s2y)
        s8 = s4x * s4x
        p = c["exp"]
        u = _fm(
            s8, _fm(sx, p[0], p[1]), _fm(s4x, _poly4(sx, s2x, *p[2:6]), _poly4(sx, s2x, *p[6:10]))
        )
        tx, ty = _add_fp(0.5, *_mul_pf(sx, sy, c["c1"]))
        tx, ty = _add_fp(1.0, *_mul_pp(tx, ty, sx, sy))
        tx, ty = _add_fp(1.0, *_mul_pp(tx, ty, sx, sy))
        tx, ty = _add_pp(tx, ty, *_mul_pf(s4x, s4y, u))
    tx, ty = _ldexp2(tx, q), _ldexp2(ty, q)
    low = d < c["under"]
    return np.where(low, t(0), tx), np.where(low, t(0), ty)


def sleef_expm1(a):
    """Sleef_expm1f8_u10 / Sleef_expm1d4_u10 of a float32 or float64 array."""
    a = np.asarray(a)
    t = a.dtype.type
    hi, lo = _C[t]["expm1"]
    with np.errstate(all="ignore"):
        dx, dy = _add2_pf(*_expk2(a), t(-1))
        x = dx + dy
        x = np.where(a > hi, t(np.inf), x)
        x = np.where(a < lo, t(-1), x)
        x = np.where(_negzero(a), t(-0.0), x)
    return x.astype(t, copy=False)


def _log_tail(d, e, xx, xy):
    """e*ln2 + 2x + x^3 p(x^2): the end of SLEEF's log1p and log_u1."""
    t = d.dtype.type
    c = _C[t]
    sx, sy = _mul_pf(*c["ln2"], e.astype(t))
    x2 = xx * xx
    p = c["log1p"]
    if t is F:
        u = _fm(_fm(p[0], x2, p[1]), x2, p[2])
    else:
        x4 = x2 * x2
        x8 = x4 * x4
        y2, y4 = Split(x2), Split(x4)  # (each in several fused steps)
        u = _fm(x8, _fm(y4, p[0], _fm(y2, p[1], p[2])), _poly4(y2, y4, *p[3:]))
    sx, sy = _add_pp(sx, sy, xx * t(2), xy * t(2))
    sx, sy = _add_pf(sx, sy, (x2 * xx) * u)
    return sx + sy


def _log_u1(d):
    """SLEEF's 1-ulp log (Sleef_logf8_u10 / Sleef_logd4_u10)."""
    t = d.dtype.type
    c = _C[t]
    o = d < c["tiny"]
    d = np.where(o, d * c["big"], d)
    e = _ilogb2k(d * c["r75"])
    ti, mb = _LAY[t][:2]
    m = (d.view(ti) - (e.astype(ti) << mb)).view(t)  # vldexp3(d, -e)
    e = np.where(o, e - 64, e)
    xx, xy = _div(*_add2_ff(t(-1), m), *_add2_ff(t(1), m))
    r = _log_tail(d, e, xx, xy)
    r = np.where(np.isposinf(d), t(np.inf), r)
    r = np.where((d < 0) | np.isnan(d), t(np.nan), r)
    return np.where(d == 0, t(-np.inf), r)


def sleef_log1p(d):
    """Sleef_log1pf8_u10 / Sleef_log1pd4_u10 of a float32 or float64 array
    (numerics/native.py's compiled kernel, the same bits, once it pays)."""
    d = np.asarray(d)
    if d.dtype != D and d.dtype != F:
        return _log1p(d)
    lib = native.ready(d.size)
    if lib and d.flags.c_contiguous:
        out = native.unary(lib, "log1pd" if d.dtype == D else "log1pf", d, _log1p)
        if out is not None:
            return out
    t0 = native.start(d.size)
    try:
        return _log1p(d)
    finally:
        native.spent(t0)


def _log1p(d):
    t = d.dtype.type
    c = _C[t]
    one = t(1)
    with np.errstate(all="ignore"):
        dp1 = d + one
        o = dp1 < c["tiny"]
        dp1 = np.where(o, dp1 * c["big"], dp1)
        e = _ilogb2k(dp1 * c["r75"])
        s = _ldexp3_one(e, t)
        m = _fm(d, s, s - one)
        e = np.where(o, e - 64, e)
        xx, xy = _div(m, np.zeros_like(m), *_add_ff(t(2), m))
        r = _log_tail(d, e, xx, xy)
        far = ~(d <= c["bound"])  # beyond the core approximation (and nan): log(d)
        if far.any():
            r = np.array(r)  # a 0-d input's r is a NumPy scalar, which takes no item
            r[far] = _log_u1(d[far])
        if t is F:
            r = _all_ones(r, t(-1) > d)
        else:
            r = np.where((d < -1) | np.isnan(d), t(np.nan), r)
        r = np.where(d == -one, t(-np.inf), r)
        r = np.where(_negzero(d), t(-0.0), r)
    return r.astype(t, copy=False)


def _hyperbolic(x, sign):
    t = x.dtype.type
    with np.errstate(all="ignore"):
        y = np.abs(x)
        dx, dy = _expk2(y)
        rx, ry = _rec(dx, dy)
        dx, dy = _sub_pp(dx, dy, rx, ry) if sign else _add_pp(dx, dy, rx, ry)
        y = (dx + dy) * t(0.5)
        y = np.where((np.abs(x) > _C[t]["hyp"]) | np.isnan(y), t(np.inf), y)
        if sign:
            y = np.where(np.signbit(x), -y, y)  # vmulsign: x's sign bit xored in
        y = _all_ones(y, np.isnan(x))
    return y.astype(t, copy=False)


def sleef_sinh(x):
    """Sleef_sinhf8_u10 / Sleef_sinhd4_u10 of a float32 or float64 array."""
    return _hyperbolic(np.asarray(x), True)


def sleef_cosh(x):
    """Sleef_coshf8_u10 / Sleef_coshd4_u10 of a float32 or float64 array."""
    return _hyperbolic(np.asarray(x), False)


def _log_d(d):
    """_log_u1 of float64 values (native.unary's emulation of the flagged ones)."""
    with np.errstate(all="ignore"):
        return _log_u1(d).astype(D, copy=False)


def sleef_log(d):
    """Sleef_logf8_u10 / Sleef_logd4_u10 of a float32 or float64 array (what
    `Vectorized<T>::log()` calls, e.g. in log_softmax)."""
    d = np.asarray(d)
    if d.dtype == D:  # (numerics/native.py's compiled kernel, the same bits, once it pays)
        lib = native.ready(d.size)
        if lib and d.flags.c_contiguous:
            out = native.unary(lib, "logd", d, _log_d)
            if out is not None:
                return out
        t0 = native.start(d.size)
    else:
        t0 = None
    try:
        with np.errstate(all="ignore"):
            return _log_u1(d).astype(d.dtype, copy=False)
    finally:
        native.spent(t0)
