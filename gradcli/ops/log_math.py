"""logaddexp, with PyTorch's grad_fn name and derivatives.yaml's formulas; its operands
are tensors only, as in PyTorch (ops/tensor_args.py).

Values: PyTorch's logaddexp_kernel to the last bit: max(a, b) + log1p(exp(-|a - b|)) (a
itself where a == b is infinite), with SLEEF's exp and log1p on the whole blocks of two
vectors and the C library's after them (numerics/floats/torch_act.py)."""

from __future__ import annotations

import numpy as np

from ..core import dtypes
from ..engine.forward import add_terms
from ..engine.function import Function
from ..numerics.floats.tensor_iter import laid_out, sleef_blocks
from ..numerics.floats.torch_act import _Scalar, _Vector
from ..core.tensor import Tensor
from ..numerics.floats.fma import fma
from ..numerics.floats.libm_log import libm_logf
from ..numerics.floats.sleef_exp2 import exp2d, exp2f
from ..runtime import context
from ..runtime.errors import GradTypeError
from ..runtime.limits import check_broadcast
from .binary_math import _in_dtype, _operands, floats_only
from .registry import FUNCTIONS, Arg, Parser, register
from .tensor_args import _pytype, tensors_only, with_method_positions


def _logaddexp(lib, a, b):
    # the vector code takes maximum(a, b) (NaN if either is), the scalar code std::max
    m = np.maximum(a, b) if lib.vector else np.where(a < b, b, a)
    out = m + lib.log1p(lib.exp(-np.abs(a - b)))
    return np.where((a == b) & (np.abs(a) == np.inf), a, out)


def logaddexp_values(a, b):
    """torch.logaddexp of two float32/float64 arrays."""
    return sleef_blocks(
        lambda x, y: _logaddexp(_Vector, x, y), lambda x, y: _logaddexp(_Scalar, x, y), (a, b)
    )


class Logaddexp(Function):
    __slots__ = ("sa", "sb")
    name = "LogaddexpBackward0"
    saved_names = ("self", "other")
    saved_order = (1, 0)  # PyTorch saves other before self

    def formula(self, S, a, b, *_):
        a, b = S.saved_const(a, self, 0, self.sa), S.saved_const(b, self, 1, self.sb)
        return S.map2(lambda u, v: S.sp.log(S.sp.exp(u) + S.sp.exp(v)), a, b)

    def forward(self, a, b, dt):
        self.save(a, b)
        a, b = _operands(self, a, b, dt)
        return laid_out(np.asarray(logaddexp_values(a, b)), (a, b))

    def backward(self, g, F, a, b):
        # grad / (1 + exp(other - self)) and grad / (1 + exp(self - other))
        dt = self.out_dtype
        a, b = _in_dtype(F, a, dt), _in_dtype(F, b, dt)
        n = self.needs
        return (
            F.sum_to(g / (F.exp(b - a) + 1), self.sa) if n[0] else None,
            F.sum_to(g / (F.exp(a - b) + 1), self.sb) if n[1] else None,
        )

    def jvp(self, ts, F, a, b):
        ta, tb = ts
        return add_terms(
            ta / (F.exp(b - a) + 1) if ta is not None else None,
            tb / (F.exp(a - b) + 1) if tb is not None else None,
        )


@register(
    "logaddexp",
    "logaddexp(input, other)",
    "log(exp(input) + exp(other)), element-wise, without overflow",
    method=True,
    checks=[((Arg((2, 3)), Arg((3,), -1.0, 2.0)), {}), ((Arg(()), Arg((2,))), {})],
    category="math",
    batch=None,
    inplace=None,
    pure=False,
    parser=Parser(("other",)),
)
def logaddexp(input, other):
    a, b = tensors_only("logaddexp", input, other)
    return Logaddexp.apply(a, b, dt=floats_only("logaddexp", a, b))


with_method_positions(logaddexp, "logaddexp")


# ---------------------------------------------------------------- logaddexp2

_INV_LN2 = 1.0 / np.log(2.0)


def _logaddexp2(vector, a, b):
    """max(a, b) + log1p(exp2(-|a - b|)) / ln 2, the product and the sum one fused
    multiply-add (as the kernel is compiled); SLEEF's exp2 and log1p in the vector
    code, the C library's after it."""
    dt = a.dtype
    if vector:
        m = np.maximum(a, b)
        e = (exp2d if dt == np.float64 else exp2f)(-np.abs(a - b))
        lg = _Vector.log1p(e)
    else:
        m = np.where(a < b, b, a)
        lg = _Scalar.log1p(np.exp2(-np.abs(a - b)))
    out = np.asarray(fma(lg, dt.type(_INV_LN2), m, dt)).astype(dt, copy=False)
    return np.where((a == b) & (np.abs(a) == np.inf), a, out)


