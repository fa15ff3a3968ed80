"""The inputs of tests/golden/numerics.json (shared by scripts/gen_golden.py numerics
and tests/numerics/test_numerics.py)."""

from __future__ import annotations

import numpy as np

SUM_SIZES = list(range(0, 260)) + [
    300,
    511,
    512,
    513,
    1000,
    1023,
    1024,
    1025,
    4096,
    5000,
    16383,
    16384,
    16385,
    32767,
    32768,
    32769,
    40000,
    65535,
    65536,
    65537,
    100003,
    262144,
    500000,
    1048576,
    1048577,
    3000001,
    10000000,
]

#: exponents of `x ** e` recorded; gradcli matches PyTorch's bits for those in
#: POW_EXACT (forward) and POW_GRAD_EXACT (the gradient, e * x ** (e - 1))
POW_EXPONENTS = (0, 1, 2, 3, 4, 5, -1, -2, -3, 0.5, -0.5, 1.5, 2.0, 3.0)
POW_EXACT = (0, 1, 2, 3, -1, -2, -0.5, 2.0, 3.0)
POW_GRAD_EXACT = (0, 1, 2, 3, 4, -1, 0.5, 2.0, 3.0)

#: sizes of the signed-zero sums: all -0.0, and -0.0 mixed with values
ZERO_SIZES = (1, 3, 5, 17, 100, 1000, 5000, 40000, 2000000)


def zeros_case(n, kind, dtype):
    """n values that are -0.0 ("neg"), or every third one -0.0 and the others +-1 ("mixed")."""
    if kind == "neg":
        return np.full(n, -0.0, dtype=dtype)
    i = np.arange(n)
    return np.where(i % 3 == 0, -0.0, np.where(i % 2 == 0, 1.0, -1.0)).astype(dtype)


def values(n, seed, dtype):
    """n values of every sign and several magnitudes, the same on every machine."""
    i = np.arange(n, dtype=np.uint64)
    h = (i * np.uint64(2654435761) + np.uint64(seed * 97531)) % np.uint64(1 << 32)
    ints = h.astype(np.int64) - (1 << 31)
    scale = np.where(i % 5 == 0, 1e-3, np.where(i % 7 == 0, 1e3, 1.0))
    return (ints.astype(np.float64) * scale / 7.0).astype(dtype)


RANGES = []
for _n in list(range(0, 40)) + [63, 64, 65, 100, 257, 1000, 32768, 32769, 50001, 100000]:
    for _dt in ("float64", "float32"):
        RANGES.append(("linspace", (-1.0, 1.0, _n), _dt))
        RANGES.append(("linspace", (0.3, -7.1, _n), _dt))
        if _n:
            RANGES.append(("arange", (0.0, _n / 10, 0.1), _dt))
            RANGES.append(("arange", (-2.5, -2.5 + _n * 0.37, 0.37), _dt))
    RANGES.append(("linspace", (-3, 11, _n), "int64"))
