"""`torch.baddbmm` and `torch.addbmm` as PyTorch 2.13 computes them on the CPU
(ATen/native/LinearAlgebra.cpp).

* baddbmm, `beta * input + alpha * (batch1 @ batch2)`, input expanded and copied into the
  result: with k * n * p < 400 (k the contracted size, n x p an item of the result) ATen's
  own loop (`baddbmm_cpu_kernel`: the product summed in order from 0, each term rounded,
  then `r * beta + alpha * sum`, or `alpha * sum` when beta is 0); else, for float operands
  whose items are row-major or transposed, MKL's batched gemm with alpha and beta over
  the result (`mkl_batch.bmm`); else one addmm per item.
* addbmm, `beta * input + alpha * sum_i batch1[i] @ batch2[i]`: input expanded and copied,
  then one addmm per item into the result, beta for the first and 1 after
  (`addbmm_impl_`); with no item, `beta * input` (zeros when beta is 0).
"""

from __future__ import annotations

import numpy as np

from .. import mkl, mkl_batch
from ..mkl import torch_addmm
from .bmm import _items_ok


def _small(c, a, b, beta, alpha, dt):
    acc = np.zeros(c.shape, dt)
    with np.errstate(all="ignore"):
        for k in range(a.shape[2]):
            acc = acc + a[:, :, k, None] * b[:, None, k, :]
        acc = acc * dt.type(alpha)
        if beta == 0:
            return acc
        return c * dt.type(beta) + acc


def torch_baddbmm(c, a, b, beta, alpha):
    """beta * c + alpha * (a @ b) for 3-D a and b of one float dtype, c broadcast to the
    product, as torch.baddbmm computes it."""
    bs, n, k = a.shape
    p = b.shape[2]
    dt = a.dtype
    c = np.broadcast_to(c, (bs, n, p))
    if not bs * n * p:
        return np.zeros((bs, n, p), dt)
    if not k:  # (ATen: the result scaled by beta, or zeros)
        return np.zeros((bs, n, p), dt) if beta == 0 else (c * dt.type(beta)).astype(dt)
    if k * n * p < 400 or dt.char not in "fd":
        return _small(c, a, b, beta, alpha, dt).astype(dt, copy=False)
    if mkl.available() and _items_ok(a) and _items_ok(b):
        r = mkl_batch.bmm(a, b, np.ascontiguousarray(c), float(alpha), float(beta))
        if r is not None:
            return r
    return np.stack([torch_addmm(c[i], a[i], b[i], alpha, beta) for i in range(bs)])


def torch_addbmm(c, a, b, beta, alpha):
    """beta * c + alpha * sum over i of a[i] @ b[i], c broadcast to (n, p), as
    torch.addbmm computes it."""
    bs, n, _ = a.shape
    p = b.shape[2]
    dt = a.dtype
    out = np.array(np.broadcast_to(c, (n, p)), dt)
    if not bs:
        return np.zeros((n, p), dt) if beta == 0 else (out * dt.type(beta)).astype(dt)
    be = beta
    for i in range(bs):
        out = np.asarray(torch_addmm(out, a[i], b[i], alpha, be), dt)
        be = 1
    return out
