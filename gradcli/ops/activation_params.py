"""Activations with a second input: glu (a gate, the other half of the input), prelu
(a learned slope) and rrelu (a random slope, its noise saved), each one node with
PyTorch's grad_fn name and its backward a recorded op of PyTorch's name under
create_graph."""

from __future__ import annotations

import numpy as np

from ..core import dtypes
from ..core.convert import tensor_arg
from ..engine.declare import none
from ..engine.saved import given, saved_shown
from ..engine.forward import elementwise
from ..engine.function import Function
from ..numerics.floats import torch_act
from ..numerics.floats.torch_exp import sigmoid as torch_sigmoid
from ..runtime import context
from ..runtime.errors import GradRuntimeError
from .combine import cat, chunk
from .shape import reshape
from .registry import Arg, register
from .activation_base import M, BACKWARD_FORMULA, _float_only

# ------------------------------------------------ glu


def _halves(x, dim):
    n = x.shape[dim] // 2
    index = [slice(None)] * x.ndim
    index[dim] = slice(0, n)
    a = x[tuple(index)]
    index[dim] = slice(n, 2 * n)
    return a, x[tuple(index)]


class Glu(Function):
    """glu: a * sigmoid(b) of the two halves along dim, as torch's kernel computes it
    (`a * (1 / (1 + exp(-b)))`)."""

    __slots__ = ("dim", "given")
    name = "GluBackward0"
    saved_names = ("self",)
    saved_extra = {"dim": saved_shown("given")}
    formula = none("no formula rule yet: shown as a named function with its Jacobian")

    def forward(self, x, dim, given):
        self.dim, self.given = dim, given
        self.save(x)
        a, b = _halves(x, dim)
        t = x.dtype.type
        return torch_act.blocks(
            lambda lib, u, v: u * (t(1) / (t(1) + lib.exp(-v))),
            np.ascontiguousarray(a),
            np.ascontiguousarray(b),
        )

    def backward(self, g, F, x):
        if F.tensor_mode:
            return (GluBackward.apply(g, x, dim=self.dim, given=self.given),)
        return (glu_backward(g, x, self.dim),)

    def jvp(self, ts, F, x):
        a, b, s = _glu_parts(F, x, self.dim)
        ta, tb = _split(F, ts[0], self.dim)
        return ta * s + a * ((1.0 - s) * s) * tb


def _split(F, t, dim):
    return chunk(t, 2, dim) if F.tensor_mode else _halves(t, dim)


def _glu_parts(F, x, dim):
    """(a, b, sigmoid(b)) of x's halves, recorded ops under create_graph."""
    a, b = _split(F, x, dim)
    if F.tensor_mode:
        return a, b, F.sigmoid(b)
    with np.errstate(all="ignore"):
        return a, b, 1 / (1 + np.exp(-b))


def _join(F, parts, dim):
    return cat(parts, dim) if F.tensor_mode else np.concatenate(parts, dim)


def glu_backward(g, x, dim):
    """torch's glu_backward: sigmoid(b) * g for a, ((1 - s) * s) * a * g for b."""
    a, b = _halves(x, dim)
    t = x.dtype.type
    with np.errstate(all="ignore"):
        s = torch_sigmoid(np.ascontiguousarray(b))  # (at::sigmoid_out)
        out = np.empty_like(x)
        da, db = _halves(out, dim)
        da[...] = s * g
        db[...] = (t(1) - s) * s * a * g
    return out


class GluBackward(Function):
    formula = BACKWARD_FORMULA
    __slots__ = ("dim", "given")
    name = "GluBackwardBackward0"
    saved_names = ("grad_output", "self")
    saved_extra = {"dim": saved_shown("given")}

    def forward(self, g, x, dim, given):
        self.dim, self.given = dim, given
        self.save(g, x)
        return glu_backward(g, x, dim)

    def backward(self, gg, F, g, x):
        # the derivative of (s g, (1 - s) s a g) in g and in x = (a, b), composed
        a, _b, s = _glu_parts(F, x, self.dim)
        gga, ggb = _split(F, gg, self.dim)
        ds = (1.0 - s) * s
        d_g = gga * s + ggb * ds * a
        d_a = ggb * ds * g
        d_b = gga * ds * g + ggb * a * g * ds * (1.0 - 2.0 * s)
        return (d_g, _join(F, [d_a, d_b], self.dim))

    def jvp(self, ts, F, g, x):
        tg, tx = ts
        a, _b, s = _glu_parts(F, x, self.dim)
        ds = (1.0 - s) * s
        out = None
        if tg is not None:
            out = _join(F, [s * tg, ds * a * tg], self.dim)
        if tx is not None:
            ta, tb = _split(F, tx, self.dim)
            term = _join(
                F, [ds * g * tb, ds * g * ta + a * g * ds * (1.0 - 2.0 * s) * tb], self.dim
            )
            out = term if out is None else out + term
        return out


