"""torch.nn's normalisation layers (nn.LayerNorm, nn.RMSNorm, nn.GroupNorm): parameters made and initialised as
PyTorch's are (weight ones, bias zeros), printed as PyTorch prints them."""

from __future__ import annotations

import numpy as np

from .init import filled
from ...runtime import context
from ...runtime.errors import GradTypeError, GradValueError
from ...core import dtypes
from ...core.convert import tensor_arg
from ...ops import batching
from .module import Module, new_parameter


def _float(dtype):
    return context.current.default_float if dtype is None else dtypes.as_numpy(dtype)


def _shape(normalized_shape):
    if isinstance(normalized_shape, int) and not isinstance(normalized_shape, bool):
        return (normalized_shape,)
    if not isinstance(normalized_shape, (tuple, list)):
        raise GradTypeError(f"'{type(normalized_shape).__name__}' object is not iterable")
    return tuple(int(d) for d in normalized_shape)


class LayerNorm(Module):
    replay_op = "layer_norm"  # (its forward that one op of its input and state)

    def __init__(
        self,
        normalized_shape,
        eps=1e-05,
        elementwise_affine=True,
        bias=True,
        device=None,
        dtype=None,
    ):
        super().__init__()
        self.normalized_shape = _shape(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        dt = _float(dtype)
        if elementwise_affine:
            self.weight = new_parameter(np.ones(self.normalized_shape, dtype=dt))
            if bias:
                self.bias = new_parameter(np.zeros(self.normalized_shape, dtype=dt))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        filled(self)  # (torch's reset_parameters: one fill each)

    def reset_parameters(self):
        if self.elementwise_affine:
            self.weight.data[...] = 1
            if self.bias is not None:
                self.bias.data[...] = 0

    def forward(self, input):
        return batching.op(
            "layer_norm", input, self.normalized_shape, self.weight, self.bias, self.eps
        )

    def extra_repr(self):
        return (
            f"{self.normalized_shape}, eps={self.eps}, "
            f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}"
        )


class RMSNorm(Module):
    def __init__(
        self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None
    ):
        super().__init__()
        self.normalized_shape = _shape(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = new_parameter(np.ones(self.normalized_shape, dtype=_float(dtype)))
        else:
            self.register_parameter("weight", None)
        filled(self)  # (torch's reset_parameters: one fill each)

    def reset_parameters(self):
        if self.elementwise_affine:
            self.weight.data[...] = 1

    def forward(self, x):
        return batching.op("rms_norm", x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return (
            f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"
        )


class GroupNorm(Module):
    def __init__(
        self, num_groups, num_channels, eps=1e-05, affine=True, device=None, dtype=None, *,
        bias=True,
    ):  # fmt: skip
        super().__init__()
        if num_channels % num_groups != 0:
            raise GradValueError(
                f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})"
            )
        self.num_groups, self.num_channels = num_groups, num_channels
        self.eps, self.affine = eps, affine
        dt = _float(dtype)
        if affine:
            self.weight = new_parameter(np.ones(num_channels, dtype=dt))
            if bias:
                self.bias = new_parameter(np.zeros(num_channels, dtype=dt))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        filled(self)  # (torch's reset_parameters: one fill each)

    def reset_parameters(self):
        if self.affine:
            self.weight.data[...] = 1
            if self.bias is not None:
                self.bias.data[...] = 0

    def forward(self, input):
        return batching.op("group_norm", input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (
            f"{self.num_groups}, {self.num_channels}, eps={self.eps}, "
            f"affine={self.affine}, bias={self.bias is not None}"
        )


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """input / (k + alpha * the mean of squares over `size` neighbouring channels) ** beta:
    torch.nn.functional's Python, line by line."""
    x = tensor_arg(input)
    dim = x.data.ndim
    if dim < 3:
        raise GradValueError(
            "Expected 3D or higher dimensionality                          input (got "
            f"{dim} dimensions)"
        )
    if x.data.size == 0:
        return x
    div = batching.op("mul", x, x)
    if dim == 3:
        div = batching.op("unsqueeze", div, 1)
        div = batching.op("pad", div, (0, 0, size // 2, (size - 1) // 2))
        div = batching.op("squeeze", batching.op("avg_pool2d", div, (size, 1), stride=1), 1)
    else:
        sizes = x.data.shape
        div = batching.op("view", div, sizes[0], 1, sizes[1], sizes[2], -1)
        div = batching.op("pad", div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = batching.op("squeeze", batching.op("avg_pool3d", div, (size, 1, 1), stride=1), 1)
        div = batching.op("view", div, *sizes)
    div = batching.op("pow", batching.op("add", batching.op("mul", div, alpha), k), beta)
    return batching.op("div", x, div)


class LocalResponseNorm(Module):
    """each value divided by (k + alpha * the mean of squares of size neighbouring
    channels) ** beta."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input):
        return local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


NORMS = {c.__name__: c for c in (LayerNorm, RMSNorm, GroupNorm, LocalResponseNorm)}
