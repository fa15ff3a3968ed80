"""The C library's natural logarithm as PyTorch's scalar CPU kernels call it
(`std::log` in a `cpu_kernel` lambda, e.g. `binary_cross_entropy`'s forward).

NumPy's float32 `log` is NumPy's own SIMD loop, whose last bit differs from glibc's
`logf` on about a fifth of the values, so float32 goes through `libm_logf`: glibc's
algorithm (sysdeps/ieee754/flt-32/e_logf.c, LOGF_TABLE_BITS = 4) re-implemented in
NumPy.  In double: x = 2^k z with z in [0x1.66p-1, 0x1.66p+0), split by the top four
bits of its mantissa into one of 16 subintervals whose centre c has 1/c and log(c)
tabulated; r = z/c - 1 and log(x) = k ln2 + log(c) + r + A0 r^4 + (A1 r + A2) r^2 (in
that grouping), rounded once to float32.  Whether the compiler fuses the multiply-adds
(glibc's FMA variant on an AVX2 machine) does not change the float32 result (checked on
450,000 values).  NumPy's float64 `log` is the C library's (with NumPy's AVX-512 loops
off, see gradcli/__init__.py).  Checked against glibc's own `logf` bit for bit, and
through `binary_cross_entropy` against torch 2.13 (tests/numerics/exact_cases.py).
"""

from __future__ import annotations

import numpy as np

_H = float.fromhex
# (1/c, log(c)) of the 16 subintervals, glibc's __logf_data.tab
_TAB = (
    ("0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2"),
    ("0x1.571ed4aaf883dp+0", "-0x1.2bef0a7c06ddbp-2"),
    ("0x1.49539f0f010b0p+0", "-0x1.01eae7f513a67p-2"),
    ("0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3"),
    ("0x1.30d190c8864a5p+0", "-0x1.6574f0ac07758p-3"),
    ("0x1.25e227b0b8ea0p+0", "-0x1.1aa2bc79c8100p-3"),
    ("0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4"),
    ("0x1.12358f08ae5bap+0", "-0x1.1973c5a611cccp-4"),
    ("0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5"),
    ("0x1.0p+0", "0x0.0p+0"),
    ("0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5"),
    ("0x1.ca4b31f026aa0p-1", "0x1.c5e53aa362eb4p-4"),
    ("0x1.b2036576afce6p-1", "0x1.526e57720db08p-3"),
    ("0x1.9c2d163a1aa2dp-1", "0x1.bc2860d224770p-3"),
    ("0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2"),
    ("0x1.767dcf5534862p-1", "0x1.4043057b6ee09p-2"),
)
_INVC = np.array([_H(a) for a, _ in _TAB])
_LOGC = np.array([_H(b) for _, b in _TAB])
_A0, _A1, _A2 = _H("-0x1.00ea348b88334p-2"), _H("0x1.5575b0be00b6ap-2"), _H("-0x1.ffffef20a4123p-2")
_LN2 = _H("0x1.62e42fefa39efp-1")
_OFF = 0x3F330000  # the bits of 0x1.66p-1, the bottom of the first subinterval


def libm_logf(x):
    """glibc's logf of a float32 array (what std::log(float) calls on Linux)."""
    x = np.asarray(x, np.float32)
    bits = x.view(np.uint32).astype(np.int64)
    # the special values: log(1) = +0, log(+-0) = -inf, log(+inf) = +inf, NaN for
    # negatives and NaN itself (NumPy's answers there are the C library's)
    odd = (bits == 0x3F800000) | (bits == 0) | (bits >= 0x7F800000)
    ix = bits
    sub = (bits > 0) & (bits < 0x00800000)  # subnormals: scaled by 2^23 first
    if sub.any():
        with np.errstate(over="ignore"):
            scaled = (x * np.float32(2.0**23)).view(np.uint32).astype(np.int64)
        ix = np.where(sub, scaled - (23 << 23), bits)
    tmp = ix - _OFF
    i = (tmp >> 19) & 15
    k = tmp >> 23
    z = (ix - (tmp & 0xFF800000)).astype(np.uint32).view(np.float32).astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        r = z * _INVC[i] - 1.0
        y0 = _LOGC[i] + k * _LN2
        r2 = r * r
        y = (_A0 * r2 + (_A1 * r + _A2)) * r2 + (y0 + r)
        out = y.astype(np.float32)
    if odd.any():
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where(odd, np.log(x), out)
    return out


def libm_log(x):
    """The C library's log of a float array: glibc's logf for float32 (and float16, in
    float32), NumPy's (the C library's) for float64."""
    x = np.asarray(x)
    if x.dtype == np.float32:
        return libm_logf(x)
    if x.dtype == np.float16:  # computed in float (ATen's Half converts), rounded once
        return libm_logf(x.astype(np.float32)).astype(np.float16)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(x)
