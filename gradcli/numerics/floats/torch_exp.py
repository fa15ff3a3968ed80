"""The exponentials inside PyTorch's own CPU kernels, and `sigmoid` as its kernel
computes it (ATen/native/cpu/UnaryOpsKernel.cpp, `sigmoid_kernel`).  Its plain
`torch.exp` is MKL's (gradcli/numerics/mkl.py); its kernels call
`Vectorized<T>::exp()` on whole blocks of two vectors -- SLEEF's 1-ulp functions
(float32: sleef_explog.expf; float64: `expd` here, `Sleef_expd4_u10` of the AVX2
build, with fused multiply-adds) -- and the C library's `exp`/`expf` on the
values after the last whole block.

Re-implemented in NumPy from the published algorithms.  SLEEF's expd:
q = rint(x / ln 2), s = x - q*ln2 in two fused steps (ln 2 split in two), a
degree-9 polynomial in s by Estrin's scheme with fused steps, three fused Horner
steps, scaled by 2^q in two products.  glibc's expf: in double, x*32/ln2 = k + r
rounded by adding 1.5 * 2^52, 2^(k/32) from a 32-entry table of bit patterns, a
degree-3 polynomial in r, rounded once to float32 (whether the compiler fused its
multiply-adds does not change the float32 result: checked on 210,000 values).
NumPy's float64 `exp` is the C library's.  Checked against torch 2.13's own
results bit for bit (tests/golden/exact_numerics.json).
"""

from __future__ import annotations

import struct

import numpy as np

from .. import native
from .fma import Split, estrin10, fma
from .tensor_iter import VEC_BLOCK, all_vector, split
from .sleef_explog import expf

_R_LN2 = 1.442695040888963407359924681001892137426645954152985934135449406931
_L2U = 0.69314718055966295651160180568695068359375
_L2L = 0.28235290563031577122588448175013436025525412068e-12
# c9 .. c0 of the polynomial (SLEEF's coefficients for its FMA build)
_C = (
    0.2081276378237164457e-8,
    0.2511210703042288022e-7,
    0.2755762628169491192e-6,
    0.2755723402025388239e-5,
    0.2480158687479686264e-4,
    0.1984126989855865850e-3,
    0.1388888888914497797e-2,
    0.8333333333314938210e-2,
    0.4166666666666602598e-1,
    0.1666666666666669072e0,
)

# glibc's expf (sysdeps/ieee754/flt-32/e_expf.c, EXP2F_TABLE_BITS = 5): the bits of
# 2^(i/32) with i/32 * 2^52 taken off, and the polynomial scaled for r in units of 1/32
_T32 = np.array(
    [
        0x3FF0000000000000,
        0x3FEFD9B0D3158574,
        0x3FEFB5586CF9890F,
        0x3FEF9301D0125B51,
        0x3FEF72B83C7D517B,
        0x3FEF54873168B9AA,
        0x3FEF387A6E756238,
        0x3FEF1E9DF51FDEE1,
        0x3FEF06FE0A31B715,
        0x3FEEF1A7373AA9CB,
        0x3FEEDEA64C123422,
        0x3FEECE086061892D,
        0x3FEEBFDAD5362A27,
        0x3FEEB42B569D4F82,
        0x3FEEAB07DD485429,
        0x3FEEA47EB03A5585,
        0x3FEEA09E667F3BCD,
        0x3FEE9F75E8EC5F74,
        0x3FEEA11473EB0187,
        0x3FEEA589994CCE13,
        0x3FEEACE5422AA0DB,
        0x3FEEB737B0CDC5E5,
        0x3FEEC49182A3F090,
        0x3FEED503B23E255D,
        0x3FEEE89F995AD3AD,
        0x3FEEFF76F2FB5E47,
        0x3FEF199BDD85529C,
        0x3FEF3720DCEF9069,
        0x3FEF5818DCFBA487,
        0x3FEF7C97337B9B5F,
        0x3FEFA4AFA2A490DA,
        0x3FEFD0765B6E4540,
    ],
    dtype=np.uint64,
)
_INV_LN2_32 = float.fromhex("0x1.71547652b82fep+0") * 32
_SHIFT52 = float.fromhex("0x1.8p+52")
_P32 = (
    float.fromhex("0x1.c6af84b912394p-5") / 32**3,
    float.fromhex("0x1.ebfce50fac4f3p-3") / 32**2,
    float.fromhex("0x1.62e42ff0c52d6p-1") / 32,
)
_EXPF_MAX, _EXPF_MIN = float.fromhex("0x1.62e42ep6"), float.fromhex("-0x1.9fe368p6")


