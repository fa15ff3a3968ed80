"""gradcli's whole sums (numerics/sums/summation.torch_sum, engine/vjp_arrays.sum_to to a 0-d
target) against the frozen copy of the code they replaced (tests/numerics/sum_reference.py),
bit for bit: the same value (the same bits, NaNs included) and the same Python type,
for every size from 0 past 2^20, both float dtypes, signed zeros, infinities, NaNs
(any NaN for a NaN: see `_bits`), and inputs that are not contiguous."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

import sum_reference as ref

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # overflow, inf - inf
from gradcli.numerics.sums import summation
from gradcli.engine.vjp_arrays import sum_to

DTYPES = (np.float32, np.float64)


def _values(rng, n, dtype, kind):
    if kind == 0:
        x = rng.standard_normal(n)
    elif kind == 1:  # magnitudes over many binades: rounding in every addition
        x = rng.standard_normal(n) * 10.0 ** rng.integers(-12, 12, n)
    elif kind == 2:  # signed zeros only: the sign of a zero sum
        x = np.where(rng.random(n) < 0.5, -0.0, 0.0)
    elif kind == 3:  # zeros and a few opposite values: sums that cancel to zero
        x = np.where(rng.random(n) < 0.7, -0.0, 1.0) * np.where(rng.random(n) < 0.5, -1, 1)
    elif kind == 4:  # a few infinities and NaNs (with different payloads and signs)
        x = rng.standard_normal(n)
        specials = np.array([np.inf, -np.inf, np.nan, -np.nan])
        for i in rng.integers(0, max(n, 1), int(rng.integers(0, 4))):
            if n:
                x[i] = specials[rng.integers(0, 4)]
    else:  # near the top of the range: sums that overflow
        x = rng.standard_normal(n) * (3e38 if dtype == np.float32 else 1.7e308)
    x = x.astype(dtype)
    if kind == 4 and n and rng.random() < 0.5:
        bits = x.view(np.uint32 if dtype == np.float32 else np.uint64)
        i = int(rng.integers(0, n))
        bits[i] = 0x7FC00123 if dtype == np.float32 else 0x7FF8000000000123
    return x


def _bits(v, dtype):
    """The bits of a sum; any NaN as one NaN.  Which NaN a sum of NaNs (or of inf and
    -inf) gives is not deterministic even in the reference: x86 returns the payload and
    sign of the first operand, and CPython's float addition swaps its operands between
    the generic and the specialised (warmed-up) add of its adaptive interpreter."""
    a = np.asarray(v, dtype=dtype)
    return b"nan" if np.isnan(a) else a.tobytes()


def _check(x, memory=None):
    """torch_sum(x) against the reference, which adds `memory` (x's values as they lie in
    memory, for a transposed x: PyTorch adds a permuted tensor in memory order) or x."""
    want = ref.torch_sum(x if memory is None else memory)
    got = summation.torch_sum(x)
    assert type(got) is type(want), (x.size, x.dtype, type(got), type(want))
    assert _bits(got, x.dtype) == _bits(want, x.dtype), (x.size, x.dtype, repr(got), repr(want))
    if x.flags.c_contiguous:
        g = sum_to(x, ())
        assert isinstance(g, np.ndarray) and g.shape == () and g.dtype == x.dtype
        assert _bits(g, x.dtype) == _bits(want, x.dtype)


SIZES = st.one_of(
    st.integers(0, 700),
    st.integers(700, 9000),
    st.integers(9000, 70000),
    st.sampled_from(
        [2000, 4095, 4096, 4097, 8191, 8192, 8193, 16384, 32767, 32768, 32769, 65536, 65537, 131072]
    ),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=SIZES, dtype=st.sampled_from(DTYPES), kind=st.integers(0, 5), seed=st.integers(0, 2**32 - 1)
)
def test_whole_sums_equal_the_reference(n, dtype, kind, seed):
    _check(_values(np.random.default_rng(seed), n, dtype, kind))


@settings(max_examples=100, deadline=None)
@given(
    n=st.integers(0, 5000),
    dtype=st.sampled_from(DTYPES),
    kind=st.integers(0, 5),
    seed=st.integers(0, 2**32 - 1),
    layout=st.integers(0, 3),
)
def test_views_that_are_not_contiguous_equal_the_reference(n, dtype, kind, seed, layout):
    rng = np.random.default_rng(seed)
    if layout == 0:  # every other value
        x = _values(rng, 2 * n, dtype, kind)[::2]
    elif layout == 1:  # reversed
        x = _values(rng, n, dtype, kind)[::-1]
    elif layout == 2:  # a transposed matrix: added in memory order
        r = int(rng.integers(1, 9))
        m = _values(rng, r * n, dtype, kind).reshape(r, n)
        _check(m.T, m.reshape(-1))
        return
    else:  # a column of a matrix
        x = _values(rng, 3 * n, dtype, kind).reshape(n, 3)[:, 1]
    _check(x)


def test_every_size_up_to_a_thousand_and_around_the_plan_boundaries():
    rng = np.random.default_rng(7)
    sizes = list(range(0, 1100)) + [
        s + d for s in (2048, 4096, 8192, 16384, 32768, 65536) for d in range(-40, 41, 3)
    ]
    for i, n in enumerate(sizes):
        for dtype in DTYPES:
            _check(_values(rng, n, dtype, i % 6))


def test_the_same_plan_twice_and_after_the_cache_is_cleared():
    rng = np.random.default_rng(3)
    for dtype in DTYPES:
        for n in (100, 2000, 6000, 40000):
            for _ in range(3):
                _check(_values(rng, n, dtype, 1))
    for n in range(1000, 1300):  # more sizes than the cache holds
        _check(_values(rng, n, np.float64, 0))
    _check(_values(rng, 2000, np.float32, 1))


@pytest.mark.parametrize("dtype", DTYPES)
def test_a_million_values_and_more(dtype):
    rng = np.random.default_rng(11)
    for n in (2**20 - 3, 2**20, 2**20 + 37, 1_500_001):
        for kind in (0, 1, 2, 4):
            _check(_values(rng, n, dtype, kind))


@pytest.mark.parametrize("dtype", DTYPES)
def test_2d_and_3d_arrays(dtype):
    rng = np.random.default_rng(5)
    for shape in ((40, 50), (3, 7, 100), (1, 2000), (2000, 1), (0, 5), (64, 64, 4)):
        n = int(np.prod(shape))
        _check(_values(rng, n, dtype, 1).reshape(shape))


def test_a_sum_does_not_keep_or_share_the_input():
    x = np.arange(3000, dtype=np.float64)
    g = sum_to(x, ())
    want = ref.torch_sum(x)
    x[:] = 1.0  # the plan copied the values, it does not alias x
    assert g.tobytes() == _bits(want, np.float64)
    h = sum_to(x, ())
    assert h.tobytes() == _bits(ref.torch_sum(x), np.float64)
    assert g.tobytes() == _bits(want, np.float64)  # a fresh array each call


@pytest.mark.parametrize("n", [5, 40, 2000, 5000, 20000, 40000])
@pytest.mark.parametrize("dtype", [">f8", ">f4"])
def test_a_byte_swapped_array_sums_as_its_native_copy(n, dtype):
    x = (np.arange(n) % 97 - 48.5).astype(dtype)
    want = summation.torch_sum(x.astype(np.dtype(dtype).newbyteorder("=")))
    got = summation.torch_sum(x)
    assert type(got) is type(want) and repr(got) == repr(want)


def _mid_boundaries(dtype):
    """Sizes around every boundary of sum_mid's plans for dtype: the first and last size
    it takes, the copy threshold, whole chunks (16 groups) and whole level-1 blocks (16
    chunks), each with every count of left-over vectors and some left-over scalars."""
    from gradcli.numerics.sums import sum_mid

    lanes = 32 // np.dtype(dtype).itemsize
    w = 4 * lanes
    groups = {16, 17, 31, 32, 33, 255, 256, 257, 271, 272, 273, 511, 512, 513, 1023, 1024}
    groups |= {sum_mid.MID_MAX // w, sum_mid.COPY_MAX[np.dtype(dtype).char] // w}
    sizes = {
        sum_mid.MID_MIN - 1,
        sum_mid.MID_MIN,
        sum_mid.MID_MAX,
        sum_mid.MID_MAX + 1,
        sum_mid.COPY_MAX[np.dtype(dtype).char],
        sum_mid.COPY_MAX[np.dtype(dtype).char] + 1,
    }
    for k in groups:
        for extra in (0, 1, lanes - 1, lanes, lanes + 3, 2 * lanes, 3 * lanes + lanes - 1):
            sizes |= {k * w + extra, k * w - 1 - extra}
    return sorted(s for s in sizes if s > 0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_sizes_around_the_mid_plans_boundaries(dtype):
    rng = np.random.default_rng(17)
    for i, n in enumerate(_mid_boundaries(dtype)):
        for kind in (i % 6, (i + 3) % 6):
            _check(_values(rng, n, dtype, kind))
            if n <= 5000:  # a strided input: the copy and the direct plans
                _check(_values(rng, 2 * n, dtype, kind)[::2])


@pytest.mark.parametrize("dtype", DTYPES)
def test_the_sums_of_many_rows_equal_each_rows_whole_sum(dtype):
    """summation.inner_sums (x.sum(-1) of a 2-D array) sums every row as torch_sum sums
    it alone (PyTorch's inner reduction is the same row_sum), all rows at once."""
    rng = np.random.default_rng(23)
    lanes = 32 // np.dtype(dtype).itemsize
    w = 4 * lanes
    ms = [
        1,
        3,
        lanes - 1,
        lanes,
        2 * w - 1,
        16 * w - 1,
        16 * w,
        16 * w + lanes + 1,
        48 * w + 3,
        62 * w + 2 * lanes,
        255 * w + 7,
        256 * w,
        300 * w + 5,
        2000,
        4097,
    ]
    for i, m in enumerate(ms):
        for rows in (1, 3, 8):
            x = _values(rng, rows * m, dtype, i % 6).reshape(rows, m)
            if rows == 3:  # rows that are not one after the other
                x = np.concatenate((x, x), axis=1)[:, :m]
            got = summation.inner_sums(x)
            assert got.shape == (rows,) and got.dtype == dtype
            for r in range(rows):
                assert _bits(got[r], dtype) == _bits(summation.torch_sum(x[r]), dtype), (m, rows, r)


def test_fewer_float32_values_than_lanes_every_kind():
    """float32 below 8 values (summation._tiny32, on float32 scalars): every size and kind
    of value, signed zeros and overflow included, many draws."""
    rng = np.random.default_rng(29)
    for n in range(8):
        for kind in range(6):
            for _ in range(40):
                _check(_values(rng, n, np.float32, kind))


@pytest.mark.parametrize("dtype", DTYPES)
def test_big_sums_from_every_offset_modulo_4096_take_either_staging_buffer(dtype, monkeypatch):
    """Level 0 of a big plan over STAGE_BYTES copies each slab into one of two staging
    buffers, chosen by where the input lies modulo 4096 (sum_plans._stage): every
    choice, the same sum (here at a size that stages only with the bar lowered)."""
    from gradcli.numerics.sums import sum_plans

    rng = np.random.default_rng(13)
    n = 40_001  # over sum_mid.MID_MAX: a big plan (slabs), run alone
    key = (n, np.dtype(dtype).char)
    base = _values(rng, n + 4096, dtype, 1)
    offsets = range(0, 4096 // base.itemsize, 2)  # every place modulo 4096
    want = {off: ref._serial(base[off : off + n]) for off in offsets}
    sum_plans._PLANS.pop(key, None)
    assert sum_plans._plan(n, np.dtype(dtype)).stage_at is None  # under the bar
    monkeypatch.setattr(sum_plans, "STAGE_BYTES", 0)
    sum_plans._PLANS.pop(key, None)
    try:
        p = sum_plans._plan(n, np.dtype(dtype))
        assert p.slabs is not None and p.stage_at is not None
        chosen = set()
        for off in offsets:
            x = base[off : off + n]
            chosen.add(sum_plans._stage(p.stage_at, x))
            got = p.run(x)  # torch_sum would cut it between threads
            assert type(got) is type(want[off]) and _bits(got, x.dtype) == _bits(want[off], x.dtype)
        assert chosen == {0, 1}
    finally:
        sum_plans._PLANS.pop(key, None)


@pytest.mark.parametrize("dtype", DTYPES)
def test_several_sums_at_once_equal_each_whole_sum(dtype):
    """sum_rows.torch_sums (the leaf gradients of a backward summed together): each sum
    the value and type torch_sum gives it alone, for every size sum_rows takes, with
    other sizes, other dtypes and inputs that are not flat among them."""
    from gradcli.numerics.sums import sum_mid, sum_rows

    rng = np.random.default_rng(31)
    sizes = [n for n in _mid_boundaries(dtype) if sum_mid.one_copied_level(n, np.dtype(dtype))]
    assert (
        len(sizes) > 20
        and 2000 in sizes + [2000]
        and sum_mid.one_copied_level(2000, np.dtype(dtype))
    )
    sizes.append(2000)
    for i, n in enumerate(sizes):
        rows = 2 + i % 4
        xs = [_values(rng, n, dtype, (i + r) % 6) for r in range(rows)]
        xs.append(_values(rng, n + 1, dtype, i % 6))  # a size of its own
        xs.append(_values(rng, n, np.float64 if dtype == np.float32 else np.float32, 0))
        if i % 3 == 0:
            xs.append(_values(rng, 2 * n, dtype, 1)[::2])  # not contiguous
            xs.append(_values(rng, n, dtype, 2).reshape(-1, 1))  # not flat
        got = sum_rows.torch_sums(xs)
        for x, g in zip(xs, got):
            want = summation.torch_sum(x)
            assert type(g) is type(want), (n, x.dtype, type(g), type(want))
            assert _bits(g, x.dtype) == _bits(want, x.dtype), (n, x.dtype, repr(g), repr(want))


@pytest.mark.parametrize("dtype", DTYPES)
def test_several_sums_of_products_equal_each_whole_sum(dtype):
    """sum_rows.torch_sums with factors (a backward's `g * x` made straight into the
    plan's buffer, engine/schedule.LaterF.sum_scaled): each sum torch_sum of the product
    np.multiply makes, bit for bit, with and without a plan for the rows."""
    from gradcli.numerics.sums import sum_mid, sum_rows

    rng = np.random.default_rng(37)
    for i, n in enumerate([2000, 300, 4096, 777]):
        rows = 2 + i % 3
        xs = [_values(rng, n, dtype, (i + r) % 6) for r in range(rows)]
        fs = [None if r == 0 else _values(rng, n, dtype, (i + 2 * r) % 6) for r in range(rows)]
        if i == 3:  # a row of another size: no plan for these rows
            xs.append(_values(rng, n + 3, dtype, 1))
            fs.append(_values(rng, n + 3, dtype, 2))
        got = sum_rows.torch_sums(xs, fs)
        for x, f, g in zip(xs, fs, got):
            want = summation.torch_sum(x if f is None else np.multiply(x, f))
            assert type(g) is type(want)
            assert _bits(g, x.dtype) == _bits(want, x.dtype), (n, repr(g), repr(want))
    assert sum_mid.one_copied_level(2000, np.dtype(dtype))
