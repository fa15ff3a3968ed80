"""float32 `exp` and `log` as SLEEF's 1-ulp vector functions compute them
(`Sleef_expf8_u10`, `Sleef_logf8_u10`), which PyTorch's vectorised kernels use
inside its own reductions, e.g. `log_softmax` (gradcli/ops/softmax.py); its plain
`torch.exp`/`torch.log` are MKL's (gradcli/numerics/mkl.py).

Re-implemented in NumPy from SLEEF's published algorithms (see sleef_pow.py):
exp: q = rint(x / ln 2), s = x - q*ln2 in two fused steps (ln 2 split in two),
a degree-6 polynomial in s by fused Horner steps, 1 + (s*s*p + s), scaled by
2^q in two products; log: the mantissa m in [0.75, 1.5), x = (m-1)/(m+1) in
double-float, log = e*ln2 + 2x + x^3*p(x^2).  Checked against torch 2.13's own
SLEEF bit for bit (tests/golden/exact_numerics.json).
"""

from __future__ import annotations

import numpy as np

from .. import native
from .rows import by_columns, compiled, lanes, row_max
from .sleef_pow import (
    F,
    _I,
    _LN2,
    _L2L,
    _L2U,
    _R_LN2,
    _add_dd,
    _add2_ff,
    _div_dd,
    _fma,
    _from_bits,
    _logk_split,
    _mul_df,
)

_EXP = [
    F(0.000198527617612853646278381),
    F(0.00139304355252534151077271),
    F(0.00833336077630519866943359),
    F(0.0416664853692054748535156),
    F(0.166666671633720397949219),
    F(0.5),
]
_LOG = [F(0.3027294874), F(0.3996108174), F(0.6666694880)]


def _pow2i(q):
    return _from_bits((q + 0x7F) << 23)


def expf(d):
    """Sleef_expf8_u10 of a float32 array (numerics/native.py's compiled kernel, the same
    bits, once it pays)."""
    d = np.asarray(d, F)
    lib = native.ready(d.size)
    if lib and d.flags.c_contiguous:
        out = native.unary(lib, "expf", d, _expf)
        if out is not None:
            return out
    t0 = native.start(d.size)
    try:
        return _expf(d)
    finally:
        native.spent(t0)


def _expf(d):
    with np.errstate(invalid="ignore", over="ignore"):
        u = np.rint(d * _R_LN2)
        q = np.where(np.abs(u) < 2**31, u, -(2**31)).astype(_I)  # cvtps: nan -> INT_MIN
    fq = q.astype(F)
    # fq * _L2U is exact where the result is not replaced below (|q| < 2^8, _L2U of 15
    # bits), so its fused step is the plain float32 sum
    s = d + fq * -_L2U
    s = _fma(fq, -_L2L, s)
    s64 = s.astype(np.float64)  # (exact: the Horner steps' products in float64)
    u = _EXP[0]
    for c in _EXP[1:]:
        u = _fma(u, s64, c)
    u = F(1) + _fma(s * s, u, s)
    with np.errstate(over="ignore", invalid="ignore"):
        h = q >> 1
        u = u * _pow2i(h) * _pow2i(q - h)
        u = np.where(d < F(-104), F(0), u)
        u = np.where(F(100) < d, F(np.inf), u)
    return u.astype(F, copy=False)


def logf(d):
    """Sleef_logf8_u10 of a float32 array (numerics/native.py's compiled kernel, the same
    bits, once it pays)."""
    d = np.asarray(d, F)
    lib = native.ready(d.size)
    if lib and d.flags.c_contiguous:
        out = native.unary(lib, "logf", d, _logf)
        if out is not None:
            return out
    t0 = native.start(d.size)
    try:
        return _logf(d)
    finally:
        native.spent(t0)


