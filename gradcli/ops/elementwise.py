"""Element-wise ops: arithmetic operators, comparisons and math functions."""
from __future__ import annotations

import math

import numpy as np

from ..core import dtypes
from ..engine.autograd import Function
from ..engine.forward import add_terms, bilinear, linear
from ..core.convert import operand, tensor_arg
from ..base.errors import GradRuntimeError
from ..base.limits import check_broadcast
from ..base.powers import torch_pow
from ..core.tensor import Tensor
from .registry import Arg, internal, register, tensor_f
from ..base import context
from .dims import norm_dims

np.seterr(all="ignore")   # PyTorch's edge values (inf, nan) are results, not errors

X = (Arg((2, 3)),)
UNARY_CHECKS = [((Arg(()),), {}), ((Arg((3,)),), {}), ((Arg((2, 3)),), {})]


def _cast(out, dt):
    return out if out.dtype == dt else out.astype(dt)


def _float_dt(dt):
    return dt if dt.kind == "f" else context.current.default_float


def _shapes(a, b):
    """The shapes of two operands (a Python number has shape ())."""
    return (a.shape if type(a) is np.ndarray else (),
            b.shape if type(b) is np.ndarray else ())


_FAST = (Tensor, int, float)


def _args2(a, b):
    if not (type(a) in _FAST and type(b) in _FAST and (type(a) is Tensor or type(b) is Tensor)):
        a, b = operand(a), operand(b)
        if type(a) is not Tensor and type(b) is not Tensor:
            a = tensor_arg(a)
    if type(a) is Tensor and type(b) is Tensor and a.data.shape != b.data.shape and \
            a.data.ndim and b.data.ndim:
        check_broadcast(a.data.shape, b.data.shape)   # refuse a huge result before making it
    return a, b


def _operands(a, b):
    """The two operands of an arithmetic op (numbers and lists made tensors where
    needed) and the result dtype.  The common cases are answered first."""
    ta, tb = type(a), type(b)
    if ta is Tensor:
        da = a.data
        if tb is Tensor:
            db = b.data
            if da.dtype is db.dtype and (da.shape == db.shape or not da.ndim or not db.ndim):
                return a, b, da.dtype        # a 0-d operand cannot make the result bigger
        elif (tb is float or tb is int) and da.dtype.kind == "f":
            return a, b, da.dtype
    elif tb is Tensor and (ta is float or ta is int) and b.data.dtype.kind == "f":
        return a, b, b.data.dtype
    a, b = _args2(a, b)
    return a, b, dtypes.result_type(a, b)


# ---------------------------------------------------------------- arithmetic

class Add(Function):
    __slots__ = ("sa", "sb")
    name = "AddBackward0"

    def forward(self, a, b, dt):
        self.sa, self.sb = _shapes(a, b)
        out = np.add(a, b)
        return out if out.dtype is dt else _cast(out, dt)

    def backward(self, g, F):
        n = self.needs
        return (F.sum_to(g, self.sa) if n[0] else None,
                F.sum_to(g, self.sb) if n[1] else None)

    jvp = linear


class Sub(Function):
    __slots__ = ("sa", "sb")
    name = "SubBackward0"

    def forward(self, a, b, dt):
        self.sa, self.sb = _shapes(a, b)
        return _cast(np.subtract(a, b), dt)

    def backward(self, g, F):
        n = self.needs
        return (F.sum_to(g, self.sa) if n[0] else None,
                F.sum_to(-g, self.sb) if n[1] else None)

    jvp = linear


class Rsub(Function):
    """`number - tensor` (PyTorch records it as rsub(tensor, number))."""
    __slots__ = ()
    name = "RsubBackward1"

    def forward(self, b, a, dt):
        return _cast(np.subtract(a, b), dt)

    def backward(self, g, F):
        return (-g, None)

    def jvp(self, ts, F):
        return -ts[0]


class Mul(Function):
    __slots__ = ("sa", "sb")
    name = "MulBackward0"

    def forward(self, a, b, dt):
        self.sa, self.sb = _shapes(a, b)
        self.save(a, b)
        out = np.multiply(a, b)
        return out if out.dtype is dt else _cast(out, dt)

    def backward(self, g, F, a, b):
        n = self.needs
        return (F.sum_to(g * b, self.sa) if n[0] else None,
                F.sum_to(g * a, self.sb) if n[1] else None)

    jvp = bilinear


