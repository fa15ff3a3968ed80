"""A recurrent layer's step backward as one compiled loop (`numerics/native.py` compiles it
with its other loops; `native_layers.gru_backward` calls it).

A GRU step's backward (`library/nn/recurrent_layer._gru_step`) is a dozen element-wise
NumPy operations on (batch, hidden) arrays, and their fixed costs were most of a small
layer's backward.  The loop makes the same operations, each value's arithmetic as NumPy's
(IEEE products, sums and negations in the same order; tanh's backward factor one fused
step, `native_sleef.Emit`), and flags a value whose fused step the emulation must decide
or whose result is a NaN (whose payload is NumPy's business): the caller then computes
the step with NumPy.  Only `llvmlite.ir` objects are made here."""

from __future__ import annotations

from .native_sleef import Emit

#: the GRU step's parameters, in this order in its i64 array: the batch and hidden sizes,
#: how many gradients are added to g's row (0-2, c0 then c1), then for each array its
#: address and the step between its rows (in elements; its columns are contiguous)
GRU_PARAMS = ("rows", "size", "adds")
GRU_ARRAYS = ("g", "c0", "c1", "r", "z", "n", "hnew", "d", "gd", "ghg", "gig")


def gru_backward_ir(ir, mod, name, single):
    """i64 NAME(i64* p), T float (single) or double; p = GRU_PARAMS, then (address, row
    step) of each of GRU_ARRAYS.  For each value of the (rows, size) arrays:
    gh = (g + c0) + c1 (as many as `adds`), gd = gh * z, ga = (gh + -gd) * fma(n, -n, 1),
    the hidden gates' gradient ghg = ((ga * hnew) * (1 - r)) * r + 0, ((gh * d) * (1 -
    z)) * z + 0, ga * r + 0 in its three column blocks, the input gates' gig the same but
    ga + 0 in the last.  Returns how many values are flagged (then the outputs are not
    the caller's)."""
    t = ir.FloatType() if single else ir.DoubleType()
    dbl = ir.DoubleType()
    i64 = ir.IntType(64)
    pt, pi = ir.PointerType(t), ir.PointerType(i64)
    fn = ir.Function(mod, ir.FunctionType(i64, [pi]), name=name)
    (params,) = fn.args
    blocks = ("entry", "row", "col", "row_end", "done")
    entry, row, col, row_end, done = (fn.append_basic_block(x) for x in blocks)
    zero, one = ir.Constant(i64, 0), ir.Constant(i64, 1)
    b = ir.IRBuilder(entry)
    vals = [b.load(b.gep(params, [ir.Constant(i64, k)])) for k in range(3 + 2 * len(GRU_ARRAYS))]
    rows, size, adds = vals[:3]
    arr = {
        key: (b.inttoptr(vals[3 + 2 * k], pt), vals[4 + 2 * k]) for k, key in enumerate(GRU_ARRAYS)
    }
    two = b.mul(size, ir.Constant(i64, 2))
    ok = b.and_(b.icmp_signed(">", rows, zero), b.icmp_signed(">", size, zero))
    b.cbranch(ok, row, done)

    b = ir.IRBuilder(row)
    i, cnt = b.phi(i64), b.phi(i64)
    i.add_incoming(zero, entry)
    cnt.add_incoming(zero, entry)
    base = {key: b.gep(p, [b.mul(i, step)]) for key, (p, step) in arr.items()}
    b.branch(col)

    b = ir.IRBuilder(col)
    j, c = b.phi(i64), b.phi(i64)
    j.add_incoming(zero, row)
    c.add_incoming(cnt, row)

    def at(key, off=None):
        return b.gep(base[key], [j if off is None else b.add(j, off)])

    def load(key):
        return b.load(at(key))

    gh = load("g")
    gh1 = b.fadd(gh, load("c0"))
    gh2 = b.fadd(gh1, load("c1"))
    gh = b.select(
        b.icmp_signed(">=", adds, ir.Constant(i64, 2)),
        gh2,
        b.select(b.icmp_signed(">=", adds, one), gh1, gh),
    )
    r, z, n, hnew, d = (load(k) for k in ("r", "z", "n", "hnew", "d"))
    gd = b.fmul(gh, z)
    gz = b.fmul(gh, d)
    emit = Emit(ir, mod, b)
    nd = b.fpext(n, dbl) if single else n
    f = (emit.fma32 if single else emit.fma64)(nd, b.fneg(nd), ir.Constant(dbl, 1.0))
    ga = b.fmul(b.fadd(gh, b.fneg(gd)), f)
    ghnew = b.fmul(ga, r)
    gr = b.fmul(ga, hnew)
    onet, zt = ir.Constant(t, 1.0), ir.Constant(t, 0.0)
    sr = b.fadd(b.fmul(b.fmul(gr, b.fsub(onet, r)), r), zt)
    sz = b.fadd(b.fmul(b.fmul(gz, b.fsub(onet, z)), z), zt)
    b.store(gd, at("gd"))
    b.store(sr, at("ghg"))
    b.store(sz, at("ghg", size))
    b.store(b.fadd(ghnew, zt), at("ghg", two))
    b.store(sr, at("gig"))
    b.store(sz, at("gig", size))
    b.store(b.fadd(ga, zt), at("gig", two))
    bad = emit.bad
    for v in (gd, sr, sz, ghnew, ga):
        bad = b.or_(bad, b.fcmp_unordered("uno", v, v))
    c2 = b.add(c, b.zext(bad, i64))
    j2 = b.add(j, one)
    j.add_incoming(j2, b.block)
    c.add_incoming(c2, b.block)
    b.cbranch(b.icmp_signed("<", j2, size), col, row_end)

    b = ir.IRBuilder(row_end)
    i2 = b.add(i, one)
    i.add_incoming(i2, row_end)
    cnt.add_incoming(c2, row_end)
    b.cbranch(b.icmp_signed("<", i2, rows), row, done)

    b = ir.IRBuilder(done)
    total = b.phi(i64)
    total.add_incoming(zero, entry)
    total.add_incoming(c2, row_end)
    b.ret(total)
