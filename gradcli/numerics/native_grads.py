"""Two steps of every Linear/Tanh network's backward as compiled loops (`numerics/native.py`
compiles them with its other loops; `native_layers.outer_sum` and `native_layers.
tanh_backward` call them).

A bias's gradient is the sum of the batch's rows, in PyTorch's order for a reduction over
the outer dim (`summation.outer_sum`: the cascade of `multi_row_sum` down each column of
the whole blocks, `row_sum`'s four interleaved partial sums down the others), which NumPy
makes in a dozen calls whose fixed cost is most of the time on a small batch.  Each
column's sum here is a scalar loop making the same additions in the same order as a
vector lane of PyTorch's (each lane's sums are its own), so the bits are the same.

tanh's backward, g * (1 - y*y) with the factor one fused step, was three NumPy passes and
a fused-step call (`fused_grads.tanh_backward_values`); the loop makes it in one pass,
flagging where the emulation of the fused step must decide (`native_sleef.Emit`), and
then the caller computes the whole call as before.  Only `llvmlite.ir` objects are made
here."""

from __future__ import annotations

from .native_sleef import Emit


def _params(ir, b, params, count):
    i64 = ir.IntType(64)
    return [b.load(b.gep(params, [ir.Constant(i64, j)])) for j in range(count)]


def _cascade_fn(ir, mod, t, name):
    """T NAME(T* x, i64 stride, i64 size, i64 power): multi_row_sum's cascade of one lane
    over x[0], x[stride], ... (size values): chunks of 2^power values summed from +0 into
    level 0, each chunk added into level 1, level 1 into 2 after every 2^power chunks, 2
    into 3 after every 2^(2 power), the values after the last chunk from +0, then the
    levels 1, 2, 3 added to it in turn (SumKernel.cpp)."""
    i64 = ir.IntType(64)
    pt = ir.PointerType(t)
    fn = ir.Function(mod, ir.FunctionType(t, [pt, i64, i64, i64]), name=name)
    fn.linkage = "internal"
    px, stride, size, power = fn.args
    names = ("entry", "outer", "chunk", "lvl", "lvl2", "lvl3", "tail_in", "tail", "done")
    entry, outer, chunk, lvl, lvl2, lvl3, tail_in, tail, done = (
        fn.append_basic_block(x) for x in names
    )
    zero, one, fz = ir.Constant(i64, 0), ir.Constant(i64, 1), ir.Constant(t, 0.0)
    b = ir.IRBuilder(entry)
    step = b.shl(one, power)
    mask = b.sub(step, one)
    mask1 = b.shl(mask, power)
    mask2 = b.shl(mask1, power)
    b.branch(outer)

    b = ir.IRBuilder(outer)  # level 0 is +0 here; a1, a2, a3 the levels above
    i, a1, a2, a3 = b.phi(i64), b.phi(t), b.phi(t), b.phi(t)
    i.add_incoming(zero, entry)
    for a in (a1, a2, a3):
        a.add_incoming(fz, entry)
    b.cbranch(b.icmp_signed("<=", b.add(i, step), size), chunk, tail_in)

    b = ir.IRBuilder(chunk)  # one chunk of 2^power values from +0
    j, acc = b.phi(i64), b.phi(t)
    j.add_incoming(zero, outer)
    acc.add_incoming(fz, outer)
    v = b.load(b.gep(px, [b.mul(b.add(i, j), stride)]))
    acc2 = b.fadd(acc, v)
    j2 = b.add(j, one)
    j.add_incoming(j2, chunk)
    acc.add_incoming(acc2, chunk)
    b.cbranch(b.icmp_signed("<", j2, step), chunk, lvl)

    b = ir.IRBuilder(lvl)  # level 0 into 1; on into 2 and 3 where i's bits say
    i2 = b.add(i, step)
    n1 = b.fadd(a1, acc2)
    b.cbranch(b.icmp_signed("!=", b.and_(i2, mask1), zero), outer, lvl2)
    b = ir.IRBuilder(lvl2)
    n2 = b.fadd(a2, n1)
    b.cbranch(b.icmp_signed("!=", b.and_(i2, mask2), zero), outer, lvl3)
    b = ir.IRBuilder(lvl3)
    n3 = b.fadd(a3, n2)
    b.branch(outer)
    i.add_incoming(i2, lvl)
    i.add_incoming(i2, lvl2)
    i.add_incoming(i2, lvl3)
    a1.add_incoming(n1, lvl)
    a1.add_incoming(fz, lvl2)
    a1.add_incoming(fz, lvl3)
    a2.add_incoming(a2, lvl)
    a2.add_incoming(n2, lvl2)
    a2.add_incoming(fz, lvl3)
    a3.add_incoming(a3, lvl)
    a3.add_incoming(a3, lvl2)
    a3.add_incoming(n3, lvl3)

    b = ir.IRBuilder(tail_in)
    b.cbranch(b.icmp_signed("<", i, size), tail, done)
    b = ir.IRBuilder(tail)  # the values after the last chunk, into level 0 from +0
    k, acc = b.phi(i64), b.phi(t)
    k.add_incoming(i, tail_in)
    acc.add_incoming(fz, tail_in)
    acc2 = b.fadd(acc, b.load(b.gep(px, [b.mul(k, stride)])))
    k2 = b.add(k, one)
    k.add_incoming(k2, tail)
    acc.add_incoming(acc2, tail)
    b.cbranch(b.icmp_signed("<", k2, size), tail, done)

    b = ir.IRBuilder(done)
    s = b.phi(t)
    s.add_incoming(fz, tail_in)
    s.add_incoming(acc2, tail)
    s = b.fadd(b.fadd(b.fadd(s, a1), a2), a3)
    b.ret(s)
    return fn


