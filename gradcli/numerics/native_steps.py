"""An optimizer's running averages as one compiled loop (`numerics/native.py` compiles it
with its other loops): Adam's `exp_avg.lerp_(g, w)` and
`exp_avg_sq.mul_(beta2).addcmul_(g, g, value=1 - beta2)` of a parameter in one call,
where NumPy takes some twenty operations and two emulated fused steps on arrays of a
few values (an optimizer's step on a small model is mostly that work around them).

The loop computes what `library/optim.py`'s `lerp` and `squares_avg` compute, operation
for operation in the parameter's dtype, its fused steps `floats/fma.py`'s (the compiled
`fma64` and `fma32` of native_sleef.Emit): where a value's fused step is one the
emulation may not give (a NaN; of doubles also an infinity or a product it cannot
split), the call
returns None and the caller computes the whole step with NumPy, so both ways give the
same bits (tests/numerics/test_native_steps.py compares them).  `adam_step_ir` makes
Adam's whole step of a parameter one call: the averages, AMSGrad's maximum, the square
root by MKL's VML function (its address a parameter: the loop calls it as ATen's
`sqrt` does, with the same count and mode) and the parameter's step; `sgd_step_ir` SGD's
step with weight decay, momentum or nesterov, a loop for each of those modes holding only
its steps.  The loops run in vectors of four values, then the values after the last
whole vector one at a time (`_lanes_loop`).  Only `llvmlite.ir` objects are made here;
`native_optim.moments`, `.adam` and `.sgd` call the loops."""

from __future__ import annotations

from .native_sleef import Emit


def _counted_loop(ir, fn, b, n, body, tag, start=None, counted=None, width=1):
    """for i in [start, n) (start 0 if not given) by steps of `width`: body(builder, i),
    a loop appended to fn after b's block; body emits the IR of the `width` elements from
    i and returns their flag (i1, or <width x i1>) or None (n - start a multiple of
    width).  Returns (a builder of the block after the loop, how many elements set their
    flag, from `counted`: 0 if not given)."""
    i64 = ir.IntType(64)
    k0 = ir.Constant(i64, 0)
    start = k0 if start is None else start
    counted = k0 if counted is None else counted
    pre = b.block
    loop, done = fn.append_basic_block(tag + "_loop"), fn.append_basic_block(tag + "_done")
    b.cbranch(b.icmp_signed(">", n, start), loop, done)
    lb = ir.IRBuilder(loop)
    i, cnt = lb.phi(i64), lb.phi(i64)
    i.add_incoming(start, pre)
    cnt.add_incoming(counted, pre)
    flag = body(lb, i)
    if flag is None:
        cnt2 = cnt
    elif width == 1:
        cnt2 = lb.add(cnt, lb.zext(flag, i64))
    else:  # (the lanes' flags as the bits of one integer, counted)
        bits = lb.bitcast(flag, ir.IntType(width))
        cnt2 = lb.add(cnt, lb.zext(lb.call(_ctpop(ir, fn.module, width), [bits]), i64))
    i2 = lb.add(i, ir.Constant(i64, width))
    end = lb.block
    i.add_incoming(i2, end)
    cnt.add_incoming(cnt2, end)
    lb.cbranch(lb.icmp_signed("<", i2, n), loop, done)
    db = ir.IRBuilder(done)
    total = db.phi(i64)
    total.add_incoming(counted, pre)
    total.add_incoming(cnt2, end)
    return db, total


