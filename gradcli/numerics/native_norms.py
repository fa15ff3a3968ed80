"""LLVM IR for `native.py` to compile: the last step of LayerNorm's moments
(numerics/floats/layer_norm.moments), the vector lanes' moments merged one after another
into the scalar moments of each row's tail, in one pass over the rows where NumPy makes
a dozen operations and two fused-step calls per lane.  Only `llvmlite.ir` objects are
made here."""

from __future__ import annotations

from .native_sleef import Emit

#: lane_merge's parameters, in this order in its i64 array
LANE_MERGE_PARAMS = ("rows", "lanes", "m1", "m2", "c", "n_old", "s1", "s2", "out1", "out2")


def lane_merge_ir(ir, mod, name, single):
    """i64 NAME(i64* p), T float (single) or double, p = LANE_MERGE_PARAMS: per row r,
    from (s1[r], s2[r]), for each lane l in turn `layer_norm._merge`'s steps: delta =
    m1[r, l] - s1; s1 = fma(c[l], delta, s1); s2 = s2 + fma((delta * delta) * c[l],
    n_old[l], m2[r, l]) (fma.fma's steps, float32's by fma32's algorithm in doubles), the
    results in out1[r], out2[r]; m1, m2 (rows, lanes) C-contiguous.  Returns how many
    steps the emulation must decide (the outputs are then not the caller's)."""
    t = ir.FloatType() if single else ir.DoubleType()
    dbl, i64 = ir.DoubleType(), ir.IntType(64)
    pt, pi = ir.PointerType(t), ir.PointerType(i64)
    fn = ir.Function(mod, ir.FunctionType(i64, [pi]), name=name)
    (params,) = fn.args
    names = ("entry", "row", "lane", "row_end", "done")
    entry, row, lane, row_end, done = (fn.append_basic_block(x) for x in names)
    zero, one = ir.Constant(i64, 0), ir.Constant(i64, 1)
    b = ir.IRBuilder(entry)
    rows, lanes, *ats = (
        b.load(b.gep(params, [ir.Constant(i64, j)])) for j in range(len(LANE_MERGE_PARAMS))
    )
    pm1, pm2, pc, pn, ps1, ps2, po1, po2 = (b.inttoptr(a, pt) for a in ats)
    go = b.and_(b.icmp_signed(">", rows, zero), b.icmp_signed(">", lanes, zero))
    b.cbranch(go, row, done)

    b = ir.IRBuilder(row)  # for r in range(rows)
    r, cnt = b.phi(i64), b.phi(i64)
    r.add_incoming(zero, entry)
    cnt.add_incoming(zero, entry)
    base = b.mul(r, lanes)
    s1_0, s2_0 = b.load(b.gep(ps1, [r])), b.load(b.gep(ps2, [r]))
    b.branch(lane)

    b = ir.IRBuilder(lane)  # for l in range(lanes): one merge
    j, s1, s2, bad = b.phi(i64), b.phi(t), b.phi(t), b.phi(i64)
    j.add_incoming(zero, row)
    s1.add_incoming(s1_0, row)
    s2.add_incoming(s2_0, row)
    bad.add_incoming(cnt, row)
    at = b.add(base, j)
    m1, m2 = b.load(b.gep(pm1, [at])), b.load(b.gep(pm2, [at]))
    c, n_old = b.load(b.gep(pc, [j])), b.load(b.gep(pn, [j]))
    delta = b.fsub(m1, s1)
    sq = b.fmul(b.fmul(delta, delta), c)
    emit = Emit(ir, mod, b)
    if single:
        s1n = emit.fma32(*(b.fpext(v, dbl) for v in (c, delta, s1)))
        u = emit.fma32(*(b.fpext(v, dbl) for v in (sq, n_old, m2)))
    else:
        s1n = emit.fma64(c, delta, s1)
        u = emit.fma64(sq, n_old, m2)
    s2n = b.fadd(s2, u)
    bad2 = b.add(bad, b.zext(emit.bad, i64))
    j2 = b.add(j, one)
    for phi, v in ((j, j2), (s1, s1n), (s2, s2n), (bad, bad2)):
        phi.add_incoming(v, b.block)
    b.cbranch(b.icmp_signed("<", j2, lanes), lane, row_end)

    b = ir.IRBuilder(row_end)
    b.store(s1n, b.gep(po1, [r]))
    b.store(s2n, b.gep(po2, [r]))
    r2 = b.add(r, one)
    r.add_incoming(r2, row_end)
    cnt.add_incoming(bad2, row_end)
    b.cbranch(b.icmp_signed("<", r2, rows), row, done)

    b = ir.IRBuilder(done)
    total = b.phi(i64)
    total.add_incoming(zero, entry)
    total.add_incoming(bad2, row_end)
    b.ret(total)


