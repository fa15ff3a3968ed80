"""max_pool2d's forward and backward as compiled loops (`numerics/native.py` compiles them
with its other loops), for a pooling whose every window lies inside its input.

NumPy takes a small pooling (conv_net's 32 x 6 x 10 x 10 input, windows of 2 x 2) in a
dozen calls whose fixed cost is most of the time (`ops/pool_windows.py`: a gather of the
windows, a maximum per position, the choice found again by equality); the loop here makes
the compares of `MaxPool2d._windows` themselves, output after output: from the value at
the window's first position, a later value is taken when it is greater than the one held
or is a NaN while the one held is not (the first NaN of a window is kept), so the maxima
and the chosen positions are those of the strided compares bit for bit, NaNs and signed
zeros included (tests/numerics/test_native_pool.py compares them).  The backward adds each
output's gradient into its input's, output after output in the dtype (PyTorch's kernel:
`np.add.at`'s order and roundings).  One more loop is relu's backward beside it
(threshold_backward: the gradient where the input is above 0 or NaN, +0 elsewhere; NumPy's
mask of bits takes three passes and a cast).  Only `llvmlite.ir` objects are made here;
`native.pool_max`, `native.pool_scatter` and `native.kept` call the loops."""

from __future__ import annotations


def _params(ir, b, params, count):
    i64 = ir.IntType(64)
    return [b.load(b.gep(params, [ir.Constant(i64, j)])) for j in range(count)]


def pool_max_ir(ir, mod, name, single):
    """i64 NAME(i64* p), T float (single) or double; p = (planes, oh, ow, plane, row, col,
    K, x, offs, out, local, flat) (addresses as integers): for each plane, output row r
    and column q in order (output m), its window's corner c = plane * `plane` + r * `row`
    + q * `col` in x, its values x[c + offs[k]] for k < K (offs[0] = 0) compared in order
    from k = 0, out[m] the one kept, flat[m] its index c + offs[k] and local[m] its index
    in its plane (the windows' corners are counted, not read from a table: a table of
    them is as large as the output, and out of the cache in a loop).  Returns 0."""
    t = ir.FloatType() if single else ir.DoubleType()
    i64 = ir.IntType(64)
    pt, pi = ir.PointerType(t), ir.PointerType(i64)
    fn = ir.Function(mod, ir.FunctionType(i64, [pi]), name=name)
    (params,) = fn.args
    names = ("entry", "planes", "rows", "cols", "inner", "store", "next_row", "next_plane", "done")
    entry, ploop, rloop, qloop, inner, store, rnext, pnext, done = (
        fn.append_basic_block(x) for x in names
    )
    zero, one = ir.Constant(i64, 0), ir.Constant(i64, 1)
    b = ir.IRBuilder(entry)
    n_p, oh, ow, plane, row, col, k_n, *at = _params(ir, b, params, 12)
    px, poffs, pout, plocal, pflat = (
        b.inttoptr(a, pt if j in (0, 2) else pi) for j, a in enumerate(at)
    )
    outs = b.mul(oh, ow)
    go = b.and_(b.icmp_signed(">", n_p, zero), b.icmp_signed(">", outs, zero))
    b.cbranch(go, ploop, done)

    b = ir.IRBuilder(ploop)
    pp = b.phi(i64)
    pp.add_incoming(zero, entry)
    pstart = b.mul(pp, plane)
    mplane = b.mul(pp, outs)
    b.branch(rloop)

    b = ir.IRBuilder(rloop)
    r = b.phi(i64)
    r.add_incoming(zero, ploop)
    rowbase = b.add(pstart, b.mul(r, row))
    mrow = b.add(mplane, b.mul(r, ow))
    b.branch(qloop)

    b = ir.IRBuilder(qloop)
    q = b.phi(i64)
    q.add_incoming(zero, rloop)
    base = b.add(rowbase, b.mul(q, col))
    first = b.load(b.gep(px, [base]))
    b.cbranch(b.icmp_signed(">", k_n, one), inner, store)

    b = ir.IRBuilder(inner)
    k, best, off = b.phi(i64), b.phi(t), b.phi(i64)
    k.add_incoming(one, qloop)
    best.add_incoming(first, qloop)
    off.add_incoming(zero, qloop)
    o = b.load(b.gep(poffs, [k]))
    v = b.load(b.gep(px, [b.add(base, o)]))
    # v > best, or v a NaN while best is not
    take = b.or_(
        b.fcmp_ordered(">", v, best),
        b.and_(b.fcmp_unordered("uno", v, v), b.fcmp_ordered("ord", best, best)),
    )
    best2 = b.select(take, v, best)
    off2 = b.select(take, o, off)
    k2 = b.add(k, one)
    k.add_incoming(k2, inner)
    best.add_incoming(best2, inner)
    off.add_incoming(off2, inner)
    b.cbranch(b.icmp_signed("<", k2, k_n), inner, store)

    b = ir.IRBuilder(store)
    kept, chosen = b.phi(t), b.phi(i64)
    kept.add_incoming(first, qloop)
    kept.add_incoming(best2, inner)
    chosen.add_incoming(zero, qloop)
    chosen.add_incoming(off2, inner)
    m = b.add(mrow, q)
    b.store(kept, b.gep(pout, [m]))
    f = b.add(base, chosen)
    b.store(f, b.gep(pflat, [m]))
    b.store(b.sub(f, pstart), b.gep(plocal, [m]))
    q2 = b.add(q, one)
    q.add_incoming(q2, store)
    b.cbranch(b.icmp_signed("<", q2, ow), qloop, rnext)

    b = ir.IRBuilder(rnext)
    r2 = b.add(r, one)
    r.add_incoming(r2, rnext)
    b.cbranch(b.icmp_signed("<", r2, oh), rloop, pnext)

    b = ir.IRBuilder(pnext)
    p2 = b.add(pp, one)
    pp.add_incoming(p2, pnext)
    b.cbranch(b.icmp_signed("<", p2, n_p), ploop, done)

    b = ir.IRBuilder(done)
    b.ret(zero)


