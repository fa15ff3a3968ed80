"""nll_loss (and so cross_entropy) of an input with dims after the classes, (N, C, d1,
...): as PyTorch, a 4-D input goes to nll_loss2d (NllLoss2DBackward0) and any other
is viewed as (N, C, 1, -1) first (ViewBackward0 under it) and its unreduced loss viewed
back to (N, d1, ...).  The terms are summed in the kernel's order, sample by sample and
position by position, by the same cascade as the 1-D nll_loss."""

from __future__ import annotations

import numpy as np

from ..core.convert import tensor_arg
from ..core.tensor import Tensor
from ..engine.forward import linear
from ..numerics.sums.summation import nll_cascade
from ..runtime.errors import GradIndexError, GradRuntimeError
from .loss import NllLoss, _c
from .registry import FUNCTIONS, internal


class NllLoss2d(NllLoss):
    __slots__ = ()
    name = "NllLoss2DBackward0"
    jvp = linear  # (its target's classes and weights are parameters: one input)

    def formula(self, S, x, *_):
        """-x[b, target, h, w] * weight[target], per position, reduced as nll_loss."""
        n, _, h, w = self.shape
        picked = -S.obj(x)[self.index] * S.obj(self.coef)
        if self.reduction == "none":
            return picked.reshape(n, h, w)
        total = S.sum(picked)
        if self.reduction == "mean":
            total = total / S.number(self.wsum) if self.wsum else total * S.sp.nan
        return total

    def forward(self, x, cols, coef, keep, reduction="mean", weighted=False):
        n, _, h, w = x.shape
        self.reduction, self.shape = reduction, x.shape
        self.save(x)
        bb, hh, ww = np.meshgrid(np.arange(n), np.arange(h), np.arange(w), indexing="ij")
        self.index = (bb.reshape(-1), cols, hh.reshape(-1), ww.reshape(-1))
        picked = -x[self.index] * coef
        self.wsum = None
        if reduction == "none":
            self.coef = coef
            return picked.reshape(n, h, w)
        total, wsum = nll_cascade(picked, coef, keep, weighted)
        if reduction == "mean":
            if wsum:
                self.wsum = wsum
            else:
                coef = np.where(keep, np.nan, 0.0).astype(x.dtype)
            total = total / wsum if wsum else np.float64("nan").astype(x.dtype)
        self.coef = coef
        return np.asarray(total, dtype=x.dtype)

    def backward(self, g, F, x):
        n = self.coef.shape[0]
        if self.reduction == "none":
            g = F.reshape(g, (n,))
        else:
            if self.wsum is not None:
                g = g / (self._wsum(F))
            g = F.broadcast_to(g, (n,))
        return (F.pad_into(g * _c(F, -self.coef), self.shape, self.index),)

    def _wsum(self, F):
        return Tensor(self.wsum) if F.tensor_mode else self.wsum


@internal("nll_loss_nd")
def nll_loss_nd(x, target, weight, ignore_index, reduction):
    """nll_loss of a (N, C, d1, ...) input (x a float tensor of 3 or more dims)."""
    t = tensor_arg(target)
    if t.data.dtype.kind not in "iu":
        raise GradRuntimeError(f"expected target dtype to be Long, but got {t.data.dtype}")
    shape = x.data.shape
    n, c = shape[:2]
    if t.data.shape != (n,) + shape[2:]:
        raise GradRuntimeError(
            f"Expected target size {list((n,) + shape[2:])}, got {list(t.data.shape)}"
        )
    x4 = x if x.data.ndim == 4 else FUNCTIONS["view"](x, (n, c, 1, -1))
    cols = t.data.reshape(-1).astype(np.int64)
    keep = cols != ignore_index
    bad = keep & ((cols < 0) | (cols >= c))
    if bad.any():
        raise GradIndexError(f"Target {int(cols[bad][0])} is out of bounds.")
    w = np.ones(c, x.data.dtype) if weight is None else tensor_arg(weight).data.astype(x.data.dtype)
    safe = np.where(keep, cols, 0)
    coef = np.where(keep, w[safe], 0).astype(x.data.dtype)
    out = NllLoss2d.apply(
        x4, cols=safe, coef=coef, keep=keep, reduction=reduction, weighted=weight is not None
    )
    if reduction == "none" and x.data.ndim != 4:
        out = FUNCTIONS["view"](out, (n,) + shape[2:])
    return out
