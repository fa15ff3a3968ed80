"""Element-wise choices between values: clamp, maximum/minimum (of two tensors), where.
(A family after `elementwise`, whose operand helpers it uses.)"""

from __future__ import annotations


import numpy as np
from numpy._core import umath as np_umath

from ..engine.declare import none
from ..core import dtypes
from ..engine.function import Function
from ..engine.forward import linear
from ..core.convert import operand, tensor_arg
from ..runtime.errors import GradRuntimeError, GradTypeError, broadcast_error
from ..runtime.limits import check_broadcast
from ..core.tensor import Tensor, type_name
from ..numerics.floats import half
from .registry import Arg, Parser, register, tensor_f
from .tensor_args import tensors_only, with_method_positions
from .elementwise import _cast, _shapes
from .combine import MaskedFill

# NumPy's clip ufunc: what np.clip calls for a float array and two bounds, without
# np.clip's Python steps (about 4,400 instructions a call)
_CLIP = np_umath.clip  # type: ignore[attr-defined]


class Clamp(Function):
    __slots__ = ("lo", "hi")
    name = "ClampBackward1"
    zeros_through = False  # (PyTorch's kernel materialises efficient zeros)
    saved_names = ("self",)
    saved_extra = {"min": lambda node: node.lo, "max": lambda node: node.hi}

    def formula(self, S, x, *_):
        lo, hi = self.lo, self.hi
        if any(v is not None and not isinstance(v, (int, float)) for v in (lo, hi)):
            raise S.Unsupported("tensor bounds")

        def clamped(v):
            parts = [
                (S.number(b), v < S.number(b) if k == 0 else v > S.number(b))
                for k, b in enumerate((lo, hi))
                if b is not None
            ]
            return S.sp.Piecewise(*parts, (v, True))

        return S.map(clamped, x)

    def forward(self, x, lo, hi):
        self.lo, self.hi = lo, hi
        self.save(x)
        if lo is not None and hi is not None and x.dtype.kind == "f":
            out = _CLIP(x, lo, hi)  # (np.clip's own call for floats)
        else:
            out = np.clip(x, lo, hi) if lo is not None or hi is not None else x.copy()
        if out.dtype.kind == "f" and (lo == 0 or hi == 0):
            # PyTorch keeps x where it is not beyond a bound (clamp(-0.0, min=0) is -0.0,
            # clamp(-1.0, min=-0.0) is -0.0); np.clip gives the bound on a tie
            keep = np.ones(x.shape, bool) if lo is None else ~(x < lo)
            if hi is not None:
                keep &= ~(x > hi)
            out = np.where(keep, x, out).astype(out.dtype, copy=False)
        return out

    def replay_kernel(self, x, lo, hi):
        """On a float32 or float64 array (not 0-d) and two number bounds, neither of
        them zero (a zero bound keeps x's signed zeros: more than the clip), the
        forward is NumPy's clip ufunc alone, saving x."""
        if (
            type(self).forward is not Clamp.forward
            or type(x) is not np.ndarray
            or not x.ndim
            or x.dtype.char not in "fd"
            or type(lo) not in (int, float)
            or type(hi) not in (int, float)
            or lo == 0
            or hi == 0
        ):
            return None
        return (lambda a: _CLIP(a, lo, hi)), 1, True, None

    def backward(self, g, F, x):
        if self.lo is not None:
            g = F.where(x >= self.lo, g, 0.0)
        if self.hi is not None:
            g = F.where(x <= self.hi, g, 0.0)
        return (g,)

    def jvp(self, ts, F, x):
        return self.backward(ts[0], F, x)[0]


