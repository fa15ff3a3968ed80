"""softmax and log_softmax: normalisations along a dim (PyTorch's SoftmaxBackward0 and
LogSoftmaxBackward0), each with its forward, VJP and JVP."""

from __future__ import annotations

import numpy as np

from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..numerics.floats import sleef_explog, softmax64
from ..numerics.floats.softmax_dim import (
    log_softmax_backward_dim,
    log_softmax_dim,
    softmax_backward_dim,
    softmax_dim,
)
from ..core.convert import tensor_arg
from ..engine.function import Function
from .dims import norm_dims
from .reduce import M, _torch_name
from .registry import Arg, register
from .shape import to
from .batching import EXTRA_NAMES
from .fused_grads import LogSoftmaxBackwardData, SoftmaxBackwardData
from ..numerics import mkl

_EXP = mkl.unary_fn("exp", np.exp)


#: PyTorch's vectorised kernels over the last dim, by dtype
KERNELS = {np.dtype(np.float32): sleef_explog, np.dtype(np.float64): softmax64}


def _exact(x, dim):
    """float32/float64 over the last dim: computed as PyTorch's vectorised kernel does."""
    return x.dtype in KERNELS and x.ndim >= 1 and x.size and _softmax_dim(dim, x.ndim) == x.ndim - 1


def _softmax_dim(dim, ndim):
    if type(dim) is int and ndim and (dim == -1 or dim == ndim - 1):
        return ndim - 1  # (the last dim, as norm_dims gives it)
    if dim is None:
        dim = 0 if ndim in (0, 1, 3) else 1
    (axis,) = norm_dims(dim, ndim) or (None,)
    return axis


def _softmax_bwd(g, out, axis):
    """_softmax_backward_data's values: out * (g - sum(g * out)), PyTorch's float32 and
    float64 kernels (over the last dim and over another)."""
    if out.dtype in KERNELS and axis == out.ndim - 1 and out.size:
        return KERNELS[out.dtype].softmax_backward_lastdim(np.asarray(g, out.dtype), out)
    if out.dtype in KERNELS and out.ndim > 1 and out.size:  # another dim
        return softmax_backward_dim(g, out, axis)
    return out * (g - np.sum(g * out, axis=axis, keepdims=True))


def _log_softmax_bwd(g, out, axis):
    """_log_softmax_backward_data's values: g - exp(out) * sum(g), PyTorch's float32 and
    float64 kernels (over the last dim and over another)."""
    if out.dtype in KERNELS and axis == out.ndim - 1 and out.size:
        return KERNELS[out.dtype].log_softmax_backward_lastdim(np.asarray(g, out.dtype), out)
    if out.dtype in KERNELS and out.ndim > 1 and out.size:  # another dim
        return log_softmax_backward_dim(g, out, axis)
    return g - _EXP(out) * np.sum(g, axis=axis, keepdims=True)


class Softmax(Function):
    __slots__ = ("axis",)
    name = "SoftmaxBackward0"
    saved_names = ("result",)
    saved_extra = {"dim": lambda node: node.axis}

    kernel = "softmax_lastdim_kernel_impl"

    def shifted(self, x, dim):
        """x minus its max along the softmax dim (after PyTorch's dtype check)."""
        if x.dtype.kind != "f":
            raise GradRuntimeError(
                f"\"{self.kernel}\" not implemented for '{_torch_name(x.dtype)}'"
            )
        self.axis = ax = _softmax_dim(dim, x.ndim)
        if x.size == 0:  # PyTorch: an empty result, not NumPy's empty-max error
            return x.copy(), ax
        return x - np.max(x, axis=ax, keepdims=True), ax

    def forward(self, x, dim):
        if _exact(x, dim):  # PyTorch's kernel, bit for bit
            self.axis = x.ndim - 1
            out = KERNELS[x.dtype].softmax_lastdim(x)
        elif x.dtype in KERNELS and x.ndim > 1 and x.size:  # another dim: _vec_softmax
            self.axis = ax = _softmax_dim(dim, x.ndim)
            out = softmax_dim(x, ax)
        else:
            s, ax = self.shifted(x, dim)
            e = np.exp(s)
            out = e / np.sum(e, axis=ax, keepdims=True)
        self.save(out)
        return out

    def backward(self, g, F, out):
        if F.tensor_mode:
            return (SoftmaxBackwardData.apply(g, out, axis=self.axis, values=_softmax_bwd),)
        return (_softmax_bwd(g, out, self.axis),)

    def jvp(self, ts, F, out):
        return out * (ts[0] - F.sum(ts[0] * out, self.axis, True))

    def formula(self, S, x):
        return S.softmax(x, self.axis, log=type(self).__name__ == "LogSoftmax")