def _lanes_loop(ir, fn, b, n, make, tag, lanes):
    """_counted_loop's loop in vectors: `make(b, w)` (b at the block before the loops,
    where it may splat its constants) returns `body(builder, i)`, which emits the IR of
    the w values from i (w = lanes, then 1) and returns their flag (i1, or <w x i1>) or
    None.  The whole vectors first, then the values after the last one at a time: the
    same operations on each value, in vectors of `lanes` (4: AVX2's width of doubles,
    and of the doubles a float32 fused step is computed in; the optimizers' loops run
    2-4x faster on a few thousand values; LLVM's code generation alone, native.py's
    only pass, makes no vectors of a scalar loop).  Returns (a builder of the block
    after the loops, how many values set their flag)."""
    vbody, sbody = make(b, lanes), make(b, 1)
    width = ir.Constant(ir.IntType(64), lanes)
    whole = b.mul(b.sdiv(n, width), width)
    b, counted = _counted_loop(ir, fn, b, whole, vbody, tag + "_v", width=lanes)
    return _counted_loop(ir, fn, b, n, sbody, tag, whole, counted)


def _ctpop(ir, mod, bits):
    """llvm.ctpop of a `bits`-bit integer (declared once in mod)."""
    name = f"llvm.ctpop.i{bits}"
    g = mod.globals.get(name)
    if g is None:
        it = ir.IntType(bits)
        g = ir.Function(mod, ir.FunctionType(it, [it]), name=name)
    return g


def _vec(ir, t, w):
    """t, or a vector of w of it."""
    return t if w == 1 else ir.VectorType(t, w)


def _splat(ir, b, v, w):
    """v in each of w lanes (v itself for w 1)."""
    if w == 1:
        return v
    i32 = ir.IntType(32)
    out = ir.Constant(ir.VectorType(v.type, w), ir.Undefined)
    for j in range(w):
        out = b.insert_element(out, v, ir.Constant(i32, j))
    return out


def _load(ir, b, ptr, i, w):
    """The w values of ptr from i (one value, or a vector of them)."""
    at = b.gep(ptr, [i])
    if w == 1:
        return b.load(at)
    t = ptr.type.pointee
    return b.load(b.bitcast(at, ir.PointerType(ir.VectorType(t, w))), align=_size(ir, t))


def _store(ir, b, v, ptr, i, w):
    """Stores w values (v: one, or a vector of them) at ptr from i."""
    at = b.gep(ptr, [i])
    if w == 1:
        b.store(v, at)
        return
    b.store(v, b.bitcast(at, ir.PointerType(v.type)), align=_size(ir, ptr.type.pointee))


def _size(ir, t):
    """Bytes of a float or a double (a vector's alignment: one value's)."""
    return 4 if isinstance(t, ir.FloatType) else 8


def _moments(ir, mod, fn, b, n, pg, pa, ps, pao, pso, pk, single):
    """The running averages' loop (moments_ir) appended after b's block; (builder after
    it, how many values set the fused steps' flag)."""
    dbl, i64 = ir.DoubleType(), ir.IntType(64)
    t = ir.FloatType() if single else dbl
    w, w1, b2c, b2 = (b.load(b.gep(pk, [ir.Constant(i64, j)])) for j in range(4))
    far = b.fcmp_ordered(">=", b.call(_fabs(ir, mod), [w]), ir.Constant(dbl, 0.5))
    tb2c, tb2 = (b.fptrunc(v, t) for v in (b2c, b2)) if single else (b2c, b2)

    def make(pb, lanes):
        ws, w1s, tb2cs, tb2s = (_splat(ir, pb, v, lanes) for v in (w, w1, tb2c, tb2))
        wdbl = _vec(ir, dbl, lanes)

        def body(b, i):
            g, avg, sq = (_load(ir, b, p, i, lanes) for p in (pg, pa, ps))
            emit = Emit(ir, mod, b, lanes)

            def wide(v):
                return b.fpext(v, wdbl) if single else v

            def step(x, y, z):
                return emit.fma32(x, y, z) if single else emit.fma64(x, y, z)

            # lerp: diff = g - avg in T; one of the two forms, by w's size
            diff = b.fsub(g, avg)
            x = b.select(far, wide(b.fneg(diff)), ws)
            y = b.select(far, w1s, wide(diff))
            z = b.select(far, wide(g), wide(avg))
            new_avg = step(x, y, z)
            # squares: fma((1 - beta2) * g, g, sq * beta2), the products in T
            new_sq = step(wide(b.fmul(tb2cs, g)), wide(g), wide(b.fmul(sq, tb2s)))
            _store(ir, b, new_avg, pao, i, lanes)
            _store(ir, b, new_sq, pso, i, lanes)
            return emit.bad

        return body

    return _lanes_loop(ir, fn, b, n, make, "moments", 4)


