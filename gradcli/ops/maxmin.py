"""max and min (of all elements, or along a dim with their indices), argmax, argmin."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.declare import none
from ..engine.saved import saved_shown
from ..engine.function import FUNCTIONS, Untracked
from ..core.convert import tensor_arg
from ..runtime.errors import GradIndexError, GradRuntimeError
from ..runtime.limits import check_reduction
from ..core.tensor import Tensor
from .registry import register
from .clamp_where import maximum, minimum
from .dims import norm_dims
from .return_types import ValuesIndices
from .reduce import M, _Reduce, expand_back, saved_keepdim, saved_sizes


class MaxAll(_Reduce):
    """max/min of all elements: ties share the gradient evenly."""

    def formula(self, S, x):
        """The mean of the elements equal to the result (one, but for ties): a named
        function with its local Jacobian, while the graph holds x."""
        if not self.saved:
            raise S.Unsupported("x was freed")
        xd, od = self.saved
        mask = np.isnan(xd) if np.isnan(od) else xd == od
        picked = S.obj(x)[mask]
        return S.named(S.obj(sum(picked.tolist(), S.number(0)) / int(mask.sum())))

    __slots__ = ()
    name = "MaxBackward1"
    saved_names = ("self", "result")
    pick = staticmethod(np.max)

    def forward(self, x):
        if x.size == 0:
            raise GradRuntimeError(
                f"{self.name[:3].lower()}(): Expected reduction dim to be specified for "
                "input.numel() == 0. Specify the reduction dim with the 'dim' argument."
            )
        self.setup(x, None, False)
        out = np.asarray(self.pick(x))
        self.save(x, out)
        return out

    def backward(self, g, F, x, out):
        xd, od = (x.data, out.data) if F.tensor_mode else (x, out)
        mask = np.isnan(xd) if np.isnan(od) else xd == od  # a nan result: the nans share
        if F.tensor_mode:  # PyTorch's evenly_distribute_backward: zeros.masked_fill_(mask,
            # grad / mask.sum()), a gradient of MaskedFillBackward1
            share = g / Tensor(np.asarray(mask.sum(), dtype=np.int64))
            zeros = Tensor(np.zeros(self.shape, dtype=g.data.dtype))
            return (FUNCTIONS["masked_fill"](zeros, Tensor(mask), share),)
        return (F.where(mask, F.broadcast_to(g / mask.sum(), self.shape), 0.0),)


class MinAll(MaxAll):
    __slots__ = ()
    name = "MinBackward1"
    pick = staticmethod(np.min)


class MaxDim(_Reduce):
    """max/min along a dim: the gradient goes to the index returned."""

    def formula(self, S, x, *_):
        """The element at the index returned: a named function with its local Jacobian."""
        x = S.obj(x)
        if x.ndim == 0:
            return S.named(x)
        (axis,) = self.axes
        idx = np.expand_dims(np.argmax(self.onehot, axis=axis), axis)
        out = np.take_along_axis(x, idx, axis)
        return S.named(out if self.keepdim else np.squeeze(out, axis))

    __slots__ = ("onehot", "dim")
    name = "MaxBackward0"
    holds_saved = True  # (its indices: a second backward fails, as in PyTorch)
    # its indices are its saved value (packed by saved-tensor hooks); dim as given
    saved_names = ("indices",)
    saved_extra = {
        "dim": saved_shown("dim"),
        "keepdim": saved_keepdim,
        "self_sym_sizes": saved_sizes,
    }
    arg = staticmethod(np.argmax)

    def forward(self, x, dim, keepdim):
        (axis,) = self.setup(x, dim, keepdim) or (None,)
        self.dim = dim
        if x.ndim == 0:
            self.onehot = np.ones((), dtype=bool)
            self.save(np.zeros((), np.int64))
            return x.copy()
        idx = np.expand_dims(self.arg(x, axis=axis), axis)
        self.save((idx if keepdim else np.squeeze(idx, axis)).astype(np.int64))
        shp = [1] * x.ndim
        shp[axis] = x.shape[axis]
        self.onehot = np.arange(x.shape[axis]).reshape(shp) == idx
        out = np.take_along_axis(x, idx, axis)
        return out if keepdim else np.squeeze(out, axis)

    def backward(self, g, F, *_):
        if F.tensor_mode and self.axes:
            # PyTorch's value_selecting_reduction_backward: zeros.scatter(dim, indices, grad)
            (axis,) = self.axes
            idx = Tensor(np.expand_dims(np.argmax(self.onehot, axis=axis), axis).astype(np.int64))
            if not self.keepdim:
                g = FUNCTIONS["unsqueeze"](g, axis)
            zeros = Tensor(np.zeros(self.shape, g.data.dtype))
            return (FUNCTIONS["scatter"](zeros, axis, idx, g),)
        return (F.where(self.onehot, expand_back(g, F, self.shape, self.axes, self.keepdim), 0.0),)


class MinDim(MaxDim):
    __slots__ = ()
    name = "MinBackward0"
    arg = staticmethod(np.argmin)


def _maxmin(kind, whole, bydim, pairwise, input, dim=None, keepdim=False):
    if dim is not None and isinstance(dim, Tensor):
        return pairwise(input, dim)
    x = tensor_arg(input)
    if not x.data.size:
        check_reduction(x.data.shape, dim)
    if dim is None:
        return whole.apply(x)
    if not x.data.size and x.data.ndim:
        (axis,) = norm_dims(dim, x.data.ndim)
        if x.data.shape[axis] == 0:
            raise GradIndexError(f"{kind}(): Expected reduction dim {axis} to have non-zero size.")
    node_cls = bydim
    vals = node_cls.apply(x, dim=dim, keepdim=keepdim)
    # indices come from the same forward; recompute cheaply for the result
    axis = norm_dims(dim, x.data.ndim)
    if x.data.ndim == 0:
        idx = np.zeros((), dtype=np.int64)
    else:
        idx = (np.argmax if kind == "max" else np.argmin)(x.data, axis=axis[0], keepdims=keepdim)
    return ValuesIndices(vals, Tensor(np.asarray(idx, dtype=np.int64)), kind)


@register(
    "max",
    "max(input, dim=None, keepdim=False)",
    "largest element; with dim, (values, indices); max(a, b) of two tensors is maximum",
    method=True,
    checks=[((M,), {}), ((M,), {"dim": 1})],
    category="reduce",
    batch="max",
    inplace=None,
    pure=False,
    parser=None,
)
def max_(input, dim=None, keepdim=False):
    return _maxmin("max", MaxAll, MaxDim, maximum, input, dim, keepdim)


@register(
    "min",
    "min(input, dim=None, keepdim=False)",
    "smallest element; with dim, (values, indices); min(a, b) of two tensors is minimum",
    method=True,
    checks=[((M,), {}), ((M,), {"dim": 0})],
    category="reduce",
    batch="min",
    inplace=None,
    pure=False,
    parser=None,
)
def min_(input, dim=None, keepdim=False):
    return _maxmin("min", MinAll, MinDim, minimum, input, dim, keepdim)


class _Arg(Untracked):
    """argmax / argmin: the index of the largest / smallest element, an int64 tensor."""

    __slots__ = ()
    np_fn: Any = None

    def forward(self, x, dim=None, keepdim=False):
        np_fn = self.np_fn
        axis = None if dim is None else (norm_dims(dim, x.ndim) or (0,))[0]
        if x.size == 0 and (axis is None or x.ndim and x.shape[axis] == 0):
            raise GradIndexError(
                f"{np_fn.__name__}(): Expected reduction dim "
                + (
                    "to be specified for input.numel() == 0."
                    if axis is None
                    else f"{axis} to have non-zero size."
                )
            )
        if dim is None:
            r = np.asarray(np_fn(x.reshape(-1)), dtype=np.int64)
            return r.reshape((1,) * x.ndim) if keepdim else r
        if x.ndim == 0:
            return np.zeros((), dtype=np.int64)
        return np.asarray(np_fn(x, axis=axis, keepdims=keepdim), dtype=np.int64)


class ArgMax(_Arg):
    __slots__ = ()
    name = "argmax"  # (never shown: no node is made)
    np_fn = staticmethod(np.argmax)


class ArgMin(_Arg):
    __slots__ = ()
    name = "argmin"  # (never shown: no node is made)
    np_fn = staticmethod(np.argmin)


def _arg(cls, input, dim=None, keepdim=False):
    return cls.apply(tensor_arg(input), dim, keepdim)


@register(
    "argmax",
    "argmax(input, dim=None, keepdim=False)",
    "index of the largest element",
    method=True,
    category="reduce",
    batch="reduction_one_dim",
    inplace=None,
    pure=True,
    checks=none("not differentiable (indices)"),
    parser=None,
)
def argmax(input, dim=None, keepdim=False):
    return _arg(ArgMax, input, dim, keepdim)


@register(
    "argmin",
    "argmin(input, dim=None, keepdim=False)",
    "index of the smallest element",
    method=True,
    category="reduce",
    batch="reduction_one_dim",
    inplace=None,
    pure=True,
    checks=none("not differentiable (indices)"),
    parser=None,
)
def argmin(input, dim=None, keepdim=False):
    return _arg(ArgMin, input, dim, keepdim)
