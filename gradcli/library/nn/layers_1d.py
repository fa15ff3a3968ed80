"""torch.nn's 1-d convolution and pools: nn.Conv1d (Conv2d's parameters with one spatial
dim, drawn as PyTorch draws them), nn.MaxPool1d, nn.AvgPool1d and nn.AdaptiveAvgPool1d,
each running its op (ops/conv1d.py), with PyTorch's reprs."""

from __future__ import annotations

from ...ops import batching
from ...ops.registry import FUNCTIONS
from .layers import conv_init, conv_reset_parameters
from .layers_more import AdaptiveAvgPoolNd
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
        conv_init(
            self, in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
            bias, padding_mode, dtype, lambda v, what: _single(v),
        )  # fmt: skip

    def reset_parameters(self):
        conv_reset_parameters(self)

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


class AdaptiveAvgPool1d(AdaptiveAvgPoolNd):
    pool = "adaptive_avg_pool1d"


LAYERS_1D = {
    "Conv1d": Conv1d,
    "MaxPool1d": MaxPool1d,
    "AvgPool1d": AvgPool1d,
    "AdaptiveAvgPool1d": AdaptiveAvgPool1d,
}