def moments_ir(ir, mod, name, single):
    """i64 NAME(i64 n, T* g, T* avg, T* sq, T* avg_out, T* sq_out, double* k): for each
    i, avg_out[i] = lerp(avg[i], g[i], w) and sq_out[i] = fma((1 - beta2) * g[i], g[i],
    sq[i] * beta2), T float (single) or double; k = (w, 1 - w, 1 - beta2, beta2) as
    values of T (each rounded to it first), and the lerp's form (k[0] below 0.5 in
    magnitude: fma(w, g - avg, avg), else fma(-(g - avg), 1 - w, g)) as torch's kernel
    picks it.  Returns how many values set the fused steps' flag (then the caller
    computes the call with NumPy)."""
    i64 = ir.IntType(64)
    pt = ir.PointerType(ir.FloatType() if single else ir.DoubleType())
    fnty = ir.FunctionType(i64, [i64, pt, pt, pt, pt, pt, ir.PointerType(ir.DoubleType())])
    fn = ir.Function(mod, fnty, name=name)
    for p in fn.args[1:]:
        p.add_attribute("noalias")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    b, total = _moments(ir, mod, fn, b, *fn.args, single)
    b.ret(total)


def _param_step(ir, fn, b, n, pr, pa, pp, po, pk, single):
    """Adam's parameter loop (adam_param_ir) appended after b's block; the builder after
    it."""
    i64 = ir.IntType(64)
    c, eps, value = (b.load(b.gep(pk, [ir.Constant(i64, j)])) for j in range(3))
    if single:
        c, eps, value = (b.fptrunc(v, ir.FloatType()) for v in (c, eps, value))

    def make(pb, lanes):
        cs, epss, values = (_splat(ir, pb, v, lanes) for v in (c, eps, value))

        def body(b, i):
            root, avg, p = (_load(ir, b, x, i, lanes) for x in (pr, pa, pp))
            denom = b.fadd(b.fdiv(root, cs), epss)
            _store(ir, b, b.fadd(p, b.fdiv(b.fmul(values, avg), denom)), po, i, lanes)

        return body

    return _lanes_loop(ir, fn, b, n, make, "param", 4)[0]


def adam_param_ir(ir, mod, name, single):
    """i64 NAME(i64 n, T* root, T* avg, T* p, T* p_out, double* k): Adam's step of the
    parameter after its running averages and the square root of exp_avg_sq (MKL's, not
    always the correctly rounded one: the caller's), p_out[i] = p[i] + (value * avg[i]) /
    (root[i] / c + eps) with k = (c, eps, value) as values of T, each operation rounded
    to T as `library/optim.py`'s Adam.update makes them with NumPy.  Returns 0."""
    dbl, i64 = ir.DoubleType(), ir.IntType(64)
    pt = ir.PointerType(ir.FloatType() if single else dbl)
    fn = ir.Function(mod, ir.FunctionType(i64, [i64, pt, pt, pt, pt, ir.PointerType(dbl)]), name)
    for p in fn.args[1:]:
        p.add_attribute("noalias")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    b = _param_step(ir, fn, b, *fn.args, single)
    b.ret(ir.Constant(i64, 0))


