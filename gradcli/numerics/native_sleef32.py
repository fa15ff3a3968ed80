"""LLVM IR for `native.py` to compile: SLEEF's float32 `expf`, `logf` and `log1pf` whole,
operation for operation the NumPy emulations `floats/sleef_explog.expf`, `.logf` and
`floats/sleef_u10.sleef_log1p` (float32), in 8-float vectors (native.py pads the values
after the last whole vector).  Vectors are written in the IR
itself, so LLVM's code generation alone (native.py runs no optimising passes) makes AVX
code of them: 0.5-4 ns a value, where the emulation costs 20-80 ns a value and about
0.25 ms a call on small arrays.

Their fused steps are the hardware's float32 FMA.  fma32's emulation (the double product,
exact, and the double sum rounded to float32 with its midpoint correction) is the
correctly rounded result wherever that result is a normal float32 (above 2^-126 in
magnitude: the double sum's rounding point is then float32's), where the product or the
addend is 0 (the result is the other, plus a signed zero: the double sum is exact, and
rounded once), and where the result is an exact 0 (an addend of at least 2^-100
cancelled: a nonzero exact sum that small cannot come from a product of float32s
cancelling it).  Any other step (a subnormal or zero result of
nonzero terms, an infinity, a NaN) sets the value's flag, and so does an input outside
the range the kernel computes (NaN, infinities, the limits its `where`s replace); the
caller then computes the flagged values alone with NumPy.  Only `llvmlite.ir` objects are made
here (native.py passes its module in)."""

from __future__ import annotations

import numpy as np

from .native_sleef import Emit, lanes_loop

F = np.float32
_FLT_MAX, _FLT_MIN = float(np.finfo(F).max), 2.0**-126
_BIG_ADDEND = 2.0**-100  # an addend this large cancelled to 0 by a product is exactly 0
LANES = 8


