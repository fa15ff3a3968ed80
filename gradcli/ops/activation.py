"""Activations with parameters (torch.nn.functional's softplus, leaky_relu, elu,
silu, gelu), each one node with PyTorch's grad_fn name; the VJPs use `F`, so they are
differentiable again.  (relu, sigmoid and tanh are plain element-wise functions in
unary.py.)"""

from __future__ import annotations

import numpy as np

from ..engine.declare import none
from ..core import dtypes
from ..engine.function import Function
from ..engine.forward import elementwise
from ..core.convert import tensor_arg
from .registry import Arg, register
from .unary import ThresholdBackward, masked_grad
from .fused_grads import ElementwiseGrad, softplus_grad
from ..numerics.floats.torch_exp import silu as torch_silu, silu_backward
from ..numerics.floats.tensor_iter import laid_out
from ..numerics.floats import torch_act
from ..numerics.floats import gelu as gelu_kernels
from ..numerics import mkl
from ..runtime.errors import GradRuntimeError

M = Arg((2, 3))


class Softplus(Function):
    __slots__ = ("beta", "threshold")
    name = "SoftplusBackward0"
    saved_names = ("self",)
    saved_extra = {"beta": lambda node: node.beta, "threshold": lambda node: node.threshold}

    def formula(self, S, x, *_):
        beta, t = S.number(self.beta), S.number(self.threshold)
        return S.map(
            lambda v: S.sp.Piecewise(
                (v, beta * v > t), (S.sp.log(1 + S.sp.exp(beta * v)) / beta, True)
            ),
            x,
        )

    def forward(self, x, beta, threshold):
        x = dtypes.floating(x)
        self.beta, self.threshold = beta, threshold
        self.save(x)
        if x.dtype.char in "fd":
            # torch's kernel, to the last bit, laid out as TensorIterator lays it out
            return laid_out(torch_act.softplus(x, beta, threshold), (x,))
        bx = x * beta
        with np.errstate(over="ignore"):
            soft = np.log1p(np.exp(bx)) / beta
        return np.where(bx > threshold, x, soft)

    def backward(self, g, F, x):
        return (softplus_grad(g, F, x, self.beta, self.threshold),)

    jvp = elementwise


@register(
    "softplus",
    "softplus(input, beta=1, threshold=20)",
    "log(1 + exp(beta * input)) / beta (input itself above threshold)",
    checks=[((M,), {}), ((M,), {"beta": 2.0, "threshold": 1.0})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=True,
    parser=None,
)
def softplus(input, beta=1, threshold=20):  # (ints: torch's _saved_beta shows 1)
    return Softplus.apply(tensor_arg(input), beta=beta, threshold=threshold)


class LeakyRelu(Function):
    __slots__ = ("slope",)
    name = "LeakyReluBackward0"
    saved_names = ("self",)
    saved_extra = {"negative_slope": lambda node: node.slope}

    def formula(self, S, x, *_):
        return S.map(lambda v: S.sp.Piecewise((v, v > 0), (S.number(self.slope) * v, True)), x)

    def forward(self, x, slope):
        x = dtypes.floating(x)
        self.slope = slope
        self.save(x)
        return np.where(x > 0, x, x * slope)

    def backward(self, g, F, x):
        return (masked_grad(F, g, x, self.slope, LeakyReluBackward),)

    jvp = elementwise


class LeakyReluBackward(ThresholdBackward):
    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )
    __slots__ = ()
    name = "LeakyReluBackwardBackward0"
    saved_extra = {"negative_slope": lambda node: node.slope}


class LeakyReluResult(LeakyRelu):
    """leaky_relu_ (in place): the gradient masked by the result (LeakyReluBackward1),
    which PyTorch refuses for a negative slope."""

    __slots__ = ()
    name = "LeakyReluBackward1"
    saved_names = ("result",)

    def forward(self, x, slope):
        out = super().forward(x, slope)
        self.save(out)
        return out

    def backward(self, g, F, out):
        if self.slope < 0:
            raise GradRuntimeError(LEAKY_NEGATIVE)
        return super().backward(g, F, out)


LEAKY_NEGATIVE = (
    "In-place leakyReLu backward calculation is triggered with a negative slope which is not "
    "supported. This is caused by calling in-place forward function with a negative slope, "
    "please call out-of-place version instead. File an issue at "
    "https://github.com/pytorch/pytorch if you do require supporting in-place "
    "leakRelu backward calculation with negative slope"
)


