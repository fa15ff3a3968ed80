"""torch.nn's layers: Linear, Bilinear, Conv2d, MaxPool2d, the activations, Flatten,
Identity and Dropout.  Parameters are made (empty, in the default float dtype) and
initialised in PyTorch's order with PyTorch's draws (`reset_parameters`), so the same
`manual_seed` gives the same numbers; each prints as PyTorch prints it."""

from __future__ import annotations

import math

import numpy as np

from ...runtime import context
from ...runtime.errors import (
    GradAssertionError,
    GradRuntimeError,
    GradTypeError,
    GradValueError,
)
from ...core import dtypes
from ...core.convert import type_name
from ...ops.nn import _pair
from ...ops import batching  # layers run batched inside vmap (op: the op, batched if an input is)
from ...ops.registry import FUNCTIONS
from ...ops.softmax import FUNCTIONAL as SOFTMAX_FUNCTIONAL
from .init import fan_in_and_fan_out, kaiming_uniform_, uniform_
from ...core.parameter import is_uninitialized, set_uninitialized
from .inplace_acts import call as inplace_call
from .module import Module, new_parameter


def _empty(*shape, dtype=None):
    dt = context.current.default_float if dtype is None else dtypes.as_numpy(dtype)
    return new_parameter(np.zeros(shape, dtype=dt))


def _int(v, name):
    if isinstance(v, bool) or not isinstance(v, int):
        raise GradTypeError(f"empty(): argument '{name}' must be int, not {type_name(v)}")
    if v < 0:
        raise GradValueError(f"Trying to create tensor with negative dimension {v}: [{v}]")
    return v


class Linear(Module):
    replay_op = "linear"

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = _int(in_features, "size")
        self.out_features = _int(out_features, "size")
        self.weight = _empty(out_features, in_features, dtype=dtype)
        if bias:
            self.bias = _empty(out_features, dtype=dtype)
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return batching.op("linear", input, self.weight, self.bias)

    def extra_repr(self):
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )


class LazyLinear(Linear):
    """nn.LazyLinear(out_features): in_features is taken from the first input, when the
    parameters are made and initialised (as Linear's) and the module becomes a Linear."""

    replay_op = None  # (its first call makes its parameters)

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        Module.__init__(self)
        self.in_features, self.out_features = 0, _int(out_features, "size")
        self.weight = set_uninitialized(_empty(0, dtype=dtype))
        if bias:
            self.bias = set_uninitialized(_empty(0, dtype=dtype))
        else:
            self.register_parameter("bias", None)

    def forward(self, input):
        if is_uninitialized(self.weight):
            self.in_features = int(input.data.shape[-1]) if input.data.ndim else 1
            w = self.weight
            w.data = np.zeros((self.out_features, self.in_features), dtype=w.data.dtype)
            set_uninitialized(w, False)
            if self.bias is not None:
                self.bias.data = np.zeros((self.out_features,), dtype=self.bias.data.dtype)
                set_uninitialized(self.bias, False)
            self.reset_parameters()
        if self.in_features == 0:  # its parameters loaded by load_state_dict
            n = int(input.data.shape[-1]) if input.data.ndim else 1
            if n != self.weight.data.shape[-1]:
                raise GradAssertionError(
                    f"The in_features inferred from input: {n} is not equal to in_features "
                    f"from self.weight: {self.weight.data.shape[-1]}"
                )
            self.in_features = n
        object.__setattr__(self, "__class__", Linear)  # torch: cls_to_become (also when
        return Linear.forward(self, input)  # load_state_dict made the parameters)


class Bilinear(Module):
    def __init__(
        self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None
    ):
        super().__init__()
        self.in1_features, self.in2_features = in1_features, in2_features
        self.out_features = out_features
        self.weight = _empty(out_features, in1_features, in2_features, dtype=dtype)
        if bias:
            self.bias = _empty(out_features, dtype=dtype)
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.weight.data.shape[1])
        uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return (
            f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
            f"out_features={self.out_features}, bias={self.bias is not None}"
        )


def bilinear(input1, input2, weight, bias=None):
    """y[..., o] = sum_ij x1[..., i] W[o, i, j] x2[..., j] + b[o]."""
    f = FUNCTIONS
    o, i, j = weight.data.shape
    wp = f["reshape"](f["permute"](weight, 1, 0, 2), i, o * j)
    t = f["reshape"](f["matmul"](input1, wp), *input1.data.shape[:-1], o, j)
    y = f["sum"](f["mul"](t, f["unsqueeze"](input2, -2)), -1)
    return y if bias is None else f["add"](y, bias)


