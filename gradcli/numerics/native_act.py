"""LLVM IR for `native.py` to compile: element-wise kernels of PyTorch's built on SLEEF's
exp and log1p, whole in one pass where NumPy makes a pass per operation around the
compiled SLEEF kernels (each its own call, its arrays, its flags):

* `sigmoid` (torch's sigmoid_kernel on its whole blocks of two vectors): 1 / (exp(-x) + 1);
* `log_sigmoid` (log_sigmoid_cpu_kernel, every value): min(x, 0) - log1p(exp(-|x|));
* `bce_logits` (binary_cross_entropy_with_logits' element-wise loss, its kernels one
  after another, each rounded to the dtype): (1 - y) * x - log_sigmoid(x);
* `gelu_tanh` and its gradient `gelu_tanh_grad` of (g, x) (float32: GeluKernelImpl's and
  GeluBackwardKernelImpl's vector code, floats/gelu.py), their tanh SLEEF's tanhf_u10
  (floats/erf_tanh.sleef_tanh: expk2f, its reciprocal, the double-float quotient);
* `mish` and `mish_grad` (float32 only: x * tanh(log1p(exp(x))) and its gradient,
  ops/activation_smooth.py's vector code, SLEEF's expf, log1pf and tanhf);
* `gelu_erf_d` and `gelu_erf_grad_d` (float64: GeluKernelImpl's and
  GeluBackwardKernelImpl's vector code, floats/gelu.py, with SLEEF's erf_u10,
  floats/erf_tanh.sleef_erfd, and exp);
* `expm1` (SLEEF's expm1f_u10 and expm1_u10, sleef_u10.sleef_expm1, torch.expm1's and
  the ELU kernels' vector function);
* `gelu_erf` and `gelu_erf_grad` (float32 only: oneDNN's eltwise GELU-erf, forward and
  backward, floats/gelu.onednn_gelu_erf: Abramowitz and Stegun's erf with ATen's
  exp_u20, floats/erf_tanh.vec_erf32).

Each is the NumPy emulation's operations in its order (floats/torch_exp.sigmoid,
floats/torch_act.log_sigmoid_forward, ops/loss.py's BCEWithLogits.forward), SLEEF's steps
those of native_sleef.py (doubles, `Emit`) and native_sleef32.py (floats, `Lanes`), in
vectors of 8 values.  A lane whose SLEEF step sets its flag, or whose result is a NaN (its
payload is NumPy's business), is flagged, and the caller computes those values alone with
the emulation (element-wise: the same bits).  Only `llvmlite.ir` objects are made here."""

from __future__ import annotations

import math

import numpy as np

from . import native_sleef as s64, native_sleef32 as s32
from .native_pow import _expk as expk


def _nan(e, r):
    e.flag(e.b.fcmp_unordered("uno", r, r))
    return r


def _sigmoid64(e, x):
    one = e.d(1.0)
    return _nan(e, e.b.fdiv(one, e.b.fadd(s64.expd(e, e.b.fneg(x)), one)))


def _sigmoid32(e, x):
    one = e.c(1.0)
    return _nan(e, e.b.fdiv(one, e.b.fadd(s32.expf(e, e.b.fneg(x), s32.K), one)))


def _log_sigmoid64(e, x):
    b, zero = e.b, e.d(0.0)
    buffer = s64.expd(e, b.fneg(b.call(e.fabs, [x])))
    m = b.select(b.fcmp_ordered("<", x, zero), x, zero)  # np.minimum(x, 0): -0 gives +0
    return _nan(e, b.fsub(m, s64.log1pd(e, buffer)))


def _log_sigmoid32(e, x):
    b, zero = e.b, e.c(0.0)
    buffer = s32.expf(e, b.fneg(e.abs(x)), s32.K)
    m = b.select(b.fcmp_ordered("<", x, zero), x, zero)
    return _nan(e, b.fsub(m, s32.log1pf(e, buffer, s32.K)))


def _bce(log_sigmoid, one):
    def body(e, x, y):
        b = e.b
        loss = b.fmul(b.fsub(one(e), y), x)
        return _nan(e, b.fsub(loss, log_sigmoid(e, x)))

    return body


