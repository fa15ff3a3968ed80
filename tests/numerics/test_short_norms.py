"""A 2-norm of one short float64 row (a whole tensor's, clip_grad_norm_'s per-gradient and
total norms) is summed in Python floats (vector_norm._short64); it must equal the general
AVX2-lane code (`_lanes` on NumPy arrays) bit for bit: the lanes, their sum, the tail's fused
multiply-adds, and infinities, NaN and overflow (which the general code takes)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from gradcli.numerics.sums import vector_norm as vn


def _both(x, monkeypatch):
    rows = np.asarray(x, dtype=np.float64).reshape(1, -1)
    short = vn._lanes(rows)
    with monkeypatch.context() as m:
        m.setattr(vn, "_SHORT", -1)  # the general code for the same row
        general = vn._lanes(rows)
    return short, general


@pytest.mark.parametrize("seed", range(6))
def test_short_rows_match_the_lanes(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    for n in range(1, vn._SHORT + 1):
        scale = 10.0 ** rng.integers(-100, 100)
        x = rng.standard_normal(n) * scale
        short, general = _both(x, monkeypatch)
        assert short.tobytes() == general.tobytes(), (n, x.tolist())


@pytest.mark.parametrize(
    "x",
    [
        [0.0, -0.0, 0.0],
        [1e200, 1.0, 2.0, 3.0, 1e200],  # overflow in the lanes
        [1.0, 2.0, 3.0, 4.0, 1e160, 1e160],  # overflow in the tail
        [1.0, np.inf, 2.0],
        [np.nan, 1.0, 2.0, 3.0, 4.0],
        [1.0, 2.0, 3.0, 4.0, -np.nan],
        [3.0, 4.0],
    ],
)
def test_special_values_match(x, monkeypatch):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        short, general = _both(x, monkeypatch)
    assert short.tobytes() == general.tobytes()


def test_whole_tensor_norm_is_the_flat_rows():
    x = np.arange(24.0).reshape(2, 3, 4)[:, ::-1, 1:] / 7
    for keepdim in (False, True):
        got = vn.vector_norm(x, 2, None, keepdim)
        want = vn.vector_norm(x, 2, (0, 1, 2), keepdim)
        assert got.shape == want.shape and got.tobytes() == want.tobytes()
