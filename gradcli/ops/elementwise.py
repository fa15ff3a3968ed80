"""Element-wise ops: arithmetic operators, comparisons and math functions."""

from __future__ import annotations

from typing import Any


import operator

import numpy as np

from ..core import dtypes
from ..engine.declare import none
from ..engine.function import Function
from ..engine.modes import state as modes
from ..engine.saved import saved_const
from ..engine.forward import add_terms, bilinear, linear, linear_with
from ..engine.zero_terms import div_rule
from ..core.convert import operand, tensor_arg
from ..runtime.errors import GradRuntimeError
from ..runtime.limits import check_broadcast
from ..numerics.floats.fused import doubles
from ..numerics.floats.tensor_iter import binary_laid_out
from ..numerics.floats.singles import EXACT_INT, scalar_times, single, singles, weak
from ..numerics.floats.half import F16
from ..core.tensor import Tensor
from .registry import Arg, Inplace, internal, operator_node, Parser, register
from ..runtime import context

np.seterr(all="ignore")  # PyTorch's edge values (inf, nan) are results, not errors

X = (Arg((2, 3)),)
UNARY_CHECKS: list = [((Arg(()),), {}), ((Arg((3,)),), {}), ((Arg((2, 3)),), {})]


def _cast(out, dt):
    return out if out.dtype == dt else out.astype(dt)


def _float_dt(dt):
    return dt if dt.kind == "f" else context.current.default_float


def _shapes(a, b):
    """The shapes of two operands (a Python number has shape ())."""
    return (a.shape if type(a) is np.ndarray else (), b.shape if type(b) is np.ndarray else ())


_FAST = (Tensor, int, float)
I64 = np.dtype(np.int64)
#: a float16 tensor and a Python number: mul, div, floor_divide, pow (ops/half_nodes.py)
HALF_NUMBER: dict = {}


def _args2(a, b):
    if not (type(a) in _FAST and type(b) in _FAST and (type(a) is Tensor or type(b) is Tensor)):
        a, b = operand(a), operand(b)
        if type(a) is not Tensor and type(b) is not Tensor:
            a = tensor_arg(a)
    if (
        type(a) is Tensor
        and type(b) is Tensor
        and a.data.shape != b.data.shape
        and a.data.ndim
        and b.data.ndim
    ):
        check_broadcast(a.data.shape, b.data.shape)  # refuse a huge result before making it
    return a, b


def _same_float(a, b):
    """The result dtype when `a` (a Tensor) and `b` (a Tensor or a Python number) are the
    common floating case _operands answers first; None otherwise."""
    da = a.data
    dt = da.dtype
    if dt.char not in "fd":  # float16 is elementwise's general path (HALF_NUMBER)
        return None
    tb = type(b)
    if tb is Tensor:
        db = b.data
        if dt is db.dtype and (da.shape == db.shape or not da.ndim or not db.ndim):
            return dt
        return None
    if tb is float or tb is int:
        return dt
    return None


def _operands(a, b):
    """The two operands of an arithmetic op (numbers and lists made tensors where
    needed) and the result dtype.  The common cases are answered first."""
    ta, tb = type(a), type(b)
    if ta is Tensor:
        da = a.data
        if tb is Tensor:
            db = b.data
            if da.dtype is db.dtype and (da.shape == db.shape or not da.ndim or not db.ndim):
                return a, b, da.dtype  # a 0-d operand cannot make the result bigger
        elif (tb is float or tb is int) and da.dtype.kind == "f":
            return a, b, da.dtype
        elif tb is int and da.dtype is I64 and -(2**63) <= b < 2**63:
            return a, b, I64  # (an index plus an offset: the int64 tensor's dtype)
    elif tb is Tensor and (ta is float or ta is int) and b.data.dtype.kind == "f":
        return a, b, b.data.dtype
    a, b = _args2(a, b)
    dt = dtypes.result_type(a, b)
    if dt.kind in "iu":
        a, b = _wrapped(a, dt), _wrapped(b, dt)
    return a, b, dt


