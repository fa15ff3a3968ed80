"""A GRU time step as compiled loops (`numerics/native.py` compiles them with its other
loops; `native_layers.gru_forward` and `gru_backward` call them).

A GRU step's forward after its hidden gates' product (recurrent.py `_step` on arrays) and
its backward (`library/nn/recurrent_layer._gru_step`) are each some ten element-wise
NumPy operations on (batch, hidden) arrays, and their fixed costs were most of a small
layer's time.  Each loop makes the same operations, each value's arithmetic as NumPy's
(IEEE products, sums and negations in the same order; the forward's sigmoid native_act's
kernel, which is the vector code's, called only where every value of the gates takes
it; its tanh MKL's VML, called through its address; the backward's tanh factor one fused
step, `native_sleef.Emit`), and flags a value the emulation must decide or whose result
is a NaN (whose payload is NumPy's business): the caller then computes the step with
NumPy.  Only `llvmlite.ir` objects are made here."""

from __future__ import annotations

from .native_sleef import Emit

#: native_act's sigmoid kernels (native.ACT1's), of doubles and of floats
SIGMOID = ("sigmoid_d", "sigmoid_f")
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

    def body(b, emit, load, store):
        gh = load("g")
        gh1 = b.fadd(gh, load("c0"))
        gh2 = b.fadd(gh1, load("c1"))
        two = ir.Constant(load.one.type, 2)
        gh = b.select(
            b.icmp_signed(">=", load.adds, two),
            gh2,
            b.select(b.icmp_signed(">=", load.adds, load.one), gh1, gh),
        )
        r, z, n, hnew, d = (load(k) for k in ("r", "z", "n", "hnew", "d"))
        gd = b.fmul(gh, z)
        gz = b.fmul(gh, d)
        nd = b.fpext(n, dbl) if single else n
        f = (emit.fma32 if single else emit.fma64)(nd, b.fneg(nd), ir.Constant(dbl, 1.0))
        ga = b.fmul(b.fadd(gh, b.fneg(gd)), f)
        ghnew = b.fmul(ga, r)
        gr = b.fmul(ga, hnew)
        onet, zt = ir.Constant(t, 1.0), ir.Constant(t, 0.0)
        sr = b.fadd(b.fmul(b.fmul(gr, b.fsub(onet, r)), r), zt)
        sz = b.fadd(b.fmul(b.fmul(gz, b.fsub(onet, z)), z), zt)
        store("gd", 0, gd)
        for key, last in (("ghg", ghnew), ("gig", ga)):
            store(key, 0, sr)
            store(key, 1, sz)
            store(key, 2, b.fadd(last, zt))
        return gd, sr, sz, ghnew, ga

    _rows_loop(ir, mod, name, t, GRU_ARRAYS, body)


#: the GRU step forward's parameters, in this order in its i64 array: the batch and hidden
#: sizes, the sigmoid's count (rows * 2 size rounded up to whole vectors), the addresses
#: of VML's tanh and its mode, then the arrays': (address, row step) of the hidden gates
#: hg, the input gates ig, the state h and the new state out (columns contiguous), then
#: the addresses of the C-contiguous buffers s (the sums, `count` values), rz (the
#: sigmoids, `count` values), flags (`count` bytes), pre (tanh's operand), n and d
FORWARD_PARAMS = ("rows", "size", "count", "tanh", "mode", "hg", "ig", "h", "out")


