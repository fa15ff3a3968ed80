"""float16 arithmetic with a Python number as PyTorch's CPU kernels do it.

PyTorch computes a float16 ("Half") tensor's arithmetic in float32, its "opmath"
type, and rounds each result once to float16.  What it does with the number
depends on the kernel (ATen/native/cpu/BinaryOpsKernel.cpp, PowKernel.cpp and the
ufunc `add`; checked against torch 2.13 on all 65,536 float16 values,
tests/golden/half.json):

- `mul`, `div` and `floor_divide` by a number (`x * 1e5`, `x / 1e-5`, `1e5 * x`,
  `x // 0.3`) take the number as it was written, rounded once to float32
  (`iter.original_scalar_value<opmath_t>`): `x * 1e5` is finite where x * 1e5 is,
  and `x * 0.1` uses float32's 0.1, not float16's.  `number / x` is
  `x.reciprocal() * number`, the product as above.
- `add`/`sub` round the number (and `alpha=`) to float16 first, then compute in
  float32: `x + 70000.0` is inf, `x.add(0.1, alpha=0.1)` uses float16's 0.1 twice.
  Without alpha this is NumPy's float16 arithmetic already.
- `x ** number` rounds the exponent to float16 (an exponent beyond float16's range is
  an error) and runs SLEEF's float32 pow on blocks of 32 values (two AVX2 vectors
  of 16 halves), the C library's powf on the rest: no exponent is multiplied out.
- Comparisons, `%` and `clamp` round the number to float16: NumPy's float16 arithmetic
  (clamp's bounds beyond float16's range are the same error as pow's exponent).

Only float16 operands reach this module (the float32/float64 paths never test for
it); NumPy has no bfloat16, so gradcli has none.
"""

from __future__ import annotations

import numpy as np

from ...runtime.errors import GradRuntimeError
from ..parallel import chunks
from .sleef_pow import sleef_powf

F16 = np.dtype(np.float16)
F32 = np.float32
HALF_MAX = 65504.0
BLOCK = 32  # vectorized_loop's step for Half: two AVX2 vectors of 16


def times(a, b):
    """a * b for a float16 array a and a Python number b: in float32, rounded once."""
    return _half(np.multiply(np.asarray(a, F32), F32(b)))


def divide(a, b):
    """a / b for a float16 array a and a Python number b: in float32, rounded once."""
    return _half(np.true_divide(np.asarray(a, F32), F32(b)))


def floor_divide(a, b):
    """a // b for a float16 array a and a Python number b (ATen's div_floor_floating,
    which NumPy's floor_divide computes the same way): in float32, rounded once."""
    return _half(np.floor_divide(np.asarray(a, F32), F32(b)))


def scaled_add(a, b, alpha):
    """a + alpha * b in float16: a, b and alpha rounded to float16, the sum in float32
    (the product of two halves is exact there), rounded once."""
    a32, b32 = np.asarray(a, F16).astype(F32), np.asarray(b, F16).astype(F32)
    al = F32(np.float16(alpha))
    return _half(a32 + al * b32)


def scalar(e):
    """A number as PyTorch's Scalar::to<Half>() (pow's exponent, clamp's bounds): an
    error beyond float16's range."""
    if isinstance(e, (int, float)) and not np.isinf(e) and not np.isnan(e) and abs(e) > HALF_MAX:
        raise GradRuntimeError("value cannot be converted to type c10::Half without overflow")
    return np.float16(e)


def power(a, e):
    """a ** e for a float16 array a and a Python number e, as PyTorch's Half pow
    kernel: SLEEF's float32 pow on whole blocks of 32 (per thread's range), powf
    (correctly rounded: the double pow rounded to float32) on the rest."""
    ef = F32(scalar(e))
    flat = np.ascontiguousarray(a, F16).reshape(-1).astype(F32)
    out = np.empty(flat.shape, F32)
    with np.errstate(all="ignore"):
        for lo, hi in chunks(flat.size):
            k = lo + (hi - lo) // BLOCK * BLOCK
            if k > lo:
                out[lo:k] = sleef_powf(flat[lo:k], ef)
            if hi > k:
                out[k:hi] = np.power(flat[k:hi].astype(np.float64), float(ef)).astype(F32)
    return out.astype(F16).reshape(np.shape(a))


def _half(out):
    return np.asarray(out).astype(F16)
