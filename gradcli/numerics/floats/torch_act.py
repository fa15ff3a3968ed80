"""PyTorch's CPU kernels built on `log1p`, `expm1`, `sinh`, `cosh` and `exp`, to the last
bit (float32 and float64; other dtypes are not these kernels' business):

* `torch.log1p`, `torch.expm1`: ATen's vml `map` -- SLEEF's functions on every value,
  the last partial vector padded (numerics/floats/sleef_u10.py);
* `torch.sinh`, `torch.cosh`: `cpu_kernel_vec` -- SLEEF on whole blocks of two vectors
  in each contiguous run of each thread's range (numerics/floats/tensor_iter.py), the C library's
  function on the values after them (and on all of a run that is not contiguous);
* `softplus` (softplus_kernel): x where x*beta > threshold, else
  log1p(exp(x*beta)) / beta -- SLEEF's exp and log1p on the blocks, glibc's
  expf/exp and log1pf/log1p after them;
* `elu` (elu_kernel): x where x > 0, else expm1(x) * alpha; its backward
  (elu_backward_kernel): g where x > 0, else (g * alpha) * exp(x);
* `log_sigmoid` (log_sigmoid_cpu_kernel): min(x, 0) - log1p(exp(-|x|)), every value
  with SLEEF's functions (a partial last vector is padded, not left to the C library).

NumPy's float64 exp/log1p/expm1/sinh/cosh and float32 log1p/expm1/sinh/cosh are
glibc's on Linux (checked against the C library on 100,000 values); float32 exp is
not (NumPy has its own SIMD expf), so torch_exp.libm_expf stands in for glibc's.
"""

from __future__ import annotations

import numpy as np

from .. import native
from .tensor_iter import VEC_BLOCK, split
from .sleef_explog import expf as _sleef_expf
from .sleef_u10 import sleef_cosh, sleef_expm1, sleef_log1p, sleef_sinh
from .torch_exp import expd as _sleef_expd, libm_expf


def _sleef_expm1(x):
    """sleef_u10.sleef_expm1 of an array; a float32 or float64 one by the compiled
    kernel (numerics/native_act.py `expm1_f`, `expm1_d`, the same bits) once it is
    loaded."""
    if x.dtype.char in "fd" and x.flags.c_contiguous:
        out = native.act("expm1", x.dtype, x, exact=sleef_expm1)
        if out is not None:
            return out
        t0 = native.start(x.size)
        try:
            return sleef_expm1(x)
        finally:
            native.spent(t0)
    return sleef_expm1(x)


class _Vector:
    """The functions of `Vectorized<T>` (SLEEF's, AVX2 build)."""

    vector = True
    log1p, expm1, sinh, cosh = (
        staticmethod(f) for f in (sleef_log1p, _sleef_expm1, sleef_sinh, sleef_cosh)
    )

    @staticmethod
    def exp(x):
        return _sleef_expf(x) if x.dtype == np.float32 else _sleef_expd(x)


class _Scalar:
    """The C library's functions (the kernels' scalar lambdas)."""

    vector = False
    log1p, expm1, sinh, cosh = (staticmethod(f) for f in (np.log1p, np.expm1, np.sinh, np.cosh))

    @staticmethod
    def exp(x):
        return libm_expf(x) if x.dtype == np.float32 else np.exp(x)


def blocks(fn, *arrays, kernel=None):
    """fn(lib, *values) computed as `cpu_kernel_vec` runs an element-wise kernel: along
    each contiguous run TensorIterator makes (numerics/floats/tensor_iter.py), on whole blocks of
    two vectors with the vector functions (lib = _Vector), on the values after them with
    the C library's (lib = _Scalar).  The arrays share one shape and float dtype; fn
    gets 1-D arrays.  `kernel`: the compiled kernel of the vector code (native_act.py,
    by `native.act`'s name), where one is loaded for the dtype (its flagged values fn's)."""

    def vector(*v):
        if kernel is not None and all(a.flags.c_contiguous for a in v):
            out = native.act(kernel, v[0].dtype, *v, exact=lambda *w: fn(_Vector, *w))
            if out is not None:
                return out
        return fn(_Vector, *v)

    with np.errstate(all="ignore"):
        return split(
            vector,
            lambda *v: fn(_Scalar, *v),
            arrays,
            VEC_BLOCK[np.asarray(arrays[0]).dtype.type],
        )


def _floating(x):
    return isinstance(x, np.ndarray) and x.dtype.char in "fd"


def log1p(x):
    """torch.log1p of an array (SLEEF's everywhere for float32/float64)."""
    return sleef_log1p(x).reshape(np.shape(x)) if _floating(x) else np.log1p(x)


def expm1(x):
    """torch.expm1 of an array."""
    return _sleef_expm1(x).reshape(np.shape(x)) if _floating(x) else np.expm1(x)


def sinh(x):
    """torch.sinh of an array."""
    return blocks(lambda lib, v: lib.sinh(v), x) if _floating(x) else np.sinh(x)


def cosh(x):
    """torch.cosh of an array."""
    return blocks(lambda lib, v: lib.cosh(v), x) if _floating(x) else np.cosh(x)


