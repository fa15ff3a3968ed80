"""torch_sum of fewer than eight float32 values takes a short path (summation._tiny32,
on float32 scalars); it must equal the general small-sum code it replaced (the frozen
`_serial_small` of tests/numerics/sum_reference.py, PyTorch's row_sum on scalars) bit for bit:
signed zeros, infinities, NaN, overflow, rounding."""

from __future__ import annotations

import itertools
import warnings

import numpy as np

from gradcli.numerics.sums.summation import torch_sum
from sum_reference import _serial_small

VALUES = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    np.inf,
    -np.inf,
    np.nan,
    1e-45,
    -1e-45,
    3.4028235e38,
    -3.4028235e38,
    0.1,
    1 / 3,
    16777217.0,
]


def _same(x, combo):
    got, want = torch_sum(x), _serial_small(x.reshape(-1), 8)
    assert type(got) is type(want) is np.float32
    assert got.tobytes() == want.tobytes() or (np.isnan(got) and np.isnan(want)), combo
    assert torch_sum(x.reshape(1, x.size)).tobytes() == got.tobytes()


def test_fewer_than_four_float32_values_as_the_general_small_sum():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for n in (0, 1, 2, 3):
            for combo in itertools.product(VALUES, repeat=n):
                _same(np.array(combo, np.float32), combo)


def test_four_to_seven_float32_values_as_the_general_small_sum():
    rng = np.random.default_rng(31)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for n in (4, 5, 6, 7):
            for _ in range(3000):
                combo = tuple(VALUES[i] for i in rng.integers(0, len(VALUES), n))
                _same(np.array(combo, np.float32), combo)


def test_a_zero_dim_float32_sum_is_the_value_plus_zero():
    assert torch_sum(np.array(-0.0, np.float32)).tobytes() == np.float32(0.0).tobytes()
    assert torch_sum(np.array(2.5, np.float32)) == np.float32(2.5)