class LogSoftmax(Softmax):
    __slots__ = ()
    name = "LogSoftmaxBackward0"

    kernel = "log_softmax_lastdim_kernel_impl"

    def forward(self, x, dim):
        if _exact(x, dim):  # PyTorch's kernel, bit for bit
            self.axis = x.ndim - 1
            out = KERNELS[x.dtype].log_softmax_lastdim(x)
        elif x.dtype in KERNELS and x.ndim > 1 and x.size:  # another dim: _vec_logsoftmax
            self.axis = ax = _softmax_dim(dim, x.ndim)
            out = log_softmax_dim(x, ax)
        else:
            s, ax = self.shifted(x, dim)
            out = s - np.log(np.sum(np.exp(s), axis=ax, keepdims=True))
        self.save(out)
        return out

    def backward(self, g, F, out):
        if F.tensor_mode:
            return (LogSoftmaxBackwardData.apply(g, out, axis=self.axis, values=_log_softmax_bwd),)
        return (_log_softmax_bwd(g, out, self.axis),)

    def jvp(self, ts, F, out):
        return ts[0] - F.sum(F.exp(out) * ts[0], self.axis, True)


REQUIRED = object()  # torch.softmax(x) and x.softmax() have no default dim
IMPLICIT = object()  # F.softmax(x) / nn.Softmax(): PyTorch's implicit dim, warned


def _check_dim(dim, name):
    """The dim to use: torch.softmax / x.softmax without a dim (or with None) is
    PyTorch's TypeError; F.softmax and nn.Softmax() pass IMPLICIT for the implicit dim,
    with PyTorch's warning."""
    if dim is REQUIRED:
        raise GradTypeError(f'{name}() missing 1 required positional arguments: "dim"')
    if dim is None:
        raise GradTypeError(f"{name}(): argument 'dim' must be int, not NoneType")
    if dim is IMPLICIT:
        context.warn(
            f"Implicit dimension choice for {name} has been deprecated. Change the "
            "call to include dim=X as an argument."
        )
        return None
    return dim


def _functional(name):
    """F.softmax / F.log_softmax: dim may be left out or None (the implicit dim)."""

    def fn(input, dim=None, _stacklevel=3, dtype=None):
        return OPS[name](input, IMPLICIT if dim is None else dim, dtype)

    fn.__name__ = name
    fn.op_function = name  # (the op's function with another default: replay_plan.py)
    EXTRA_NAMES[name] = fn  # vmap batches it as the op
    return fn


@register(
    "softmax",
    "softmax(input, dim)",
    "exp(input) / sum(exp(input), dim)",
    method=True,
    checks=[((M,), {"dim": 1}), ((M,), {"dim": 0}), ((Arg((4,)),), {"dim": 0})],
    category="reduce",
    batch="along_dim",
    inplace=None,
    pure=True,
    parser=None,
)
def softmax(input, dim=REQUIRED, dtype=None):
    dim = _check_dim(dim, "softmax")
    x = tensor_arg(input)
    if dtype is not None:
        x = to(x, dtype)
    return Softmax.apply(x, dim=dim)


@register(
    "log_softmax",
    "log_softmax(input, dim)",
    "log(softmax(input, dim)), stably",
    method=True,
    checks=[((M,), {"dim": 1}), ((Arg((4,)),), {"dim": 0})],
    category="reduce",
    batch="along_dim",
    inplace=None,
    pure=True,
    parser=None,
)
def log_softmax(input, dim=REQUIRED, dtype=None):
    dim = _check_dim(dim, "log_softmax")
    x = tensor_arg(input)
    if dtype is not None:
        x = to(x, dtype)
    return LogSoftmax.apply(x, dim=dim)


OPS = {"softmax": softmax, "log_softmax": log_softmax}
#: F.softmax and F.log_softmax (torch.nn.functional's, also what nn.Softmax() calls)
FUNCTIONAL = {name: _functional(name) for name in OPS}
