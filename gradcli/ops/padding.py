"""torch.nn.functional.pad: constant (ConstantPadNdBackward0, negative pads crop),
reflect and replicate (ReflectionPad{1,2,3}DBackward0, ReplicationPad{1,2,3}DBackward0)
and circular (torch builds it from slice copies: its grad_fn is CopySlices).

Every mode maps each output position of a padded dimension to an input position (or,
for constant, to none), one dimension at a time; the forward takes those positions,
the backward adds the gradient back along the same map, so padding is differentiable
again (the backward is an op of its own, PadBackward, whose VJP is the pad; it shows
torch's name for a pad's gradient: ConstantPadNdBackward0, ReflectionPad1DBackwardBackward0...)."""

from __future__ import annotations

import numpy as np

from ..engine.declare import Without, none
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..core.convert import tensor_arg, type_name
from ..engine.function import Function
from ..engine.forward import linear
from .registry import Arg, register

MODES = ("constant", "reflect", "replicate", "circular")


def _positions(n, left, right, mode):
    """Input position of each output position of one dimension (-1: the fill value)."""
    i = np.arange(-left, n + right)
    if mode == "constant":
        return np.where((i >= 0) & (i < n), i, -1)
    if mode == "reflect":
        i = np.abs(i)
        return np.where(i >= n, 2 * (n - 1) - i, i)
    if mode == "replicate":
        return np.clip(i, 0, n - 1)
    return i % n  # circular


