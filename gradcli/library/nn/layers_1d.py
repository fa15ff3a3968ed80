"""torch.nn's 1-d convolution and pools: nn.Conv1d (Conv2d's parameters with one spatial
dim, drawn as PyTorch draws them), nn.MaxPool1d, nn.AvgPool1d and nn.AdaptiveAvgPool1d,
each running its op (ops/conv1d.py), with PyTorch's reprs."""

from __future__ import annotations

import math

from ...ops import batching
from ...ops.registry import FUNCTIONS
from ...runtime.errors import GradValueError
from .init import fan_in_and_fan_out, kaiming_uniform_, uniform_
from .layers import PADDING_MODES, _empty
from .module import Module


def _single(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,)


class Conv1d(Module):
    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups=1,
        bias=True,
        padding_mode="zeros",
        device=None,
        dtype=None,
    ):
        super().__init__()
        if isinstance(groups, bool) or not isinstance(groups, int) or groups <= 0:
            raise GradValueError("groups must be a positive integer")
        if in_channels % groups:
            raise GradValueError("in_channels must be divisible by groups")
        if out_channels % groups:
            raise GradValueError("out_channels must be divisible by groups")
        self.kernel_size, self.stride = _single(kernel_size), _single(stride)
        self.dilation = _single(dilation)
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise GradValueError(
                    f"Invalid padding string {padding!r}, should be one of {{'same', 'valid'}}"
                )
            if padding == "same" and self.stride != (1,):
                raise GradValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in PADDING_MODES:
            raise GradValueError(
                "padding_mode must be one of {'circular', 'reflect', 'replicate', "
                f"'zeros'}}, but got padding_mode='{padding_mode}'"
            )
        self.in_channels, self.out_channels = in_channels, out_channels
        self.padding = padding if isinstance(padding, str) else _single(padding)
        self.groups, self.padding_mode = groups, padding_mode
        self.weight = _empty(out_channels, in_channels // groups, *self.kernel_size, dtype=dtype)
        if bias:
            self.bias = _empty(out_channels, dtype=dtype)
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                uniform_(self.bias, -bound, bound)

    def forward(self, input):
        args = (self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)
        if self.padding_mode != "zeros":
            if self.padding == "same":
                total = self.dilation[0] * (self.kernel_size[0] - 1)
                sides = (total // 2, total - total // 2)
            else:
                p = 0 if self.padding == "valid" else self.padding[0]
                sides = (p, p)
            padded = FUNCTIONS["pad"](input, sides, mode=self.padding_mode)
            return batching.op("conv1d", padded, *args[:3], (0,), *args[4:])
        return batching.op("conv1d", input, *args)

    def extra_repr(self):
        s = (
            f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}"
        )
        if self.padding != (0,):
            s += (
                f", padding={self.padding!r}"
                if isinstance(self.padding, str)
                else (f", padding={self.padding}")
            )
        if self.dilation != (1,):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class MaxPool1d(Module):
    def __init__(
        self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False
    ):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input):
        return batching.op(
            "max_pool1d", input, self.kernel_size, self.stride, self.padding, self.dilation,
            self.ceil_mode, self.return_indices,
        )  # fmt: skip

    def extra_repr(self):
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
            f"dilation={self.dilation}, ceil_mode={self.ceil_mode}"
        )


class AvgPool1d(Module):
    def __init__(
        self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True
    ):
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def forward(self, input):
        return batching.op(
            "avg_pool1d", input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
            self.count_include_pad,
        )  # fmt: skip

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool1d(Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return batching.op("adaptive_avg_pool1d", input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


LAYERS_1D = {
    "Conv1d": Conv1d,
    "MaxPool1d": MaxPool1d,
    "AvgPool1d": AvgPool1d,
    "AdaptiveAvgPool1d": AdaptiveAvgPool1d,
}
