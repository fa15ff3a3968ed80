"""Piecewise-linear activations, each a mask on the gradient: threshold, hardtanh
(relu6), hardshrink and softshrink, one node each with PyTorch's grad_fn name and its
backward a recorded op of PyTorch's name under create_graph."""

from __future__ import annotations

import numpy as np

from ..core import dtypes
from ..core.convert import tensor_arg
from ..engine.declare import none
from ..engine.forward import elementwise
from ..engine.function import Function
from ..numerics.floats import torch_act
from ..numerics.floats.tensor_iter import laid_out
from ..runtime.errors import GradRuntimeError
from .registry import Arg, register
from .activation_base import M, BACKWARD_FORMULA, _not_implemented, _float_only

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
        if F.tensor_mode:
            return (type(self).apply(gg, x, params=self.params), gg * 0.0)
        return (self.mask(gg, x, self.params), np.zeros_like(gg))

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


class ThresholdResult(Threshold):  # type: ignore[valid-type,misc]
    """threshold_ (in place): ThresholdBackward1, of the same gradient (the input's
    values, saved before they are written over)."""

    __slots__ = ()
    name = "ThresholdBackward1"


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
    node = ThresholdResult if inplace else Threshold
    return node.apply(tensor_arg(input), threshold=threshold, value=value)


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
