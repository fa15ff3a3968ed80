"""torch.amax and torch.amin: the largest (smallest) values over dims, without indices.
Unlike max(dim), their gradient is split evenly among the elements equal to the result
(derivatives.yaml's scale_grad_by_count: (grad / mask.sum(dim, True)) * mask, mask
being self == the result restored to self's shape)."""

from __future__ import annotations

import numpy as np

from ..core.convert import tensor_arg
from ..core.tensor import Tensor
from ..engine.declare import none
from ..runtime.errors import GradIndexError, GradRuntimeError, GradTypeError
from .dims import norm_dims
from .reduce import M, _Reduce, expand_back, saved_keepdim
from .registry import Arg, register
from .tensor_args import _pytype


def _saved_dim(node):
    """`_saved_dim` as given (a negative dim shown as PyTorch's unsigned 64-bit number)."""
    return tuple(d % 2**64 for d in node.given)


class Amax(_Reduce):
    __slots__ = ("given",)
    name = "AmaxBackward0"
    saved_names = ("self", "result")
    saved_extra = {"dim": _saved_dim, "keepdim": saved_keepdim}
    pick = staticmethod(np.max)
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    def forward(self, x, dims, keepdim):
        self.given = dims
        axes = self.setup(x, list(dims), keepdim)
        kind = self.name[:4].lower()
        if x.size == 0:
            if axes is None:
                raise GradRuntimeError(
                    f"{kind}(): Expected reduction dim to be specified for input.numel() == 0. "
                    "Specify the reduction dim with the 'dim' argument."
                )
            for a in axes:
                if x.shape[a] == 0:
                    raise GradIndexError(
                        f"{kind}(): Expected reduction dim {a} to have non-zero size."
                    )
        out = np.asarray(self.pick(x, axis=axes, keepdims=keepdim))
        self.save(x, out)
        return out

    def jvp(self, ts, F, x, out):
        # amaxamin_jvp: where(mask, self_t, 0.).sum(dim, keepdim) / mask.sum(dim, keepdim)
        shape, axes, keepdim = self.shape, self.axes, self.keepdim
        mask = x.data == expand_back(out.data, np, shape, axes, keepdim)
        t = ts[0]
        picked = F.where(Tensor(mask), t, Tensor(np.zeros((), t.data.dtype)))
        count = mask.sum(axis=axes, keepdims=keepdim)
        return F.sum(picked, axes, keepdim) / Tensor(np.asarray(count, dtype=np.int64))

    def backward(self, g, F, x, out):
        shape, axes, keepdim = self.shape, self.axes, self.keepdim
        xd, od = (x.data, out.data) if F.tensor_mode else (x, out)
        full = expand_back(od, np, shape, axes, keepdim)
        mask = xd == full
        count = mask.sum(axis=axes, keepdims=True)
        if F.tensor_mode:
            if axes and not keepdim:
                g = F.reshape(g, tuple(1 if i in axes else n for i, n in enumerate(shape)))
            return ((g / Tensor(count.astype(np.int64))) * Tensor(mask),)
        if axes and not keepdim:
            g = np.reshape(g, tuple(1 if i in axes else n for i, n in enumerate(shape)))
        with np.errstate(divide="ignore", invalid="ignore"):
            share = g / count.astype(g.dtype)  # (a long count divides in the gradient's dtype)
            return ((share * mask).astype(g.dtype, copy=False),)


class Amin(Amax):
    __slots__ = ()
    name = "AminBackward0"
    pick = staticmethod(np.min)


def _dims(kind, dim, ndim, method):
    if isinstance(dim, bool) or not isinstance(dim, (int, tuple, list)):
        raise GradTypeError(
            f"{kind}(): argument 'dim' (position {1 if method else 2}) must be tuple of ints, "
            f"not {_pytype(dim)}"
        )
    dims = tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
    for d in dims:
        if isinstance(d, bool) or not isinstance(d, int):
            raise GradTypeError(
                f"{kind}(): argument 'dim' (position {1 if method else 2}) must be tuple of "
                f"ints, but found element of type {_pytype(d)} at pos 0"
            )
    norm_dims(dims, ndim)  # PyTorch's range and repetition errors
    return dims


def _call(node, kind, input, dim, keepdim, method):
    x = tensor_arg(input)
    return node.apply(x, dims=_dims(kind, dim, x.data.ndim, method), keepdim=bool(keepdim))


_CHECKS = [
    ((Arg(()),), {}),
    ((M,), {}),
    ((M,), {"dim": 1}),
    ((M,), {"dim": 0, "keepdim": True}),
    ((Arg((2, 3, 2)),), {"dim": (0, 2)}),
]


@register(
    "amax",
    "amax(input, dim=(), keepdim=False)",
    "largest values over dims (every dim by default); ties share the gradient evenly",
    method=True,
    checks=_CHECKS,
    category="reduce",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def amax(input, dim=(), keepdim=False):
    return _call(Amax, "amax", input, dim, keepdim, False)


@register(
    "amin",
    "amin(input, dim=(), keepdim=False)",
    "smallest values over dims (every dim by default); ties share the gradient evenly",
    method=True,
    checks=_CHECKS,
    category="reduce",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def amin(input, dim=(), keepdim=False):
    return _call(Amin, "amin", input, dim, keepdim, False)


amax.method = lambda input, dim=(), keepdim=False: _call(Amax, "amax", input, dim, keepdim, True)
amin.method = lambda input, dim=(), keepdim=False: _call(Amin, "amin", input, dim, keepdim, True)
