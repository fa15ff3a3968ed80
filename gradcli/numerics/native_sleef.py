"""LLVM IR for `native.py` to compile: the fused steps of `floats/fma.py` (the double one
with the hardware instruction where the emulation is exact, the float32 one by fma32's
own algorithm, midpoints included), and SLEEF's `Sleef_expd4_u10`, `Sleef_log1pd4_u10`
and `Sleef_logd4_u10` whole, operation for operation the NumPy emulations
`floats/torch_exp.expd`, `floats/sleef_u10.sleef_log1p` and `sleef_u10.sleef_log` (the
same IEEE operations in the same order), in vectors of 8 doubles written in the IR
itself (`lanes_loop`; native.py pads the values after the last whole vector), so that LLVM's code generation alone (native.py runs no optimising passes) makes AVX code
of them: 1-10 ns a value (exp 1.2, log 2, log1p 10), where the emulation costs 150-190 ns.

A value for which the emulation might differ (a NaN or infinite input, a fused step that
the emulation cannot split) sets its flag (one byte a value, written beside the results),
and the caller computes those values alone with NumPy, keeping the others.  Only `llvmlite.ir` objects are made here (no import of llvmlite:
native.py passes its module in)."""

from __future__ import annotations

_BIG, _TINY = 2.0**990, 2.0**-900  # fma.unsplittable's bounds
_C_BIG = 2.0**-800  # an addend beside which a product below _TINY is far below half an ulp
_DBL_MAX = 1.7976931348623157e308


class Emit:
    """IR for one element, or for `w` of them in a vector: arithmetic as written, fused
    steps as fma.py, and a flag (per lane)."""

    def __init__(self, ir, mod, b, w=1):
        self.ir, self.b = ir, b
        vec = (lambda t: ir.VectorType(t, w)) if w > 1 else (lambda t: t)
        self.dbl, self.flt = vec(ir.DoubleType()), vec(ir.FloatType())
        self.i32, self.i64 = vec(ir.IntType(32)), vec(ir.IntType(64))
        self.bad = self.soft = ir.Constant(vec(ir.IntType(1)), 0)
        sfx = f"v{w}f64" if w > 1 else "f64"
        self.fabs = _intrinsic(mod, ir, f"llvm.fabs.{sfx}", self.dbl, 1)
        self.rint64 = _intrinsic(mod, ir, f"llvm.rint.{sfx}", self.dbl, 1)
        self._fma = _intrinsic(mod, ir, f"llvm.fma.{sfx}", self.dbl, 3)

    def d(self, v):
        return self.ir.Constant(self.dbl, v)

    def flag(self, cond):
        self.bad = self.b.or_(self.bad, cond)

    def fma64(self, a, x, c):
        """fma.fma of doubles: the hardware's result, flagged where the emulation may
        not be it."""
        b, d = self.b, self.d
        p = b.fmul(a, x)
        r = b.call(self._fma, [a, x, c])
        s = b.fadd(c, p)
        ap = b.call(self.fabs, [p])
        easy = b.fcmp_ordered("<=", b.call(self.fabs, [a]), d(_BIG))
        easy = b.and_(easy, b.fcmp_ordered("<=", b.call(self.fabs, [x]), d(_BIG)))
        # a product the emulation can split, or one far below c's last bit (both give c)
        tiny_ok = b.or_(
            b.fcmp_ordered("==", ap, d(0.0)),
            b.fcmp_ordered(">=", b.call(self.fabs, [c]), d(_C_BIG)),
        )
        easy = b.and_(
            easy,
            b.or_(
                tiny_ok,
                b.and_(b.fcmp_ordered(">=", ap, d(_TINY)), b.fcmp_ordered("<=", ap, d(_DBL_MAX))),
            ),
        )
        easy = b.and_(easy, b.fcmp_ordered("<=", b.call(self.fabs, [c]), d(_DBL_MAX)))
        easy = b.and_(easy, b.fcmp_ordered("<=", b.call(self.fabs, [r]), d(_DBL_MAX)))
        self.flag(b.not_(easy))
        zero = b.and_(b.fcmp_ordered("==", r, d(0.0)), b.fcmp_ordered("==", s, d(0.0)))
        return b.select(zero, s, r)

    def fma64_in_range(self, a, x, c):
        """fma64 where the caller has shown that the emulation's conditions hold (no flag
        needed: operands far below 2^990, each product exactly zero (an operand is) or at
        least 2^-900 or beside an addend of at least 2^-800, nothing infinite): the
        hardware's step alone.  fma64's choice of the plain sum's signed zero is then the
        hardware's own: a zero result means the exact product is -c (a product beside a
        large addend leaves it nonzero), so the product is exact and c + p the same
        signed zero (fma64 needs the choice for a product that underflows to zero beside
        a zero addend, which cannot happen here).  Half the instructions of the exp and
        log kernels were that choice."""
        return self.b.call(self._fma, [a, x, c])

    def fma32(self, a, x, c):
        """fma.fma32 (its operands as doubles): the double product and sum, rounded to
        float32, a sum on a float32 midpoint moved one double towards the exact sum
        first; a NaN is flagged."""
        b, i64 = self.b, self.i64
        p = b.fmul(a, x)
        s = b.fadd(p, c)
        bits = b.bitcast(s, i64)
        low = b.and_(bits, self.ir.Constant(i64, 0x1FFFFFFF))
        mid = b.icmp_unsigned("==", low, self.ir.Constant(i64, 0x10000000))
        bb = b.fsub(s, p)
        err = b.fadd(b.fsub(p, b.fsub(s, bb)), b.fsub(c, bb))
        up, down = b.fcmp_ordered(">", err, self.d(0.0)), b.fcmp_ordered("<", err, self.d(0.0))
        pos = b.fcmp_ordered(">", s, self.d(0.0))
        # nextafter(s, +-inf) of a nonzero finite s: one step of its bits up or down
        step = b.select(
            b.icmp_unsigned("==", up, pos),
            self.ir.Constant(i64, 1),
            self.ir.Constant(i64, -1),
        )
        moved = b.bitcast(b.add(bits, step), self.dbl)
        s = b.select(b.and_(mid, b.or_(up, down)), moved, s)
        self.flag(b.fcmp_unordered("uno", s, s))
        return b.fptrunc(s, self.flt)


