"""Element-wise functions of one tensor and selections between tensors: comparisons,
exp/log/sin/... (`unary`), relu, abs, clamp, maximum/minimum, where.  (A family
after `elementwise`, whose arithmetic and operand helpers it uses.)"""

from __future__ import annotations


import math

import numpy as np

from ..engine.declare import none
from ..core import dtypes
from ..engine.function import Function
from ..engine.saved import saved_const
from ..engine.forward import add_terms, linear
from ..engine.zero_grads import efficient_zeros
from ..core.convert import operand, tensor_arg
from ..runtime.errors import GradRuntimeError, broadcast_error
from ..runtime.limits import check_broadcast, check_reduction
from ..numerics import mkl
from ..numerics.floats.torch_exp import sigmoid as torch_sigmoid
from ..numerics.floats import torch_act
from ..numerics.floats import erf as erf_fns
from ..core.tensor import Tensor
from ..numerics.floats import half
from ..numerics.floats.tensor_iter import laid_out
from .registry import Arg, internal, Parser, register, tensor_f
from .dims import norm_dims
from .tensor_args import tensors_only, with_method_positions
from .fused_grads import sigmoid_grad, tanh_grad

np.seterr(all="ignore")  # PyTorch's edge values (inf, nan) are results, not errors

X = (Arg((2, 3)),)
UNARY_CHECKS: list = [((Arg(()),), {}), ((Arg((3,)),), {}), ((Arg((2, 3)),), {})]
from .elementwise import _args2, _cast, _shapes, _wrapped
from .combine import MaskedFill


# ---------------------------------------------------------------- comparisons


def _compare(npfn):
    def fn(a, b):
        a, b = _args2(a, b)
        if type(a) is int or type(b) is int:  # compared in the integer dtype, as PyTorch
            dt = dtypes.result_type(a, b)
            if dt.kind in "iu":
                a, b = _wrapped(a, dt), _wrapped(b, dt)
        ad = a.data if type(a) is Tensor else a
        bd = b.data if type(b) is Tensor else b
        return Tensor(np.asarray(npfn(ad, bd)))

    return fn


for _name, _np, _sym in (
    ("lt", np.less, "<"),
    ("le", np.less_equal, "<="),
    ("gt", np.greater, ">"),
    ("ge", np.greater_equal, ">="),
    ("eq", np.equal, "=="),
    ("ne", np.not_equal, "!="),
):
    register(
        _name,
        f"{_name}(input, other)",
        f"input {_sym} other, element-wise (bool tensor)",
        parser=Parser(overloaded=True),
        method=True,
        category="compare",
        checks=none("not differentiable (a bool result)"),
        batch="elementwise",
        inplace=None,
        operators=(_sym,),
        pure=False,
    )(internal(_name)(_compare(_np)))
del _name, _np, _sym


for _name, _np, _doc in (
    ("isnan", np.isnan, "nan"),
    ("isinf", np.isinf, "+inf or -inf"),
    ("isfinite", np.isfinite, "neither inf nor nan"),
):
    register(
        _name,
        f"{_name}(input)",
        f"whether each element is {_doc} (bool tensor)",
        method=True,
        category="compare",
        checks=none("not differentiable (a bool result)"),
        batch="elementwise",
        inplace=None,
        pure=False,
        parser=None,
    )((lambda f: lambda input: Tensor(np.asarray(f(tensor_arg(input).data))))(_np))
del _name, _np, _doc


def _truth_reduction(np_fn):
    def fn(input, dim=None, keepdim=False):
        x = tensor_arg(input).data
        check_reduction(x.shape, dim, 1)
        return Tensor(np.asarray(np_fn(x, axis=norm_dims(dim, x.ndim), keepdims=keepdim)))

    return fn


for _name, _np, _doc in (("any", np.any, "any element"), ("all", np.all, "every element")):
    register(
        _name,
        f"{_name}(input, dim=None, keepdim=False)",
        f"whether {_doc} is true (non-zero), as a bool tensor",
        method=True,
        category="compare",
        checks=none("not differentiable (a bool result)"),
        batch="reduction_one_dim",
        inplace=None,
        pure=False,
        parser=None,
    )(_truth_reduction(_np))
del _name, _np, _doc


@register(
    "allclose",
    "allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)",
    "whether |input - other| <= atol + rtol * |other| everywhere (a bool)",
    method=True,
    category="compare",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not differentiable (a bool)"),
    parser=Parser(("other",)),
)
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = tensor_arg(input).data, tensor_arg(other).data
    return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