def _logf(d):
    with np.errstate(all="ignore"):
        e, m = _logk_split(d)
        sx, sy = _mul_df(_LN2[0], _LN2[1], e.astype(F))
        xx, xy = _div_dd(*_add2_ff(F(-1), m), *_add2_ff(F(1), m))
        x2 = xx * xx
        t = _fma(_fma(_LOG[0], x2, _LOG[1]), x2, _LOG[2])
        sx, sy = _add_dd(sx, sy, xx * F(2), xy * F(2))
        w = x2 * xx * t
        s = sx + w  # dfadd_vf2_vf2_vf
        sy = ((sx - s) + w) + sy
        r = s + sy
        r = np.where(np.isposinf(d), F(np.inf), r)
        r = np.where((d < 0) | np.isnan(d), F(np.nan), r)
        r = np.where(d == 0, F(-np.inf), r)
    return r.astype(F, copy=False)


# ------------------------------------------------ log_softmax over the last dim


def row_sums(a):
    """Sums of the rows of a 2-D float32 array as PyTorch's `vec::reduce_all` adds
    them: 8-lane vectors added one after the other (the values after the last whole
    vector into the first lanes), then the 8 lanes as a tree,
    ((l0+l4) + (l2+l6)) + ((l1+l5) + (l3+l7)); rows shorter than 8 from the left."""
    d = a.shape[1]
    if d < 8:
        acc = a[:, 0] + a[:, 1] if d > 1 else a[:, 0].copy()
        for i in range(2, d):
            acc = acc + a[:, i]
        return acc
    if by_columns(a):
        v0, v1, v2, v3, v4, v5, v6, v7 = lanes(a, 8)
        return ((v0 + v4) + (v2 + v6)) + ((v1 + v5) + (v3 + v7))
    nv = d // 8
    acc = (
        np.add.reduce(a[:, : nv * 8].reshape(a.shape[0], nv, 8).transpose(1, 0, 2), axis=0)
        if nv > 1
        else a[:, :8].copy()
    )
    r = d - nv * 8
    if r:
        acc[:, :r] = acc[:, :r] + a[:, nv * 8 :]
    v = acc[:, :4] + acc[:, 4:]
    v = v[:, :2] + v[:, 2:]
    return v[:, 0] + v[:, 1]


def log_softmax_lastdim(x):
    """PyTorch's float32 log_softmax over the last dim (_vec_log_softmax_lastdim):
    (x - max) - log(sum(exp(x - max))) with SLEEF's exp and log."""
    got = compiled("log_softmax", x)  # (one compiled pass, the same bits)
    if got is not None:
        return got
    rows = x.reshape(-1, x.shape[-1]) if x.ndim != 2 else x
    s = rows - row_max(rows)
    out = s - logf(row_sums(expf(s)))[:, None]
    return out.reshape(x.shape)


def log_softmax_backward_lastdim(g, out):
    """grad - exp(out) * sum(grad) over the last dim, the product and difference fused."""
    got = compiled("log_softmax_bwd", g, out)  # (one compiled pass, the same bits)
    if got is not None:
        return got
    d = out.shape[-1]
    g2, o2 = g.reshape(-1, d), out.reshape(-1, d)
    e = expf(o2)
    s = row_sums(np.ascontiguousarray(g2, dtype=F))
    # each row's sum repeated along it: operands of one shape, which the compiled fused
    # step takes without broadcasting them itself (a copy as large, made slower)
    s = np.repeat(s, d).reshape(o2.shape)
    return _fma(-e, s, np.ascontiguousarray(g2)).reshape(out.shape)


def softmax_lastdim(x):
    """PyTorch's float32 softmax over the last dim (_vec_softmax_lastdim):
    exp(x - max) (SLEEF) times 1 / its sum (vec::reduce_all's order)."""
    got = compiled("softmax", x)  # (one compiled pass, the same bits)
    if got is not None:
        return got
    rows = x.reshape(-1, x.shape[-1])
    e = expf(rows - row_max(rows))
    return (e * (F(1) / row_sums(e))[:, None]).reshape(x.shape)


def softmax_backward_lastdim(g, out):
    """out * (grad - sum(grad * out)) over the last dim, the sum in reduce_all's order."""
    got = compiled("softmax_bwd", g, out)  # (one compiled pass, the same bits)
    if got is not None:
        return got
    d = out.shape[-1]
    g2, o2 = g.reshape(-1, d), out.reshape(-1, d)
    return (o2 * (g2 - row_sums(np.ascontiguousarray(g2 * o2))[:, None])).reshape(out.shape)
