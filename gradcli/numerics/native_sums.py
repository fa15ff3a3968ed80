"""Whole sums in PyTorch's order as one compiled loop (`numerics/native.py` compiles it
with its other loops): several sums of one size and dtype, each of an array or of the
product of two, in one call.

At the sizes of a training loop's vectors (hundreds to tens of thousands of values) a sum
in NumPy is a dozen calls whose fixed cost is the time (sums/sum_mid.py, sum_rows.py: a
copy, a few reduces, an accumulate; ~10 us for the four sums of the tutorial's backward).
The loop here makes the same additions as PyTorch's `cascade_sum` for one thread's range
(sums/summation.py describes them), in vectors of the same lanes (8 floats or 4 doubles,
AVX2's), each lane its own IEEE additions in the dtype with no reassociation (no
fast-math flags): the four partial vectors of each group of four, the cascade of four
levels over the groups (level 0 added into level 1 after every `step` groups, level 1
into 2 and 2 into 3 when the group count is a multiple of step^2 and step^3), the groups
after the last whole chunk into level 0, the levels added into level 0 in order, the
left-over vectors into the first partial vector, the partials 0 + 1 + 2 + 3, then from
+0 the scalars after the last whole vector and the lanes in order.  An operand's product
with its factor is the IEEE product NumPy's multiply makes.  tests/numerics/
test_native_sums.py compares every sum with the NumPy plans, bit for bit.  Only
`llvmlite.ir` objects are made here; `native_sum_calls.sums` calls the loop."""

from __future__ import annotations

from .native_sleef import Emit

#: accumulators per level (PyTorch's ILP) and levels of the cascade
ILP, LEVELS = 4, 4