#: welford's parameters, in this order in its i64 array
WELFORD_PARAMS = ("rows", "row_stride", "vectors", "lanes", "chunks", "x", "c", "m1", "m2")
#: vectors in a chunk of the moments (ATen's RowwiseMoments)
CHUNK = 16


def welford_ir(ir, mod, name, single):
    """i64 NAME(i64* p), T float (single) or double, p = WELFORD_PARAMS: per row r, chunk
    k < chunks and lane l, from m1 = m2 = +0, for the chunk's vectors j in turn (CHUNK, the
    last chunk's up to `vectors`) of v = x[r * row_stride + (k * CHUNK + j) * lanes + l]:
    delta = v - m1; m1 = fma(delta, c[j], m1); m2 = fma(delta, v - m1, m2) (fma.fma's
    steps, float32's by fma32's algorithm in doubles, as `layer_norm.moments`), into
    m1[r, k, l] and m2[r, k, l].  Returns how many steps the emulation must decide (the
    outputs are then not the caller's)."""
    t = ir.FloatType() if single else ir.DoubleType()
    dbl, i64 = ir.DoubleType(), ir.IntType(64)
    pt, pi = ir.PointerType(t), ir.PointerType(i64)
    fn = ir.Function(mod, ir.FunctionType(i64, [pi]), name=name)
    (params,) = fn.args
    names = ("entry", "item", "step", "item_end", "done")
    entry, item, step, item_end, done = (fn.append_basic_block(x) for x in names)
    zero, one = ir.Constant(i64, 0), ir.Constant(i64, 1)
    k64 = lambda v: ir.Constant(i64, v)  # noqa: E731
    b = ir.IRBuilder(entry)
    rows, stride, vectors, lanes, chunks, *ats = (
        b.load(b.gep(params, [k64(j)])) for j in range(len(WELFORD_PARAMS))
    )
    px, pc, pm1, pm2 = (b.inttoptr(a, pt) for a in ats)
    per_row = b.mul(chunks, lanes)
    items = b.mul(rows, per_row)
    go = b.and_(b.icmp_signed(">", items, zero), b.icmp_signed(">", vectors, zero))
    b.cbranch(go, item, done)

    b = ir.IRBuilder(item)  # for each (row, chunk, lane)
    q, cnt = b.phi(i64), b.phi(i64)
    q.add_incoming(zero, entry)
    cnt.add_incoming(zero, entry)
    r = b.sdiv(q, per_row)
    k = b.srem(b.sdiv(q, lanes), chunks)
    lane = b.srem(q, lanes)
    first = b.mul(k, k64(CHUNK))
    left = b.sub(vectors, first)
    steps = b.select(b.icmp_signed("<", left, k64(CHUNK)), left, k64(CHUNK))
    base = b.add(b.add(b.mul(r, stride), b.mul(first, lanes)), lane)
    b.branch(step)

    b = ir.IRBuilder(step)  # for j in range(steps)
    j, m1, m2, bad = b.phi(i64), b.phi(t), b.phi(t), b.phi(i64)
    j.add_incoming(zero, item)
    m1.add_incoming(ir.Constant(t, 0.0), item)
    m2.add_incoming(ir.Constant(t, 0.0), item)
    bad.add_incoming(cnt, item)
    v = b.load(b.gep(px, [b.add(base, b.mul(j, lanes))]))
    c = b.load(b.gep(pc, [j]))
    delta = b.fsub(v, m1)
    emit = Emit(ir, mod, b)
    if single:
        m1n = emit.fma32(*(b.fpext(w, dbl) for w in (delta, c, m1)))
        m2n = emit.fma32(*(b.fpext(w, dbl) for w in (delta, b.fsub(v, m1n), m2)))
    else:
        m1n = emit.fma64(delta, c, m1)
        m2n = emit.fma64(delta, b.fsub(v, m1n), m2)
    bad2 = b.add(bad, b.zext(emit.bad, i64))
    j2 = b.add(j, one)
    for phi, w in ((j, j2), (m1, m1n), (m2, m2n), (bad, bad2)):
        phi.add_incoming(w, b.block)
    b.cbranch(b.icmp_signed("<", j2, steps), step, item_end)

    b = ir.IRBuilder(item_end)
    b.store(m1n, b.gep(pm1, [q]))
    b.store(m2n, b.gep(pm2, [q]))
    q2 = b.add(q, one)
    q.add_incoming(q2, item_end)
    cnt.add_incoming(bad2, item_end)
    b.cbranch(b.icmp_signed("<", q2, items), item, done)

    b = ir.IRBuilder(done)
    total = b.phi(i64)
    total.add_incoming(zero, entry)
    total.add_incoming(bad2, item_end)
    b.ret(total)


