"""`x.unfold(dimension, size, step)`: the windows of `size` elements, `step` apart, along
a dim, as a view (it shares x's storage and version counter): the dim becomes the number
of windows and a last dim of `size` is added, as PyTorch's.  UnfoldBackward0's gradient
is derivatives.yaml's unfold_backward (each window's gradient added back where it came
from), itself an op under create_graph (UnfoldBackwardBackward0, whose gradient is the
unfold again)."""

from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor, type_name
from ..engine.declare import none
from ..engine.forward import linear
from ..engine.function import Function
from ..engine.saved import given, saved_shape, saved_shown
from ..engine.versions import viewing
from ..runtime.errors import GradRuntimeError, GradTypeError
from .dims import norm_dims
from .registry import Arg, register
from .tensor_args import int_arg


def _windows(a, d, size, step):
    """NumPy's view of the windows of `a` along dim d (a 0-d array: one window of its
    value), writable where `a` is."""
    if a.ndim == 0:
        return a.reshape(1)[:size]
    n = (a.shape[d] - size) // step + 1
    shape = a.shape[:d] + (n,) + a.shape[d + 1 :] + (size,)
    strides = a.strides[:d] + (a.strides[d] * step,) + a.strides[d + 1 :] + (a.strides[d],)
    return np.lib.stride_tricks.as_strided(a, shape, strides, writeable=bool(a.flags.writeable))


def _unfold_backward(g, shape, d, size, step):
    """The gradient of the windows added back into zeros of the input's shape (window
    by window, in order)."""
    out = np.zeros(shape, dtype=g.dtype)
    if not len(shape):
        out[...] = g.sum()
        return out
    n = g.shape[d]
    moved = np.moveaxis(g, -1, d + 1)  # (..., windows, size, ...)
    for w in range(n):
        idx = (slice(None),) * d + (slice(w * step, w * step + size),)
        out[idx] += np.take(moved, w, axis=d)
    return out


class Unfold(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ("shape", "d", "dimension", "size", "step")
    name = "UnfoldBackward0"
    saved_names = ()
    saved_extra = {
        "dimension": saved_shown("dimension"),
        "self_sym_sizes": saved_shape(),
        "size": saved_shown("size"),
        "step": saved_shown("step"),
    }

    def forward(self, x, d, dimension, size, step):
        self.shape, self.d, self.dimension, self.size, self.step = (
            x.shape,
            d,
            dimension,
            size,
            step,
        )
        return _windows(x, d, size, step)

    def backward(self, g, F):
        if F.tensor_mode:
            return (
                UnfoldBackward.apply(
                    g,
                    shape=self.shape,
                    d=self.d,
                    dim=self.dimension,
                    size=self.size,
                    step=self.step,
                ),
            )
        return (_unfold_backward(g, self.shape, self.d, self.size, self.step),)

    jvp = linear


class UnfoldBackward(Function):
    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )
    __slots__ = ("d", "dim", "size", "step")
    name = "UnfoldBackwardBackward0"
    saved_names = ()
    saved_extra = {
        "dim": saved_shown("dim"),
        "size": saved_shown("size"),
        "step": saved_shown("step"),
    }

    def forward(self, g, shape, d, dim, size, step):
        self.d, self.dim, self.size, self.step = d, dim, size, step
        return _unfold_backward(g, shape, d, size, step)

    def backward(self, gg, F):
        if F.tensor_mode:
            return (_unfold(gg, self.dim, self.size, self.step),)
        return (_windows(gg, self.d, self.size, self.step).copy(),)

    jvp = linear


@viewing
def _unfold(x, dimension, size, step):
    nd = x.data.ndim
    d = norm_dims(dimension, nd)
    d = d[0] if d else 0
    n = x.data.shape[d] if nd else 1
    if size > n:
        raise GradRuntimeError(
            f"maximum size for tensor at dimension {d} is {n} but size is {size}"
        )
    if size < 0:
        raise GradRuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise GradRuntimeError(f"step is {step} but must be > 0")
    return Unfold.apply(x, d=d, dimension=given(dimension, d), size=size, step=step)


@register(
    "unfold",
    "unfold(input, dimension, size, step)",
    "the windows of size elements, step apart, along dimension (a view; the windows last)",
    method=True,
    function=False,
    checks=[
        ((Arg((7,)), 0, 3, 2), {}),
        ((Arg((5, 3)), 0, 2, 1), {}),
        ((Arg((2, 4)), -1, 2, 3), {}),
    ],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def unfold(input, dimension, size, step):
    if not isinstance(input, Tensor):
        raise GradTypeError(
            "unfold(): argument 'input' (position 1) must be Tensor, not "
            f"{'NoneType' if input is None else type_name(input)}"
        )
    dimension = int_arg("unfold", dimension, "dimension", 1)
    size = int_arg("unfold", size, "size", 2)
    step = int_arg("unfold", step, "step", 3)
    return _unfold(input, dimension, size, step)
