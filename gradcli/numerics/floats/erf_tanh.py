"""`erf` and `tanh` as PyTorch's GELU kernels call them, to the last bit (float32 and
float64):

* the vector code (`Vectorized<T>::erf()`, `tanh()`, AVX2 build): float32 erf is
  ATen's own, Abramowitz and Stegun's 7.1.26 with fused steps and ATen's fast exp_u20
  (t = 1 / (0.3275911 |x| + 1), 1 - p(t) t exp(-x^2), x's sign put back); float64 erf
  is `Sleef_erfd4_u10`, tanh `Sleef_tanhf8_u10` / `Sleef_tanhd4_u10`;
* the scalar code (the values after the last whole block of a run): the C library's
  (glibc's) `erff`, `erf`, `tanhf`, `tanh`.  glibc's erff and tanhf are Sun's fdlibm
  algorithms in float arithmetic (erff: rational approximations on [0, 0.84375),
  [0.84375, 1.25), [1.25, 1/0.35), [1/0.35, 6), and 1 beyond; tanhf from expm1f),
  computed here in NumPy from those published algorithms; the double erf and tanh are
  Python's `math.erf`/`math.tanh` (CPython calls the C library's).

SLEEF's functions are re-implemented in NumPy from SLEEF's published algorithms, in its
double-float steps (numerics/floats/sleef_u10.py): erf_u1: |x| <= 2.5: 1 / (1 + x p(x))^16
with p a degree-21 polynomial (Estrin's scheme) finished in double-double; beyond: exp
of a polynomial in double-double; tanh: e = exp(|x|) in double-float, (e - 1/e) / (e + 1/e).
"""

from __future__ import annotations

import math

import numpy as np

from .sleef_u10 import (
    _C,
    _add2_pf,
    _add2_pp,
    _add_fp,
    _add_pp,
    _all_ones,
    _div,
    _expk2,
    _fm,
    _ldexp2,
    _mul_pf,
    _poly4,
    _rec,
    _rint_i32,
    _squ,
)
from .fma import fma32
from .torch_exp import libm_expf

F, D = np.float32, np.float64

# ------------------------------------------------------------- the vector functions

_AS = [F(v) for v in (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)]
_U20 = [F(v) for v in (0.00828929059, 0.0418978221, 0.166676521, 0.499991506, 0.999999701)]
_LN_FLT_MIN, _LN_FLT_MAX, _LOG2E, _LN2F = (
    np.array(b, np.uint32).view(F) for b in (0xC2AEAC50, 0x42B17218, 0x3FB8AA3B, 0x3F317218)
)


def f32fma(a, b, c):
    return np.asarray(fma32(np.asarray(a, D), b, c), F)


def exp_u20(x, fused=True):
    """ATen's `Vectorized<float>::exp_u20()` (AVX2), its fast exp: 2^n times a degree-5
    polynomial, n = floor(x log2(e) + 1/2); with fused=False oneDNN's exp of its eltwise
    kernels, the same but x log2(e) + 1/2 rounded twice (a multiply, then an add)."""
    x = np.asarray(x, F)
    with np.errstate(all="ignore"):
        below = x < _LN_FLT_MIN
        src = np.maximum(np.minimum(x, _LN_FLT_MAX), _LN_FLT_MIN)
        fx = np.floor(f32fma(src, _LOG2E, F(0.5)) if fused else src * _LOG2E + F(0.5))
        p = f32fma(-fx, _LN2F, src)
        r = f32fma(p, _U20[0], _U20[1])
        for c in (*_U20[2:], F(1)):
            r = f32fma(p, r, c)
        n = (fx - F(1)).astype(np.int32)
        two_n = ((n + 127) << 23).astype(np.int32).view(F)
        two_n = np.where(below, F(0), two_n)
        return (r * two_n) * F(2)


def vec_erf32(x, e=None):
    """ATen's `Vectorized<float>::erf()` (AVX2): Abramowitz and Stegun's 7.1.26 with
    fused steps and exp_u20; `e`: exp(-x^2) where the caller has it its own way (oneDNN's
    GELU kernels, the same steps around their own exp)."""
    x = np.asarray(x, F)
    with np.errstate(all="ignore"):
        a = np.abs(x)
        t = F(1) / f32fma(F(0.3275911), a, F(1))
        r = f32fma(_AS[0], t, _AS[1])
        for c in _AS[2:]:
            r = f32fma(r, t, c)
        if e is None:
            e = exp_u20(-(x * x))
        v = f32fma(t * -e, r, F(1))
        return np.where(np.signbit(x), -v, v)  # (x's sign bit xored in)


