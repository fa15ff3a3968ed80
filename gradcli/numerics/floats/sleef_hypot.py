"""PyTorch's `torch.hypot` of float32/float64 tensors: SLEEF's 0.5-ulp `Sleef_hypotf8_u05` /
`Sleef_hypotd4_u05` (AVX2 build, fused multiply-adds) on whole blocks of two vectors of
each contiguous run, the C library's `hypot`/`hypotf` (NumPy's) after them.

Re-implemented in NumPy from SLEEF's published algorithm: with n = min(|x|, |y|) and
d = max(|x|, |y|) (both scaled by 2^54, or 2^24, when d is below the smallest normal),
t = n / d in double-double (double-float) arithmetic, then sqrt(t*t + 1) * max in the
same, rounded once; inf where that is nan, max where min is 0, nan for a nan operand,
inf for an infinite one.  Checked bit for bit against torch 2.13 on 80,000 values per
dtype (magnitudes 1e-30 to 1e30, the edge values) and on operands from 1e-320 to 1e307.
"""

from __future__ import annotations

import numpy as np

from .fma import exact_scalar, fma
from .tensor_iter import sleef_blocks


class DD:
    """Double-double (double-float) arithmetic with fused multiply-adds, in dtype t."""

    def __init__(self, t):
        self.t = t

    def f(self, a, b, c):  # a * b + c, rounded once
        return np.asarray(fma(a, b, c, self.t), dtype=self.t)

    def mul(self, x, y):  # ddmul_vd2_vd_vd
        s = x * y
        return s, self.f(x, y, -s)

    def mul22(self, x, y):  # ddmul_vd2_vd2_vd2
        s = x[0] * y[0]
        return s, self.f(x[0], y[1], self.f(x[1], y[0], self.f(x[0], y[0], -s)))

    def mul21(self, x, y):  # ddmul_vd2_vd2_vd
        s = x[0] * y
        return s, self.f(x[1], y, self.f(x[0], y, -s))

    def squ(self, x):  # ddsqu_vd2_vd2
        xx = x[0] * x[0]
        return xx, self.f(x[0] + x[0], x[1], self.f(x[0], x[0], -xx))

    @staticmethod
    def add2_21(x, y):  # ddadd2_vd2_vd2_vd
        s = x[0] + y
        v = s - x[0]
        w = (x[0] - (s - v)) + (y - v)
        return s, w + x[1]

    @staticmethod
    def add2_22(x, y):  # ddadd2_vd2_vd2_vd2
        s = x[0] + y[0]
        v = s - x[0]
        w = (x[0] - (s - v)) + (y[0] - v)
        return s, w + (x[1] + y[1])

    def div(self, n, d):  # dddiv_vd2_vd2_vd2
        t = self.t(1) / d[0]
        s = n[0] * t
        u = self.f(t, n[0], -s)
        v = self.f(-d[1], t, self.f(-d[0], t, self.t(1)))
        return s, self.f(s, v, self.f(n[1], t, u))

    def rec(self, d):  # ddrec_vd2_vd
        s = self.t(1) / d
        return s, s * self.f(-d, s, self.t(1))

    def sqrt(self, d):  # ddsqrt_vd2_vd2
        t = np.sqrt(d[0] + d[1])
        r = self.mul22(self.add2_22(d, self.mul(t, t)), self.rec(t))
        return r[0] * self.t(0.5), r[1] * self.t(0.5)


class ExactDD(DD):
    """DD for float64 with an exact fused multiply-add: numerics/floats/fma.py's splitting of the
    product underflows below about 2^-900 (and overflows above 2^990), where these
    functions' error terms live for such operands (rational arithmetic, rounded once as
    the FMA does; a Python loop, for the few values that need it)."""

    def __init__(self):
        super().__init__(np.float64)

    def f(self, a, b, c):
        a, b, c = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, c)))
        out = [
            exact_scalar(*v)
            for v in zip(a.ravel().tolist(), b.ravel().tolist(), c.ravel().tolist())
        ]
        return np.array(out, dtype=np.float64).reshape(a.shape)


def far(x, y):
    """Where float64 operands need ExactDD: the larger magnitude beyond 2^+-900."""
    hi = np.maximum(np.abs(x), np.abs(y))
    return (hi < 2.0**-900) | ((hi > 2.0**900) & (hi < np.inf))


def exact_where(kernel, args, mask):
    """kernel(*args, DD(t)), float64 values where mask(*args) made again with ExactDD
    (where the fused multiply-add emulation under- or overflows)."""
    t = args[0].dtype.type
    out = kernel(*args, DD(t))
    if t is np.float64:
        m = mask(*args)
        if m.any():
            out = out.copy()
            out[m] = kernel(*(a[m] for a in args), ExactDD())
    return out


def hypot_sleef(x, y):
    """Sleef_hypot{f8,d4}_u05 of two float arrays of one shape and dtype."""
    return exact_where(_hypot, (x, y), far)


def _hypot(x, y, dd):
    t = dd.t
    small, scale = (np.finfo(t).tiny, t(2.0**54 if t is np.float64 else 2.0**24))
    with np.errstate(all="ignore"):
        x, y = np.abs(x), np.abs(y)
        lo, hi = np.minimum(x, y), np.maximum(x, y)
        o = hi < small
        n = np.where(o, lo * scale, lo)
        d = np.where(o, hi * scale, hi)
        zero = np.zeros_like(n)
        q = dd.div((n, zero), (d, zero))
        q = dd.mul21(dd.sqrt(dd.add2_21(dd.squ(q), t(1))), hi)
        ret = q[0] + q[1]
        ret = np.where(np.isnan(ret), t(np.inf), ret)
        ret = np.where(lo == 0, hi, ret)
        ret = np.where(np.isnan(x) | np.isnan(y), t(np.nan), ret)
        ret = np.where((x == np.inf) | (y == np.inf), t(np.inf), ret)
    return np.asarray(ret).astype(t)


def hypot(a, b):
    """torch.hypot of two float32/float64 arrays (broadcast to one shape)."""
    return sleef_blocks(hypot_sleef, np.hypot, (a, b))