def _in_result_dtype(a, b, dt):
    """A backward's saved float operands in the gradient's (the result's) dtype, as
    PyTorch's arithmetic on them promotes: a 0-d float64 operand with a float32 gradient
    is cast to float32 first."""
    if dt.kind == "f":
        if type(a) is np.ndarray and a.dtype.kind in "fiub" and a.dtype is not dt:
            a = a.astype(dt)
        if type(b) is np.ndarray and b.dtype.kind in "fiub" and b.dtype is not dt:
            b = b.astype(dt)
    return a, b


def _wrapped(v, dt):
    """A Python int outside the integer result dtype's range, as PyTorch converts it to
    that dtype: wrapped around (for uint8, -1 is 255; NumPy refuses it)."""
    if type(v) is int:
        info = np.iinfo(dt)
        if not info.min <= v <= info.max and -(2**63) <= v < 2**63:
            return int(np.array(v, dtype=np.int64).astype(dt))
    return v


# ---------------------------------------------------------------- arithmetic


class _Arith(Function):
    """Add, Sub and Mul: their forward, written once (`ufunc`, and `pair` on the Python
    floats of two 0-d operands; Mul `keeps` its operands), and their replay kernel."""

    __slots__ = ("sa", "sb", "k")  # k: a Python number second operand (for its formula)
    sums_as_is = True
    ufunc: Any = None
    pair: Any = None
    keeps = False

    def forward(self, a, b, dt):
        sa = self.sa = a.shape if type(a) is np.ndarray else ()  # _shapes, inlined
        if type(b) is np.ndarray:
            sb = self.sb = b.shape
        else:
            sb = self.sb = ()
            self.k = b
        if self.keeps:
            self.saved = (a, b)
        if not sa and not sb:
            f = doubles(a, b, dt)
            if f is not None:
                return np.array(self.pair(f[0], f[1]))
            f = singles(a, b, dt)
            if f is not None:
                return single(self.pair(f[0], f[1]))
        if dt.kind == "f":  # PyTorch casts the operands to the result dtype first (a 0-d
            # float64 times a float32 tensor is a float32 product, not a rounded double)
            if type(a) is np.ndarray and a.dtype is not dt:
                a = a.astype(dt)
            if type(b) is np.ndarray and b.dtype is not dt:
                b = b.astype(dt)
        out = self.ufunc(a, b if type(b) is np.ndarray else weak(b, a))
        if out.ndim > 1 and (
            not out.flags.c_contiguous or type(a) is np.ndarray and not a.flags.c_contiguous
        ):
            out = binary_laid_out(out, a, b)  # (NumPy's layout of mixed operands is not ATen's)
        return out if out.dtype is dt else _cast(out, dt)

    def pair_forward(self, a, b):
        """forward(a, b, dt) for two 0-d arrays of dtype dt, float64 or float32: its
        `doubles` / `singles` path, the result as a Python float (rounded to float32 by
        the caller: engine/number_nodes.py pair_node)."""
        self.sa = self.sb = ()
        if self.keeps:
            self.saved = (a, b)
        return self.pair(a.item(), b.item())

    def replay_kernel(self, a, b, dt):
        """On a float32 or float64 array and another of its dtype, not both 0-d, or a
        Python number (the same each iteration: taken once, as `weak` gives it), the
        forward is the ufunc alone.  Not for a subclass with a forward of its own
        (MulHalf's)."""
        if (
            type(self).forward is not _Arith.forward
            or type(a) is not np.ndarray
            or a.dtype is not dt
            or dt.char not in "fd"
        ):
            return None
        if type(b) is np.ndarray:
            if a.ndim > 1 and not (a.flags.c_contiguous and b.flags.c_contiguous):
                return None  # (the forward lays the result out as TensorIterator does)
            return (
                (self.ufunc, 2, self.keeps, None) if (a.ndim or b.ndim) and b.dtype is dt else None
            )
        if (type(b) is float or type(b) is int) and a.ndim:
            return (self.ufunc, 2, self.keeps, weak(b, a))
        return None


