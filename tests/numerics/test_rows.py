"""numerics/floats/rows.py: the reductions down the columns of many short rows give the
bits of the row-by-row reductions they replace (softmax's and log_softmax's last dim)."""

import numpy as np
import pytest

from gradcli.numerics.floats import rows, sleef_explog, softmax64

SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e308, -1e308, 5e-324, 1.0, -1.0]


def _arrays(dtype, d, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((200, d)) * np.exp(rng.uniform(-30, 30, (200, d)))
    with np.errstate(over="ignore"):
        a = a.astype(dtype)
        # some rows with special values, some with cancelling ones
        picks = rng.integers(0, 200, 40)
        a[picks, rng.integers(0, d, 40)] = rng.choice(np.array(SPECIAL, dtype), 40)
    a[:5] = 1e20
    a[:5, ::2] = -1e20
    return a


def _by_rows(fn, a):
    """fn on the array as NumPy's row-by-row path takes it (too few rows for columns)."""
    return np.concatenate([fn(a[i : i + 1]) for i in range(a.shape[0])])


@pytest.mark.parametrize("d", [1, 3, 4, 7, 8, 9, 10, 16, 17, 31, 32])
@pytest.mark.parametrize(
    "dtype, kernel", [(np.float64, softmax64), (np.float32, sleef_explog)], ids=["f64", "f32"]
)
def test_row_sums_by_columns(d, dtype, kernel):
    for seed in range(3):
        a = _arrays(dtype, d, seed)
        assert rows.by_columns(a) and not rows.by_columns(a[:1])
        with np.errstate(all="ignore"):
            got, want = kernel.row_sums(a), _by_rows(kernel.row_sums, a)
        assert got.dtype == want.dtype
        assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("d", [1, 2, 10, 32])
def test_row_max_by_columns(d):
    for dtype in (np.float64, np.float32):
        a = _arrays(dtype, d, d)
        got = rows.row_max(a)
        want = a.max(axis=1, keepdims=True)
        assert got.shape == want.shape and got.dtype == want.dtype
        # the same values; a zero's sign may differ, which x - max cannot show
        assert np.array_equal(got, want, equal_nan=True)


@pytest.mark.parametrize("d", [1, 2, 3, 4, 5, 7])
@pytest.mark.parametrize(
    "dtype, kernel, lanes",
    [(np.float64, softmax64, 4), (np.float32, sleef_explog, 8)],
    ids=["f64", "f32"],
)
def test_short_rows_add_from_the_left(d, dtype, kernel, lanes):
    """Rows of at most one vector (few rows, not by columns): the values one after the
    other from the left, each sum rounded to the dtype (no +0 first)."""
    if d > lanes:
        pytest.skip("more than one vector")
    a = _arrays(dtype, d, d)[:40]
    with np.errstate(all="ignore"):
        got = kernel.row_sums(a)
        want = []
        for row in a:
            acc = row[0]
            for v in row[1:]:
                acc = dtype(acc + v)
            want.append(acc)
    assert got.dtype == dtype and got.shape == (40,)
    assert got.tobytes() == np.array(want, dtype).tobytes()
