"""Sums over a set of axes in PyTorch's order where gradcli knows it (the sum op's
forward, and the VJPs' sum on plain arrays, so that a gradient is the same number with
and without create_graph)."""

from __future__ import annotations

import numpy as np

from .sum_dims import dim_sums
from .summation import inner_sums, outer_sum, torch_sum


def sum_axes(x, ax, keepdim, acc):
    """x summed over the axes `ax` (None: all) in PyTorch's order where gradcli knows it:
    whole sums, sums over leading dims, and over one dim with only size-1 dims after it."""
    if ax is None and not keepdim and acc == x.dtype and acc.kind == "f":
        return np.asarray(torch_sum(x), dtype=acc)  # PyTorch's order, bit for bit
    if ax is not None and len(ax) == x.ndim and acc == x.dtype and acc.kind == "f":
        out = np.asarray(torch_sum(x), dtype=acc)  # every dim named: the same
        return out.reshape((1,) * x.ndim) if keepdim else out
    if (
        ax
        and acc == x.dtype
        and acc.kind == "f"
        and x.flags.c_contiguous
        and all(n == 1 for i, n in enumerate(x.shape) if i not in ax)
    ):
        # the dims kept are all of size 1 (a column's sum): PyTorch drops them, a whole sum
        out = np.asarray(torch_sum(x), dtype=acc)
        return out.reshape(tuple(1 for i in range(x.ndim) if keepdim or i not in ax))
    if (
        ax
        and acc == x.dtype
        and acc.kind == "f"
        and x.flags.c_contiguous
        and x.size
        and tuple(ax) == tuple(range(len(ax)))
        and len(ax) < x.ndim
    ):
        # over leading dims: PyTorch's outer-reduction order
        lead = x.shape[: len(ax)]
        out = outer_sum(x.reshape(int(np.prod(lead)), -1)).reshape(x.shape[len(ax) :])
        return out.reshape((1,) * len(ax) + out.shape) if keepdim else out
    if last_dim_sums(x, ax, acc):
        return last_dim_sum(x, ax, keepdim)
    if ax and acc == x.dtype:
        out = dim_sums(x, ax)  # any other dims: PyTorch's order (numerics/sums/sum_dims)
        if out is not None:
            return (
                out.reshape(tuple(1 if i in ax else n for i, n in enumerate(x.shape)))
                if keepdim
                else out
            )
    return np.asarray(np.sum(x, axis=ax, keepdims=keepdim, dtype=acc))


def last_dim_sums(x, ax, acc):
    """Whether a sum over `ax` is over one dim of a contiguous float array with only
    size-1 dims after it, which PyTorch adds row by row in its inner-reduction order
    (summation.inner_sums)."""
    return (
        acc == x.dtype
        and acc.kind == "f"
        and ax is not None
        and len(ax) == 1
        and x.ndim > 1
        and x.flags.c_contiguous
        and all(n == 1 for n in x.shape[ax[0] + 1 :])
    )


def last_dim_sum(x, ax, keepdim):
    """x summed over its one axis in `ax` (last_dim_sums says when), row by row."""
    d = ax[0]
    out = inner_sums(x.reshape(-1, x.shape[d]))
    shape = x.shape[:d] + ((1,) if keepdim else ()) + x.shape[d + 1 :]
    return out.reshape(shape)