def conv_init(
    m, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
    padding_mode, dtype, tup,
):  # fmt: skip
    """A convolution module's checks and attributes as PyTorch's _ConvNd sets them (`tup`:
    a size as a tuple of the module's dims, _single or _pair), then its parameters drawn
    (m.reset_parameters)."""
    if isinstance(groups, bool) or not isinstance(groups, int) or groups <= 0:
        raise GradValueError("groups must be a positive integer")
    if in_channels % groups:
        raise GradValueError("in_channels must be divisible by groups")
    if out_channels % groups:
        raise GradValueError("out_channels must be divisible by groups")
    m.kernel_size = tup(kernel_size, "kernel_size")
    m.stride = tup(stride, "stride")
    m.dilation = tup(dilation, "dilation")
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            # torch prints a Python set here (its order varies from run to run)
            raise GradValueError(
                f"Invalid padding string {padding!r}, should be one of {{'same', 'valid'}}"
            )
        if padding == "same" and any(s != 1 for s in m.stride):
            raise GradValueError("padding='same' is not supported for strided convolutions")
    if padding_mode not in PADDING_MODES:
        raise GradValueError(
            "padding_mode must be one of {'circular', 'reflect', 'replicate', "
            f"'zeros'}}, but got padding_mode='{padding_mode}'"
        )
    m.in_channels, m.out_channels = in_channels, out_channels
    m.padding = padding if isinstance(padding, str) else tup(padding, "padding")
    m.groups, m.padding_mode = groups, padding_mode
    m.weight = _empty(out_channels, in_channels // groups, *m.kernel_size, dtype=dtype)
    if bias:
        m.bias = _empty(out_channels, dtype=dtype)
    else:
        m.register_parameter("bias", None)
    m.reset_parameters()


def conv_reset_parameters(m):
    """_ConvNd.reset_parameters: kaiming_uniform_(a=sqrt(5)), the bias from the fan-in."""
    kaiming_uniform_(m.weight, a=math.sqrt(5))
    if m.bias is not None:
        fan_in, _ = fan_in_and_fan_out(m.weight)
        if fan_in != 0:
            bound = 1 / math.sqrt(fan_in)
            uniform_(m.bias, -bound, bound)


class Conv2d(Module):
    replay_op = "conv2d"

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
            bias, padding_mode, dtype, lambda v, what: _pair(v, what),
        )  # fmt: skip

    def _pad_sides(self):
        """F.pad's (left, right, top, bottom) for a padding_mode other than zeros."""
        if self.padding == "valid":
            return (0, 0, 0, 0)
        if self.padding == "same":
            out = []
            for d, k in zip(self.dilation[::-1], self.kernel_size[::-1]):
                total = d * (k - 1)
                out += [total // 2, total - total // 2]
            return tuple(out)
        ph, pw = self.padding
        return (pw, pw, ph, ph)

    def replay_pure(self):
        """(Module.replay_pure) Its forward runs conv2d alone with zeros' padding (another
        mode pads first)."""
        return self.padding_mode == "zeros" and Module.replay_pure(self)

    def reset_parameters(self):
        conv_reset_parameters(self)

    def forward(self, input):
        if self.padding_mode != "zeros":
            padded = FUNCTIONS["pad"](input, self._pad_sides(), mode=self.padding_mode)
            return batching.op(
                "conv2d",
                padded,
                self.weight,
                self.bias,
                self.stride,
                (0, 0),
                self.dilation,
                self.groups,
            )
        return batching.op(
            "conv2d",
            input,
            self.weight,
            self.bias,
            self.stride,
            self.padding,
            self.dilation,
            self.groups,
        )

    def extra_repr(self):
        s = (
            f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}"
        )
        if self.padding != (0, 0):
            s += f", padding={self.padding}"
        if self.dilation != (1, 1):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class LazyConv2d(Conv2d):
    """nn.LazyConv2d(out_channels, kernel_size, ...): in_channels is taken from the first
    input (its dim 1, or dim 0 unbatched), when the parameters are made and initialised
    (as Conv2d's) and the module becomes a Conv2d."""

    replay_op = None  # (its first call makes its parameters)

    def __init__(
        self,
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
        Conv2d.__init__(
            self, 0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode,
            dtype=dtype,
        )  # fmt: skip
        self.weight = set_uninitialized(_empty(0, dtype=dtype))
        self.out_channels = out_channels
        if bias:
            self.bias = set_uninitialized(_empty(0, dtype=dtype))

    def reset_parameters(self):
        if self.in_channels != 0 and not is_uninitialized(self.weight):
            Conv2d.reset_parameters(self)

    def forward(self, input):
        if is_uninitialized(self.weight):
            shape = input.data.shape
            if len(shape) not in (3, 4):
                raise GradRuntimeError(
                    "Expected 3D (unbatched) or 4D (batched) input to LazyConv2d, but got "
                    f"input of size: torch.Size({list(shape)})"
                )
            self.in_channels = int(shape[1] if len(shape) == 4 else shape[0])
            if self.in_channels % self.groups:
                raise GradValueError("in_channels must be divisible by groups")
            w = self.weight
            w.data = np.zeros(
                (self.out_channels, self.in_channels // self.groups, *self.kernel_size),
                dtype=w.data.dtype,
            )
            set_uninitialized(w, False)
            if self.bias is not None:
                self.bias.data = np.zeros((self.out_channels,), dtype=self.bias.data.dtype)
                set_uninitialized(self.bias, False)
            self.reset_parameters()
        object.__setattr__(self, "__class__", Conv2d)  # torch: cls_to_become (also when
        return Conv2d.forward(self, input)  # load_state_dict made the parameters)


PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


class MaxPool2d(Module):
    replay_op = "max_pool2d"

    def __init__(
        self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False
    ):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def replay_pure(self):
        """(Module.replay_pure) return_indices, which gradcli refuses, is not replayed."""
        return not self.return_indices and Module.replay_pure(self)

    def forward(self, input):
        return batching.op(
            "max_pool2d",
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.dilation,
            self.ceil_mode,
            self.return_indices,
        )

    def extra_repr(self):
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
            f"dilation={self.dilation}, ceil_mode={self.ceil_mode}"
        )


def _activation(name, fn, doc, inplace=True):
    def __init__(self, inplace=False):
        Module.__init__(self)
        self.inplace = inplace

    def forward(self, input):
        if getattr(self, "inplace", False):
            return batching.op(fn + "_", input)  # (PyTorch's in-place op, as F's inplace=True)
        return batching.op(fn, input)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""

    def replay_pure(self):
        return not self.inplace and Module.replay_pure(self)

    body = {"forward": forward, "__doc__": doc, "replay_op": fn}
    if inplace:
        body.update({"__init__": __init__, "extra_repr": extra_repr, "replay_pure": replay_pure})
    return type(name, (Module,), body)


ReLU = _activation("ReLU", "relu", "max(0, x) element-wise")
Tanh = _activation("Tanh", "tanh", "tanh element-wise", inplace=False)
Sigmoid = _activation("Sigmoid", "sigmoid", "1 / (1 + exp(-x)) element-wise", inplace=False)
LogSigmoid = _activation("LogSigmoid", "logsigmoid", "log(sigmoid(x)) element-wise", inplace=False)


class _SoftmaxBase(Module):
    fn = "softmax"

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return batching.call(SOFTMAX_FUNCTIONAL[self.fn], (input, self.dim))

    def replay_pure(self):
        """(Module.replay_pure) Its function's op, given a dim: without one the function
        chooses it and warns, which a replayed call would not."""
        return type(self.dim) is int and super().replay_pure()

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax(_SoftmaxBase):
    fn = "softmax"
    replay_op = "softmax"


class LogSoftmax(_SoftmaxBase):
    fn = "log_softmax"
    replay_op = "log_softmax"


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, input):
        if self.inplace:
            return inplace_call("leaky_relu", input, self.negative_slope, inplace=True)
        return batching.op("leaky_relu", input, self.negative_slope)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class GELU(Module):
    replay_op = "gelu"

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return batching.op("gelu", input, self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class Flatten(Module):
    replay_op = "flatten"

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input):
        return batching.op("flatten", input, self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Identity(Module):
    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Dropout(Module):
    replay_op = "dropout"  # (its draws replayed in their place: ops/nn.py _Noise)
    replay_training = True  # (in eval() its forward runs no op)

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
            raise GradValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def forward(self, input):
        return batching.op("dropout", input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


LAYERS = {
    c.__name__: c
    for c in (
        Linear,
        LazyLinear,
        Bilinear,
        Conv2d,
        LazyConv2d,
        MaxPool2d,
        ReLU,
        Tanh,
        Sigmoid,
        LogSigmoid,
        Softmax,
        LogSoftmax,
        LeakyReLU,
        GELU,
        Flatten,
        Identity,
        Dropout,
    )
}
