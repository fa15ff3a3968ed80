"""The compiled GRU step (numerics/native_recurrent.py) against the NumPy steps it
replaces, bit for bit, both float dtypes (and an LSTM step's, `native_layers.
lstm_backward` against `recurrent_layer._lstm_step`, `lstm_forward` against `_step`): its backward (`native_layers.gru_backward`;
`recurrent_layer._gru_step` after the carried gradients' sums) on batch and hidden sizes
around the vectors' widths, gates as column slices of wider arrays (the layer's layout),
signed zeros, values whose fused step the emulation decides, infinities and NaNs
(flagged: the NumPy path); its forward (`native_layers.gru_forward`; recurrent.py `_step`
on arrays) on the sizes whose gates' sigmoid is the vector code's alone, across the
sigmoid's and tanh's ranges, and declining the others."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.library.nn.recurrent import _step
from gradcli.library.nn.recurrent_layer import _gru_step, _lstm_step
from gradcli.numerics.mkl import torch_mm
from gradcli.numerics import native, native_layers

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")


@pytest.fixture
def loops(monkeypatch):
    if native._state["lib"] is False:  # (not loaded yet: load it now, not by the budget)
        monkeypatch.setitem(native._state, "cost", 0.0)
    if native.ready(1) is None:
        pytest.skip("the compiled loops are off")


def _values(rng, shape, dt, kind):
    v = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 3, shape)
    if kind == 1:  # signed zeros and ones
        v = np.where(rng.random(shape) < 0.5, rng.choice([0.0, -0.0, 1.0], shape), v)
    elif kind == 2:  # all -0
        v = -np.zeros(shape)
    elif kind == 3:  # a few infinities and NaNs
        pick = rng.random(shape)
        v = np.where(pick < 0.01, np.inf, np.where(pick > 0.995, np.nan, v))
    with np.errstate(over="ignore"):
        return v.astype(dt)


def _same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    ints = np.uint32 if want.dtype == np.float32 else np.uint64
    np.testing.assert_array_equal(got.view(ints), want.view(ints))


def _kept(rng, rows, size, dt, kind):
    """r, z (column slices of one sigmoid output), n, hnew (a slice of the hidden gates),
    d, as the layer's forward leaves them."""
    rz = 1 / (1 + np.exp(-_values(rng, (rows, 2 * size), dt, kind)))
    n = np.tanh(_values(rng, (rows, size), dt, kind))
    if kind == 3:
        n.flat[:3] = np.array([3e-300, np.inf, np.nan], dt)[: n.size][:3]
    hg = _values(rng, (rows, 3 * size), dt, kind)
    d = _values(rng, (rows, size), dt, kind) - n
    return rz[:, :size], rz[:, size:], n, hg[:, 2 * size :], d


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_gru_backward_is_the_numpy_steps(dt, loops):
    dt = np.dtype(dt)
    rng = np.random.default_rng(11 + dt.itemsize)
    answered = 0
    for i, (rows, size) in enumerate(
        [(1, 1), (1, 3), (2, 4), (3, 8), (16, 48), (5, 9), (7, 16), (4, 33), (16, 5), (1, 64)]
    ):
        for kind in range(4):
            with np.errstate(all="ignore"):
                kept = _kept(rng, rows, size, dt, kind)
                g = _values(rng, (rows, size), dt, kind)
                carry = [_values(rng, (rows, size), dt, kind) for _ in range((i + kind) % 3)]
                gh = g
                for c in carry:
                    gh = gh + c
                want = _gru_step(gh, *kept)
            gig = np.full((rows, 3 * size), 7.0, dt)
            got = native_layers.gru_backward(g, tuple(carry), kept, gig)
            if got is None:
                assert kind == 3  # (only where a value is flagged)
                continue
            answered += 1
            _same(got[0], want[0])
            _same(got[1], want[1])
            _same(gig, want[2])
    assert answered >= 30