def gru_forward_ir(ir, mod, name, single):
    """i64 NAME(i64* p), T float (single) or double; p = FORWARD_PARAMS' values, then the
    addresses of s, rz, flags, pre, n and d.  PyTorch's GRU cell after its hidden gates'
    product, as recurrent.py `_step` makes it on arrays: s = hg + ig over the reset and
    update gates' columns (zeros after), rz = the module's SIGMOID function of the dtype
    (native_act's kernel, compiled first: every value its vector code's), pre = ig's
    new-gate columns + hg's * r, n = VML's tanh of pre, d = h - n, out = d * z + n.
    Returns whether the sigmoid flagged a value (the caller then computes the step with
    NumPy)."""
    w = _Walk(ir, mod, name, single, 2, ("rz", "flags", "pre", "n", "d"))
    size, two = w.size, w.width
    rz, pre, n, d = (w.buf[k] for k in ("rz", "pre", "n", "d"))

    def gate(bb, i, j):
        r = bb.load(w.flat(bb, rz, i, j, two))
        prod = bb.fmul(bb.load(w.at(bb, "hg", i, j, two)), r)
        bb.store(bb.fadd(bb.load(w.at(bb, "ig", i, j, two)), prod), w.flat(bb, pre, i, j, size))

    w.grid("gate", size, gate)
    w.tanh(pre, n)

    def state(bb, i, j):
        nv = bb.load(w.flat(bb, n, i, j, size))
        dv = bb.fsub(bb.load(w.at(bb, "h", i, j)), nv)
        bb.store(dv, w.flat(bb, d, i, j, size))
        z = bb.load(bb.gep(rz, [bb.add(bb.add(bb.mul(i, two), j), size)]))
        bb.store(bb.fadd(bb.fmul(dv, z), nv), w.at(bb, "out", i, j))

    w.grid("state", size, state)
    w.b.ret(w.bad)


def lstm_forward_ir(ir, mod, name, single):
    """i64 NAME(i64* p), T float (single) or double; p = FORWARD_PARAMS' values (h the
    previous cell state cx), then the addresses of s, sg, flags, pre, gt, cy and tc.  An
    LSTM cell after its hidden gates' product, as recurrent.py `_step` makes it on arrays:
    s = hg + ig over all four gates' columns (zeros after), sg = SIGMOID of s (the input,
    forget and output gates' pieces used), gt = VML's tanh of s's third piece (copied
    into pre), cy = f * cx + i * gt, tc = VML's tanh of cy, out = o * tc.  Returns
    whether the sigmoid flagged a value."""
    w = _Walk(ir, mod, name, single, 4, ("sg", "flags", "pre", "gt", "cy", "tc"))
    size, four = w.size, w.width
    s, sg, pre, gt, cy, tc = (w.buf[k] for k in ("s", "sg", "pre", "gt", "cy", "tc"))

    def piece(bb, i, j, k):
        return bb.gep(sg, [bb.add(bb.add(bb.mul(i, four), j), bb.mul(size, w.const(k)))])

    def copy(bb, i, j):
        src = bb.gep(s, [bb.add(bb.add(bb.mul(i, four), j), bb.mul(size, w.const(2)))])
        bb.store(bb.load(src), w.flat(bb, pre, i, j, size))

    w.grid("copy", size, copy)
    w.tanh(pre, gt)

    def cell(bb, i, j):
        fc = bb.fmul(bb.load(piece(bb, i, j, 1)), bb.load(w.at(bb, "h", i, j)))
        ig = bb.fmul(bb.load(piece(bb, i, j, 0)), bb.load(w.flat(bb, gt, i, j, size)))
        bb.store(bb.fadd(fc, ig), w.flat(bb, cy, i, j, size))

    w.grid("cell", size, cell)
    w.tanh(cy, tc)

    def state(bb, i, j):
        v = bb.fmul(bb.load(piece(bb, i, j, 3)), bb.load(w.flat(bb, tc, i, j, size)))
        bb.store(v, w.at(bb, "out", i, j))

    w.grid("state", size, state)
    w.b.ret(w.bad)


