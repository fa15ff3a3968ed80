"""`torch.div(a, b, rounding_mode=...)` (DivBackward2) and `torch.fmod` (FmodBackward0 with
a number, FmodBackward1 with a tensor), as torch 2.13 computes and differentiates them.

- div with `rounding_mode='trunc'`, `'floor'` or an explicit `None` is aten's
  `div.Tensor_mode`: a number operand is wrapped as a tensor, so every call records
  DivBackward2 (plain `div(a, b)` stays elementwise's DivBackward0). 'trunc' is
  `trunc(a / b)`; 'floor' is ATen's `div_floor_floating_vec` (fmod, then the quotient of
  `a - mod` fixed up as Python's `//`; for float16 with a number, in float32 with the
  number as a float32, as ATen's reduced-float path); integers divide as C does
  ('trunc') or as Python does ('floor'), by zero torch's "ZeroDivisionError". None is
  true division (elementwise's values). Gradients: derivatives.yaml's
  div_tensor_self_backward / div_tensor_other_backward (zeros with a rounding mode;
  `grad / other` and `-grad * ((self / other) / other)` without); tangents
  `self_t / other_p - other_t * (self_p / other_p) / other_p`, or zeros.
- fmod is C's fmod (exact; integers by zero: "ZeroDivisionError"); its gradient is `grad`
  for the input and `-grad * self.div(other, rounding_mode='trunc')` for a tensor other.
"""

from __future__ import annotations

from ..engine.declare import none

import numpy as np

from ..runtime.errors import GradRuntimeError, GradTypeError
from ..numerics.floats.half import F16
from ..core.tensor import Tensor, type_name
from ..engine.function import FUNCTIONS, Function
from .elementwise import _cast, _float_dt, _no_zero_divisor, _operands, _shapes
from .registry import Arg, Parser, register

MODES = ("trunc", "floor")
_UNSET = object()


def _pytype(v):
    return "NoneType" if v is None else type_name(v)


def floor_div_float(a, b):
    """ATen's div_floor_floating_vec on float arrays (each op rounded to their dtype)."""
    with np.errstate(all="ignore"):
        basic = a / b
        mod = np.fmod(a, b)
        inf = np.isinf(basic) & ~np.isinf(a)  # Sleef_fmod's fix-up: a, not a - mod
        div = np.where(inf, a, a - mod) / b
        div = np.where((mod != 0) & ((b < 0) != (mod < 0)), div - 1, div)
        fl = np.floor(div)
        fl = np.where(div - fl > 0.5, fl + 1, fl)
        fl = np.where(div == 0, np.copysign(np.zeros_like(basic), basic), fl)
        return np.where(b == 0, basic, fl).astype(basic.dtype, copy=False)


def _trunc_int(a, b):
    q = np.floor_divide(a, b)
    return np.where((q * b != a) & ((a < 0) != (b < 0)), q + 1, q)


def round_div(a, b, mode, dt):
    """a / b rounded by `mode` ('trunc' or 'floor') in dtype dt, as ATen's kernels."""
    if dt.kind in "iub":
        _no_zero_divisor(b, dt, "div_floor_cpu" if mode == "floor" else "div_trunc_cpu")
        a, b = np.asarray(a, dt), np.asarray(b, dt)
        return _cast(np.floor_divide(a, b) if mode == "floor" else _trunc_int(a, b), dt)
    if dt == F16 and np.ndim(b) == 0 and not isinstance(b, np.ndarray):
        # ATen's reduced-float path with a number: in float32, the number a float32
        a, b = np.asarray(a, np.float32), np.float32(b)
        q = floor_div_float(a, b) if mode == "floor" else np.trunc(a / b)
        return q.astype(F16)
    a, b = np.asarray(a, dt), np.asarray(b, dt)
    if mode == "floor":
        return floor_div_float(a, b)
    with np.errstate(all="ignore"):
        return np.trunc(a / b)