def test_gru_backward_declines_other_layouts(loops):
    rng = np.random.default_rng(3)
    kept = _kept(rng, 4, 8, np.float64, 0)
    g = _values(rng, (4, 8), np.float64, 0)
    gig = np.empty((4, 24))
    assert native_layers.gru_backward(g, (), kept, gig) is not None
    strided = np.asfortranarray(g)
    assert native_layers.gru_backward(strided, (), kept, gig) is None
    assert native_layers.gru_backward(g.astype(np.float32), (), kept, gig) is None


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_gru_forward_is_the_numpy_steps(dt, loops):
    dt = np.dtype(dt)
    rng = np.random.default_rng(17 + dt.itemsize)
    answered = 0
    for rows, size in [(1, 16), (3, 16), (16, 48), (5, 32), (2, 64), (7, 8), (16, 5), (4, 12)]:
        for kind in range(4):
            with np.errstate(all="ignore"):
                w = _values(rng, (3 * size, size), dt, 0) / 4
                bias = None if kind == 2 else _values(rng, (3 * size,), dt, 0)
                h = _values(rng, (rows, size), dt, kind % 2)
                igates = _values(rng, (2, rows, 3 * size), dt, kind)
                if kind == 1:  # the sigmoid's and tanh's far ranges
                    igates *= 100
                kept: list = []
                want = _step("GRU", igates[1], h, w, bias, kept)
            hg = torch_mm(h, w.T) if bias is None else torch_mm(h, w.T, bias)
            out = np.full((2, rows, size), 5.0, dt)
            got = native_layers.gru_forward(igates[1], h, hg, out[0])
            if got is None:
                assert kind == 3 or (size * dt.itemsize) % 64  # (flagged, or not whole blocks)
                continue
            answered += 1
            _same(out[0], want)
            for a, b in zip(got, (kept[0], kept[1], kept[2], kept[4])):
                _same(a, b)
            assert (out[1] == 5.0).all()
    assert answered >= 12


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_lstm_backward_is_the_numpy_steps(dt, loops):
    dt = np.dtype(dt)
    rng = np.random.default_rng(23 + dt.itemsize)
    answered = 0
    for rows, size in [(1, 1), (2, 3), (16, 48), (5, 9), (7, 16), (4, 33)]:
        for kind in range(4):
            with np.errstate(all="ignore"):
                gates = 1 / (1 + np.exp(-_values(rng, (rows, 4 * size), dt, kind)))
                i, f, o = gates[:, :size], gates[:, size : 2 * size], gates[:, 3 * size :]
                gg = np.tanh(_values(rng, (rows, size), dt, kind))
                cx = _values(rng, (rows, size), dt, kind)
                tc = np.tanh(f * cx + i * gg)
                if kind == 3:
                    tc.flat[:2] = np.array([3e-300, np.nan], dt)[: tc.size]
                kept = (i, f, gg, o, tc, cx)
                g, c0, gc = (_values(rng, (rows, size), dt, kind) for _ in range(3))
                want = _lstm_step(g + c0, gc, *kept)
            gig = np.full((rows, 4 * size), 7.0, dt)
            got = native_layers.lstm_backward(g, (c0,), gc, kept, gig)
            if got is None:
                assert kind == 3
                continue
            answered += 1
            _same(got[0], want[0])
            _same(got[1], want[1])
            _same(gig, want[1])
    assert answered >= 15


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_lstm_forward_is_the_numpy_steps(dt, loops):
    dt = np.dtype(dt)
    rng = np.random.default_rng(29 + dt.itemsize)
    answered = 0
    for rows, size in [(1, 16), (3, 16), (16, 48), (5, 32), (7, 8), (16, 5), (4, 12)]:
        for kind in range(4):
            with np.errstate(all="ignore"):
                w = _values(rng, (4 * size, size), dt, 0) / 4
                bias = None if kind == 2 else _values(rng, (4 * size,), dt, 0)
                hx, cx = (_values(rng, (rows, size), dt, kind % 2) for _ in range(2))
                igates = _values(rng, (2, rows, 4 * size), dt, kind)
                if kind == 1:  # the sigmoid's and tanh's far ranges
                    igates *= 100
                kept: list = []
                h, c = _step("LSTM", igates[1], (hx, cx), w, bias, kept)
            hg = torch_mm(hx, w.T) if bias is None else torch_mm(hx, w.T, bias)
            out = np.full((2, rows, size), 5.0, dt)
            got = native_layers.lstm_forward(igates[1], cx, hg, out[0])
            if got is None:
                assert kind == 3 or (size * dt.itemsize) % 64  # (flagged, or not whole blocks)
                continue
            answered += 1
            _same(out[0], h)
            i, f, gt, o, tc, cy = got
            _same(cy, c)
            for a, b in zip((i, f, gt, o, tc), kept[:5]):
                _same(a, b)
            assert (out[1] == 5.0).all()
    assert answered >= 10
