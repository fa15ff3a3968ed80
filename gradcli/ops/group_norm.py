"""`F.group_norm` and `torch.group_norm` (NativeGroupNormBackward0): the channels of each
sample cut into groups, each group normalised by its own mean and variance, then each
channel scaled by weight and shifted by bias, as PyTorch's CPU kernel computes it
(numerics/floats/group_norm.py).  Under create_graph, and in forward mode, the gradients
are the formula of the tensors (the statistics as functions of the input)."""

from __future__ import annotations

import numpy as np

from ..core.convert import tensor_arg
from ..core.dtypes import scalar_type_name
from ..engine.declare import none
from ..engine.function import Function
from ..numerics.floats import group_norm as gn
from ..runtime.errors import GradRuntimeError, GradValueError
from .registry import Arg, register


def _planes(a):
    """The C-ordered (N, C, HxW) view of an (N, C, *) array."""
    return np.ascontiguousarray(a).reshape(a.shape[0], a.shape[1], -1)


class GroupNorm(Function):
    __slots__ = ("groups", "eps", "shape")
    name = "NativeGroupNormBackward0"
    saved_names = ("input", "weight", None, "result1", "result2")  # result1/2: mean, rstd
    saved_extra = {
        "N": lambda node: node.shape[0],
        "C": lambda node: node.shape[1],
        "HxW": lambda node: int(np.prod(node.shape[2:], dtype=np.int64)),
        "group": lambda node: node.groups,
        "eps": lambda node: node.eps,
    }
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    def forward(self, x, w, b, groups, eps):
        self.groups, self.eps, self.shape = groups, eps, x.shape
        dt = x.dtype
        with np.errstate(all="ignore"):
            if x.size == 0:
                y = x.copy()
                mean = np.zeros((x.shape[0], groups), dt)
                rstd = mean.copy()
            else:
                y, mean, rstd = gn.forward(
                    _planes(x),
                    groups,
                    eps,
                    None if w is None else np.ascontiguousarray(w),
                    None if b is None else np.ascontiguousarray(b),
                )
        self.save(x, w, b, mean, rstd)
        return y.reshape(x.shape)

    def backward(self, g, F, x, w, b, mean, rstd):
        if w is None and b is not None and self.needs[2]:  # (as PyTorch's CPU backward fails)
            raise GradRuntimeError("tensor does not have a device")
        if F.tensor_mode:
            return self._composite(g, F, x, w)
        need = tuple(bool(n) for n in self.needs)
        dt = x.dtype
        with np.errstate(all="ignore"):
            dx, dw, db = gn.backward(
                _planes(g.astype(dt, copy=False)),
                _planes(x),
                mean,
                rstd,
                self.groups,
                None if w is None else np.ascontiguousarray(w),
                (need[0], w is not None and need[1], b is not None and need[2]),
            )
        return (None if dx is None else dx.reshape(x.shape), dw, db)

    def _grouped(self, F, t, x):
        shape = x.data.shape if F.tensor_mode else x.shape
        return F.reshape(t, (shape[0], self.groups, -1)), shape

    def _stats(self, F, x):
        """(xhat, rstd, n) of the tensor x grouped as (N, G, D * HxW)."""
        xg, _ = self._grouped(F, x, x)
        n = xg.data.shape[2]
        mean = F.sum(xg, axis=2, keepdims=True) / n
        var = F.sum((xg - mean) * (xg - mean), axis=2, keepdims=True) / n
        rstd = 1 / F.sqrt(var + self.eps)
        return (xg - mean) * rstd, rstd, n

    def _channel(self, t, shape, F):
        """A per-channel (C,) tensor broadcast against (N, C, *) `shape`."""
        return F.reshape(t, (1, shape[1]) + (1,) * (len(shape) - 2))

    def _composite(self, g, F, x, w):
        """The gradients as a formula of the tensors (under create_graph)."""
        xhat, rstd, n = self._stats(F, x)
        shape = x.data.shape
        gh = g * self._channel(w, shape, F) if w is not None else g
        ghg, _ = self._grouped(F, gh, x)
        gx = rstd * (
            ghg
            - F.sum(ghg, axis=2, keepdims=True) / n
            - xhat * F.sum(ghg * xhat, axis=2, keepdims=True) / n
        )
        gx = F.reshape(gx, shape)
        lead = (0,) + tuple(range(2, len(shape)))
        xh = F.reshape(xhat, shape)
        gw = F.sum(g * xh, axis=lead) if w is not None and self.needs[1] else None
        gb = F.sum(g, axis=lead) if len(self.needs) > 2 and self.needs[2] else None
        return gx, gw, gb

    def jvp(self, ts, F, x, w, b, mean, rstd):
        """dy = dxhat * w + xhat * dw + db per channel, dxhat the normalisation's."""
        tx, tw, tb = (tuple(ts) + (None, None, None))[:3]
        if ts.args[1] is None:
            w = None
        xhat, rstd, n = self._stats(F, x)
        shape = x.data.shape
        out = None
        if tx is not None:
            tg, _ = self._grouped(F, tx, x)
            dm = F.sum(tg, axis=2, keepdims=True) / n
            proj = F.sum(xhat * tg, axis=2, keepdims=True) / n
            dxhat = F.reshape(rstd * (tg - dm) - xhat * rstd * proj, shape)
            out = dxhat * self._channel(w, shape, F) if w is not None else dxhat
        xh = F.reshape(xhat, shape)
        if tw is not None:
            term = xh * self._channel(tw, shape, F)
            out = term if out is None else out + term
        if tb is not None:
            term = self._channel(tb, shape, F) + 0 * xh
            out = term if out is None else out + term
        return out