@register(
    "leaky_relu",
    "leaky_relu(input, negative_slope=0.01)",
    "input where positive, negative_slope * input elsewhere",
    checks=[((M,), {}), ((M,), {"negative_slope": 0.2})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=None,
)
def leaky_relu(input, negative_slope=0.01, inplace=False):
    # inplace: the in-place form's node (library/nn/inplace_acts.py writes the values)
    node = LeakyReluResult if inplace else LeakyRelu
    return node.apply(tensor_arg(input), slope=negative_slope)


class Elu(Function):
    """elu(x, alpha, scale, input_scale) (selu is elu with its constants)."""

    __slots__ = ("alpha", "scale", "input_scale")
    name = "EluBackward0"
    saved_names = ("self",)
    saved_extra = {
        "alpha": lambda node: node.alpha,
        "scale": lambda node: node.scale,
        "input_scale": lambda node: node.input_scale,
    }

    def formula(self, S, x, *_):
        a, s, i = S.number(self.alpha), S.number(self.scale), S.number(self.input_scale)
        return S.map(
            lambda v: S.sp.Piecewise((s * v, v > 0), (s * a * (S.sp.exp(i * v) - 1), True)), x
        )

    def forward(self, x, alpha, scale=1, input_scale=1):
        x = dtypes.floating(x)
        self.alpha, self.scale, self.input_scale = alpha, scale, input_scale
        self.save(x)
        if x.dtype.char in "fd":  # torch's kernel, to the last bit
            return laid_out(torch_act.elu(x, alpha, scale, input_scale), (x,))
        return np.where(x > 0, x * scale, alpha * scale * np.expm1(np.minimum(x, 0) * input_scale))

    def backward(self, g, F, x):
        a, s, i = self.alpha, self.scale, self.input_scale
        if F.tensor_mode:
            return (EluBackward.apply(g, x, alpha=a, scale=s, input_scale=i),)
        return (elu_backward_values(g, x, a, s, i),)

    jvp = elementwise


def elu_backward_values(g, x, alpha, scale=1, input_scale=1):
    """torch's elu_backward kernel: g * scale where x > 0, else ((g * input_scale) *
    (alpha * scale)) * exp(x * input_scale)."""
    if x.dtype.char in "fd" and g.dtype == x.dtype:
        return torch_act.elu_backward(np.broadcast_to(g, x.shape), x, alpha, scale, input_scale)
    return np.where(x > 0, g * scale, g * input_scale * (alpha * scale * np.exp(x * input_scale)))


class EluBackward(Function):
    """elu's backward as one op, for create_graph: PyTorch's second derivative is
    masked by x < 0 (so it is 0 at x = 0, where the first is alpha)."""

    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )

    __slots__ = ("alpha", "scale", "input_scale")
    name = "EluBackwardBackward0"
    saved_names = ("grad_output", "self_or_result")
    saved_extra = {
        **Elu.saved_extra,
        "is_result": lambda node: False,  # (PyTorch's elu_ backward reads its result)
    }

    def forward(self, g, x, alpha, scale=1, input_scale=1):
        self.alpha, self.scale, self.input_scale = alpha, scale, input_scale
        self.save(g, x)
        return elu_backward_values(g, x, alpha, scale, input_scale)

    def backward(self, gg, F, g, x):
        # derivatives.yaml: elu_backward(gg, ...) for g; elu_double_backward for x:
        # elu_backward(gg * g * input_scale, ..., x) * (x < 0)
        k = {"alpha": self.alpha, "scale": self.scale, "input_scale": self.input_scale}
        i = self.input_scale
        gg_g = gg * g if i == 1 else gg * g * i
        if F.tensor_mode:
            return (type(self).apply(gg, x, **k), type(self).apply(gg_g, x, **k) * (x < 0))
        return (elu_backward_values(gg, x, **k), elu_backward_values(gg_g, x, **k) * (x < 0))

    jvp = elementwise


class EluResult(Elu):
    """elu_ (in place, also selu_): its backward reads the result (EluBackward1)."""

    __slots__ = ()
    name = "EluBackward1"
    saved_names = ("result",)

    def forward(self, x, alpha, scale=1, input_scale=1):
        out = super().forward(x, alpha, scale, input_scale)
        self.save(out)
        return out

    def backward(self, g, F, out):
        a, s, i = self.alpha, self.scale, self.input_scale
        if F.tensor_mode:
            return (EluResultBackward.apply(g, out, alpha=a, scale=s, input_scale=i),)
        return (elu_backward_result_values(g, out, a, s, i),)


def elu_backward_result_values(g, out, alpha, scale=1, input_scale=1):
    """torch's elu_backward kernel on the result: g * scale where out > 0, else
    (g * input_scale) * (out + alpha * scale)."""
    if out.dtype.char in "fd" and g.dtype == out.dtype:
        return torch_act.elu_backward_result(
            np.broadcast_to(g, out.shape), out, alpha, scale, input_scale
        )
    return np.where(out > 0, g * scale, g * input_scale * (out + alpha * scale))