class Lanes:
    """IR for `w` float32 lanes (a vector of w, or a scalar when w is 1): IEEE float32
    arithmetic as written, fused steps by the hardware, and a flag per lane."""

    def __init__(self, ir, mod, b, w):
        self.ir, self.mod, self.b, self.w = ir, mod, b, w
        vec = (lambda t: ir.VectorType(t, w)) if w > 1 else (lambda t: t)
        self.f, self.i, self.i1 = vec(ir.FloatType()), vec(ir.IntType(32)), vec(ir.IntType(1))
        self.bad = self.soft = ir.Constant(self.i1, 0)
        sfx = f"v{w}f32" if w > 1 else "f32"
        self._fma = _intrinsic(mod, ir, f"llvm.fma.{sfx}", self.f, 3)
        self._fabs = _intrinsic(mod, ir, f"llvm.fabs.{sfx}", self.f, 1)
        self._rint = _intrinsic(mod, ir, f"llvm.rint.{sfx}", self.f, 1)
        self._floor = _intrinsic(mod, ir, f"llvm.floor.{sfx}", self.f, 1)

    def c(self, v):
        """A float32 constant in every lane (v a float32 value)."""
        return self.ir.Constant(self.f, float(F(v)))

    def k(self, v):
        return self.ir.Constant(self.i, int(v))

    def flag(self, cond):
        self.bad = self.b.or_(self.bad, cond)

    def abs(self, x):
        return self.b.call(self._fabs, [x])

    def rint(self, x):
        return self.b.call(self._rint, [x])

    def floor(self, x):
        return self.b.call(self._floor, [x])

    def lt(self, x, y):
        return self.b.fcmp_ordered("<", x, y)

    def eq(self, x, y):
        return self.b.fcmp_ordered("==", x, y)

    def sel(self, cond, x, y):
        return self.b.select(cond, x, y)

    def bits(self, x):
        return self.b.bitcast(x, self.i)

    def from_bits(self, x):
        return self.b.bitcast(x, self.f)

    def fma_in_range(self, x, y, z):
        """fma.fma32(x, y, z) where the caller has shown that every lane is one where
        the emulation is the hardware's (see the module's docstring: a normal result, an
        operand 0, or an exact 0 of a large addend cancelled), or one whose result the
        kernel replaces after: the hardware's step alone, without `fma`'s test of each
        lane."""
        return self.b.call(self._fma, [x, y, z])

    def fma(self, x, y, z):
        """fma.fma32(x, y, z) of float32 values: the hardware's where it is the
        emulation's (see the module's docstring); in a vector with any other lane, the
        emulation's own steps in doubles (native_sleef.Emit.fma32) for those lanes, a
        NaN flagged."""
        b, ir = self.b, self.ir
        r = b.call(self._fma, [x, y, z])
        ar = self.abs(r)
        zero = self.c(0.0)
        easy = b.or_(b.fcmp_ordered(">", ar, self.c(_FLT_MIN)), self.eq(x, zero))
        easy = b.or_(b.or_(easy, self.eq(y, zero)), self.eq(z, zero))
        cancelled = b.and_(self.eq(r, zero), b.fcmp_ordered(">=", self.abs(z), self.c(_BIG_ADDEND)))
        easy = b.and_(b.or_(easy, cancelled), b.fcmp_ordered("<=", ar, self.c(_FLT_MAX)))
        hard = b.not_(easy)
        mask = ir.IntType(self.w)
        before = b.block
        with b.if_then(b.icmp_unsigned("!=", b.bitcast(hard, mask), ir.Constant(mask, 0))):
            e = Emit(ir, self.mod, b, self.w)
            emu = e.fma32(*(b.fpext(v, e.dbl) for v in (x, y, z)))
            r2 = b.select(hard, emu, r)
            nan = b.and_(hard, e.bad)
            slow = b.block
        got, flagged, took = b.phi(self.f), b.phi(self.i1), b.phi(self.i1)
        got.add_incoming(r, before)
        got.add_incoming(r2, slow)
        none = ir.Constant(self.i1, 0)
        flagged.add_incoming(none, before)
        flagged.add_incoming(nan, slow)
        took.add_incoming(none, before)
        took.add_incoming(hard, slow)
        self.flag(flagged)
        # (NumPy's step of 0-d operands is their exact value rounded once, not the
        # emulation's: native.unary computes a 0-d array with NumPy where this is set)
        self.soft = b.or_(self.soft, took)
        return got


def _intrinsic(mod, ir, name, t, nargs):
    g = mod.globals.get(name)
    if g is None:
        g = ir.Function(mod, ir.FunctionType(t, [t] * nargs), name=name)
    return g


# ------------------------------------------------------------------------- kernels
# (each the NumPy emulation's operations in its order, with its constants: `K`)


def expf(e, d, k):
    """sleef_explog.expf (finite inputs; flagged otherwise)."""
    b = e.b
    e.flag(b.not_(b.fcmp_ordered("<=", e.abs(d), e.c(_FLT_MAX))))
    u = e.rint(b.fmul(d, e.c(k["r_ln2"])))
    small = e.lt(e.abs(u), e.c(2.0**31))
    q = e.sel(small, b.fptosi(u, e.i), e.k(-(2**31)))
    fq = b.sitofp(q, e.f)
    # Every fused step below is one whose emulation is the hardware's (Lanes.fma_in_range)
    # for -104 <= d <= 100 (other lanes' results are replaced at the end): |q| <= 150;
    # with q = 0 the first step's operand fq is 0, else its terms (d - q l2u, exact,
    # and q l2l, at least 1.4e-6) are multiples of about 2^-48, so its result is 0 (a
    # large addend cancelled) or normal.  The Horner steps add coefficients of at
    # least 1.9e-4 to products below 0.04 (|s| <= 0.35): normal results.  The last
    # adds s to s * s * u, far smaller: s subnormal or 0 makes s * s 0 (an operand 0),
    # else the result is about s, normal.
    f = e.fma_in_range
    s = b.fadd(d, b.fmul(fq, e.c(-k["l2u"])))
    s = f(fq, e.c(-k["l2l"]), s)
    coef = k["exp"]
    u = e.c(coef[0])
    for cv in coef[1:]:
        u = f(u, s, e.c(cv))
    u = b.fadd(e.c(1.0), f(b.fmul(s, s), u, s))
    h = b.ashr(q, e.k(1))
    u = b.fmul(b.fmul(u, _pow2i(e, h)), _pow2i(e, b.sub(q, h)))
    u = e.sel(e.lt(d, e.c(-104.0)), e.c(0.0), u)
    return e.sel(e.lt(e.c(100.0), d), e.c(np.inf), u)