def adam_step_ir(ir, mod, name, single, order):
    """i64 NAME(i64* params): Adam's whole step of a parameter (its parameters' names in
    their order in the array: `order`, native.ADAM_PARAMS) in one call:
    the running averages (moments_ir), with AMSGrad the larger of max_sq and the new
    exp_avg_sq (np.maximum's; a NaN or a pair of zeros is flagged), the square root of
    exp_avg_sq (or of the maximum) by the function at `sqrt` (MKL's VML: sqrt(int n,
    T* x, T* out, i64 mode) into `root`), then the parameter's step (adam_param_ir).
    Returns how many values were flagged (nothing after the flag is computed: the caller
    makes the whole step with NumPy)."""
    dbl, i64, i32 = ir.DoubleType(), ir.IntType(64), ir.IntType(32)
    t = ir.FloatType() if single else dbl
    pt = ir.PointerType(t)
    fn = ir.Function(mod, ir.FunctionType(i64, [ir.PointerType(i64)]), name)
    fn.args[0].add_attribute("noalias")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    raw = {key: b.load(b.gep(fn.args[0], [ir.Constant(i64, j)])) for j, key in enumerate(order)}
    n, mode = raw["n"], raw["mode"]
    ptr = {key: b.inttoptr(v, pt) for key, v in raw.items() if key not in ("n", "mode", "k")}
    pk = b.inttoptr(raw["k"], ir.PointerType(dbl))
    zero = ir.Constant(i64, 0)
    b, bad = _moments(
        ir,
        mod,
        fn,
        b,
        n,
        ptr["g"],
        ptr["avg"],
        ptr["sq"],
        ptr["avg_out"],
        ptr["sq_out"],
        pk,
        single,
    )
    fail, ams, after = (fn.append_basic_block(x) for x in ("fail", "ams", "after"))
    ams_on = b.icmp_unsigned("!=", raw["max_sq"], zero)
    b.cbranch(b.icmp_unsigned("!=", bad, zero), fail, ams)
    fb = ir.IRBuilder(fail)
    fb.ret(ir.Constant(i64, 1))
    b = ir.IRBuilder(ams)
    no_ams = b.block
    ams_loop = fn.append_basic_block("ams_first")
    b.cbranch(ams_on, ams_loop, after)
    b = ir.IRBuilder(ams_loop)
    ity = ir.IntType(32 if single else 64)

    def larger(b, i):
        m, s = (b.load(b.gep(ptr[key], [i])) for key in ("max_sq", "sq_out"))
        nan = b.fcmp_unordered("uno", m, s)
        zeros = b.and_(
            b.fcmp_ordered("==", m, ir.Constant(t, 0.0)),
            b.fcmp_ordered("==", s, ir.Constant(t, 0.0)),
        )
        signs = b.icmp_unsigned("!=", b.bitcast(m, ity), b.bitcast(s, ity))
        b.store(b.select(b.fcmp_ordered(">", s, m), s, m), b.gep(ptr["max_out"], [i]))
        return b.or_(nan, b.and_(zeros, signs))

    b, bad2 = _counted_loop(ir, fn, b, n, larger, "ams")
    b.cbranch(b.icmp_unsigned("!=", bad2, zero), fail, after)
    ams_end = b.block
    b = ir.IRBuilder(after)
    src = b.phi(pt)
    src.add_incoming(ptr["sq_out"], no_ams)
    src.add_incoming(ptr["max_out"], ams_end)
    sqrt_ty = ir.FunctionType(ir.VoidType(), [i32, pt, pt, i64])
    sqrt = b.inttoptr(raw["sqrt"], ir.PointerType(sqrt_ty))
    b.call(sqrt, [b.trunc(n, i32), src, ptr["root"], mode])
    b = _param_step(
        ir,
        fn,
        b,
        n,
        ptr["root"],
        ptr["avg_out"],
        ptr["p"],
        ptr["p_out"],
        b.gep(pk, [ir.Constant(i64, 4)]),
        single,
    )
    b.ret(zero)


def _fabs(ir, mod):
    g = mod.globals.get("llvm.fabs.f64")
    if g is None:
        dbl = ir.DoubleType()
        g = ir.Function(mod, ir.FunctionType(dbl, [dbl]), name="llvm.fabs.f64")
    return g