def _power(ir, b, size):
    """multi_row_sum's level power: max(4, CeilLog2(size) / 4)."""
    i64 = ir.IntType(64)
    one = ir.Constant(i64, 1)
    ctlz = b.module.globals.get("llvm.ctlz.i64") or ir.Function(
        b.module, ir.FunctionType(i64, [i64, ir.IntType(1)]), name="llvm.ctlz.i64"
    )
    bits = b.sub(
        ir.Constant(i64, 64), b.call(ctlz, [b.sub(size, one), ir.Constant(ir.IntType(1), 0)])
    )
    log = b.select(b.icmp_signed(">", size, one), bits, ir.Constant(i64, 0))
    q = b.sdiv(log, ir.Constant(i64, 4))
    return b.select(b.icmp_signed(">", q, ir.Constant(i64, 4)), q, ir.Constant(i64, 4))


def outer_sum_ir(ir, mod, name, single):
    """i64 NAME(i64* p), T float (single) or double; p = (M, N, w, x, out): out[j] the sum
    of column j of x (M, N) C-contiguous, M > 0: the cascade down the column for j < w
    (the whole blocks), row_sum for the others (its four partial sums each a cascade over
    every fourth row, the rows after the last four into the first, then the other three
    added to it).  Returns 0."""
    t = ir.FloatType() if single else ir.DoubleType()
    i64 = ir.IntType(64)
    pt, pi = ir.PointerType(t), ir.PointerType(i64)
    cascade = _cascade_fn(ir, mod, t, name + "_cascade")
    fn = ir.Function(mod, ir.FunctionType(i64, [pi]), name=name)
    (params,) = fn.args
    names = ("entry", "block", "rest_in", "rest", "rest_tail", "rest_end", "done")
    entry, block, rest_in, rest, rest_tail, rest_end, done = (
        fn.append_basic_block(x) for x in names
    )
    zero, one, four = ir.Constant(i64, 0), ir.Constant(i64, 1), ir.Constant(i64, 4)
    b = ir.IRBuilder(entry)
    m, n, w, x_at, out_at = _params(ir, b, params, 5)
    px, pout = b.inttoptr(x_at, pt), b.inttoptr(out_at, pt)
    power = _power(ir, b, m)
    k = b.sdiv(m, four)
    kpower = _power(ir, b, k)
    b.cbranch(b.icmp_signed("<", zero, w), block, rest_in)

    b = ir.IRBuilder(block)  # the whole blocks' columns: the cascade down each
    j = b.phi(i64)
    j.add_incoming(zero, entry)
    s = b.call(cascade, [b.gep(px, [j]), n, m, power])
    b.store(s, b.gep(pout, [j]))
    j2 = b.add(j, one)
    j.add_incoming(j2, block)
    b.cbranch(b.icmp_signed("<", j2, w), block, rest_in)

    b = ir.IRBuilder(rest_in)
    b.cbranch(b.icmp_signed("<", w, n), rest, done)

    b = ir.IRBuilder(rest)  # row_sum of column c
    c = b.phi(i64)
    c.add_incoming(w, rest_in)
    n4 = b.mul(n, four)
    parts = [
        b.call(cascade, [b.gep(px, [b.add(c, b.mul(ir.Constant(i64, q), n))]), n4, k, kpower])
        for q in range(4)
    ]
    first = b.mul(k, four)
    b.cbranch(b.icmp_signed("<", first, m), rest_tail, rest_end)
    b = ir.IRBuilder(rest_tail)  # the rows after the last four, into the first part
    r, p0 = b.phi(i64), b.phi(t)
    r.add_incoming(first, rest)
    p0.add_incoming(parts[0], rest)
    p0b = b.fadd(p0, b.load(b.gep(px, [b.add(b.mul(r, n), c)])))
    r2 = b.add(r, one)
    r.add_incoming(r2, rest_tail)
    p0.add_incoming(p0b, rest_tail)
    b.cbranch(b.icmp_signed("<", r2, m), rest_tail, rest_end)
    b = ir.IRBuilder(rest_end)
    s = b.phi(t)
    s.add_incoming(parts[0], rest)
    s.add_incoming(p0b, rest_tail)
    s = b.fadd(b.fadd(b.fadd(s, parts[1]), parts[2]), parts[3])
    b.store(s, b.gep(pout, [c]))
    c2 = b.add(c, one)
    c.add_incoming(c2, rest_end)
    b.cbranch(b.icmp_signed("<", c2, n), rest, done)

    b = ir.IRBuilder(done)
    b.ret(zero)


