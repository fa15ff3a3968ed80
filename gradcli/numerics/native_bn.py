"""LLVM IR for `native.py` to compile: batch normalisation's channels-last kernels
(numerics/floats/batch_norm.py, an (N, C) batch or channels-last rows) whole, in one call
each way, where NumPy makes about forty operations and five compiled calls a layer.

The forward of a training batch takes, per channel, the chunked sums of the values and
of the fused squares of x - mean (`native_sums.chunk_sums_ir`'s steps), invstd, the
running statistics, `alpha = invstd * w`, `beta = fma(-mean, alpha, b)` and the output's
`fma(x, alpha, beta)`; in evaluation the output alone from the given mean and invstd.
The backward takes the chunked sums of the gradient and of the fused (x - mean) * g,
then the input's gradient (training: `fma(x - mean, -k, g - mean(g)) * invstd * w` on
the channels of whole vectors, `(g - mean(g) - (x - mean) * k) * invstd * w` on the rest;
evaluation: `g * invstd * w`).  Each operation is the one batch_norm.py makes with
NumPy, in the same dtype (IEEE arithmetic as written, no fast-math flags); the fused
steps are `fma.fma`'s (doubles) or `fma.fma32`'s (floats) as `native_sleef.Emit`
computes them, and a step the emulation must decide makes the loop answer so (the
caller then computes the whole of it with NumPy).  Only `llvmlite.ir` objects are made
here; `native_sum_calls.bn_forward` and `bn_backward` call the loops."""

from __future__ import annotations

from .native_sleef import Emit

#: the forward's parameters, in this order in its i64 array (addresses but the first
#: four): out holds 4 x cols values (mean, invstd, running mean, running variance: the
#: first two given in evaluation), k three doubles (eps, momentum, 1 - momentum: the
#: latter two values of the dtype)
FORWARD_PARAMS = ("rows", "cols", "chunk", "train", "x", "y", "w", "b", "rm", "rv", "out", "k")
#: the backward's (addresses but the first four): out holds 2 x cols values (the weight's
#: and the bias's gradients)
BACKWARD_PARAMS = ("rows", "cols", "chunk", "train", "x", "g", "mean", "inv", "w", "gx", "out")


class _Loops:
    """Counted loops with values carried in registers (phi nodes)."""

    def __init__(self, ir, fn):
        self.ir, self.fn = ir, fn
        self.i64 = ir.IntType(64)

    def k(self, v):
        return self.ir.Constant(self.i64, v)

    def count(self, b, start, stop, step, carried, body, label):
        """for i in range(start, stop, step) (step > 0) with `carried` values: body(b,
        i, values) returns the new values (b may end in another block); returns the
        values after the loop, the builder placed after it."""
        pre = b.block
        head = self.fn.append_basic_block(label)
        end = self.fn.append_basic_block(label + "_end")
        b.cbranch(b.icmp_signed("<", start, stop), head, end)
        b.position_at_end(head)
        i = b.phi(self.i64)
        phis = [b.phi(v.type) for v in carried]
        i.add_incoming(start, pre)
        for p, v in zip(phis, carried):
            p.add_incoming(v, pre)
        new = body(b, i, phis)
        latch = b.block
        i2 = b.add(i, step)
        i.add_incoming(i2, latch)
        for p, v in zip(phis, new):
            p.add_incoming(v, latch)
        b.cbranch(b.icmp_signed("<", i2, stop), head, end)
        b.position_at_end(end)
        out = []
        for v, n in zip(carried, new):
            p = b.phi(v.type)
            p.add_incoming(v, pre)
            p.add_incoming(n, latch)
            out.append(p)
        return out


def _setup(ir, mod, name, params):
    i64 = ir.IntType(64)
    fn = ir.Function(mod, ir.FunctionType(i64, [ir.PointerType(i64)]), name=name)
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    got = [b.load(b.gep(fn.args[0], [ir.Constant(i64, j)])) for j in range(len(params))]
    return fn, b, got