def _expk2f(e, d):
    """sleef_u10._expk2 (float32) of 0 <= d <= 9: exp(d) as a double-float."""
    b, f = e.b, e.fma
    q = b.fptosi(e.rint(b.fmul(d, e.c(K["r_ln2"]))), e.i)  # (|u| < 13: no INT_MIN)
    fq = b.sitofp(q, e.f)
    sx, sy = s32._add2_ff(e, d, b.fmul(fq, e.c(-K["l2u"])))
    sx, sy = _add2_pf(e, sx, sy, b.fmul(fq, e.c(-K["l2l"])))
    p = [e.c(v) for v in K["exp"]]
    u = f(f(f(p[0], sx, p[1]), sx, p[2]), sx, p[3])
    tx, ty = _add2_pf(e, *s32._mul_df(e, sx, sy, u), e.c(K["c1"]))
    tx, ty = _add2_pf(e, *_mul_pp(e, sx, sy, tx, ty), e.c(0.5))
    tx, ty = _add2_pp(e, sx, sy, *_mul_pp(e, *_squ(e, sx, sy), tx, ty))
    tx, ty = _add_fp(e, e.c(1.0), tx, ty)
    h = b.ashr(q, e.k(1))
    lo, hi = s32._pow2i(e, h), s32._pow2i(e, b.sub(q, h))
    return b.fmul(b.fmul(tx, lo), hi), b.fmul(b.fmul(ty, lo), hi)


def _add2_pf(e, xx, xy, y):
    b = e.b
    s = b.fadd(xx, y)
    v = b.fsub(s, xx)
    return s, b.fadd(b.fadd(b.fsub(xx, b.fsub(s, v)), b.fsub(y, v)), xy)


def _add2_pp(e, xx, xy, yx, yy):
    b = e.b
    s = b.fadd(xx, yx)
    v = b.fsub(s, xx)
    return s, b.fadd(b.fadd(b.fsub(xx, b.fsub(s, v)), b.fsub(yx, v)), b.fadd(xy, yy))


def _add_fp(e, x, yx, yy):
    b = e.b
    s = b.fadd(x, yx)
    return s, b.fadd(b.fadd(b.fsub(x, s), yx), yy)


def _mul_pp(e, xx, xy, yx, yy):
    s = e.b.fmul(xx, yx)
    return s, e.fma(xx, yy, e.fma(xy, yx, e.fma(xx, yx, e.b.fneg(s))))


def _squ(e, xx, xy):
    b = e.b
    s = b.fmul(xx, xx)
    return s, e.fma(b.fadd(xx, xx), xy, e.fma(xx, xx, b.fneg(s)))


def _tanh32(e, x):
    """erf_tanh.sleef_tanh (float32) of x; a NaN x flagged (its result is SLEEF's bits)."""
    b = e.b
    e.flag(b.fcmp_unordered("uno", x, x))
    a = e.abs(x)
    big = b.fcmp_unordered(">", a, e.c(K["tanh_limit"]))
    a = e.sel(big, e.c(0.0), a)  # (its result replaced by 1 below)
    dx, dy = _expk2f(e, a)
    one = e.c(1.0)
    ex = b.fdiv(one, dx)
    ey = b.fmul(ex, e.fma(b.fneg(dy), ex, e.fma(b.fneg(dx), ex, one)))
    nx, ny = s32._add_dd(e, dx, dy, b.fneg(ex), b.fneg(ey))
    mx, my = s32._add_dd(e, dx, dy, ex, ey)
    qx, qy = s32._div_dd(e, nx, ny, mx, my)
    y = b.fadd(qx, qy)
    y = e.sel(b.or_(big, b.fcmp_unordered("uno", y, y)), one, y)
    neg = b.icmp_signed("<", e.bits(x), e.k(0))
    return e.sel(neg, b.fneg(y), y)


def _gelu_inner32(e, x):
    b = e.b
    x3 = b.fmul(b.fmul(x, x), x)
    return b.fmul(e.c(K["beta"]), e.fma(e.c(K["kappa"]), x3, x))