@register(
    "equal",
    "equal(input, other)",
    "whether both have the same shape and values (a bool)",
    method=True,
    category="compare",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not differentiable (a bool)"),
    parser=Parser(("other",)),
)
def equal(input, other):
    a, b = tensor_arg(input).data, tensor_arg(other).data
    return a.shape == b.shape and bool(np.array_equal(a, b))


# ---------------------------------------------------------------- unary math


class Unary(Function):
    """An element-wise function of one tensor; subclasses set `np_fn` and `vjp`."""

    __slots__ = ()
    saves = ""  # "x" (input), "out" (output), "" (nothing)

    def forward(self, x):
        x = dtypes.floating(x)
        out = self.np_fn(x)
        if not x.flags.c_contiguous and out.flags.c_contiguous:  # (VML, SLEEF: C order)
            out = laid_out(out, (x,))
        if self.saves == "x":
            self.save(x)
        elif self.saves == "out":
            self.save(out)
        return out


def unary(
    name,
    grad_fn,
    np_fn,
    vjp,
    doc,
    saves="x",
    domain=(-2.0, 2.0),
    keep_int=False,
    aliases=(),
    batch="elementwise",
    saved_names=None,
    saved_extra=None,
    inplace=True,
    pure=False,
    formula=None,
    zeros_through=True,
):
    """Declare and register an element-wise function: its forward, VJP (its JVP the same
    formula), grad_fn name, saved values (`saved_names`: PyTorch's names, by default
    "self" for a saved input and "result" for a saved output), batching kind, in-place
    method (`inplace`: True for name_, or None), sample arguments and `formula` (its value
    as a SymPy expression of one element, rule(sympy, v), for explain) together."""
    if name in mkl.VML:  # PyTorch's vector math (MKL's VML), when MKL is installed
        np_fn = mkl.unary_fn(name, np_fn)
    cls = type(
        grad_fn,
        (Unary,),
        {
            "__slots__": (),
            "name": grad_fn,
            "np_fn": staticmethod(np_fn),
            "saves": saves,
            "saved_names": {"x": ("self",), "out": ("result",)}.get(saves, ())
            if saved_names is None
            else saved_names,
            "saved_extra": saved_extra,
            "zeros_through": zeros_through,
            "backward": (lambda self, g, F, s: (vjp(g, F, s),))
            if saves
            else (lambda self, g, F: (vjp(g, F, None),)),
            # element-wise: the JVP is the VJP's formula with the tangent for the gradient
            "jvp": (lambda self, ts, F, s: vjp(ts[0], F, s))
            if saves
            else (lambda self, ts, F: vjp(ts[0], F, None)),
            "formula": none(
                "no formula rule yet: shown as a named function with its local Jacobian"
            )
            if formula is None
            else (lambda self, S, x: S.map(lambda v: formula(S.sp, v), x)),
        },
    )
    if keep_int:
        cls.forward = lambda self, x: np_fn(x) if x.dtype.kind != "f" else Unary.forward(self, x)

    lo, hi = domain
    checks = [((Arg((), lo, hi),), {}), ((Arg((3,), lo, hi),), {}), ((Arg((2, 3), lo, hi),), {})]

    @register(
        name,
        f"{name}(input)",
        doc,
        method=True,
        checks=checks,
        category="math",
        aliases=aliases,
        batch=batch,
        inplace=name + "_" if inplace is True else inplace,
        pure=pure,
        parser=None,
    )
    @tensor_f(name)
    def fn(x):
        return cls.apply(tensor_arg(x))

    fn.__name__ = name
    return fn


# the constants of derivatives.yaml (its ln 10 literal is a double 1 ulp below math.log(10))
LN2, LN10 = 0.6931471805599453, 2.3025850929940456