class _Cols:
    """IR for `w` channels at once (w consecutive values of a row: a vector, or w = 1 a
    scalar), of element type T (float when `single`): each channel's arithmetic its own."""

    def __init__(self, ir, mod, single, w):
        self.ir, self.mod, self.single, self.w = ir, mod, single, w
        self.et = ir.FloatType() if single else ir.DoubleType()
        vec = (lambda t: ir.VectorType(t, w)) if w > 1 else (lambda t: t)
        self.t, self.dbl = vec(self.et), vec(ir.DoubleType())
        self.pt = ir.PointerType(self.t)
        name = f"llvm.sqrt.v{w}f64" if w > 1 else "llvm.sqrt.f64"
        self.sqrt = mod.globals.get(name) or ir.Function(
            mod, ir.FunctionType(self.dbl, [self.dbl]), name=name
        )

    def load(self, b, p, at):
        """The w values at p[at...]."""
        q = b.gep(p, [at])
        return b.load(b.bitcast(q, self.pt) if self.w > 1 else q, align=4 if self.single else 8)

    def store(self, b, v, p, at):
        q = b.gep(p, [at])
        b.store(v, b.bitcast(q, self.pt) if self.w > 1 else q, align=4 if self.single else 8)

    def splat(self, b, v):
        """A scalar as w copies (itself for w = 1)."""
        if self.w == 1:
            return v
        ir = self.ir
        one = b.insert_element(ir.Constant(ir.VectorType(v.type, 1), None), v, ir.IntType(32)(0))
        return b.shuffle_vector(one, one, ir.Constant(ir.VectorType(ir.IntType(32), self.w), 0))

    def zero(self, t=None):
        return self.ir.Constant(t or self.t, 0.0)

    def wide(self, b, v):
        """v in float64 (fpext of floats)."""
        return b.fpext(v, self.dbl) if self.single else v

    def narrow(self, b, v):
        return b.fptrunc(v, self.t) if self.single else v

    def fused(self, b, x, y, c):
        """(fma(x, y, c) in the dtype as `fma.fma` / `fma.fma32` computes it, 1 where a
        lane's step needs the emulation else 0 (i64))."""
        ir = self.ir
        emit = Emit(ir, self.mod, b, self.w)
        if self.single:
            r = emit.fma32(*(v if v.type == self.dbl else b.fpext(v, self.dbl) for v in (x, y, c)))
        else:
            r = emit.fma64(x, y, c)
        return r, self.any(b, emit.bad)

    def any(self, b, flags):
        ir = self.ir
        if self.w > 1:
            flags = b.icmp_unsigned(
                "!=", b.bitcast(flags, ir.IntType(self.w)), ir.IntType(self.w)(0)
            )
        return b.zext(flags, ir.IntType(64))


def _chunked(C, L, b, rows, cols, chunk, j, step, bad):
    """The float64 totals of the chunks of channels j... (each chunk from +0 in the dtype
    with acc = step(b, at, acc), at = i * cols + j, returning (acc, flag) per row i), and
    the flags counted."""

    def part(b, start, carried):
        tot, bad = carried
        end = b.add(start, chunk)
        end = b.select(b.icmp_signed("<", end, rows), end, rows)

        def row(b, i, carried):
            acc, bad = carried
            acc, flag = step(b, b.add(b.mul(i, cols), j), acc)
            return [acc, b.add(bad, flag)]

        acc, bad = L.count(b, start, end, L.k(1), [C.zero(), bad], row, "row")
        return [b.fadd(tot, C.wide(b, acc)), bad]

    return L.count(b, L.k(0), rows, chunk, [C.zero(C.dbl), bad], part, "chunk")


def _by_vectors(ir, mod, single, L, b, cols, body, bad):
    """body(C, b, j, bad) -> bad for the channels j in vectors of 8 floats or 4 doubles
    (PyTorch's AVX2 widths) while whole ones remain, then one at a time."""
    lanes = 8 if single else 4
    whole = b.mul(b.sdiv(cols, L.k(lanes)), L.k(lanes))
    for w, start, stop in ((lanes, L.k(0), whole), (1, whole, cols)):
        C = _Cols(ir, mod, single, w)
        (bad,) = L.count(
            b, start, stop, L.k(w), [bad], lambda b, j, c, C=C: [body(C, b, j, c[0])], "col"
        )
    return bad