@operator_node("+", tensor_operand=True, swaps=True)
class Add(_Arith):
    __slots__ = ()
    name = "AddBackward0"
    saved_names = ()
    saved_extra = {"alpha": saved_const(1)}
    ufunc, pair = np.add, operator.add

    def number_forward(self, a, k, v):
        """forward(a, k, dt) for a 0-d float64 or float32 array and a float (or an int a
        double holds), `v` the number as the arithmetic takes it (k itself; for float32
        rounded to float32): its `doubles` / `singles` path, as a Python float (rounded
        to float32 by the caller: engine/number_nodes.py)."""
        self.sa = self.sb = ()
        self.k = k
        return a.item() + v

    def backward(self, g, F):
        n = self.needs
        return (F.sum_to(g, self.sa) if n[0] else None, F.sum_to(g, self.sb) if n[1] else None)

    def grad_factor(self):
        """1 for `tensor + number` (of a 0-d tensor: its gradient is g itself)."""
        n = self.needs
        return 1 if n[0] and not n[1] and not self.sa and not self.sb else None

    def passes_through(self):
        out = np.broadcast_shapes(self.sa, self.sb)
        return type(self) is Add and all(
            s == out for s, n in zip((self.sa, self.sb), self.needs) if n
        )

    jvp = linear_with(-0.0, -0.0)

    def formula(self, S, a, b):
        return S.const(a, self, 0, self.sa) + S.const(b, self, 1, self.sb)


class AddScalar(Add):
    """ATen's add of a Scalar inside a composite (`t + eps` in C++: rms_norm's `add_(eps)`,
    pairwise_distance's `x1 - x2 + eps`): the node PyTorch names AddBackward1."""

    __slots__ = ()
    name = "AddBackward1"
    saved_names = ()
    saved_extra: dict = {}  # (PyTorch shows no _saved_alpha on it)


@operator_node("-", tensor_operand=True, swaps=False)
class Sub(_Arith):
    __slots__ = ()
    name = "SubBackward0"
    zeros_through = (True, False)  # (other's gradient is -grad: materialised)
    saved_names = ()
    saved_extra = {"alpha": saved_const(1)}
    ufunc, pair = np.subtract, operator.sub

    def number_forward(self, a, k, v):
        """As Add.number_forward."""
        self.sa = self.sb = ()
        self.k = k
        return a.item() - v

    def backward(self, g, F):
        n = self.needs
        return (F.sum_to(g, self.sa) if n[0] else None, F.sum_to(-g, self.sb) if n[1] else None)

    grad_factor = Add.grad_factor  # (`tensor - number`: g itself)

    def passes_through(self):
        return (
            type(self) is Sub
            and not self.needs[1]
            and self.sa == np.broadcast_shapes(self.sa, self.sb)
        )

    jvp = linear_with(-0.0, 0.0)

    def formula(self, S, a, b):
        return S.const(a, self, 0, self.sa) - S.const(b, self, 1, self.sb)


class Rsub(Function):
    """`number - tensor` (PyTorch records it as rsub(tensor, number))."""

    __slots__ = ("k",)
    name = "RsubBackward1"
    zeros_through = False  # (PyTorch's kernel materialises efficient zeros)
    saved_names = ()
    saved_extra = {"alpha": saved_const(1)}

    def forward(self, b, a, dt):
        self.k = a
        return _cast(np.subtract(a, b), dt)

    def formula(self, S, b, a):
        return S.const(a, self, 1) - b

    def backward(self, g, F):
        return (-g, None)

    def jvp(self, ts, F):
        return -ts[0]


