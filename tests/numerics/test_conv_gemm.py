"""slow_conv2d's per-sample gemms made on one thread by one cblas_?gemm_batch_strided call
(gradcli/numerics/conv_gemm.py's gemm_frames, alone) against one gemm per sample, as
PyTorch calls them: the same bits on random shapes of both float dtypes (outputs of one
column, which the batch computes with other kernels, are made one gemm at a time), the
forward's (beta 1 onto the bias, beta 0) and the columns' gradient's (the weight
transposed), and the weight gradient's products added in turn into one output (one
batch call of one group whose outputs are all that one); the live comparison with PyTorch
is tests/differential/test_conv_gemm_threads.py and the convolution goldens."""

from __future__ import annotations

import itertools

import numpy as np

from conftest import needs_mkl
from gradcli.numerics import conv_gemm, gemm_threads, mkl

pytestmark = needs_mkl

SIZES = (1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 33)


def _frames(rng, dtype, ta, n, o, k, cols):
    """(the weight (1, o, k), the per-sample operand, the output's shape)."""
    w = mkl.aligned(rng.standard_normal((1, o, k)).astype(dtype))
    if ta:  # weight.T @ grad_output[n]
        return w, mkl.aligned(rng.standard_normal((n, o, cols)).astype(dtype)), (n, k, cols)
    b = conv_gemm.frames_aligned(rng.standard_normal((n, k, cols)).astype(dtype))
    return w, b, (n, o, cols)


def _both(rng, dtype, ta, n, o, k, cols, beta):
    """(gemm_frames' output on one thread, one gemm_frames call per sample's)."""
    w, b, shape = _frames(rng, dtype, ta, n, o, k, cols)
    start = rng.standard_normal(shape[1:]).astype(dtype)
    outs = []
    for batched in (True, False):
        out = conv_gemm.frames_empty(shape, dtype)
        out[...] = start
        if batched:
            assert conv_gemm.gemm_frames(w, b, out, beta, ta=ta, alone=True)
        else:
            for i in range(n):
                assert conv_gemm.gemm_frames(
                    w, b[i : i + 1], out[i : i + 1], beta, ta=ta, alone=True
                )
        outs.append(np.ascontiguousarray(out).view(np.uint8).tobytes())
    return outs


def test_edges_of_the_kernels_are_one_gemm_per_sample():
    rng = np.random.default_rng(0)
    for dtype, ta in itertools.product((np.float64, np.float32), (False, True)):
        for o, k, cols in itertools.product(SIZES, SIZES, SIZES):
            beta = 0.0 if ta else 1.0
            got, want = _both(rng, dtype, ta, 3, o, k, cols, beta)
            assert got == want, (dtype, ta, o, k, cols)


def test_random_shapes_are_one_gemm_per_sample():
    rng = np.random.default_rng(1)
    for i in range(300):
        dtype = (np.float64, np.float32)[i % 2]
        ta = i % 4 >= 2
        n = int(rng.integers(2, 12))
        o, k = int(rng.integers(1, 70)), int(rng.integers(1, 300))
        cols = int(rng.integers(1, 40) if rng.random() < 0.5 else rng.integers(40, 1500))
        beta = float(rng.choice([0.0, 1.0]))
        got, want = _both(rng, dtype, ta, n, o, k, cols, beta)
        assert got == want, (dtype, ta, n, o, k, cols, beta)


def _accumulated(rng, dtype, n, o, k, cols, alone=True):
    """(the weight gradient's gemms, grad_output[n] @ columns[n].T added one after the
    other into one output, made by one gemm_frames call (one batch call of one group
    whose every output is that one; not alone: one per thread's part) and by one call per
    sample (one gemm each; not alone: one per thread's part))."""
    gr = mkl.aligned(rng.standard_normal((n, o, cols)).astype(dtype))
    c = mkl.aligned(rng.standard_normal((n, k, cols)).astype(dtype))
    outs = []
    for batched in (True, False):
        acc = mkl.aligned_empty((1, o, k), dtype)
        acc[...] = 0
        if batched:
            assert conv_gemm.gemm_frames(gr, c, acc, 1.0, tb=True, alone=alone)
        else:
            for i in range(n):
                assert conv_gemm.gemm_frames(
                    gr[i : i + 1], c[i : i + 1], acc, 1.0, tb=True, alone=alone
                )
        outs.append(acc.view(np.uint8).tobytes())
    return outs


def test_accumulated_products_are_one_gemm_per_sample_in_order():
    rng = np.random.default_rng(2)
    for dtype in (np.float64, np.float32):
        for o, k, cols in itertools.product(SIZES, SIZES, SIZES):
            got, want = _accumulated(rng, dtype, 5, o, k, cols)
            assert got == want, (dtype, o, k, cols)
    for i in range(400):
        dtype = (np.float64, np.float32)[i % 2]
        n = int(rng.integers(2, 70))
        o, k = int(rng.integers(1, 70)), int(rng.integers(1, 300))
        cols = int(rng.integers(1, 40) if rng.random() < 0.5 else rng.integers(40, 1500))
        got, want = _accumulated(rng, dtype, n, o, k, cols)
        assert got == want, (dtype, n, o, k, cols)


def test_accumulated_products_shared_by_the_threads_are_one_gemm_per_sample_in_order():
    # on PyTorch's threads (not alone) each product is made as MKL's two threads share
    # it (gemm_threads.plan): each thread's part by one batch call over the samples
    rng = np.random.default_rng(3)
    shared = 0
    for dtype in (np.float64, np.float32):
        p = "d" if dtype == np.float64 else "s"
        for o, k, cols in itertools.product(SIZES + (50, 100, 120), SIZES, SIZES + (100,)):
            got, want = _accumulated(rng, dtype, 4, o, k, cols, alone=False)
            assert got == want, (dtype, o, k, cols)
            shared += gemm_threads.plan(p, k, o, cols, True, 1.0) not in ("as is", "alone")
    for i in range(300):
        dtype = (np.float64, np.float32)[i % 2]
        n = int(rng.integers(2, 40))
        o, k = int(rng.integers(1, 130)), int(rng.integers(1, 300))
        cols = int(rng.integers(1, 40) if rng.random() < 0.5 else rng.integers(40, 1500))
        got, want = _accumulated(rng, dtype, n, o, k, cols, alone=False)
        assert got == want, (dtype, n, o, k, cols)
    assert shared > 100  # (the threads' parts are what this compares)