def _pow2i(e, q):
    return e.from_bits(e.b.shl(e.b.add(q, e.k(0x7F)), e.k(23)))


def _split_exp(e, d, k):
    """(e, m): SLEEF's vilogb2k / vldexp3 split of d > 0 (subnormals scaled first), as
    sleef_pow._logk_split."""
    b = e.b
    o = e.lt(d, e.c(k["flt_min"]))
    d = e.sel(o, b.fmul(d, e.c(k["two64"])), d)
    ex = b.sub(b.and_(b.ashr(e.bits(b.fmul(d, e.c(k["r75"]))), e.k(23)), e.k(0xFF)), e.k(0x7F))
    m = e.from_bits(b.add(e.bits(d), b.shl(b.neg(ex), e.k(23))))
    return e.sel(o, b.sub(ex, e.k(64)), ex), m


def _add2_ff(e, x, y):
    b = e.b
    s = b.fadd(x, y)
    v = b.fsub(s, x)
    return s, b.fadd(b.fsub(x, b.fsub(s, v)), b.fsub(y, v))


def _mul_df(e, xx, xy, y):
    """sleef_pow._mul_df and sleef_u10._mul_pf (float32): (xx*y, fma(xy, y, fma(xx, y, -s)))."""
    s = e.b.fmul(xx, y)
    return s, e.fma(xy, y, e.fma(xx, y, e.b.fneg(s)))


def _div_dd(e, nx, ny, dx, dy):
    """sleef_pow._div_dd and sleef_u10._div (float32, the same operations)."""
    b = e.b
    t = b.fdiv(e.c(1.0), dx)
    s = b.fmul(nx, t)
    u = e.fma(t, nx, b.fneg(s))
    v = e.fma(b.fneg(dy), t, e.fma(b.fneg(dx), t, e.c(1.0)))
    return s, e.fma(s, v, e.fma(ny, t, u))


def _add_dd(e, xx, xy, yx, yy):
    b = e.b
    s = b.fadd(xx, yx)
    return s, b.fadd(b.fadd(b.fadd(b.fsub(xx, s), yx), xy), yy)


def logf(e, d, k):
    """sleef_explog.logf of 0 < d <= FLT_MAX (flagged otherwise)."""
    b = e.b
    e.flag(b.not_(b.and_(b.fcmp_ordered(">", d, e.c(0.0)), b.fcmp_ordered("<=", d, e.c(_FLT_MAX)))))
    ex, m = _split_exp(e, d, k)
    lhi, llo = k["ln2"]
    sx, sy = _mul_df(e, e.c(lhi), e.c(llo), b.sitofp(ex, e.f))
    xx, xy = _div_dd(e, *_add2_ff(e, e.c(-1.0), m), *_add2_ff(e, e.c(1.0), m))
    x2 = b.fmul(xx, xx)
    p0, p1, p2 = (e.c(v) for v in k["log"])
    t = e.fma(e.fma(p0, x2, p1), x2, p2)
    two = e.c(2.0)
    sx, sy = _add_dd(e, sx, sy, b.fmul(xx, two), b.fmul(xy, two))
    w = b.fmul(b.fmul(x2, xx), t)
    s = b.fadd(sx, w)
    sy = b.fadd(b.fadd(b.fsub(sx, s), w), sy)
    return b.fadd(s, sy)


