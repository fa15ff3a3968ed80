"""LLVM IR for `native.py` to compile: softmax and log_softmax over the last dim and their
backward, row after row in one pass each, as PyTorch's vectorised kernels compute them
(ATen's `_vec_log_softmax_lastdim`, `_vec_softmax_lastdim` and their backward) and as
the NumPy emulations do (floats/softmax64.py for doubles, floats/sleef_explog.py for
floats), where NumPy makes a pass per operation (the row maxima, the differences,
SLEEF's exp, the sums, SLEEF's log, the output), each with its own call and arrays.

A row's sum is `vec::reduce_all`'s (and `map_reduce_all`'s): a row shorter than a vector
(4 doubles, 8 floats) from its first value on; else its whole vectors added one after
the other, the values after the last whole vector added into the first lanes, then the
lanes: in order for doubles, ((l0+l4) + (l2+l6)) + ((l1+l5) + (l3+l7)) for floats.
SLEEF's exp and log are native_sleef.py's and native_sleef32.py's, on vectors of those
lanes (a row's last values in a vector of their own); the backward's fused step is
theirs too.  Every step is one whose result is the emulation's element by element;
whatever is not (an input that is not finite, a sum that is not, a kernel's flagged
lane, a row whose maximum is 0 where it holds both a +0 and a -0: the order of the compares
decides the zero's sign) sets the call's flag, and the caller computes the whole call
with the emulation.  Only `llvmlite.ir` objects are made here; `floats/rows.compiled`
calls the loops."""

from __future__ import annotations

from . import native_sleef as s64, native_sleef32 as s32

#: the kernels (`softmax_ir`'s kind)
KINDS = ("log_softmax", "softmax", "log_softmax_bwd", "softmax_bwd")


