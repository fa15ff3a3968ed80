"""torch.nn's other activation modules (Threshold, RReLU, Hardtanh, ReLU6, Hardsigmoid,
SiLU, Mish, Hardswish, ELU, CELU, SELU, GLU, Hardshrink, Softplus, Softshrink, PReLU,
Softsign, Tanhshrink, Softmin, Softmax2d), each printing as PyTorch's, and the
functions of torch.nn.functional that PyTorch writes in Python (softsign, tanhshrink,
softmin)."""

from __future__ import annotations

import numpy as np

from .init import filled
from ...core import dtypes
from ...core.convert import tensor_arg
from ...ops import batching
from ...ops.softmax import FUNCTIONAL as SOFTMAX_FUNCTIONAL
from ...runtime import context
from ...runtime.errors import GradAssertionError, GradValueError
from .inplace_acts import call as inplace_call
from .module import Module, new_parameter


def softsign(input):
    """input / (input.abs() + 1), as torch.nn.functional writes it."""
    x = tensor_arg(input)
    return batching.op("div", x, batching.op("add", batching.op("abs", x), 1))


def tanhshrink(input):
    """input - input.tanh(), as torch.nn.functional writes it."""
    x = tensor_arg(input)
    return batching.op("sub", x, batching.op("tanh", x))


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-input, dim), as torch.nn.functional writes it (the implicit dim warned)."""
    x = tensor_arg(input)
    if dim is None:
        context.warn(
            "Implicit dimension choice for softmin has been deprecated. Change the call to "
            "include dim=X as an argument."
        )
        dim = 0 if x.data.ndim in (0, 1, 3) else 1
    if dtype is not None:
        x = batching.op("to", x, dtype)
    return SOFTMAX_FUNCTIONAL["softmax"](batching.op("neg", x), dim)


FUNCTIONAL = {"softsign": softsign, "tanhshrink": tanhshrink, "softmin": softmin}


def _inplace(module):
    return ", inplace=True" if module.inplace else ""


class Threshold(Module):
    """input where input > threshold, value elsewhere."""

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input):
        if self.inplace:
            return inplace_call("threshold", input, self.threshold, self.value, inplace=True)
        return batching.op("threshold", input, self.threshold, self.value)

    def extra_repr(self):
        return f"threshold={self.threshold}, value={self.value}" + _inplace(self)


class RReLU(Module):
    """input where positive, input * a uniform draw from [lower, upper] elsewhere (training)."""

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input):
        args = (self.lower, self.upper, self.training)
        if self.inplace:
            return inplace_call("rrelu", input, *args, inplace=True)
        return batching.op("rrelu", input, *args)

    def extra_repr(self):
        return f"lower={self.lower}, upper={self.upper}" + _inplace(self)


class Hardtanh(Module):
    """input clamped to [min_val, max_val]."""

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        if max_val <= min_val:
            raise GradAssertionError("")
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace

    def forward(self, input):
        if self.inplace:
            return inplace_call("hardtanh", input, self.min_val, self.max_val, inplace=True)
        return batching.op("hardtanh", input, self.min_val, self.max_val)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}" + _inplace(self)


class ReLU6(Hardtanh):
    """min(max(0, x), 6) element-wise."""

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


def _simple(name, fn, doc, shows_inplace=True):
    """A module of one op of the input (its inplace flag kept and, for most, shown)."""

    def __init__(self, inplace=False):
        Module.__init__(self)
        self.inplace = inplace

    def forward(self, input):
        if self.inplace:
            return inplace_call(fn, input, inplace=True)
        return batching.op(fn, input)

    def extra_repr(self):
        return "inplace=True" if self.inplace and shows_inplace else ""

    body = {"__init__": __init__, "forward": forward, "extra_repr": extra_repr, "__doc__": doc}
    return type(name, (Module,), body)


Hardsigmoid = _simple(
    "Hardsigmoid", "hardsigmoid", "min(max(x + 3, 0), 6) / 6 element-wise", shows_inplace=False
)
Hardswish = _simple(
    "Hardswish", "hardswish", "x * min(max(x + 3, 0), 6) / 6 element-wise", shows_inplace=False
)
SiLU = _simple("SiLU", "silu", "x * sigmoid(x) element-wise")
Mish = _simple("Mish", "mish", "x * tanh(softplus(x)) element-wise")
SELU = _simple("SELU", "selu", "scale * elu(x, alpha) with SELU's constants")


class ELU(Module):
    """x where positive, alpha * (exp(x) - 1) elsewhere."""

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):
        if self.inplace:
            return inplace_call("elu", input, self.alpha, inplace=True)
        return batching.op("elu", input, self.alpha)

    def extra_repr(self):
        return f"alpha={self.alpha}" + _inplace(self)


class CELU(ELU):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1)) element-wise."""

    def forward(self, input):
        if self.inplace:
            return inplace_call("celu", input, self.alpha, inplace=True)
        return batching.op("celu", input, self.alpha)


class GLU(Module):
    """a * sigmoid(b), a and b the two halves of the input along dim."""

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return batching.op("glu", input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class Hardshrink(Module):
    """x where |x| > lambd, 0 elsewhere."""

    fn = "hardshrink"

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return batching.op(self.fn, input, self.lambd)

    def extra_repr(self):
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """x - lambd above lambd, x + lambd below -lambd, 0 between."""

    fn = "softshrink"


class Softplus(Module):
    """log(1 + exp(beta * x)) / beta element-wise (x above threshold)."""

    replay_op = "softplus"

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):
        return batching.op("softplus", input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class PReLU(Module):
    """x where positive, a learned weight (per channel) * x elsewhere."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters, self.init = num_parameters, init
        dt = context.current.default_float if dtype is None else dtypes.as_numpy(dtype)
        self.weight = new_parameter(np.full((num_parameters,), init, dtype=dt))
        filled(self)  # (torch's reset_parameters: one fill)

    def reset_parameters(self):
        self.weight.data[...] = self.init

    def forward(self, input):
        return batching.op("prelu", input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class Softsign(Module):
    """x / (1 + |x|) element-wise."""

    def forward(self, input):
        return softsign(input)


class Tanhshrink(Module):
    """x - tanh(x) element-wise."""

    def forward(self, input):
        return tanhshrink(input)


class Softmin(Module):
    """softmax(-x) along dim."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return softmin(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax2d(Module):
    """softmax over the channels of (N, C, H, W) or (C, H, W) input."""

    def forward(self, input):
        x = tensor_arg(input)
        if x.data.ndim not in (3, 4):
            raise GradValueError(
                f"Softmax2d: expected input to be 3D or 4D, got {x.data.ndim}D instead"
            )
        return SOFTMAX_FUNCTIONAL["softmax"](x, -3)


ACTIVATIONS = {
    c.__name__: c
    for c in (
        Threshold,
        RReLU,
        Hardtanh,
        ReLU6,
        Hardsigmoid,
        SiLU,
        Mish,
        Hardswish,
        ELU,
        CELU,
        SELU,
        GLU,
        Hardshrink,
        Softplus,
        Softshrink,
        PReLU,
        Softsign,
        Tanhshrink,
        Softmin,
        Softmax2d,
    )
}
