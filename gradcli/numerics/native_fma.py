"""The compiled fused multiply-add step (`numerics/native.py` compiles it with its other
loops and calls it: `fused`, `quick`) and the walk of its operands.

The loop runs over planes of rows of columns, each operand read at its own strides
(in elements; 0 broadcasts), the result C-ordered: the shapes and strides of any operands
whose dims fold into three, as TensorIterator coalesces them (`walk`), a (C,) scale against
(N, C) rows, a column against a matrix, a transposed or sliced view.  Each value's step
is its own, so the walk changes no bit.  Only `llvmlite.ir` objects are made here."""

from __future__ import annotations

from .native_sleef import Emit


def loop_ir(ir, mod, kind, types):
    """i64 KIND_TYPES(i64 rows, i64 cols, a*, b*, c*, out*, i8* flag, i64 sa, i64 sb,
    i64 sc, i64 ra, i64 rb, i64 rc, i64 per, i64 qa, i64 qb, i64 qc): for each row r
    (its plane q = r / per and its row in the plane i = r % per), out[r*cols + k] = the
    fused step of a[q*qa + i*ra + k*sa], b[...], c[...] (strides in elements; a stride
    of 0 broadcasts), flag[r*cols + k] = 1 where the emulation must decide; returns how
    many are flagged."""
    dbl, flt, i64, i8 = ir.DoubleType(), ir.FloatType(), ir.IntType(64), ir.IntType(8)
    elems = [dbl] + [flt if t == "f" else dbl for t in types]
    out_t = ir.PointerType(dbl if kind == "fma64" else flt)
    fnty = ir.FunctionType(
        i64,
        [i64, i64, *(ir.PointerType(e) for e in elems), out_t, ir.PointerType(i8)] + [i64] * 10,
    )
    fn = ir.Function(mod, fnty, name=f"{kind}_{types}")
    rows, cols, pa, pb, pc, po, pf, sa, sb, sc, ra, rb, rc, per, qa, qb, qc = fn.args
    for p in (pa, pb, pc, po, pf):
        p.add_attribute("noalias")
    blocks = ("entry", "outer", "inner", "next", "done")
    entry, outer, inner, nxt, done = (fn.append_basic_block(x) for x in blocks)
    zero = ir.Constant(i64, 0)
    b = ir.IRBuilder(entry)
    some = b.and_(b.icmp_signed(">", rows, zero), b.icmp_signed(">", cols, zero))
    b.cbranch(some, outer, done)
    b = ir.IRBuilder(outer)
    r = b.phi(i64)
    cnt_r = b.phi(i64)
    r.add_incoming(zero, entry)
    cnt_r.add_incoming(zero, entry)
    q, i_r = b.sdiv(r, per), b.srem(r, per)
    bases = [
        b.gep(p, [b.add(b.mul(q, qs), b.mul(i_r, st))])
        for p, st, qs in zip((pa, pb, pc), (ra, rb, rc), (qa, qb, qc))
    ]
    po_r = b.gep(po, [b.mul(r, cols)])
    pf_r = b.gep(pf, [b.mul(r, cols)])
    b.branch(inner)
    b = ir.IRBuilder(inner)
    i = b.phi(i64)
    cnt = b.phi(i64)
    i.add_incoming(zero, outer)
    cnt.add_incoming(cnt_r, outer)
    vals = []
    for t, p, st in zip(elems, bases, (sa, sb, sc)):
        v = b.load(b.gep(p, [b.mul(i, st)]))
        vals.append(b.fpext(v, dbl) if t is flt else v)
    emit = Emit(ir, mod, b)
    res = (emit.fma64 if kind == "fma64" else emit.fma32)(*vals)
    hard = emit.bad
    b.store(res, b.gep(po_r, [i]))
    b.store(b.zext(hard, i8), b.gep(pf_r, [i]))
    cnt2 = b.add(cnt, b.zext(hard, i64))
    i2 = b.add(i, ir.Constant(i64, 1))
    i.add_incoming(i2, b.block)
    cnt.add_incoming(cnt2, b.block)
    b.cbranch(b.icmp_signed("<", i2, cols), inner, nxt)
    b = ir.IRBuilder(nxt)
    r2 = b.add(r, ir.Constant(i64, 1))
    r.add_incoming(r2, nxt)
    cnt_r.add_incoming(cnt2, nxt)
    b.cbranch(b.icmp_signed("<", r2, rows), outer, done)
    b = ir.IRBuilder(done)
    total = b.phi(i64)
    total.add_incoming(zero, entry)
    total.add_incoming(cnt2, nxt)
    b.ret(total)


#: walks made, by the operands' shapes, strides and item sizes (a loop's few layouts)
_walks: dict = {}


def walk(arrays):
    """`_walk` of the arrays, kept by their layouts."""
    key = tuple((x.shape, x.strides, x.itemsize) for x in arrays)
    got = _walks.get(key, False)
    if got is False:
        if len(_walks) >= 256:
            _walks.clear()
        got = _walks[key] = _walk(arrays)
    return got


def _walk(arrays):
    """(shape, planes, rows, cols, strides, row strides, plane strides) of the step over
    `arrays` broadcast together: the result's C-ordered values walked as planes of rows
    of cols, each operand read at plane * its plane stride + row * its row stride + col
    * its stride (in elements), or None where the shapes do not broadcast or more than
    three dims are left once the one-sized ones are dropped and each pair of neighbours
    that every operand steps through as one is folded into one (TensorIterator's
    coalescing)."""
    nd = 0
    for x in arrays:
        if x.ndim > nd:
            nd = x.ndim
    shape = [1] * nd
    for x in arrays:
        off = nd - x.ndim
        for d, m in enumerate(x.shape):
            if m != 1:
                if shape[off + d] == 1:
                    shape[off + d] = m
                elif shape[off + d] != m:
                    return None
    per = []  # each array's element strides over the result's dims (0: broadcast)
    for x in arrays:
        size = x.itemsize
        off = nd - x.ndim
        st = [0] * nd
        for d, m in enumerate(x.shape):
            if m != 1:
                s = x.strides[d]
                if s % size:
                    return None
                st[off + d] = s // size
        per.append(st)
    dims = []  # (size, strides) innermost first, folded
    for d in range(nd - 1, -1, -1):
        m = shape[d]
        if m == 1:
            continue
        st = [p[d] for p in per]
        if dims:
            inner, ist = dims[-1]
            if all(st[j] == ist[j] * inner for j in range(len(st))):
                dims[-1] = (inner * m, ist)
                continue
        dims.append((m, st))
    if len(dims) > 3:
        return None
    none = (0, 0, 0)
    while len(dims) < 3:
        dims.append((1, none))
    (cols, st), (rows, rst), (planes, pst) = dims
    return tuple(shape), planes, rows, cols, tuple(st), tuple(rst), tuple(pst)
