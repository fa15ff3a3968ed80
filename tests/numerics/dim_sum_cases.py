"""The inputs of tests/golden/dim_sums.json (shared by scripts/gen_golden.py dim_sums,
which records torch's results, and tests/numerics/test_dim_sums.py): sums and means over dims
other than all, the leading or the last ones (gradcli/numerics/sums/sum_dims.py), in C order and
in permuted layouts, and the same sums as a broadcast gradient's `sum_to`.  The sizes
cross PyTorch's thresholds: a vector's lanes, blocks of 4 vectors, the cascade's
chunks, 32,768 values (the kept dim cut between threads)."""

from __future__ import annotations

import numpy as np

#: (shape, dims summed, layout: None for C order, else the permutation the values are
#: laid out in before they are viewed back in `shape`'s order)
CASES = [
    ((2, 3, 4), (1,), None),
    ((4, 5, 6), (1,), None),
    ((3, 17, 9), (1,), None),
    ((2, 100, 33), (1,), None),
    ((5, 7, 40), (1,), None),
    ((3, 300, 70), (1,), None),
    ((2, 2000, 3), (1,), None),
    ((4, 9000, 17), (1,), None),
    ((1, 40000, 2), (1,), None),
    ((2, 20000, 3), (1,), None),
    ((3, 3, 5, 7), (1, 2), None),
    ((6, 5, 4, 3), (0, 2), None),
    ((4, 3, 10000), (0, 2), None),
    ((2, 2, 33000), (1, 2), None),
    ((7, 8, 9), (0, 2), None),
    ((3, 33, 16), (0, 2), None),
    ((5, 6, 7, 8), (1, 3), None),
    ((5, 6, 7, 8), (0, 1, 3), None),
    ((2, 3, 4, 5), (2,), None),
    ((64, 10, 12), (1,), None),
    ((8, 1, 50), (1,), None),
    ((9, 260, 1), (1,), None),
    ((3, 1, 5), (0, 2), None),
    ((2, 40000), (1,), None),
    ((3, 50000), (1,), None),
    ((40, 50), (0,), (1, 0)),
    ((40, 50), (1,), (1, 0)),
    ((300, 70), (0,), (1, 0)),
    ((3, 40, 50), (1,), (2, 1, 0)),
    ((3, 40, 50), (2,), (0, 2, 1)),
    ((6, 7, 80), (0,), (1, 2, 0)),
    ((5, 9, 11), (0, 2), (2, 0, 1)),
    ((2000, 20), (0,), (1, 0)),
    ((4, 20, 500), (1,), (0, 2, 1)),
    ((3, 4, 5, 6), (1, 2), (3, 1, 0, 2)),
]
DTYPES = ("float32", "float64")


def case_input(shape, layout, dtype, seed):
    """The values (special ones in some cases: signed zeros, an inf, a nan) in the layout."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape) * 10.0 ** (seed % 5 - 2)
    flat = x.reshape(-1)
    if seed % 3 == 0:
        flat[rng.random(flat.size) < 0.3] = -0.0
    if seed % 7 == 0:
        flat[rng.integers(flat.size)] = np.inf
        flat[rng.integers(flat.size)] = np.nan
    x = x.astype(dtype)
    if layout is None:
        return x
    return np.ascontiguousarray(x.transpose(layout)).transpose(np.argsort(layout))


def keep_shape(shape, dims):
    return tuple(1 if i in dims else n for i, n in enumerate(shape))
