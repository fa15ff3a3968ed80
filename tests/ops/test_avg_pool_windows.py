"""Average pooling's windows computed all at once (ops/norm_pool.py `_windows`: every
window's k-th value added to every output's sum in one step, a shorter window adding +0,
the gradients scattered in the outputs' order) give the bits of the kernel's loop, one
window after another, as the goldens record it: here against that loop written out, on
avg_pool2d's windows of many kernels, strides, paddings and ceil modes and on adaptive
pools' overlapping windows, with infinities, NaNs and signed zeros."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.ops import norm_pool


def _sums(x, rows, cols):
    n, c = x.shape[:2]
    out = np.empty((n, c, len(rows), len(cols)), dtype=x.dtype)
    for a, rs in enumerate(rows):
        for b, cs in enumerate(cols):
            win = x[:, :, rs, cs].reshape(n, c, -1)
            acc = np.zeros((n, c), dtype=x.dtype)
            for k in range(win.shape[-1]):
                acc = acc + win[:, :, k]
            out[:, :, a, b] = acc
    return out


def _divided(v, d, dt):
    for k in d if isinstance(d, tuple) else (d,):
        v = v / dt.type(k)
    return v


def _forward(x, rows, cols, divide):
    sums = _sums(x, rows, cols)
    out = np.empty_like(sums)
    for a in range(len(rows)):
        for b in range(len(cols)):
            out[:, :, a, b] = _divided(sums[:, :, a, b], divide[a][b], x.dtype)
    return out


def _backward(g, shape, rows, cols, divide):
    out = np.zeros(shape, dtype=g.dtype)
    for a, rs in enumerate(rows):
        for b, cs in enumerate(cols):
            out[:, :, rs, cs] += _divided(g[:, :, a, b], divide[a][b], g.dtype)[:, :, None, None]
    return out


def _windows():
    out = []
    for H, W in [(8, 8), (7, 9), (5, 5), (12, 10), (3, 4)]:
        for args in [
            ((2, 2), (2, 2), (0, 0), False, True, None),
            ((3, 3), (2, 2), (1, 1), True, False, None),
            ((3, 2), (1, 1), (1, 0), False, True, None),
            ((2, 3), (3, 2), (0, 1), True, True, 5),
        ]:
            rows, cols, divide, _ = norm_pool._avg_windows(H, W, *args)
            out.append((H, W, rows, cols, divide))
        for oh, ow in [(3, 2), (1, 4), (H, W), (4, 3)]:
            rows = [slice(i * H // oh, -(-(i + 1) * H // oh)) for i in range(oh)]
            cols = [slice(j * W // ow, -(-(j + 1) * W // ow)) for j in range(ow)]
            divide = [[(r.stop - r.start, c.stop - c.start) for c in cols] for r in rows]
            out.append((H, W, rows, cols, divide))
    return out


class _Pool:
    def __init__(self, shape, rows, cols, divide):
        self.shape, self.rows, self.cols, self.divide = shape, rows, cols, divide


def _same(a, b):
    return (
        a.shape == b.shape
        and a.dtype == b.dtype
        and bool(((a == b) | (np.isnan(a) & np.isnan(b))).all())
        and np.array_equal(np.signbit(a), np.signbit(b))
    )


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_windows_at_once_are_the_loops(dt):
    rng = np.random.default_rng(12)
    for H, W, rows, cols, divide in _windows():
        for spread in (0, 5, 30):
            shape = (2, 3, H, W)
            x = (
                rng.standard_normal(shape) * 10.0 ** rng.integers(-spread, spread + 1, shape)
            ).astype(dt)
            if spread == 30:
                x[0, 0, 0, 0], x[1, 2, -1, -1], x[0, 1, 1, 1] = np.inf, -0.0, np.nan
            got = norm_pool._pool_forward(x, rows, cols, divide)
            assert _same(got, _forward(x, rows, cols, divide)), (H, W, rows, cols)
            g = rng.standard_normal(got.shape).astype(dt)
            g.flat[0] = -0.0
            back = norm_pool._pool_backward(g, _Pool(shape, rows, cols, divide))
            assert _same(back, _backward(g, shape, rows, cols, divide)), (H, W, rows, cols)