@register(
    "clamp",
    "clamp(input, min=None, max=None)",
    "limit values to [min, max]",
    method=True,
    aliases=("clip",),
    checks=[((Arg((2, 3)),), {"min": -0.5, "max": 0.7})],
    category="math",
    batch="elementwise",
    inplace="clamp_",
    pure=True,
    parser=None,
)
def clamp(x, min=None, max=None):
    x = tensor_arg(x)
    if min is None and max is None:
        raise GradRuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return _clamp_tensors(x, min, max)
    if not (_bound(min) and _bound(max)):  # (a str, a list ...)
        given = ", ".join(
            f"{name}={type_name(b)}" for name, b in (("min", min), ("max", max)) if b is not None
        )
        raise GradTypeError(
            f"clamp() received an invalid combination of arguments - got (Tensor, {given}), "
            "but expected one of:"
        )
    if x.data.dtype is half.F16:  # PyTorch's Scalar::to<Half>: its overflow error
        for v in (min, max):
            if isinstance(v, (int, float)):
                half.scalar(v)
    return Clamp.apply(x, lo=_num(min), hi=_num(max))


_BOUNDS = frozenset({int, float, bool, type(None)})


def _bound(v):
    """Whether a bound that is not a tensor is one clamp takes: a number (NumPy's too)."""
    return type(v) in _BOUNDS or isinstance(v, (int, float, np.number, np.bool_))


def _num(v):
    if isinstance(v, (Tensor, np.generic)):  # (a NumPy scalar as the number it holds)
        return v.item()
    return v


class ClampTensor(Function):
    """aten::clamp.Tensor: bounds that are tensors (broadcast), ClampBackward0.  Values:
    maximum with min, then minimum with max, in the promoted dtype, a NaN bound giving
    NaN (ATen's vectorised kernel); gradients derivatives.yaml's clamp_backward and
    clamp_backward_min_max (the input where it lies within its bounds, min where the input
    is below it and min < max, max where the input is above it or max < min)."""

    __slots__ = ("dt",)
    name = "ClampBackward0"
    zeros_through = False
    saved_names = ("self", "min", "max")
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    jvp = none("clamp_jvp with tensor bounds is not written yet")

    def forward(self, x, lo, hi, dt):
        self.dt = dt
        self.save(x, lo, hi)
        with np.errstate(invalid="ignore"):
            out = np.asarray(x).astype(dt)
            if lo is not None:
                out = np.maximum(out, np.asarray(lo).astype(dt))
            if hi is not None:
                out = np.minimum(out, np.asarray(hi).astype(dt))
        return np.ascontiguousarray(out) if out.ndim else out  # (NumPy's gives 0-d one dim)

    def backward(self, g, F, x, lo, hi):
        dt = self.dt
        xa, la, ha = (None if v is None else np.asarray(getattr(v, "data", v)).astype(dt)
                      for v in (x, lo, hi))  # fmt: skip
        with np.errstate(invalid="ignore"):
            if la is not None and ha is not None:
                keep = (xa >= la) & (xa <= ha)
                to_lo = (xa < la) & (la < ha)
                to_hi = (xa > ha) | (ha < la)
            elif la is not None:
                keep, to_lo, to_hi = xa >= la, xa < la, None
            else:
                keep, to_lo, to_hi = xa <= ha, None, xa > ha
        n = self.needs

        def part(pred, v, need):
            if not need or pred is None:
                return None
            m = Tensor(pred) if F.tensor_mode else pred
            shape = np.shape(getattr(v, "data", v))
            return F.sum_to(F.where(m, g, 0.0), shape)

        return (
            part(keep, x, n[0]),
            part(to_lo, lo, len(n) > 1 and n[1]),
            part(to_hi, hi, len(n) > 2 and n[2]),
        )


def _clamp_tensors(x, min, max):
    """clamp with a tensor bound: both bounds tensors (or None), as PyTorch's overload
    clamp(Tensor input, Tensor? min, Tensor? max) wants them."""
    for k, v in (("min", min), ("max", max)):
        if v is not None and not isinstance(v, Tensor):
            given = ", ".join(
                f"{name}={type_name(b)}"
                for name, b in (("max", max), ("min", min))
                if b is not None
            )
            raise GradTypeError(
                f"clamp() received an invalid combination of arguments - got (Tensor, {given}), "
                "but expected one of:"
            )
    dt = dtypes.result_type(*(v for v in (x, min, max) if v is not None))
    return ClampTensor.apply(x, min, max, dt=dt)