class Div(Function):
    __slots__ = ("sa", "sb")
    name = "DivBackward0"

    def forward(self, a, b, dt):
        self.sa, self.sb = _shapes(a, b)
        self.save(a, b)
        return _cast(np.true_divide(a, b), dt)

    def backward(self, g, F, a, b):
        n = self.needs
        return (F.sum_to(g / b, self.sa) if n[0] else None,
                F.sum_to(-g * a / (b * b), self.sb) if n[1] else None)

    def jvp(self, ts, F, a, b):
        ta, tb = ts
        return add_terms(ta / b if ta is not None else None,
                         -tb * a / (b * b) if tb is not None else None)


class Reciprocal(Function):
    __slots__ = ()
    name = "ReciprocalBackward0"

    def forward(self, a, dt):
        out = _cast(np.true_divide(1, a), dt)
        self.save(out)
        return out

    def backward(self, g, F, out):
        return (-g * out * out,)

    def jvp(self, ts, F, out):
        return -ts[0] * out * out


def _remainder(a, b, dt):
    """a % b with the sign of b, computed as PyTorch does."""
    _no_zero_divisor(b, dt)
    if dt.kind == "f":
        return _cast(a - b * np.floor(np.true_divide(a, b)), dt)
    return _cast(np.remainder(a, b), dt)


class Remainder(Function):
    """tensor % tensor (RemainderBackward1; tensor % number is RemainderBackward0)."""
    __slots__ = ("sa", "sb")
    name = "RemainderBackward1"

    def forward(self, a, b, dt):
        self.sa, self.sb = _shapes(a, b)
        self.save(a, b)
        return _remainder(a, b, dt)

    def backward(self, g, F, a, b):
        n = self.needs
        return (F.sum_to(g, self.sa) if n[0] else None,
                F.sum_to(-g * F.floor(a / b), self.sb) if n[1] else None)

    def jvp(self, ts, F, a, b):
        ta, tb = ts
        return add_terms(ta, -tb * F.floor(a / b) if tb is not None else None)


def _no_zero_divisor(b, dt):
    """Integer division or remainder by zero is an error in PyTorch, not a value."""
    if dt.kind in "biu" and not np.all(b):
        raise GradRuntimeError("ZeroDivisionError")


class NotDifferentiable(Function):
    """PyTorch's node for an op without a derivative: the output requires grad,
    prints as grad_fn=<NotImplemented>, and backward through it fails."""
    __slots__ = ()
    name = "NotImplemented"
    aten = ""

    def backward(self, g, F):
        raise GradRuntimeError(f"derivative for aten::{self.aten} is not implemented")


class FloorDivide(NotDifferentiable):
    """a // b: floor(a / b), as Python rounds (NumPy's floor_divide is the same)."""
    __slots__ = ()
    aten = "floor_divide"

    def forward(self, a, b, dt):
        _no_zero_divisor(b, dt)
        return _cast(np.floor_divide(a, b), dt)


class RemainderRScalar(NotDifferentiable):
    """number % tensor (PyTorch records no derivative for it)."""
    __slots__ = ()
    aten = "remainder"

    def forward(self, b, a, dt):
        return _remainder(a, b, dt)


class PowScalar(Function):
    """tensor ** number"""
    __slots__ = ("e",)
    name = "PowBackward0"

    def forward(self, a, e, dt):
        self.e = e
        self.save(a)
        out = torch_pow(a, e) if type(a) is np.ndarray else np.power(a, e)
        return out if out.dtype is dt else _cast(out, dt)

    def backward(self, g, F, a):
        e = self.e
        if e == 0:              # PyTorch: zeros_like(input), whatever g is (inf, nan)
            return (Tensor(np.zeros_like(a.data)) if F.tensor_mode else np.zeros_like(a),)
        if e == 2 and not F.tensor_mode:
            return (g * (2.0 * a),)
        if not F.tensor_mode:
            return (g * (e * torch_pow(a, e - 1)),)
        return (g * (e * a ** (e - 1)),)    # as PyTorch, so higher orders match too

    def jvp(self, ts, F, a):
        if self.e == 0:
            return ts[0] * 0.0
        return ts[0] * (self.e * a ** (self.e - 1))