class _Rows:
    """A kernel i64 NAME(i64 rows, i64 d, T* a, T* b, T* out) under construction: its
    builder, its lanes, its flag (a stack slot) and loops."""

    def __init__(self, ir, mod, name, single):
        self.ir, self.single = ir, single
        self.t = ir.FloatType() if single else ir.DoubleType()
        self.w = s32.LANES if single else 4  # AVX2's lanes: Vectorized<float>, <double>
        self.vt = ir.VectorType(self.t, self.w)
        self.i64, self.i1, self.i32 = ir.IntType(64), ir.IntType(1), ir.IntType(32)
        pt = ir.PointerType(self.t)
        self.fn = ir.Function(
            mod, ir.FunctionType(self.i64, [self.i64, self.i64, pt, pt, pt]), name=name
        )
        self.rows, self.d, self.a, self.bp, self.out = self.fn.args
        for p in (self.a, self.bp, self.out):
            p.add_attribute("noalias")
        self.b = b = ir.IRBuilder(self.fn.append_basic_block("entry"))
        self.e = (s32.Lanes if single else s64.Emit)(ir, mod, b, self.w)
        self.slot = b.alloca(self.i1)
        b.store(ir.Constant(self.i1, 0), self.slot)
        self.whole = b.mul(b.sdiv(self.d, self.k(self.w)), self.k(self.w))
        self.rest = b.sub(self.d, self.whole)
        self.align = 4 if single else 8
        self.lane_ids = ir.Constant(ir.VectorType(self.i64, self.w), list(range(self.w)))

    def k(self, v):
        return self.ir.Constant(self.i64, v)

    def c(self, v):
        return self.ir.Constant(self.t, v)

    def splat(self, x):
        b, ir = self.b, self.ir
        if isinstance(x.type, ir.IntType):
            vt = ir.VectorType(x.type, self.w)
        else:
            vt = self.vt
        v = b.insert_element(ir.Constant(vt, ir.Undefined), x, self.ir.Constant(self.i32, 0))
        return b.shuffle_vector(
            v,
            ir.Constant(vt, ir.Undefined),
            ir.Constant(ir.VectorType(self.i32, self.w), [0] * self.w),
        )

    def set_flag(self, cond):
        b = self.b
        if isinstance(cond.type, self.ir.VectorType):
            mask = self.ir.IntType(self.w)
            cond = b.icmp_unsigned("!=", b.bitcast(cond, mask), self.ir.Constant(mask, 0))
        b.store(b.or_(b.load(self.slot), cond), self.slot)

    def kernel(self, f, *xs, mask=None):
        """f(emitter, *xs), a SLEEF step or fused step, its flagged lanes (those of mask
        only, where given) setting the flag."""
        e = self.e
        e.bad = e.soft = self.ir.Constant(self.ir.VectorType(self.i1, self.w), 0)
        r = f(e, *xs)
        bad = e.bad if mask is None else self.b.and_(e.bad, mask)
        self.set_flag(bad)
        return r

    def not_finite(self, x):
        """Lanes (or a value) that are NaN or infinite (where x - x is a NaN)."""
        z = self.b.fsub(x, x)
        return self.b.fcmp_unordered("uno", z, z)

    def loop(self, start, end, step, init, body):
        """for i in range(start, end, step) carrying the values `init` (body(i, values)
        -> new values); the values after the loop."""
        ir, b = self.ir, self.b
        pre = b.block
        head, inner, after = (self.fn.append_basic_block(n) for n in ("head", "body", "after"))
        b.branch(head)
        b.position_at_end(head)
        i = b.phi(self.i64)
        phis = [b.phi(v.type) for v in init]
        i.add_incoming(start, pre)
        for p, v in zip(phis, init):
            p.add_incoming(v, pre)
        b.cbranch(b.icmp_signed("<", i, end), inner, after)
        b.position_at_end(inner)
        new = body(i, phis)
        nxt = b.add(i, step if isinstance(step, ir.Value) else self.k(step))
        last = b.block
        i.add_incoming(nxt, last)
        for p, v in zip(phis, new):
            p.add_incoming(v, last)
        b.branch(head)
        b.position_at_end(after)
        return phis

    def at(self, p, i):
        return self.b.gep(p, [i])

    def vec(self, p, i):
        ptr = self.b.bitcast(self.at(p, i), self.ir.PointerType(self.vt))
        return self.b.load(ptr, align=self.align)

    def store_vec(self, v, p, i):
        ptr = self.b.bitcast(self.at(p, i), self.ir.PointerType(self.vt))
        self.b.store(v, ptr, align=self.align)

    def partial(self, p, i, n, fill):
        """A vector of the n (< lanes) values at p[i], the other lanes `fill`'s (each
        lane's load behind its own test: constant lanes, no access past the row)."""
        b = self.b
        v = self.splat(fill)
        for j in range(self.w - 1):
            before = b.block
            with b.if_then(b.icmp_signed(">", n, self.k(j))):
                x = b.load(self.at(p, b.add(i, self.k(j))))
                put = b.insert_element(v, x, self.ir.Constant(self.i32, j))
                then = b.block
            got = b.phi(self.vt)
            got.add_incoming(v, before)
            got.add_incoming(put, then)
            v = got
        return v

    def store_partial(self, v, p, i, n):
        b = self.b
        for j in range(self.w - 1):
            with b.if_then(b.icmp_signed(">", n, self.k(j))):
                x = b.extract_element(v, self.ir.Constant(self.i32, j))
                b.store(x, self.at(p, b.add(i, self.k(j))))

    def tail_mask(self):
        return self.b.icmp_signed("<", self.lane_ids, self.splat(self.rest))

    def rows_loop(self, body):
        """body(row's first index) for each row; then returns the flag."""
        self.loop(self.k(0), self.rows, 1, [], lambda r, _: body(self.b.mul(r, self.d)) or [])
        self.b.ret(self.b.zext(self.b.load(self.slot), self.i64))

    # ------------------------------------------------------------ a row's pieces

    def row_max(self, base):
        """The largest value of the row at `base` (flagging a row with a value that is not
        finite, or whose largest value is 0 while it holds both a +0 and a -0: which one
        the maximum is depends on the order of the compares)."""
        b, ir = self.b, self.ir
        ibits = ir.IntType(32 if self.single else 64)
        vb = ir.VectorType(self.i1, self.w)

        def step(x, vals):
            m, bad, negz, posz = vals
            wide = x.type == self.vt
            bits = b.bitcast(x, ir.VectorType(ibits, self.w) if wide else ibits)
            sign = ir.Constant(ibits, 1 << (31 if self.single else 63))
            zero = ir.Constant(ibits, 0)
            sign, zero = (self.splat(sign), self.splat(zero)) if wide else (sign, zero)
            return [
                b.select(b.fcmp_ordered(">", x, m), x, m),
                b.or_(bad, self.not_finite(x)),
                b.or_(negz, b.icmp_unsigned("==", bits, sign)),
                b.or_(posz, b.icmp_unsigned("==", bits, zero)),
            ]

        init = [self.splat(self.c(float("-inf")))] + [ir.Constant(vb, 0)] * 3
        vm, *vflags = self.loop(
            self.k(0),
            self.whole,
            self.w,
            init,
            lambda i, v: step(self.vec(self.a, b.add(base, i)), v),
        )
        m = b.extract_element(vm, self.k(0))
        for lane in range(1, self.w):
            x = b.extract_element(vm, self.k(lane))
            m = b.select(b.fcmp_ordered(">", x, m), x, m)
        start = b.add(base, self.whole)
        m, *flags = self.loop(
            self.k(0),
            self.rest,
            1,
            [m] + [ir.Constant(self.i1, 0)] * 3,
            lambda j, v: step(b.load(self.at(self.a, b.add(start, j))), v),
        )
        mask = ir.IntType(self.w)
        bad, negz, posz = (
            b.or_(f, b.icmp_unsigned("!=", b.bitcast(v, mask), ir.Constant(mask, 0)))
            for f, v in zip(flags, vflags)
        )
        self.set_flag(bad)
        self.set_flag(b.and_(b.and_(negz, posz), b.fcmp_ordered("==", m, self.c(0.0))))
        return m

    def row_sum(self, base, load, fill):
        """reduce_all(+) of the row at `base` whose vectors are load(index, mask or None)
        (mapped values; a partial vector's other lanes from `fill`)."""
        b = self.b
        short = b.icmp_signed("<", self.d, self.k(self.w))
        seq, wide, done = (self.fn.append_basic_block(n) for n in ("seq", "wide", "summed"))
        b.cbranch(short, seq, wide)

        b.position_at_end(seq)  # from the left, one value after another
        ev = load(base, self.tail_mask(), fill)
        s_seq = b.extract_element(ev, self.k(0))
        for j in range(1, self.w - 1):
            more = b.fadd(s_seq, b.extract_element(ev, self.k(j)))
            s_seq = b.select(b.icmp_signed(">", self.d, self.k(j)), more, s_seq)
        seq_end = b.block
        b.branch(done)

        b.position_at_end(wide)
        acc0 = load(base, None, None)
        (acc,) = self.loop(
            self.k(self.w),
            self.whole,
            self.w,
            [acc0],
            lambda i, v: [b.fadd(v[0], load(b.add(base, i), None, None))],
        )
        before = b.block
        with b.if_then(self.has_rest()):  # the values after the last whole vector
            mask = self.tail_mask()
            tail = load(b.add(base, self.whole), mask, fill)
            added = b.select(mask, b.fadd(acc, tail), acc)
            then = b.block
        acc2 = b.phi(self.vt)
        acc2.add_incoming(acc, before)
        acc2.add_incoming(added, then)
        acc = acc2
        lanes = [b.extract_element(acc, self.k(j)) for j in range(self.w)]
        if self.single:
            l0, l1, l2, l3, l4, l5, l6, l7 = lanes
            s_wide = b.fadd(
                b.fadd(b.fadd(l0, l4), b.fadd(l2, l6)), b.fadd(b.fadd(l1, l5), b.fadd(l3, l7))
            )
        else:
            s_wide = b.fadd(b.fadd(b.fadd(lanes[0], lanes[1]), lanes[2]), lanes[3])
        wide_end = b.block
        b.branch(done)

        b.position_at_end(done)
        s = b.phi(self.t)
        s.add_incoming(s_seq, seq_end)
        s.add_incoming(s_wide, wide_end)
        return s

    def loader(self, p, f=None):
        """load(index, mask, fill) of the values at p (f(vector, mask) of them, if given):
        a whole vector without a mask, else the row's last values, `fill` beside."""

        def load(i, mask, fill):
            v = self.vec(p, i) if mask is None else self.partial(p, i, self.rest, fill)
            return v if f is None else f(v, mask)

        return load

    def row_out(self, base, ins, f):
        """out[base + j] = f(vectors of ins at it, mask) lane by lane over the row."""
        b = self.b

        def whole(i, _):
            at = b.add(base, i)
            self.store_vec(f([self.vec(p, at) for p, _ in ins], None), self.out, at)
            return []

        self.loop(self.k(0), self.whole, self.w, [], whole)
        with b.if_then(self.has_rest()):
            at = b.add(base, self.whole)
            mask = self.tail_mask()
            parts = [self.partial(p, at, self.rest, fill) for p, fill in ins]
            self.store_partial(f(parts, mask), self.out, at, self.rest)

    def has_rest(self):
        return self.b.icmp_signed(">", self.rest, self.k(0))

    # ---------------------------------------------------------------- SLEEF
    def exp(self, v, mask):
        if self.single:
            return self.kernel(lambda e, x: s32.expf(e, x, s32.K), v, mask=mask)
        return self.kernel(s64.expd, v, mask=mask)

    def log(self, v):
        if self.single:
            return self.kernel(lambda e, x: s32.logf(e, x, s32.K), v)
        return self.kernel(s64.logd, v)

    def fma(self, x, y, z, mask):
        if self.single:
            return self.kernel(lambda e, *a: e.fma(*a), x, y, z, mask=mask)
        return self.kernel(lambda e, *a: e.fma64(*a), x, y, z, mask=mask)


