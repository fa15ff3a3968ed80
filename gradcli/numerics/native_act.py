"""LLVM IR for `native.py` to compile: element-wise kernels of PyTorch's built on SLEEF's
exp and log1p, whole in one pass where NumPy makes a pass per operation around the
compiled SLEEF kernels (each its own call, its arrays, its flags):

* `sigmoid` (torch's sigmoid_kernel on its whole blocks of two vectors): 1 / (exp(-x) + 1);
* `log_sigmoid` (log_sigmoid_cpu_kernel, every value): min(x, 0) - log1p(exp(-|x|));
* `bce_logits` (binary_cross_entropy_with_logits' element-wise loss, its kernels one
  after another, each rounded to the dtype): (1 - y) * x - log_sigmoid(x).

Each is the NumPy emulation's operations in its order (floats/torch_exp.sigmoid,
floats/torch_act.log_sigmoid_forward, ops/loss.py's BCEWithLogits.forward), SLEEF's steps
those of native_sleef.py (doubles, `Emit`) and native_sleef32.py (floats, `Lanes`), in
vectors of 8 values.  A lane whose SLEEF step sets its flag, or whose result is a NaN (its
payload is NumPy's business), is flagged, and the caller computes those values alone with
the emulation (element-wise: the same bits).  Only `llvmlite.ir` objects are made here."""

from __future__ import annotations

from . import native_sleef as s64, native_sleef32 as s32


def _nan(e, r):
    e.flag(e.b.fcmp_unordered("uno", r, r))
    return r


def _sigmoid64(e, x):
    one = e.d(1.0)
    return _nan(e, e.b.fdiv(one, e.b.fadd(s64.expd(e, e.b.fneg(x)), one)))


def _sigmoid32(e, x):
    one = e.c(1.0)
    return _nan(e, e.b.fdiv(one, e.b.fadd(s32.expf(e, e.b.fneg(x), s32.K), one)))


def _log_sigmoid64(e, x):
    b, zero = e.b, e.d(0.0)
    buffer = s64.expd(e, b.fneg(b.call(e.fabs, [x])))
    m = b.select(b.fcmp_ordered("<", x, zero), x, zero)  # np.minimum(x, 0): -0 gives +0
    return _nan(e, b.fsub(m, s64.log1pd(e, buffer)))


def _log_sigmoid32(e, x):
    b, zero = e.b, e.c(0.0)
    buffer = s32.expf(e, b.fneg(e.abs(x)), s32.K)
    m = b.select(b.fcmp_ordered("<", x, zero), x, zero)
    return _nan(e, b.fsub(m, s32.log1pf(e, buffer, s32.K)))


def _bce(log_sigmoid, one):
    def body(e, x, y):
        b = e.b
        loss = b.fmul(b.fsub(one(e), y), x)
        return _nan(e, b.fsub(loss, log_sigmoid(e, x)))

    return body


#: name -> (arguments, body(emit, *values), single)
KERNELS = {
    "sigmoid_d": (1, _sigmoid64, False),
    "sigmoid_f": (1, _sigmoid32, True),
    "log_sigmoid_d": (1, _log_sigmoid64, False),
    "log_sigmoid_f": (1, _log_sigmoid32, True),
    "bce_logits_d": (2, _bce(_log_sigmoid64, lambda e: e.d(1.0)), False),
    "bce_logits_f": (2, _bce(_log_sigmoid32, lambda e: e.c(1.0)), True),
}


def kernel_ir(ir, mod, name):
    """i64 NAME(i64 n, T* x[, T* y], T* out, i8* flags) (KERNELS), as native_sleef's
    unary kernels: n a multiple of 8, flags per value, returns whether any is set."""
    nargs, body, single = KERNELS[name]
    if single:
        elem, emitter = ir.FloatType(), s32.Lanes
    else:
        elem, emitter = ir.DoubleType(), s64.Emit
    lanes_loop = s64.lanes_loop
    lanes_loop(ir, mod, name, nargs, lambda e, v: body(e, *v), elem, 8, emitter, True)