class PowTensor(Function):
    """tensor ** tensor"""
    __slots__ = ("sa", "sb")
    name = "PowBackward1"

    def forward(self, a, b, dt):
        self.sa, self.sb = _shapes(a, b)
        out = _cast(np.power(a, b), dt)
        self.save(a, b, out)
        return out

    def backward(self, g, F, a, b, out):
        n = self.needs
        ga = gb = None
        if n[0]:
            ga = F.sum_to(F.where(b == 0, 0.0, g * b * a ** (b - 1)), self.sa)
        if n[1]:
            gb = F.where(a == 0, F.where(b >= 0, 0.0, g * out * F.log(a)), g * out * F.log(a))
            gb = F.sum_to(gb, self.sb)
        return ga, gb

    def jvp(self, ts, F, a, b, out):
        ta, tb = ts
        return add_terms(
            F.where(b == 0, 0.0, ta * b * a ** (b - 1)) if ta is not None else None,
            F.where(a == 0, F.where(b >= 0, 0.0, tb * out * F.log(a)), tb * out * F.log(a))
            if tb is not None else None)


class PowRScalar(Function):
    """number ** tensor"""
    __slots__ = ("base",)
    name = "PowBackward2"

    def forward(self, e, base, dt):
        self.base = base
        out = _cast(np.power(float(base) if dt.kind == "f" else base, e), dt)
        self.save(e, out)
        return out

    def backward(self, g, F, e, out):
        if self.base == 0:     # PyTorch: zero where exponent >= 0
            return (F.where(e >= 0, 0.0, g * out * -np.inf),)
        return (g * out * float(np.log(float(self.base))),)

    def jvp(self, ts, F, e, out):
        return self.backward(ts[0], F, e, out)[0]


class Neg(Function):
    __slots__ = ()
    name = "NegBackward0"

    def forward(self, a):
        return np.negative(a)

    def backward(self, g, F):
        return (-g,)

    jvp = linear


def _bool_sub_check(a, b):
    if (getattr(a, "dtype", None) == dtypes.bool_ or isinstance(a, bool)) and \
            (getattr(b, "dtype", None) == dtypes.bool_ or isinstance(b, bool)):
        raise GradRuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. "
            "Use the `^` or `logical_xor()` operator instead.")


@register("add", "add(input, other)", "input + other, broadcasting", method=True,
          checks=[((Arg((2, 3)), Arg((3,))), {}), ((Arg(()), Arg((2, 1))), {})], category="arith")
@internal("add")
def add(a, b):
    a, b, dt = _operands(a, b)
    if type(a) is not Tensor:
        a, b = b, a
    return Add.apply(a, b, dt=dt)


@register("sub", "sub(input, other)", "input - other, broadcasting", method=True,
          checks=[((Arg((2, 3)), Arg((3,))), {})], category="arith")
@internal("sub")
def sub(a, b):
    a, b, dt = _operands(a, b)
    _bool_sub_check(getattr(a, "data", a), getattr(b, "data", b))
    if type(a) is not Tensor:
        return Rsub.apply(b, a, dt=dt)
    return Sub.apply(a, b, dt=dt)


@register("mul", "mul(input, other)", "input * other, broadcasting", method=True,
          checks=[((Arg((2, 3)), Arg((2, 1))), {})], category="arith")
@internal("mul")
def mul(a, b):
    a, b, dt = _operands(a, b)
    if type(a) is not Tensor:
        a, b = b, a
    return Mul.apply(a, b, dt=dt)


@register("div", "div(input, other)", "input / other (true division), broadcasting", method=True,
          checks=[((Arg((2, 3)), Arg((3,), 0.5, 2.0)), {})], category="arith")
@internal("div")
def div(a, b):
    a, b, dt = _operands(a, b)
    dt = _float_dt(dt)
    if type(a) is not Tensor:
        # PyTorch computes number / tensor as tensor.reciprocal() * number
        return Mul.apply(Reciprocal.apply(b, dt=dt), a, dt=dt)
    return Div.apply(a, b, dt=dt)


