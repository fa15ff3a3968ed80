"""More of torch.nn.functional's activations, each one node with PyTorch's grad_fn name
and its backward a recorded op of PyTorch's name under create_graph: threshold,
hardtanh (relu6), hardshrink, softshrink, hardsigmoid, hardswish, mish, selu, celu,
glu, prelu and rrelu.  Their kernels compute in ATen's order (ATen/native/cpu/
Activation.cpp: `(x * clamp(x + 3, 0, 6)) / 6`, `g * (1/6)` rounded to the dtype ...)."""

from __future__ import annotations

import numpy as np

from ..core import dtypes
from ..core.convert import tensor_arg
from ..engine.declare import none
from ..engine.saved import given, saved_shown
from ..engine.forward import elementwise
from ..engine.function import Function
from ..numerics.floats import torch_act
from ..numerics.floats.erf_tanh import libm_tanh, sleef_tanh
from ..numerics.floats.fma import fma
from ..numerics.floats.tensor_iter import laid_out
from ..numerics.floats.torch_exp import sigmoid as torch_sigmoid
from ..runtime import context
from ..runtime.errors import GradError, GradRuntimeError
from .activation import Elu, EluBackward, elu_backward_values, softplus
from .combine import cat, chunk
from .shape import reshape
from .registry import Arg, register

M = Arg((2, 3))
WIDE = Arg((2, 3), -4.0, 4.0)
BACKWARD_FORMULA = none(
    "a backward's own node (create_graph): shown as a named function with its local Jacobian"
)


def _not_implemented(kernel, dt):
    return GradError(
        f"\"{kernel}\" not implemented for '{dtypes.scalar_type_name(dt)}'",
        type_name="NotImplementedError",
    )


def _float_only(kernel, x):
    """x's array when it is floating, else PyTorch's error for the kernel."""
    if x.data.dtype.kind != "f":
        raise _not_implemented(kernel, x.data.dtype)
    return x


# ------------------------------------------------ piecewise-linear: a mask on g


class Masked(Function):
    """An activation whose derivative is a mask (0 or 1) on g: its backward kernel
    `where(keep(x), g, 0)` is the node `Back` under create_graph (PyTorch's
    `<op>_backward`: its derivative in g the kernel again, in x zeros)."""

    __slots__ = ("params",)
    saved_names = ("self",)
    param_names: tuple = ()

    def forward(self, x, **params):
        self.params = params
        self.save(x)
        return self.kernel(x, **params)

    def backward(self, g, F, x):
        if F.tensor_mode:
            return (self.Back.apply(g, x, params=self.params),)
        return (self.Back.mask(g, x, self.params),)

    jvp = elementwise


class MaskedBackward(Function):
    formula = BACKWARD_FORMULA
    __slots__ = ("params",)
    saved_names = ("self",)

    @classmethod
    def mask(cls, g, x, params):
        """g where kept, +0 elsewhere: the vector blocks test `keep`, the scalar code
        after them `scalar_keep` (the two part on NaN for hardtanh and the shrinks)."""
        g = np.broadcast_to(g, np.shape(x))
        zero = np.zeros((), g.dtype)
        if x.dtype.char not in "fd" or g.dtype != x.dtype:
            return np.where(cls.keep(x, **params), g, zero)

        def fn(lib, dy, v):
            keep = cls.keep if lib.vector else cls.scalar_keep
            return np.where(keep(v, **params), dy, zero)

        return laid_out(torch_act.blocks(fn, g, x), (x,))

    def forward(self, g, x, params):
        self.params = params
        self.save(x)
        return self.mask(g, x, params)

    def backward(self, gg, F, x):
        return (type(self).apply(gg, x, params=self.params), gg * 0.0)

    def jvp(self, ts, F, x):
        tg = ts[0]
        return None if tg is None else type(self).apply(tg, x, params=self.params)


def _masked_op(name, grad_fn, kernel, keep, params, scalar_keep=None):
    """The node classes of a masked activation (forward `kernel(x, **params)`, gradient
    g where `keep(x, **params)`, after the vector blocks where `scalar_keep`), each
    `_saved_<param>` shown."""
    extra = {p: (lambda p: lambda node: node.params[p])(p) for p in params}
    back = type(
        grad_fn.replace("Backward0", "BackwardBackward0"),
        (MaskedBackward,),
        {
            "__slots__": (),
            "name": grad_fn.replace("Backward0", "BackwardBackward0"),
            "saved_extra": extra,
            "keep": staticmethod(keep),
            "scalar_keep": staticmethod(scalar_keep or keep),
        },
    )
    node = type(
        grad_fn,
        (Masked,),
        {
            "__slots__": (),
            "name": grad_fn,
            "saved_extra": extra,
            "kernel": staticmethod(kernel),
            "Back": back,
            "formula": none("no formula rule yet: shown as a named function with its Jacobian"),
        },
    )
    return node


def _typed(x, v):
    """A Scalar argument as the kernel takes it: rounded to x's dtype."""
    return x.dtype.type(v)


