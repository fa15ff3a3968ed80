"""Batched matrix products as PyTorch 2.13 computes them on the CPU: `torch.bmm` and
`torch.matmul` with an operand of 3 or more dims (ATen/native/LinearAlgebra.cpp
`bmm_out_or_baddbmm_`, `_matmul_impl`), and their gradients in the order of the ops
PyTorch records for them.

* bmm: with k * n * p < 400 (k the contracted size, n x p the result's items) its own
  loop, `acc = 0; acc += a[i, k] * b[k, j]` for each k in order, a product rounded
  before each addition (no fused multiply-add); else, for float32/float64 operands whose
  items are row-major or transposed, MKL (`mkl_batch.bmm`: gemm for one item, one
  `cblas_?gemm_batch` for more); else one `mm` per item.
* matmul folds an operand of 3+ dims into a matrix and takes one `mm` (or `mv`) when
  the other has at most 2 dims and needs a gradient, or is the second operand, or the
  first folds without a copy (`should_fold`); otherwise the batch dims are broadcast,
  both operands expanded and reshaped to 3-D and multiplied by bmm.
"""

from __future__ import annotations

import math

import numpy as np

from .. import mkl, mkl_batch
from ..mkl import col_major, torch_mm
from ..mkl_vectors import torch_mv


def _items_ok(x):
    """batch_items_contiguous_or_transposed (strides in elements)."""
    isz = x.itemsize
    if any(s % isz for s in x.strides):
        return False
    s = [v // isz for v in x.strides]
    n = x.shape
    return (s[2] == 1 and (n[1] == 1 or s[1] >= n[2])) or (
        s[1] == 1 and (n[2] == 1 or s[2] >= n[1])
    )


def _small(a, b):
    acc = np.zeros((a.shape[0], a.shape[1], b.shape[2]), np.result_type(a, b))
    with np.errstate(all="ignore"):
        for k in range(a.shape[2]):
            acc = acc + a[:, :, k, None] * b[:, None, k, :]
    return acc


def torch_bmm(a, b):
    """a @ b for 3-D arrays (one batch size) as torch.bmm computes it."""
    bs, n, k = a.shape
    p = b.shape[2]
    dt = np.result_type(a, b)
    if not bs * n * p:
        return np.zeros((bs, n, p), dt)
    if not k:
        return np.zeros((bs, n, p), dt)
    if dt.char not in "fd" or a.dtype != b.dtype:
        return np.matmul(a, b)
    if k * n * p < 400:
        return _small(a, b)
    if mkl.available() and _items_ok(a) and _items_ok(b):
        r = mkl_batch.bmm(a, b)
        if r is not None:
            return r
    return np.stack([torch_mm(a[i], b[i]) for i in range(bs)])


def should_fold(a, b, grad_a, grad_b):
    """_matmul_impl's should_fold (without out=): a and b arrays, grad_x whether that
    operand requires grad."""
    larger = a.ndim >= b.ndim
    t1 = a if larger else np.swapaxes(b, -1, -2)
    small_dim = b.ndim if larger else a.ndim
    if not (t1.ndim >= 3 and small_dim <= 2):
        return False
    if grad_b if larger else grad_a:
        return True
    if a.ndim == 2:
        return False
    if not t1.size:
        return True
    sh, st = t1.shape, t1.strides
    return all(st[i] == st[i + 1] * sh[i + 1] for i in range(t1.ndim - 2))


def _shapes(a, b):
    na, nb = a.ndim, b.ndim
    n = a.shape[-2] if na > 1 else 1
    m1 = a.shape[-1]
    m2 = b.shape[-2] if nb > 1 else b.shape[0]
    p = b.shape[-1] if nb > 1 else 1
    batch = tuple(np.broadcast_shapes(a.shape[: max(na - 2, 0)], b.shape[: max(nb - 2, 0)]))
    return n, m1, m2, p, batch


def _expanded(a, b):
    """matmul's operands expanded and reshaped to 3-D (views where PyTorch's are)."""
    n, m1, m2, p, batch = _shapes(a, b)
    bp = math.prod(batch)
    a3 = np.broadcast_to(a, batch + (n, m1)).reshape(bp, n, m1)
    if b.ndim == 1:
        b3 = np.broadcast_to(b, batch + (m2,)).reshape(bp, m2)[:, :, None]
    else:
        b3 = np.broadcast_to(b, batch + (m2, p)).reshape(bp, m2, p)
    out = batch + ((n,) if a.ndim > 1 else ()) + ((p,) if b.ndim > 1 else ())
    return a3, b3, out


def _fold_parts(a, b):
    """(t1 folded to a matrix, t2, transposed?) of the folded product."""
    if a.ndim >= b.ndim:
        return a.reshape(-1, a.shape[-1]), b, False
    t1 = np.swapaxes(b, -1, -2)
    return t1.reshape(-1, t1.shape[-1]), (a.T if a.ndim == 2 else a), True


def matmul_nd(a, b, fold):
    """torch.matmul(a, b) where one operand has 3 or more dims."""
    if fold:
        t1f, t2, tr = _fold_parts(a, b)
        t1 = np.swapaxes(b, -1, -2) if tr else a
        if t2.ndim == 2:
            out = torch_mm(t1f, t2).reshape(t1.shape[:-1] + (t2.shape[1],))
            return np.ascontiguousarray(np.swapaxes(out, -1, -2)) if tr else out
        return torch_mv(t1f, t2).reshape(t1.shape[:-1])
    a3, b3, out = _expanded(a, b)
    return torch_bmm(a3, b3).reshape(out)


def _mm_grads(g, a, b, need_a, need_b):
    """MmBackward0: mm_mat1_backward / mm_mat2_backward, each product in the layout of
    the operand it is for."""
    ga = gb = None
    if need_a:
        ga = torch_mm(b, g.T).T if col_major(a) else torch_mm(g, b.T)
    if need_b:
        gb = torch_mm(g.T, a).T if col_major(b) else torch_mm(a.T, g)
    return ga, gb


def matmul_nd_grads(g, a, b, fold, need_a, need_b, sum_to):
    """The gradients of matmul_nd(a, b, fold) as PyTorch's recorded ops give them
    (sum_to: the engine's, for the broadcast batch dims)."""
    if fold:
        t1f, t2, tr = _fold_parts(a, b)
        if tr:
            g = np.swapaxes(g, -1, -2) if t2.ndim == 2 else g
        g2 = g.reshape(t1f.shape[0], -1) if t2.ndim == 2 else g.reshape(-1)
        need1, need2 = (need_b, need_a) if tr else (need_a, need_b)
        if t2.ndim == 2:
            g1, g2_ = _mm_grads(g2, t1f, t2, need1, need2)
        else:
            g1 = np.multiply.outer(g2, t2) if need1 else None  # grad.ger(vec)
            g2_ = torch_mv(t1f.T, g2) if need2 else None
        if tr:
            gb = np.swapaxes(g1.reshape(np.swapaxes(b, -1, -2).shape), -1, -2) if need_b else None
            ga = (g2_.T if a.ndim == 2 else g2_) if need_a else None
        else:
            ga = g1.reshape(a.shape) if need_a else None
            gb = g2_ if need_b else None
        return ga, gb
    a3, b3, out = _expanded(a, b)
    g3 = np.ascontiguousarray(g).reshape(a3.shape[0], a3.shape[1], b3.shape[2])
    ga = gb = None
    n, m1, m2, p, batch = _shapes(a, b)
    if need_a:
        ga3 = torch_bmm(g3, np.swapaxes(b3, 1, 2))
        ga = sum_to(ga3.reshape(batch + (n, m1)), a.shape)
    if need_b:
        gb3 = torch_bmm(np.swapaxes(a3, 1, 2), g3)
        if b.ndim == 1:
            gb = sum_to(gb3.reshape(batch + (m2,)), b.shape)
        else:
            gb = sum_to(gb3.reshape(batch + (m2, p)), b.shape)
    return ga, gb