def expd(e, d):
    """torch_exp.expd of one double (flagging a NaN or infinite one)."""
    b, c = e.b, e.d
    e.flag(b.not_(b.fcmp_ordered("<=", b.call(e.fabs, [d]), c(_DBL_MAX))))
    u = b.call(e.rint64, [b.fmul(d, c(_R_LN2))])
    small = b.fcmp_ordered("<", b.call(e.fabs, [u]), c(2.0**31))
    q = b.select(small, b.fptosi(u, e.i32), e.ir.Constant(e.i32, -(2**31)))
    s = b.fadd(d, b.fmul(u, c(-_L2U)))
    # No fused step needs the emulation's flag on a finite d: for |d| <= 1000, |u| <= 1443
    # and the reduced s lies within +-0.35, so every operand is far below 2^990, the
    # first step's product is 0 (u = 0) or above 2^-43, and every later step adds a
    # coefficient or a sum of them (above 1e-5) or 0.5 or 1; beyond 1000 the last two
    # selects replace whatever the steps gave (inf above 709.78, 0 below -1000), in
    # the emulation as here.  (The flagged fma64 cost two thirds of the kernel's
    # instructions.)
    s = e.fma64_in_range(u, c(-_L2L), s)
    s2 = b.fmul(s, s)
    s4 = b.fmul(s2, s2)
    s8 = b.fmul(s4, s4)
    c9, c8, c7, c6, c5, c4, c3, c2, c1, c0 = (c(v) for v in _C)
    f = e.fma64_in_range
    p8 = f(s4, f(s2, f(s, c7, c6), f(s, c5, c4)), f(s2, f(s, c3, c2), f(s, c1, c0)))
    u = f(s8, f(s, c9, c8), p8)
    u = f(u, s, c(0.5))
    u = f(u, s, c(1.0))
    u = f(u, s, c(1.0))
    h = b.ashr(q, e.ir.Constant(e.i32, 1))
    u = b.fmul(b.fmul(u, _pow2i64(e, h)), _pow2i64(e, b.sub(q, h)))
    u = b.select(b.fcmp_ordered(">", d, c(709.78271114955742909217217426)), c(float("inf")), u)
    return b.select(b.fcmp_ordered("<", d, c(-1000.0)), c(0.0), u)


