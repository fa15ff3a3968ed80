"""PyTorch's `torch.lgamma` of float32/float64 tensors: SLEEF's 1-ulp `Sleef_lgammaf8_u10` /
`Sleef_lgammad4_u10` (AVX2 build, fused multiply-adds), which `Vectorized<T>::lgamma()`
calls.  ATen's lgamma kernel is a vml one (`vec::map`, the last partial vector padded),
so every value of a tensor of any size or layout is SLEEF's.

Re-implemented in NumPy from SLEEF's published algorithm (gammak / gammafk, logk2 /
logk2f, sinpik / sinpifk), one NumPy operation for each vector instruction, in
double-double (double-float) arithmetic: x = a, or 1 - a below 0.5 (the reflection),
or 0 for |a| below 1e-306 (1e-30); for x in [2.3, 7] the product x(x+1)(x+2)(x+3)(x+4)
(x(x+1) for float32) and x moved up by 5 (3); then Stirling's series (x - 1/2) log x - x
+ log(2 pi)/2 with a polynomial in 1/x from 2.3 on, a polynomial in x - 1 or x - 2 below;
the reflection's log(pi) - that and sin(pi a) (from a reduced by whole multiples of
2^28, 2^12); and lgamma = that + log|numerator / denominator|, rounded once: inf at
the infinities, at zero and the negative integers, and where the value overflows.
Checked bit for bit against torch 2.13 on 1.8 million float64 and 9.3 million float32
values (random bit patterns over each dtype's whole range, and runs of consecutive values
around 1, 2, 0.5, the branches' bounds, the poles and the extremes; contiguous and
strided) and all 65,536 float16 values; the goldens: tests/golden/exact_numerics.json.
"""

from __future__ import annotations

import numpy as np

from .fma import exact_scalar, unsplittable
from .sleef_hypot import DD
from .sleef_u10 import _ldexp2, _pow2i

F, D = np.float32, np.float64
_I32, _U32 = np.int32, np.uint32

# --------------------------------------------------------------------------- constants

#: gammak's polynomial, c22 .. c0 of each of its three ranges: x >= 2.3 (in 1/x), x in
#: [0.5, 1.1] (in x - 1), the rest (in x - 2)
_UD = (
    (
        -156.801412704022726379848862,
        +1.120804464289911606838558160000,
        +13.39798545514258921833306020000,
        -0.116546276599463200848033357000,
        -1.391801093265337481495562410000,
        +0.015056113040026424412918973400,
        +0.179540117061234856098844714000,
        -0.002481743600264997730942489280,
        -0.029527880945699120504851034100,
        +0.000540164767892604515196325186,
        +0.006403362833808069794787256200,
        -0.000162516262783915816896611252,
        -0.001914438498565477526465972390,
        +7.20489541602001055898311517e-05,
        +0.000839498720672087279971000786,
        -5.17179090826059219329394422e-05,
        -0.000592166437353693882857342347,
        +6.97281375836585777403743539e-05,
        +0.000784039221720066627493314301,
        -0.000229472093621399176949318732,
        -0.002681327160493827160473958490,
        +0.003472222222222222222175164840,
        +0.083333333333333333335592087900,
    ),
    (
        +0.2947916772827614196e2,
        +0.1281459691827820109e3,
        +0.2617544025784515043e3,
        +0.3287022855685790432e3,
        +0.2818145867730348186e3,
        +0.1728670414673559605e3,
        +0.7748735764030416817e2,
        +0.2512856643080930752e2,
        +0.5766792106140076868e1,
        +0.7270275473996180571e0,
        +0.8396709124579147809e-1,
        -0.8211558669746804595e-1,
        +0.6828831828341884458e-1,
        -0.7712481339961671511e-1,
        +0.8337492023017314957e-1,
        -0.9094964931456242518e-1,
        +0.1000996313575929358e0,
        -0.1113342861544207724e0,
        +0.1255096673213020875e0,
        -0.1440498967843054368e0,
        +0.1695571770041949811e0,
        -0.2073855510284092762e0,
        +0.2705808084277815939e0,
    ),
    (
        +0.7074816000864609279e-7,
        +0.4009244333008730443e-6,
        +0.1040114641628246946e-5,
        +0.1508349150733329167e-5,
        +0.1288143074933901020e-5,
        +0.4744167749884993937e-6,
        -0.6554816306542489902e-7,
        -0.3189252471452599844e-6,
        +0.1358883821470355377e-6,
        -0.4343931277157336040e-6,
        +0.9724785897406779555e-6,
        -0.2036886057225966011e-5,
        +0.4373363141819725815e-5,
        -0.9439951268304008677e-5,
        +0.2050727030376389804e-4,
        -0.4492620183431184018e-4,
        +0.9945751236071875931e-4,
        -0.2231547599034983196e-3,
        +0.5096695247101967622e-3,
        -0.1192753911667886971e-2,
        +0.2890510330742210310e-2,
        -0.7385551028674461858e-2,
        +0.2058080842778455335e-1,
    ),
)
#: gammafk's: c8 .. c0 of the same three ranges ([0.5, 1.2] for the second)
_UF = (
    (
        +0.000839498720672087279971000786,
        -5.17179090826059219329394422e-05,
        -0.000592166437353693882857342347,
        +6.97281375836585777403743539e-05,
        +0.000784039221720066627493314301,
        -0.000229472093621399176949318732,
        -0.002681327160493827160473958490,
        +0.003472222222222222222175164840,
        +0.083333333333333333335592087900,
    ),
    (
        +0.9435157776e0,
        +0.8670063615e0,
        +0.4826702476e0,
        -0.8855129778e-1,
        +0.1013825238e0,
        -0.1493408978e0,
        +0.1697509140e0,
        -0.2072454542e0,
        +0.2705872357e0,
    ),
    (
        +0.1102489550e-3,
        +0.8160019934e-4,
        +0.1528468856e-3,
        -0.2355068718e-3,
        +0.4962242092e-3,
        -0.1193488017e-2,
        +0.2891599433e-2,
        -0.7385451812e-2,
        +0.2058077045e-1,
    ),
)