@register("remainder", "remainder(input, other)", "input % other (sign of the divisor)",
          method=True, checks=[((Arg((3,), 0.1, 0.9), Arg((3,), 1.0, 1.5)), {})], category="arith")
@internal("mod")
def remainder(a, b):
    a, b, dt = _operands(a, b)
    if type(a) is not Tensor:
        return RemainderRScalar.apply(b, a, dt=dt)
    if type(b) is not Tensor:
        return RemainderScalar.apply(a, b, dt=dt)
    return Remainder.apply(a, b, dt=dt)


class RemainderScalar(Remainder):
    __slots__ = ()
    name = "RemainderBackward0"


@register("floor_divide", "floor_divide(input, other)", "input // other: floor of the quotient "
          "(not differentiable, as in PyTorch)", method=True, category="arith")
@internal("floor_divide")
def floor_divide(a, b):
    a, b, dt = _operands(a, b)
    if type(a) is not Tensor:
        a = Tensor(np.asarray(a, dtype=dt))
    return FloorDivide.apply(a, b, dt=dt)


@register("pow", "pow(input, exponent)", "input ** exponent (also ^)", method=True,
          checks=[((Arg((2, 3), 0.5, 2.0), 3), {}), ((Arg((3,), 0.5, 2.0), Arg((3,))), {}),
                  ((2.0, Arg((3,))), {}), ((Arg((2,), 0.5, 2), 0.5), {})], category="arith")
@internal("pow")
def pow(a, b):
    a, b, dt = _operands(a, b)
    if type(b) is not Tensor:
        return PowScalar.apply(a, b, dt=dt)
    if type(a) is not Tensor:
        return PowRScalar.apply(b, base=a, dt=dt)
    return PowTensor.apply(a, b, dt=dt)


@register("neg", "neg(input)", "-input", method=True, checks=UNARY_CHECKS, category="arith",
          aliases=("negative",))
@internal("neg")
def neg(a):
    a = tensor_arg(a)
    if a.data.dtype == dtypes.bool_:
        raise GradRuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. "
            "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
    return Neg.apply(a)


# ---------------------------------------------------------------- comparisons

def _compare(npfn):
    def fn(a, b):
        a, b = _args2(a, b)
        ad = a.data if type(a) is Tensor else a
        bd = b.data if type(b) is Tensor else b
        return Tensor(np.asarray(npfn(ad, bd)))
    return fn


for _name, _np, _sym in (("lt", np.less, "<"), ("le", np.less_equal, "<="),
                         ("gt", np.greater, ">"), ("ge", np.greater_equal, ">="),
                         ("eq", np.equal, "=="), ("ne", np.not_equal, "!=")):
    register(_name, f"{_name}(input, other)", f"input {_sym} other, element-wise (bool tensor)",
             method=True, category="compare")(internal(_name)(_compare(_np)))
del _name, _np, _sym


for _name, _np, _doc in (("isnan", np.isnan, "nan"), ("isinf", np.isinf, "+inf or -inf"),
                         ("isfinite", np.isfinite, "neither inf nor nan")):
    register(_name, f"{_name}(input)", f"whether each element is {_doc} (bool tensor)",
             method=True, category="compare")(
        (lambda f: lambda input: Tensor(np.asarray(f(tensor_arg(input).data))))(_np))
del _name, _np, _doc


def _truth_reduction(np_fn):
    def fn(input, dim=None, keepdim=False):
        x = tensor_arg(input).data
        return Tensor(np.asarray(np_fn(x, axis=norm_dims(dim, x.ndim), keepdims=keepdim)))
    return fn


for _name, _np, _doc in (("any", np.any, "any element"), ("all", np.all, "every element")):
    register(_name, f"{_name}(input, dim=None, keepdim=False)",
             f"whether {_doc} is true (non-zero), as a bool tensor", method=True,
             category="compare")(_truth_reduction(_np))
del _name, _np, _doc


@register("allclose", "allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)",
          "whether |input - other| <= atol + rtol * |other| everywhere (a bool)",
          method=True, category="compare")
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = tensor_arg(input).data, tensor_arg(other).data
    return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