def log1pf(e, d, k):
    """sleef_u10.sleef_log1p of float32 -1 < d <= 1e38 (flagged otherwise)."""
    b = e.b
    e.flag(
        b.not_(b.and_(b.fcmp_ordered(">", d, e.c(-1.0)), b.fcmp_ordered("<=", d, e.c(k["bound"]))))
    )
    one = e.c(1.0)
    dp1 = b.fadd(d, one)
    o = e.lt(dp1, e.c(k["tiny"]))
    dp1 = e.sel(o, b.fmul(dp1, e.c(k["big"])), dp1)
    ex = b.sub(b.and_(b.ashr(e.bits(b.fmul(dp1, e.c(k["r75"]))), e.k(23)), e.k(0xFF)), e.k(0x7F))
    s = e.from_bits(b.add(e.bits(one), b.shl(b.neg(ex), e.k(23))))
    m = e.fma(d, s, b.fsub(s, one))
    ex = e.sel(o, b.sub(ex, e.k(64)), ex)
    # _div(m, 0, *_add_ff(2, m))
    two = e.c(2.0)
    dx = b.fadd(two, m)
    dy = b.fadd(b.fsub(two, dx), m)
    xx, xy = _div_dd(e, m, e.c(0.0), dx, dy)
    # _log_tail
    lhi, llo = k["ln2"]
    sx, sy = _mul_df(e, e.c(lhi), e.c(llo), b.sitofp(ex, e.f))
    x2 = b.fmul(xx, xx)
    p0, p1, p2 = (e.c(v) for v in k["log1p"])
    u = e.fma(e.fma(p0, x2, p1), x2, p2)
    sx, sy = _add_dd(e, sx, sy, b.fmul(xx, two), b.fmul(xy, two))
    y = b.fmul(b.fmul(x2, xx), u)
    s = b.fadd(sx, y)
    sy = b.fadd(b.fadd(b.fsub(sx, s), y), sy)
    r = b.fadd(s, sy)
    negzero = b.icmp_signed("==", e.bits(d), e.k(-(2**31)))
    return e.sel(negzero, e.c(-0.0), r)


KERNELS = {"expf": expf, "logf": logf, "log1pf": log1pf}


def fma32h(e, x, y, z, k):
    """The fused step alone (the tests compare it with fma32's emulation)."""
    return e.fma(x, y, z)


def unary(ir, mod, name, kind):
    """i64 NAME(i64 n, float* x, float* out, i8* flags): out[i] = KIND(x[i]), flags[i] =
    1 where the value set the flag (the caller computes it with NumPy); returns whether
    any value did."""
    fn_ir = KERNELS[kind]
    lanes_loop(ir, mod, name, 1, lambda e, v: fn_ir(e, v[0], K), ir.FloatType(), LANES, Lanes, True)


def ternary(ir, mod, name):
    """i64 NAME(i64 n, float* x, float* y, float* z, float* out): the fused step."""
    lanes_loop(ir, mod, name, 3, lambda e, v: fma32h(e, *v, None), ir.FloatType(), LANES, Lanes)


# the emulations' constants (tests/numerics/test_native32.py checks that they are
# sleef_explog's, sleef_pow's and sleef_u10's, which cannot be imported here: they
# import native.py)
K = {
    "r_ln2": F(1.442695040888963407359924681001892137426645954152985934135449406931),
    "l2u": F(0.693145751953125),
    "l2l": F(1.428606765330187045e-06),
    "exp": (
        F(0.000198527617612853646278381),
        F(0.00139304355252534151077271),
        F(0.00833336077630519866943359),
        F(0.0416664853692054748535156),
        F(0.166666671633720397949219),
        F(0.5),
    ),
    "log": (F(0.3027294874), F(0.3996108174), F(0.6666694880)),
    "ln2": (F(0.69314718246459960938), F(-1.904654323148236017e-09)),
    "flt_min": F(1.17549435e-38),
    "two64": F(18446744073709551616.0),
    "r75": F(1.0) / F(0.75),
    "tiny": F(1.17549435e-38),
    "big": F(18446744073709551616.0),
    "log1p": (F(0.3027294874), F(0.3996108174), F(0.6666694880)),
    "bound": F(1e38),
}
