"""The sigmoid of one value on Python floats (torch_exp.sigmoid_one, taken by `sigmoid`
for an array of one value) against the array steps that make every value of a run
shorter than a vector block: the same bits, dtype and shape, special values included."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.numerics.floats import torch_exp

SPECIAL = [
    0.0,
    -0.0,
    1e-45,
    -1e-45,
    1e-300,
    -1e-300,
    87.9,
    -87.9,
    88.0,
    -88.0,
    88.1,
    -88.1,
    103.9,
    -103.9,
    104.0,
    -104.0,
    700.0,
    -700.0,
    700.5,
    -700.5,
    709.0,
    -709.0,
    710.0,
    -745.0,
    1e30,
    -1e30,
    float("inf"),
    float("-inf"),
    float("nan"),
    -float("nan"),
]


def _values(dtype):
    rng = np.random.default_rng(7)
    spread = [rng.normal(0.0, s, 4000) for s in (0.05, 1.0, 6.0, 40.0, 200.0)]
    return np.concatenate([*spread, np.array(SPECIAL)]).astype(dtype)


def _array_steps(v):
    with np.errstate(all="ignore"):
        return torch_exp._sigmoid(torch_exp._libm_exp, v)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_one_value_is_the_scalar_codes(dtype):
    vals = _values(dtype)
    taken = 0
    for v in vals:
        # three values: fewer than a vector block, every one the scalar code's (array steps)
        ref = _array_steps(np.array([v, 0.5, -0.5], dtype))[:1]
        for shape in ((), (1,), (1, 1)):
            got = torch_exp.sigmoid(np.array(v, dtype).reshape(shape))
            assert got.dtype == dtype and got.shape == shape
            assert got.tobytes() == ref.tobytes(), (dtype, repr(v), shape)
        taken += torch_exp.sigmoid_one(float(v), dtype is np.float32) is not None
    assert taken > len(vals) // 2  # (the plain values take the one-value steps)


def test_one_value_leaves_the_edges_to_the_array_steps():
    for single in (True, False):
        for v in (float("nan"), float("inf"), float("-inf"), 1e30, -1e30):
            assert torch_exp.sigmoid_one(v, single) is None


def test_a_runs_last_float32_values_are_the_scalar_codes():
    # (fewer than a vector block after a run's whole blocks: each by sigmoid_one, or all
    # by the array steps when one is out of its range)
    vals = _values(np.float32)
    rng = np.random.default_rng(3)
    for _ in range(3000):
        n = int(rng.integers(1, 16))
        v = rng.choice(vals, n)
        got = torch_exp._scalar_sigmoid(v)
        assert got.dtype == np.float32 and got.tobytes() == _array_steps(v).tobytes(), v
    for n in (1, 3, 15, 16, 17, 31, 100):  # (whole blocks and a rest, in one tensor)
        x = rng.choice(vals[:-30], n).reshape(n, 1)
        head = n // 16 * 16
        ref = np.concatenate([torch_exp._vector_sigmoid(x[:head, 0]), _array_steps(x[head:, 0])])
        assert torch_exp.sigmoid(x).tobytes() == ref.tobytes(), n