def logaddexp2_values(a, b):
    """torch.logaddexp2 of two float32/float64 arrays."""
    return sleef_blocks(
        lambda x, y: _logaddexp2(True, x, y), lambda x, y: _logaddexp2(False, x, y), (a, b)
    )


def _pow2(F, x):
    """pow(2, x) as PyTorch's backward computes it (the op on tensors, its values on arrays)."""
    if F.tensor_mode:
        return FUNCTIONS["pow"](2, x)
    return FUNCTIONS["pow"](2, Tensor(x)).data


class Logaddexp2(Function):
    __slots__ = ("sa", "sb")
    name = "Logaddexp2Backward0"
    saved_names = ("self", "other")
    saved_order = (1, 0)  # PyTorch saves other before self

    def formula(self, S, a, b, *_):
        a, b = S.saved_const(a, self, 0, self.sa), S.saved_const(b, self, 1, self.sb)
        return S.map2(lambda u, v: S.sp.log(2**u + 2**v) / S.sp.log(2), a, b)

    def forward(self, a, b, dt):
        self.save(a, b)
        a, b = _operands(self, a, b, dt)
        return laid_out(np.asarray(logaddexp2_values(a, b)), (a, b))

    def backward(self, g, F, a, b):
        # grad / (1 + pow(2, other - self)) and grad / (1 + pow(2, self - other))
        dt = self.out_dtype
        a, b = _in_dtype(F, a, dt), _in_dtype(F, b, dt)
        n = self.needs
        return (
            F.sum_to(g / (_pow2(F, b - a) + 1), self.sa) if n[0] else None,
            F.sum_to(g / (_pow2(F, a - b) + 1), self.sb) if n[1] else None,
        )

    def jvp(self, ts, F, a, b):
        ta, tb = ts
        return add_terms(
            ta / (_pow2(F, b - a) + 1) if ta is not None else None,
            tb / (_pow2(F, a - b) + 1) if tb is not None else None,
        )


@register(
    "logaddexp2",
    "logaddexp2(input, other)",
    "log2(2**input + 2**other), element-wise, without overflow",
    method=True,
    checks=[((Arg((2, 3)), Arg((3,), -1.0, 2.0)), {}), ((Arg(()), Arg((2,))), {})],
    category="math",
    batch=None,
    inplace=None,
    pure=False,
    parser=Parser(("other",)),
)
def logaddexp2(input, other):
    a, b = tensors_only("logaddexp2", input, other)
    return Logaddexp2.apply(a, b, dt=floats_only("logaddexp2", a, b))


with_method_positions(logaddexp2, "logaddexp2")


# ---------------------------------------------------------------- xlogy


def xlogy_values(x, y):
    """x * log(y), 0 where x is 0 and NaN where y is: ATen's scalar kernel, with the C
    library's log."""
    with np.errstate(all="ignore"):
        lg = libm_logf(y) if y.dtype == np.float32 else np.log(y)
        out = np.where(x == 0, x.dtype.type(0), x * lg)
        return np.where(np.isnan(y), y.dtype.type(np.nan), out).astype(x.dtype, copy=False)