def _poly4dd(x, t, dd):
    """SLEEF's poly4dd/poly4df: (c0 + c1 x) + (c2 + t x) x^2 in double-float."""
    hx, hy = _add_pp(*dd[0], *_mul_pf(t, np.zeros_like(t), x))
    lx, ly = _add_pp(*dd[2], *_mul_pf(*dd[1], x))
    return _add_pp(lx, ly, *_mul_pf(hx, hy, x * x))


def _select(small, pairs_small, pairs_large):
    return [
        tuple(np.where(small, s, g) for s, g in zip(ps, pg))
        for ps, pg in zip(pairs_small, pairs_large)
    ]


_ERF_SMALL = [
    -0.2083271002525222097e-14, +0.7151909970790897009e-13, -0.1162238220110999364e-11,
    +0.1186474230821585259e-10, -0.8499973178354613440e-10, +0.4507647462598841629e-9,
    -0.1808044474288848915e-8, +0.5435081826716212389e-8, -0.1143939895758628484e-7,
    +0.1215442362680889243e-7, +0.1669878756181250355e-7, -0.9808074602255194288e-7,
    +0.1389000557865837204e-6, +0.2945514529987331866e-6, -0.1842918273003998283e-5,
    +0.3417987836115362136e-5, +0.3860236356493129101e-5, -0.3309403072749947546e-4,
    +0.1060862922597579532e-3, +0.2323253155213076174e-3, +0.1490149719145544729e-3,
]  # fmt: skip
_ERF_LARGE = [
    -0.4024015130752621932e-18, +0.3847193332817048172e-16, -0.1749316241455644088e-14,
    +0.5029618322872872715e-13, -0.1025221466851463164e-11, +0.1573695559331945583e-10,
    -0.1884658558040203709e-9, +0.1798167853032159309e-8, -0.1380745342355033142e-7,
    +0.8525705726469103499e-7, -0.4160448058101303405e-6, +0.1517272660008588485e-5,
    -0.3341634127317201697e-5, -0.2515023395879724513e-5, +0.6539731269664907554e-4,
    -0.3551065097428388658e-3, +0.1210736097958368864e-2, -0.2605566912579998680e-2,
    +0.1252823202436093193e-2, +0.1820191395263313222e-1, -0.1021557155453465954e+0,
]  # fmt: skip
_ERF_DD_SMALL = [
    (0.0092877958392275604405, 7.9287559463961107493e-19),
    (0.042275531758784692937, 1.3785226620501016138e-19),
    (0.07052369794346953491, 9.5846628070792092842e-19),
]
_ERF_DD_LARGE = [
    (-0.63691044383641748361, -2.4249477526539431839e-17),
    (-1.1282926061803961737, -6.2970338860410996505e-17),
    (-1.2261313785184804967e-05, -5.5329707514490107044e-22),
]
_EXPK = [
    2.51069683420950419527139e-08, 2.76286166770270649116855e-07,
    2.75572496725023574143864e-06, 2.48014973989819794114153e-05,
    0.000198412698809069797676111, 0.0013888888939977128960529,
    0.00833333333332371417601081, 0.0416666666665409524128449,
    0.166666666666666740681535, 0.500000000000000999200722,
]  # fmt: skip


def _poly8(x, x2, x4, c):
    return _fm(x4, _poly4(x, x2, *c[:4]), _poly4(x, x2, *c[4:8]))


def _poly21(x, x2, x4, x8, x16, c):
    """SLEEF's POLY21 (Estrin's scheme, fused steps); c from the highest power."""
    p5 = _fm(x4, c[0], _poly4(x, x2, *c[1:5]))
    p16 = _fm(x8, _poly8(x, x2, x4, c[5:13]), _poly8(x, x2, x4, c[13:21]))
    return _fm(x16, p5, p16)


