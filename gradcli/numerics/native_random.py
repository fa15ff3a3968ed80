"""LLVM IR for `native.py` to compile: PyTorch's serial `bernoulli_(p)` mask of a scalar
probability (numerics/random/sampling.bernoulli) in one loop over NumPy's MT19937 state.

Per value the kernel takes a double uniform of 53 bits of random64() (two 32-bit draws:
the first's low 21 bits above the second's 32) and keeps it when below p.  With m that
53-bit integer, u = m * 2^-53 exactly, so u < p is m < ceil(p * 2^53): the loop calls the
bit generator's own `next_uint32` (its address and state from NumPy's `ctypes` interface,
the stream `random_raw` gives) twice a value and compares the integers, where NumPy made
the draws, three casts and four arithmetic passes.  Only `llvmlite.ir` objects are made
here; `sampling.bernoulli` calls the loop."""

from __future__ import annotations

#: the loop's parameters, in this order in its i64 array (addresses but n and limit)
BERNOULLI_PARAMS = ("n", "next_uint32", "state", "limit", "out")


def bernoulli_ir(ir, mod, name):
    """i64 NAME(i64* p), p = BERNOULLI_PARAMS: for i < n, a = next(state), b = next(state)
    (next: u32 (i8*)), out[i] = ((a & 0x1FFFFF) << 32 | b) < limit as one byte.
    Returns 0."""
    i64, i32, i8 = ir.IntType(64), ir.IntType(32), ir.IntType(8)
    p8 = ir.PointerType(i8)
    fn = ir.Function(mod, ir.FunctionType(i64, [ir.PointerType(i64)]), name=name)
    entry, body, done = (fn.append_basic_block(x) for x in ("entry", "body", "done"))
    b = ir.IRBuilder(entry)
    n, nxt, state, limit, out = (
        b.load(b.gep(fn.args[0], [ir.Constant(i64, j)])) for j in range(len(BERNOULLI_PARAMS))
    )
    draw = b.inttoptr(nxt, ir.PointerType(ir.FunctionType(i32, [p8])))
    st = b.inttoptr(state, p8)
    po = b.inttoptr(out, p8)
    zero = ir.Constant(i64, 0)
    b.cbranch(b.icmp_signed(">", n, zero), body, done)

    b = ir.IRBuilder(body)
    i = b.phi(i64)
    i.add_incoming(zero, entry)
    hi = b.and_(b.zext(b.call(draw, [st]), i64), ir.Constant(i64, 0x1FFFFF))
    lo = b.zext(b.call(draw, [st]), i64)
    m = b.or_(b.shl(hi, ir.Constant(i64, 32)), lo)
    b.store(b.zext(b.icmp_unsigned("<", m, limit), i8), b.gep(po, [i]))
    i2 = b.add(i, ir.Constant(i64, 1))
    i.add_incoming(i2, body)
    b.cbranch(b.icmp_signed("<", i2, n), body, done)

    b = ir.IRBuilder(done)
    b.ret(zero)
