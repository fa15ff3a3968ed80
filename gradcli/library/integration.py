"""`torch.trapezoid` (and its older name `torch.trapz`): the trapezoidal rule along a dim,
written as ATen's Integration.cpp writes it so that the values and the graph are torch's:
with a spacing number, `(y.sum(dim) - (y.select(dim, 0) + y.select(dim, -1)) * 0.5) * dx`
(MulBackward1); with sample points x, `(dx * (y[1:] + y[:-1])).sum(dim) / 2.` where dx is
x's differences (DivBackward1); no samples give zeros."""

from __future__ import annotations

from ..core import dtypes
from ..core.convert import type_name
from ..core.tensor import Tensor
from ..ops.dims import norm_dims
from ..ops.elementwise import DivScalar, MulScalar
from ..ops.registry import FUNCTIONS, Arg, register
from ..runtime.errors import GradRuntimeError, GradTypeError

_F = FUNCTIONS


def _zeros_except(y, axis):
    shape = list(y.data.shape)
    del shape[axis]
    return _F["zeros"](*shape, dtype=y.dtype)


def _scaled(t, c):
    """t * c with c a C++ Scalar (MulBackward1), in their promoted dtype."""
    return MulScalar.apply(t, c, dt=dtypes.result_type(t, c))


def _with_spacing(y, dx, axis):
    ends = _F["add"](_F["select"](y, axis, 0), _F["select"](y, axis, -1))
    return _scaled(_F["sub"](_F["sum"](y, axis), _scaled(ends, 0.5)), float(dx))


def _with_points(y, x, axis):
    if x.data.ndim == 1:
        if x.data.shape[0] != y.data.shape[axis]:
            raise GradRuntimeError("trapezoid: There must be one `x` value for each sample point")
        shape = [1] * y.data.ndim
        shape[axis] = x.data.shape[0]
        x = _F["view"](x, *shape)
    elif x.data.ndim < y.data.ndim:
        x = _F["view"](x, *([1] * (y.data.ndim - x.data.ndim) + list(x.data.shape)))
    n = x.data.shape[axis]
    dx = _F["sub"](_F["narrow"](x, axis, 1, n - 1), _F["narrow"](x, axis, 0, n - 1))
    m = y.data.shape[axis]
    pair = _F["add"](_F["narrow"](y, axis, 1, m - 1), _F["narrow"](y, axis, 0, m - 1))
    return DivScalar.apply(_F["sum"](_F["mul"](dx, pair), axis), c=2.0)


def _trapezoid(name, y, x=None, *, dx=None, dim=-1):
    if not isinstance(y, Tensor):
        raise GradTypeError(
            f"{name}(): argument 'y' (position 1) must be Tensor, not {type_name(y)}"
        )
    if y.data.ndim == 0 and isinstance(x, Tensor) and dx is None:
        norm_dims(dim, 0)  # wrapped as a scalar's dim, then ATen sizes y's dim 0
        raise GradRuntimeError(
            "Dimension specified as 0 but tensor has no dimensions", type_name="IndexError"
        )
    if y.data.ndim == 0:
        raise GradRuntimeError(
            f"Dimension specified as {dim} but tensor has no dimensions", type_name="IndexError"
        )
    (axis,) = norm_dims(dim, y.data.ndim)
    if isinstance(x, Tensor) and dx is None:
        if y.data.shape[axis] == 0:
            return _zeros_except(y, axis)
        if y.data.dtype.kind == "b" or x.data.dtype.kind == "b":
            raise GradRuntimeError(
                "trapezoid: received a bool input for `x` or `y`, but bool is not supported"
            )
        return _with_points(y, x, axis)
    if x is not None and dx is not None:
        raise GradTypeError(
            f"{name}() received an invalid combination of arguments - got (Tensor, "
            f"{type_name(x)}, dx={type_name(dx)}), but expected one of:"
        )
    spacing = x if x is not None else 1 if dx is None else dx
    if isinstance(spacing, Tensor) and spacing.data.ndim == 0:
        spacing = spacing.item()
    if isinstance(spacing, bool) or not isinstance(spacing, (int, float)):
        raise GradRuntimeError("trapezoid: Currently, we only support dx as a real number.")
    if y.data.shape[axis] == 0:
        return _zeros_except(y, axis)
    if y.data.dtype.kind == "b":
        raise GradRuntimeError(
            "trapezoid: received a bool input for `y`, but bool is not supported"
        )
    return _with_spacing(y, spacing, axis)


@register(
    "trapezoid",
    "trapezoid(y, x=None, *, dx=None, dim=-1)",
    "the trapezoidal rule along dim: spacing dx (default 1) or sample points x",
    checks=[
        ((Arg((2, 5)),), {}),
        ((Arg((4, 3)),), {"dx": 0.5, "dim": 0}),
        ((Arg((2, 4)), Arg((4,))), {}),
    ],
    category="reduce",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def trapezoid(y, x=None, *, dx=None, dim=-1):
    return _trapezoid("trapezoid", y, x, dx=dx, dim=dim)


@register(
    "trapz",
    "trapz(y, x=None, *, dx=None, dim=-1)",
    "torch.trapezoid's older name",
    checks=[((Arg((2, 5)),), {"dx": 2.0})],
    category="reduce",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def trapz(y, x=None, *, dx=None, dim=-1):
    return _trapezoid("trapz", y, x, dx=dx, dim=dim)
