"""The error functions erf, erfc and erfinv on NumPy arrays without MKL (PyTorch computes
them with MKL's VML: gradcli/numerics/mkl.py), within an ulp or so of PyTorch's."""

from __future__ import annotations

import math

import numpy as np

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def erf(x):  # without MKL: the C library's erf, element by element
    return np.vectorize(math.erf, otypes=[x.dtype])(x)


def erfc(x):
    return np.vectorize(math.erfc, otypes=[x.dtype])(x)


def erfinv(x):  # without MKL: Newton's method on erf from a rough start
    v = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        y = np.clip(v, -0.999999, 0.999999)
        t = np.log((1 - y) * (1 + y))
        a = 2 / (math.pi * 0.147) + t / 2
        y = np.sign(y) * np.sqrt(np.sqrt(a * a - t / 0.147) - a)
        for _ in range(4):
            y = y - (erf(y) - v) / (_TWO_OVER_SQRT_PI * np.exp(-y * y))
        y = np.where(v == 1, np.inf, np.where(v == -1, -np.inf, y))
        y = np.where(np.abs(v) > 1, np.nan, y)
    return y.astype(x.dtype)