class EluResultBackward(EluBackward):
    """elu_backward on the result, as one op for create_graph: its derivative in the
    result is g * grad_output * input_scale where the result is below 0."""

    __slots__ = ()
    saved_extra = {**Elu.saved_extra, "is_result": lambda node: True}

    def forward(self, g, out, alpha, scale=1, input_scale=1):
        self.alpha, self.scale, self.input_scale = alpha, scale, input_scale
        self.save(g, out)
        return elu_backward_result_values(g, out, alpha, scale, input_scale)

    def backward(self, gg, F, g, out):
        k = {"alpha": self.alpha, "scale": self.scale, "input_scale": self.input_scale}
        i = self.input_scale
        gg_g = gg * g if i == 1 else gg * g * i
        if F.tensor_mode:
            return (type(self).apply(gg, out, **k), gg_g * (out < 0))
        return (elu_backward_result_values(gg, out, **k), gg_g * (out < 0))


@register(
    "elu",
    "elu(input, alpha=1.0)",
    "input where positive, alpha * (exp(input) - 1) elsewhere",
    checks=[((M,), {}), ((M,), {"alpha": 0.5})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=None,
)
def elu(input, alpha=1.0, inplace=False):
    return (EluResult if inplace else Elu).apply(tensor_arg(input), alpha=alpha)


class LogSigmoid(Function):
    """log(sigmoid(x)) as torch's kernel: min(x, 0) - log1p(exp(-|x|)), keeping
    exp(-|x|) (torch's `buffer`) for the backward."""

    __slots__ = ("buffer",)
    name = "LogSigmoidBackward0"
    saved_names = ("self", "buffer")

    def formula(self, S, x):
        return S.map(lambda v: -S.sp.log(1 + S.sp.exp(-v)), x)

    def forward(self, x):
        x = dtypes.floating(x)
        if x.dtype.char in "fd":
            out, self.buffer = torch_act.log_sigmoid_forward(x)
        else:
            self.buffer = np.exp(-np.abs(x))
            out = np.minimum(x, 0) - np.log1p(self.buffer)
        self.save(x, self.buffer)  # (the buffer too, as PyTorch saves and packs it)
        return out

    def backward(self, g, F, x, buffer):
        if F.tensor_mode:
            return (LogSigmoidBackward.apply(g, x, buffer=buffer.data),)
        return (torch_act.log_sigmoid_backward(g, x, buffer),)

    jvp = elementwise


class LogSigmoidBackward(ElementwiseGrad):
    """log_sigmoid's backward as one op, for create_graph; derivatives.yaml's derivative
    in x: (gg * g) * (sigmoid(x) - 1) * sigmoid(x)."""

    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )

    __slots__ = ("buffer",)
    name = "LogSigmoidBackwardBackward0"
    saved_names = ("grad_output", "self", "buffer")
    saved_order = (2, 0, 1)  # PyTorch saves the buffer, grad_output, then self

    def forward(self, g, x, buffer):
        self.buffer = buffer
        self.save(g, x, buffer)
        return torch_act.log_sigmoid_backward(g, x, buffer)

    def backward(self, gg, F, g, x, _buffer):
        return super().backward(gg, F, g, x)

    def jvp(self, ts, F, g, x, _buffer):
        return super().jvp(ts, F, g, x)

    def again(self, t, F, x):
        if not F.tensor_mode:  # (a plain backward through it: the kernel on arrays)
            return torch_act.log_sigmoid_backward(t, x, self.buffer)
        return type(self).apply(t, x, buffer=self.buffer)

    def cross(self, t, F, g, x):
        z = F.sigmoid(x)
        return (t * g) * (z - 1) * z