Threshold = _masked_op(
    "threshold",
    "ThresholdBackward0",
    lambda x, threshold, value: np.where(x <= _typed(x, threshold), _typed(x, value), x),
    lambda x, threshold, value: ~(x <= _typed(x, threshold)),
    ("threshold",),
)


@register(
    "threshold",
    "threshold(input, threshold, value)",
    "input where input > threshold, value elsewhere",
    checks=[((M, 0.1, 20.0), {})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=None,
)
def threshold(input, threshold, value, inplace=False):
    return Threshold.apply(tensor_arg(input), threshold=threshold, value=value)


def _hardtanh(x, min_val, max_val):
    """clamp's kernel: min_val below it, max_val above it, x itself elsewhere (so -0.0
    and NaN stay)."""
    lo, hi = _typed(x, min_val), _typed(x, max_val)
    return np.where(x < lo, lo, np.where(x > hi, hi, x))


Hardtanh = _masked_op(
    "hardtanh",
    "HardtanhBackward0",
    _hardtanh,
    lambda x, min_val, max_val: (x > _typed(x, min_val)) & (x < _typed(x, max_val)),
    ("min_val", "max_val"),
    lambda x, min_val, max_val: ~((x <= _typed(x, min_val)) | (x >= _typed(x, max_val))),
)


@register(
    "hardtanh",
    "hardtanh(input, min_val=-1.0, max_val=1.0)",
    "input clamped to [min_val, max_val]",
    checks=[((M,), {}), ((M,), {"min_val": -0.5, "max_val": 0.5})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=None,
)
def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    x = tensor_arg(input)
    if x.data.dtype == np.bool_:
        raise _not_implemented("clamp_scalar_cpu", x.data.dtype)
    return Hardtanh.apply(x, min_val=min_val, max_val=max_val)


@register(
    "relu6",
    "relu6(input)",
    "min(max(input, 0), 6): hardtanh(input, 0, 6)",
    checks=[((Arg((2, 3), -1.0, 7.0),), {})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=None,
)
def relu6(input, inplace=False):
    return hardtanh(input, 0, 6)


def _shrunk(x, lambd):
    """Where |x| > lambd (a NaN is not)."""
    return (x < -_typed(x, lambd)) | (x > _typed(x, lambd))


def _not_within(x, lambd):
    """Where not -lambd <= x <= lambd (a NaN is)."""
    return ~((x >= -_typed(x, lambd)) & (x <= _typed(x, lambd)))


Hardshrink = _masked_op(
    "hardshrink",
    "HardshrinkBackward0",
    lambda x, lambd: np.where(_shrunk(x, lambd) | np.isnan(x), x, np.zeros((), x.dtype)),
    _shrunk,
    ("lambd",),
    _not_within,
)


def _softshrink(x, lambd):
    """x - lambd above lambd, x + lambd below -lambd; between them the vector code gives
    +0 and the scalar code after the vector blocks x * 0 (so -0.0 for a negative x)."""
    lam = _typed(x, lambd)
    zero = np.zeros((), x.dtype)

    def fn(lib, v):
        between = np.where(np.isnan(v), v, zero) if lib.vector else v * zero
        return np.where(v > lam, v - lam, np.where(v < -lam, v + lam, between))

    return torch_act.blocks(fn, x)


Softshrink = _masked_op(
    "softshrink", "SoftshrinkBackward0", _softshrink, _shrunk, ("lambd",), _not_within
)


@register(
    "hardshrink",
    "hardshrink(input, lambd=0.5)",
    "input where |input| > lambd, 0 elsewhere",
    method=True,
    checks=[((M,), {}), ((M,), {"lambd": 1.0})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=None,
)
def hardshrink(input, lambd=0.5):
    return Hardshrink.apply(_float_only("hardshrink_cpu", tensor_arg(input)), lambd=lambd)


@register(
    "softshrink",
    "softshrink(input, lambd=0.5)",
    "input - lambd above lambd, input + lambd below -lambd, 0 between",
    checks=[((M,), {}), ((M,), {"lambd": 1.0})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=None,
)
def softshrink(input, lambd=0.5):
    x = _float_only("softshrink_check", tensor_arg(input))
    top = float(np.finfo(x.data.dtype).max)
    if not 0 <= lambd <= top:
        raise GradRuntimeError(
            f"lambda must be in range [0, {top:g}] for input dtype "
            f"{dtypes.scalar_type_name(x.data.dtype)}, but found {lambd:g}"
        )
    return Softshrink.apply(x, lambd=lambd)


# ------------------------------------------------ hardsigmoid, hardswish


def _clamp6(x):
    """min(max(x + 3, 0), 6)."""
    t = x.dtype.type
    return np.minimum(np.maximum(x + t(3), t(0)), t(6))


class Hardsigmoid(Function):
    __slots__ = ()
    name = "HardsigmoidBackward0"
    saved_names = ("self",)
    formula = none("no formula rule yet: shown as a named function with its Jacobian")

    def forward(self, x):
        self.save(x)
        return _clamp6(x) / x.dtype.type(6)

    def backward(self, g, F, x):
        if F.tensor_mode:
            return (HardsigmoidBackward.apply(g, x),)
        return (hardsigmoid_backward(g, x),)

    jvp = elementwise


def hardsigmoid_backward(g, x):
    """g * (1/6) where -3 < x < 3, 0 elsewhere; 1/6 is the float 1.0f / 6.0f (in double
    too, as the kernel writes it)."""
    t = x.dtype.type
    g = np.broadcast_to(g, x.shape)
    return np.where((x > t(-3)) & (x < t(3)), g * t(np.float32(1.0) / np.float32(6.0)), t(0))


class NotImplementedGrad(Function):
    """A backward kernel PyTorch has no derivative for, as the node of its result under
    create_graph: `torch::autograd::NotImplemented`, an error when a backward reaches it
    (a subclass gives the kernel, `aten` its name and `compute(*arrays, **params)`)."""

    formula = BACKWARD_FORMULA
    __slots__ = ("params",)
    name = "NotImplemented"
    qualified_name = "torch::autograd::NotImplemented"  # (grad_fn.name())
    saved_names = none("PyTorch's NotImplemented node saves nothing")
    jvp = none("PyTorch has no derivative of this backward kernel")
    aten = ""

    def forward(self, *arrays, **params):
        return self.compute(*arrays, **params)

    def backward(self, gg, F):
        raise GradRuntimeError(f"derivative for aten::{self.aten} is not implemented")


class HardsigmoidBackward(NotImplementedGrad):
    """hardsigmoid's backward under create_graph (PyTorch has no derivative for it)."""

    __slots__ = ()
    aten = "hardsigmoid_backward"  # (forward mode's error names it too)
    compute = staticmethod(lambda g, x: hardsigmoid_backward(g, x))


@register(
    "hardsigmoid",
    "hardsigmoid(input)",
    "min(max(input + 3, 0), 6) / 6",
    checks=[((WIDE,), {})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=None,
)
def hardsigmoid(input, inplace=False):
    return Hardsigmoid.apply(_float_only("hardsigmoid_cpu", tensor_arg(input)))


def hardswish_backward(g, x):
    """0 where x <= -3, g where x >= 3, g * (x / 3 + 0.5) between; a NaN gives NaN in
    the vector blocks (their blends) and g after them (the scalar code's last branch)."""
    t = x.dtype.type

    def fn(lib, dy, v):
        mid = dy * ((v / t(3)) + t(0.5))
        if lib.vector:
            return np.where(v <= t(-3), t(0), np.where(v >= t(3), dy, mid))
        return np.where(v <= t(-3), t(0), np.where(v < t(3), mid, dy))

    return torch_act.blocks(fn, np.broadcast_to(g, x.shape), x)


class Hardswish(Function):
    __slots__ = ()
    name = "HardswishBackward0"
    saved_names = ("self",)
    formula = none("no formula rule yet: shown as a named function with its Jacobian")

    def forward(self, x):
        self.save(x)
        return (x * _clamp6(x)) / x.dtype.type(6)

    def backward(self, g, F, x):
        if F.tensor_mode:
            return (HardswishBackward.apply(g, x),)
        return (laid_out(hardswish_backward(g, x), (x,)),)

    jvp = elementwise


class HardswishBackward(Function):
    """hardswish's backward as one op (create_graph); derivatives.yaml: in g the kernel
    again, in x `where(-3 < x < 3, gg * g / 3, 0)`."""

    formula = BACKWARD_FORMULA
    __slots__ = ()
    name = "HardswishBackwardBackward0"
    saved_names = ("grad_output", "self")

    def forward(self, g, x):
        self.save(g, x)
        return laid_out(hardswish_backward(g, x), (x,))

    def backward(self, gg, F, g, x):
        inside = (x > -3.0) * (x < 3.0)
        return (type(self).apply(gg, x), F.where(inside, gg * g / 3.0, 0.0))

    def jvp(self, ts, F, g, x):
        tg, tx = ts
        out = None if tg is None else type(self).apply(tg, x)
        if tx is not None:
            term = F.where((x > -3.0) * (x < 3.0), tx * g / 3.0, 0.0)
            out = term if out is None else out + term
        return out


@register(
    "hardswish",
    "hardswish(input)",
    "input * min(max(input + 3, 0), 6) / 6",
    checks=[((WIDE,), {})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=None,
)
def hardswish(input, inplace=False):
    return Hardswish.apply(_float_only("hardswish_cpu", tensor_arg(input)))


# ------------------------------------------------ mish


def _tanh(lib, v):
    return sleef_tanh(v) if lib.vector else libm_tanh(v)


def _mish(x):
    """torch's mish kernel: x * tanh(log1p(exp(x))), SLEEF's functions on the vector
    blocks, the C library's after them."""
    return torch_act.blocks(lambda lib, v: v * _tanh(lib, lib.log1p(lib.exp(v))), x)


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

    return torch_act.blocks(fn, np.broadcast_to(g, x.shape), x)


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
    return Elu.apply(x, alpha=SELU_ALPHA, scale=SELU_SCALE, input_scale=1)


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
    return Celu.apply(tensor_arg(input), alpha=alpha)


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
    return RreluWithNoise.apply(
        _float_only("rrelu_with_noise_out_cpu", x), lower=lower, upper=upper, training=training
    )
