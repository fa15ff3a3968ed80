"""Cases of F.layer_norm's kernels bit for bit (tests/numerics/test_layer_norm.py; digests
recorded from torch by scripts/gen_golden.py norms into tests/golden/layer_norm.json):
rows shorter than a vector, rows not a multiple of the vector width, rows of one and of
several chunks of 16 vectors (the cascade's levels), long rows, rows far from zero, odd
eps, with and without weight and bias, float32 and float64."""

from __future__ import annotations

import numpy as np

from exact_cases import spread

#: (shape, number of normalised dims, eps, affine, (lo, hi) of the input's values);
#: affine: "both", "weight", "bias" or "none"
LAYER_NORM = [
    ((3, 5), 1, 1e-5, "both", (-3.0, 5.0)),
    ((4, 8), 1, 1e-5, "none", (-3.0, 5.0)),
    ((2, 3, 17), 1, 1e-5, "weight", (-3.0, 5.0)),
    ((2, 3, 17), 2, 1e-3, "bias", (-3.0, 5.0)),
    ((5, 127), 1, 1e-5, "both", (100.0, 101.0)),
    ((3, 129), 1, 0.1, "both", (-3.0, 5.0)),
    ((2, 256), 1, 1e-5, "none", (-1e3, 1e3)),
    ((3, 1000), 1, 1e-12, "both", (-3.0, 5.0)),
    ((2, 3, 7, 9), 3, 1e-5, "both", (-3.0, 5.0)),
    ((7, 33), 1, 1e-5, "weight", (0.0, 1e-3)),
    ((1, 4097), 1, 1e-5, "both", (-3.0, 5.0)),
    ((2, 20001), 1, 1e-5, "bias", (10.0, 20.0)),
    ((6,), 1, 1e-5, "both", (-3.0, 5.0)),
    ((400, 300), 1, 1e-5, "both", (-7.0, 9.0)),  # (rows whose chunk merges round rarely)
]


def layer_norm_input(shape, k, dtype, lo, hi):
    """(x, g, weight, bias) of a case: weight and bias of the last k dims."""
    n = int(np.prod(shape))
    c = int(np.prod(shape[len(shape) - k :]))
    inner = shape[len(shape) - k :]
    return (
        spread(n, 201, lo, hi, dtype).reshape(shape),
        spread(n, 202, -1.0, 1.0, dtype).reshape(shape),
        spread(c, 203, 0.5, 1.5, dtype).reshape(inner),
        spread(c, 204, -1.0, 1.0, dtype).reshape(inner),
    )


#: F.group_norm: (shape, groups, eps, affine, (lo, hi)); affine "both", "weight" or "none"
#: (torch's CPU backward fails with a bias and no weight)
GROUP_NORM = [
    ((2, 4, 5), 2, 1e-5, "both", (-3.0, 5.0)),
    ((3, 6, 7, 3), 3, 1e-5, "none", (-3.0, 5.0)),
    ((2, 8, 33), 4, 1e-3, "weight", (-3.0, 5.0)),
    ((2, 32, 4, 4), 8, 1e-5, "both", (100.0, 101.0)),
    ((4, 10), 5, 1e-5, "both", (-3.0, 5.0)),
    ((2, 12, 9), 1, 0.1, "both", (-3.0, 5.0)),
    ((1, 32, 33, 31), 4, 1e-5, "both", (-1e3, 1e3)),
    ((3, 12, 1000), 3, 1e-5, "weight", (10.0, 20.0)),
    ((2, 8, 7), 8, 1e-5, "both", (-3.0, 5.0)),
    ((2, 64, 9), 2, 1e-5, "both", (0.0, 1e-3)),
]


def group_norm_input(shape, dtype, lo, hi):
    """(x, g, weight, bias) of a case: weight and bias of the channels (dim 1)."""
    n = int(np.prod(shape))
    c = shape[1]
    return (
        spread(n, 211, lo, hi, dtype).reshape(shape),
        spread(n, 212, -1.0, 1.0, dtype).reshape(shape),
        spread(c, 213, 0.5, 1.5, dtype),
        spread(c, 214, -1.0, 1.0, dtype),
    )