@register(
    "glu",
    "glu(input, dim=-1)",
    "a * sigmoid(b), a and b the two halves of input along dim",
    checks=[((Arg((2, 4)),), {}), ((Arg((4, 2)),), {"dim": 0})],
    category="math",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def glu(input, dim=-1):
    x = tensor_arg(input)
    if x.data.ndim == 0:
        raise GradRuntimeError("glu does not support scalars because halving size must be even")
    d = dim + x.data.ndim if dim < 0 else dim
    n = x.data.shape[d]
    if n % 2:
        raise GradRuntimeError(f"Halving dimension must be even, but dimension {d} is size {n}")
    return Glu.apply(_float_only("glu_cpu", x), dim=d, given=given(dim, d))


# ------------------------------------------------ prelu


class PreluKernel(Function):
    """x where x > 0, weight * x elsewhere (weight broadcast over x's channels)."""

    __slots__ = ("wshape",)
    name = "PreluKernelBackward0"
    saved_names = ("self", "weight")
    formula = none("no formula rule yet: shown as a named function with its Jacobian")

    def forward(self, x, w):
        self.wshape = w.shape
        self.save(x, w)
        return np.where(x > 0, x, w * x)

    def backward(self, g, F, x, w):
        parts = [None, None]
        for part in (0, 1):
            if self.needs[part]:
                if F.tensor_mode:
                    parts[part] = PreluKernelBackward.apply(g, x, w, part=part)
                else:
                    parts[part] = prelu_backward(g, x, w, part)
        gx, gw = parts
        return (gx, None if gw is None else F.sum_to(gw, self.wshape))

    def jvp(self, ts, F, x, w):
        tx, tw = ts
        out = None
        if tx is not None:
            out = F.where(x > 0, tx, w * tx)
        if tw is not None:
            term = F.where(x > 0, 0.0, x * tw)
            out = term if out is None else out + term
        return out


def prelu_backward(g, x, w, part):
    """torch's _prelu_kernel_backward: (g where x > 0, else w * g) for the input (part
    0), (0 where x > 0, else x * g) for the weight, of x's shape (part 1)."""
    zero = np.zeros((), np.result_type(g, x))
    if part == 0:
        return np.where(x > 0, g, w * g)
    return np.where(x > 0, zero, x * g)


class PreluKernelBackward(Function):
    """prelu's backward under create_graph (PyTorch's one node gives both gradients;
    here one node per gradient, each with its name and saved values)."""

    formula = BACKWARD_FORMULA
    __slots__ = ("part",)
    name = "PreluKernelBackwardBackward0"
    saved_names = ("grad_output", "self", "weight")

    def forward(self, g, x, w, part):
        self.part = part
        self.save(g, x, w)
        return prelu_backward(g, x, w, part)

    def backward(self, gg, F, g, x, w):
        pos = x > 0
        if self.part == 0:  # w * g below 0: in g the same, in w sum(g * gg) below 0
            return (
                F.where(pos, gg, w * gg),
                gg * 0.0,
                F.sum_to(F.where(pos, 0.0, g * gg), w.shape),
            )
        return (F.where(pos, 0.0, x * gg), F.where(pos, 0.0, g * gg), None)

    def jvp(self, ts, F, g, x, w):
        tg, tx, tw = ts
        pos = x > 0
        terms = []
        if self.part == 0:
            if tg is not None:
                terms.append(F.where(pos, tg, w * tg))
            if tw is not None:
                terms.append(F.where(pos, 0.0, tw * g))
        else:
            if tg is not None:
                terms.append(F.where(pos, 0.0, x * tg))
            if tx is not None:
                terms.append(F.where(pos, 0.0, tx * g))
        out = None
        for t in terms:
            out = t if out is None else out + t
        return out


@register(
    "prelu",
    "prelu(input, weight)",
    "input where positive, weight * input elsewhere (weight per channel)",
    checks=[((Arg((2, 3)), Arg((3,), 0.1, 0.5)), {}), ((Arg((4,)), Arg((1,), 0.1, 0.5)), {})],
    category="math",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def prelu(input, weight):
    x, w = tensor_arg(input), tensor_arg(weight)
    if x.data.dtype != w.data.dtype:
        raise GradRuntimeError(
            "prelu: Type promoting not supported. Got "
            f"{dtypes.scalar_type_name(x.data.dtype)} and {dtypes.scalar_type_name(w.data.dtype)}"
        )
    if w.data.size != 1:
        if x.data.ndim == 0:
            raise GradRuntimeError("Not allow zero-dim input tensor.")
        channels = x.data.shape[1] if x.data.ndim > 1 else 1
        if channels != w.data.size:
            raise GradRuntimeError(
                "Mismatch of parameter numbers and input channel size. Found parameter "
                f"numbers = {w.data.size} and channel size = {channels}."
            )
    if w.data.ndim > 1:
        raise GradRuntimeError(
            f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {w.data.ndim}"
        )
    if x.data.ndim >= 2 and w.data.size != 1:
        shape = [1] * x.data.ndim
        shape[1] = w.data.size
        w = reshape(w, tuple(shape))
    return PreluKernel.apply(x, w)


# ------------------------------------------------ rrelu


class RreluWithNoise(Function):
    """rrelu: x where x > 0, x * r elsewhere, r drawn uniform in [lower, upper] for each
    value <= 0 in turn (training) or (lower + upper) / 2 (evaluation)."""

    __slots__ = ("lower", "upper", "training", "noise")
    name = "RreluWithNoiseBackward0"
    saved_names = ("self", "noise")
    saved_order = (1, 0)  # PyTorch saves the noise (before writing it), then self
    saved_extra = {
        "lower": lambda node: node.lower,
        "upper": lambda node: node.upper,
        "training": lambda node: node.training,
    }
    formula = none("no formula rule yet: shown as a named function with its Jacobian")
    jvp = elementwise

    def forward(self, x, lower, upper, training):
        self.lower, self.upper, self.training = lower, upper, training
        t = x.dtype.type
        if training:
            flat = np.ascontiguousarray(x).reshape(-1)
            neg = flat <= 0
            lo, hi = float(t(lower)), float(t(upper))
            u = context.current.generator._uniform64(int(neg.sum()))
            noise = np.ones_like(flat)
            noise[neg] = (u * (hi - lo) + lo).astype(x.dtype)
            noise = noise.reshape(x.shape)
            out = np.where(neg.reshape(x.shape), x * noise, x)
        else:
            noise = np.zeros_like(x)  # (torch's: empty_like, never written)
            slope = t((lower + upper) / 2)
            out = np.where(x > 0, x, x * slope)
        self.noise = noise
        self.save(x, noise)
        return out

    def backward(self, g, F, x, noise):
        k = {"lower": self.lower, "upper": self.upper, "training": self.training}
        if F.tensor_mode:
            return (RreluWithNoiseBackward.apply(g, x, noise, **k),)
        return (rrelu_backward(g, x, noise, **k),)


class RreluWithNoiseResult(RreluWithNoise):
    """rrelu_ (in place): its backward reads the result (RreluWithNoiseBackward1), with
    the same values (the result is positive where the input is)."""

    __slots__ = ()
    name = "RreluWithNoiseBackward1"
    saved_names = ("result", "noise")

    def forward(self, x, lower, upper, training):
        out = super().forward(x, lower, upper, training)
        self.save(out, self.noise)
        return out


def rrelu_backward(g, x, noise, lower, upper, training):
    """g * noise when training (and upper - lower > 1e-6), else leaky_relu's backward
    with slope (lower + upper) / 2."""
    if training and upper - lower > 1e-6:
        return g * noise
    slope = x.dtype.type((lower + upper) / 2)
    return np.where(x > 0, g, g * slope)


class RreluWithNoiseBackward(Function):
    """rrelu's backward under create_graph: in g the same kernel, in x zeros."""

    formula = BACKWARD_FORMULA
    __slots__ = ("lower", "upper", "training")
    name = "RreluWithNoiseBackwardBackward0"
    saved_names = ("self", "noise")
    saved_extra = RreluWithNoise.saved_extra

    def forward(self, g, x, noise, lower, upper, training):
        self.lower, self.upper, self.training = lower, upper, training
        self.save(x, noise)
        return rrelu_backward(g, x, noise, lower, upper, training)

    def backward(self, gg, F, x, noise):
        k = {"lower": self.lower, "upper": self.upper, "training": self.training}
        if F.tensor_mode:
            return (type(self).apply(gg, x, noise, **k), gg * 0.0, None)
        return (rrelu_backward(gg, x, noise, **k), gg * 0.0, None)

    def jvp(self, ts, F, x, noise):
        tg = ts[0]
        if tg is None:
            return None
        k = {"lower": self.lower, "upper": self.upper, "training": self.training}
        if F.tensor_mode:
            return type(self).apply(tg, x, noise, **k)
        return rrelu_backward(tg, x, noise, **k)


@register(
    "rrelu",
    "rrelu(input, lower=1/8, upper=1/3, training=False)",
    "input where positive, input * a draw from [lower, upper] elsewhere",
    # (lower == upper: the draws are the one value; out of training torch's saved noise
    # is memory it never writes)
    checks=[((M,), {"lower": 0.2, "upper": 0.2, "training": True})],
    category="math",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    x = tensor_arg(input)
    if lower > upper:
        raise GradRuntimeError("Lower bound should be less than or equal to the upper bound")
    node = RreluWithNoiseResult if inplace else RreluWithNoise
    return node.apply(
        _float_only("rrelu_with_noise_out_cpu", x), lower=lower, upper=upper, training=training
    )