def _gelu_tanh32(e, x):
    b = e.b
    t = _tanh32(e, _gelu_inner32(e, x))
    return _nan(e, b.fmul(b.fmul(e.c(0.5), x), b.fadd(e.c(1.0), t)))


def _gelu_tanh_grad32(e, g, x):
    b = e.b
    one = e.c(1.0)
    th = _tanh32(e, _gelu_inner32(e, x))
    left = b.fmul(e.c(0.5), x)
    dleft = b.fmul(e.c(0.5), b.fadd(one, th))
    dtanh = e.fma(b.fneg(th), th, one)
    dinner = b.fmul(e.c(K["beta"]), e.fma(e.c(K["kappa3"]), b.fmul(x, x), one))
    return _nan(e, b.fmul(g, b.fadd(dleft, b.fmul(b.fmul(left, dtanh), dinner))))


def _softplus_tanh32(e, x):
    """tanh(log1p(exp(x))) as mish's kernels compute it (float32)."""
    return _tanh32(e, s32.log1pf(e, s32.expf(e, x, s32.K), s32.K))


def _erf64(e, a):
    """erf_tanh.sleef_erfd (Sleef_erfd4_u10) of a; a NaN flagged.  |a| is clamped at 6
    first (the lanes from 6 up are 1 after); expk's result taken where |a| > 2.5."""
    b, c, o, f = e.b, e.d, _dd(e), e.fma64
    e.flag(b.fcmp_unordered("uno", a, a))
    x0 = b.call(e.fabs, [a])
    x = b.select(b.fcmp_ordered("<", x0, c(6.0)), x0, c(6.0))
    x2 = b.fmul(x, x)
    x4 = b.fmul(x2, x2)
    x8 = b.fmul(x4, x4)
    x16 = b.fmul(x8, x8)
    small = b.fcmp_ordered("<=", x, c(2.5))

    def pick(pair):
        return b.select(small, c(pair[0]), c(pair[1]))

    k = [pick(p) for p in zip(K64["erf_small"], K64["erf_large"])]

    def poly4(c3, c2, c1, c0):
        return f(x2, f(x, c3, c2), f(x, c1, c0))

    def poly8(cs):
        return f(x4, poly4(*cs[:4]), poly4(*cs[4:8]))

    t = f(x16, f(x4, k[0], poly4(*k[1:5])), f(x8, poly8(k[5:13]), poly8(k[13:21])))
    dd = [(pick((sm[0], lg[0])), pick((sm[1], lg[1])))
          for sm, lg in zip(K64["erf_dd_small"], K64["erf_dd_large"])]  # fmt: skip
    s0 = b.fmul(t, x)
    hx, hy = o["add_pp"](*dd[0], s0, f(c(0.0), x, f(t, x, b.fneg(s0))))
    lx, ly = o["add_pp"](*dd[2], *o["mul_pf"](*dd[1], x))
    px, py = o["add_pp"](lx, ly, *o["mul_pf"](hx, hy, b.fmul(x, x)))
    tx, ty = o["add_fp"](c(1.0), *o["mul_pf"](px, py, x))
    for _ in range(4):
        tx, ty = o["squ"](tx, ty)
    q = b.fdiv(c(1.0), tx)
    rx, ry = q, b.fmul(q, f(b.fneg(ty), q, f(b.fneg(tx), q, c(1.0))))
    big = b.not_(small)
    rx = b.select(big, expk(e, px, py), rx)  # (erf_tanh._expk's steps)
    ry = b.select(big, c(0.0), ry)
    sx, sy = o["add2_pf"](rx, ry, c(-1.0))
    z = b.fneg(b.fadd(sx, sy))
    z = b.select(b.fcmp_ordered("<", x0, c(1e-8)), b.fmul(x0, c(K64["two_rsqrt_pi"])), z)
    z = b.select(b.fcmp_ordered(">=", x0, c(6.0)), c(1.0), z)
    z = b.select(b.fcmp_ordered("==", a, c(0.0)), c(0.0), z)
    neg = b.icmp_signed("<", b.bitcast(a, e.i64), e.ir.Constant(e.i64, 0))
    return b.select(neg, b.fneg(z), z)