def sgd_step_ir(ir, mod, name, single, order):
    """i64 NAME(i64* params): SGD's step of a parameter with weight decay or momentum in
    one call (its parameters' names in their order in the array: `order`,
    native.SGD_PARAMS), each `add_` a fused step of the dtype as library/optim.py's
    SGD.update makes them: g1 = fma(wd, p, g) with weight decay (mode bit 1), else g; with
    momentum the buffer fma(1 - dampening, g1, buf * momentum) (bit 2, the product in T)
    or g1 itself (bit 4: the first step), and with nesterov (bit 8) the step's gradient
    fma(momentum, new buffer, g1), else the buffer; then p_out = fma(-lr, that, p).
    buf_out gets the new buffer (without momentum nothing is written there).  k = (wd,
    momentum, 1 - dampening, -lr) as values of T.  Returns how many values a fused step
    flagged (then the caller computes the whole step with NumPy; 1 for a mode not in
    _SGD_MODES)."""
    dbl, i64 = ir.DoubleType(), ir.IntType(64)
    t = ir.FloatType() if single else dbl
    pt = ir.PointerType(t)
    fn = ir.Function(mod, ir.FunctionType(i64, [ir.PointerType(i64)]), name)
    fn.args[0].add_attribute("noalias")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    raw = {key: b.load(b.gep(fn.args[0], [ir.Constant(i64, j)])) for j, key in enumerate(order)}
    n, mode = raw["n"], raw["mode"]
    ptr = {key: b.inttoptr(raw[key], pt) for key in ("g", "p", "buf", "p_out", "buf_out")}
    pk = b.inttoptr(raw["k"], ir.PointerType(dbl))
    wd, m, damp, lr = (b.load(b.gep(pk, [ir.Constant(i64, j)])) for j in range(4))
    k = (wd, m, damp, lr, b.fptrunc(m, t) if single else m)

    # one loop for each mode, holding only its steps (a step computed and not taken would
    # cost as much as one taken); another mode is the caller's to compute
    other = fn.append_basic_block("sgd_other")
    ir.IRBuilder(other).ret(ir.Constant(i64, 1))
    switch = b.switch(mode, other)
    for code in _SGD_MODES:
        block = fn.append_basic_block(f"sgd_mode{code}")
        switch.add_case(ir.Constant(i64, code), block)
        mb, bad = _lanes_loop(
            ir,
            fn,
            ir.IRBuilder(block),
            n,
            _sgd_body(ir, mod, ptr, k, single, code),
            f"sgd{code}",
            4,
        )
        mb.ret(bad)


#: SGD's modes (native_optim.sgd's bits): weight decay (1) or not, without momentum, with
#: a momentum buffer (2) or its first step (4), with those nesterov (8) or not
_SGD_MODES = tuple(
    decay | moving | nesterov
    for decay in (0, 1)
    for moving in (0, 2, 4)
    for nesterov in ((0, 8) if moving else (0,))
)


def _sgd_body(ir, mod, ptr, k, single, code):
    """make(b, lanes) for _lanes_loop: SGD's step of mode `code` (sgd_step_ir; k its
    constants (wd, momentum, 1 - dampening, -lr, momentum in T))."""
    dbl = ir.DoubleType()
    decay, running, first, nesterov = (code & bit for bit in (1, 2, 4, 8))

    def make(pb, lanes):
        wd, m, damp, lr, tm = (_splat(ir, pb, v, lanes) for v in k)
        wdbl = _vec(ir, dbl, lanes)

        def body(b, i):
            g, p = (_load(ir, b, ptr[key], i, lanes) for key in ("g", "p"))
            flags = []

            def step(x, y, z):
                emit = Emit(ir, mod, b, lanes)
                wide = (lambda v: b.fpext(v, wdbl)) if single else (lambda v: v)
                r = (emit.fma32 if single else emit.fma64)(x, wide(y), wide(z))
                flags.append(emit.bad)
                return r

            g1 = step(wd, p, g) if decay else g
            new_buf = None
            if running:
                buf = _load(ir, b, ptr["buf"], i, lanes)
                new_buf = step(damp, g1, b.fmul(buf, tm))
            elif first:
                new_buf = g1
            g2 = g1
            if new_buf is not None:
                g2 = step(m, new_buf, g1) if nesterov else new_buf
                _store(ir, b, new_buf, ptr["buf_out"], i, lanes)
            _store(ir, b, step(lr, g2, p), ptr["p_out"], i, lanes)
            bad = flags[0]
            for f in flags[1:]:
                bad = b.or_(bad, f)
            return bad

        return body

    return make


