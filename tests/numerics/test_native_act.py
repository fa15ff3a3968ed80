"""The compiled kernels of numerics/native_act.py (sigmoid, log_sigmoid and
binary_cross_entropy_with_logits' element-wise loss, each one pass) give the bits of
their NumPy emulations (GRADCLI_NO_NATIVE's path) on random bit patterns of both float
dtypes (NaNs, infinities, subnormals, signed zeros among them), on the values where
SLEEF's kernels change their path (exp's limits, tiny exp(-|x|)), and on every length
around the vectors' (the padded last vector, the scalar code's tail of sigmoid)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.numerics import native
from gradcli.numerics.floats import torch_act, torch_exp

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")

DTYPES = [np.float32, np.float64]


def _same(got, ref):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    diff = np.flatnonzero(got.reshape(-1).view(np.uint8) != ref.reshape(-1).view(np.uint8))
    assert not diff.size, f"{diff.size} bytes of {got.size} values differ"


def _bits(rng, n, dt):
    it = np.uint32 if dt is np.float32 else np.uint64
    return rng.integers(0, np.iinfo(it).max, n, dtype=it, endpoint=True).view(dt)


def _edges(dt):
    """Signed zeros, infinities, NaNs (both signs, a payload), subnormals, the largest
    values, the limits of SLEEF's exp (-104 / 100 for float32, -1000 / 709.78 for double,
    where its results are replaced) and values whose exp(-|x|) is subnormal or tiny."""
    fi = np.finfo(dt)
    it = np.uint32 if dt is np.float32 else np.uint64
    payload = np.array([(1 << (fi.bits - 1)) - 7], it).view(dt)
    limits = (-104.0, 100.0, -88.7, 88.7, -1000.0, 709.78, -745.2, 745.2, -710.0)
    vals = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, fi.max, -fi.max, fi.tiny, -fi.tiny]
    vals += [fi.smallest_subnormal * k for k in (1, -1, 3, -1000)]
    with np.errstate(over="ignore"):
        out = np.array(vals + list(limits), dt)
        around = np.concatenate([np.nextafter(out, dt(np.inf)), np.nextafter(out, -dt(np.inf))])
    ramp = np.linspace(-120, 120, 481).astype(dt)
    return np.concatenate([out, around, payload, ramp, np.linspace(-800, 800, 321).astype(dt)])


def _values(rng, n, dt):
    x = _bits(rng, n, dt)
    edges = _edges(dt)
    x[: min(n, edges.size)] = edges[:n]
    scaled = (rng.standard_normal(n) * 10.0 ** rng.integers(-8, 3, n)).astype(dt)
    x[n // 2 :] = scaled[n // 2 :]
    rng.shuffle(x)
    return x


def _numpy(fn, *args):
    with native.numpy_only(), np.errstate(all="ignore"):
        return fn(*args)


@pytest.mark.parametrize("dt", DTYPES)
def test_sigmoid_log_sigmoid_and_the_loss_are_the_emulations(dt):
    rng = np.random.default_rng(5 + (dt is np.float32))
    lib = native._state["lib"]
    assert lib
    for n in (4096, 3000, 1536):
        x, y = _values(rng, n, dt), _values(rng, n, dt)
        y[::3] = rng.integers(0, 2, len(y[::3])).astype(dt)  # (targets as they come)
        with np.errstate(all="ignore"):
            got = (
                torch_exp.sigmoid(x),
                torch_act.log_sigmoid(x),
                torch_act.bce_with_logits(x, y),
            )
        ref = (
            _numpy(torch_exp.sigmoid, x),
            _numpy(torch_act.log_sigmoid, x),
            _numpy(lambda a, b: (1 - b) * a - torch_act.log_sigmoid(a), x, y),
        )
        for g, r in zip(got, ref):
            _same(g, r)
        # the kernels themselves take these (only their flagged values are NumPy's)
        assert native.act("sigmoid", x.dtype, x[:4096]) is None  # (NaNs flagged)
        moderate = x[np.abs(x) < 80]
        assert native.act("log_sigmoid", x.dtype, moderate) is not None
        assert native.act("bce_logits", x.dtype, moderate, moderate * 0.25) is not None


@pytest.mark.parametrize("dt", DTYPES)
def test_every_length_and_shape(dt):
    """Lengths around the vectors' (the last vector padded; sigmoid's values after its
    last whole block of two vectors are the C library's), 0-d, 2-d and strided
    arrays."""
    rng = np.random.default_rng(9 + (dt is np.float32))
    for n in range(1, 70):
        x = (rng.standard_normal(n) * 8).astype(dt)
        y = rng.uniform(0, 1, n).astype(dt)
        with np.errstate(all="ignore"):
            _same(torch_exp.sigmoid(x), _numpy(torch_exp.sigmoid, x))
            _same(torch_act.log_sigmoid(x), _numpy(torch_act.log_sigmoid, x))
            _same(torch_act.bce_with_logits(x, y), _numpy(torch_act.bce_with_logits, x, y))
    x = (rng.standard_normal((37, 5)) * 8).astype(dt)
    for v in (x, x.T, x[::2], np.asarray(x[3, 1]), x[:0]):
        with np.errstate(all="ignore"):
            _same(torch_exp.sigmoid(v), _numpy(torch_exp.sigmoid, v))
            _same(torch_act.log_sigmoid(v), _numpy(torch_act.log_sigmoid, v))
            _same(
                torch_act.bce_with_logits(v, v * 0.5), _numpy(torch_act.bce_with_logits, v, v * 0.5)
            )