@register("equal", "equal(input, other)", "whether both have the same shape and values (a bool)",
          method=True, category="compare")
def equal(input, other):
    a, b = tensor_arg(input).data, tensor_arg(other).data
    return a.shape == b.shape and bool(np.array_equal(a, b))


# ---------------------------------------------------------------- unary math

class Unary(Function):
    """An element-wise function of one tensor; subclasses set `np_fn` and `vjp`."""
    __slots__ = ()
    saves = ""            # "x" (input), "out" (output), "" (nothing)

    def forward(self, x):
        x = dtypes.floating(x)
        out = self.np_fn(x)
        if self.saves == "x":
            self.save(x)
        elif self.saves == "out":
            self.save(out)
        return out


def unary(name, grad_fn, np_fn, vjp, doc, saves="x", domain=(-2.0, 2.0), keep_int=False,
          aliases=()):
    """Register an element-wise function: its forward, VJP and grad_fn name together."""
    cls = type(grad_fn, (Unary,), {
        "__slots__": (), "name": grad_fn, "np_fn": staticmethod(np_fn), "saves": saves,
        "backward": (lambda self, g, F, s: (vjp(g, F, s),)) if saves else
                    (lambda self, g, F: (vjp(g, F, None),)),
        # element-wise: the JVP is the VJP's formula with the tangent for the gradient
        "jvp": (lambda self, ts, F, s: vjp(ts[0], F, s)) if saves else
               (lambda self, ts, F: vjp(ts[0], F, None)),
    })
    if keep_int:
        cls.forward = lambda self, x: np_fn(x) if x.dtype.kind != "f" else Unary.forward(self, x)

    lo, hi = domain
    checks = [((Arg((), lo, hi),), {}), ((Arg((3,), lo, hi),), {}), ((Arg((2, 3), lo, hi),), {})]

    @register(name, f"{name}(input)", doc, method=True, checks=checks, category="math",
              aliases=aliases)
    @tensor_f(name)
    def fn(x):
        return cls.apply(tensor_arg(x))
    fn.__name__ = name
    return fn


LN2, LN10 = math.log(2.0), math.log(10.0)

exp = unary("exp", "ExpBackward0", np.exp, lambda g, F, out: g * out, "e ** input", "out")
log = unary("log", "LogBackward0", np.log, lambda g, F, x: g / x, "natural logarithm",
            domain=(0.5, 3.0))
unary("log2", "Log2Backward0", np.log2, lambda g, F, x: g / (x * LN2), "base-2 logarithm",
      domain=(0.5, 3.0))
unary("log10", "Log10Backward0", np.log10, lambda g, F, x: g / (x * LN10), "base-10 logarithm",
      domain=(0.5, 3.0))
sqrt = unary("sqrt", "SqrtBackward0", np.sqrt, lambda g, F, out: g / (2 * out), "square root",
             "out", domain=(0.5, 3.0))
sin = unary("sin", "SinBackward0", np.sin, lambda g, F, x: g * F.cos(x), "sine")
cos = unary("cos", "CosBackward0", np.cos, lambda g, F, x: g * -F.sin(x), "cosine")
unary("tan", "TanBackward0", np.tan, lambda g, F, out: g * (1 + out * out), "tangent", "out",
      domain=(-1.2, 1.2))
tanh = unary("tanh", "TanhBackward0", np.tanh, lambda g, F, out: g * (1 - out * out),
             "hyperbolic tangent", "out")


def _sigmoid(x):
    # stable for large |x|
    return np.where(x >= 0, 1 / (1 + np.exp(-np.abs(x))), np.exp(-np.abs(x)) / (1 + np.exp(-np.abs(x))))


unary("sigmoid", "SigmoidBackward0", _sigmoid, lambda g, F, out: g * (out * (1 - out)),
      "logistic sigmoid 1 / (1 + exp(-input))", "out")
