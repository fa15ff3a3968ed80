"""`F.interpolate(input, size=None, scale_factor=None, mode='nearest')` on 3-d, 4-d and 5-d
input (UpsampleNearest1D/2D/3DBackward0), as PyTorch's CPU kernels compute it.

Each output position reads the input at ATen's nearest_idx: itself when the sizes are
equal, half of it when the output is twice the input, else
`min(floor(float(o) * scale), in - 1)` in float, with scale the float of `1 / scale_factor`
when a scale factor was given, else `in / out`; the output's size `floor(in *
scale_factor)` in double.  The gradient adds each output's gradient into the position it
read, in the output's order, in the input's dtype (the backward kernel's loop).  Other
modes (linear, bilinear, bicubic, area, nearest-exact) are refused with the reason, and so
is create_graph through it (its gradient's gradient)."""

from __future__ import annotations

import math

import numpy as np

from ..core.convert import tensor_arg
from ..engine.declare import none
from ..engine.function import Function
from ..runtime.errors import GradError, GradRuntimeError, GradValueError
from .registry import Arg, register

_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"


def nearest_index(in_size, out_size, scale):
    """ATen's nearest_idx for every output position of one dim (scale: the scale factor
    given, or None)."""
    o = np.arange(out_size)
    if out_size == in_size:
        return o
    if out_size == 2 * in_size:
        return o >> 1
    s = np.float32(1.0 / scale) if scale else np.float32(in_size) / np.float32(out_size)
    return np.minimum(np.floor(o.astype(np.float32) * s).astype(np.int64), in_size - 1)


class UpsampleNearest(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ("index", "xshape")
    saved_names = ()  # (it saves no tensor: torch's node keeps the sizes and scales)
    differentiable_twice = False  # (its gradient's own gradient: not written yet)

    def forward(self, x, index):
        self.index, self.xshape = index, x.shape
        return np.ascontiguousarray(x[(Ellipsis,) + tuple(index)])

    def backward(self, g, F):
        out = np.zeros(self.xshape, g.dtype)
        np.add.at(out, (Ellipsis,) + tuple(self.index), g)
        return (out,)

    def jvp(self, ts, F):
        return UpsampleNearest.apply(ts[0], index=self.index)


def _node(dims):
    return type(
        f"UpsampleNearest{dims}DBackward0",
        (UpsampleNearest,),
        {"__slots__": (), "name": f"UpsampleNearest{dims}DBackward0"},
    )


_NODES = {d: _node(d) for d in (1, 2, 3)}


def _sizes(shape, size, scale_factor):
    """(output sizes, scales) of the spatial dims as F.interpolate makes them."""
    n = len(shape) - 2
    if size is not None and scale_factor is not None:
        raise GradValueError("only one of size or scale_factor should be defined")
    if size is not None:
        sizes = list(size) if isinstance(size, (list, tuple)) else [size] * n
        if len(sizes) != n:
            raise GradValueError(
                f"Input and output must have the same number of spatial dimensions, but got "
                f"input with spatial dimensions of {list(shape[2:])} and output size of "
                f"{size}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                "output size in (o1, o2, ...,oK) format."
            )
        return [int(s) for s in sizes], [None] * n
    if scale_factor is None:
        raise GradValueError("either size or scale_factor should be defined")
    scales = list(scale_factor) if isinstance(scale_factor, (list, tuple)) else [scale_factor] * n
    if len(scales) != n:
        raise GradValueError(
            f"Input and scale_factor must have the same number of spatial dimensions, but got "
            f"input with spatial dimensions of {list(shape[2:])} and scale_factor of shape "
            f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
            "scale_factor in (s1, s2, ...,sK) format."
        )
    scales = [float(s) for s in scales]
    return [math.floor(float(i) * s) for i, s in zip(shape[2:], scales)], scales


@register(
    "interpolate",
    "interpolate(input, size=None, scale_factor=None, mode='nearest')",
    "input resized to size (or scaled by scale_factor) along its spatial dims, mode 'nearest'",
    checks=[((Arg((1, 2, 3, 3)),), {"scale_factor": 2}), ((Arg((2, 3, 4)),), {"size": 7})],
    category="nn",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def interpolate(
    input,
    size=None,
    scale_factor=None,
    mode="nearest",
    align_corners=None,
    recompute_scale_factor=None,
    antialias=False,
):
    x = tensor_arg(input)
    nd = x.data.ndim
    if align_corners is not None and mode in ("nearest", "area", "nearest-exact"):
        raise GradValueError(
            "align_corners option can only be set with the interpolating modes: "
            "linear | bilinear | bicubic | trilinear"
        )
    if nd not in (3, 4, 5) or mode not in _MODES.split(" | "):
        raise GradError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {nd}D) for the "
            f"modes: {_MODES} (got {mode})",
            type_name="NotImplementedError",
        )
    if mode != "nearest":
        raise GradRuntimeError(f"interpolate: mode '{mode}' is not supported by gradcli")
    sizes, scales = _sizes(x.data.shape, size, scale_factor)
    if recompute_scale_factor:
        scales = [None] * len(scales)
    index = []
    n = nd - 2
    for i, (in_size, out, s) in enumerate(zip(x.data.shape[2:], sizes, scales)):
        idx = nearest_index(in_size, out, s)
        index.append(idx.reshape((-1,) + (1,) * (n - 1 - i)))
    return _NODES[n].apply(x, index=tuple(index))