def _pow2i64(e, q):
    """((int64(q) + 0x3FF) << 52) as a double."""
    b, i64 = e.b, e.i64
    bits = b.shl(b.add(b.sext(q, i64), e.ir.Constant(i64, 0x3FF)), e.ir.Constant(i64, 52))
    return b.bitcast(bits, e.dbl)


def log1pd(e, d):
    """sleef_u10.sleef_log1p of one double where SLEEF's core approximation holds
    (-1 <= d <= 1e307; flagged elsewhere, NaN included)."""
    b, c, i32, i64 = e.b, e.d, e.i32, e.i64
    f = e.fma64
    e.flag(b.not_(b.and_(b.fcmp_ordered(">=", d, c(-1.0)), b.fcmp_ordered("<=", d, c(1e307)))))
    dp1 = b.fadd(d, c(1.0))
    o = b.fcmp_ordered("<", dp1, c(_DBL_MIN))
    dp1 = b.select(o, b.fmul(dp1, c(_TWO64)), dp1)
    # vilogb2k: the exponent field less the bias, in 64 bits, then as an int32
    bits = b.bitcast(b.fmul(dp1, c(1.0 / 0.75)), i64)
    ex = b.sub(b.and_(b.ashr(bits, _k(e, i64, 52)), _k(e, i64, 0x7FF)), _k(e, i64, 0x3FF))
    ex = b.trunc(ex, i32)
    # vldexp3(1.0, -e): (-e) << 20 as 32 bits, into the upper word of 1.0's bits
    hi = b.shl(b.zext(b.shl(b.neg(ex), _k(e, i32, 20)), i64), _k(e, i64, 32))
    sc = b.bitcast(b.add(_k(e, i64, 0x3FF0000000000000), hi), e.dbl)
    m = f(d, sc, b.fsub(sc, c(1.0)))
    ex = b.select(o, b.sub(ex, _k(e, i32, 64)), ex)
    # dfdiv of (m, 0) by dfadd(2, m)
    dx = b.fadd(c(2.0), m)
    dy = b.fadd(b.fsub(c(2.0), dx), m)
    t = b.fdiv(c(1.0), dx)
    q = b.fmul(m, t)
    u = f(t, m, b.fneg(q))
    r = f(b.fneg(dy), t, f(b.fneg(dx), t, c(1.0)))
    xx, xy = q, f(q, r, f(c(0.0), t, u))
    res = _log_tail(e, ex, xx, xy)
    res = b.select(b.fcmp_ordered("==", d, c(-1.0)), c(float("-inf")), res)
    negzero = b.icmp_unsigned("==", b.bitcast(d, i64), _k(e, i64, 0x8000000000000000))
    return b.select(negzero, c(-0.0), res)


def _log_tail(e, ex, xx, xy, f=None):
    """sleef_u10._log_tail (float64): e*ln2 + 2x + x^3 p(x^2), x = xx + xy; its fused
    steps f (e.fma64, flagged, unless the caller gives another)."""
    b, c = e.b, e.d
    f = f or e.fma64
    ed = b.sitofp(ex, e.dbl)
    lhi, llo = _LN2
    sx = b.fmul(c(lhi), ed)
    sy = f(c(llo), ed, f(c(lhi), ed, b.fneg(sx)))
    x2 = b.fmul(xx, xx)
    x4 = b.fmul(x2, x2)
    x8 = b.fmul(x4, x4)
    p0, p1, p2, p3, p4, p5, p6 = (c(v) for v in _LOG1P)
    poly4 = f(x4, f(x2, p3, p4), f(x2, p5, p6))
    u = f(x8, f(x4, p0, f(x2, p1, p2)), poly4)
    yx, yy = b.fmul(xx, c(2.0)), b.fmul(xy, c(2.0))
    s1 = b.fadd(sx, yx)
    sy = b.fadd(b.fadd(b.fadd(b.fsub(sx, s1), yx), sy), yy)
    w = b.fmul(b.fmul(x2, xx), u)
    s2 = b.fadd(s1, w)
    sy = b.fadd(b.fadd(b.fsub(s1, s2), w), sy)
    return b.fadd(s2, sy)