class _Walk:
    """A step forward's function being built: its parameters read (FORWARD_PARAMS, then
    the buffers s and `bufs`), the gates' sums s = hg + ig over `gates` pieces' columns
    padded with zeros to `count`, the sigmoid of them into the first of `bufs` (bad:
    its flag); `grid` and `tanh` add loops and VML calls after."""

    def __init__(self, ir, mod, name, single, gates, bufs):
        self.ir = ir
        t = self.t = ir.FloatType() if single else ir.DoubleType()
        i64 = self.i64 = ir.IntType(64)
        pt, pi = ir.PointerType(t), ir.PointerType(i64)
        sigmoid = mod.get_global(SIGMOID[single])
        fn = self.fn = ir.Function(mod, ir.FunctionType(i64, [pi]), name=name)
        (params,) = fn.args
        b = self.b = ir.IRBuilder(fn.append_basic_block("entry"))
        count = 13 + 1 + len(bufs)
        vals = [b.load(b.gep(params, [ir.Constant(i64, k)])) for k in range(count)]
        self.rows, self.size, count_v, self.tanh_at, self.mode = vals[:5]
        keys = ("hg", "ig", "h", "out")
        self.arr = {
            k: (b.inttoptr(vals[5 + 2 * n], pt), vals[6 + 2 * n]) for n, k in enumerate(keys)
        }
        names = ("s", *bufs)
        self.buf = {k: b.inttoptr(v, pt) for k, v in zip(names, vals[13:])}
        flags = b.bitcast(self.buf[bufs[1]], ir.PointerType(ir.IntType(8)))
        width = self.width = b.mul(self.size, ir.Constant(i64, gates))
        s = self.buf["s"]

        def sums(bb, i, j):
            v = bb.fadd(bb.load(self.at(bb, "hg", i, j)), bb.load(self.at(bb, "ig", i, j)))
            bb.store(v, self.flat(bb, s, i, j, width))

        self.grid("sums", width, sums)
        # the values after the last row's up to whole vectors: zeros (no flag)
        b = self.b
        pad, pad_end = fn.append_basic_block("pad"), fn.append_basic_block("pad_end")
        filled = b.mul(self.rows, width)
        start = b.block
        b.cbranch(b.icmp_signed("<", filled, count_v), pad, pad_end)
        b = ir.IRBuilder(pad)
        k = b.phi(i64)
        k.add_incoming(filled, start)
        b.store(ir.Constant(t, 0.0), b.gep(s, [k]))
        k2 = b.add(k, self.const(1))
        k.add_incoming(k2, pad)
        b.cbranch(b.icmp_signed("<", k2, count_v), pad, pad_end)
        b = self.b = ir.IRBuilder(pad_end)
        self.bad = b.call(sigmoid, [count_v, s, self.buf[bufs[0]], flags])

    def const(self, v):
        return self.ir.Constant(self.i64, v)

    def at(self, bb, key, i, j, off=None):
        p, step = self.arr[key]
        return bb.gep(p, [bb.add(bb.mul(i, step), j if off is None else bb.add(j, off))])

    @staticmethod
    def flat(bb, p, i, j, width):
        return bb.gep(p, [bb.add(bb.mul(i, width), j)])

    def tanh(self, src, dst):
        """VML's tanh of the rows * size values at src into dst."""
        ir, b = self.ir, self.b
        pt = ir.PointerType(self.t)
        vml = ir.FunctionType(ir.VoidType(), [ir.IntType(32), pt, pt, self.i64])
        n = b.trunc(b.mul(self.rows, self.size), ir.IntType(32))
        b.call(b.inttoptr(self.tanh_at, ir.PointerType(vml)), [n, src, dst, self.mode])

    def grid(self, label, cols, body):
        """body(builder, i, j) for each row i < rows and column j < cols (both > 0)."""
        ir, fn, i64 = self.ir, self.fn, self.i64
        zero, one = self.const(0), self.const(1)
        row, col, end, after = (
            fn.append_basic_block(f"{label}_{x}") for x in ("row", "col", "end", "after")
        )
        b = self.b
        start = b.block
        b.branch(row)
        b = ir.IRBuilder(row)
        i = b.phi(i64)
        i.add_incoming(zero, start)
        b.branch(col)
        b = ir.IRBuilder(col)
        j = b.phi(i64)
        j.add_incoming(zero, row)
        body(b, i, j)
        j2 = b.add(j, one)
        j.add_incoming(j2, b.block)
        b.cbranch(b.icmp_signed("<", j2, cols), col, end)
        b = ir.IRBuilder(end)
        i2 = b.add(i, one)
        i.add_incoming(i2, end)
        b.cbranch(b.icmp_signed("<", i2, self.rows), row, after)
        self.b = ir.IRBuilder(after)