def softplus(x, beta, threshold):
    """torch's softplus kernel; beta and threshold rounded to x's dtype as it takes them."""
    t = x.dtype.type
    b, th = t(beta), t(threshold)

    def fn(lib, v):
        bx = v * b
        return np.where(bx > th, v, lib.log1p(lib.exp(bx)) / b)

    return blocks(fn, x)


def _positive(lib, v):
    """Where the kernel takes the positive branch: the vector code blends on x > 0, the
    scalar code tests x <= 0 (the two part on nan)."""
    return v > 0 if lib.vector else ~(v <= 0)


def elu(x, alpha, scale=1.0, input_scale=1.0):
    """torch's elu kernel: x * scale where x > 0, else expm1(x * input_scale) * (alpha *
    scale), the coefficients rounded to x's dtype (with scale = input_scale = 1 the
    products by 1 are exact: x, expm1(x) * alpha)."""
    t = x.dtype.type
    neg, pos, ipt = t(alpha) * t(scale), t(scale), t(input_scale)
    return blocks(lambda lib, v: np.where(_positive(lib, v), v * pos, lib.expm1(v * ipt) * neg), x)


def elu_backward(g, x, alpha, scale=1.0, input_scale=1.0):
    """torch's elu_backward kernel on the input (is_result false): g * scale where x > 0,
    else ((g * input_scale) * (alpha * scale)) * exp(x * input_scale), in that order."""
    t = x.dtype.type
    neg, pos, ipt = t(alpha) * t(scale), t(scale), t(input_scale)
    return blocks(
        lambda lib, dy, v: np.where(
            _positive(lib, v), dy * pos, ((dy * ipt) * neg) * lib.exp(v * ipt)
        ),
        g,
        x,
    )


def elu_backward_result(g, out, alpha, scale=1.0, input_scale=1.0):
    """torch's elu_backward kernel on the result (is_result true, the in-place forms'):
    g * scale where out > 0, else (g * input_scale) * (out + alpha * scale)."""
    t = out.dtype.type
    neg, pos, ipt = t(alpha) * t(scale), t(scale), t(input_scale)
    return blocks(
        lambda lib, dy, v: np.where(_positive(lib, v), dy * pos, (dy * ipt) * (v + neg)),
        g,
        out,
    )


def log_sigmoid_forward(x):
    """torch's log_sigmoid kernel: (min(x, 0) - log1p(b), b) with b = exp(-|x|) (its
    `buffer`, kept for the backward), SLEEF's exp and log1p on every value; a nan comes
    out with all bits set (vec::minimum ORs in the unordered mask)."""
    flat = np.ascontiguousarray(x).reshape(-1)
    with np.errstate(all="ignore"):
        m = np.minimum(flat, 0)
        m = np.where(
            np.isnan(flat),
            np.asarray(-1, "i4" if flat.dtype == np.float32 else "i8").view(flat.dtype),
            m,
        )
        buffer = _Vector.exp(-np.abs(flat))
        out = m - _Vector.log1p(buffer)
    return out.reshape(np.shape(x)), buffer.reshape(np.shape(x))


def log_sigmoid(x):
    """torch's log_sigmoid of a float32/float64 array (see log_sigmoid_forward): one
    compiled pass where the loops are loaded (numerics/native_act.py)."""
    flat = np.ascontiguousarray(x).reshape(-1)
    out = native.act("log_sigmoid", flat.dtype, flat, exact=_log_sigmoid_values)
    if out is None:
        return log_sigmoid_forward(x)[0]
    return out.reshape(np.shape(x))


def _log_sigmoid_values(v):
    return log_sigmoid_forward(v)[0]


def bce_with_logits(x, y):
    """binary_cross_entropy_with_logits' element-wise loss of x and y of one float dtype
    and shape, as its kernels make it one after another: (1 - y) * x - log_sigmoid(x),
    each step rounded to the dtype; one compiled pass where the loops are loaded."""
    if x.flags.c_contiguous and y.flags.c_contiguous:
        out = native.act("bce_logits", x.dtype, x, y, exact=_bce_values)
        if out is not None:
            return out
    return _bce_values(x, y)


def _bce_values(x, y):
    return (1 - y) * x - log_sigmoid(x)


def log_sigmoid_backward(g, x, buffer):
    """torch's log_sigmoid_backward kernel: (d - s * (b / (1 + b))) * g with d, s = 1, 1
    where x < 0 and 0, -1 elsewhere."""
    t = x.dtype.type
    neg = x < 0
    with np.errstate(all="ignore"):
        return (
            np.where(neg, t(1), t(0)) - np.where(neg, t(1), t(-1)) * (buffer / (t(1) + buffer))
        ) * g


def sign(x):
    """PyTorch's sign: (0 < x) - (x < 0), so NaN gives 0 (NumPy's np.sign gives NaN)."""
    s = np.sign(x)
    if s.dtype.kind == "f" and np.isnan(s).any():
        s = np.where(np.isnan(s), np.zeros((), s.dtype), s)
    return s
