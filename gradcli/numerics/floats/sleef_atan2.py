"""PyTorch's `torch.atan2` of float32/float64 tensors: SLEEF's 1-ulp `Sleef_atan2f8_u10` /
`Sleef_atan2d4_u10` (AVX2 build, fused multiply-adds) on whole blocks of two vectors of
each contiguous run, the C library's `atan2`/`atan2f` (NumPy's) after them.

Re-implemented in NumPy from SLEEF's published algorithm (atan2k_u1): the quadrant q
from the signs and the larger of |x| and |y|, s = the smaller over the larger in
double-double (double-float) arithmetic, t = s^2, a polynomial in t (float64: degree 19,
its first 16 terms by Estrin's scheme; float32: degree 8 by Horner's), s + s*t*u and
q * pi/2 added in the same arithmetic, rounded once; then the signs and the special
cases (zeros, infinities, nan) as SLEEF's xatan2_u1 sets them.
"""

from __future__ import annotations

import numpy as np

from .sleef_hypot import exact_where, far
from .tensor_iter import sleef_blocks

# float64: c15 .. c0 of the Estrin part, then four Horner steps
_CD = (
    1.06298484191448746607415e-05,
    -0.000125620649967286867384336,
    0.00070557664296393412389774,
    -0.00251865614498713360352999,
    0.00646262899036991172313504,
    -0.0128281333663399031014274,
    0.0208024799924145797902497,
    -0.0289002344784740315686289,
    0.0359785005035104590853656,
    -0.041848579703592507506027,
    0.0470843011653283988193763,
    -0.0524914210588448421068719,
    0.0587946590969581003860434,
    -0.0666620884778795497194182,
    0.0769225330296203768654095,
    -0.0909090442773387574781907,
)
_CD_TAIL = (
    0.111111108376896236538123,
    -0.142857142756268568062339,
    0.199999999997977351284817,
    -0.333333333333317605173818,
)
_CF = (
    -0.00176397908944636583328247,
    0.0107900900766253471374512,
    -0.0309564601629972457885742,
    0.0577365085482597351074219,
    -0.0838950723409652709960938,
    0.109463557600975036621094,
    -0.142626821994781494140625,
    0.199983194470405578613281,
)
_CF_LAST = -0.333332866430282592773438
_PI2 = {
    np.float64: (1.570796326794896557998982, 6.12323399573676603586882e-17),
    np.float32: (1.5707963705062866211, -4.3711388286737928865e-08),
}


def _add(x, y):  # dd/dfadd_vd2_vd2_vd2 (|x| >= |y|)
    s = x[0] + y[0]
    return s, (((x[0] - s) + y[0]) + x[1]) + y[1]


def _add_11(x, y):  # dfadd_vf2_vf_vf
    s = x + y
    return s, (x - s) + y


def _add_12(x, y):  # dfadd_vf2_vf_vf2
    s = x + y[0]
    return s, ((x - s) + y[0]) + y[1]


def _normalize(t):
    s = t[0] + t[1]
    return s, (t[0] - s) + t[1]


def _poly16(dd, x, x2, x4, x8, c):
    f = dd.f

    def p4(c3, c2, c1, c0):
        return f(x2, f(x, c3, c2), f(x, c1, c0))

    def p8(cs):
        return f(x4, p4(*cs[:4]), p4(*cs[4:]))

    return f(x8, p8(c[:8]), p8(c[8:]))


def atan2k_u1(y, x, dd):
    """SLEEF's atan2k_u1 of (y, 0) and (x, 0), y >= 0: (hi, lo)."""
    t_ = dd.t
    zero = np.zeros_like(x)
    neg = x < 0
    q = np.where(neg, -2, 0).astype(np.int32)
    xh = np.where(neg, -x, x)
    xl = np.where(neg, t_(-0.0), zero)
    p = xh < y
    q = np.where(p, q + 1, q)
    s = (np.where(p, -xh, y), np.where(p, -xl, zero))
    t = (np.where(p, y, xh), np.where(p, zero, xl))
    s = dd.div(s, t)
    t = _normalize(dd.squ(s))
    tx = t[0]
    if t_ is np.float64:
        t2 = tx * tx
        t4 = t2 * t2
        t8 = t4 * t4
        u = _poly16(dd, tx, t2, t4, t8, _CD)
        for c in _CD_TAIL:
            u = dd.f(u, tx, c)
        t = _add(s, dd.mul21(dd.mul22(s, t), u))
    else:
        u = np.full(tx.shape, t_(_CF[0]), t_)
        for c in _CF[1:]:
            u = dd.f(u, tx, t_(c))
        t = dd.mul22(t, _add_11(t_(_CF_LAST), u * tx))
        t = dd.mul22(s, _add_12(t_(1), t))
    hi, lo = _PI2[t_]
    return _add(dd.mul21((np.full_like(x, hi), np.full_like(x, lo)), q.astype(t_)), t)


def _mulsign(x, y):
    """x with its sign flipped where y's sign bit is set (SLEEF's vmulsign)."""
    return np.where(np.signbit(y), -x, x)


def atan2_sleef(y, x):
    """Sleef_atan2{f8,d4}_u10 of two float arrays of one shape and dtype."""
    return exact_where(_atan2, (y, x), _far_or_far_apart)


def _far_or_far_apart(y, x):
    ax, ay = np.abs(x), np.abs(y)
    lo, hi = np.minimum(ax, ay), np.maximum(ax, ay)
    with np.errstate(all="ignore"):
        return far(x, y) | ((lo < hi * 2.0**-900) & (lo > 0))  # or their quotient


def _atan2(y, x, dd):
    t = dd.t
    small, scale = (
        (5.5626846462680083984e-309, 2.0**53)
        if t is np.float64
        else (2.9387372783541830947e-39, 2.0**24)
    )
    half_pi, quarter_pi, pi = t(np.pi / 2), t(np.pi / 4), t(np.pi)
    with np.errstate(all="ignore"):
        o = np.abs(x) < small
        x = np.where(o, x * t(scale), x)
        y = np.where(o, y * t(scale), y)
        hi, lo = atan2k_u1(np.abs(y), x, dd)
        r = _mulsign(hi + lo, x)
        xinf = np.isinf(x)
        r = np.where(xinf | (x == 0), half_pi - np.where(xinf, _mulsign(half_pi, x), t(0)), r)
        r = np.where(np.isinf(y), half_pi - np.where(xinf, _mulsign(quarter_pi, x), t(0)), r)
        r = np.where(y == 0, np.where(np.signbit(x), pi, t(0)), r)
        r = np.where(np.isnan(x) | np.isnan(y), t(np.nan), _mulsign(r, y))
    return np.asarray(r).astype(t)


def atan2(a, b):
    """torch.atan2 of two float32/float64 arrays (broadcast to one shape)."""
    return sleef_blocks(atan2_sleef, np.arctan2, (a, b))