class MaxMin(Function):
    """maximum / minimum of two tensors; ties share the gradient evenly."""

    __slots__ = ("sa", "sb")
    zeros_through = False  # (PyTorch's kernel materialises efficient zeros)

    def forward(self, a, b, dt):
        self.sa, self.sb = a.shape, b.shape
        if a.shape != b.shape:  # PyTorch's words, with a and b in their order
            try:
                np.broadcast_shapes(a.shape, b.shape)
            except ValueError:
                raise broadcast_error(a.shape, b.shape) from None
        self.save(a, b)
        # (b, a): NumPy gives its second operand when the two are equal and PyTorch gives
        # a, which shows on signed zeros (maximum(-0.0, 0.0) is -0.0)
        if a.dtype != dt or b.dtype != dt:  # PyTorch compares in the result dtype
            return self.np_fn(np.asarray(b).astype(dt), np.asarray(a).astype(dt))
        return self.np_fn(b, a)

    def backward(self, g, F, a, b):
        win = a > b if self.name == "MaximumBackward0" else a < b
        tie = a == b
        if F.tensor_mode:  # derivatives.yaml: where(a == b, g / 2, g).masked_fill_(a loses, 0)
            shared = F.where(tie, g / 2, g)
            lose = (a < b if self.name == "MaximumBackward0" else a > b).data
            return (
                F.sum_to(MaskedFill.apply(shared, lose, 0), self.sa),
                F.sum_to(MaskedFill.apply(shared, win.data, 0), self.sb),
            )
        half = g * 0.5
        ga = F.where(tie, half, F.where(win, g, 0.0))
        gb = F.where(tie, half, F.where(win, 0.0, g))
        return F.sum_to(ga, self.sa), F.sum_to(gb, self.sb)

    def jvp(self, ts, F, a, b):
        # PyTorch's formula: tb + where(a == b, 0.5, a wins) * (ta - tb), a missing
        # tangent being a zero tensor that leaves the other term as it is
        a, b = a.data, b.data
        win = a > b if self.name == "MaximumBackward0" else a < b
        ta, tb = ts[0], ts[1]
        dt = (ta if ta is not None else tb).data.dtype
        m = Tensor(np.where(a == b, 0.5, win).astype(dt))
        if tb is None:
            return m * ta
        return tb + m * (-tb if ta is None else ta - tb)


class Maximum(MaxMin):
    def formula(self, S, a, b, *_):
        a, b = S.saved_const(a, self, 0, self.sa), S.saved_const(b, self, 1, self.sb)
        return S.map2(lambda u, v: S.sp.Piecewise((u, u > v), (v, True)), a, b)

    __slots__ = ()
    name = "MaximumBackward0"
    saved_names = ("self", "other")
    saved_order = (1, 0)
    np_fn = staticmethod(np.maximum)


class Minimum(MaxMin):
    def formula(self, S, a, b, *_):
        a, b = S.saved_const(a, self, 0, self.sa), S.saved_const(b, self, 1, self.sb)
        return S.map2(lambda u, v: S.sp.Piecewise((u, u < v), (v, True)), a, b)

    __slots__ = ()
    name = "MinimumBackward0"
    saved_names = ("self", "other")
    saved_order = (1, 0)
    np_fn = staticmethod(np.minimum)


