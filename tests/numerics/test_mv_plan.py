"""mkl_vectors.mv by its plan per signature (gemv's arguments made once) gives the bits of the
product made step by step (`_mv_general`: operands copied where PyTorch's would lie),
for matrices row-major, column-major, transposed views and row slices, vectors whole or
sliced, in float64 and float32."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.numerics import mkl, mkl_vectors

pytestmark = pytest.mark.skipif(mkl.lib() is None, reason="MKL not installed")


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_mv_plan_gives_the_general_products_bits(dt):
    rng = np.random.default_rng(7)
    planned = []
    for trial in range(200):
        r, k = (int(n) for n in rng.integers(1, 70, 2))
        a = placed(rng.standard_normal((r, k)).astype(dt))
        kind = trial % 4
        if kind == 1:
            a = placed(np.asfortranarray(a).T).T
        elif kind == 2:
            a = placed(rng.standard_normal((k, r)).astype(dt)).T
        elif kind == 3:
            a = placed(rng.standard_normal((r + 3, k)).astype(dt))[2 : r + 2]
        v = placed(rng.standard_normal(k + 1).astype(dt))
        v = v[1:] if trial % 5 == 0 else placed(v[:k])
        planned.append(not mkl_vectors._mv_plan(a, v) is mkl._GENERAL)
        for _ in range(2):  # (the plan made, then taken)
            got, want = mkl_vectors.mv(a, v), mkl_vectors._mv_general(a, v)
            assert got.dtype == want.dtype and got.shape == (r,)
            assert got.tobytes() == want.tobytes(), (trial, a.shape, a.strides, v.strides)
    assert sum(planned) > 100


def placed(x):
    """x copied where PyTorch's storage would hold it (a 64-byte boundary)."""
    return mkl._copy_aligned(x)[0]


def test_mv_of_empty_operands():
    a = np.zeros((3, 0))
    assert mkl_vectors.mv(a, np.zeros(0)).tolist() == [0.0, 0.0, 0.0]
    assert mkl_vectors.mv(np.zeros((0, 4)), np.ones(4)).shape == (0,)
