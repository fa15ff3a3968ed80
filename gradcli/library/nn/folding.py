"""F.unfold and F.fold (nn.Unfold, nn.Fold): ATen's im2col and col2im.

`unfold` takes every kernel-sized block of a (N, C, H, W) input (padded with zeros,
strided, dilated) as a column: (N, C * kh * kw, L), the row c * kh * kw + i * kw + j the
input at kernel offset (i, j) of channel c; a gather, exact.  `fold` is its adjoint: each
column's values added into an output of zeros at the places they came from, in col2im's
order (offset by offset, so overlapping blocks add in that order).  Their nodes are
PyTorch's Im2ColBackward0 and Col2ImBackward0, each one's backward the other's forward."""

from __future__ import annotations

import numpy as np

from ...core.convert import tensor_arg
from ...engine.declare import none
from ...engine.function import Function
from ...runtime.errors import GradRuntimeError
from .module import Module


def _pair(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


def _blocks(size, kernel, dilation, padding, stride):
    return [
        (size[d] + 2 * padding[d] - dilation[d] * (kernel[d] - 1) - 1) // stride[d] + 1
        for d in (0, 1)
    ]


def _im2col(x, kernel, dilation, padding, stride):
    n, c, h, w = x.shape
    bh, bw = _blocks((h, w), kernel, dilation, padding, stride)
    padded = np.zeros((n, c, h + 2 * padding[0], w + 2 * padding[1]), x.dtype)
    padded[:, :, padding[0] : padding[0] + h, padding[1] : padding[1] + w] = x
    out = np.empty((n, c, kernel[0], kernel[1], bh, bw), x.dtype)
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            r0, c0 = i * dilation[0], j * dilation[1]
            out[:, :, i, j] = padded[
                :,
                :,
                r0 : r0 + stride[0] * (bh - 1) + 1 : stride[0],
                c0 : c0 + stride[1] * (bw - 1) + 1 : stride[1],
            ]
    return out.reshape(n, c * kernel[0] * kernel[1], bh * bw)


def _col2im(cols, size, kernel, dilation, padding, stride):
    n = cols.shape[0]
    c = cols.shape[1] // (kernel[0] * kernel[1])
    bh, bw = _blocks(size, kernel, dilation, padding, stride)
    h, w = size
    blocks = cols.reshape(n, c, kernel[0], kernel[1], bh, bw)
    padded = np.zeros((n, c, h + 2 * padding[0], w + 2 * padding[1]), cols.dtype)
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            r0, c0 = i * dilation[0], j * dilation[1]
            view = padded[
                :,
                :,
                r0 : r0 + stride[0] * (bh - 1) + 1 : stride[0],
                c0 : c0 + stride[1] * (bw - 1) + 1 : stride[1],
            ]
            view += blocks[:, :, i, j]
    return np.ascontiguousarray(
        padded[:, :, padding[0] : padding[0] + h, padding[1] : padding[1] + w]
    )


class Im2Col(Function):
    __slots__ = ("args", "size", "batched")
    name = "Im2ColBackward0"
    saved_names = ()
    jvp = none("gradcli has no forward-mode rule for unfold")
    formula = none("a gather of blocks: shown as a named function")
    differentiable_twice = False

    def forward(self, x, args, batched):
        self.args, self.batched = args, batched
        x4 = x if batched else x[None]
        self.size = x4.shape[2:]
        out = _im2col(x4, *args)
        return out if batched else out[0]

    def backward(self, g, F):
        g3 = g if self.batched else g[None]
        out = _col2im(g3, self.size, *self.args)
        return (out if self.batched else out[0],)


class Col2Im(Function):
    __slots__ = ("args", "batched")
    name = "Col2ImBackward0"
    saved_names = ()
    jvp = none("gradcli has no forward-mode rule for fold")
    formula = none("a scatter-add of blocks: shown as a named function")
    differentiable_twice = False

    def forward(self, x, size, args, batched):
        self.args, self.batched = args, batched
        x3 = x if batched else x[None]
        out = _col2im(x3, size, *args)
        return out if batched else out[0]

    def backward(self, g, F):
        g4 = g if self.batched else g[None]
        out = _im2col(g4, *self.args)
        return (out if self.batched else out[0],)


def _args(kernel_size, dilation, padding, stride):
    return (_pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride))


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):  # noqa: A002
    x = tensor_arg(input)
    nd = x.data.ndim
    if nd not in (3, 4):
        if nd < 3:
            raise GradRuntimeError(
                f"Dimension out of range (expected to be in range of [-{nd}, {nd - 1}], but "
                f"got {nd})",
                type_name="IndexError",
            )
        raise GradRuntimeError(
            f"Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other "
            f"non-zero dimensions for input, but got: {list(x.data.shape)}"
        )
    args = _args(kernel_size, dilation, padding, stride)
    return Im2Col.apply(x, args=args, batched=nd == 4)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):  # noqa: A002
    x = tensor_arg(input)
    nd = x.data.ndim
    if nd not in (2, 3):
        raise GradRuntimeError(
            f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and "
            f"non-zero dimensions for input, but got: {list(x.data.shape)}"
        )
    args = _args(kernel_size, dilation, padding, stride)
    size = _pair(output_size)
    kernel, dil, pad, st = args
    cols = x.data.shape[-2]
    if cols % (kernel[0] * kernel[1]):
        raise GradRuntimeError(
            "Expected size of input's dimension 1 to be divisible by the product of "
            f"kernel_size, but got input.size(1)={cols} and kernel_size={kernel}."
        )
    bh, bw = _blocks(size, kernel, dil, pad, st)
    if x.data.shape[-1] != bh * bw:
        raise GradRuntimeError(
            f"Given output_size={size}, kernel_size={kernel}, dilation={dil}, padding={pad}, "
            f"stride={st}, expected size of input's dimension 2 to match the calculated number "
            f"of sliding blocks {bh} * {bw} = {bh * bw}, but got input.size(2)="
            f"{x.data.shape[-1]}."
        )
    return Col2Im.apply(x, size=size, args=args, batched=nd == 3)


class Unfold(Module):
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation = kernel_size, dilation
        self.padding, self.stride = padding, stride

    def forward(self, input):  # noqa: A002
        return unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (
            f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
            f"padding={self.padding}, stride={self.stride}"
        )


class Fold(Module):
    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input):  # noqa: A002
        return fold(
            input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride
        )

    def extra_repr(self):
        return (
            f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
            f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}"
        )