def _pair(v):
    """A double as a float32 pair (SLEEF's vcast_vf2_d: the float, and the rest as one)."""
    hi = F(v)
    return hi, F(v - float(hi))


#: per dtype: the tiny bound, the reduction's period, the scale of a tiny a, the constant
#: tails of z's three steps ([0.5, 1.1] range, the other), log(2 pi)/2, log(pi), log of
#: the tiny scale, the polynomial's coefficients (a row per step, a column per range),
#: the steps up (how many x + k factors)
_K = {
    D: {
        "tiny": 1e-306,
        "lo": (0.5, 1.1),
        "period": float(1 << 28),
        "scale": float(1 << 60) * float(1 << 60),
        "z": (
            (-0.4006856343865314862e0, -0.6735230105319810201e-1),
            (+0.8224670334241132030e0, +0.3224670334241132030e0),
            (-0.5772156649015328655e0, +0.4227843350984671345e0),
        ),
        "hlog2pi": (0.91893853320467278056, -3.8782941580672414498e-17),
        "logpi": (1.1447298858494001639, 1.026595116270782638e-17),
        "logscale": (83.1776616671934334590333, 3.67103459631568507221878e-15),
        "u": np.array(_UD, D).T,
        "steps": 4,
    },
    F: {
        "tiny": F(1e-30),
        "lo": (F(0.5), F(1.2)),
        "period": F(1 << 12),
        "scale": F(float(1 << 30) * float(1 << 30)),
        "z": (
            (F(-0.400686534596170958447352690395e0), F(-0.673523028297382446749257758235e-1)),
            (F(+0.822466960142643054450325495997e0), F(+0.322467033928981157743538726901e0)),
            (F(-0.577215665946766039837398973297e0), F(+0.422784335087484338986941629852e0)),
        ),
        "hlog2pi": _pair(0.91893853320467278056),
        "logpi": _pair(1.1447298858494001639),
        "logscale": _pair(41.58883083359671856503),
        "u": np.array(_UF, D).astype(F).T,
        "steps": 2,
    },
}

