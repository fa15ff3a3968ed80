"""The hot path's shortcuts give exactly what the plain NumPy expression gives
(issue 16): 0-d float64 arithmetic on Python floats, a broadcast gradient scaled
as one value, a VJP product written into its own temporary."""
from __future__ import annotations

import math

import numpy as np
import pytest

from gradcli.base.kernels import F64, doubles, scaled, times_fresh

SPECIAL = [0.0, -0.0, 1.0, -2.5, 1e-310, -1e-310, 1.7976931348623157e308, -1e308, 1e-300,
           math.inf, -math.inf, math.nan, 0.1, 3.0, 2.0 ** 53, -(2.0 ** 53) + 1]


def _bits(v):
    return np.asarray(v, dtype=np.float64).tobytes()


def _operands():
    rng = np.random.default_rng(16)
    vals = SPECIAL + (rng.standard_normal(40) * 10.0 ** rng.integers(-300, 300, 40)).tolist()
    for a in vals:
        for b in vals[::3]:
            yield a, b


@pytest.mark.parametrize("op,np_op", [("+", np.add), ("-", np.subtract), ("*", np.multiply)])
def test_doubles_are_numpys_float64_arithmetic(op, np_op):
    for a, b in _operands():
        for x, y in ((np.array(a), b), (a, np.array(b)), (np.array(a), np.array(b))):
            f = doubles(x, y, F64)
            assert f is not None
            got = {"+": f[0] + f[1], "-": f[0] - f[1], "*": f[0] * f[1]}[op]
            with np.errstate(all="ignore"):
                want = np_op(x, y)
            if math.isnan(want):
                assert math.isnan(got)
            else:
                assert _bits(got) == _bits(want), (a, op, b)


def test_doubles_take_exact_ints_only_and_refuse_other_operands():
    one = np.array(1.5)
    assert doubles(one, 3, F64) == (1.5, 3)
    assert doubles(one, 2 ** 53, F64) is not None
    assert doubles(one, 2 ** 53 + 1, F64) is None           # a double does not hold it
    assert doubles(one, True, F64) is None                  # bools go through NumPy
    assert doubles(np.ones(2), 1.0, F64) is None            # not 0-d
    assert doubles(np.array(1.0, np.float32), 1.0, F64) is None
    assert doubles(np.array(1), 1.0, F64) is None           # int64 array
    assert doubles(one, 1.0, np.dtype(np.float32)) is None  # result not float64


def test_scaled_is_the_product_kept_a_view():
    rng = np.random.default_rng(3)
    for dt in (np.float32, np.float64):
        one = np.array(rng.standard_normal(), dtype=dt)
        for shape in ((5000,), (70, 80), (3, 1, 2000)):
            g = np.broadcast_to(one, shape)
            for c in (3, 0.1, np.array(2.7), np.array(1.3, np.float32), -0.0, math.nan):
                with np.errstate(all="ignore"):
                    got, want = scaled(g, c), g * c
                assert got.dtype == want.dtype and got.shape == want.shape
                assert got.tobytes() == want.tobytes()
                assert not any(got.strides)                 # no pass over memory
    real = rng.standard_normal((4, 5))
    assert scaled(real, 2.0).tobytes() == (real * 2.0).tobytes()


def test_times_fresh_is_the_product():
    rng = np.random.default_rng(4)
    for dt in (np.float32, np.float64):
        a = rng.standard_normal(3000).astype(dt)
        for g in (rng.standard_normal(3000).astype(dt), np.broadcast_to(np.array(0.5, dt), (3000,))):
            want = g * (2.0 * a)
            t = 2.0 * a
            got = times_fresh(g, t)
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    # a gradient of another dtype or shape: the plain product
    g64, t32 = np.ones(3), np.ones(3, np.float32) * 3
    assert times_fresh(g64, t32).dtype == np.float64
