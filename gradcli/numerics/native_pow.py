"""LLVM IR for `native.py` to compile: SLEEF's double `pow` (`Sleef_powd4_u10`) whole,
operation for operation the NumPy emulation `floats/sleef_powd._powd` (the same IEEE
operations in the same order: `logk` of |x| as a double-double, times y, `expk` of that,
then IEEE's special cases), in vectors of 8 doubles (`native_sleef.lanes_loop`; native.py
pads the values after the last whole vector): about 10 ns a value, where the emulation
costs 2-4 ms a call on the arrays of a training loop.

Its fused steps are `Emit.fma64`: the hardware's, flagged where the emulation's Dekker
split may not be the correctly rounded result.  Only the lanes whose result comes from
that arithmetic keep the flag (x finite and nonzero, y finite; every other lane's result
is one of the special cases' constants, computed here as the emulation's `where`s pick
them: the same bits), and the caller computes the flagged values alone with NumPy.  A NaN
result is one of two patterns: every bit set where x or y is a NaN (SLEEF ors a mask in),
else the product of a finite result with the emulation's NaN constant (a negative base
with a non-integer exponent), that constant itself.  Only `llvmlite.ir` objects are made
here (native.py passes its module in)."""

from __future__ import annotations

from .floats.sleef_pow_poly import EXP, LOG, LOG_C
from .floats.sleef_pow_poly import OVER as _OVER
from .native_sleef import _C_BIG, _TINY, LANES64, Emit, lanes_loop

_DBL_MIN, _TWO64 = 2.2250738585072014e-308, 18446744073709551616.0
_ALL_ONES = -1  # (as the bits of a double: a NaN)
_QNAN = 0x7FF8000000000000  # NumPy's nan

# the emulation's ln2 constants (tests/numerics/test_native_pow.py checks that they are
# sleef_u10's, which cannot be imported here: it imports native.py); its polynomials are
# floats/sleef_pow_poly.py's, as sleef_powd's
LN2 = (0.693147180559945286226764, 2.319046813846299558417771e-17)
R_LN2 = 1.442695040888963407359924681001892137426645954152985934135449406931
L2U = 0.69314718055966295651160180568695068359375
L2L = 0.28235290563031577122588448175013436025525412068e-12


class _DD:
    """sleef_u10's double-double steps on one Emit, their fused steps `fma` (checked) or
    Emit.fma64_in_range (`free`: where no check is needed)."""

    def __init__(self, e, free=False):
        self.e, self.b = e, e.b
        if free:
            self.fma = e.fma64_in_range

    def fma(self, a, x, c):
        """Emit.fma64 where every operand is known finite and far below 2^990 (see
        `powd`): the hardware's step, flagged where the product is nonzero and below
        2^-900 beside an addend below 2^-800 (Dekker's split of it underflows)."""
        e, b, d = self.e, self.b, self.e.d
        p = b.fmul(a, x)
        r = b.call(e._fma, [a, x, c])
        s = b.fadd(c, p)
        ap = b.call(e.fabs, [p])
        tiny = b.and_(b.fcmp_ordered("<", ap, d(_TINY)), b.fcmp_ordered("!=", ap, d(0.0)))
        e.flag(b.and_(tiny, b.fcmp_ordered("<", b.call(e.fabs, [c]), d(_C_BIG))))
        zero = b.and_(b.fcmp_ordered("==", r, d(0.0)), b.fcmp_ordered("==", s, d(0.0)))
        return b.select(zero, s, r)

    def add2_ff(self, x, y):
        b = self.b
        s = b.fadd(x, y)
        v = b.fsub(s, x)
        return s, b.fadd(b.fsub(x, b.fsub(s, v)), b.fsub(y, v))

    def add2_pf(self, xx, xy, y):
        b = self.b
        s = b.fadd(xx, y)
        v = b.fsub(s, xx)
        return s, b.fadd(b.fadd(b.fsub(xx, b.fsub(s, v)), b.fsub(y, v)), xy)

    def add_fp(self, x, yx, yy):
        b = self.b
        s = b.fadd(x, yx)
        return s, b.fadd(b.fadd(b.fsub(x, s), yx), yy)

    def add_pp(self, xx, xy, yx, yy):
        b = self.b
        s = b.fadd(xx, yx)
        return s, b.fadd(b.fadd(b.fadd(b.fsub(xx, s), yx), xy), yy)

    def mul_pf(self, xx, xy, y):
        b, f = self.b, self.fma
        s = b.fmul(xx, y)
        return s, f(xy, y, f(xx, y, b.fneg(s)))

    def mul_pp(self, xx, xy, yx, yy):
        b, f = self.b, self.fma
        s = b.fmul(xx, yx)
        return s, f(xx, yy, f(xy, yx, f(xx, yx, b.fneg(s))))

    def squ(self, xx, xy):
        b, f = self.b, self.fma
        s = b.fmul(xx, xx)
        return s, f(b.fadd(xx, xx), xy, f(xx, xx, b.fneg(s)))

    def div(self, nx, ny, dx, dy):
        b, f, c = self.b, self.fma, self.e.d
        t = b.fdiv(c(1.0), dx)
        q = b.fmul(nx, t)
        u = f(t, nx, b.fneg(q))
        r = f(b.fneg(dy), t, f(b.fneg(dx), t, c(1.0)))
        return q, f(q, r, f(ny, t, u))


