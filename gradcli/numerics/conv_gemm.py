"""PyTorch's float64 convolution (and its float32 one where it does not send it to oneDNN):
slow_conv2d and slow_conv_dilated2d, whose products are MKL's gemm, one per sample (and
group), on the im2col columns of that sample.

* forward: per sample the output starts as the bias (as zeros in the dilated one,
  without a bias) and gemm adds weight @ columns to it (beta 1), so the bias is inside
  each sum, not added after;
* the columns' gradient (before col2im): weight.T @ grad_output per sample (the weight
  passed transposed);
* the weight's gradient: gemm adds grad_output @ columns.T of one sample after another
  into the gradient (beta 1, from zeros).

slow_conv2d runs the forward's and the columns' gradient's gemms inside at::parallel_for
for a batch of two or more on more than one thread, so each on one thread
(`frames_alone`).  Those are made here by one call of MKL's cblas_?gemm_batch_strided on
one thread: the same gemms, the same bits (compared with one gemm per sample on tens of
thousands of shapes of both dtypes, tests/numerics/test_conv_gemm.py), but for a sample's
output of one column (its one output position), which the batch computes with other
kernels, made one gemm at a time.  The weight's gradient adds each sample's product into
the last one's, one gemm after another: where each is one thread's, one cblas_?gemm_batch
call of one group on one thread whose every output is the gradient makes them in order with
the same bits (`mkl_batch.gemm_accumulate`), but for an output of one row or column."""

from __future__ import annotations

import numpy as np

from . import mkl, mkl_batch
from .gemm_threads import ALONE, AS_IS, plan as _plan
from .mkl import FNS, address
from .parallel import THREADS

_NO, _TR, _COL = mkl._NO, mkl._TR, mkl._COL