def tanh_backward_ir(ir, mod, name, single):
    """i64 NAME(i64* p), T float (single) or double; p = (n, g, y, out): out[i] = g[i] *
    fma(y[i], -y[i], 1) (fma.fma's step, float32's made by fma32's algorithm in doubles,
    as `fused_grads._one_minus_square`), one value at a time.  Returns how many values'
    steps the emulation must decide (out is then not the caller's)."""
    t = ir.FloatType() if single else ir.DoubleType()
    dbl = ir.DoubleType()
    i64 = ir.IntType(64)
    pt, pi = ir.PointerType(t), ir.PointerType(i64)
    fn = ir.Function(mod, ir.FunctionType(i64, [pi]), name=name)
    (params,) = fn.args
    entry, loop, done = (fn.append_basic_block(x) for x in ("entry", "loop", "done"))
    zero, one = ir.Constant(i64, 0), ir.Constant(i64, 1)
    b = ir.IRBuilder(entry)
    n, g_at, y_at, out_at = _params(ir, b, params, 4)
    pg, py, pout = (b.inttoptr(a, pt) for a in (g_at, y_at, out_at))
    b.cbranch(b.icmp_signed(">", n, zero), loop, done)

    b = ir.IRBuilder(loop)
    i, cnt = b.phi(i64), b.phi(i64)
    i.add_incoming(zero, entry)
    cnt.add_incoming(zero, entry)
    y = b.load(b.gep(py, [i]))
    yd = b.fpext(y, dbl) if single else y
    emit = Emit(ir, mod, b)
    f = (emit.fma32 if single else emit.fma64)(yd, b.fneg(yd), ir.Constant(dbl, 1.0))
    b.store(b.fmul(b.load(b.gep(pg, [i])), f), b.gep(pout, [i]))
    cnt2 = b.add(cnt, b.zext(emit.bad, i64))
    i2 = b.add(i, one)
    i.add_incoming(i2, b.block)
    cnt.add_incoming(cnt2, b.block)
    b.cbranch(b.icmp_signed("<", i2, n), loop, done)

    b = ir.IRBuilder(done)
    total = b.phi(i64)
    total.add_incoming(zero, entry)
    total.add_incoming(cnt2, loop)
    b.ret(total)