def logd(e, d):
    """sleef_u10._log_u1 of one double, 0 < d <= DBL_MAX (flagged elsewhere, NaN
    included)."""
    b, c, i32, i64 = e.b, e.d, e.i32, e.i64
    # No fused step needs the emulation's flag within 0 < d <= DBL_MAX: the mantissa m
    # lies in [0.75, 1.5) and |ex| <= 1100, so every operand is far below 2^990; each
    # product is 0 or above about 2^-170 (the terms are m - 1 and m + 1, their errors,
    # multiples of m's last bit, the quotient and its residual, and powers of x = (m -
    # 1) / (m + 1) added to coefficients), far above 2^-900; and nothing is infinite.
    f = e.fma64_in_range
    e.flag(b.not_(b.and_(b.fcmp_ordered(">", d, c(0.0)), b.fcmp_ordered("<=", d, c(_DBL_MAX)))))
    o = b.fcmp_ordered("<", d, c(_DBL_MIN))
    d = b.select(o, b.fmul(d, c(_TWO64)), d)
    bits = b.bitcast(b.fmul(d, c(1.0 / 0.75)), i64)
    ex = b.sub(b.and_(b.ashr(bits, _k(e, i64, 52)), _k(e, i64, 0x7FF)), _k(e, i64, 0x3FF))
    ex = b.trunc(ex, i32)
    # vldexp3(d, -e): e subtracted from the exponent bits
    m = b.sub(b.bitcast(d, i64), b.shl(b.sext(ex, i64), _k(e, i64, 52)))
    m = b.bitcast(m, e.dbl)
    ex = b.select(o, b.sub(ex, _k(e, i32, 64)), ex)
    ax, ay = _add2_ff(e, c(-1.0), m)
    bx, by = _add2_ff(e, c(1.0), m)
    # dfdiv of (ax, ay) by (bx, by)
    t = b.fdiv(c(1.0), bx)
    q = b.fmul(ax, t)
    u = f(t, ax, b.fneg(q))
    r = f(b.fneg(by), t, f(b.fneg(bx), t, c(1.0)))
    return _log_tail(e, ex, q, f(q, r, f(ay, t, u)), f)


def _add2_ff(e, x, y):
    b = e.b
    s = b.fadd(x, y)
    v = b.fsub(s, x)
    return s, b.fadd(b.fsub(x, b.fsub(s, v)), b.fsub(y, v))


def _k(e, t, v):
    return e.ir.Constant(t, v)


def _intrinsic(mod, ir, name, t, nargs):
    g = mod.globals.get(name)
    if g is None:
        g = ir.Function(mod, ir.FunctionType(t, [t] * nargs), name=name)
    return g


#: doubles in a vector of the compiled kernels (two AVX registers: more work in flight)
LANES64 = 8

KERNELS = {"expd": lambda: expd, "log1pd": lambda: log1pd, "logd": lambda: logd}


def unary(ir, mod, name, kind):
    """i64 NAME(i64 n, double* x, double* out, i8* flags): out[i] = KIND(x[i]) (expd,
    log1pd, logd), flags[i] = 1 where the value set the flag (the caller computes it with
    NumPy); returns whether any value did."""
    fn_ir = KERNELS[kind]()
    lanes_loop(ir, mod, name, 1, lambda e, v: fn_ir(e, v[0]), ir.DoubleType(), LANES64, Emit, True)