def frames_empty(shape, dtype):
    """An uninitialised 3-D array whose every frame [n] is C-contiguous and starts on a
    64-byte boundary (a fresh PyTorch buffer for each: MKL's results depend on where
    a matrix lies), the frames padded apart to that."""
    dtype = np.dtype(dtype)
    n, rows, cols = shape
    per = -(-rows * cols * dtype.itemsize // mkl._ALIGN) * mkl._ALIGN // dtype.itemsize
    buf = mkl.aligned_empty((n, per), dtype)
    return buf[:, : rows * cols].reshape(shape)


def frames_aligned(a):
    """a 3-D array copied into frames_empty's layout."""
    out = frames_empty(a.shape, a.dtype)
    out[...] = a
    return out


def gemm_frames(a, b, out, beta, ta=False, tb=False, alone=False):
    """out[n] = a[n] @ b[n] + beta * out[n] for n in order, one gemm each, as PyTorch's
    per-sample loops (slow_conv2d) call it on slices of one buffer: a, b and out 3-D
    arrays of one float dtype whose frames are C-contiguous; a first dim of length 1 or
    stride 0 is one matrix for every frame (an output so is accumulated: each gemm adds
    onto the one before); with ta (tb) a[n] (b[n]) holds its matrix transposed.
    alone: each gemm on one thread, as MKL computes a call made inside one of
    at::parallel_for's threads (its results differ from a call with two threads for
    some shapes), all of them by one batch call where that gives the same bits; else on
    PyTorch's threads.  False when MKL cannot (nothing computed)."""
    p = mkl._kind(out)
    if p is None or a.dtype != out.dtype or b.dtype != out.dtype or mkl.lib() is None:
        return False
    N = max(a.shape[0], b.shape[0], out.shape[0])
    _, rows, cols = out.shape
    k = a.shape[1] if ta else a.shape[2]
    if max(a.shape + b.shape + out.shape) >= 2**31 or not out.flags.writeable and out.strides[0]:
        return False
    frames = []
    for x in (a, b, out):
        if not x[0].flags.c_contiguous:
            return False
        frames.append((address(x), 0 if x.shape[0] == 1 else x.strides[0]))
    if not (N and rows and cols and k):
        return False
    (a_at, sa), (b_at, sb), (o_at, so) = frames
    # row-major C = A B is column-major C^T = B^T A^T
    first, second = (_TR if tb else _NO), (_TR if ta else _NO)
    ldb, lda, ldc = max(1, b.shape[2]), max(1, a.shape[2]), max(1, cols)
    plan = ALONE if alone else AS_IS
    if not alone and mkl._state["gemm"]:
        plan = _plan(p, cols, rows, k, tb, beta)  # the two threads' bits on one
    if plan is not AS_IS and plan is not ALONE:
        if not so and beta == 1 and N > 1 and min(sa, sb) > 0:
            args = (_COL, first, second, cols, rows, k, 1.0, b_at, ldb, a_at, lda, 1.0, o_at, ldc)
            _shared_accumulate(p, args, N, sb, sa, plan)
            return True
        for n in range(N):
            args = (_COL, first, second, cols, rows, k, 1.0)
            args += (b_at + n * sb, ldb, a_at + n * sa, lda, beta, o_at + n * so, ldc)
            mkl.shared(p, args, plan)
        return True
    if plan is ALONE and THREADS > 1:
        mkl.one_thread()
    else:
        mkl.threads()
    size = out.itemsize
    if plan is ALONE and N > 1 and so and cols > 1 and not (sa % size or sb % size or so % size):
        args = (_COL, first, second, cols, rows, k, 1.0, b_at, ldb, sb // size)
        args += (a_at, lda, sa // size, beta, o_at, ldc, so // size, N)
        FNS[f"cblas_{p}gemm_batch_strided"](*args)
        return True
    if plan is ALONE and N > 1 and not so and beta == 1 and min(rows, cols) > 1 and min(sa, sb) > 0:
        args = (_COL, first, second, cols, rows, k, 1.0, b_at, ldb, a_at, lda, 1.0, o_at, ldc)
        mkl_batch.gemm_accumulate(p, args, N, sa, sb)
        return True
    gemm = FNS[f"cblas_{p}gemm"]
    for n in range(N):
        args = (_COL, first, second, cols, rows, k, 1.0)
        gemm(*args, b_at + n * sb, ldb, a_at + n * sa, lda, beta, o_at + n * so, ldc)
    return True


def _shared_accumulate(p, args, n, s1, s2, at):
    """The column-major gemms `args` made n times in order, the first operand moving by s1
    bytes and the second by s2 each time, every product added (beta 1) into the one C, each
    as MKL's two threads share it at `at` (`mkl.shared`): a thread's part is a block of C
    of its own, which the products add into in turn, so each part's n products are made by
    one batch call in order (`mkl_batch.gemm_accumulate`: the bits of one gemm call each),
    the first part's and then the second's, instead of two gemm calls per product; a part
    of one row or column (`mkl._one_wide`) one product at a time."""
    order, t1, t2 = args[:3]
    ldc = args[-1]
    mkl.one_thread()
    for width, part in mkl.thread_parts(args, at, mkl._DTYPE[p].itemsize):
        if width > 1:
            mkl_batch.gemm_accumulate(p, (order, t1, t2, *part, ldc), n, s2, s1)
            continue
        for i in range(n):
            pm, pn, pk, pa, a_at, pla, b_at, plb, one, pc = part
            moved = (pm, pn, pk, pa, a_at + i * s1, pla, b_at + i * s2, plb, one, pc)
            mkl._one_wide(p, at[0], t1, t2, moved, ldc)


def frames_alone(n, dilated):
    """Whether slow_conv2d runs its per-sample gemms inside at::parallel_for (each gemm
    then on one thread): the forward's and the columns' gradient's, for a batch of two
    or more on more than one thread; slow_conv_dilated2d runs every gemm in a plain loop
    (on PyTorch's threads)."""
    return not dilated and n > 1 and THREADS > 1


def columns(cols, dilated):
    """One group's columns (N, K, L) where PyTorch's gemms read them: slow_conv2d's
    in one buffer of all the samples, slow_conv_dilated2d's in one buffer that each
    sample's are written to in turn (each frame on a 64-byte boundary); columns that
    already lie so (one group's in an aligned buffer of all the samples) are taken as
    they are."""
    if dilated:
        return frames_aligned(cols)
    return _on_boundary(cols)


def _on_boundary(a):
    """a C-contiguous on a 64-byte boundary, where a fresh buffer's copy of it would lie
    (MKL's results depend only on the contents and that placement): a itself where it lies
    so, else that copy."""
    if a.flags.c_contiguous and address(a) % mkl._ALIGN == 0:
        return a
    return mkl.aligned(a)


def forward(wg, cols, b, dilated):
    """The convolution (N, O, L) of the columns (N, G, K, L) by the weight (G, O/G, K),
    group by group in buffers of their own, the bias (O,) or None inside each sum; None
    without MKL."""
    N, G, K, L = cols.shape
    Og = wg.shape[1]
    alone = frames_alone(N, dilated)
    parts = []
    for g in range(G):
        out = mkl.aligned_empty((N, Og, L), wg.dtype)
        if b is not None:
            out[...] = b[g * Og : (g + 1) * Og, None]
        elif dilated:
            out[...] = 0
        w = _on_boundary(wg[g])[None]
        beta = 0.0 if b is None and not dilated else 1.0
        c = columns(cols[:, g], dilated)
        if not gemm_frames(w, c, out, beta, alone=alone):
            return None
        parts.append(out)
    return parts[0] if G == 1 else np.concatenate(parts, axis=1)


def columns_grad(wg, gr, dilated):
    """The columns' gradient (N, G, K, L) from grad_output (N, G, O/G, L), per sample
    (and group) by gemm, the weight passed transposed; None without MKL."""
    N, G, Og, L = gr.shape
    K = wg.shape[2]
    alone = frames_alone(N, dilated)
    out = np.empty((N, G, K, L), gr.dtype)
    for g in range(G):
        part = frames_empty((N, K, L), gr.dtype)  # (one buffer, reused per sample)
        w = _on_boundary(wg[g])[None]  # (its transpose: ta)
        if not gemm_frames(w, _on_boundary(gr[:, g]), part, 0.0, ta=True, alone=alone):
            return None
        out[:, g] = part
    return out


def weight_grad(gr, cols, dilated):
    """The weight's gradient (G, O/G, K): for each group, gemm adds grad_output @
    columns.T of one sample after another into it (beta 1, from zeros; a plain loop, on
    PyTorch's threads); None without MKL."""
    N, G, Og, L = gr.shape
    K = cols.shape[2]
    out = np.empty((G, Og, K), gr.dtype)
    for g in range(G):
        acc = mkl.aligned_empty((1, Og, K), gr.dtype)
        acc[...] = 0
        c = columns(cols[:, g], dilated)  # (each frame's transpose: tb)
        if not gemm_frames(_on_boundary(gr[:, g]), c, acc, 1.0, tb=True):
            return None
        out[g] = acc[0]
    return out