def _k(e, t, v):
    return e.ir.Constant(t, v)


def _logk(e, d):
    """sleef_powd._logk: log(d) for d >= 0 as a double-double.  No fused step needs a
    check for 0 < d <= DBL_MAX (the lanes whose result is computed): the reduced mantissa
    m lies in [0.75, 1.5) and the exponent within +-1100, so every operand is below 2^11;
    and each product is 0 or above 2^-700: m - 1 is 0 or at least 2^-53 and 1 + m's
    error 0 or at least 2^-54, and each later term is a product or a rounded sum of
    earlier ones (at most 53 bits below its smallest part's last bit: the quotient's low
    part at least 2^-218 unless 0, its square's 2^-325, x^5's low part 2^-600, and
    x^16 at least 2^-880 beside a coefficient)."""
    b, c, i32, i64 = e.b, e.d, e.i32, e.i64
    dd = _DD(e, free=True)
    f = dd.fma
    o = b.fcmp_ordered("<", d, c(_DBL_MIN))
    d = b.select(o, b.fmul(d, c(_TWO64)), d)
    bits = b.bitcast(b.fmul(d, c(1.0 / 0.75)), i64)
    ex = b.sub(b.and_(b.ashr(bits, _k(e, i64, 52)), _k(e, i64, 0x7FF)), _k(e, i64, 0x3FF))
    ex = b.trunc(ex, i32)
    # vldexp3(d, -e): ((-e) << 20) as 32 bits added to the upper word of d's bits
    hi = b.shl(b.zext(b.shl(b.neg(ex), _k(e, i32, 20)), i64), _k(e, i64, 32))
    m = b.bitcast(b.add(b.bitcast(d, i64), hi), e.dbl)
    ex = b.select(o, b.sub(ex, _k(e, i32, 64)), ex)
    xx, xy = dd.div(*dd.add2_ff(c(-1.0), m), *dd.add2_ff(c(1.0), m))
    x2x, x2y = dd.squ(xx, xy)
    x4 = b.fmul(x2x, x2x)
    x8 = b.fmul(x4, x4)
    x16 = b.fmul(x8, x8)
    c8, c7, c6, c5, c4, c3, c2, c1, c0 = (c(v) for v in LOG)
    p8 = f(x8, f(x4, f(x2x, c7, c6), f(x2x, c5, c4)), f(x4, f(x2x, c3, c2), f(x2x, c1, c0)))
    t = f(x16, c8, p8)
    sx, sy = dd.mul_pf(c(LN2[0]), c(LN2[1]), b.sitofp(ex, e.dbl))
    sx, sy = dd.add_pp(sx, sy, b.fmul(xx, c(2.0)), b.fmul(xy, c(2.0)))
    xx, xy = dd.mul_pp(x2x, x2y, xx, xy)
    sx, sy = dd.add_pp(sx, sy, *dd.mul_pp(xx, xy, c(LOG_C[0]), c(LOG_C[1])))
    xx, xy = dd.mul_pp(x2x, x2y, xx, xy)
    return dd.add_pp(sx, sy, *dd.mul_pf(xx, xy, t))


def _pow2i(e, q):
    """sleef_u10._pow2i of int32 lanes: ((q + 0x3FF) << 20) in 32 bits (wrapping), as the
    upper word of a double."""
    b = e.b
    hi = b.shl(b.add(q, _k(e, e.i32, 0x3FF)), _k(e, e.i32, 20))
    return b.bitcast(b.shl(b.zext(hi, e.i64), _k(e, e.i64, 32)), e.dbl)


def _expk(e, dx, dy):
    """sleef_powd._expk: exp(dx + dy) to one double.  The polynomial's fused steps need
    no check (|s| <= 0.35 where the result is computed: each addend a coefficient or a
    sum near one, far above 2^-800); the low part's (squ, mul_pf) may be tiny and are
    checked."""
    b, c, f = e.b, e.d, e.fma64_in_range
    dd = _DD(e)
    dq = b.call(e.rint64, [b.fmul(b.fadd(dx, dy), c(R_LN2))])
    small = b.fcmp_ordered("<", b.call(e.fabs, [dq]), c(2.0**31))
    q = b.select(small, b.fptosi(dq, e.i32), _k(e, e.i32, -(2**31)))
    sx, sy = dd.add2_pf(dx, dy, b.fmul(dq, c(-L2U)))
    sx, sy = dd.add2_pf(sx, sy, b.fmul(dq, c(-L2L)))
    s = b.fadd(sx, sy)
    sx, sy = s, b.fadd(b.fsub(sx, s), sy)
    s2 = b.fmul(sx, sx)
    s4 = b.fmul(s2, s2)
    s8 = b.fmul(s4, s4)
    c9, c8, c7, c6, c5, c4, c3, c2, c1, c0 = (c(v) for v in EXP)
    p8 = f(s4, f(s2, f(sx, c7, c6), f(sx, c5, c4)), f(s2, f(sx, c3, c2), f(sx, c1, c0)))
    u = f(s8, f(sx, c9, c8), p8)
    tx, ty = dd.add_fp(c(1.0), sx, sy)
    tx, ty = dd.add_pp(tx, ty, *dd.mul_pf(*dd.squ(sx, sy), u))
    h = b.ashr(q, _k(e, e.i32, 1))
    r = b.fmul(b.fmul(b.fadd(tx, ty), _pow2i(e, h)), _pow2i(e, b.sub(q, h)))
    return b.select(b.fcmp_ordered("<", dx, c(-1000.0)), c(0.0), r)