@register(
    "logsigmoid",
    "logsigmoid(input)",
    "log(sigmoid(input)), computed stably",
    checks=[((M,), {})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=True,
    parser=None,
)
def logsigmoid(input):
    return LogSigmoid.apply(tensor_arg(input))


class Silu(Function):
    __slots__ = ()
    name = "SiluBackward0"
    saved_names = ("self",)

    def formula(self, S, x):
        return S.map(lambda v: v / (1 + S.sp.exp(-v)), x)

    def forward(self, x):
        x = dtypes.floating(x)
        self.save(x)
        return laid_out(torch_silu(x), (x,)) if x.dtype.char in "fd" else x / (1 + np.exp(-x))

    def backward(self, g, F, x):
        if F.tensor_mode or x.dtype.char not in "fd":
            # as torch under create_graph (infinitely_differentiable_silu_backward)
            s = F.sigmoid(x)
            return ((g * s) * (1 + x * (1 - s)),)
        return (silu_backward(np.broadcast_to(g, x.shape), x),)  # torch's fused kernel

    jvp = elementwise


@register(
    "silu",
    "silu(input)",
    "input * sigmoid(input) (swish)",
    checks=[((M,), {})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=None,
)
def silu(input, inplace=False):
    return Silu.apply(tensor_arg(input))


_GELU_BETA = 0.7978845608028654  # sqrt(2 / pi), as M_SQRT2 * M_2_SQRTPI * 0.5
_GELU_PDF = 0.3989422804014327  # 1 / sqrt(2 pi), as M_2_SQRTPI * M_SQRT1_2 * 0.5
_GELU_KAPPA = 0.044715
_TANH = mkl.unary_fn("tanh", np.tanh)  # at::tanh on arrays (the tanh op's kernel)


def _gelu_values(x, approximate):
    if x.dtype == np.float32 and approximate == "none" and x.size > 1 and x.flags.c_contiguous:
        return gelu_kernels.onednn_gelu_erf(x)  # (torch's build: oneDNN's kernel)
    if x.dtype.char in "fd":
        return laid_out(gelu_kernels.gelu(x, approximate), (x,))
    return gelu_kernels.gelu(x.astype(np.float64), approximate).astype(x.dtype)


def _gelu_grad_values(g, x, approximate):
    if x.dtype == np.float32 and approximate == "none" and x.size > 1 and x.flags.c_contiguous:
        return gelu_kernels.onednn_gelu_erf_backward(g, x)  # (oneDNN's, as the forward)
    if x.dtype.char in "fd":
        return gelu_kernels.gelu_backward(g, x, approximate)
    return gelu_kernels.gelu_backward(g, x.astype(np.float64), approximate).astype(x.dtype)


class Gelu(Function):
    """GELU: x * Phi(x), or its tanh approximation, with torch's CPU kernels
    (numerics/floats/gelu.py)."""

    __slots__ = ("approximate",)
    name = "GeluBackward0"
    saved_names = ("self",)
    saved_extra = {"approximate": lambda node: node.approximate}

    def formula(self, S, x, *_):
        if self.approximate == "tanh":
            b, k = S.number(_GELU_BETA), S.number(_GELU_KAPPA)
            return S.map(lambda v: v / 2 * (1 + S.sp.tanh(b * (v + k * v**3))), x)
        return S.map(lambda v: v / 2 * (1 + S.sp.erf(v / S.sp.sqrt(2))), x)

    def forward(self, x, approximate):
        x = dtypes.floating(x)
        self.approximate = approximate
        self.save(x)
        return _gelu_values(x, approximate)

    def backward(self, g, F, x):
        if F.tensor_mode:
            return (GeluBackward.apply(g, x, approximate=self.approximate),)
        return (_gelu_grad_values(np.broadcast_to(g, x.shape), x, self.approximate),)

    jvp = elementwise


class GeluBackward(Function):
    """gelu's backward as one op, for create_graph; derivatives.yaml: its gradient in
    grad_output is gelu_backward itself, in self gelu_double_backward's composite."""

    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )

    __slots__ = ("approximate",)
    name = "GeluBackwardBackward0"
    saved_names = ("grad_output", "self")
    saved_extra = {"approximate": lambda node: node.approximate}

    def forward(self, g, x, approximate):
        self.approximate = approximate
        self.save(g, x)
        return _gelu_grad_values(np.broadcast_to(g, x.shape), x, approximate)

    def backward(self, gg, F, g, x):
        a = self.approximate
        if F.tensor_mode:
            first = type(self).apply(gg, x, approximate=a)
        else:
            first = _gelu_grad_values(np.broadcast_to(gg, x.shape), x, a)
        return (first, gg * g * _gelu_second(F, x, a))

    jvp = elementwise


def _gelu_second(F, x, approximate):
    """gelu''(x) as FunctionsManual's gelu_double_backward composes it."""
    if approximate == "tanh":
        inner = (x + x**3 * _GELU_KAPPA) * _GELU_BETA
        t = F.tanh(inner) if F.tensor_mode else _TANH(inner)
        sech = 1 / F.cosh(inner)
        f = x * 0.5
        g = 1 - t * t
        h = (x * (3 * _GELU_KAPPA) * x + 1) * _GELU_BETA
        f_prime_gh = g * 0.5 * h
        g_prime = (sech * 2) * (-sech * t) * h
        h_prime = x * (6 * _GELU_KAPPA) * _GELU_BETA
        return f_prime_gh + f_prime_gh + f * h * g_prime + f * g * h_prime
    x_sq = x * x
    pdf = F.exp(x_sq * -0.5) * _GELU_PDF
    return pdf * 2 - x_sq * pdf


@register(
    "gelu",
    "gelu(input, approximate='none')",
    "input * Phi(input) (Phi the normal distribution), or its tanh approximation",
    checks=[((M,), {}), ((M,), {"approximate": "tanh"})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=True,
    parser=None,
)
def gelu(input, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise GradRuntimeError("approximate argument must be either none or tanh.")
    return Gelu.apply(tensor_arg(input), approximate=approximate)
