"""torch_sum of fewer than four float32 values takes a short path (one running sum from
+0); it must equal the general small-sum code (`_serial_small`, PyTorch's row_sum on
scalars) bit for bit: signed zeros, infinities, NaN, overflow, rounding."""
from __future__ import annotations

import itertools
import warnings

import numpy as np

from gradcli.base.summation import _serial_small, torch_sum

VALUES = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 3.4028235e38,
          -3.4028235e38, 0.1, 1 / 3, 16777217.0]


def test_fewer_than_four_float32_values_as_the_general_small_sum():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for n in (1, 2, 3):
            for combo in itertools.product(VALUES, repeat=n):
                x = np.array(combo, np.float32)
                got, want = torch_sum(x), _serial_small(x.reshape(-1), 8)
                assert type(got) is type(want) is np.float32
                assert got.tobytes() == want.tobytes() or (np.isnan(got) and np.isnan(want)), combo
                assert torch_sum(x.reshape(1, n)).tobytes() == got.tobytes()


def test_a_zero_dim_float32_sum_is_the_value_plus_zero():
    assert torch_sum(np.array(-0.0, np.float32)).tobytes() == np.float32(0.0).tobytes()
    assert torch_sum(np.array(2.5, np.float32)) == np.float32(2.5)
