"""nll_loss's cascade of partial sums: the level-by-level form (every sample kept; NumPy
calls, or Python floats for few float64 samples) adds in the order of the
sample-by-sample walk, to the bit, at sizes that fill one to five levels, on values with
signed zeros, infinities and NaNs; with ignored samples the walk itself runs."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.numerics.sums.summation import nll_cascade, nll_cascade_walk

SIZES = [0, 1, 2, 15, 16, 17, 33, 48, 64, 95, 96, 97, 255, 256, 257, 2000, 4097]
SIZES += [65536, 65537, 70001, 300_000]


def _values(rng, n, dtype, kind):
    with np.errstate(all="ignore"):
        x = rng.standard_normal(n) * np.exp2(rng.integers(-40, 40, n))
        if kind == "zeros":
            x[rng.random(n) < 0.4] = -0.0
        elif kind == "special":
            x[:] = -0.0
            pick = rng.random(n) < 0.02
            x[pick] = rng.choice([np.nan, -np.nan, np.inf, -np.inf, 1e300, -1e-310], pick.sum())
        return x.astype(dtype)


def _bits(v):
    v = np.asarray(v)
    return v.dtype, v.tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", ["normal", "zeros", "special"])
def test_levels_add_as_the_walk(dtype, kind):
    rng = np.random.default_rng(hash((kind, np.dtype(dtype).char)) % 2**32)
    for n in SIZES:
        x = _values(rng, n, dtype, kind)
        w = rng.random(n).astype(dtype)
        keep = np.ones(n, bool)
        for weighted in (False, True):
            got = nll_cascade(x, w, keep, weighted)
            ref = nll_cascade_walk(x, w, keep, weighted)
            assert [_bits(v) for v in got] == [_bits(v) for v in ref], (n, weighted)


def test_ignored_samples_walk():
    rng = np.random.default_rng(5)
    x = rng.standard_normal(1000)
    keep = rng.random(1000) < 0.9
    keep[16] = keep[256] = False  # at multiples of the step: nothing passed on there
    w = np.where(keep, 1.0, 0.0)
    got = nll_cascade(x * keep, w, keep, False)
    assert [_bits(v) for v in got] == [_bits(v) for v in nll_cascade_walk(x * keep, w, keep, False)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", ["normal", "zeros", "special"])
def test_few_samples_add_as_the_walk_at_every_size(dtype, kind):
    # (up to SMALL_NLL samples: Python floats for float64, NumPy float32 scalars for
    # float32, each addition in its dtype)
    rng = np.random.default_rng(hash(("few", kind, np.dtype(dtype).char)) % 2**32)
    for n in range(1, 100):
        for _ in range(3):
            x = _values(rng, n, dtype, kind)
            keep = np.ones(n, bool)
            got = nll_cascade(x, np.ones(n, dtype), keep, False, True)
            ref = nll_cascade_walk(x, np.ones(n, dtype), keep, False)
            assert [_bits(v) for v in got] == [_bits(v) for v in ref], n
