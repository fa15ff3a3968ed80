"""hardsigmoid and hardswish, as ATen/native/cpu/Activation.cpp computes them:
`(x * clamp(x + 3, 0, 6)) / 6`, `g * (1/6)` rounded to the dtype ..."""

from __future__ import annotations

import numpy as np

from ..core.convert import tensor_arg
from ..engine.declare import none
from ..engine.forward import elementwise
from ..engine.function import Function
from ..numerics.floats import torch_act
from ..numerics.floats.tensor_iter import laid_out
from .registry import register
from .activation_base import WIDE, BACKWARD_FORMULA, _float_only, NotImplementedGrad

# ------------------------------------------------ hardsigmoid, hardswish


def _clamp6(x):
    """min(max(x + 3, 0), 6)."""
    t = x.dtype.type
    return np.minimum(np.maximum(x + t(3), t(0)), t(6))


class Hardsigmoid(Function):
    __slots__ = ()
    name = "HardsigmoidBackward0"
    saved_names = ("self",)
    formula = none("no formula rule yet: shown as a named function with its Jacobian")

    def forward(self, x):
        self.save(x)
        return _clamp6(x) / x.dtype.type(6)

    def backward(self, g, F, x):
        if F.tensor_mode:
            return (HardsigmoidBackward.apply(g, x),)
        return (hardsigmoid_backward(g, x),)

    jvp = elementwise


def hardsigmoid_backward(g, x):
    """g * (1/6) where -3 < x < 3, 0 elsewhere; 1/6 is the float 1.0f / 6.0f (in double
    too, as the kernel writes it)."""
    t = x.dtype.type
    g = np.broadcast_to(g, x.shape)
    return np.where((x > t(-3)) & (x < t(3)), g * t(np.float32(1.0) / np.float32(6.0)), t(0))


class HardsigmoidBackward(NotImplementedGrad):
    """hardsigmoid's backward under create_graph (PyTorch has no derivative for it)."""

    __slots__ = ()
    aten = "hardsigmoid_backward"  # (forward mode's error names it too)
    compute = staticmethod(lambda g, x: hardsigmoid_backward(g, x))


@register(
    "hardsigmoid",
    "hardsigmoid(input)",
    "min(max(input + 3, 0), 6) / 6",
    checks=[((WIDE,), {})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=None,
)
def hardsigmoid(input, inplace=False):
    return Hardsigmoid.apply(_float_only("hardsigmoid_cpu", tensor_arg(input)))


def hardswish_backward(g, x):
    """0 where x <= -3, g where x >= 3, g * (x / 3 + 0.5) between; a NaN gives NaN in
    the vector blocks (their blends) and g after them (the scalar code's last branch)."""
    t = x.dtype.type

    def fn(lib, dy, v):
        mid = dy * ((v / t(3)) + t(0.5))
        if lib.vector:
            return np.where(v <= t(-3), t(0), np.where(v >= t(3), dy, mid))
        return np.where(v <= t(-3), t(0), np.where(v < t(3), mid, dy))

    return torch_act.blocks(fn, np.broadcast_to(g, x.shape), x)


class Hardswish(Function):
    __slots__ = ()
    name = "HardswishBackward0"
    saved_names = ("self",)
    formula = none("no formula rule yet: shown as a named function with its Jacobian")

    def forward(self, x):
        self.save(x)
        return (x * _clamp6(x)) / x.dtype.type(6)

    def backward(self, g, F, x):
        if F.tensor_mode:
            return (HardswishBackward.apply(g, x),)
        return (laid_out(hardswish_backward(g, x), (x,)),)

    jvp = elementwise


class HardswishBackward(Function):
    """hardswish's backward as one op (create_graph); derivatives.yaml: in g the kernel
    again, in x `where(-3 < x < 3, gg * g / 3, 0)`."""

    formula = BACKWARD_FORMULA
    __slots__ = ()
    name = "HardswishBackwardBackward0"
    saved_names = ("grad_output", "self")

    def forward(self, g, x):
        self.save(g, x)
        return laid_out(hardswish_backward(g, x), (x,))

    def backward(self, gg, F, g, x):
        inside = (x > -3.0) * (x < 3.0)
        if F.tensor_mode:
            first = type(self).apply(gg, x)
        else:  # (arrays: the kernel itself, no node)
            first = laid_out(hardswish_backward(gg, x), (x,))
        return (first, F.where(inside, gg * g / 3.0, 0.0))

    def jvp(self, ts, F, g, x):
        tg, tx = ts
        out = None if tg is None else type(self).apply(tg, x)
        if tx is not None:
            term = F.where((x > -3.0) * (x < 3.0), tx * g / 3.0, 0.0)
            out = term if out is None else out + term
        return out


@register(
    "hardswish",
    "hardswish(input)",
    "input * min(max(input + 3, 0), 6) / 6",
    checks=[((WIDE,), {})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=None,
)
def hardswish(input, inplace=False):
    return Hardswish.apply(_float_only("hardswish_cpu", tensor_arg(input)))