@operator_node("*", tensor_operand=True, swaps=True)
class Mul(_Arith):
    __slots__ = ()
    name = "MulBackward0"
    saved_names = ("self", "other")
    saved_order = (1, 0)  # PyTorch saves other before self
    saved_uses = ((1,), (0,))  # a for b's gradient, b for a's
    ufunc, pair = np.multiply, operator.mul
    keeps = True

    def number_forward(self, a, k, v):
        """As Add.number_forward (k saved as apply2 keeps it: no `a`, which only the
        constant's gradient would use)."""
        self.sa = self.sb = ()
        self.k = k
        self.saved = (None, k)
        return a.item() * v

    def backward(self, g, F, a, b):
        n = self.needs
        if not F.tensor_mode:
            if type(a) is np.ndarray or type(b) is np.ndarray:  # (numbers stay as they are)
                a, b = _in_result_dtype(a, b, g.dtype)
        if not F.tensor_mode and n[0] and not n[1]:  # tensor * constant: g may stay a view
            sa = self.sa
            if not sa and not self.sb:
                r = scalar_times(g, b)  # a 0-d product without a NumPy call
                if r is not None:
                    return (r, None)
            elif (
                (type(b) is float or type(b) is int)
                and type(g) is np.ndarray
                and g.shape == sa
                and g.strides[-1]
            ):  # a number, a gradient of a's shape not broadcast: F.sum_scaled's product
                return (np.multiply(g, weak(b, g)), None)
            return (F.sum_scaled(g, b, sa), None)
        if not F.tensor_mode and not self.sa and not self.sb:  # two 0-d operands
            ra = scalar_times(g, b) if n[0] else None  # (g * b as NumPy gives it)
            rb = scalar_times(g, a) if n[1] else None
            if (ra is not None or not n[0]) and (rb is not None or not n[1]):
                return (ra, rb)
        return (
            F.sum_to(g * b, self.sa) if n[0] else None,
            F.sum_to(g * a, self.sb) if n[1] else None,
        )

    def grad_factor(self):
        """The number of `tensor * number` (of a 0-d tensor), its backward's scalar_times
        above; None when the number is not one scalar_times multiplies by on floats."""
        n = self.needs
        if n[0] and not n[1] and not self.sa and not self.sb:
            saved = self.saved
            if type(saved) is tuple and saved:  # (None: freed; packed by hooks: not a tuple)
                k = saved[1]
                if type(k) is float or (type(k) is int and -EXACT_INT <= k <= EXACT_INT):
                    return k
        return None

    jvp = bilinear

    def formula(self, S, a, b):
        return S.const(a, self, 0, self.sa) * S.const(b, self, 1, self.sb)


@operator_node("/", tensor_operand=True, swaps=False)
class Div(Function):
    __slots__ = ("sa", "sb", "k")  # k: a Python number divisor (for its formula)
    name = "DivBackward0"
    saved_names = ("self", "other")
    saved_order = (1, 0)
    saved_uses = ((1,), (0, 1))  # a for b's gradient, b for both

    def formula(self, S, a, b):
        return S.const(a, self, 0, self.sa) / S.const(b, self, 1, self.sb)

    def forward(self, a, b, dt):
        self.sa, self.sb = _shapes(a, b)
        if type(b) is not np.ndarray:
            self.k = b
        self.save(a, b)
        if dt.kind == "f":  # the operands in the result dtype first, as PyTorch (_Arith)
            if type(a) is np.ndarray and a.dtype is not dt:
                a = a.astype(dt)
            if type(b) is np.ndarray and b.dtype is not dt:
                b = b.astype(dt)
        return _cast(binary_laid_out(np.true_divide(a, weak(b, a)), a, b), dt)

    def backward(self, g, F, a, b):
        n = self.needs
        if not F.tensor_mode:
            a, b = _in_result_dtype(a, b, g.dtype)
        # torch's div_tensor_other_backward: -grad * ((self / other) / other)
        return (
            F.sum_to(g / b, self.sa) if n[0] else None,
            F.sum_to(-g * ((a / b) / b), self.sb) if n[1] else None,
        )

    def jvp(self, ts, F, a, b):  # derivatives.yaml: (self_t - other_t * result) / other_p
        return div_rule(ts[0], ts[1], a, b)


