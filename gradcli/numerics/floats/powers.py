"""`tensor ** number` as PyTorch's CPU kernel computes it, so that powers agree
with PyTorch to the last bit.

PyTorch (ATen/native/cpu/PowKernel.cpp and Pow.cpp, checked against torch 2.13
on float32 and float64 data, tests/golden/numerics.json) does not call `pow`
for a few exponents of a floating tensor: 2 is `x * x`, 3 is `x * x * x` (NumPy's
`power` differs from that in the last bit on about half of all values), -1 is
`1 / x`, -2 is `1 / (x * x)`, -0.5 is `1 / sqrt(x)`, 0.5 is its `sqrt` kernel
(MKL's vector sqrt, not correctly rounded: gradcli/numerics/mkl.py); 0 and 1 give 1
and x as `pow` does.  Every other exponent is `pow`: SLEEF's on whole blocks of 16
float32 or 8 float64 values (gradcli/numerics/floats/sleef_pow.py, sleef_powd.py, bit for bit),
the C library's on the rest.
"""

from __future__ import annotations

import numpy as np

from ..mkl import unary_fn
from .sleef_pow import sleef_powf, torch_powf
from .sleef_powd import sleef_powd, torch_powd
from .tensor_iter import sleef_blocks

_sqrt = unary_fn("sqrt", np.sqrt)


def torch_pow(a, e):
    """a ** e for an array a and a Python number e, in PyTorch's arithmetic for
    floating a (any other array: NumPy's power)."""
    if a.dtype.kind == "f":
        if e == 2:
            return a * a
        if e == 3:
            return a * a * a
        if e == -1:
            return 1 / a
        if e == -2:
            return 1 / (a * a)
        if e == -0.5:
            return 1 / np.sqrt(a)
        if e == 0.5:
            return _sqrt(a)  # PyTorch's sqrt kernel (MKL's, when installed)
        if a.dtype == np.float32 and a.size and isinstance(e, (int, float)):
            return torch_powf(a, e)  # SLEEF's pow on whole blocks, powf on the rest
        if e == 1 or e == 0:  # PyTorch's pow copies the base, or fills 1
            return a.copy() if e == 1 else np.ones_like(a)
        if a.dtype == np.float64 and isinstance(e, (int, float)):
            # SLEEF's double pow on whole blocks, the C library's pow on the rest
            return torch_powd(a, e)
    return np.power(a, e)


def int_power(a, e):
    """a ** e for integers with an integer array exponent, as PyTorch's integer pow: a
    negative exponent gives 1 for a base of 1, +1 or -1 for -1 and 0 for any other base
    (NumPy refuses negative integer powers)."""
    e = np.asarray(e)
    if not (e < 0).any():
        return np.power(a, e)
    out = np.power(a, np.abs(e))  # right as it is where e >= 0 or |a| == 1
    return np.where((e < 0) & (np.abs(a) != 1), np.zeros_like(out), out)


def torch_pow_tensor(a, b):
    """a ** b for two arrays of one floating dtype, as PyTorch's pow kernel: float32 as
    `cpu_kernel_vec` runs it (SLEEF's powf on whole blocks, the C library's powf on the
    rest, numerics/floats/tensor_iter.py: NumPy's float32 power, which is glibc's powf where
    gradcli/__init__.py keeps NumPy off its AVX-512 loops); float64 the same with SLEEF's
    double pow and the C library's pow."""
    if a.dtype == np.float32 and b.dtype == np.float32:
        return sleef_blocks(sleef_powf, np.power, (a, b))
    if a.dtype == np.float64 and b.dtype == np.float64:
        return sleef_blocks(sleef_powd, np.power, (a, b))
    return np.power(a, b)