def _gelu_erf64(e, x):
    """gelu._forward's vector code (float64, erf): x * 1/2 * (1 + erf(x / sqrt(2)))."""
    b, c = e.b, e.d
    r = _erf64(e, b.fmul(x, c(K64["sqrt1_2"])))
    return _nan(e, b.fmul(b.fmul(x, c(0.5)), b.fadd(c(1.0), r)))


def _gelu_erf_grad64(e, g, x):
    """gelu._backward's vector code (float64, erf): g * fma(x, pdf, cdf), cdf = 1/2 *
    (1 + erf(x / sqrt(2))), pdf = beta * exp(x * x * -1/2) (SLEEF's exp)."""
    b, c = e.b, e.d
    cdf = b.fmul(c(0.5), b.fadd(c(1.0), _erf64(e, b.fmul(x, c(K64["sqrt1_2"])))))
    pdf = b.fmul(c(K64["beta_erf"]), s64.expd(e, b.fmul(b.fmul(x, x), c(-0.5))))
    return _nan(e, b.fmul(g, e.fma64(x, pdf, cdf)))


def _expm1_64(e, a):
    """sleef_u10.sleef_expm1 (float64, Sleef_expm1d4_u10) of a, as _expm1_32 (expk2's
    double-double exp minus 1, its bounds' values in their place; a NaN flagged)."""
    b, c, o = e.b, e.d, _dd(e)
    hi, lo = c(K64["expm1_hi"]), c(K64["expm1_lo"])
    d = b.select(b.fcmp_ordered("<", hi, a), hi, a)
    d = b.select(b.fcmp_ordered("<", d, lo), lo, d)
    dx, dy = _expk2d(e, d)
    sx, sy = o["add2_pf"](dx, dy, c(-1.0))
    x = b.fadd(sx, sy)
    x = b.select(b.fcmp_ordered("<", hi, a), c(np.inf), x)
    x = b.select(b.fcmp_ordered("<", a, lo), c(-1.0), x)
    negzero = b.icmp_unsigned("==", b.bitcast(a, e.i64), e.ir.Constant(e.i64, -(2**63)))
    return _nan(e, b.select(negzero, c(-0.0), x))


def _mish32(e, x):
    """activation_smooth._mish's vector code: x * tanh(log1p(exp(x)))."""
    return _nan(e, e.b.fmul(x, _softplus_tanh32(e, x)))


def _mish_grad32(e, g, x):
    """activation_smooth.mish_backward's vector code: g * fma(x * s, fma(-t, t, 1), t),
    s = 1 / (1 + exp(-x)), t = tanh(log1p(exp(x)))."""
    b, one = e.b, e.c(1.0)
    s = b.fdiv(one, b.fadd(one, s32.expf(e, b.fneg(x), s32.K)))
    t = _softplus_tanh32(e, x)
    inner = e.fma(b.fneg(t), t, one)
    return _nan(e, b.fmul(g, e.fma(b.fmul(x, s), inner, t)))


def _expm1_32(e, a):
    """sleef_u10.sleef_expm1 (float32, Sleef_expm1f8_u10) of a: expk2f(a) - 1 in
    double-float, inf above its overflow bound, -1 below its lower one, -0 kept; a NaN
    flagged.  (expk2f's steps are its own for any a: out of the bounds the lanes are
    clamped first, their result replaced after.)"""
    b = e.b
    hi, lo = e.c(K["expm1_hi"]), e.c(K["expm1_lo"])
    d = e.sel(e.lt(hi, a), hi, a)
    d = e.sel(e.lt(d, lo), lo, d)
    dx, dy = _expk2f(e, d)
    sx, sy = _add2_pf(e, dx, dy, e.c(-1.0))
    x = b.fadd(sx, sy)
    x = e.sel(e.lt(hi, a), e.c(np.inf), x)
    x = e.sel(e.lt(a, lo), e.c(-1.0), x)
    negzero = b.icmp_unsigned("==", e.bits(a), e.k(-(2**31)))  # (-0.0's bits)
    return _nan(e, e.sel(negzero, e.c(-0.0), x))