class Reciprocal(Function):
    __slots__ = ()
    name = "ReciprocalBackward0"
    saved_names = ("result",)

    def forward(self, a, dt):
        out = _cast(np.true_divide(1, a), dt)
        self.save(out)
        return out

    def formula(self, S, a):
        return 1 / S.obj(a)

    # derivatives.yaml: -grad * (result * result), squared first (not (-g * out) * out)
    def backward(self, g, F, out):
        return (-g * (out * out),)

    def jvp(self, ts, F, out):
        return -ts[0] * (out * out)


def _remainder(a, b, dt):
    """a % b with the sign of b, computed as PyTorch's kernel does: fmod (exact), plus b
    where that is not 0 and its sign is not b's (so -0.0 % 1 is -0.0)."""
    _no_zero_divisor(b, dt)
    if dt.kind == "f":
        a, b = np.asarray(a, dt), np.asarray(b, dt)
        mod = np.fmod(a, b)
        return np.where((mod != 0) & ((b < 0) != (mod < 0)), mod + b, mod).astype(dt, copy=False)
    return _cast(np.remainder(a, b), dt)


class Remainder(Function):
    """tensor % tensor (RemainderBackward1; tensor % number is RemainderBackward0)."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ("sa", "sb")
    name = "RemainderBackward1"
    saved_names = ("self", "other")
    saved_order: tuple | None = (1, 0)  # PyTorch saves other before self

    def forward(self, a, b, dt):
        self.sa, self.sb = _shapes(a, b)
        self.save(a, b)
        return _remainder(a, b, dt)

    def backward(self, g, F, a, b):
        n = self.needs
        return (
            F.sum_to(g, self.sa) if n[0] else None,
            F.sum_to(-g * F.floor(a / b), self.sb) if n[1] else None,
        )

    def jvp(self, ts, F, a, b):
        ta, tb = ts
        return add_terms(ta, -tb * F.floor(a / b) if tb is not None else None)


def _no_zero_divisor(b, dt, kernel="remainder_cpu"):
    """Integer division or remainder by zero is an error in PyTorch, not a value; on
    bools there is no kernel at all."""
    if dt.kind == "b":
        raise GradRuntimeError(
            f"\"{kernel}\" not implemented for 'Bool'", type_name="NotImplementedError"
        )
    if dt.kind in "iu" and not np.all(b):
        raise GradRuntimeError("ZeroDivisionError")


class NotDifferentiable(Function):
    """PyTorch's node for an op without a derivative: the output requires grad,
    prints as grad_fn=<NotImplemented>, and backward through it fails."""

    __slots__ = ()
    name = "NotImplemented"
    jvp = none("PyTorch has no derivative for it (forward AD raises its error)")
    saved_names = ()
    aten = ""

    def backward(self, g, F):
        raise GradRuntimeError(f"derivative for aten::{self.aten} is not implemented")


class FloorDivide(NotDifferentiable):
    """a // b: floor(a / b), as Python rounds (NumPy's floor_divide is the same)."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ()
    aten = "floor_divide"

    def forward(self, a, b, dt):
        _no_zero_divisor(b, dt, "div_floor_cpu")
        return _cast(np.floor_divide(a, b), dt)


