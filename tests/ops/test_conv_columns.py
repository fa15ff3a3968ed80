"""A convolution's im2col columns (Conv2d._columns, every window inside the input) by the
compiled rows copy (numerics/native_pool.py `rows_ir`, where the native loops are loaded)
against NumPy's strided copy, bit for bit (NaN payloads included), over random batches,
channels, groups, kernels, strides and dilations of both float dtypes."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.numerics import native
from gradcli.ops import nn

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")


def _node(x, w, stride, dilation, groups):
    node = nn.Conv2d.__new__(nn.Conv2d)
    (oh, ow), window, _, _ = nn._conv_plan(
        x.shape, w.shape, False, stride, (0, 0), dilation, groups
    )
    node.window, node.oshape, node.groups = window, (oh, ow), groups
    return node


@pytest.mark.parametrize("seed", range(40))
def test_compiled_columns_equal_strided_copy(seed):
    rng = np.random.default_rng(5000 + seed)
    dtype = np.float32 if seed % 2 else np.float64
    bits = np.uint32 if seed % 2 else np.uint64
    while True:
        groups = int(rng.integers(1, 3))
        C = groups * int(rng.integers(1, 3))
        kh, kw = (int(v) for v in rng.integers(1, 4, 2))
        sh, sw = (int(v) for v in rng.integers(1, 3, 2))
        dh, dw = (int(v) for v in rng.integers(1, 3, 2))
        H, W = (int(v) for v in rng.integers(1, 12, 2))
        if H >= dh * (kh - 1) + 1 and W >= dw * (kw - 1) + 1:
            break
    N = int(rng.integers(1, 4))
    x = rng.integers(0, 2 ** (8 * np.dtype(bits).itemsize), (N, C, H, W), dtype=bits)
    x = x.view(dtype)
    w = np.zeros((groups, C // groups, kh, kw), dtype)
    node = _node(x, w, (sh, sw), (dh, dw), groups)
    got = node._columns(x)
    with native.numpy_only():
        want = node._columns(x)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got.view(bits), want.view(bits))
