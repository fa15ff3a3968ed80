"""`torch.add` / `torch.sub` with `alpha=` (and their methods): input + alpha * other,
recorded as PyTorch records them (AddBackward0 / SubBackward0, the gradient of other
`g * alpha`, or `-g * alpha`: derivatives.yaml's maybe_multiply), valued as ATen's
add kernel computes them (numerics/floats/scaled_add.py: fused multiply-adds).  With alpha 1
these are elementwise's `add` and `sub` (the operators' nodes); `sub` with a number
first is PyTorch's SubBackward0 (its `2 - x` is RsubBackward1)."""

from __future__ import annotations

import numpy as np

from ..runtime.errors import GradRuntimeError, GradTypeError, broadcast_error
from ..numerics.floats.scaled_add import scaled_add
from ..numerics.floats.tensor_iter import binary_laid_out
from ..core.tensor import Tensor, type_name
from ..engine.function import Function
from .elementwise import _bool_sub_check, _operands, _shapes, times_scalar
from .elementwise import add as _plain_add, sub as _plain_sub
from .registry import Arg, Parser, register

_C_TYPES = {
    "int64": "int64_t",
    "int32": "int32_t",
    "int16": "int16_t",
    "int8": "int8_t",
    "uint8": "uint8_t",
}


def _alpha(name, alpha, dt):
    """alpha as a Python number, with ATen's checks (alpha_check, Scalar::to<T>)."""
    if type(alpha) is Tensor and alpha.data.ndim == 0:
        alpha = alpha.data.item()
    if isinstance(alpha, np.generic):
        alpha = alpha.item()
    if not isinstance(alpha, (int, float)):
        what = "NoneType" if alpha is None else type_name(alpha)
        raise GradTypeError(f"{name}(): argument 'alpha' must be Number, not {what}")
    if isinstance(alpha, bool) and dt.kind != "b":
        raise GradRuntimeError("Boolean alpha only supported for Boolean results.")
    if dt.kind in "iub" and isinstance(alpha, float):
        raise GradRuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number."
        )
    if dt.kind in "iu":
        info = np.iinfo(dt)
        if not info.min <= alpha <= info.max:
            raise GradRuntimeError(
                f"value cannot be converted to type {_C_TYPES[dt.name]} without overflow"
            )
    return alpha


def _broadcastable(a, b):
    """PyTorch's error for operands whose shapes do not broadcast (the fused kernel would
    raise NumPy's)."""
    sa, sb = np.shape(getattr(a, "data", a)), np.shape(getattr(b, "data", b))
    if sa != sb:
        try:
            np.broadcast_shapes(sa, sb)
        except ValueError:
            raise broadcast_error(sa, sb) from None


def _zero_like(v, z=-0.0):
    if type(v) is Tensor:
        return Tensor(
            np.full_like(v.data, z, dtype=v.data.dtype if v.data.dtype.kind == "f" else np.float64)
        )
    return z


class AddScaled(Function):
    """self + alpha * other (alpha not 1, or a number first for sub)."""

    __slots__ = ("sa", "sb", "alpha")
    name = "AddBackward0"
    saved_names = ()
    saved_extra = {"alpha": lambda node: node.alpha}
    sign = 1

    def formula(self, S, a, b, *_):
        a, b = S.unknown(a, self, 0, self.sa), S.unknown(b, self, 1, self.sb)
        return S.obj(a) + S.number(self.sign * self.alpha) * S.obj(b)

    def forward(self, a, b, alpha, dt):
        self.sa, self.sb = _shapes(a, b)
        self.alpha = alpha
        return binary_laid_out(scaled_add(a, b, self.sign * alpha, dt), a, b)

    def backward(self, g, F):
        n = self.needs
        gb = None
        if n[1]:
            gb = -g if self.sign < 0 else g
            if self.alpha != 1:  # maybe_multiply(grad, alpha): MulBackward1 under create_graph
                gb = times_scalar(F, gb, self.alpha)
            gb = F.sum_to(gb, self.sb)
        return (F.sum_to(g, self.sa) if n[0] else None, gb)

    def jvp(self, ts, F):
        # derivatives.yaml: self_t + maybe_multiply(other_t, alpha) (or -); a missing
        # tangent is a zero that leaves the other term as it is
        a, b = ts.args[0], ts.args[1]
        ta, tb = ts[0], ts[1]
        if tb is None:
            return ta + _zero_like(b)
        term = tb * self.alpha if self.alpha != 1 else tb
        if ta is None:
            ta = _zero_like(a)
        return ta + term if self.sign > 0 else ta - term


class SubScaled(AddScaled):
    __slots__ = ()
    name = "SubBackward0"
    zeros_through = (True, False)  # (other's gradient is -grad: materialised)
    sign = -1


@register(
    "add",
    "add(input, other, *, alpha=1)",
    "input + alpha * other, broadcasting",
    method=True,
    checks=[
        ((Arg((2, 3)), Arg((3,))), {}),
        ((Arg(()), Arg((2, 1))), {}),
        ((Arg((2, 3)), Arg((3,))), {"alpha": 0.7}),
        ((Arg((2, 3)), Arg((2, 1))), {"alpha": -2}),
    ],
    category="arith",
    batch="elementwise",
    inplace="add_",
    operators=("+",),
    pure=False,
    parser=Parser(
        expected=(
            "(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)",
            "(Tensor other, *, Number alpha = 1)",
        )
    ),
)
def add(input, other, *, alpha=1):
    if type(alpha) is int and alpha == 1:
        return _plain_add(input, other)
    a, b, dt = _operands(input, other)
    alpha = _alpha("add", alpha, dt)
    if alpha == 1:
        return _plain_add(input, other)
    _broadcastable(a, b)
    return AddScaled.apply(a, b, alpha=alpha, dt=dt)


@register(
    "sub",
    "sub(input, other, *, alpha=1)",
    "input - alpha * other, broadcasting",
    method=True,
    checks=[((Arg((2, 3)), Arg((3,))), {}), ((Arg((2, 3)), Arg((3,))), {"alpha": 1.5})],
    category="arith",
    aliases=("subtract",),
    batch="elementwise",
    inplace="sub_",
    operators=("-",),
    pure=True,
    parser={
        "sub": Parser(
            expected=(
                "(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)",
                "(Tensor other, *, Number alpha = 1)",
            )
        ),
        "subtract": Parser(overloaded=True),
    },
)
def sub(input, other, *, alpha=1):
    if type(alpha) is int and alpha == 1 and type(input) is Tensor:
        return _plain_sub(input, other)
    a, b, dt = _operands(input, other)
    _bool_sub_check(getattr(a, "data", a), getattr(b, "data", b))
    alpha = _alpha("sub", alpha, dt)
    if alpha == 1 and type(a) is Tensor:
        return _plain_sub(input, other)
    _broadcastable(a, b)
    return SubScaled.apply(a, b, alpha=alpha, dt=dt)