class RemainderRScalar(NotDifferentiable):
    """number % tensor (PyTorch records no derivative for it)."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ()
    aten = "remainder"

    def forward(self, b, a, dt):
        return _remainder(a, b, dt)


class Neg(Function):
    __slots__ = ()
    name = "NegBackward0"
    zeros_through = False  # (PyTorch's kernel materialises efficient zeros)
    saved_names = ()  # PyTorch saves nothing

    def forward(self, a):
        return np.negative(a)

    def formula(self, S, a):
        return -S.obj(a)

    def backward(self, g, F):
        return (-g,)

    jvp = linear


def _bool_sub_check(a, b):
    """PyTorch refuses a subtraction with a bool operand (a Python bool counts as one)."""
    ba = getattr(a, "dtype", None) == dtypes.bool_ or isinstance(a, bool)
    bb = getattr(b, "dtype", None) == dtypes.bool_ or isinstance(b, bool)
    if ba and bb:
        raise GradRuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. "
            "Use the `^` or `logical_xor()` operator instead."
        )
    if ba or bb:
        raise GradRuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. "
            "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."
        )


def _int_step(cls, a, b):
    """`cls`'s result (Add, Sub, Mul) for a 0-d int64 tensor `a` and a Python int `b`
    (an index drawn from a tensor plus an offset: `data[s : s + n]`), on Python's ints,
    when it is in int64's range (else None: the ufunc wraps it) and no mode records ops:
    the node apply2 makes for such operands is none (an integer tensor requires no
    grad), its value the ufunc's."""
    da = a.data
    if da.dtype is I64 and not da.ndim and not modes.on:
        v = cls.pair(int(da), b)
        if -(2**63) <= v < 2**63:
            return Tensor(np.array(v, I64))
    return None


@internal("add")  # the built-in (with alpha=): ops/scaled.py
def add(a, b):
    if type(a) is Tensor:
        dt = _same_float(a, b)
        if dt is not None:
            return Add.apply2(a, b, dt)
        if type(b) is int:
            r = _int_step(Add, a, b)
            if r is not None:
                return r
    a, b, dt = _operands(a, b)
    if dt is F16:
        a, b = HALF_NUMBER["operands"](a, b, False)
    if type(a) is not Tensor:
        a, b = b, a
    return Add.apply2(a, b, dt)


@internal("sub")  # the built-in (with alpha=): ops/scaled.py
def sub(a, b):
    if type(a) is Tensor:
        dt = _same_float(a, b)
        if dt is not None:
            return Sub.apply2(a, b, dt)
        if type(b) is int:
            r = _int_step(Sub, a, b)
            if r is not None:
                return r
    a, b, dt = _operands(a, b)
    if dt is F16:
        a, b = HALF_NUMBER["operands"](a, b, False)
    _bool_sub_check(getattr(a, "data", a), getattr(b, "data", b))
    if type(a) is not Tensor:
        return Rsub.apply(b, a, dt=dt)
    return Sub.apply2(a, b, dt)


@register(
    "mul",
    "mul(input, other)",
    "input * other, broadcasting",
    method=True,
    checks=[((Arg((2, 3)), Arg((2, 1))), {})],
    category="arith",
    batch="elementwise",
    inplace=Inplace("mul_", reads_argument=True),
    operators=("*",),
    pure=True,
    aliases=("multiply",),
    parser={"mul": Parser(("other",)), "multiply": Parser(overloaded=True)},
)
@internal("mul")
def mul(a, b):
    if type(a) is Tensor:
        dt = _same_float(a, b)
        if dt is not None:
            return Mul.apply2(a, b, dt)
        if type(b) is int:
            r = _int_step(Mul, a, b)
            if r is not None:
                return r
    a, b, dt = _operands(a, b)
    if type(a) is not Tensor:
        a, b = b, a
    if dt is F16:
        a, b = HALF_NUMBER["operands"](a, b, True)
        if type(b) is not Tensor:
            return HALF_NUMBER["mul"](a, b)
    return Mul.apply2(a, b, dt)