@register(
    "group_norm",
    "group_norm(input, num_groups, weight=None, bias=None, eps=1e-05)",
    "normalise each group of num_groups channel groups of (N, C, *) input by its mean and "
    "variance, then scale each channel by weight and shift it by bias",
    checks=[
        ((Arg((2, 4, 3)), 2, Arg((4,)), Arg((4,))), {}),
        ((Arg((3, 6)), 3), {"eps": 1e-3}),
    ],
    category="nn",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    x = tensor_arg(input)
    xd = x.data
    if xd.ndim < 2:
        raise GradRuntimeError(
            f"Expected at least 2 dimensions for input tensor but received {xd.ndim}"
        )
    groups = int(num_groups)
    if groups == 0:
        raise ZeroDivisionError("integer division or modulo by zero")
    c = xd.shape[1]
    shape = list(xd.shape)
    if c % groups:
        raise GradRuntimeError(
            "Expected number of channels in input to be divisible by num_groups, but got "
            f"input of shape {shape} and num_groups={groups}"
        )
    size = [xd.shape[0] * c // groups, groups] + list(xd.shape[2:])
    if int(np.prod(size)) // groups == 1:  # (torch.nn.functional's check)
        raise GradValueError(
            f"Expected more than 1 value per channel when training, got input size {size}"
        )
    w = None if weight is None else tensor_arg(weight)
    b = None if bias is None else tensor_arg(bias)
    for what, t in (("weight", w), ("bias", b)):
        if t is not None and t.data.shape != (c,):
            raise GradRuntimeError(
                f"Expected {what} to be a vector of size equal to the number of channels in "
                f"input, but got {what} of shape {list(t.data.shape)} and input of shape {shape}"
            )
    if xd.dtype.kind != "f":
        raise GradRuntimeError(
            f"\"GroupNormKernelImpl\" not implemented for '{scalar_type_name(xd.dtype)}'"
        )
    if xd.dtype == np.float16:
        raise GradRuntimeError("group_norm: float16 input is not supported by gradcli")
    for t in (w, b):
        if t is not None and t.data.dtype != xd.dtype:
            raise GradRuntimeError(
                "mixed dtype (CPU): expect parameter to have scalar type of "
                f"{scalar_type_name(xd.dtype)}"
            )
    return GroupNorm.apply(x, w, b, groups=groups, eps=float(eps))