def _exp_u20(e, x, fused):
    """erf_tanh.exp_u20 (float32) of x (fused=False: oneDNN's, x log2(e) + 1/2 rounded
    twice); a NaN x's result is a NaN, flagged by the caller."""
    b, f = e.b, e.fma
    below = e.lt(x, e.c(K["ln_flt_min"]))
    src = e.sel(e.lt(e.c(K["ln_flt_max"]), x), e.c(K["ln_flt_max"]), x)  # (NaN kept)
    src = e.sel(e.lt(src, e.c(K["ln_flt_min"])), e.c(K["ln_flt_min"]), src)
    if fused:
        fx = e.floor(f(src, e.c(K["log2e"]), e.c(0.5)))
    else:
        fx = e.floor(b.fadd(b.fmul(src, e.c(K["log2e"])), e.c(0.5)))
    p = f(b.fneg(fx), e.c(K["ln2f"]), src)
    u = K["u20"]
    r = f(p, e.c(u[0]), e.c(u[1]))
    for c in (*u[2:], 1.0):
        r = f(p, r, e.c(c))
    n = b.fptosi(b.fsub(fx, e.c(1.0)), e.i)
    two_n = e.from_bits(b.shl(b.add(n, e.k(127)), e.k(23)))
    two_n = e.sel(below, e.c(0.0), two_n)
    return b.fmul(b.fmul(r, two_n), e.c(2.0))


def _erf32(e, x, ex=None):
    """erf_tanh.vec_erf32 of x (ex: exp(-x^2) as the caller has it)."""
    b, f = e.b, e.fma
    t = b.fdiv(e.c(1.0), f(e.c(K["erf_p"]), e.abs(x), e.c(1.0)))
    a = K["erf_a"]
    r = f(e.c(a[0]), t, e.c(a[1]))
    for c in a[2:]:
        r = f(r, t, e.c(c))
    if ex is None:
        ex = _exp_u20(e, b.fneg(b.fmul(x, x)), True)
    v = f(b.fmul(t, b.fneg(ex)), r, e.c(1.0))
    neg = b.icmp_signed("<", e.bits(x), e.k(0))
    return e.sel(neg, b.fneg(v), v)


def _gelu_erf32(e, x):
    """gelu.onednn_gelu_erf of x."""
    b = e.b
    erf = _erf32(e, b.fmul(x, e.c(K["sqrt1_2"])))
    half = b.fmul(x, e.c(0.5))
    return _nan(e, e.fma(erf, half, half))


def _gelu_erf_grad32(e, g, x):
    """gelu.onednn_gelu_erf_backward of (g, x)."""
    b = e.b
    r = b.fmul(x, e.c(K["sqrt1_2"]))
    q = _exp_u20(e, b.fneg(b.fmul(r, r)), False)
    slope = b.fmul(b.fmul(r, e.c(K["inv_sqrt_pi"])), q)
    erf = _erf32(e, r, q)
    return _nan(e, b.fmul(e.fma(erf, e.c(0.5), b.fadd(slope, e.c(0.5))), g))