def scaled_step_ir(ir, mod, name, single, op):
    """i64 NAME(i64* p), T float (single) or double; p = (n, x, g, y, out): out[i] =
    x[i] OP (g[i] * y[0]) with OP `op` ("add", "sub" or "mul"), two roundings (the
    product, then the op: no fused step), as NumPy's multiply by the factor and the op's
    ufunc make them: a manual step `w -= lr * w.grad` in one pass (out may be x, and g
    may be x); in vectors of AVX2's lanes (8 floats, 4 doubles), the values after the
    last whole vector one at a time.  Returns 0."""
    t = ir.FloatType() if single else ir.DoubleType()
    lanes = 8 if single else 4
    vec = ir.VectorType(t, lanes)
    i64, i32 = ir.IntType(64), ir.IntType(32)
    pt, pi, pv = ir.PointerType(t), ir.PointerType(i64), ir.PointerType(vec)
    fn = ir.Function(mod, ir.FunctionType(i64, [pi]), name=name)
    (params,) = fn.args
    entry, vloop, tail, sloop, done = (
        fn.append_basic_block(x) for x in ("entry", "vloop", "tail", "sloop", "done")
    )
    zero, one, width = ir.Constant(i64, 0), ir.Constant(i64, 1), ir.Constant(i64, lanes)
    b = ir.IRBuilder(entry)
    n, x_at, g_at, y_at, out_at = (b.load(b.gep(params, [ir.Constant(i64, j)])) for j in range(5))
    px, pg, py, pout = (b.inttoptr(a, pt) for a in (x_at, g_at, y_at, out_at))
    y = b.load(py)
    yv = ir.Constant(vec, ir.Undefined)
    for j in range(lanes):
        yv = b.insert_element(yv, y, ir.Constant(i32, j))
    whole = b.mul(b.sdiv(n, width), width)
    b.cbranch(b.icmp_signed(">", whole, zero), vloop, tail)

    def combine(b, x, product):
        if op == "add":
            return b.fadd(x, product)
        if op == "sub":
            return b.fsub(x, product)
        return b.fmul(x, product)

    b = ir.IRBuilder(vloop)
    i = b.phi(i64)
    i.add_incoming(zero, entry)
    align = 4 if single else 8
    xv = b.load(b.bitcast(b.gep(px, [i]), pv), align=align)
    gv = b.load(b.bitcast(b.gep(pg, [i]), pv), align=align)
    r = combine(b, xv, b.fmul(gv, yv))
    b.store(r, b.bitcast(b.gep(pout, [i]), pv), align=align)
    i2 = b.add(i, width)
    i.add_incoming(i2, vloop)
    b.cbranch(b.icmp_signed("<", i2, whole), vloop, tail)

    b = ir.IRBuilder(tail)
    b.cbranch(b.icmp_signed("<", whole, n), sloop, done)

    b = ir.IRBuilder(sloop)
    k = b.phi(i64)
    k.add_incoming(whole, tail)
    r = combine(b, b.load(b.gep(px, [k])), b.fmul(b.load(b.gep(pg, [k])), y))
    b.store(r, b.gep(pout, [k]))
    k2 = b.add(k, one)
    k.add_incoming(k2, sloop)
    b.cbranch(b.icmp_signed("<", k2, n), sloop, done)

    b = ir.IRBuilder(done)
    b.ret(zero)