def sums_ir(ir, mod, name, single):
    """i64 NAME(i64* p), T float (single) or double: for r < rows, out[r] = the sum of
    the n values at address xs[r] (times the n values at fs[r] where that is not 0) in
    PyTorch's order, the cascade's step 2^power (the caller's: sums/sum_mid.py
    `geometry`); p = (rows, n, power, address of out, xs..., fs...).  Returns 0."""
    t = ir.FloatType() if single else ir.DoubleType()
    lanes = 8 if single else 4
    i64 = ir.IntType(64)
    vec = ir.VectorType(t, lanes)
    pt, pv, pi = ir.PointerType(t), ir.PointerType(vec), ir.PointerType(i64)
    fn = ir.Function(mod, ir.FunctionType(i64, [pi]), name=name)
    (params,) = fn.args
    align = 4 if single else 8

    def k64(v):
        return ir.Constant(i64, v)

    zero = ir.Constant(vec, [0.0] * lanes)
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    rows, n, power, out_at = (b.load(b.gep(params, [k64(j)])) for j in range(4))
    out = b.inttoptr(out_at, pt)
    xs = b.gep(params, [k64(4)])
    fs = b.gep(xs, [rows])
    acc = b.alloca(vec, size=k64(ILP * LEVELS))  # level j, partial q at j * ILP + q
    r_at, i_at, v_at, s_at, t_at = (b.alloca(i64) for _ in range(5))
    tot = b.alloca(t)
    nv = b.sdiv(n, k64(lanes))  # whole vectors
    groups = b.sdiv(nv, k64(ILP))
    step = b.shl(k64(1), power)
    lmask = b.sub(step, k64(1))
    b.store(k64(0), r_at)
    rowx = {}  # the row's values, factors and whether it has factors (set per row)

    def block(label):
        return fn.append_basic_block(label)

    def loop(b, cond, body, label):
        """while cond(b): body(b); the builder placed after the loop."""
        head, inner, end = block(label), block(label + "_body"), block(label + "_end")
        b.branch(head)
        b.position_at_end(head)
        b.cbranch(cond(b), inner, end)
        b.position_at_end(inner)
        body(b)
        b.branch(head)
        b.position_at_end(end)

    def slot(b, j):
        return b.gep(acc, [j if not isinstance(j, int) else k64(j)])

    def vector(b, v):
        """Vector v of the row (its product with the factor's where there is one)."""
        off = b.mul(v, k64(lanes))
        xv = b.load(b.bitcast(b.gep(rowx["x"], [off]), pv), align=align)
        # (no factor: the row's own values read again, not used)
        fv = b.load(b.bitcast(b.gep(rowx["f"], [off]), pv), align=align)
        return b.select(rowx["has"], b.fmul(xv, fv), xv)

    def row(b):
        r = b.load(r_at)
        x = b.inttoptr(b.load(b.gep(xs, [r])), pt)
        f_at = b.load(b.gep(fs, [r]))
        has = b.icmp_signed("!=", f_at, k64(0))
        # (the row's own values for its factors where it has none: never a null pointer)
        rowx.update(x=x, f=b.select(has, b.inttoptr(f_at, pt), x), has=has)
        for j in range(ILP * LEVELS):
            b.store(zero, slot(b, j))
        b.store(k64(0), i_at)

        def add_group(b):  # level 0 += group i; i += 1
            i = b.load(i_at)
            for q in range(ILP):
                s = slot(b, q)
                b.store(b.fadd(b.load(s), vector(b, b.add(b.mul(i, k64(ILP)), k64(q)))), s)
            b.store(b.add(i, k64(1)), i_at)

        def chunk(b):  # step groups into level 0, then up the levels
            b.store(k64(0), s_at)
            loop(
                b,
                lambda b: b.icmp_signed("<", b.load(s_at), step),
                lambda b: (add_group(b), b.store(b.add(b.load(s_at), k64(1)), s_at)),
                "chunk_groups",
            )
            done = block("levels_done")
            for j in range(1, LEVELS):
                for q in range(ILP):
                    lo, hi = slot(b, (j - 1) * ILP + q), slot(b, j * ILP + q)
                    b.store(b.fadd(b.load(hi), b.load(lo)), hi)
                    b.store(zero, lo)
                if j == LEVELS - 1:
                    b.branch(done)
                else:
                    mask = b.shl(lmask, b.mul(power, k64(j)))
                    up = b.icmp_signed("!=", b.and_(b.load(i_at), mask), k64(0))
                    nxt = block("level_%d" % (j + 1))
                    b.cbranch(up, done, nxt)
                    b.position_at_end(nxt)
            b.position_at_end(done)

        loop(
            b,
            lambda b: b.icmp_signed("<=", b.add(b.load(i_at), step), groups),
            chunk,
            "chunks",
        )
        loop(b, lambda b: b.icmp_signed("<", b.load(i_at), groups), add_group, "rest")
        for j in range(1, LEVELS):  # the levels into level 0, in order
            for q in range(ILP):
                s = slot(b, q)
                b.store(b.fadd(b.load(s), b.load(slot(b, j * ILP + q))), s)
        # the vectors after the last whole group, into the first partial
        b.store(b.mul(groups, k64(ILP)), v_at)

        def left(b):
            v = b.load(v_at)
            s = slot(b, 0)
            b.store(b.fadd(b.load(s), vector(b, v)), s)
            b.store(b.add(v, k64(1)), v_at)

        loop(b, lambda b: b.icmp_signed("<", b.load(v_at), nv), left, "left")
        p = b.load(slot(b, 0))
        for q in range(1, ILP):
            p = b.fadd(p, b.load(slot(b, q)))
        # from +0: the scalars after the last whole vector, then the lanes in order
        b.store(ir.Constant(t, 0.0), tot)
        b.store(b.mul(nv, k64(lanes)), t_at)

        def scalar(b):
            e = b.load(t_at)
            v = b.load(b.gep(rowx["x"], [e]))
            f = b.load(b.gep(rowx["f"], [e]))
            b.store(b.fadd(b.load(tot), b.select(rowx["has"], b.fmul(v, f), v)), tot)
            b.store(b.add(e, k64(1)), t_at)

        loop(b, lambda b: b.icmp_signed("<", b.load(t_at), n), scalar, "scalars")
        total = b.load(tot)
        for lane in range(lanes):
            total = b.fadd(total, b.extract_element(p, ir.Constant(ir.IntType(32), lane)))
        b.store(total, b.gep(out, [r]))
        b.store(b.add(r, k64(1)), r_at)

    loop(b, lambda b: b.icmp_signed("<", b.load(r_at), rows), row, "rows")
    b.ret(k64(0))