def _pow2i(q):
    return ((q.astype(np.int64) + 0x3FF) << 52).view(np.float64)


def expd(d):
    """Sleef_expd4_u10 of a float64 array (numerics/native.py's compiled kernel, the same
    bits, once it pays)."""
    d = np.asarray(d, np.float64)
    lib = native.ready(d.size)
    if lib and d.flags.c_contiguous:
        out = native.unary(lib, "expd", d, _expd)
        if out is not None:
            return out
    t0 = native.start(d.size)
    try:
        return _expd(d)
    finally:
        native.spent(t0)


def _expd(d):
    with np.errstate(invalid="ignore", over="ignore"):
        u = np.rint(d * _R_LN2)
        q = np.where(np.abs(u) < 2**31, u, -(2**31)).astype(np.int32)  # cvtpd: nan -> INT_MIN
        # u * _L2U is exact where the result is not replaced below (|u| < 2^11, _L2U
        # of 41 bits), so its fused step is the plain sum, the emulation's own result
        # for a nan or inf too
        s = d + u * -_L2U
        s = Split(fma(u, -_L2L, s))
        u = estrin10(s, _C)
        u = fma(u, s, 0.5)
        u = fma(u, s, 1.0)
        u = fma(u, s, 1.0)
        h = q >> 1
        u = u * _pow2i(h) * _pow2i(q - h)
        u = np.where(d > 709.78271114955742909217217426, np.inf, u)
        u = np.where(d < -1000, 0.0, u)
    return u


def libm_expf(x):
    """glibc's expf of a float32 array (what std::exp(float) calls on Linux)."""
    x = np.asarray(x, np.float32)
    xd = x.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        z = _INV_LN2_32 * xd
        kd = z + _SHIFT52
        ki = kd.view(np.uint64)
        r = z - (kd - _SHIFT52)
        s = (_T32[ki % np.uint64(32)] + (ki << np.uint64(47))).view(np.float64)
        c0, c1, c2 = _P32
        y = (((c0 * r + c1) * (r * r)) + (c2 * r + 1)) * s
        y = np.where(xd > _EXPF_MAX, np.inf, y)
        y = np.where(xd < _EXPF_MIN, 0.0, y)
        y = np.where(np.isnan(xd), xd, y)
    return y.astype(np.float32)


def _libm_exp(x):
    return libm_expf(x) if x.dtype == np.float32 else np.exp(x)


def _sleef_exp(x):
    return expf(x) if x.dtype == np.float32 else expd(x)


def kernel(fn, *arrays):
    """fn(exp, *values) computed as PyTorch's `cpu_kernel_vec` runs an element-wise
    kernel that calls exp: along each contiguous run of each thread's range
    (numerics/floats/tensor_iter.py), on whole blocks of two vectors with SLEEF's exp
    (`Vectorized<T>::exp()`), on the values after them with the C library's (the scalar
    lambda).  The arrays share one shape and float dtype; fn gets 1-D arrays and must
    compute in their dtype."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        return split(
            lambda *v: fn(_sleef_exp, *v),
            lambda *v: fn(_libm_exp, *v),
            arrays,
            VEC_BLOCK[np.asarray(arrays[0]).dtype.type],
        )


def _sigmoid(exp, x):
    one = x.dtype.type(1)
    return one / (exp(-x) + one)  # -x flips a nan's sign, as torch's negation does


def _exact_sigmoid(v):
    """The vector code's sigmoid of the values the compiled pass flags, in NumPy."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        return _sigmoid(_sleef_exp, v)


def _vector_sigmoid(x):
    """The vector code's sigmoid of a run's whole blocks (1-D, contiguous): one compiled
    pass where the loops are loaded (numerics/native_act.py), the flagged values NumPy's."""
    out = None
    if x.flags.c_contiguous:
        out = native.act("sigmoid", x.dtype, x, exact=lambda v: _sigmoid(_sleef_exp, v))
    return _sigmoid(_sleef_exp, x) if out is None else out


