"""torch.bmm's batched product through MKL (`bmm`: gemm for one item, one
cblas_?gemm_batch over the items otherwise), beside numerics/mkl.py's single products."""

from __future__ import annotations

import ctypes

import numpy as np

from .mkl import (
    _COL,
    _NO,
    _TR,
    FNS,
    _aligned,
    _alone,
    _copy_aligned,
    _empty,
    _kind,
    _placed,
    _state,
    address,
    lib,
    mm,
    threads,
)


def _in_place(x, one, s1, s2):
    """_batch_operand of a batch whose items are row-major or transposed but not one
    block (views such as the heads of attention's (len, batch * heads, head_dim)
    projections): passed where they lie, each item's leading dimension and the batch
    stride from the strides, as baddbmm_with_gemm_ passes them (the transposed reading
    first); None when they do not lie as PyTorch's storage would."""
    item, step = x.itemsize, 0 if one else x.strides[0]
    if step < 0 or step % item or s1 % item or s2 % item:
        return None
    rows, cols = x.shape[-2:]
    at = address(x)
    if not _placed(x, at):
        return None
    if s1 == item and s2 >= item * rows:
        return x, at, True, s2 // item, step
    if s2 == item and (rows == 1 or s1 >= item * cols):
        return x, at, False, s1 // item, step
    return None


def _batch_operand(x):
    """(address, transposed?, leading dimension, batch stride in bytes) of a 3-D operand
    of torch.bmm as PyTorch passes it to gemm: a batch of row-major items, or of
    transposed ones (a transposed view, passed with the transpose flag), or one item
    broadcast over the batch (stride 0), or items of either kind that are not one block
    (_in_place); anything else copied to row-major."""
    one = x.strides[0] == 0 or x.shape[0] == 1
    base = x[0] if one else x
    swapped = np.swapaxes(base, -1, -2)
    # baddbmm_with_gemm_'s is_transposed (strides (1, >= rows)) first: an item of one
    # column or row is C-contiguous to NumPy whichever way it lies
    item, (s1, s2) = x.itemsize, base.strides[-2:]
    if s1 == item and s2 >= item * base.shape[-2] and swapped.flags.c_contiguous:
        (arr, at), tr = _aligned(swapped), True
    elif base.flags.c_contiguous:
        (arr, at), tr = _aligned(base), False
    elif swapped.flags.c_contiguous:
        (arr, at), tr = _aligned(swapped), True
    elif (lies := _in_place(x, one, s1, s2)) is not None:
        return lies
    else:
        (arr, at), tr = _copy_aligned(np.ascontiguousarray(base)), False
    ld = arr.shape[-1]
    return arr, at, tr, ld, 0 if one else arr[0].nbytes


def bmm(a, b, c=None, alpha=1.0, beta=0.0):
    """a @ b for 3-D float arrays of one dtype as PyTorch's bmm computes it on MKL's
    path (baddbmm_with_gemm_ -> cpublas::gemm_batched_with_stride): gemm for one item,
    else one cblas_?gemm_batch (column-major, one group) over pointers to the items;
    with c (the product's shape), torch.baddbmm's `beta * c + alpha * (a @ b)` in the same
    calls; None when MKL cannot."""
    p = _kind(a)
    if p is None or b.dtype != a.dtype or max(a.shape + b.shape) >= 2**31 or lib() is None:
        return None
    bs, rows, k = a.shape
    cols = b.shape[2]
    if bs == 1:
        if c is not None:
            return mm(a[0], b[0], c[0], alpha, beta, by_rows=True)[None]
        return mm(a[0], b[0], by_rows=True)[None]
    A, a_at, ta, lda, sa = _batch_operand(a)
    B, b_at, tb, ldb, sb = _batch_operand(b)
    out, out_at = _empty((bs, rows, cols), a.dtype)
    if c is not None:
        out[...] = c
    ldc = cols
    # row-major C = A B is column-major C^T = B^T A^T: gemm's (m, n, k) = (cols, rows, k),
    # its first operand b; internal::normalize_last_dims for the degenerate sizes
    if rows == 1:
        ldc = cols
    if tb:
        lda_ = k if cols == 1 else ldb
    else:
        lda_ = cols if k == 1 else ldb
    if ta:
        ldb_ = rows if k == 1 else lda
    else:
        ldb_ = k if rows == 1 else lda
    ptrs = [
        (ctypes.c_void_p * bs)(*[at + i * s for i in range(bs)])
        for at, s in ((b_at, sb), (a_at, sa), (out_at, out[0].nbytes))
    ]
    ints = (_TR if tb else _NO, _TR if ta else _NO, cols, rows, k, lda_, ldb_, ldc, bs)
    args, _held = _one_group(_COL, p, ints, alpha, beta if c is not None else 0.0, ptrs)
    # MKL's batch gives the same bits on one thread as on two (each product is one
    # thread's; checked on 2,400 batches, docs/developer/numerics.md)
    if _state["solo"]:
        _alone(FNS[f"cblas_{p}gemm_batch"], args)
    else:
        threads()
        FNS[f"cblas_{p}gemm_batch"](*args)
    return out