def softmax_ir(ir, mod, names):
    """Each of `names` ((kind, "f" or "d") -> name): `rows_ir` of it."""
    for (kind, char), name in names.items():
        rows_ir(ir, mod, name, kind, char == "f")


def rows_ir(ir, mod, name, kind, single):
    """i64 NAME(i64 rows, i64 d, T* a, T* b, T* out), T float (single) or double, the
    rows C-contiguous, d >= 1: KIND (KINDS) of each row of a (the forward's input; the
    backward's gradient, b its forward's output; log_softmax's b a scratch of 2 * rows
    rounded up to whole vectors) into out; returns 1 where the caller must compute the
    call with the emulation (see the module's docstring), else 0."""
    k = _Rows(ir, mod, name, single)
    b = k.b

    def log_softmax(base):
        m = k.row_max(base)
        vm = k.splat(m)
        return m, k.row_sum(base, k.loader(k.a, lambda v, mask: k.exp(b.fsub(v, vm), mask)), m)

    def softmax(base):
        m = k.row_max(base)
        vm = k.splat(m)
        k.row_out(base, [(k.a, m)], lambda v, mask: k.exp(b.fsub(v[0], vm), mask))
        s = k.row_sum(base, k.loader(k.out), k.c(0.0))
        inv = k.splat(b.fdiv(k.c(1.0), s))
        k.row_out(base, [(k.out, k.c(0.0))], lambda v, mask: b.fmul(v[0], inv))

    def sum_flagged(s):
        k.set_flag(k.not_finite(s))
        return k.splat(s)

    def log_softmax_bwd(base):
        vs = sum_flagged(k.row_sum(base, k.loader(k.a), k.c(0.0)))

        def out(v, mask):
            g, o = v
            return k.fma(b.fneg(k.exp(o, mask)), vs, g, mask)

        k.row_out(base, [(k.a, k.c(0.0)), (k.bp, k.c(0.0))], out)

    def softmax_bwd(base):
        g, o = k.loader(k.a), k.loader(k.bp)

        def products(i, mask, fill):
            return b.fmul(g(i, mask, fill), o(i, mask, fill))

        vs = sum_flagged(k.row_sum(base, products, k.c(0.0)))
        ins = [(k.a, k.c(0.0)), (k.bp, k.c(0.0))]
        k.row_out(base, ins, lambda v, mask: b.fmul(v[1], b.fsub(v[0], vs)))

    if kind == "log_softmax":
        _log_softmax_rows(k, log_softmax)
        return
    body = {
        "softmax": softmax,
        "log_softmax_bwd": log_softmax_bwd,
        "softmax_bwd": softmax_bwd,
    }[kind]
    k.rows_loop(body)


