"""mish, selu and celu (elu with scales), each one node with PyTorch's grad_fn name,
computed in ATen's order."""

from __future__ import annotations

import numpy as np

from ..core.convert import tensor_arg
from ..engine.declare import none
from ..engine.forward import elementwise
from ..engine.function import Function
from ..numerics.floats import torch_act
from ..numerics.floats.erf_tanh import libm_tanh, sleef_tanh
from ..numerics.floats.fma import fma
from ..numerics.floats.tensor_iter import laid_out
from ..runtime.errors import GradRuntimeError
from .activation import (
    Elu,
    EluBackward,
    EluResult,
    EluResultBackward,
    elu_backward_result_values,
    elu_backward_values,
    softplus,
)
from .registry import register
from .activation_base import M, _float_only

# ------------------------------------------------ mish


def _tanh(lib, v):
    return sleef_tanh(v) if lib.vector else libm_tanh(v)


def _mish(x):
    """torch's mish kernel: x * tanh(log1p(exp(x))), SLEEF's functions on the vector
    blocks, the C library's after them."""
    return torch_act.blocks(lambda lib, v: v * _tanh(lib, lib.log1p(lib.exp(v))), x, kernel="mish")


def mish_backward(g, x):
    """torch's mish_backward kernel: g * (t + x * s * (1 - t * t)), s = 1 / (1 + exp(-x)),
    t = tanh(log1p(exp(x))), the compiler's fused multiply-adds as in PyTorch's build:
    g * fma(x * s, fma(-t, t, 1), t)."""
    t_ = x.dtype.type
    one = t_(1)

    def fn(lib, dy, v):
        s = one / (one + lib.exp(-v))
        t = _tanh(lib, lib.log1p(lib.exp(v)))
        inner = np.asarray(fma(-t, t, one, dtype=t_), dtype=x.dtype)
        return dy * np.asarray(fma(v * s, inner, t, dtype=t_), dtype=x.dtype)

    return torch_act.blocks(fn, np.broadcast_to(g, x.shape), x, kernel="mish_grad")


class Mish(Function):
    """mish; its backward is composed of recorded ops under create_graph (PyTorch's
    infinitely differentiable mish backward: its result shows MulBackward0)."""

    __slots__ = ()
    name = "MishBackward0"
    saved_names = ("self",)
    formula = none("no formula rule yet: shown as a named function with its Jacobian")

    def forward(self, x):
        self.save(x)
        return laid_out(_mish(x), (x,))

    def backward(self, g, F, x):
        if F.tensor_mode:
            # derivatives.yaml's infinitely_differentiable_mish_backward
            s = F.sigmoid(x)
            t = F.tanh(softplus(x))
            return (g * (t + x * s * (1.0 - t * t)),)
        return (laid_out(mish_backward(g, x), (x,)),)

    jvp = elementwise


@register(
    "mish",
    "mish(input)",
    "input * tanh(softplus(input))",
    checks=[((M,), {})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=None,
)
def mish(input, inplace=False):
    return Mish.apply(_float_only("mish_cpu", tensor_arg(input)))


# ------------------------------------------------ selu, celu (elu with scales)

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


@register(
    "selu",
    "selu(input)",
    "scale * elu(input, alpha) with SELU's constants",
    checks=[((M,), {})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=None,
)
def selu(input, inplace=False):
    x = tensor_arg(input)
    node = EluResult if inplace else Elu  # (selu_ is elu_ with SELU's constants)
    return node.apply(x, alpha=SELU_ALPHA, scale=SELU_SCALE, input_scale=1)


class Celu(Function):
    """celu: elu(x, alpha, 1, 1 / alpha) (CeluBackward0; its backward is elu_backward,
    EluBackwardBackward0 under create_graph)."""

    __slots__ = ("alpha",)
    name = "CeluBackward0"
    saved_names = ("self",)
    saved_extra = {"alpha": lambda node: node.alpha}
    formula = none("no formula rule yet: shown as a named function with its Jacobian")

    def forward(self, x, alpha):
        self.alpha = alpha
        self.save(x)
        inv = 1.0 / float(alpha)
        return laid_out(torch_act.elu(x, alpha, 1.0, inv), (x,))

    def backward(self, g, F, x):
        # derivatives.yaml: elu_backward(grad, alpha, 1, 1.0 / alpha.toFloat(), false, self)
        inv = 1.0 / float(np.float32(self.alpha))
        if F.tensor_mode:
            return (EluBackward.apply(g, x, alpha=self.alpha, scale=1, input_scale=inv),)
        return (elu_backward_values(g, x, self.alpha, 1, inv),)

    jvp = elementwise


class CeluResult(Celu):
    """celu_ (in place): elu_backward on the result (CeluBackward1)."""

    __slots__ = ()
    name = "CeluBackward1"
    saved_names = ("result",)

    def forward(self, x, alpha):
        out = super().forward(x, alpha)
        self.save(out)
        return out

    def backward(self, g, F, out):
        inv = 1.0 / float(np.float32(self.alpha))
        if F.tensor_mode:
            return (EluResultBackward.apply(g, out, alpha=self.alpha, scale=1, input_scale=inv),)
        return (elu_backward_result_values(g, out, self.alpha, 1, inv),)


@register(
    "celu",
    "celu(input, alpha=1.0)",
    "max(0, input) + min(0, alpha * (exp(input / alpha) - 1))",
    checks=[((M,), {}), ((M,), {"alpha": 0.5})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=None,
)
def celu(input, alpha=1.0, inplace=False):
    if alpha == 0:
        raise GradRuntimeError("ZeroDivisionError")
    return (CeluResult if inplace else Celu).apply(tensor_arg(input), alpha=alpha)