def forward_ir(ir, mod, name, single):
    """i64 NAME(i64* p), p = FORWARD_PARAMS, T float (single) or double, x and y (rows,
    cols) C-contiguous, w, b, rm, rv (cols,) (ones, zeros or any where absent): per
    channel j, in training (train 1) mean = (sum of x's chunks of `chunk` rows) / rows
    rounded to T, var_sum the same of fma(d, d, acc), d = x - mean, rounded to T, invstd
    = 1 / sqrt(var_sum / rows + eps) in float64 rounded to T, the running mean m * mean +
    (1 - m) * rm and variance m * v + (1 - m) * rv with v = var_sum / (rows - 1) (float32's
    fused: fma32(m, v, (1 - m) * rv)); in evaluation mean and invstd read from out; then
    y = fma(x, alpha, beta), alpha = invstd * w, beta = fma(-mean, alpha, b).  Channels
    in vectors of 8 floats or 4 doubles, each its own arithmetic.  Returns how many
    fused steps the emulation must decide (the outputs then are not the caller's)."""
    fn, b, got = _setup(ir, mod, name, FORWARD_PARAMS)
    rows, cols, chunk, train, *ats = got
    t, dbl = (ir.FloatType() if single else ir.DoubleType()), ir.DoubleType()
    px, py, pw, pb, prm, prv, pout = (b.inttoptr(a, ir.PointerType(t)) for a in ats[:-1])
    pk = b.inttoptr(ats[-1], ir.PointerType(dbl))
    L = _Loops(ir, fn)
    eps, mom, rest = (b.load(b.gep(pk, [L.k(j)])) for j in range(3))
    n_d = b.sitofp(rows, dbl)
    n_t, n1_t = b.sitofp(rows, t), b.sitofp(b.sub(rows, L.k(1)), t)
    training = b.icmp_signed("!=", train, L.k(0))

    def column(C, b, j, bad):
        s = C.splat
        at = [b.add(b.mul(L.k(k), cols), j) for k in range(4)]
        given_mean, given_inv = C.load(b, pout, at[0]), C.load(b, pout, at[1])
        stats_blk = fn.append_basic_block("stats")
        apply_blk = fn.append_basic_block("apply")
        pre = b.block
        b.cbranch(training, stats_blk, apply_blk)
        b.position_at_end(stats_blk)

        def plain(b, at, acc):
            return b.fadd(acc, C.load(b, px, at)), L.k(0)

        tot, bad_s = _chunked(C, L, b, rows, cols, chunk, j, plain, bad)
        mean = C.narrow(b, b.fdiv(tot, s(b, n_d)))

        def squares(b, at, acc):
            d = b.fsub(C.load(b, px, at), mean)
            return C.fused(b, d, d, acc)

        tot, bad_s = _chunked(C, L, b, rows, cols, chunk, j, squares, bad_s)
        var_sum = C.narrow(b, tot)
        var = C.wide(b, b.fdiv(var_sum, s(b, n_t)))
        root = b.call(C.sqrt, [b.fadd(var, s(b, eps))])
        inv = C.narrow(b, b.fdiv(ir.Constant(C.dbl, 1.0), root))
        mom_t, rest_t = (s(b, b.fptrunc(v, t) if single else v) for v in (mom, rest))
        rm = b.fadd(b.fmul(mom_t, mean), b.fmul(rest_t, C.load(b, prm, j)))
        unbiased = b.fdiv(var_sum, s(b, n1_t))
        old = b.fmul(rest_t, C.load(b, prv, j))
        if single:
            rv, flag = C.fused(b, s(b, mom), unbiased, old)
            bad_s = b.add(bad_s, flag)
        else:
            rv = b.fadd(b.fmul(mom_t, unbiased), old)
        for v, a in zip((mean, inv, rm, rv), at):
            C.store(b, v, pout, a)
        stats_end = b.block
        b.branch(apply_blk)

        b.position_at_end(apply_blk)
        mean_p, inv_p, bad_p = b.phi(C.t), b.phi(C.t), b.phi(L.i64)
        for p, v0, v1 in ((mean_p, given_mean, mean), (inv_p, given_inv, inv), (bad_p, bad, bad_s)):
            p.add_incoming(v0, pre)
            p.add_incoming(v1, stats_end)
        alpha = b.fmul(inv_p, C.load(b, pw, j))
        beta, flag = C.fused(b, b.fneg(mean_p), alpha, C.load(b, pb, j))
        bad_a = b.add(bad_p, flag)

        def out(b, i, carried):
            (bad,) = carried
            at = b.add(b.mul(i, cols), j)
            y, flag = C.fused(b, C.load(b, px, at), alpha, beta)
            C.store(b, y, py, at)
            return [b.add(bad, flag)]

        return L.count(b, L.k(0), rows, L.k(1), [bad_a], out, "out")[0]

    b.ret(_by_vectors(ir, mod, single, L, b, cols, column, L.k(0)))


