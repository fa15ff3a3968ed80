"""`mkl.mm`'s plans (one per signature of shapes, strides and dtypes) against the
step-by-step product they stand for (`_mm_general`, which the goldens and the differential
tests hold to PyTorch's bits): a signature seen before gives the same bits whether its
operands lie where PyTorch's would or not (then copied), transposed or not, with or without
an added c, on one column or many, in both ways of computing MKL's two threads."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import needs_mkl
from gradcli.numerics import mkl

pytestmark = needs_mkl

SIZES = (1, 2, 3, 5, 8, 13, 17, 25, 64, 100)


def _bits(x):
    return np.ascontiguousarray(x).view(np.uint8).tobytes()


def _operand(rng, shape, dtype, transposed, skew):
    """A (rows, cols) operand `skew` elements into a buffer (skew 0: an array of its own),
    or the transpose of one."""
    stored = shape[::-1] if transposed else shape
    buf = rng.uniform(-2.0, 2.0, stored[0] * stored[1] + skew).astype(dtype)
    x = buf[skew:].reshape(stored) if skew else buf.reshape(stored).copy()
    return x.T if transposed else x


@pytest.mark.parametrize("gemm", [True, False])
def test_planned_products_are_the_step_by_step_ones(monkeypatch, gemm):
    if gemm and not mkl._state["gemm"]:
        pytest.skip("the two threads' rules are not used here")
    monkeypatch.setitem(mkl._state, "gemm", gemm)
    rng = np.random.default_rng(7)
    planned = 0
    for _ in range(300):
        dtype = rng.choice([np.float32, np.float64])
        rows, k = int(rng.choice(SIZES)), int(rng.choice(SIZES))
        cols = 1 if rng.random() < 0.3 else int(rng.choice(SIZES))
        ta, tb = rng.random() < 0.4, rng.random() < 0.4
        bias, alpha, beta = None, 1.0, 1.0
        if rng.random() < 0.3:
            bias = rng.uniform(-2.0, 2.0, (cols,)).astype(dtype)
            alpha, beta = float(rng.choice([1.0, -1.5])), float(rng.choice([1.0, 0.5]))
        by_rows = bool(rng.random() < 0.2)
        # the same signature lying where PyTorch's storage would (no copy: the plan's
        # gemm) and off it (copied): skews of whole 64-byte lines keep the strides
        line = 64 // np.dtype(dtype).itemsize
        for skew_a, skew_b in ((0, 0), (3, 0), (0, 5), (line, 2 * line), (0, line)):
            a = _operand(rng, (rows, k), dtype, ta, skew_a)
            b = _operand(rng, (k, cols), dtype, tb, skew_b)
            got = mkl.mm(a, b, bias, alpha, beta, by_rows)
            want = mkl._mm_general(a, b, bias, alpha, beta, by_rows)
            assert _bits(got) == _bits(want), (rows, k, cols, dtype, ta, tb, skew_a, skew_b)
        planned += mkl._PLANS.get(
            mkl.plan_key(a, b, -1 if bias is None else beta == 1, by_rows)
        ) not in (None, mkl._GENERAL)
    assert planned >= 200  # most products went by a plan
