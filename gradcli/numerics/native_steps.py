"""An optimizer's running averages as one compiled loop (`numerics/native.py` compiles it
with its other loops): Adam's `exp_avg.lerp_(g, w)` and
`exp_avg_sq.mul_(beta2).addcmul_(g, g, value=1 - beta2)` of a parameter in one call,
where NumPy takes some twenty operations and two emulated fused steps on arrays of a
few values (an optimizer's step on a small model is mostly that work around them).

The loop computes what `library/optim.py`'s `lerp` and `squares_avg` compute, operation
for operation in the parameter's dtype, its fused steps `floats/fma.py`'s (the compiled
`fma64` and `fma32` of native_sleef.Emit): where a value's fused step is one the
emulation may not give (a NaN; of doubles also an infinity or a product it cannot
split), the call
returns None and the caller computes the whole step with NumPy, so both ways give the
same bits (tests/numerics/test_native_steps.py compares them).  Only `llvmlite.ir`
objects are made here; `native.moments` calls the loop."""

from __future__ import annotations

from .native_sleef import Emit


def moments_ir(ir, mod, name, single):
    """i64 NAME(i64 n, T* g, T* avg, T* sq, T* avg_out, T* sq_out, double* k): for each
    i, avg_out[i] = lerp(avg[i], g[i], w) and sq_out[i] = fma((1 - beta2) * g[i], g[i],
    sq[i] * beta2), T float (single) or double; k = (w, 1 - w, 1 - beta2, beta2) as
    values of T (each rounded to it first), and the lerp's form (k[0] below 0.5 in
    magnitude: fma(w, g - avg, avg), else fma(-(g - avg), 1 - w, g)) as torch's kernel
    picks it.  Returns how many values set the fused steps' flag (then the caller
    computes the call with NumPy)."""
    dbl, i64 = ir.DoubleType(), ir.IntType(64)
    t = ir.FloatType() if single else dbl
    pt = ir.PointerType(t)
    fnty = ir.FunctionType(i64, [i64, pt, pt, pt, pt, pt, ir.PointerType(dbl)])
    fn = ir.Function(mod, fnty, name=name)
    n, pg, pa, ps, pao, pso, pk = fn.args
    for p in (pg, pa, ps, pao, pso, pk):
        p.add_attribute("noalias")
    entry, loop, done = (fn.append_basic_block(x) for x in ("entry", "loop", "done"))
    b = ir.IRBuilder(entry)
    w, w1, b2c, b2 = (b.load(b.gep(pk, [ir.Constant(i64, j)])) for j in range(4))
    far = b.fcmp_ordered(">=", b.call(_fabs(ir, mod), [w]), ir.Constant(dbl, 0.5))
    tb2c, tb2 = (b.fptrunc(v, t) for v in (b2c, b2)) if single else (b2c, b2)
    b.cbranch(b.icmp_signed(">", n, ir.Constant(i64, 0)), loop, done)
    b = ir.IRBuilder(loop)
    i, cnt = b.phi(i64), b.phi(i64)
    i.add_incoming(ir.Constant(i64, 0), entry)
    cnt.add_incoming(ir.Constant(i64, 0), entry)
    g, avg, sq = (b.load(b.gep(p, [i])) for p in (pg, pa, ps))
    emit = Emit(ir, mod, b)

    def wide(v):
        return b.fpext(v, dbl) if single else v

    def step(x, y, z):
        return emit.fma32(x, y, z) if single else emit.fma64(x, y, z)

    # lerp: diff = g - avg in T; one of the two forms, by w's size
    diff = b.fsub(g, avg)
    x = b.select(far, wide(b.fneg(diff)), w)
    y = b.select(far, w1, wide(diff))
    z = b.select(far, wide(g), wide(avg))
    new_avg = step(x, y, z)
    # squares: fma((1 - beta2) * g, g, sq * beta2), the products in T
    new_sq = step(wide(b.fmul(tb2c, g)), wide(g), wide(b.fmul(sq, tb2)))
    b.store(new_avg, b.gep(pao, [i]))
    b.store(new_sq, b.gep(pso, [i]))
    cnt2 = b.add(cnt, b.zext(emit.bad, i64))
    i2 = b.add(i, ir.Constant(i64, 1))
    i.add_incoming(i2, loop)
    cnt.add_incoming(cnt2, loop)
    b.cbranch(b.icmp_signed("<", i2, n), loop, done)
    b = ir.IRBuilder(done)
    total = b.phi(i64)
    total.add_incoming(ir.Constant(i64, 0), entry)
    total.add_incoming(cnt2, loop)
    b.ret(total)


def adam_param_ir(ir, mod, name, single):
    """i64 NAME(i64 n, T* root, T* avg, T* p, T* p_out, double* k): Adam's step of the
    parameter after its running averages and the square root of exp_avg_sq (MKL's, not
    always the correctly rounded one: the caller's), p_out[i] = p[i] + (value * avg[i]) /
    (root[i] / c + eps) with k = (c, eps, value) as values of T, each operation rounded
    to T as `library/optim.py`'s Adam.update makes them with NumPy.  Returns 0."""
    dbl, i64 = ir.DoubleType(), ir.IntType(64)
    t = ir.FloatType() if single else dbl
    pt = ir.PointerType(t)
    fn = ir.Function(mod, ir.FunctionType(i64, [i64, pt, pt, pt, pt, ir.PointerType(dbl)]), name)
    n, pr, pa, pp, po, pk = fn.args
    for p in fn.args[1:]:
        p.add_attribute("noalias")
    entry, loop, done = (fn.append_basic_block(x) for x in ("entry", "loop", "done"))
    b = ir.IRBuilder(entry)
    c, eps, value = (b.load(b.gep(pk, [ir.Constant(i64, j)])) for j in range(3))
    if single:
        c, eps, value = (b.fptrunc(v, t) for v in (c, eps, value))
    b.cbranch(b.icmp_signed(">", n, ir.Constant(i64, 0)), loop, done)
    b = ir.IRBuilder(loop)
    i = b.phi(i64)
    i.add_incoming(ir.Constant(i64, 0), entry)
    root, avg, p = (b.load(b.gep(x, [i])) for x in (pr, pa, pp))
    denom = b.fadd(b.fdiv(root, c), eps)
    b.store(b.fadd(p, b.fdiv(b.fmul(value, avg), denom)), b.gep(po, [i]))
    i2 = b.add(i, ir.Constant(i64, 1))
    i.add_incoming(i2, loop)
    b.cbranch(b.icmp_signed("<", i2, n), loop, done)
    b = ir.IRBuilder(done)
    b.ret(ir.Constant(i64, 0))


def _fabs(ir, mod):
    g = mod.globals.get("llvm.fabs.f64")
    if g is None:
        dbl = ir.DoubleType()
        g = ir.Function(mod, ir.FunctionType(dbl, [dbl]), name="llvm.fabs.f64")
    return g