def _expk(dx, dy):
    """SLEEF's expk: exp of a double-double, as a double."""
    c = _C[D]
    u = (dx + dy) * c["rln2"]
    dq = np.rint(u)
    q = _rint_i32(dq)
    sx, sy = _add2_pf(dx, dy, dq * -c["l2u"])
    sx, sy = _add2_pf(sx, sy, dq * -c["l2l"])
    s = sx + sy
    sx, sy = s, (sx - s) + sy  # normalized
    s2 = sx * sx
    s4 = s2 * s2
    s8 = s4 * s4
    u = _fm(s8, _fm(sx, _EXPK[0], _EXPK[1]), _poly8(sx, s2, s4, _EXPK[2:10]))
    tx, ty = _add_fp(1.0, sx, sy)
    tx, ty = _add_pp(tx, ty, *_mul_pf(*_squ(sx, sy), u))
    u = _ldexp2(tx + ty, q)
    return np.where(dx < -1000, 0.0, u)


def sleef_erfd(a):
    """Sleef_erfd4_u10 of a float64 array."""
    a = np.asarray(a, D)
    with np.errstate(all="ignore"):
        x = np.abs(a)
        x2 = x * x
        x4 = x2 * x2
        x8 = x4 * x4
        x16 = x8 * x8
        small = x <= 2.5
        c = np.where(small[None, :], np.array(_ERF_SMALL)[:, None], np.array(_ERF_LARGE)[:, None])
        t = _poly21(x, x2, x4, x8, x16, list(c))
        px, py = _poly4dd(x, t, _select(small, _ERF_DD_SMALL, _ERF_DD_LARGE))
        tx, ty = _add_fp(1.0, *_mul_pf(px, py, x))
        for _ in range(4):
            tx, ty = _squ(tx, ty)
        rx, ry = _rec(tx, ty)
        big = ~small
        if big.any():  # exp of the polynomial itself
            rx[big], ry[big] = _expk(px[big], py[big]), 0.0
        tx, ty = _add2_pf(rx, ry, -1.0)
        z = -(tx + ty)
        z = np.where(x < 1e-8, x * 1.12837916709551262756245475959, z)
        z = np.where(x >= 6, 1.0, z)
        z = np.where(np.isinf(a), 1.0, z)
        z = np.where(a == 0, 0.0, z)
        return np.where(np.signbit(a), -z, z)  # vmulsign: a's sign bit xored in


def sleef_tanh(x):
    """Sleef_tanhf8_u10 / Sleef_tanhd4_u10 of a float32 or float64 array."""
    x = np.asarray(x)
    t = x.dtype.type
    with np.errstate(all="ignore"):
        dx, dy = _expk2(np.abs(x))
        ex, ey = _rec(dx, dy)
        add = _add2_pp if t is D else _add_pp  # (float32's steps are the plain sums)
        nx, ny = add(dx, dy, -ex, -ey)
        mx, my = add(dx, dy, ex, ey)
        qx, qy = _div(nx, ny, mx, my)
        y = qx + qy
        limit = t(18.714973875) if t is D else t(8.664339742)
        y = np.where((np.abs(x) > limit) | np.isnan(y), t(1), y)
        y = np.where(np.signbit(x), -y, y)
        y = _all_ones(y, np.isnan(x))
    return y.astype(t, copy=False)


# ------------------------------------------------------------- the C library's

_ERX = F(8.4506291151e-01)
_EFX = F(1.2837916613e-01)
_PP = [F(v) for v in (1.2837916613e-01, -3.2504209876e-01, -2.8481749818e-02,
                      -5.7702702470e-03, -2.3763017452e-05)]  # fmt: skip
_QQ = [F(v) for v in (3.9791721106e-01, 6.5022252500e-02, 5.0813062117e-03,
                      1.3249473704e-04, -3.9602282413e-06)]  # fmt: skip
_PA = [F(v) for v in (-2.3621185683e-03, 4.1485610604e-01, -3.7220788002e-01,
                      3.1834661961e-01, -1.1089469492e-01, 3.5478305072e-02,
                      -2.1663755178e-03)]  # fmt: skip
_QA = [F(v) for v in (1.0642088205e-01, 5.4039794207e-01, 7.1828655899e-02,
                      1.2617121637e-01, 1.3637083583e-02, 1.1984500103e-02)]  # fmt: skip