exp = unary(
    "exp",
    "ExpBackward0",
    np.exp,
    lambda g, F, out: g * out,
    "e ** input",
    "out",
    pure=True,
    formula=lambda sp, v: sp.exp(v),
)
log = unary(
    "log",
    "LogBackward0",
    np.log,
    lambda g, F, x: g / x,
    "natural logarithm",
    domain=(0.5, 3.0),
    pure=True,
    formula=lambda sp, v: sp.log(v),
)
unary(
    "log2",
    "Log2Backward0",
    np.log2,
    lambda g, F, x: g / (x * LN2),
    "base-2 logarithm",
    domain=(0.5, 3.0),
    formula=lambda sp, v: sp.log(v, 2),
)
unary(
    "log10",
    "Log10Backward0",
    np.log10,
    lambda g, F, x: g / (x * LN10),
    "base-10 logarithm",
    domain=(0.5, 3.0),
    formula=lambda sp, v: sp.log(v, 10),
)
# torch's M_PI / 180 and 180 / M_PI (doubles), rounded to the tensor's dtype by its kernel
DEG2RAD, RAD2DEG = 0.017453292519943295, 57.29577951308232
unary(
    "deg2rad",
    "Deg2RadBackward0",
    lambda x: x * x.dtype.type(DEG2RAD),
    lambda g, F, _: g * DEG2RAD,
    "degrees to radians (times pi / 180)",
    saves=None,
    domain=(-200.0, 200.0),
    formula=lambda sp, v: v * sp.pi / 180,
)
unary(
    "rad2deg",
    "Rad2DegBackward0",
    lambda x: x * x.dtype.type(RAD2DEG),
    lambda g, F, _: g * RAD2DEG,
    "radians to degrees (times 180 / pi)",
    saves=None,
    formula=lambda sp, v: v * 180 / sp.pi,
)
sqrt = unary(
    "sqrt",
    "SqrtBackward0",
    np.sqrt,
    lambda g, F, out: g / (2 * out),
    "square root",
    "out",
    domain=(0.5, 3.0),
    pure=True,
    formula=lambda sp, v: sp.sqrt(v),
)
sin = unary(
    "sin",
    "SinBackward0",
    np.sin,
    lambda g, F, x: g * F.cos(x),
    "sine",
    pure=True,
    formula=lambda sp, v: sp.sin(v),
)
cos = unary(
    "cos",
    "CosBackward0",
    np.cos,
    lambda g, F, x: g * -F.sin(x),
    "cosine",
    pure=True,
    formula=lambda sp, v: sp.cos(v),
)
unary(
    "tan",
    "TanBackward0",
    np.tan,
    lambda g, F, out: g * (1 + out * out),
    "tangent",
    "out",
    domain=(-1.2, 1.2),
    inplace=None,
    formula=lambda sp, v: sp.tan(v),
)
tanh = unary(
    "tanh",
    "TanhBackward0",
    np.tanh,
    tanh_grad,
    "hyperbolic tangent",
    "out",
    pure=True,
    formula=lambda sp, v: sp.tanh(v),
    zeros_through=False,  # (tanh_backward & co: kernels)
)


def _sigmoid(x):
    if x.dtype.char in "fd":
        return torch_sigmoid(x)  # PyTorch's kernel, to the last bit
    return 1 / (1 + np.exp(-x))


unary(
    "sigmoid",
    "SigmoidBackward0",
    _sigmoid,
    sigmoid_grad,
    "logistic sigmoid 1 / (1 + exp(-input))",
    "out",
    pure=True,
    formula=lambda sp, v: 1 / (1 + sp.exp(-v)),
    zeros_through=False,  # (tanh_backward & co: kernels)
)


class ThresholdBackward(Function):
    """relu's backward as one op, for create_graph: g where x > 0, slope * g elsewhere.
    Its derivative in x is 0, yet, as in PyTorch, its result requires grad when x does."""

    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )

    __slots__ = ("slope",)
    name = "ThresholdBackwardBackward0"
    saved_names = ("self",)
    saved_extra = {"threshold": lambda node: 0}  # (relu: threshold 0)

    def forward(self, g, x, slope=0.0):
        self.slope = slope
        self.save(x)
        return _masked(np, g, x, slope)

    def backward(self, gg, F, x):
        return (_masked(F, gg, x, self.slope), gg * 0.0)

    def jvp(self, ts, F, x):
        tg, tx = ts
        return add_terms(
            type(self).apply(tg, x, slope=self.slope) if tg is not None else None,
            tx * 0.0 if tx is not None else None,
        )


def _masked(F, g, x, slope):
    """leaky_relu_backward: g where x > 0, slope * g elsewhere; for relu (slope 0)
    threshold_backward: 0 where x <= 0 (+0, not g * 0), g elsewhere, NaN included."""
    return F.where(x > 0, g, g * slope) if slope else F.where(x <= 0, 0.0, g)


def masked_grad(F, g, x, slope=0.0, op=ThresholdBackward):
    """g where x > 0, slope * g elsewhere (a recorded op under create_graph)."""
    if F.tensor_mode:
        return op.apply(g, x, slope=slope)
    return _masked(np, g, x, slope)


