"""relu's backward (threshold_backward) by a mask of bits, and by the compiled loop where
the native loops are loaded: the same array as NumPy's where on any bit patterns (NaN
payloads, infinities, subnormals, signed zeros)."""

import contextlib

import numpy as np
import pytest

from gradcli.numerics import native, native_layers
from gradcli.ops.unary import _kept_where


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("dtype, bits", [(np.float32, np.uint32), (np.float64, np.uint64)])
def test_same_bits_as_where(dtype, bits, compiled):
    if compiled and not native.available():
        pytest.skip("llvmlite is not installed")
    with contextlib.nullcontext() if compiled else native.numpy_only():
        _check_same_bits(dtype, bits)


def _check_same_bits(dtype, bits):
    rng = np.random.default_rng(0)
    top = 2 ** (8 * np.dtype(bits).itemsize)
    for shape in [(0,), (1,), (7, 5), (128, 256)]:
        n = int(np.prod(shape))
        g = rng.integers(0, top, size=n, dtype=bits).view(dtype).reshape(shape)
        x = rng.integers(0, top, size=n, dtype=bits).view(dtype).reshape(shape)
        flat = x.reshape(-1)
        flat[::7], flat[1::11], flat[2::13] = 0.0, -0.0, np.nan
        with np.errstate(invalid="ignore"):
            want = np.where(x <= 0, 0.0, g)
        got = _kept_where(g, x)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert (got.view(bits) == want.view(bits)).all()


def test_other_layouts_take_where():
    g = np.arange(12.0).reshape(3, 4).T
    x = np.linspace(-1, 1, 12).reshape(4, 3)
    assert (_kept_where(g, x) == np.where(x <= 0, 0.0, g)).all()


@pytest.mark.parametrize("dtype, bits", [(np.float32, np.uint32), (np.float64, np.uint64)])
def test_relu_loop_same_bits_as_maximum(dtype, bits):
    """relu's compiled loop (x where x is not below 0) against NumPy's maximum(0, x) on
    any bit patterns: NaN payloads (signalling ones too), signed zeros, infinities."""
    if not native.available():
        pytest.skip("llvmlite is not installed")
    rng = np.random.default_rng(1)
    top = 2 ** (8 * np.dtype(bits).itemsize)
    for n in (1, 5, 8, 1023, 4097, 100_003):
        x = rng.integers(0, top, size=n, dtype=bits).view(dtype)
        x[::7], x[1::11] = 0.0, -0.0
        got = native_layers.relu(x)
        want = np.maximum(0, x)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert (got.view(bits) == want.view(bits)).all()


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("dtype, bits", [(np.float32, np.uint32), (np.float64, np.uint64)])
def test_masked_any_size_same_bits_as_where(dtype, bits, compiled):
    """relu's backward as the op computes it (`_masked`: where, the mask of bits or the
    compiled loop by size and whether the loops are loaded) on sizes around each choice."""
    from gradcli.ops.unary import _masked

    if compiled and not native.available():
        pytest.skip("llvmlite is not installed")
    rng = np.random.default_rng(2)
    top = 2 ** (8 * np.dtype(bits).itemsize)
    with contextlib.nullcontext() if compiled else native.numpy_only():
        for n in (3, 511, 512, 2048, 2049, 16_385):
            g = rng.integers(0, top, size=n, dtype=bits).view(dtype)
            x = rng.integers(0, top, size=n, dtype=bits).view(dtype)
            x[::5], x[1::9] = 0.0, -0.0
            with np.errstate(invalid="ignore"):
                want = np.where(x <= 0, 0.0, g)
            got = _masked(np, g, x, 0.0)
            assert got.dtype == want.dtype and (got.view(bits) == want.view(bits)).all()