class ThresholdBackward(Function):
    """relu's backward as one op, for create_graph: g where x > 0, slope * g elsewhere.
    Its derivative in x is 0, yet, as in PyTorch, its result requires grad when x does."""
    __slots__ = ("slope",)
    name = "ThresholdBackwardBackward0"

    def forward(self, g, x, slope=0.0):
        self.slope = slope
        self.save(x)
        return np.where(x > 0, g, g * slope)

    def backward(self, gg, F, x):
        return (F.where(x > 0, gg, gg * self.slope), gg * 0.0)

    def jvp(self, ts, F, x):
        tg, tx = ts
        return add_terms(type(self).apply(tg, x, slope=self.slope) if tg is not None else None,
                         tx * 0.0 if tx is not None else None)


def masked_grad(F, g, x, slope=0.0, op=ThresholdBackward):
    """g where x > 0, slope * g elsewhere (a recorded op under create_graph)."""
    if F.tensor_mode:
        return op.apply(g, x, slope=slope)
    return np.where(x > 0, g, g * slope) if slope else np.where(x > 0, g, 0.0)


relu = unary("relu", "ReluBackward0", lambda x: np.maximum(x, 0),
             lambda g, F, out: masked_grad(F, g, out), "max(input, 0)", "out", keep_int=True)
abs_ = unary("abs", "AbsBackward0", np.abs, lambda g, F, x: g * F.sign(x), "absolute value",
             keep_int=True)
unary("square", "PowBackward0", np.square,
      lambda g, F, x: g * (2.0 * x ** 1) if F.tensor_mode else g * (2.0 * x), "input ** 2",
      keep_int=True)
sign = unary("sign", "SignBackward0", np.sign, lambda g, F, x: g * 0, "-1, 0 or 1 by sign",
             keep_int=True)
floor = unary("floor", "FloorBackward0", np.floor, lambda g, F, x: g * 0, "round down",
              keep_int=True)
unary("ceil", "CeilBackward0", np.ceil, lambda g, F, x: g * 0, "round up", keep_int=True)
unary("round", "RoundBackward0", np.round, lambda g, F, x: g * 0,
      "round half to even", keep_int=True)
unary("log1p", "Log1PBackward0", np.log1p, lambda g, F, x: g / (1 + x), "log(1 + input), accurately",
      domain=(-0.5, 2.0))
unary("expm1", "Expm1Backward0", np.expm1, lambda g, F, out: g * (out + 1),
      "exp(input) - 1, accurately", "out")
unary("rsqrt", "RsqrtBackward0", lambda x: 1 / np.sqrt(x),
      lambda g, F, out: g * (-0.5 * (out * out * out)), "1 / sqrt(input)", "out",
      domain=(0.5, 3.0))
unary("reciprocal", "ReciprocalBackward0", lambda x: 1 / x, lambda g, F, out: -g * (out * out),
      "1 / input", "out", domain=(0.5, 2.0))
unary("atan", "AtanBackward0", np.arctan, lambda g, F, x: g / (x * x + 1), "arc tangent",
      aliases=("arctan",))
unary("asin", "AsinBackward0", np.arcsin, lambda g, F, x: g / F.sqrt(1 - x * x), "arc sine",
      domain=(-0.9, 0.9), aliases=("arcsin",))
unary("acos", "AcosBackward0", np.arccos, lambda g, F, x: -g / F.sqrt(1 - x * x), "arc cosine",
      domain=(-0.9, 0.9), aliases=("arccos",))
unary("sinh", "SinhBackward0", np.sinh, lambda g, F, x: g * F.cosh(x), "hyperbolic sine")
unary("cosh", "CoshBackward0", np.cosh, lambda g, F, x: g * F.sinh(x), "hyperbolic cosine")
TENSOR_F_ALIASES = {"abs": abs_}


# ---------------------------------------------------------------- two-tensor selections

class Clamp(Function):
    __slots__ = ("lo", "hi")
    name = "ClampBackward1"

    def forward(self, x, lo, hi):
        self.lo, self.hi = lo, hi
        self.save(x)
        return np.clip(x, lo, hi) if lo is not None or hi is not None else x.copy()

    def backward(self, g, F, x):
        if self.lo is not None:
            g = F.where(x >= self.lo, g, 0.0)
        if self.hi is not None:
            g = F.where(x <= self.hi, g, 0.0)
        return (g,)

    def jvp(self, ts, F, x):
        return self.backward(ts[0], F, x)[0]