#: logk2's polynomial in x^2: float64 c6 .. c0 (Estrin's POLY7, then one more step),
#: float32 c3 .. c0 (Horner's)
_LOGD = (
    0.13860436390467167910856,
    0.131699838841615374240845,
    0.153914168346271945653214,
    0.181816523941564611721589,
    0.22222224632662035403996,
    0.285714285511134091777308,
    0.400000000000914013309483,
    0.666666666666664853302393,
)
_LOGF = (
    F(0.2392828464508056640625),
    F(0.28518211841583251953125),
    F(0.400005877017974853515625),
    F(0.666666686534881591796875),
)
_LN2 = {
    D: (0.693147180559945286226764, 2.319046813846299558417771e-17),
    F: (F(0.69314718246459960938), F(-1.904654323148236017e-09)),
}

#: sinpik's polynomials (c5 .. c0 float64, c2 .. c0 float32) where q & 2 (the cosine's
#: side), then where not; and the double-double tails of each
_SIN = {
    D: (
        (
            9.94480387626843774090208e-16,
            -3.89796226062932799164047e-13,
            1.150115825399960352669010e-10,
            -2.46113695010446974953590e-08,
            3.590860448590527540050620e-06,
            -0.000325991886927389905997954,
        ),
        (
            -2.02461120785182399295868e-14,
            6.948218305801794613277840e-12,
            -1.75724749952853179952664e-09,
            3.133616889668683928784220e-07,
            -3.65762041821615519203610e-05,
            0.0024903945701927185027435600,
        ),
        (
            (0.0158543442438155018914259, -1.04693272280631521908845e-18),
            (-0.0807455121882807852484731, 3.61852475067037104849987e-18),
        ),
        (
            (-0.308425137534042437259529, -1.95698492133633550338345e-17),
            (0.785398163397448278999491, 3.06287113727155002607105e-17),
        ),
    ),
    F: (
        (F(-0.2430611801e-7), F(+0.3590577080e-5), F(-0.3259917721e-3)),
        (F(+0.3093842054e-6), F(-0.3657307388e-4), F(+0.2490393585e-2)),
        (
            (F(0.015854343771934509277), F(4.4940051354032242811e-10)),
            (F(-0.080745510756969451904), F(-1.3373665339076936258e-09)),
        ),
        (
            (F(-0.30842512845993041992), F(-9.0728339030733922277e-09)),
            (F(0.78539818525314331055), F(-2.1857338617566484855e-08)),
        ),
    ),
}


# ------------------------------------------------------------ double-double steps


def _add2_11(x, y):  # ddadd2_vd2_vd_vd
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


def _add2_12(x, y):  # ddadd2_vd2_vd_vd2
    s = x + y[0]
    v = s - x
    return s, ((x - (s - v)) + (y[0] - v)) + y[1]


def _add_22(x, y):  # ddadd_vd2_vd2_vd2 (|x| >= |y|)
    s = x[0] + y[0]
    return s, (((x[0] - s) + y[0]) + x[1]) + y[1]


def _normalize(x):
    s = x[0] + x[1]
    return s, (x[0] - s) + x[1]


def _neg(x):
    return -x[0], -x[1]


def _abs(x):  # the low part's sign bit flipped where the high part's is set
    return np.abs(x[0]), np.where(np.signbit(x[0]), -x[1], x[1])


def _sel(o, x, y):
    return np.where(o, x[0], y[0]), np.where(o, x[1], y[1])


def _trunc_i32(u):
    """cvttpd2dq / cvttps2dq: towards zero to int32, nan and out of range -> INT_MIN."""
    with np.errstate(invalid="ignore"):
        r = np.trunc(u)
        return np.where(np.abs(r) < 2.0**31, r, -(2.0**31)).astype(_I32)


# ----------------------------------------------------------------------- kernels


def _ilogbk(d):
    """SLEEF's vilogbk (the exponent, subnormals scaled up first), of d >= 0."""
    t = d.dtype.type
    if t is F:
        o = d < F(5.421010862427522e-20)
        d = np.where(o, F(1.8446744073709552e19) * d, d)
        q = ((d.view(_U32) >> _U32(23)) & _U32(0xFF)).astype(_I32)
        return q - np.where(o, _I32(64 + 0x7F), _I32(0x7F))
    o = d < 4.9090934652977266e-91
    d = np.where(o, 2.037035976334486e90 * d, d)
    hi = (d.view(np.uint64) >> np.uint64(32)).astype(_U32)
    q = ((hi & _U32(0xFFF00000)) >> _U32(20)).astype(_I32)
    return q - np.where(o, _I32(300 + 0x3FF), _I32(0x3FF))