def pool_scatter_ir(ir, mod, name, single):
    """i64 NAME(i64* p), T float (single) or double; p = (M, size, g, flat, out): out[i]
    = +0 for i < size, then out[flat[m]] += g[m] for m < M in order, each addition
    rounded to T.  Returns 0."""
    t = ir.FloatType() if single else ir.DoubleType()
    i64 = ir.IntType(64)
    pt, pi = ir.PointerType(t), ir.PointerType(i64)
    fn = ir.Function(mod, ir.FunctionType(i64, [pi]), name=name)
    (params,) = fn.args
    entry, clear, check, add, done = (
        fn.append_basic_block(x) for x in ("entry", "clear", "check", "add", "done")
    )
    zero, one = ir.Constant(i64, 0), ir.Constant(i64, 1)
    b = ir.IRBuilder(entry)
    m_n, size, g_at, flat_at, out_at = _params(ir, b, params, 5)
    pg, pflat, pout = b.inttoptr(g_at, pt), b.inttoptr(flat_at, pi), b.inttoptr(out_at, pt)
    b.cbranch(b.icmp_signed(">", size, zero), clear, check)

    b = ir.IRBuilder(clear)
    i = b.phi(i64)
    i.add_incoming(zero, entry)
    b.store(ir.Constant(t, 0.0), b.gep(pout, [i]))
    i2 = b.add(i, one)
    i.add_incoming(i2, clear)
    b.cbranch(b.icmp_signed("<", i2, size), clear, check)

    b = ir.IRBuilder(check)
    b.cbranch(b.icmp_signed(">", m_n, zero), add, done)

    b = ir.IRBuilder(add)
    m = b.phi(i64)
    m.add_incoming(zero, check)
    at = b.gep(pout, [b.load(b.gep(pflat, [m]))])
    b.store(b.fadd(b.load(at), b.load(b.gep(pg, [m]))), at)
    m2 = b.add(m, one)
    m.add_incoming(m2, add)
    b.cbranch(b.icmp_signed("<", m2, m_n), add, done)

    b = ir.IRBuilder(done)
    b.ret(zero)