@internal("div")  # the built-in div (rounding_mode=): ops/rounding.py
def div(a, b):
    if type(a) is Tensor:
        dt = _same_float(a, b)
        if dt is not None:
            return Div.apply2(a, b, dt)
    given = a, b
    a, b, dt = _operands(a, b)
    if dt.kind in "iu":  # (true division: a Python int as it is, not wrapped to the dtype)
        a, b = (g if type(g) is int else v for g, v in zip(given, (a, b)))
    dt = _float_dt(dt)
    if dt is F16:
        a, b = HALF_NUMBER["operands"](a, b, True)
        if type(a) is not Tensor or type(b) is not Tensor:
            return HALF_NUMBER["div"](a, b)
    if type(a) is not Tensor:
        # PyTorch computes number / tensor as tensor.reciprocal() * number
        return Mul.apply(Reciprocal.apply(b, dt=dt), a, dt=dt)
    return Div.apply2(a, b, dt)


@register(
    "remainder",
    "remainder(input, other)",
    "input % other (sign of the divisor)",
    method=True,
    checks=[((Arg((3,), 0.1, 0.9), Arg((3,), 1.0, 1.5)), {})],
    category="arith",
    batch="elementwise",
    inplace=Inplace("remainder_", reads_argument=True),
    operators=("%",),
    pure=False,
    parser=Parser(overloaded=True),
)
@internal("mod", batch="elementwise")
def remainder(a, b):
    a, b, dt = _operands(a, b)
    if type(a) is not Tensor:
        return RemainderRScalar.apply(b, a, dt=dt)
    if type(b) is not Tensor:
        return RemainderScalar.apply(a, b=b, dt=dt)  # (the number is no input of the node)
    return Remainder.apply(a, b, dt=dt)


class RemainderScalar(Remainder):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ()
    name = "RemainderBackward0"
    saved_names: Any = ()  # tensor % number: PyTorch saves nothing (its gradient is g)
    saved_order = None

    def forward(self, a, b, dt):
        self.sa, self.sb = _shapes(a, b)
        return _remainder(a, b, dt)

    def backward(self, g, F):
        return (F.sum_to(g, self.sa),)

    def jvp(self, ts, F):
        return ts[0]


@register(
    "floor_divide",
    "floor_divide(input, other)",
    "input // other: floor of the quotient (not differentiable, as in PyTorch)",
    method=True,
    category="arith",
    batch="elementwise",
    inplace="floor_divide_",
    operators=("//",),
    pure=False,
    checks=none("not differentiable (PyTorch records no derivative)"),
    parser=Parser(overloaded=True),
)
@internal("floor_divide")
def floor_divide(a, b):
    a, b, dt = _operands(a, b)
    if dt is F16 and (type(a) is not Tensor or type(b) is not Tensor):
        return HALF_NUMBER["floor_divide"](a, b)
    if type(a) is not Tensor:
        a = Tensor(np.asarray(a, dtype=dt))
    return FloorDivide.apply(a, b, dt=dt)


@register(
    "neg",
    "neg(input)",
    "-input",
    method=True,
    checks=UNARY_CHECKS,
    category="arith",
    aliases=("negative",),
    batch="elementwise",
    inplace="neg_",
    pure="method",
    parser=None,
)
@internal("neg")
def neg(a):
    a = tensor_arg(a)
    if a.data.dtype == dtypes.bool_:
        raise GradRuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. "
            "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."
        )
    return Neg.apply(a)


class DivScalar(Function):
    """aten::div(Tensor, Scalar), which PyTorch records as DivBackward1."""

    __slots__ = ("c",)
    name = "DivBackward1"
    saved_names = ()
    saved_extra = {"other": lambda node: node.c}

    def formula(self, S, x, *_):
        return S.obj(x) / S.number(self.c)

    def forward(self, x, c):
        self.c = c
        return x / c

    def backward(self, g, F):
        return (g / self.c,)

    jvp = linear


class MulScalar(Mul):
    """tensor * a C++ Scalar inside a derivative formula: PyTorch's MulBackward1."""

    __slots__ = ()
    name = "MulBackward1"

    def next_functions(self):
        return super().next_functions()[:1]  # the Scalar is no input of the node


def times_scalar(F, t, c):
    return MulScalar.apply(t, c, dt=t.data.dtype) if F.tensor_mode else t * c