def gemm_accumulate(p, args, n, sa, sb):
    """The column-major gemms `args` (cblas_?gemm's arguments: first operand, its
    leading dimension, second operand, ..., C) made n times in order, the operands
    moving by sa and sb bytes each time and every product added (beta 1) into the one
    C: one cblas_?gemm_batch call of one group on one thread (the caller
    has set it), whose products MKL computes one after the other in order, with the bits
    of the separate calls (compared on thousands of shapes of both dtypes,
    tests/numerics/test_conv_gemm.py); it saves a ctypes call per product."""
    order, ta, tb, m, nn, k, alpha, b_at, ldb, a_at, lda, beta, c_at, ldc = args
    key = (p, order, ta, tb, m, nn, k, alpha, ldb, lda, beta, ldc, n, sa, sb)
    call = _calls.get(key)
    if call is None:
        call = _calls[key] = _accumulate_call(key)
    steps, ptrs, group, _ = call
    np.add(steps[0], b_at, out=ptrs[0])
    np.add(steps[1], a_at, out=ptrs[1])
    ptrs[2] = c_at
    FNS[f"cblas_{p}gemm_batch"](*group)


#: gemm_accumulate's calls by their sizes: the steps of the operands' addresses, the
#: addresses' buffer and the group's arguments (the same every step of a loop)
_calls: dict = {}


def _accumulate_call(key):
    """(the operands' offsets (2, n), the buffer of the addresses (3, n), cblas_?gemm_batch's
    arguments pointing into NumPy buffers of the group's ints and scalars and into the
    addresses' buffer (cheaper than ctypes arrays), those buffers)."""
    p, order, ta, tb, m, nn, k, alpha, ldb, lda, beta, ldc, n, sa, sb = key
    if len(_calls) >= 32:
        _calls.clear()
    steps = np.arange(n, dtype=np.uint64)
    offsets = np.stack((steps * np.uint64(sb), steps * np.uint64(sa)))
    ptrs = np.empty((3, n), np.uint64)
    ints = np.array((ta, tb, m, nn, k, ldb, lda, ldc, n), np.int32)
    scalars = np.array((alpha, beta), np.float32 if p == "s" else np.float64)
    i, f, q = address(ints), address(scalars), address(ptrs)
    w, z = scalars.itemsize, n * 8
    group = (order, i, i + 4, i + 8, i + 12, i + 16, f, q, i + 20, q + z, i + 24, f + w)
    group += (q + 2 * z, i + 28, 1, i + 32)
    return offsets, ptrs, group, (ints, scalars)  # (kept alive with the group)


def _one_group(order, p, ints, alpha, beta, ptrs):
    """cblas_?gemm_batch's arguments for one group of products: ints its (transa,
    transb, m, n, k, lda, ldb, ldc, group size), alpha and beta its scalars, ptrs the
    arrays of the first operands', second operands' and outputs' addresses; with the
    ctypes cells they point to, which the caller holds until the call returns."""
    real = ctypes.c_float if p == "s" else ctypes.c_double
    cells = [(ctypes.c_int * 1)(v) for v in ints]
    scalars = (real * 1)(alpha), (real * 1)(beta)
    ad = ctypes.addressof
    i = [ad(c) for c in cells]
    args = (order, i[0], i[1], i[2], i[3], i[4], ad(scalars[0]), ad(ptrs[0]), i[5])
    args += (ad(ptrs[1]), i[6], ad(scalars[1]), ad(ptrs[2]), i[7], 1, i[8])
    return args, (cells, scalars, ptrs)