@register("clamp", "clamp(input, min=None, max=None)", "limit values to [min, max]",
          method=True, aliases=("clip",),
          checks=[((Arg((2, 3)),), {"min": -0.5, "max": 0.7})], category="math")
def clamp(x, min=None, max=None):
    x = tensor_arg(x)
    if min is None and max is None:
        raise GradRuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    return Clamp.apply(x, lo=_num(min), hi=_num(max))


def _num(v):
    if isinstance(v, Tensor):
        return v.item()
    return v


class MaxMin(Function):
    """maximum / minimum of two tensors; ties share the gradient evenly."""
    __slots__ = ("sa", "sb")

    def forward(self, a, b, dt):
        self.sa, self.sb = a.shape, b.shape
        self.save(a, b)
        return _cast(self.np_fn(a, b), dt)

    def backward(self, g, F, a, b):
        win = a > b if self.name == "MaximumBackward0" else a < b
        tie = a == b
        half = g * 0.5
        ga = F.where(tie, half, F.where(win, g, 0.0))
        gb = F.where(tie, half, F.where(win, 0.0, g))
        return F.sum_to(ga, self.sa), F.sum_to(gb, self.sb)

    def jvp(self, ts, F, a, b):
        win = a > b if self.name == "MaximumBackward0" else a < b
        tie = a == b
        ta = ts[0] if ts[0] is not None else 0.0
        tb = ts[1] if ts[1] is not None else 0.0
        return F.where(tie, (ta + tb) * 0.5, F.where(win, ta, tb))


class Maximum(MaxMin):
    __slots__ = ()
    name = "MaximumBackward0"
    np_fn = staticmethod(np.maximum)


class Minimum(MaxMin):
    __slots__ = ()
    name = "MinimumBackward0"
    np_fn = staticmethod(np.minimum)


@register("maximum", "maximum(input, other)", "element-wise larger of two tensors", method=True,
          checks=[((Arg((2, 3)), Arg((3,))), {})], category="math")
@tensor_f("maximum")
def maximum(a, b):
    a, b = tensor_arg(a), tensor_arg(b)
    check_broadcast(a.data.shape, b.data.shape)
    return Maximum.apply(a, b, dt=dtypes.result_type(a, b))


@register("minimum", "minimum(input, other)", "element-wise smaller of two tensors", method=True,
          checks=[((Arg((2, 3)), Arg((3,))), {})], category="math")
def minimum(a, b):
    a, b = tensor_arg(a), tensor_arg(b)
    check_broadcast(a.data.shape, b.data.shape)
    return Minimum.apply(a, b, dt=dtypes.result_type(a, b))


class Where(Function):
    __slots__ = ("sa", "sb")
    name = "WhereBackward0"

    def forward(self, a, b, cond, dt):
        self.sa, self.sb = _shapes(a, b)
        self.save(cond)
        return _cast(np.where(cond, a, b), dt)

    def backward(self, g, F, cond):
        n = self.needs
        return (F.sum_to(F.where(cond, g, 0.0), self.sa) if n[0] else None,
                F.sum_to(F.where(cond, 0.0, g), self.sb) if n[1] else None)

    jvp = linear


@register("where", "where(condition, input, other)",
          "input where condition is true, else other", method=False,
          checks=[(([True, False, True], Arg((2, 3)), Arg((3,))), {})],
          category="math")
def where(condition, input, other):
    cond = tensor_arg(condition).data
    if cond.dtype != np.bool_:
        raise GradRuntimeError("where expected condition to be a boolean tensor, but got a "
                               f"tensor with dtype {dtypes.scalar_type_name(cond.dtype)}")
    a, b = operand(input), operand(other)
    check_broadcast(cond.shape, *(x.data.shape for x in (a, b) if type(x) is Tensor))
    return Where.apply(a, b, cond=cond, dt=dtypes.result_type(a, b))


@tensor_f("where")
def _where_t(cond, a, b):
    c = cond.data if isinstance(cond, Tensor) else np.asarray(cond)
    return Where.apply(operand(a), operand(b), cond=c.astype(bool),
                       dt=dtypes.result_type(operand(a), operand(b)))


@register("where", "x.where(condition, other)", "x where condition is true, else other",
          method=True, function=False, category="math")
def where_method(x, condition, other):
    return where(condition, x, other)