def _maps(shape, pad, mode):
    """[(axis, positions)] of each dimension `pad` pads (its last dims, pairs of left and
    right sizes from the last dim on), first axis first."""
    nd = len(shape)
    maps = []
    for j in range(len(pad) // 2):
        axis = nd - 1 - j
        maps.append((axis, _positions(shape[axis], pad[2 * j], pad[2 * j + 1], mode)))
    maps.reverse()
    return maps


def _take(x, maps, value):
    """x with each (axis, positions) of maps applied; positions -1 hold value."""
    for axis, pos in maps:
        out = np.take(x, np.maximum(pos, 0), axis=axis)
        if (pos < 0).any():
            shape = [1] * x.ndim
            shape[axis] = pos.size
            out = np.where((pos < 0).reshape(shape), np.asarray(value, dtype=x.dtype), out)
        x = out.astype(x.dtype, copy=False)
    return x


def _add_back(g, maps, shape):
    """The adjoint of _take (value 0): g summed back onto `shape` along each map."""
    for axis, pos in reversed(maps):
        moved = np.moveaxis(g, axis, 0)
        keep = pos >= 0
        out = np.zeros((shape[axis],) + moved.shape[1:], dtype=g.dtype)
        np.add.at(out, pos[keep], moved[keep])
        g = np.moveaxis(out, 0, axis)
    return g


class Pad(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ("maps", "shape", "pad")
    name = "ConstantPadNdBackward0"
    saved_names: tuple | Without = ()
    saved_extra: dict = {"pad": lambda node: node.pad}
    jvp = linear

    def forward(self, x, maps=None, value=0, pad=(), mode="constant"):
        # maps: each padded dim's positions, or None: made here from the shape, `pad` and
        # `mode` (numbers: a replayed loop runs the node again with them)
        if maps is None:
            maps = _maps(x.shape, pad, mode)
        self.maps, self.shape, self.pad = maps, x.shape, pad
        return _take(x, maps, value)

    def backward(self, g, F):
        if F.tensor_mode:
            back = BACKWARDS.get(self.name, PadBackward)
            return (back.apply(g, maps=self.maps, shape=self.shape),)
        return (_add_back(g, self.maps, self.shape),)


# one class per grad_fn name torch shows
NAMED = {
    name: type(
        name,
        (Pad,),
        {
            "__slots__": (),
            "name": name,
            "saved_names": none(
                "PyTorch saves the input (_saved_self), which this backward does not keep "
                "(it keeps the index maps)"
            ),
            "saved_extra": {"padding": lambda node: node.pad},
        },
    )
    for name in [
        "%s%dDBackward0" % (kind, k)
        for kind in ("ReflectionPad", "ReplicationPad")
        for k in (1, 2, 3)
    ]
}
# circular padding: PyTorch copies slices in place, a CopySlices node that saves nothing
NAMED["CopySlices"] = type(
    "CopySlices", (Pad,), {"__slots__": (), "name": "CopySlices", "saved_extra": {}}
)
NAMED["ConstantPadNdBackward0"] = Pad


class PadBackward(Function):
    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )
    __slots__ = ("maps",)
    name = "PadBackward"
    saved_names = none("a node of gradcli's own: PyTorch's gradient of a pad is a slice")
    jvp = linear

    def forward(self, g, maps, shape):
        self.maps = maps
        return _add_back(g, maps, shape)

    def backward(self, gg, F):
        if F.tensor_mode:
            return (Pad.apply(gg, maps=self.maps, value=0),)
        return (_take(gg, self.maps, 0),)


# the gradient of a pad as torch names it (a constant pad's is a constant pad, with the
# pads negated; a circular pad's the backward of the slice x was copied into; reflection
# and replication have backward ops of their own)
BACKWARDS = {
    name: type(
        back,
        (PadBackward,),
        {"__slots__": (), "name": back},
    )
    for name, back in [
        ("ConstantPadNdBackward0", "ConstantPadNdBackward0"),
        ("CopySlices", "SliceBackwardBackward0"),  # (circular: the copy of x into a slice)
    ]
    + [
        ("%s%dDBackward0" % (kind, k), "%s%dDBackwardBackward0" % (kind, k))
        for kind in ("ReflectionPad", "ReplicationPad")
        for k in (1, 2, 3)
    ]
}


@register(
    "pad",
    "pad(input, pad, mode='constant', value=None)",
    "pad the last len(pad) // 2 dimensions: pad = (left, right, top, bottom, ...), "
    "mode constant, reflect, replicate or circular",
    checks=[
        ((Arg((2, 3)), (1, 2)), {}),
        ((Arg((1, 2, 3, 4)), (1, 1, 2, 0)), {"mode": "reflect"}),
        ((Arg((1, 2, 3)), (2, 1)), {"mode": "replicate"}),
        ((Arg((1, 1, 3, 3)), (1, 2, 3, 1)), {"mode": "circular"}),
    ],
    category="nn",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def pad(input, pad, mode="constant", value=None):
    x = tensor_arg(input)
    if not isinstance(pad, (list, tuple)) or any(
        isinstance(p, bool) or not isinstance(p, int) for p in pad
    ):
        raise GradTypeError(f"pad(): argument 'pad' must be tuple of ints, not {type_name(pad)}")
    if mode not in MODES:
        raise GradRuntimeError(f"Unrecognised padding mode {mode}", type_name="NotImplementedError")
    if len(pad) % 2:
        raise GradRuntimeError("Padding length must be divisible by 2")
    nd, k = x.data.ndim, len(pad) // 2
    if k > nd:
        raise GradRuntimeError(
            "Padding length should be less than or equal to two times the "
            "input dimension but got padding length "
            f"{len(pad)} and input of dimension {nd}"
        )
    if mode != "constant":
        if value is not None and value != 0:
            raise GradRuntimeError(
                f'Padding mode "{mode}" doesn\'t take in value argument', type_name="AssertionError"
            )
        if not (k <= 3 and k + 1 <= nd <= k + 2):
            raise GradRuntimeError(
                f"Padding size {len(pad)} is not supported for {nd}D input tensor.\n"
                "Supported combinations for non-constant padding:\n"
                "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)",
                type_name="NotImplementedError",
            )
    shape = x.data.shape
    for j in range(k):
        axis = nd - 1 - j
        left, right, n = pad[2 * j], pad[2 * j + 1], shape[axis]
        if mode == "constant":
            if n + left + right < 0:
                raise GradRuntimeError(
                    f"The input size {n}, plus negative padding {left} and {right} resulted in a "
                    f"negative output size, which is invalid. Check dimension {axis} of your input."
                )
        elif mode == "reflect" and (left >= n or right >= n):
            raise GradRuntimeError(
                f"Argument #4: Padding size should be less than the corresponding input "
                f"dimension, but got: padding ({left}, {right}) at dimension {axis} of input "
                f"[{', '.join(str(s) for s in shape)}]"
            )
        elif mode == "circular" and (left > n or right > n):
            raise GradRuntimeError("Padding value causes wrapping around more than once.")
        elif min(left, right) < 0 and mode != "constant":
            raise GradRuntimeError(f"negative padding is not supported in {mode} mode")
    if mode == "constant":
        name = "ConstantPadNdBackward0"
    elif mode == "circular":
        name = "CopySlices"
    else:
        name = (
            "ReflectionPad%dDBackward0" if mode == "reflect" else "ReplicationPad%dDBackward0"
        ) % k
    value = 0 if value is None else value
    return NAMED[name].apply(x, value=value, pad=tuple(pad), mode=mode)