def sigmoid(x):
    """PyTorch's CPU sigmoid of a float32/float64 array: 1 / (1 + exp(-x))."""
    if x.size == 1:  # (one value: the scalar code's, on Python floats)
        v = sigmoid_one(x.item(), x.dtype.char == "f")
        if v is not None:
            return np.array(v, x.dtype).reshape(x.shape)
    if x.ndim and native.loaded() and all_vector(x, VEC_BLOCK[x.dtype.type]):
        # every value the vector code's (a gate's rows of whole blocks): one compiled
        # pass over the values in C order, without the walk's gathering
        out = native.act("sigmoid", x.dtype, np.ascontiguousarray(x), exact=_exact_sigmoid)
        if out is not None:
            return out
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        return split(
            _vector_sigmoid,
            _scalar_sigmoid,
            (x,),
            VEC_BLOCK[np.asarray(x).dtype.type],
        )


def _scalar_sigmoid(v):
    """The scalar code's sigmoid of the values after a run's whole blocks (1-D): fewer than
    a block of float32 values each by `sigmoid_one` (Python floats: about 1 us a value,
    where glibc's expf in array steps costs about 15 us at any size), unless one is out
    of its range; else the array steps."""
    if v.dtype.char == "f" and v.size < VEC_BLOCK[np.float32]:
        out = [sigmoid_one(e, True) for e in v.tolist()]
        if None not in out:
            return np.array(out, np.float32)
    return _sigmoid(_libm_exp, v)


_D, _Q, _S = struct.Struct("<d"), struct.Struct("<Q"), struct.Struct("<f")
_T32_INTS = [int(b) for b in _T32]
_np_exp = np.exp
_M64 = (1 << 64) - 1


def _expf_double(xd):
    """libm_expf's steps on one value (a Python float holding a float32 value within
    [_EXPF_MIN, _EXPF_MAX]): its double result before the rounding to float32."""
    z = _INV_LN2_32 * xd
    kd = z + _SHIFT52
    ki = _Q.unpack(_D.pack(kd))[0]
    r = z - (kd - _SHIFT52)
    s = _D.unpack(_Q.pack((_T32_INTS[ki % 32] + (ki << 47)) & _M64))[0]
    c0, c1, c2 = _P32
    return (((c0 * r + c1) * (r * r)) + (c2 * r + 1)) * s


def sigmoid_one(v, single):
    """`sigmoid` of one value (a Python float; `single`: a float32 one), as the scalar
    code computes a run shorter than a vector block: 1 / (exp(-v) + 1) with the exp
    `_libm_exp` takes (NumPy's for float64; glibc's expf steps for float32, each float32 operation a double one
    rounded to float32, which for + and / of float32 values is float32's own), as a
    Python float; None outside the range where exp's result is a plain number (NaN, the
    infinities, overflow, underflow: the array steps make those).  About 2 us where the
    array steps take 8-30."""
    m = -v
    if single:
        if not _EXPF_MIN <= m <= 88.0:
            return None
        f32 = _S.pack
        e = _S.unpack(f32(_expf_double(m)))[0]
        return _S.unpack(f32(1.0 / _S.unpack(f32(e + 1.0))[0]))[0]
    if not -700.0 <= m <= 700.0:
        return None
    return 1.0 / (float(_np_exp(m)) + 1.0)


def silu(x):
    """PyTorch's silu kernel: x / (1 + exp(-x))."""
    return kernel(lambda exp, v: v / (v.dtype.type(1) + exp(-v)), x)


def silu_backward(g, x):
    """PyTorch's silu_backward kernel: (g * s) * (1 + x * (1 - s)), s = sigmoid(x), the
    last multiply-add fused."""

    def fn(exp, dy, v):
        s = _sigmoid(exp, v)
        t = v.dtype.type
        return (dy * s) * np.asarray(fma(v, t(1) - s, 1.0, dtype=t), dtype=t)

    return kernel(fn, g, x)


def softplus_backward(g, x, beta, threshold):
    """PyTorch's softplus_backward kernel: z = exp(x * beta); g where x * beta > threshold,
    else (g * z) / (z + 1)."""

    def fn(exp, dy, v):
        bx = v * beta
        z = exp(bx)
        return np.where(bx > threshold, dy, (dy * z) / (z + v.dtype.type(1)))

    return kernel(fn, g, x)