def powd(e, x, y):
    """sleef_powd._powd of one lane of x and y."""
    b, c, i64 = e.b, e.d, e.i64
    inf = float("inf")
    ry = b.call(e.rint64, [y])
    yisint = b.fcmp_ordered("==", ry, y)
    half = b.fmul(y, c(0.5))
    yisodd = b.and_(b.fcmp_unordered("!=", b.call(e.rint64, [half]), half), yisint)
    ax = b.call(e.fabs, [x])
    lx, ly = _logk(e, ax)
    dx = b.fmul(lx, y)  # (mul_pf with Emit's whole check: y may be any double)
    dy = e.fma64(ly, y, e.fma64(lx, y, b.fneg(dx)))
    r = _expk(e, dx, dy)
    r = b.select(b.fcmp_ordered(">", dx, c(_OVER)), c(inf), r)
    nan = b.bitcast(_k(e, i64, _QNAN), e.dbl)
    sign = b.select(yisint, b.select(yisodd, c(-1.0), c(1.0)), nan)
    r = b.fmul(r, b.select(b.fcmp_ordered(">", x, c(0.0)), c(1.0), sign))
    ysign = b.icmp_signed("<", b.bitcast(y, i64), _k(e, i64, 0))
    efx = b.fsub(ax, c(1.0))
    efx = b.select(ysign, b.fneg(efx), efx)
    yinf = b.fcmp_ordered("==", b.call(e.fabs, [y]), c(inf))
    lim_y = b.select(b.fcmp_ordered("==", efx, c(0.0)), c(1.0), c(inf))
    lim_y = b.select(b.fcmp_ordered("<", efx, c(0.0)), c(0.0), lim_y)
    r = b.select(yinf, lim_y, r)
    zx = b.fcmp_ordered("==", x, c(0.0))
    lim = b.select(b.xor(ysign, zx), c(0.0), c(inf))
    xsign = b.icmp_signed("<", b.bitcast(x, i64), _k(e, i64, 0))
    lim = b.select(b.and_(yisodd, xsign), b.fneg(lim), lim)
    xinf = b.fcmp_ordered("==", ax, c(inf))
    r = b.select(b.or_(xinf, zx), lim, r)
    anynan = b.fcmp_unordered("uno", x, y)
    r = b.select(anynan, b.bitcast(_k(e, i64, _ALL_ONES), e.dbl), r)
    one = b.or_(b.fcmp_ordered("==", y, c(0.0)), b.fcmp_ordered("==", x, c(1.0)))
    r = b.select(one, c(1.0), r)
    # Only the lanes whose result is the arithmetic's keep its flags: x finite and
    # nonzero, y finite and nonzero, x not 1, and -1000 <= dx <= _OVER.  There logk's
    # argument is a positive finite double (its steps' operands: the reduced mantissa in
    # [0.75, 1.5), its exponent, the polynomial's terms, all below 2^11: `_logk`), y's
    # steps have Emit's whole check, and expk's argument is below 1000 with a correct
    # low part (its operands below 2^11 too), so the light check of `_DD.fma` is the
    # emulation's.
    computed = b.and_(b.fcmp_ordered("<", ax, c(inf)), b.fcmp_ordered("!=", x, c(0.0)))
    computed = b.and_(computed, b.fcmp_ordered("<", b.call(e.fabs, [y]), c(inf)))
    computed = b.and_(computed, b.not_(one))
    computed = b.and_(computed, b.fcmp_ordered(">=", dx, c(-1000.0)))
    computed = b.and_(computed, b.fcmp_ordered("<=", dx, c(_OVER)))
    e.bad = b.and_(e.bad, computed)
    return r


def binary(ir, mod, name):
    """i64 NAME(i64 n, double* x, double* y, double* out, i8* flags): out[i] =
    powd(x[i], y[i]), flags[i] = 1 where the value set the flag (the caller computes it
    with NumPy); returns whether any value did."""
    lanes_loop(ir, mod, name, 2, lambda e, v: powd(e, *v), ir.DoubleType(), LANES64, Emit, True)