# max(0, x), not max(x, 0): NumPy's maximum gives its second operand when the two are
# equal, so relu(-0.0) is -0.0 as in PyTorch (x unless x < 0)
relu = unary(
    "relu",
    "ReluBackward0",
    lambda x: np.maximum(0, x),
    lambda g, F, out: masked_grad(F, g, out),
    "max(input, 0)",
    "out",
    keep_int=True,
    pure=True,
    formula=lambda sp, v: sp.Piecewise((v, v > 0), (0, True)),
    zeros_through=False,  # (tanh_backward & co: kernels)
)


class Sgn(Function):
    """x.sgn() of a real tensor, as abs's derivative records it under create_graph
    (derivatives.yaml: grad * self.sgn()); its own derivative is sgn_backward, which
    for a real tensor is efficient zeros (engine/zero_grads.py): they add nothing to
    the gradients they meet, so a -0. elsewhere stays -0. as in PyTorch."""

    __slots__ = ()
    name = "SgnBackward0"
    saved_names = ("self", "result")
    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )

    def forward(self, x):
        self.save(x)
        return torch_act.sign(x)

    def backward(self, g, F, x):
        z = efficient_zeros(np.shape(x), np.asarray(g.data if F.tensor_mode else g).dtype)
        return (Tensor(z) if F.tensor_mode else z,)

    def jvp(self, ts, F, x):
        return None  # sgn_backward(self_p, self_t, result): zeros for a real tensor


def _abs_grad(g, F, x):
    """grad * self.sgn(): the sgn a recorded op (SgnBackward0) under create_graph."""
    return g * (Sgn.apply(x) if F.tensor_mode else F.sign(x))


unary(
    "abs",
    "AbsBackward0",
    np.abs,
    _abs_grad,
    "absolute value",
    keep_int=True,
    pure=True,
    formula=lambda sp, v: sp.Abs(v),
)
unary(
    "square",
    "PowBackward0",
    np.square,
    lambda g, F, x: g * (2.0 * x**1) if F.tensor_mode else g * (2.0 * x),
    "input ** 2",
    keep_int=True,
    saved_extra={"exponent": saved_const(2)},  # PyTorch's square is pow(x, 2)
    pure="method",
    formula=lambda sp, v: v**2,
)


def _zero_grad(g, F, x):
    """derivatives.yaml's zeros_like(grad): +0 whatever the sign of g (g * 0 keeps it)."""
    if type(g) is Tensor:
        return Tensor(np.zeros(g.data.shape, g.data.dtype))
    return np.zeros(np.shape(g), np.asarray(g).dtype)


sign = unary(
    "sign",
    "SignBackward0",
    torch_act.sign,
    _zero_grad,
    "-1, 0 or 1 by sign",
    keep_int=True,
    saved_names=(),
)
floor = unary(
    "floor", "FloorBackward0", np.floor, _zero_grad, "round down", keep_int=True, saved_names=()
)
unary("ceil", "CeilBackward0", np.ceil, _zero_grad, "round up", keep_int=True, saved_names=())


def _trunc(x):
    if x.dtype == np.bool_:
        raise GradRuntimeError(
            "\"trunc_vml_cpu\" not implemented for 'Bool'", type_name="NotImplementedError"
        )
    return np.trunc(x)


unary(
    "trunc",
    "TruncBackward0",
    _trunc,
    _zero_grad,
    "round toward zero",
    "",
    saved_names=(),
    keep_int=True,
    aliases=("fix",),
    batch=None,  # sample by sample (torch.vmap batches it: not yet here)
)
unary(
    "round",
    "RoundBackward0",
    np.round,
    _zero_grad,
    "round half to even",
    keep_int=True,
    saved_names=(),
)
unary(
    "log1p",
    "Log1PBackward0",
    torch_act.log1p,
    lambda g, F, x: g / (1 + x),
    "log(1 + input), accurately",
    domain=(-0.5, 2.0),
    formula=lambda sp, v: sp.log(1 + v),
)
unary(
    "expm1",
    "Expm1Backward0",
    torch_act.expm1,
    lambda g, F, out: g * (out + 1),
    "exp(input) - 1, accurately",
    "out",
    formula=lambda sp, v: sp.exp(v) - 1,
)
unary(
    "rsqrt",
    "RsqrtBackward0",
    lambda x: 1 / np.sqrt(x),
    lambda g, F, out: (-0.5 * g) * (out**3 if F.tensor_mode else out * out * out),
    "1 / sqrt(input)",
    "out",
    domain=(0.5, 3.0),
    formula=lambda sp, v: 1 / sp.sqrt(v),
)
unary(
    "reciprocal",
    "ReciprocalBackward0",
    lambda x: 1 / x,
    lambda g, F, out: -g * (out * out),
    "1 / input",
    "out",
    domain=(0.5, 2.0),
    formula=lambda sp, v: 1 / v,
)
unary(
    "atan",
    "AtanBackward0",
    np.arctan,
    lambda g, F, x: g / (x * x + 1),
    "arc tangent",
    aliases=("arctan",),
    inplace=None,
    formula=lambda sp, v: sp.atan(v),
)
# derivatives.yaml: grad * (-x * x + 1).rsqrt() (and its negative for acos)
unary(
    "asin",
    "AsinBackward0",
    np.arcsin,
    lambda g, F, x: g * F.rsqrt(-x * x + 1),
    "arc sine",
    domain=(-0.9, 0.9),
    aliases=("arcsin",),
    inplace=None,
    formula=lambda sp, v: sp.asin(v),
)
unary(
    "acos",
    "AcosBackward0",
    np.arccos,
    lambda g, F, x: g * -F.rsqrt(-x * x + 1),
    "arc cosine",
    domain=(-0.9, 0.9),
    aliases=("arccos",),
    inplace=None,
    formula=lambda sp, v: sp.acos(v),
)
unary(
    "sinh",
    "SinhBackward0",
    torch_act.sinh,
    lambda g, F, x: g * F.cosh(x),
    "hyperbolic sine",
    inplace=None,
    formula=lambda sp, v: sp.sinh(v),
)
unary(
    "cosh",
    "CoshBackward0",
    torch_act.cosh,
    lambda g, F, x: g * F.sinh(x),
    "hyperbolic cosine",
    inplace=None,
    formula=lambda sp, v: sp.cosh(v),
)