_RA = [F(v) for v in (-9.8649440333e-03, -6.9385856390e-01, -1.0558626175e+01,
                      -6.2375331879e+01, -1.6239666748e+02, -1.8460508728e+02,
                      -8.1287437439e+01, -9.8143291473e+00)]  # fmt: skip
_SA = [F(v) for v in (1.9651271820e+01, 1.3765776062e+02, 4.3456588745e+02,
                      6.4538726807e+02, 4.2900814819e+02, 1.0863500214e+02,
                      6.5702495575e+00, -6.0424413532e-02)]  # fmt: skip
_RB = [F(v) for v in (-9.8649431020e-03, -7.9928326607e-01, -1.7757955551e+01,
                      -1.6063638306e+02, -6.3756646729e+02, -1.0250950928e+03,
                      -4.8351919556e+02)]  # fmt: skip
_SB = [F(v) for v in (3.0338060379e+01, 3.2579251099e+02, 1.5367296143e+03,
                      3.1998581543e+03, 2.5530502930e+03, 4.7452853394e+02,
                      -2.2440952301e+01)]  # fmt: skip


def _horner(z, coeffs, one=False):
    """c0 + z*(c1 + z*(c2 + ...)) in float32 (with a leading 1 when `one`)."""
    acc = coeffs[-1]
    for c in reversed(coeffs[:-1]):
        acc = c + z * acc
    return F(1) + z * acc if one else acc


def libm_erff(x):
    """glibc's erff of a float32 array."""
    x = np.asarray(x, F)
    with np.errstate(all="ignore"):
        a = np.abs(x)
        neg = np.signbit(x)
        z = x * x
        near = x + x * (_horner(z, _PP) / _horner(z, _QQ, one=True))
        tiny = x + _EFX * x
        s = a - F(1)
        mid = _ERX + _horner(s, _PA) / _horner(s, _QA, one=True)
        mid = np.where(neg, -mid, mid)
        s = F(1) / (a * a)
        lo = a < F(1) / F(0.35)  # (glibc compares the bits: 0x4036DB6E)
        r = np.where(lo, _horner(s, _RA), _horner(s, _RB))
        q = np.where(lo, _horner(s, _SA, one=True), _horner(s, _SB, one=True))
        zz = (a.view(np.int32) & np.int32(-4096)).view(F)
        e = libm_expf(-zz * zz - F(0.5625)) * libm_expf((zz - a) * (zz + a) + r / q)
        far = np.where(neg, e / a - F(1), F(1) - e / a)
        bits = a.view(np.int32)
        out = np.where(bits < 0x3F580000, np.where(bits < 0x31800000, tiny, near), far)
        out = np.where((bits >= 0x3F580000) & (bits < 0x3FA00000), mid, out)
        out = np.where(bits >= 0x40C00000, np.where(neg, F(-1), F(1)), out)
        out = np.where(np.isnan(x), x, out)
    return out.astype(F)


def libm_tanhf(x):
    """glibc's tanhf of a float32 array."""
    x = np.asarray(x, F)
    with np.errstate(all="ignore"):
        a = np.abs(x)
        big = np.expm1(F(2) * a)
        small = np.expm1(F(-2) * a)
        z = np.where(a >= 1, F(1) - F(2) / (big + F(2)), -small / (small + F(2)))
        bits = a.view(np.int32)
        z = np.where(bits < 0x24000000, a * (F(1) + a), z)
        z = np.where(bits >= 0x41B00000, F(1), z)
        z = np.where(np.signbit(x), -z, z)
        z = np.where(a == 0, x, z)
        z = np.where(np.isnan(x), x, z)
    return z.astype(F)


def libm_erf(x):
    x = np.asarray(x)
    if x.dtype == F:
        return libm_erff(x)
    return np.fromiter(map(math.erf, x.ravel().tolist()), D, x.size).reshape(x.shape)


def libm_tanh(x):
    x = np.asarray(x)
    if x.dtype == F:
        return libm_tanhf(x)
    return np.fromiter(map(math.tanh, x.ravel().tolist()), D, x.size).reshape(x.shape)


def vec_erf(x):
    x = np.asarray(x)
    return vec_erf32(x) if x.dtype == F else sleef_erfd(x)