def sums_module(llvm, ir, tm, names):
    """The loops `names` ({dtype char: function name}) in a module of their own (an
    `llvm` binding module, to link into the other loops'), their accumulators and
    counters promoted from memory to registers (LLVM's instcombine, SROA, instcombine,
    simplifycfg: about 5 ms, once; none of them changes a floating-point operation,
    none has fast-math flags to use) where this llvmlite has the passes, else as made."""
    mod = ir.Module(name="gradcli_sums")
    mod.triple = tm.triple
    for char, name in names.items():
        sums_ir(ir, mod, name, char == "f")
    m = llvm.parse_assembly(str(mod))
    m.verify()
    try:
        pb = llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(speed_level=0))
        mpm = llvm.create_new_module_pass_manager()
    except AttributeError:  # (an llvmlite without the new pass manager)
        return m
    mpm.add_instruction_combine_pass()
    mpm.add_sroa_pass()
    mpm.add_instruction_combine_pass()
    mpm.add_simplify_cfg_pass()
    mpm.run(m, pb)
    m.verify()
    return m


def fma_chain_ir(ir, mod, name, single):
    """i64 NAME(i64 steps, i64 width, T* a, T* b, T* acc), T float (single) or double:
    for each j < width in turn, acc[j] = fma(a[i, j], b[i, j], acc[j]) for i = 0, 1, ...
    steps - 1 (a and b (steps, width) C-contiguous), each step `fma.fma`'s (doubles) or
    `fma.fma32`'s (floats) as `native_sleef.Emit` computes them; returns how many of the
    width chains had a step the emulation must decide (the caller then makes them all
    itself, from its own copy of acc)."""
    i64, i1 = ir.IntType(64), ir.IntType(1)
    t = ir.FloatType() if single else ir.DoubleType()
    pt = ir.PointerType(t)
    fn = ir.Function(mod, ir.FunctionType(i64, [i64, i64, pt, pt, pt]), name=name)
    steps, width, pa, pb, pacc = fn.args
    for p in (pa, pb, pacc):
        p.add_attribute("noalias")
    entry, col, step, col_end, done = (
        fn.append_basic_block(x) for x in ("entry", "col", "step", "col_end", "done")
    )
    zero = ir.Constant(i64, 0)
    b = ir.IRBuilder(entry)
    go = b.and_(b.icmp_signed(">", steps, zero), b.icmp_signed(">", width, zero))
    b.cbranch(go, col, done)

    b = ir.IRBuilder(col)  # for j in range(width): its accumulator
    j, cnt = b.phi(i64), b.phi(i64)
    j.add_incoming(zero, entry)
    cnt.add_incoming(zero, entry)
    slot = b.gep(pacc, [j])
    first = b.load(slot)
    b.branch(step)

    b = ir.IRBuilder(step)  # for i in range(steps): one fused step
    i, acc, bad = b.phi(i64), b.phi(t), b.phi(i1)
    i.add_incoming(zero, col)
    acc.add_incoming(first, col)
    bad.add_incoming(ir.Constant(i1, 0), col)
    at = b.add(b.mul(i, width), j)
    x, y = b.load(b.gep(pa, [at])), b.load(b.gep(pb, [at]))
    emit = Emit(ir, mod, b)
    if single:
        d = ir.DoubleType()
        new = emit.fma32(b.fpext(x, d), b.fpext(y, d), b.fpext(acc, d))
    else:
        new = emit.fma64(x, y, acc)
    bad2 = b.or_(bad, emit.bad)
    i2 = b.add(i, ir.Constant(i64, 1))
    i.add_incoming(i2, step)
    acc.add_incoming(new, step)
    bad.add_incoming(bad2, step)
    b.cbranch(b.icmp_signed("<", i2, steps), step, col_end)

    b = ir.IRBuilder(col_end)
    b.store(new, slot)
    cnt2 = b.add(cnt, b.zext(bad2, i64))
    j2 = b.add(j, ir.Constant(i64, 1))
    j.add_incoming(j2, col_end)
    cnt.add_incoming(cnt2, col_end)
    b.cbranch(b.icmp_signed("<", j2, width), col, done)

    b = ir.IRBuilder(done)
    total = b.phi(i64)
    total.add_incoming(zero, entry)
    total.add_incoming(cnt2, col_end)
    b.ret(total)