def _log_softmax_rows(k, row):
    """log_softmax in three loops, as ATen's kernel makes it: each row's maximum and sum
    (row(first index) -> (max, sum)) into the scratch b (its sums, padded with ones to
    whole vectors, then its maxima), the logs of the sums a vector at a time (SLEEF's log
    of a row alone would cost a vector's), then each row's (x - max) - log(sum)."""
    b = k.b
    padded = b.mul(b.sdiv(b.add(k.rows, k.k(k.w - 1)), k.k(k.w)), k.k(k.w))
    sums, maxes = k.bp, b.gep(k.bp, [padded])

    def stats(r, _):
        m, s = row(b.mul(r, k.d))
        b.store(s, k.at(sums, r))
        b.store(m, k.at(maxes, r))
        return []

    k.loop(k.k(0), k.rows, 1, [], stats)

    def pad(r, _):
        b.store(k.c(1.0), k.at(sums, r))
        return []

    k.loop(k.rows, padded, 1, [], pad)

    def logs(i, _):
        k.store_vec(k.log(k.vec(sums, i)), sums, i)
        return []

    k.loop(k.k(0), padded, k.w, [], logs)

    def out(r, _):
        base = b.mul(r, k.d)
        vm, vl = k.splat(b.load(k.at(maxes, r))), k.splat(b.load(k.at(sums, r)))
        k.row_out(base, [(k.a, k.c(0.0))], lambda v, mask: b.fsub(b.fsub(v[0], vm), vl))
        return []

    k.loop(k.k(0), k.rows, 1, [], out)
    b.ret(b.zext(b.load(k.slot), k.i64))