def _dd(e):
    """Emit's double-double steps, in sleef_u10's names and order."""
    b, f = e.b, e.fma64

    def add2_pf(xx, xy, y):
        s = b.fadd(xx, y)
        v = b.fsub(s, xx)
        return s, b.fadd(b.fadd(b.fsub(xx, b.fsub(s, v)), b.fsub(y, v)), xy)

    def add2_ff(x, y):
        s = b.fadd(x, y)
        v = b.fsub(s, x)
        return s, b.fadd(b.fsub(x, b.fsub(s, v)), b.fsub(y, v))

    def add2_pp(xx, xy, yx, yy):
        s = b.fadd(xx, yx)
        v = b.fsub(s, xx)
        return s, b.fadd(b.fadd(b.fsub(xx, b.fsub(s, v)), b.fsub(yx, v)), b.fadd(xy, yy))

    def add_fp(x, yx, yy):
        s = b.fadd(x, yx)
        return s, b.fadd(b.fadd(b.fsub(x, s), yx), yy)

    def add_pp(xx, xy, yx, yy):
        s = b.fadd(xx, yx)
        return s, b.fadd(b.fadd(b.fadd(b.fsub(xx, s), yx), xy), yy)

    def mul_pf(xx, xy, y):
        s = b.fmul(xx, y)
        return s, f(xy, y, f(xx, y, b.fneg(s)))

    def mul_pp(xx, xy, yx, yy):
        s = b.fmul(xx, yx)
        return s, f(xx, yy, f(xy, yx, f(xx, yx, b.fneg(s))))

    def squ(xx, xy):
        s = b.fmul(xx, xx)
        return s, f(b.fadd(xx, xx), xy, f(xx, xx, b.fneg(s)))

    def div(nx, ny, dx, dy):
        one = e.d(1.0)
        t = b.fdiv(one, dx)
        q = b.fmul(nx, t)
        u = f(t, nx, b.fneg(q))
        r = f(b.fneg(dy), t, f(b.fneg(dx), t, one))
        return q, f(q, r, f(ny, t, u))

    return {
        "add2_pf": add2_pf,
        "add2_ff": add2_ff,
        "add2_pp": add2_pp,
        "add_fp": add_fp,
        "add_pp": add_pp,
        "mul_pf": mul_pf,
        "mul_pp": mul_pp,
        "squ": squ,
        "div": div,
    }


def _expk2d(e, d):
    """sleef_u10._expk2 (float64) of 0 <= d <= 19: exp(d) as a double-double."""
    b, f, c, o = e.b, e.fma64, e.d, _dd(e)
    fq = b.call(e.rint64, [b.fmul(d, c(K64["r_ln2"]))])
    q = b.fptosi(fq, e.i32)  # (|fq| < 28: no INT_MIN)
    sx, sy = o["add2_ff"](d, b.fmul(fq, c(-K64["l2u"])))
    sx, sy = o["add2_pf"](sx, sy, b.fmul(fq, c(-K64["l2l"])))
    s2x, s2y = o["squ"](sx, sy)
    s4x, s4y = o["squ"](s2x, s2y)
    s8 = b.fmul(s4x, s4x)
    p = [c(v) for v in K64["exp"]]

    def poly4(c3, c2, c1, c0):
        return f(s2x, f(sx, c3, c2), f(sx, c1, c0))

    u = f(s8, f(sx, p[0], p[1]), f(s4x, poly4(*p[2:6]), poly4(*p[6:10])))
    tx, ty = o["add_fp"](c(0.5), *o["mul_pf"](sx, sy, c(K64["c1"])))
    tx, ty = o["add_fp"](c(1.0), *o["mul_pp"](tx, ty, sx, sy))
    tx, ty = o["add_fp"](c(1.0), *o["mul_pp"](tx, ty, sx, sy))
    tx, ty = o["add_pp"](tx, ty, *o["mul_pf"](s4x, s4y, u))
    h = b.ashr(q, e.ir.Constant(e.i32, 1))
    lo, hi = s64._pow2i64(e, h), s64._pow2i64(e, b.sub(q, h))
    return b.fmul(b.fmul(tx, lo), hi), b.fmul(b.fmul(ty, lo), hi)


def _tanh64(e, x):
    """erf_tanh.sleef_tanh (float64) of x; a NaN x flagged (its result is SLEEF's bits)."""
    b, c, o = e.b, e.d, _dd(e)
    e.flag(b.fcmp_unordered("uno", x, x))
    a = b.call(e.fabs, [x])
    big = b.fcmp_unordered(">", a, c(K64["tanh_limit"]))
    a = b.select(big, c(0.0), a)  # (its result replaced by 1 below)
    dx, dy = _expk2d(e, a)
    one = c(1.0)
    ex = b.fdiv(one, dx)
    ey = b.fmul(ex, e.fma64(b.fneg(dy), ex, e.fma64(b.fneg(dx), ex, one)))
    nx, ny = o["add2_pp"](dx, dy, b.fneg(ex), b.fneg(ey))
    mx, my = o["add2_pp"](dx, dy, ex, ey)
    qx, qy = o["div"](nx, ny, mx, my)
    y = b.fadd(qx, qy)
    y = b.select(b.or_(big, b.fcmp_unordered("uno", y, y)), one, y)
    neg = b.icmp_signed("<", b.bitcast(x, e.i64), e.ir.Constant(e.i64, 0))
    return b.select(neg, b.fneg(y), y)