# the error function family: derivatives.yaml's constants, 2.0 / sqrt(M_PI) and
# 0.5 * sqrt(M_PI), and its self.pow(2), which PyTorch computes as self * self
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_HALF_SQRT_PI = 0.5 * math.sqrt(math.pi)


unary(
    "erf",
    "ErfBackward0",
    erf_fns.erf,
    lambda g, F, x: _TWO_OVER_SQRT_PI * F.exp(-(x * x)) * g,
    "error function",
    formula=lambda sp, v: sp.erf(v),
)
unary(
    "erfc",
    "ErfcBackward0",
    erf_fns.erfc,
    lambda g, F, x: -_TWO_OVER_SQRT_PI * F.exp(-(x * x)) * g,
    "complementary error function 1 - erf(input)",
    formula=lambda sp, v: sp.erfc(v),
)
unary(
    "erfinv",
    "ErfinvBackward0",
    erf_fns.erfinv,
    lambda g, F, x: _HALF_SQRT_PI * F.exp(F.erfinv(x) * F.erfinv(x)) * g,
    "inverse error function",
    domain=(-0.9, 0.9),
    formula=lambda sp, v: sp.erfinv(v),
)


# ---------------------------------------------------------------- two-tensor selections


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
        out = np.clip(x, lo, hi) if lo is not None or hi is not None else x.copy()
        if out.dtype.kind == "f" and (lo == 0 or hi == 0):
            # PyTorch keeps x where it is not beyond a bound (clamp(-0.0, min=0) is -0.0,
            # clamp(-1.0, min=-0.0) is -0.0); np.clip gives the bound on a tie
            keep = np.ones(x.shape, bool) if lo is None else ~(x < lo)
            if hi is not None:
                keep &= ~(x > hi)
            out = np.where(keep, x, out).astype(out.dtype, copy=False)
        return out

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
    pure=False,
    parser=None,
)
def clamp(x, min=None, max=None):
    x = tensor_arg(x)
    if min is None and max is None:
        raise GradRuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if x.data.dtype is half.F16:  # PyTorch's Scalar::to<Half>: its overflow error
        for v in (min, max):
            if isinstance(v, (int, float)):
                half.scalar(v)
    return Clamp.apply(x, lo=_num(min), hi=_num(max))


def _num(v):
    if isinstance(v, Tensor):
        return v.item()
    return v


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
    pure=False,
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
    pure=False,
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
    pure=False,
)
def where(condition, input, other):
    cond = tensor_arg(condition).data
    if cond.dtype != np.bool_:
        raise GradRuntimeError(
            "where expected condition to be a boolean tensor, but got a "
            f"tensor with dtype {dtypes.scalar_type_name(cond.dtype)}"
        )
    a, b = operand(input), operand(other)
    check_broadcast(cond.shape, *(x.data.shape for x in (a, b) if type(x) is Tensor))
    return Where.apply(a, b, cond=cond, dt=dtypes.result_type(a, b))


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
    pure=False,
    parser=None,
)
def where_method(x, condition, other):
    return where(condition, x, other)