#: an LSTM step backward's arrays, each (address, row step) after LSTM_PARAMS = GRU_PARAMS
#: (c0 the gradient carried to g's row, gc the cell state's gradient from the next step)
LSTM_ARRAYS = ("g", "c0", "gc", "i", "f", "gg", "o", "tc", "cx", "gc_out", "gates", "gig")


def lstm_backward_ir(ir, mod, name, single):
    """i64 NAME(i64* p), T float (single) or double; p = GRU_PARAMS, then (address, row
    step) of each of LSTM_ARRAYS.  For each value of the (rows, size) arrays, as
    `recurrent_layer._lstm_step`: gh = g + c0 (when `adds`), go = gh * tc, gc' = gc + (gh
    * o) * fma(tc, -tc, 1), the gates' gradient ((gc' * gg) * (1 - i)) * i, ((gc' * cx) *
    (1 - f)) * f, (gc' * i) * fma(gg, -gg, 1), (go * (1 - o)) * o in its four column
    blocks (written into gates and gig), gc_out = gc' * f.  Returns how many values are
    flagged (a fused step the emulation decides, a NaN)."""
    t = ir.FloatType() if single else ir.DoubleType()
    dbl = ir.DoubleType()

    def body(b, emit, load, store):
        one = ir.Constant(t, 1.0)

        def factor(y):  # tanh's backward factor, one fused step
            yd = b.fpext(y, dbl) if single else y
            return (emit.fma32 if single else emit.fma64)(yd, b.fneg(yd), ir.Constant(dbl, 1.0))

        def sig(gv, y):
            return b.fmul(b.fmul(gv, b.fsub(one, y)), y)

        gh = load("g")
        gh = b.select(b.icmp_signed(">=", load.adds, load.one), b.fadd(gh, load("c0")), gh)
        i, f, gg, o, tc, cx = (load(k) for k in ("i", "f", "gg", "o", "tc", "cx"))
        go = b.fmul(gh, tc)
        gc = b.fadd(load("gc"), b.fmul(b.fmul(gh, o), factor(tc)))
        parts = (
            sig(b.fmul(gc, gg), i),
            sig(b.fmul(gc, cx), f),
            b.fmul(b.fmul(gc, i), factor(gg)),
            sig(go, o),
        )
        for k, v in enumerate(parts):
            store("gates", k, v)
            store("gig", k, v)
        gc_out = b.fmul(gc, f)
        store("gc_out", 0, gc_out)
        return (*parts, gc_out)

    _rows_loop(ir, mod, name, t, LSTM_ARRAYS, body)


def _rows_loop(ir, mod, name, t, keys, body):
    """i64 NAME(i64* p): p = (rows, size, adds), then (address, row step) of each array
    of `keys` (elements of t, columns contiguous); for each row i < rows and column j <
    size, body(builder, emit, load, store) -> values: load(key) the array's value at (i,
    j) (load.adds, load.one: `adds` and the i64 1), store(key, k, v) v at (i, k * size +
    j); returns how many (i, j) flagged the emitter or made a NaN among the values."""
    i64 = ir.IntType(64)
    pt, pi = ir.PointerType(t), ir.PointerType(i64)
    fn = ir.Function(mod, ir.FunctionType(i64, [pi]), name=name)
    (params,) = fn.args
    blocks = ("entry", "row", "col", "row_end", "done")
    entry, row, col, row_end, done = (fn.append_basic_block(x) for x in blocks)
    zero, one = ir.Constant(i64, 0), ir.Constant(i64, 1)
    b = ir.IRBuilder(entry)
    vals = [b.load(b.gep(params, [ir.Constant(i64, k)])) for k in range(3 + 2 * len(keys))]
    rows, size, adds = vals[:3]
    arr = {key: (b.inttoptr(vals[3 + 2 * k], pt), vals[4 + 2 * k]) for k, key in enumerate(keys)}
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

    def load(key):
        return b.load(b.gep(base[key], [j]))

    load.adds, load.one = adds, one

    def store(key, k, v):
        off = j if not k else b.add(j, b.mul(size, ir.Constant(i64, k)))
        b.store(v, b.gep(base[key], [off]))

    emit = Emit(ir, mod, b)
    values = body(b, emit, load, store)
    bad = emit.bad
    for v in values:
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