def _gelu_inner64(e, x):
    b = e.b
    x3 = b.fmul(b.fmul(x, x), x)
    return b.fmul(e.d(K64["beta"]), e.fma64(e.d(K64["kappa"]), x3, x))


def _gelu_tanh64(e, x):
    b = e.b
    t = _tanh64(e, _gelu_inner64(e, x))
    return _nan(e, b.fmul(b.fmul(e.d(0.5), x), b.fadd(e.d(1.0), t)))


def _gelu_tanh_grad64(e, g, x):
    b, one = e.b, e.d(1.0)
    th = _tanh64(e, _gelu_inner64(e, x))
    left = b.fmul(e.d(0.5), x)
    dleft = b.fmul(e.d(0.5), b.fadd(one, th))
    dtanh = e.fma64(b.fneg(th), th, one)
    dinner = b.fmul(e.d(K64["beta"]), e.fma64(e.d(K64["kappa3"]), b.fmul(x, x), one))
    return _nan(e, b.fmul(g, b.fadd(dleft, b.fmul(b.fmul(left, dtanh), dinner))))


#: name -> (arguments, body(emit, *values), single)
KERNELS = {
    "sigmoid_d": (1, _sigmoid64, False),
    "sigmoid_f": (1, _sigmoid32, True),
    "log_sigmoid_d": (1, _log_sigmoid64, False),
    "log_sigmoid_f": (1, _log_sigmoid32, True),
    "bce_logits_d": (2, _bce(_log_sigmoid64, lambda e: e.d(1.0)), False),
    "bce_logits_f": (2, _bce(_log_sigmoid32, lambda e: e.c(1.0)), True),
    "gelu_tanh_d": (1, _gelu_tanh64, False),
    "gelu_tanh_f": (1, _gelu_tanh32, True),
    "gelu_tanh_grad_d": (2, _gelu_tanh_grad64, False),
    "gelu_tanh_grad_f": (2, _gelu_tanh_grad32, True),
    "gelu_erf_f": (1, _gelu_erf32, True),
    "expm1_f": (1, _expm1_32, True),
    "expm1_d": (1, _expm1_64, False),
    "gelu_erf_d": (1, _gelu_erf64, False),
    "gelu_erf_grad_d": (2, _gelu_erf_grad64, False),
    "mish_f": (1, _mish32, True),
    "mish_grad_f": (2, _mish_grad32, True),
    "gelu_erf_grad_f": (2, _gelu_erf_grad32, True),
}

