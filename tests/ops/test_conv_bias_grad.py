"""The convolution's bias gradient (nn._bias_grad) summed where grad_output lies (each
(sample, channel) plane a row, the rows of a channel added in turn) against the sum op's
order for the same dims (sum_dims.dim_sums over (0, 2, 3)), bit for bit, on random
shapes and values with signed zeros, ties, infinities and NaNs, in float32 and float64."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.engine.vjp_arrays import ArrayF
from gradcli.numerics.sums.sum_dims import dim_sums
from gradcli.ops import nn


@pytest.mark.parametrize("seed", range(60))
def test_bias_grad_equals_dim_sums(seed):
    rng = np.random.default_rng(seed)
    dtype = np.float32 if seed % 2 else np.float64
    shape = tuple(int(v) for v in rng.integers(1, (5, 9, 12, 12)))
    if seed % 5 == 0:
        shape = (int(rng.integers(2, 70)), int(rng.integers(2, 20)), 17, 23)
    x = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)
    kind = rng.random(shape)
    x = np.where(kind < 0.1, rng.choice([0.0, -0.0, 1.0, -1.0], shape), x)
    if seed % 7 == 0:
        x = np.where(kind > 0.99, rng.choice([np.inf, -np.inf, np.nan], shape), x)
    if seed % 11 == 0:
        x = -np.zeros(shape)
    g = x.astype(dtype)
    got = nn._bias_grad(g, 1, False, ArrayF)
    want = dim_sums(g, (0, 2, 3))
    ints = np.uint32 if dtype == np.float32 else np.uint64
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.view(ints), want.view(ints))
