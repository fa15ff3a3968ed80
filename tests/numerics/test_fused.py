"""The hot path's shortcuts give exactly what the plain NumPy expression gives:
0-d float64 arithmetic on Python floats, a broadcast gradient scaled
as one value, a VJP product written into its own temporary."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gradcli.numerics.floats import fused
from gradcli.numerics.floats.fused import BLOCK, F64, doubles, scaled, times_fresh, times_twice

SPECIAL = [
    0.0,
    -0.0,
    1.0,
    -2.5,
    1e-310,
    -1e-310,
    1.7976931348623157e308,
    -1e308,
    1e-300,
    math.inf,
    -math.inf,
    math.nan,
    0.1,
    3.0,
    2.0**53,
    -(2.0**53) + 1,
]


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
    assert doubles(one, 2**53, F64) is not None
    assert doubles(one, 2**53 + 1, F64) is None  # a double does not hold it
    assert doubles(one, True, F64) is None  # bools go through NumPy
    assert doubles(np.ones(2), 1.0, F64) is None  # not 0-d
    assert doubles(np.array(1.0, np.float32), 1.0, F64) is None
    assert doubles(np.array(1), 1.0, F64) is None  # int64 array
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
                assert not any(got.strides)  # no pass over memory
    real = rng.standard_normal((4, 5))
    assert scaled(real, 2.0).tobytes() == (real * 2.0).tobytes()


def test_times_fresh_is_the_product():
    rng = np.random.default_rng(4)
    for dt in (np.float32, np.float64):
        a = rng.standard_normal(3000).astype(dt)
        for g in (
            rng.standard_normal(3000).astype(dt),
            np.broadcast_to(np.array(0.5, dt), (3000,)),
        ):
            want = g * (2.0 * a)
            t = 2.0 * a
            got = times_fresh(g, t)
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    # a gradient of another dtype or shape: the plain product
    g64, t32 = np.ones(3), np.ones(3, np.float32) * 3
    assert times_fresh(g64, t32).dtype == np.float64


def _specials(rng, n, dt):
    """Values of dtype dt: normal, tiny, huge (2 * a overflows), subnormal, signed zeros,
    infinities and NaNs with payloads and signs."""
    info = np.finfo(dt)
    x = (rng.standard_normal(n) * 10.0 ** rng.integers(-40, 40, n)).astype(dt)
    pool = np.array(
        [
            0.0,
            -0.0,
            np.inf,
            -np.inf,
            np.nan,
            -np.nan,
            float(info.max),
            -float(info.max),
            float(info.max) / 1.5,
            float(info.smallest_subnormal),
            -float(info.smallest_subnormal) * 3,
            float(info.tiny),
        ],
        dtype=dt,
    )
    idx = rng.integers(0, n, n // 10 + 1)
    x[idx] = pool[rng.integers(0, pool.size, idx.size)]
    size = np.dtype(dt).itemsize
    bits = x.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[size])
    nan_payload = {2: 0x7E23, 4: 0x7FC00123, 8: 0x7FF8000000000123}[size]
    bits[rng.integers(0, n, 3)] = nan_payload
    bits[rng.integers(0, n, 2)] = nan_payload | (1 << (8 * size - 1))
    return x


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.float16])
def test_times_twice_is_g_times_two_a_bit_for_bit(dt, monkeypatch):
    """times_twice(g, a) == times_fresh(g, 2.0 * a) (the VJP of a ** 2 before), every
    bit (NaN payloads included), and == g * (2.0 * a) for float32 and float64 (float16's
    loop returns the other NaN of two when its output is an input): the blocked path
    (g one value broadcast, big contiguous a) and the plain one, sizes around the block
    boundaries, special values of g too."""
    monkeypatch.setattr(fused, "BLOCKED_BYTES", 2 * BLOCK * np.dtype(dt).itemsize)
    rng = np.random.default_rng(5)
    for n in (1, 7, 3000, 2 * BLOCK - 1, 2 * BLOCK, 2 * BLOCK + 1, 3 * BLOCK + 17):
        a = _specials(rng, n, dt)
        gvals = [0.5, -3.25e-7, 0.0, -0.0, np.inf, np.nan, 1e-39, 3.0e30] + rng.standard_normal(
            2
        ).tolist()
        for gv in gvals:
            with np.errstate(all="ignore"):
                one = np.array(gv, dt)
                for g in (
                    np.broadcast_to(one, a.shape),
                    np.broadcast_to(one, (1, n)),
                    rng.standard_normal(n).astype(dt),
                ):
                    aa = a if g.shape == a.shape else a.reshape(g.shape)
                    want = times_fresh(g, 2.0 * aa)
                    got = times_twice(g, aa)
                    assert got.dtype == want.dtype and got.shape == want.shape
                    assert got.tobytes() == want.tobytes(), (n, dt, gv)
                    if dt != np.float16:
                        assert got.tobytes() == (g * (2.0 * aa)).tobytes()
    # not contiguous, 0-d, another dtype of g: the plain product
    a = _specials(rng, 4 * BLOCK, np.float64)[::2]
    g = np.broadcast_to(np.array(0.3), a.shape)
    assert times_twice(g, a).tobytes() == (g * (2.0 * a)).tobytes()
    z = np.array(-0.0)
    assert times_twice(np.array(2.0), z).tobytes() == (np.array(2.0) * (2.0 * z)).tobytes()
    g32 = np.broadcast_to(np.array(0.3, np.float32), (2 * BLOCK,))
    a64 = np.ones(2 * BLOCK)
    assert times_twice(g32, a64).tobytes() == (g32 * (2.0 * a64)).tobytes()


def test_mkl_reads_each_arrays_address_as_numpy_gives_it():
    """numerics/mkl.address (the data field of NumPy's array struct, read with ctypes) is
    what `a.ctypes.data` says, for arrays and views of every kind; and the check it
    makes at import chose it rather than the fallback."""
    from gradcli.numerics import mkl

    assert mkl.address is not mkl._ctypes_address
    base = np.arange(240.0).reshape(4, 6, 10)
    arrays = [
        base,
        base[1:, 2:, ::3],
        base.transpose(2, 0, 1),
        base[2, 3],
        base[2, 3, 4:5],
        np.asarray(np.float32(2)),
        np.empty((0, 3)),
        np.ones(7, np.float16)[1:],
        np.broadcast_to(np.ones(3), (5, 3)),
        np.frombuffer(bytes(64), np.uint8)[5:],
    ]
    for a in arrays:
        assert mkl.address(a) == a.ctypes.data


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("np_op", [np.add, np.subtract, np.multiply, np.true_divide])
def test_weak_number_gives_numpys_result_for_the_number(dt, np_op):
    """singles.weak: a Python number as a cached 0-d array of the array's dtype gives
    the op's result bit for bit and dtype for dtype, both operand orders."""
    from gradcli.numerics.floats.singles import weak

    rng = np.random.default_rng(17)
    a = np.concatenate(
        [
            np.array(SPECIAL, dtype=dt),
            (rng.standard_normal(40) * 10.0 ** rng.integers(-40, 40, 40)).astype(dt),
        ]
    )
    numbers = (
        SPECIAL
        + [
            3.4028235e38,
            3.4028236e38,
            -3.5e38,
            1e-45,
            1e-46,
            16777217,
            -16777217,
            2**53,
            -(2**53),
            2**53 + 1,
            2**70,
            7,
            -3,
            1,
            0,
            True,
        ]
        + (rng.standard_normal(30) * 10.0 ** rng.integers(-320, 308, 30)).tolist()
    )
    for v in numbers:
        with np.errstate(all="ignore"):
            w = weak(v, a)
        if type(v) not in (int, float) or not v or v != v or (type(v) is int and abs(v) > 2**53):
            assert w is v
        for x, y in ((a, v), (a[3:4].reshape(()), v)):
            with np.errstate(all="ignore"):
                want = np_op(x, y)
                got = np_op(x, weak(y, x))
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (v, np_op)
    with pytest.raises(ValueError):
        weak(2.5, a)[()] = 1.0  # shared: read-only


def test_weak_leaves_other_operands_and_dtypes_alone():
    from gradcli.numerics.floats.singles import weak

    x = np.ones(3, np.float32)
    for v in (x, np.float32(2), "2", None, 2 + 0j):
        assert weak(v, x) is v
    for arr in (np.ones(3, np.int64), np.ones(3, np.float16), np.ones(3, ">f8"), 2.0):
        assert weak(2.5, arr) == 2.5 and type(weak(2.5, arr)) is float