def _logk2(d, dd):
    """log of a double-double (SLEEF's logk2 / logk2f), as a double-double."""
    t = dd.t
    e = _ilogbk(d[0] * t(1.0 / 0.75) if t is D else d[0] * (F(1.0) / F(0.75)))
    if t is F:
        p = _pow2i(-e, F)
        m = (d[0] * p, d[1] * p)
    else:
        m = (_ldexp2(d[0], -e), _ldexp2(d[1], -e))
    x = dd.div(dd.add2_21(m, t(-1)), dd.add2_21(m, t(1)))
    x2 = dd.squ(x)
    if t is F:
        c = _LOGF
        u = dd.f(dd.f(dd.f(c[0], x2[0], c[1]), x2[0], c[2]), x2[0], c[3])
    else:
        c = _LOGD
        y, y2 = x2[0], x2[0] * x2[0]
        y4 = y2 * y2
        p3 = dd.f(y2, c[0], dd.f(y, c[1], c[2]))
        p4 = dd.f(y2, dd.f(y, c[3], c[4]), dd.f(y, c[5], c[6]))
        u = dd.f(dd.f(y4, p3, p4), y, c[7])
    s = dd.mul21(_LN2[t], e.astype(t))
    s = _add_22(s, (x[0] * t(2), x[1] * t(2)))
    return _add_22(s, dd.mul21(dd.mul22(x2, x), u))


def _sinpik(d, dd):
    """sin(pi d) as a double-double (SLEEF's sinpik / sinpifk)."""
    t = dd.t
    u = d * t(4)
    q = _trunc_i32(u)
    q = (q + ((q.view(_U32) >> _U32(31)).astype(_I32) ^ _I32(1))) & _I32(~1)
    o = (q & _I32(2)) == 2
    s = u - q.astype(t)
    r = s
    s = s * s
    s2 = dd.mul(r, r)
    cos_side, sin_side, tail1, tail2 = _SIN[t]
    p = np.where(o, cos_side[0], sin_side[0])
    for a, b in zip(cos_side[1:], sin_side[1:]):
        p = dd.f(p, s, np.where(o, a, b))
    x = _add2_12(p * s, (np.where(o, *(c[0] for c in tail1)), np.where(o, *(c[1] for c in tail1))))
    x = dd.add2_22(
        dd.mul22(s2, x), (np.where(o, *(c[0] for c in tail2)), np.where(o, *(c[1] for c in tail2)))
    )
    x = dd.mul22(x, _sel(o, s2, (r, np.zeros_like(r))))
    x = _sel(o, dd.add2_21(x, t(1)), x)
    flip = (q & _I32(4)) == 4
    return np.where(flip, -x[0], x[0]), np.where(flip, -x[1], x[1])