def var_rows_ir(ir, mod, name, single):
    """i64 NAME(i64* p), p = (rows, n, x, out): per row r of the C-contiguous doubles x
    (rows, n), welford.py's `_m2`: from mean = m2 = +0, for i in range(n) of v = x[r, i]:
    delta = v - mean; mean = mean + delta / (i + 1); m2 = m2 + delta * (v - mean), IEEE
    double arithmetic as written (nothing fused, as Python's floats), into out[r].
    Returns 0.  (`single` unused: ATen's kernel accumulates in double for both.)"""
    dbl, i64 = ir.DoubleType(), ir.IntType(64)
    pd, pi = ir.PointerType(dbl), ir.PointerType(i64)
    fn = ir.Function(mod, ir.FunctionType(i64, [pi]), name=name)
    (params,) = fn.args
    entry, row, step, row_end, done = (
        fn.append_basic_block(x) for x in ("entry", "row", "step", "row_end", "done")
    )
    zero, one = ir.Constant(i64, 0), ir.Constant(i64, 1)
    b = ir.IRBuilder(entry)
    rows, n, at_x, at_out = (b.load(b.gep(params, [ir.Constant(i64, j)])) for j in range(4))
    px, pout = b.inttoptr(at_x, pd), b.inttoptr(at_out, pd)
    go = b.and_(b.icmp_signed(">", rows, zero), b.icmp_signed(">", n, zero))
    b.cbranch(go, row, done)

    b = ir.IRBuilder(row)  # for r in range(rows)
    r = b.phi(i64)
    r.add_incoming(zero, entry)
    base = b.mul(r, n)
    b.branch(step)

    b = ir.IRBuilder(step)  # for i in range(n)
    i, mean, m2 = b.phi(i64), b.phi(dbl), b.phi(dbl)
    i.add_incoming(zero, row)
    mean.add_incoming(ir.Constant(dbl, 0.0), row)
    m2.add_incoming(ir.Constant(dbl, 0.0), row)
    v = b.load(b.gep(px, [b.add(base, i)]))
    i2 = b.add(i, one)
    delta = b.fsub(v, mean)
    mean2 = b.fadd(mean, b.fdiv(delta, b.sitofp(i2, dbl)))
    m22 = b.fadd(m2, b.fmul(delta, b.fsub(v, mean2)))
    for phi, w in ((i, i2), (mean, mean2), (m2, m22)):
        phi.add_incoming(w, step)
    b.cbranch(b.icmp_signed("<", i2, n), step, row_end)

    b = ir.IRBuilder(row_end)
    b.store(m22, b.gep(pout, [r]))
    r2 = b.add(r, one)
    r.add_incoming(r2, row_end)
    b.cbranch(b.icmp_signed("<", r2, rows), row, done)

    b = ir.IRBuilder(done)
    b.ret(zero)