def chunk_sums_ir(ir, mod, name, single):
    """i64 NAME(i64 rows, i64 cols, i64 chunk, T* x, T* m, T* y, double* total, i64 mode),
    T float (single) or double, x and y (rows, cols) C-contiguous, m (cols,): per column
    j, the rows cut into chunks of `chunk` (the last shorter), each chunk's accumulator
    from +0 in the dtype, `acc = acc + x[i, j]` (mode 0), `acc = fma(x[i, j] - m[j],
    y[i, j], acc)` (mode 1) or `fma(d, d, acc)` with d = x[i, j] - m[j] (mode 2), and
    total[j] = +0 plus the chunks' accumulators in order, in float64: the channels-last
    batch norm kernels' sums, each thread's rows one chunk.  The fused steps are
    `fma.fma`'s (doubles) or `fma.fma32`'s (floats) as `native_sleef.Emit` computes them;
    returns how many columns had a step the emulation must decide (their totals then
    mean nothing: the caller sums them itself)."""
    i64, i1 = ir.IntType(64), ir.IntType(1)
    t = ir.FloatType() if single else ir.DoubleType()
    dbl = ir.DoubleType()
    pt = ir.PointerType(t)
    fnty = ir.FunctionType(i64, [i64, i64, i64, pt, pt, pt, ir.PointerType(dbl), i64])
    fn = ir.Function(mod, fnty, name=name)
    rows, cols, chunk, px, pm, py, ptot, mode = fn.args
    for p in (px, pm, py, ptot):
        p.add_attribute("noalias")
    names = ("entry", "col", "part", "step", "part_end", "col_end", "done")
    entry, col, part, step, part_end, col_end, done = (fn.append_basic_block(x) for x in names)
    zero, one = ir.Constant(i64, 0), ir.Constant(i64, 1)
    b = ir.IRBuilder(entry)
    go = b.and_(b.icmp_signed(">", rows, zero), b.icmp_signed(">", cols, zero))
    go = b.and_(go, b.icmp_signed(">", chunk, zero))
    b.cbranch(go, col, done)

    b = ir.IRBuilder(col)  # for j in range(cols)
    j, cnt = b.phi(i64), b.phi(i64)
    j.add_incoming(zero, entry)
    cnt.add_incoming(zero, entry)
    mj = b.load(b.gep(pm, [j]))
    b.branch(part)

    b = ir.IRBuilder(part)  # for each chunk's first row `start`
    start, tot, bad = b.phi(i64), b.phi(dbl), b.phi(i1)
    start.add_incoming(zero, col)
    tot.add_incoming(ir.Constant(dbl, 0.0), col)
    bad.add_incoming(ir.Constant(i1, 0), col)
    end = b.add(start, chunk)
    end = b.select(b.icmp_signed("<", end, rows), end, rows)
    b.branch(step)

    b = ir.IRBuilder(step)  # for i in range(start, end): one step
    i, acc, bad_i = b.phi(i64), b.phi(t), b.phi(i1)
    i.add_incoming(start, part)
    acc.add_incoming(ir.Constant(t, 0.0), part)
    bad_i.add_incoming(bad, part)
    at = b.add(b.mul(i, cols), j)
    x = b.load(b.gep(px, [at]))
    y = b.load(b.gep(py, [at]))
    plain = b.fadd(acc, x)
    d = b.fsub(x, mj)
    f = b.select(b.icmp_signed("==", mode, ir.Constant(i64, 2)), d, y)
    emit = Emit(ir, mod, b)
    if single:
        fused = emit.fma32(b.fpext(d, dbl), b.fpext(f, dbl), b.fpext(acc, dbl))
    else:
        fused = emit.fma64(d, f, acc)
    summing = b.icmp_signed("==", mode, zero)
    new = b.select(summing, plain, fused)
    bad2 = b.or_(bad_i, b.and_(b.not_(summing), emit.bad))
    i2 = b.add(i, one)
    i.add_incoming(i2, b.block)
    acc.add_incoming(new, b.block)
    bad_i.add_incoming(bad2, b.block)
    b.cbranch(b.icmp_signed("<", i2, end), step, part_end)

    b = ir.IRBuilder(part_end)
    tot2 = b.fadd(tot, b.fpext(new, dbl) if single else new)
    start.add_incoming(end, part_end)
    tot.add_incoming(tot2, part_end)
    bad.add_incoming(bad2, part_end)
    b.cbranch(b.icmp_signed("<", end, rows), part, col_end)

    b = ir.IRBuilder(col_end)
    b.store(tot2, b.gep(ptot, [j]))
    cnt2 = b.add(cnt, b.zext(bad2, i64))
    j2 = b.add(j, one)
    j.add_incoming(j2, col_end)
    cnt.add_incoming(cnt2, col_end)
    b.cbranch(b.icmp_signed("<", j2, cols), col, done)

    b = ir.IRBuilder(done)
    total = b.phi(i64)
    total.add_incoming(zero, entry)
    total.add_incoming(cnt2, col_end)
    b.ret(total)