def lanes_loop(ir, mod, name, nargs, body, elem, lanes, emitter, per_value=False):
    """i64 NAME(i64 n, elem* x1, ..., elem* x_nargs, elem* out[, i8* flags]): out[i] =
    body(emit, [x1[i], ...]) over whole vectors of `lanes` values (emitter(ir, mod,
    builder, lanes) makes `emit`; n a multiple of `lanes`: native.py passes the values
    after the last whole vector in a vector of their own, padded); with `per_value`,
    flags[i] has bit 0 set where the lane set the emitter's flag (`emit.bad`) and bit 1
    where it computed a step the way NumPy does for arrays but not for 0-d operands
    (`emit.soft`); returns 1 when any lane set the flag, else 0."""
    i64, i1, i8 = ir.IntType(64), ir.IntType(1), ir.IntType(8)
    pe = ir.PointerType(elem)
    args = [i64] + [pe] * (nargs + 1) + ([ir.PointerType(i8)] if per_value else [])
    fn = ir.Function(mod, ir.FunctionType(i64, args), name)
    n, *ptrs = fn.args
    for p in ptrs:
        p.add_attribute("noalias")
    if per_value:
        *ptrs, fptr = ptrs
    *ins, out = ptrs
    entry, vloop, done = (fn.append_basic_block(x) for x in ("entry", "vloop", "done"))
    b = ir.IRBuilder(entry)
    b.cbranch(b.icmp_signed(">", n, ir.Constant(i64, 0)), vloop, done)
    b = ir.IRBuilder(vloop)
    i, bad = b.phi(i64), b.phi(i1)
    i.add_incoming(ir.Constant(i64, 0), entry)
    bad.add_incoming(ir.Constant(i1, 0), entry)
    e = emitter(ir, mod, b, lanes)
    pv = ir.PointerType(ir.VectorType(elem, lanes))
    align = 8 if isinstance(elem, ir.DoubleType) else 4  # (NumPy's: the element's)
    vals = [b.load(b.bitcast(b.gep(p, [i]), pv), align=align) for p in ins]
    st = b.store(body(e, vals), b.bitcast(b.gep(out, [i]), pv))
    st.align = align
    if per_value:
        fv = ir.VectorType(i8, lanes)
        fl = b.zext(e.bad, fv)
        if not isinstance(e.soft, ir.Constant):  # (a kernel whose lanes may set it)
            fl = b.or_(fl, b.mul(b.zext(e.soft, fv), ir.Constant(fv, 2)))
        fst = b.store(fl, b.bitcast(b.gep(fptr, [i]), ir.PointerType(fv)))
        fst.align = 1
    mask = ir.IntType(lanes)
    bad2 = b.or_(bad, b.icmp_unsigned("!=", b.bitcast(e.bad, mask), ir.Constant(mask, 0)))
    i2 = b.add(i, ir.Constant(i64, lanes))
    last = b.block  # (the body may have branched: its rare lanes' blocks)
    i.add_incoming(i2, last)
    bad.add_incoming(bad2, last)
    b.cbranch(b.icmp_signed("<", i2, n), vloop, done)
    b = ir.IRBuilder(done)
    res = b.phi(i1)
    res.add_incoming(ir.Constant(i1, 0), entry)
    res.add_incoming(bad2, last)
    b.ret(b.zext(res, i64))


# the emulation's constants (tests/numerics/test_native.py checks that they are torch_exp's, which
# cannot be imported here: torch_exp imports native.py)
_R_LN2 = 1.442695040888963407359924681001892137426645954152985934135449406931
_L2U = 0.69314718055966295651160180568695068359375
_L2L = 0.28235290563031577122588448175013436025525412068e-12
_C = (
    0.2081276378237164457e-8,
    0.2511210703042288022e-7,
    0.2755762628169491192e-6,
    0.2755723402025388239e-5,
    0.2480158687479686264e-4,
    0.1984126989855865850e-3,
    0.1388888888914497797e-2,
    0.8333333333314938210e-2,
    0.4166666666666602598e-1,
    0.1666666666666669072e0,
)
# sleef_u10's float64 constants (_C[np.float64]: ln2, log1p; tiny, big)
_LN2 = (0.693147180559945286226764, 2.319046813846299558417771e-17)
_LOG1P = (
    0.1532076988502701353e0,
    0.1525629051003428716e0,
    0.1818605932937785996e0,
    0.2222214519839380009e0,
    0.2857142932794299317e0,
    0.3999999999635251990e0,
    0.6666666666667333541e0,
)
_DBL_MIN, _TWO64 = 2.2250738585072014e-308, 18446744073709551616.0
