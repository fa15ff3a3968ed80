"""What the activation modules share: the sample arguments of their declarations, the
formula facet of a backward's own node, PyTorch's error for an integer input, and
NotImplementedGrad, the node of a backward kernel PyTorch does not differentiate
(also used by ctc_loss, the margin losses and pixel_shuffle)."""

from __future__ import annotations


from ..core import dtypes
from ..engine.declare import none
from ..engine.function import Function
from ..runtime.errors import GradError, GradRuntimeError
from .registry import Arg

M = Arg((2, 3))
WIDE = Arg((2, 3), -4.0, 4.0)
BACKWARD_FORMULA = none(
    "a backward's own node (create_graph): shown as a named function with its local Jacobian"
)


def _not_implemented(kernel, dt):
    return GradError(
        f"\"{kernel}\" not implemented for '{dtypes.scalar_type_name(dt)}'",
        type_name="NotImplementedError",
    )


def _float_only(kernel, x):
    """x's array when it is floating, else PyTorch's error for the kernel."""
    if x.data.dtype.kind != "f":
        raise _not_implemented(kernel, x.data.dtype)
    return x


class NotImplementedGrad(Function):
    """A backward kernel PyTorch has no derivative for, as the node of its result under
    create_graph: `torch::autograd::NotImplemented`, an error when a backward reaches it
    (a subclass gives the kernel, `aten` its name and `compute(*arrays, **params)`)."""

    formula = BACKWARD_FORMULA
    __slots__ = ("params",)
    name = "NotImplemented"
    qualified_name = "torch::autograd::NotImplemented"  # (grad_fn.name())
    saved_names = none("PyTorch's NotImplemented node saves nothing")
    jvp = none("PyTorch has no derivative of this backward kernel")
    aten = ""

    def forward(self, *arrays, **params):
        return self.compute(*arrays, **params)

    def backward(self, gg, F):
        raise GradRuntimeError(f"derivative for aten::{self.aten} is not implemented")
