"""Dropout's Bernoulli mask (numerics/random/sampling.bernoulli) gives the same values and
leaves the generator where NumPy's uniforms do with the compiled loop loaded (the draws
through MT19937's own next_uint32 and the 53-bit integers compared with ceil(p * 2^53),
numerics/native_random.py) as with NumPy only, for probabilities at and near 0 and 1 and
between, on shapes of many sizes."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.numerics import native, native_layers
from gradcli.numerics.random import sampling
from gradcli.numerics.random.generator import Generator

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")

PROBS = [0.0, 1.0, 0, 1, 0.8, 0.5, 0.1, 1 / 3, 2**-53, 3 * 2**-54, 1 - 2**-53, 0.9999999, 1e-300]


@pytest.mark.parametrize("p", PROBS)
def test_bernoulli_native_is_numpys(p):
    if native.ready(1) is None:
        pytest.skip("the compiled loops are not loaded")
    got_gen, ref_gen = Generator(), Generator()
    got_gen.manual_seed(7)
    ref_gen.manual_seed(7)
    for shape in [(5,), (32, 64), (3, 0), (1001,), (), (2, 3, 4)]:
        got = sampling.bernoulli(got_gen, shape, p)
        with native.numpy_only():
            ref = sampling.bernoulli(ref_gen, shape, p)
        assert got.dtype == ref.dtype and got.shape == ref.shape
        assert (got == ref).all(), (p, shape)
    assert (got_gen._raw32(11) == ref_gen._raw32(11)).all()


def test_bernoulli_native_runs():
    """The compiled mask is taken (so the comparison above compares it): its bytes are
    the uniforms' comparisons, and it draws two 32-bit values a value."""
    if native.ready(1) is None:
        pytest.skip("the compiled loops are not loaded")
    a, b = np.random.MT19937(3), np.random.MT19937(3)
    got = native_layers.bernoulli_mask(a, 100, 2**52)
    assert got is not None
    r = b.random_raw(200)
    m = ((r[0::2] & np.uint64(0x1FFFFF)) << np.uint64(32)) | r[1::2]
    assert (got == (m < np.uint64(2**52))).all() and 0 < got.sum() < 100
    assert (a.random_raw(3) == b.random_raw(3)).all()