def kept_ir(ir, mod, name, single, strict=False):
    """i64 NAME(i64* p), T float (single) or double; p = (n, g, x, out): out[i] = +0 where
    x[i] <= 0, else g[i] (a NaN x keeps g): relu's backward (threshold_backward), as
    `ops/unary.py` `_kept_where` makes it; `strict`: +0 where x[i] < 0 (relu itself with
    g = x: x kept where it is -0 or NaN, as NumPy's maximum(0, x) keeps it); in vectors of AVX2's lanes (8 floats, 4
    doubles; a compare and a select each, no arithmetic), the values after the last
    whole vector one at a time.  Returns 0."""
    t = ir.FloatType() if single else ir.DoubleType()
    lanes = 8 if single else 4
    vec = ir.VectorType(t, lanes)
    i64 = ir.IntType(64)
    pt, pi, pv = ir.PointerType(t), ir.PointerType(i64), ir.PointerType(vec)
    fn = ir.Function(mod, ir.FunctionType(i64, [pi]), name=name)
    (params,) = fn.args
    entry, vloop, tail, sloop, done = (
        fn.append_basic_block(x) for x in ("entry", "vloop", "tail", "sloop", "done")
    )
    zero, one, width = ir.Constant(i64, 0), ir.Constant(i64, 1), ir.Constant(i64, lanes)
    b = ir.IRBuilder(entry)
    n, g_at, x_at, out_at = _params(ir, b, params, 4)
    pg, px, pout = (b.inttoptr(a, pt) for a in (g_at, x_at, out_at))
    whole = b.mul(b.sdiv(n, width), width)
    b.cbranch(b.icmp_signed(">", whole, zero), vloop, tail)

    b = ir.IRBuilder(vloop)
    i = b.phi(i64)
    i.add_incoming(zero, entry)
    align = 4 if single else 8
    x = b.load(b.bitcast(b.gep(px, [i]), pv), align=align)
    g = b.load(b.bitcast(b.gep(pg, [i]), pv), align=align)
    vzero = ir.Constant(vec, [0.0] * lanes)
    drop = b.fcmp_ordered("<" if strict else "<=", x, vzero)
    b.store(b.select(drop, vzero, g), b.bitcast(b.gep(pout, [i]), pv), align=align)
    i2 = b.add(i, width)
    i.add_incoming(i2, vloop)
    b.cbranch(b.icmp_signed("<", i2, whole), vloop, tail)

    b = ir.IRBuilder(tail)
    b.cbranch(b.icmp_signed("<", whole, n), sloop, done)

    b = ir.IRBuilder(sloop)
    k = b.phi(i64)
    k.add_incoming(whole, tail)
    x = b.load(b.gep(px, [k]))
    g = b.load(b.gep(pg, [k]))
    drop = b.fcmp_ordered("<" if strict else "<=", x, ir.Constant(t, 0.0))
    b.store(b.select(drop, ir.Constant(t, 0.0), g), b.gep(pout, [k]))
    k2 = b.add(k, one)
    k.add_incoming(k2, sloop)
    b.cbranch(b.icmp_signed("<", k2, n), sloop, done)

    b = ir.IRBuilder(done)
    b.ret(zero)


def rows_ir(ir, mod, name, width):
    """i64 NAME(i64* p), elements of `width` bytes (4 or 8, copied as integers: the bits
    as they are); p = (R, L, step, x, src, out): for r < R and q < L, out[r * L + q] =
    x[src[r] + q * step] (indices in elements): a convolution's im2col columns, a row of
    each window position's outputs at a time.  Returns 0."""
    t = ir.IntType(8 * width)
    i64 = ir.IntType(64)
    pt, pi = ir.PointerType(t), ir.PointerType(i64)
    fn = ir.Function(mod, ir.FunctionType(i64, [pi]), name=name)
    (params,) = fn.args
    entry, outer, inner, nxt, done = (
        fn.append_basic_block(x) for x in ("entry", "outer", "inner", "next", "done")
    )
    zero, one = ir.Constant(i64, 0), ir.Constant(i64, 1)
    b = ir.IRBuilder(entry)
    r_n, l_n, step, x_at, src_at, out_at = _params(ir, b, params, 6)
    px, psrc, pout = b.inttoptr(x_at, pt), b.inttoptr(src_at, pi), b.inttoptr(out_at, pt)
    b.cbranch(b.and_(b.icmp_signed(">", r_n, zero), b.icmp_signed(">", l_n, zero)), outer, done)

    b = ir.IRBuilder(outer)
    r = b.phi(i64)
    r.add_incoming(zero, entry)
    s = b.load(b.gep(psrc, [r]))
    row = b.mul(r, l_n)
    b.branch(inner)

    b = ir.IRBuilder(inner)
    q = b.phi(i64)
    q.add_incoming(zero, outer)
    v = b.load(b.gep(px, [b.add(s, b.mul(q, step))]))
    b.store(v, b.gep(pout, [b.add(row, q)]))
    q2 = b.add(q, one)
    q.add_incoming(q2, inner)
    b.cbranch(b.icmp_signed("<", q2, l_n), inner, nxt)

    b = ir.IRBuilder(nxt)
    r2 = b.add(r, one)
    r.add_incoming(r2, nxt)
    b.cbranch(b.icmp_signed("<", r2, r_n), outer, done)

    b = ir.IRBuilder(done)
    b.ret(zero)