F = np.float32
# the emulations' constants (tests/numerics/test_gelu_native.py checks that they are
# sleef_u10's and gelu's, which cannot be imported here: they import native.py)
K = {
    "r_ln2": F(1.442695040888963407359924681001892137426645954152985934135449406931),
    "l2u": F(0.693145751953125),
    "l2l": F(1.428606765330187045e-06),
    "exp": (F(0.1980960224e-3), F(0.1394256484e-2), F(0.8333456703e-2), F(0.4166637361e-1)),
    "c1": F(0.166666659414234244790680580464),
    "tanh_limit": F(8.664339742),
    "beta": F(0.7978845608028654),
    "kappa": F(0.044715),
    "kappa3": F(3) * F(0.044715),
    "expm1_hi": F(88.72283172607421875),
    "expm1_lo": F(-16.635532333438687426013570),
    # (oneDNN's GELU-erf: erf_tanh.vec_erf32 and exp_u20, gelu.onednn_gelu_erf)
    "ln_flt_min": np.array(0xC2AEAC50, np.uint32).view(F),
    "ln_flt_max": np.array(0x42B17218, np.uint32).view(F),
    "log2e": np.array(0x3FB8AA3B, np.uint32).view(F),
    "ln2f": np.array(0x3F317218, np.uint32).view(F),
    "u20": tuple(
        F(v) for v in (0.00828929059, 0.0418978221, 0.166676521, 0.499991506, 0.999999701)
    ),
    "erf_p": F(0.3275911),
    "erf_a": tuple(
        F(v) for v in (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)
    ),
    "sqrt1_2": F(0.7071067811865476),
    "inv_sqrt_pi": np.array(0x3F106EBA, np.uint32).view(F),
}
# and float64's
K64 = {
    "r_ln2": 1.442695040888963407359924681001892137426645954152985934135449406931,
    "l2u": 0.69314718055966295651160180568695068359375,
    "l2l": 0.28235290563031577122588448175013436025525412068e-12,
    "exp": (
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
    ),
    "c1": 0.1666666666666666574e0,
    "tanh_limit": 18.714973875,
    "two_rsqrt_pi": 1.12837916709551262756245475959,
    "sqrt1_2": math.sqrt(0.5),
    "beta_erf": (2 / math.sqrt(math.pi)) * math.sqrt(0.5) * 0.5,
    "expm1_hi": 709.782712893383996732223,
    "expm1_lo": -36.736800569677101399113302437,
    "beta": 0.7978845608028654,
    "kappa": 0.044715,
    "kappa3": 3 * 0.044715,
    # (erf_tanh.sleef_erfd's, tests/numerics/test_gelu_native.py checks them)
    "erf_small": (
        -2.083271002525222e-15,
        7.151909970790897e-14,
        -1.1622382201109994e-12,
        1.1864742308215853e-11,
        -8.499973178354613e-11,
        4.5076474625988416e-10,
        -1.808044474288849e-09,
        5.435081826716212e-09,
        -1.1439398957586285e-08,
        1.2154423626808892e-08,
        1.6698787561812504e-08,
        -9.808074602255194e-08,
        1.3890005578658372e-07,
        2.945514529987332e-07,
        -1.8429182730039983e-06,
        3.417987836115362e-06,
        3.860236356493129e-06,
        -3.3094030727499475e-05,
        0.00010608629225975795,
        0.00023232531552130762,
        0.00014901497191455447,
    ),
    "erf_large": (
        -4.024015130752622e-19,
        3.847193332817048e-17,
        -1.749316241455644e-15,
        5.029618322872873e-14,
        -1.0252214668514632e-12,
        1.5736955593319456e-11,
        -1.8846585580402037e-10,
        1.7981678530321593e-09,
        -1.3807453423550331e-08,
        8.525705726469103e-08,
        -4.1604480581013034e-07,
        1.5172726600085885e-06,
        -3.3416341273172017e-06,
        -2.5150233958797245e-06,
        6.539731269664908e-05,
        -0.00035510650974283887,
        0.0012107360979583689,
        -0.0026055669125799987,
        0.0012528232024360932,
        0.018201913952633132,
        -0.1021557155453466,
    ),
    "erf_dd_small": (
        (0.00928779583922756, 7.928755946396111e-19),
        (0.04227553175878469, 1.3785226620501015e-19),
        (0.07052369794346953, 9.58466280707921e-19),
    ),
    "erf_dd_large": (
        (-0.6369104438364175, -2.4249477526539433e-17),
        (-1.1282926061803962, -6.2970338860411e-17),
        (-1.2261313785184805e-05, -5.532970751449011e-22),
    ),
}


def kernel_ir(ir, mod, name):
    """i64 NAME(i64 n, T* x[, T* y], T* out, i8* flags) (KERNELS), as native_sleef's
    unary kernels: n a multiple of 8, flags per value, returns whether any is set."""
    nargs, body, single = KERNELS[name]
    if single:
        elem, emitter = ir.FloatType(), s32.Lanes
    else:
        elem, emitter = ir.DoubleType(), s64.Emit
    lanes_loop = s64.lanes_loop
    lanes_loop(ir, mod, name, nargs, lambda e, v: body(e, *v), elem, 8, emitter, True)