def _gammak(a, dd):
    """(log of the rest, numerator over denominator) of SLEEF's gammak / gammafk."""
    t = dd.t
    k = _K[t]
    one, zero = np.ones_like(a), np.zeros_like(a)
    otiny = np.abs(a) < k["tiny"]
    oref = a < t(0.5)
    x = _sel(otiny, (zero, zero), _sel(oref, _add2_11(one, -a), (a, zero)))
    o0 = (k["lo"][0] <= x[0]) & (x[0] <= k["lo"][1])
    o2 = t(2.3) <= x[0]
    y = _normalize(dd.mul22(dd.add2_21(x, t(1)), x))
    for step in range(2, k["steps"] + 1):
        y = _normalize(dd.mul22(dd.add2_21(x, t(step)), y))
    o = o2 & (x[0] <= t(7))
    clln = _sel(o, y, (one, zero))
    x = _sel(o, dd.add2_21(x, t(k["steps"] + 1)), x)
    with np.errstate(divide="ignore"):
        rec = t(1) / x[0]
    t_ = np.where(o2, rec, _normalize(dd.add2_21(x, np.where(o0, t(-1), t(-2))))[0])
    # each value's coefficients, by its range (one gather for the 23 or 9 steps)
    cs = k["u"][:, np.where(o2, 0, np.where(o0, 1, 2))]
    u = cs[0]
    for c in cs[1:]:
        u = dd.f(u, t_, c)
    y = dd.mul22(dd.add2_21(x, t(-0.5)), _logk2(x, dd))
    y = dd.add2_22(y, _neg(x))
    y = dd.add2_22(y, k["hlog2pi"])
    zc = k["z"]
    z = dd.add2_21(dd.mul(u, t_), np.where(o0, *zc[0]))
    z = dd.add2_21(dd.mul21(z, t_), np.where(o0, *zc[1]))
    z = dd.add2_21(dd.mul21(z, t_), np.where(o0, *zc[2]))
    z = dd.mul21(z, t_)
    clc = _sel(o2, y, z)
    clld = _sel(o2, dd.add2_21(dd.mul(u, t_), t(1)), (one, zero))
    y = clln
    lp = k["logscale"]
    clc = _sel(
        otiny, (lp[0] * one, lp[1] * one), _sel(oref, dd.add2_22(k["logpi"], _neg(clc)), clc)
    )
    clln = _sel(otiny, (one, zero), _sel(oref, clln, clld))
    per = k["period"]
    r = a - per * _trunc_i32(a * (t(1) / per)).astype(t)
    x = dd.mul22(clld, _sinpik(r, dd))
    clld = _sel(otiny, (a * k["scale"], zero), _sel(oref, x, y))
    return clc, dd.div(clln, clld)


def _lgamma(a, dd):
    t = dd.t
    with np.errstate(all="ignore"):
        clc, b = _gammak(a, dd)
        y = dd.add2_22(clc, _logk2(_abs(b), dd))
        r = y[0] + y[1]
        isint = np.rint(a) == a
        o = np.isinf(a) | ((a <= 0) & isint) | (np.isfinite(a) & np.isnan(r))
        r = np.where(o, t(np.inf), r)
    return np.asarray(r).astype(t, copy=False)


class _ExactDD(DD):
    """DD for float64 values where fma's emulation cannot split some fused step's operands
    (above 2^990, Veltkamp's split overflows) or product (below 2^-900, the tiny a's
    sin(pi a)): those steps in exact rational arithmetic, rounded once as the FMA does
    (a Python loop over the few such operands)."""

    def __init__(self):
        super().__init__(D)

    def f(self, a, b, c):
        out = super().f(a, b, c)
        a, b, c = np.broadcast_arrays(*(np.asarray(v, D) for v in (a, b, c)))
        m = unsplittable(a, b)
        if m.any():
            out = np.array(out, dtype=D).reshape(a.shape)
            fix = zip(a[m].tolist(), b[m].tolist(), c[m].tolist())
            out[m] = [exact_scalar(*v) for v in fix]
        return out


def sleef_lgamma(a):
    """Sleef_lgammaf8_u10 / Sleef_lgammad4_u10 of a float32 or float64 array."""
    a = np.asarray(a)
    t = a.dtype.type
    flat = a.reshape(-1)
    out = _lgamma(flat, DD(t))
    if t is D:
        m = np.abs(flat)
        m = ((flat > 2.0**990) & (flat < np.inf)) | ((m < 2.0**-880) & (m >= 1e-306))
        if m.any():
            out = out.copy()
            out[m] = _lgamma(flat[m], _ExactDD())
    return out.reshape(a.shape)


def lgamma(x):
    """torch.lgamma of an array: SLEEF's for float32 and float64, float16 through float32
    (ATen's Half vector computes in float32 and rounds each value once)."""
    x = np.asarray(x)
    if x.dtype == D or x.dtype == F:
        return sleef_lgamma(x)
    if x.dtype == np.float16:
        with np.errstate(over="ignore"):
            return sleef_lgamma(x.astype(F)).astype(np.float16)
    raise TypeError(f"lgamma of {x.dtype} values")