class DivMode(Function):
    """aten::div.Tensor_mode: `a / b` with an explicit rounding_mode (None too)."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ("sa", "sb", "mode", "dt")
    name = "DivBackward2"
    saved_names = ("self", "other")
    saved_order = (1, 0)
    saved_extra = {"rounding_mode": lambda node: node.mode}
    saved_uses = ((1,), (0, 1))  # other for self's gradient, both for other's

    def forward(self, a, b, mode, dt):
        self.sa, self.sb = _shapes(a, b)
        self.mode, self.dt = mode, dt
        self.save(a, b)
        if mode is not None:
            return round_div(a, b, mode, dt)
        # true division: elementwise's values (on tensors that record nothing)
        return FUNCTIONS["div"](_wrap(a), _wrap(b)).data

    def backward(self, g, F, a, b):
        n = self.needs
        if self.mode is not None:  # zeros_like(grad), in each input's dtype
            return (
                _zeros(F, self.sa, _dtype(a)) if n[0] else None,
                _zeros(F, self.sb, _dtype(b)) if n[1] else None,
            )
        return (
            F.sum_to(g / b, self.sa) if n[0] else None,
            F.sum_to(-g * ((a / b) / b), self.sb) if n[1] else None,
        )

    def jvp(self, ts, F, a, b):
        ta, tb = ts
        if self.mode is not None:  # result.new_zeros(result.sizes())
            shape = np.broadcast_shapes(self.sa, self.sb)
            return Tensor(np.zeros(shape, self.dt))
        t1 = ta / b if ta is not None else None
        t2 = tb * (a / b) / b if tb is not None else None
        if t2 is None:
            return t1
        return -t2 if t1 is None else t1 - t2


def _wrap(v):
    return Tensor(v) if isinstance(v, np.ndarray) else v


def _dtype(v):
    d = getattr(v, "data", v)
    return d.dtype if isinstance(d, np.ndarray) else np.dtype(np.float64)


def _zeros(F, shape, dt):
    z = np.zeros(shape, dt)
    return Tensor(z) if F.tensor_mode else z


def _check_mode(mode):
    if mode is None or mode in MODES:
        return
    if isinstance(mode, str):
        raise GradRuntimeError(
            f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{mode}'"
        )
    raise GradTypeError(
        "div() received an invalid combination of arguments - got (Tensor, "
        f"Tensor, rounding_mode={_pytype(mode)}), but expected one of:"
    )


def div_mode(input, other, mode):
    """torch.div(input, other, rounding_mode=mode): DivBackward2."""
    _check_mode(mode)
    a, b, dt = _operands(input, other)
    if mode is None:
        dt = _float_dt(dt)
    if type(a) is not Tensor:  # a number first: wrapped as a tensor, as torch does
        a = Tensor(np.asarray(a, dt))
    return DivMode.apply(a, b, mode=mode, dt=dt)


@register(
    "div",
    "div(input, other, *, rounding_mode=None)",
    "input / other (true division), broadcasting; rounding_mode='trunc' or 'floor' "
    "rounds the quotient",
    method=True,
    checks=[
        ((Arg((2, 3)), Arg((3,), 0.5, 2.0)), {}),
        ((Arg((2, 3)), Arg((3,), 0.5, 2.0)), {"rounding_mode": None}),
        ((Arg((3,)), Arg((2, 1), 0.5, 2.0)), {"rounding_mode": None}),
        ((Arg((2, 3)), Arg((3,), 0.5, 2.0)), {"rounding_mode": "trunc"}),
        ((Arg((2, 3)), 0.7), {"rounding_mode": "floor"}),
    ],
    category="arith",
    batch="elementwise",
    inplace="div_",
    operators=("/",),
    pure=False,
    aliases=("divide",),
    parser={
        "div": Parser(overloaded=True, tensor_operands=True),
        "divide": Parser(overloaded=True),
    },
)
def div(input, other, *, rounding_mode=_UNSET):
    if rounding_mode is _UNSET:
        return FUNCTIONS["div"](input, other)
    return div_mode(input, other, rounding_mode)


# ---------------------------------------------------------------- fmod


def _fmod(a, b, dt):
    if dt.kind in "iub":
        _no_zero_divisor(b, dt, "fmod_cpu")
    a, b = np.asarray(a, dt), np.asarray(b, dt)
    with np.errstate(all="ignore"):
        return _cast(np.fmod(a, b), dt)


class FmodScalar(Function):
    """fmod(tensor, number): derivatives.yaml's `self: grad`, `result: self_t`."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ("sa",)
    name = "FmodBackward0"
    saved_names = ()

    def forward(self, a, b, dt):
        self.sa = a.shape
        return _fmod(a, b, dt)

    def backward(self, g, F):
        return (g,)

    def jvp(self, ts, F):
        return ts[0]


class Fmod(Function):
    """fmod(tensor, tensor): `other: -grad * self.div(other, rounding_mode='trunc')`."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ("sa", "sb")
    name = "FmodBackward1"
    saved_names = ("self", "other")
    saved_order = (1, 0)
    saved_uses = ((1,), (1,))

    def forward(self, a, b, dt):
        self.sa, self.sb = _shapes(a, b)
        self.save(a, b)
        return _fmod(a, b, dt)

    def backward(self, g, F, a, b):
        n = self.needs
        return (
            F.sum_to(g, self.sa) if n[0] else None,
            F.sum_to(-g * _trunc_quotient(F, a, b), self.sb) if n[1] else None,
        )

    def jvp(self, ts, F, a, b):
        ta, tb = ts
        t2 = tb * _trunc_quotient(F, a, b) if tb is not None else None
        if t2 is None:
            return ta
        return -t2 if ta is None else ta - t2


def _trunc_quotient(F, a, b):
    if F.tensor_mode or type(a) is Tensor:
        return div_mode(a, b, "trunc")
    return round_div(a, b, "trunc", a.dtype)


@register(
    "fmod",
    "fmod(input, other)",
    "C's remainder: input - trunc(input / other) * other (the sign of input)",
    method=True,
    checks=[
        ((Arg((3,), 0.1, 0.9), Arg((3,), 1.0, 1.5)), {}),
        ((Arg((2, 3), 0.1, 0.9), Arg((3,), 1.0, 1.5)), {}),
        ((Arg((2, 3), 0.1, 1.9), 2.5), {}),
    ],
    category="arith",
    batch=None,
    inplace="fmod_",
    pure=False,
    parser=None,
)
def fmod(input, other):
    if not isinstance(input, Tensor) or not isinstance(other, (Tensor, int, float)):
        got = ", ".join(_pytype(v) for v in (input, other))
        raise GradTypeError(
            f"fmod() received an invalid combination of arguments - got ({got}), "
            "but expected one of:"
        )
    a, b, dt = _operands(input, other)
    if type(b) is not Tensor:
        return FmodScalar.apply(a, b=b, dt=dt)
    return Fmod.apply(a, b, dt=dt)