@register(
    "maximum",
    "maximum(input, other)",
    "element-wise larger of two tensors",
    method=True,
    checks=[((Arg((2, 3)), Arg((3,))), {})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=True,
    parser=Parser(("other",)),
)
@tensor_f("maximum")
def maximum(a, b):
    a, b = tensors_only("maximum", a, b)  # PyTorch refuses numbers here
    return Maximum.apply(a, b, dt=dtypes.result_type(a, b))


@register(
    "minimum",
    "minimum(input, other)",
    "element-wise smaller of two tensors",
    method=True,
    checks=[((Arg((2, 3)), Arg((3,))), {})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=True,
    parser=Parser(("other",)),
)
def minimum(a, b):
    a, b = tensors_only("minimum", a, b)  # PyTorch refuses numbers here
    return Minimum.apply(a, b, dt=dtypes.result_type(a, b))


with_method_positions(maximum, "maximum")
with_method_positions(minimum, "minimum")


class Where(Function):
    __slots__ = ("sa", "sb")
    name = "WhereBackward0"
    zeros_through = False  # (PyTorch's kernel materialises efficient zeros)
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def formula(self, S, a, b, *_):
        """cond ? a : b, with the condition it saved."""
        if not self.saved:
            raise S.Unsupported("the condition was freed")
        a, b = S.unknown(a, self, 0, self.sa), S.unknown(b, self, 1, self.sb)
        return np.where(self.saved[0], S.obj(a), S.obj(b))

    def forward(self, a, b, cond, dt):
        self.sa, self.sb = _shapes(a, b)
        self.save(cond)
        return _cast(np.where(cond, a, b), dt)

    def backward(self, g, F, cond):
        n = self.needs
        return (
            F.sum_to(F.where(cond, g, 0.0), self.sa) if n[0] else None,
            F.sum_to(F.where(cond, 0.0, g), self.sb) if n[1] else None,
        )

    jvp = linear


_UNSET = object()  # (where's input and other, not given)


@register(
    "where",
    "where(condition, input, other)",
    "input where condition is true, else other",
    method=False,
    checks=[(([True, False, True], Arg((2, 3)), Arg((3,))), {})],
    category="math",
    parser=Parser(overloaded=True),
    batch="elementwise",
    inplace=None,
    pure="quiet",  # (its condition: an array its node takes, never replayed)
)
def where(condition, input=_UNSET, other=_UNSET):
    if input is _UNSET or other is _UNSET:
        return _where_alone(condition, input, other)
    cond = tensor_arg(condition).data
    if cond.dtype != np.bool_:
        raise GradRuntimeError(
            "where expected condition to be a boolean tensor, but got a "
            f"tensor with dtype {dtypes.scalar_type_name(cond.dtype)}"
        )
    a, b = operand(input), operand(other)
    check_broadcast(cond.shape, *(x.data.shape for x in (a, b) if type(x) is Tensor))
    return Where.apply(a, b, cond=cond, dt=dtypes.result_type(a, b))


def _where_alone(condition, input, other):
    """torch.where(condition): nonzero(condition, as_tuple=True), a tuple of int64 index
    tensors, one a dim (a 0-d condition: one index tensor, of its one element or none)."""
    given = [v for v in (condition, input, other) if v is not _UNSET]
    if len(given) > 1 or not isinstance(condition, Tensor):
        got = ", ".join("Tensor" if isinstance(v, Tensor) else type_name(v) for v in given)
        raise GradTypeError(
            f"where() received an invalid combination of arguments - got ({got}), "
            "but expected one of:"
        )
    c = condition.data
    if c.ndim == 0:
        return (Tensor(np.zeros(int(c != 0), np.int64)),)
    return tuple(Tensor(np.ascontiguousarray(i, dtype=np.int64)) for i in np.nonzero(c))


@tensor_f("where")
def _where_t(cond, a, b):
    c = cond.data if isinstance(cond, Tensor) else np.asarray(cond)
    return Where.apply(
        operand(a), operand(b), cond=c.astype(bool), dt=dtypes.result_type(operand(a), operand(b))
    )


@register(
    "where",
    "x.where(condition, other)",
    "x where condition is true, else other",
    method=True,
    function=False,
    category="math",
    checks=none("where's samples check it"),
    batch="elementwise",
    inplace=None,
    pure="quiet",  # (its condition: an array its node takes, never replayed)
    parser=None,
)
def where_method(x, condition, other):
    return where(condition, x, other)
