"""gemm's two threads computed on one thread (gradcli/numerics/mkl.py's `cut`, `solo` and
`shared`) against MKL's own two threads, bit for bit: random products of both float
dtypes with rows, columns and k on both sides of the rules' edges, transposed and
misaligned operands, addmm's alpha and beta, and slow_conv2d's per-sample gemms
(numerics/conv_gemm.py's gemm_frames).  Runs where the rules are used (two threads, MKL's kernels they were
found in); the live comparison with PyTorch is tests/differential/test_mm_threads.py.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from conftest import needs_mkl
from gradcli.numerics import conv_gemm, mkl

# one row or column (a matrix-vector product); a float32 thread's part of 1 to 3 rows
# (5-7, 9-11); a float64 thread's part of one column (cut at 12 or 24 of 13 or 25); k 4/5
# and 16/17, 100/101 (whether MKL shares)
ROWS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 25, 40, 101)
COLS = (1, 2, 3, 4, 9, 12, 13, 14, 24, 25, 26, 35, 36, 37, 64, 100, 101)
KS = (1, 2, 4, 5, 16, 17, 64, 256, 257, 300)


def _rules_used():
    return mkl.available() and mkl._state["gemm"]


pytestmark = [
    needs_mkl,
    pytest.mark.skipif(not _rules_used(), reason="the rules are for two threads and those kernels"),
]


def _operand(rng, shape, dtype, transposed):
    """A (rows, cols) operand somewhere in a larger array (0 to 16 elements past its
    start), or the transpose of one; some mostly zeros, with negative zeros."""
    stored = shape[::-1] if transposed else shape
    skew = int(rng.integers(0, 17))
    buf = rng.uniform(-2.0, 2.0, stored[0] * stored[1] + skew).astype(dtype)
    if rng.random() < 0.15:
        buf[rng.random(buf.size) < 0.6] = 0.0
        buf[rng.random(buf.size) < 0.2] = -0.0
    x = buf[skew:].reshape(stored)
    return x.T if transposed else x


def _bits(x):
    return np.ascontiguousarray(x).view(np.uint8).tobytes()


def _shape(rng):
    return int(rng.choice(ROWS)), int(rng.choice(COLS)), int(rng.choice(KS))


def _kind(p, rows, cols, k):
    plan = mkl._plan(p, cols, rows, k, False, 0.0)
    if isinstance(plan, str):
        return plan
    width = (rows if plan[0] else cols) - plan[1]
    return "one wide" if width == 1 else "shared"


def test_products_are_mkls_two_threads(monkeypatch):
    rng = np.random.default_rng(0)
    kinds = Counter()
    for _ in range(600):
        rows, cols, k = _shape(rng)
        dtype = rng.choice([np.float32, np.float64])
        a = _operand(rng, (rows, k), dtype, rng.random() < 0.5)
        b = _operand(rng, (k, cols), dtype, rng.random() < 0.5)
        bias, alpha, beta = None, 1.0, 1.0
        if rng.random() < 0.5:
            bias = rng.uniform(-2.0, 2.0, (cols,) if rng.random() < 0.5 else (rows, cols))
            bias = bias.astype(dtype)
            alpha = float(rng.choice([1.0, 0.5, -1.5, 0.0]))
            beta = float(rng.choice([1.0, 0.0, 0.5, 3.0]))
        on_one = mkl.mm(a, b, bias, alpha, beta)
        monkeypatch.setitem(mkl._state, "gemm", False)
        on_two = mkl.mm(a, b, bias, alpha, beta)
        monkeypatch.setitem(mkl._state, "gemm", True)
        assert _bits(on_one) == _bits(on_two), (rows, cols, k, a.dtype, a.strides, b.strides)
        kinds[_kind("s" if dtype == np.float32 else "d", rows, cols, k)] += 1
    # every way of computing them was taken
    assert min(kinds[w] for w in ("as is", "alone", "shared", "one wide")) >= 20, kinds


def test_per_sample_products_are_mkls_two_threads(monkeypatch):
    rng = np.random.default_rng(1)
    shared = 0
    for _ in range(200):
        rows, cols, k = _shape(rng)
        dtype = rng.choice([np.float32, np.float64])
        n = int(rng.integers(1, 4))
        a = conv_gemm.frames_aligned(rng.uniform(-2.0, 2.0, (n, rows, k)).astype(dtype))
        b = conv_gemm.frames_aligned(rng.uniform(-2.0, 2.0, (n, k, cols)).astype(dtype))
        start = rng.uniform(-2.0, 2.0, (1 if rng.random() < 0.5 else n, rows, cols))
        beta = float(rng.choice([0.0, 1.0, 0.5]))
        outs = []
        for gemm in (True, False):
            monkeypatch.setitem(mkl._state, "gemm", gemm)
            out = conv_gemm.frames_empty(start.shape, dtype)
            out[...] = start
            assert conv_gemm.gemm_frames(a, b, out, beta)
            outs.append(out)
        assert _bits(outs[0]) == _bits(outs[1]), (rows, cols, k, dtype, n, beta)
        shared += _kind("s" if dtype == np.float32 else "d", rows, cols, k) != "alone"
    assert shared >= 20


def test_one_call_on_one_thread_would_differ(monkeypatch):
    """The products the threads' parts are computed for differ as one call on one
    thread: the parts matter, and the tests above can fail."""
    rng = np.random.default_rng(2)
    local = mkl.FNS["MKL_Set_Num_Threads_Local"]
    differ = 0
    for _ in range(100):
        rows, cols, k = int(rng.choice((5, 6, 9, 10, 11))), int(rng.choice((13, 25, 32))), 300
        dtype = rng.choice([np.float32, np.float64])
        a = _operand(rng, (rows, k), dtype, False)
        b = _operand(rng, (k, cols), dtype, rng.random() < 0.5)
        on_one = mkl.mm(a, b)
        monkeypatch.setitem(mkl._state, "gemm", False)
        # one thread, which mkl.py does not know of (it would set PyTorch's back)
        noted, before, mkl._LOCAL[0] = mkl._LOCAL[0], local(1), None
        try:
            whole = mkl.mm(a, b)
        finally:
            local(before)
            mkl._LOCAL[0] = noted
        monkeypatch.setitem(mkl._state, "gemm", True)
        differ += _bits(on_one) != _bits(whole)
    assert differ >= 20
