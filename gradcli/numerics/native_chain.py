"""chain32's loop (`numerics/native.py` compiles it with its other loops and calls it:
`native.chain32`): chains of float32 fused steps into accumulators held in registers, the
weight gradient, forward and input gradient of oneDNN's float32 convolution
(numerics/onednn_conv.py).  Only `llvmlite.ir` objects are made here."""

from __future__ import annotations

#: rows of a tile of the chained steps (chain32): each row's vector of accumulators is its
#: own chain, and four keep the fused steps' latency covered
CHAIN_ROWS = 4
#: chain32's parameters, in this order in its i64 array
CHAIN_PARAMS = ("positions", "cols", "rows", "per_image", "per_row", "per_col", "tiles", "vecs")


def chain_ir(ir, mod, name, lanes):
    """i64 NAME(i64* params, float* a, i64* offsets, float* b, float* acc): chains of
    fused steps, acc[r, j] = fma(A[p, r], b[p, j], acc[r, j]) for the positions p = 0, 1,
    ... in turn, one rounding each (the hardware's float32 FMA), for every row r <
    CHAIN_ROWS * tiles and lane j < lanes * vecs (params: CHAIN_PARAMS).  The positions
    are (image, row, column) of `rows` rows of `cols` columns, and A[p, r] is
    a[image * per_image + row * per_row + column * per_col + offsets[r]] (a strided view
    of the input, say); b is (positions, lanes * vecs) and acc (CHAIN_ROWS * tiles,
    lanes * vecs), C-contiguous.  Each tile's accumulators stay in registers through its
    chains; returns 0."""
    flt, i64, i32 = ir.FloatType(), ir.IntType(64), ir.IntType(32)
    vec = ir.VectorType(flt, lanes)
    pf, pv, pi = ir.PointerType(flt), ir.PointerType(vec), ir.PointerType(i64)
    fma = mod.globals.get("llvm.fma.v8f32") or ir.Function(
        mod, ir.FunctionType(vec, [vec] * 3), name="llvm.fma.v8f32"
    )
    fn = ir.Function(mod, ir.FunctionType(i64, [pi, pf, pi, pf, pf]), name=name)
    params, pa, offs, pb, pacc = fn.args
    for ptr in fn.args:
        ptr.add_attribute("noalias")
    names = ("entry", "tile", "col", "pos", "col_end", "tile_end", "done")
    entry, tile, col, pos, col_end, tile_end, done = (fn.append_basic_block(x) for x in names)

    def k64(v):
        return ir.Constant(i64, v)

    b = ir.IRBuilder(entry)
    n, ow, oh, s_img, s_row, s_col, tiles, vecs = (
        b.load(b.gep(params, [k64(i)])) for i in range(len(CHAIN_PARAMS))
    )
    ldb = b.mul(vecs, k64(lanes))
    # the step from a row's last column to the next row's first, and from an image's last
    # row to the next image's first
    row_jump = b.sub(s_row, b.mul(ow, s_col))
    img_jump = b.sub(s_img, b.mul(oh, s_row))
    go = b.and_(b.icmp_signed(">", n, k64(0)), b.icmp_signed(">", tiles, k64(0)))
    b.cbranch(b.and_(go, b.icmp_signed(">", vecs, k64(0))), tile, done)

    b = ir.IRBuilder(tile)  # for t in range(tiles): the tile's rows' offsets
    t = b.phi(i64)
    t.add_incoming(k64(0), entry)
    row0 = b.mul(t, k64(CHAIN_ROWS))
    row_offs = [b.load(b.gep(offs, [b.add(row0, k64(k))])) for k in range(CHAIN_ROWS)]
    b.branch(col)

    b = ir.IRBuilder(col)  # for v in range(vecs): the tile's accumulators loaded
    v = b.phi(i64)
    v.add_incoming(k64(0), tile)
    j0 = b.mul(v, k64(lanes))
    slots = [
        b.bitcast(b.gep(pacc, [b.add(b.mul(b.add(row0, k64(k)), ldb), j0)]), pv)
        for k in range(CHAIN_ROWS)
    ]
    start = [b.load(slot, align=4) for slot in slots]
    b.branch(pos)

    b = ir.IRBuilder(pos)  # for p in range(n): one fused step per row of the tile
    p, c, r, at = b.phi(i64), b.phi(i64), b.phi(i64), b.phi(i64)
    for phi in (p, c, r, at):
        phi.add_incoming(k64(0), col)
    accs = [b.phi(vec) for _ in range(CHAIN_ROWS)]
    for acc, first in zip(accs, start):
        acc.add_incoming(first, col)
    bv = b.load(b.bitcast(b.gep(pb, [b.add(b.mul(p, ldb), j0)]), pv), align=4)
    lanes0 = ir.Constant(ir.VectorType(i32, lanes), [0] * lanes)
    new = []
    for off, acc in zip(row_offs, accs):
        x = b.load(b.gep(pa, [b.add(at, off)]), align=4)
        splat = b.insert_element(ir.Constant(vec, ir.Undefined), x, ir.Constant(i32, 0))
        splat = b.shuffle_vector(splat, ir.Constant(vec, ir.Undefined), lanes0)
        new.append(b.call(fma, [splat, bv, acc]))
    # the next position: its column, row and offset in a
    c1 = b.add(c, k64(1))
    wrap = b.icmp_signed("==", c1, ow)
    r1 = b.select(wrap, b.add(r, k64(1)), r)
    wrap2 = b.icmp_signed("==", r1, oh)
    at2 = b.add(at, s_col)
    at2 = b.add(at2, b.select(wrap, row_jump, k64(0)))
    at2 = b.add(at2, b.select(wrap2, img_jump, k64(0)))
    p2 = b.add(p, k64(1))
    for phi, nxt in zip(
        (p, c, r, at), (p2, b.select(wrap, k64(0), c1), b.select(wrap2, k64(0), r1), at2)
    ):
        phi.add_incoming(nxt, pos)
    for acc, x in zip(accs, new):
        acc.add_incoming(x, pos)
    b.cbranch(b.icmp_signed("<", p2, n), pos, col_end)

    b = ir.IRBuilder(col_end)
    for slot, x in zip(slots, new):
        b.store(x, slot, align=4)
    v2 = b.add(v, k64(1))
    v.add_incoming(v2, col_end)
    b.cbranch(b.icmp_signed("<", v2, vecs), col, tile_end)
    b = ir.IRBuilder(tile_end)
    t2 = b.add(t, k64(1))
    t.add_incoming(t2, tile_end)
    b.cbranch(b.icmp_signed("<", t2, tiles), tile, done)
    b = ir.IRBuilder(done)
    b.ret(k64(0))