class Xlogy(Function):
    """xlogy.Tensor: both operands tensors."""

    __slots__ = ("sa", "sb", "k")
    name = "XlogyBackward0"
    saved_names: tuple = ("self", "other")
    saved_order: tuple | None = (1, 0)  # PyTorch saves other before self
    form = 0  # 1: self a number (xlogy.Scalar_Self), 2: other a number (Scalar_Other)

    def _pair(self, saved):
        """(self, other): the saved tensors, and the number kept as `k`."""
        if self.form == 1:
            return self.k, saved[0]
        if self.form == 2:
            return saved[0], self.k
        return saved

    def formula(self, S, *args):
        if self.form:  # (one input: the tensor)
            args = (None, args[0]) if self.form == 1 else (args[0], None)
        a, b = args[:2]
        a = S.number(self.k) if self.form == 1 else S.saved_const(a, self, 0, self.sa)
        j = 0 if self.form else 1  # (b's place among the saved values)
        b = S.number(self.k) if self.form == 2 else S.saved_const(b, self, j, self.sb)
        return S.map2(lambda u, v: u * S.sp.log(v), S.obj(a), S.obj(b))

    def forward(self, a, b, dt, k=None):
        self.k = k
        self.save(*((b,) if self.form == 1 else (a,) if self.form == 2 else (a, b)))
        a, b = _operands(self, a, b, dt)
        return laid_out(np.asarray(xlogy_values(*np.broadcast_arrays(a, b))), (a, b))

    def backward(self, g, F, *saved):
        # self: grad * at::xlogy((self != 0), other); other: grad * self / other
        a, b = self._pair(saved)
        dt = self.out_dtype
        if self.form != 1:
            a = _in_dtype(F, a, dt)
        if self.form != 2:
            b = _in_dtype(F, b, dt)
        if self.form == 1:  # (one input, the tensor other)
            return (F.sum_to(g * a / b, self.sb),)
        if self.form == 2:  # (one input, the tensor self)
            return (F.sum_to(self._self_grad(g, F, a, b), self.sa),)
        n = self.needs
        return (
            F.sum_to(self._self_grad(g, F, a, b), self.sa) if n[0] else None,
            F.sum_to(g * a / b, self.sb) if n[1] else None,
        )

    def _self_grad(self, g, F, a, b):
        """PyTorch's gradient in self: at::xlogy(grad, other), 0 where self is 0 and other
        <= 0 (for a number other, where self is 0 unless other > 0; none when it is)."""
        av, bv = (v.data if type(v) is Tensor else v for v in (a, b))
        if self.form == 2:
            mask = None if float(self.k) > 0 else av == 0
        else:
            mask = (av == 0) & (bv <= 0)
        if F.tensor_mode:
            t = FUNCTIONS["xlogy"](g, b)
            if mask is None:
                return t
            return FUNCTIONS["masked_fill"](t, Tensor(np.asarray(mask)), 0.0)
        t = xlogy_values(*np.broadcast_arrays(g, np.asarray(b, g.dtype)))
        return t if mask is None else np.where(mask, g.dtype.type(0), t)

    def jvp(self, ts, F, *saved):
        # at::xlogy(self_t, other_p).masked_fill((self_p == 0.) & (other_p <= 0.), 0.)
        #   + other_t * self_p / other_p
        a, b = self._pair(saved)
        ta, tb = (None, ts[0]) if self.form == 1 else (ts[0], None) if self.form == 2 else ts
        t = None
        if ta is not None and self.form != 1:
            t = FUNCTIONS["xlogy"](ta, b)
            av, bv = (getattr(v, "data", v) for v in (a, b))
            t = FUNCTIONS["masked_fill"](t, Tensor(np.asarray((av == 0) & (bv <= 0))), 0.0)
        if tb is not None and self.form != 2:
            t = add_terms(t, tb * a / b)
        return t


class XlogyScalarSelf(Xlogy):
    """xlogy.Scalar_Self: self a number."""

    __slots__ = ()
    name = "XlogyBackward1"
    saved_names = ("other",)
    saved_order = None
    saved_extra = {"self": lambda node: node.k}
    form = 1

    def forward(self, b, dt, k, a):  # (the number self is a parameter, not an input)
        return Xlogy.forward(self, a, b, dt, k)


class XlogyScalarOther(Xlogy):
    """xlogy.Scalar_Other: other a number."""

    __slots__ = ()
    name = "XlogyBackward2"
    saved_names = ("self",)
    saved_order = None
    saved_extra = {"other": lambda node: node.k}
    form = 2

    def forward(self, a, dt, k, b):  # (the number other is a parameter, not an input)
        return Xlogy.forward(self, a, b, dt, k)


@register(
    "xlogy",
    "xlogy(input, other)",
    "input * log(other), 0 where input is 0 (NaN where other is NaN)",
    method=True,
    checks=[
        ((Arg((2, 3)), Arg((3,), 0.5, 2.0)), {}),
        ((Arg(()), Arg((2,), 0.5, 2.0)), {}),
        ((1.5, Arg((2, 3), 0.5, 2.0)), {}),
        ((Arg((2, 3)), 2.5), {}),
    ],
    category="math",
    batch="elementwise",
    inplace="xlogy_",
    pure=False,
    parser=Parser(overloaded=True),
)
def xlogy(input, other):
    a_t, b_t = isinstance(input, Tensor), isinstance(other, Tensor)
    if not a_t and not b_t:
        raise GradTypeError(
            f"xlogy() received an invalid combination of arguments - got ({_pytype(input)}, "
            f"{_pytype(other)}), but expected one of:"
        )
    for v in (input, other):
        if not isinstance(v, (Tensor, int, float)):
            raise GradTypeError(
                f"xlogy() received an invalid combination of arguments - got ({_pytype(input)}, "
                f"{_pytype(other)}), but expected one of:"
            )
    dt = dtypes.result_type(input, other)
    if dt.kind != "f":  # integers and bools: the default float dtype
        dt = context.current.default_float
    if a_t and b_t:
        check_broadcast(input.data.shape, other.data.shape)
        return Xlogy.apply(input, other, dt=dt)
    if not a_t:
        return XlogyScalarSelf.apply(other, dt=dt, k=input, a=np.asarray(input, dt))
    return XlogyScalarOther.apply(input, dt=dt, k=other, b=np.asarray(other, dt))