def backward_ir(ir, mod, name, single):
    """i64 NAME(i64* p), p = BACKWARD_PARAMS, T float (single) or double, x, g and gx
    (rows, cols) C-contiguous, mean, inv and w (cols,) (w ones where absent): per channel
    j, gsum and dotp the chunked sums of g and of fma(x - mean, g, acc), rounded to T;
    gx = fma(x - mean, -k, g - gsum / rows) * inv * w on the channels of whole vectors of
    8 floats or 4 doubles, (g - gsum / rows - (x - mean) * k) * inv * w on the rest,
    k = dotp * inv * inv / rows (training), or g * inv * w (evaluation); out[j] = dotp *
    inv, out[cols + j] = gsum.  Returns how many fused steps the emulation must decide
    (the outputs then are not the caller's)."""
    fn, b, got = _setup(ir, mod, name, BACKWARD_PARAMS)
    rows, cols, chunk, train, *ats = got
    t = ir.FloatType() if single else ir.DoubleType()
    px, pg, pmean, pinv, pw, pgx, pout = (b.inttoptr(a, ir.PointerType(t)) for a in ats)
    L = _Loops(ir, fn)
    n_t = b.sitofp(rows, t)
    training = b.icmp_signed("!=", train, L.k(0))

    def column(C, b, j, bad):
        mean, inv, w = (C.load(b, p, j) for p in (pmean, pinv, pw))
        fused = C.w > 1  # (the whole vectors' channels)

        def plain(b, at, acc):
            return b.fadd(acc, C.load(b, pg, at)), L.k(0)

        def dot(b, at, acc):
            d = b.fsub(C.load(b, px, at), mean)
            return C.fused(b, d, C.load(b, pg, at), acc)

        tot, bad = _chunked(C, L, b, rows, cols, chunk, j, plain, bad)
        gsum = C.narrow(b, tot)
        tot, bad = _chunked(C, L, b, rows, cols, chunk, j, dot, bad)
        dotp = C.narrow(b, tot)
        C.store(b, b.fmul(dotp, inv), pout, j)
        C.store(b, gsum, pout, b.add(cols, j))
        k = b.fdiv(b.fmul(b.fmul(dotp, inv), inv), C.splat(b, n_t))
        grad_mean = b.fdiv(gsum, C.splat(b, n_t))
        neg_k = b.fneg(k)

        def row(b, i, carried):
            (bad,) = carried
            at = b.add(b.mul(i, cols), j)
            g = C.load(b, pg, at)
            xm = b.fsub(C.load(b, px, at), mean)
            rest = b.fsub(g, grad_mean)
            if fused:
                v, flag = C.fused(b, xm, neg_k, rest)
                flag = b.select(training, flag, L.k(0))
            else:
                v, flag = b.fsub(rest, b.fmul(xm, k)), L.k(0)
            v = b.select(training, v, g)
            C.store(b, b.fmul(b.fmul(v, inv), w), pgx, at)
            return [b.add(bad, flag)]

        return L.count(b, L.k(0), rows, L.k(1), [bad], row, "grad")[0]

    b.ret(_by_vectors(ir, mod, single, L, b, cols, column, L.k(0)))


def module_ir(ir, mod, forward, backward):
    """The forward and backward loops into `mod`, named by the dtype's char in `forward`
    and `backward` ({"f": name, "d": name})."""
    for char, name in forward.items():
        forward_ir(ir, mod, name, char == "f")
    for char, name in backward.items():
        backward_ir(ir, mod, name, char == "f")
