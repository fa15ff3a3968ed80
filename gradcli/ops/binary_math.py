"""atan2, hypot and exp2, with PyTorch's grad_fn names and derivatives.yaml's formulas;
atan2 and hypot take tensors only, as in PyTorch (ops/tensor_args.py).

Values: PyTorch's to the last bit (numerics/floats/sleef_exp2.py, sleef_hypot.py, sleef_atan2.py:
SLEEF's functions on the whole blocks of two vectors, the C library's after them)."""

from __future__ import annotations

import numpy as np

from ..numerics.floats import sleef_atan2, sleef_exp2, sleef_hypot
from ..numerics.floats.tensor_iter import laid_out
from ..runtime.errors import GradRuntimeError
from ..core import dtypes
from ..core.tensor import Tensor
from ..engine.function import Function
from ..engine.forward import add_terms
from .combine import MaskedFill
from .elementwise import MulScalar, _float_dt, times_scalar  # noqa: F401 (addmm's)
from .unary import unary
from .registry import Arg, Inplace, Parser, register
from .tensor_args import tensors_only, with_method_positions

LN2 = 0.6931471805599453  # M_LN2


def _operands(node, a, b, dt):
    """The two operands in the result dtype; their shapes kept for summing gradients back.
    The node saves the operands as they came (as PyTorch saves self and other), so that
    under create_graph they are the inputs of the graph, of their own dtypes."""
    node.sa, node.sb = a.shape, b.shape
    return a.astype(dt, copy=False), b.astype(dt, copy=False)


def _in_dtype(F, x, dt):
    """A saved operand for a backward: in its result dtype (arrays), or as it is (Tensors
    of the graph: their arithmetic promotes as PyTorch's does)."""
    return x if F.tensor_mode else x.astype(dt, copy=False)


class Atan2(Function):
    __slots__ = ("sa", "sb")
    name = "Atan2Backward0"
    saved_names = ("self", "other")
    saved_order = (1, 0)  # PyTorch saves other before self

    def formula(self, S, a, b, *_):
        a, b = S.saved_const(a, self, 0, self.sa), S.saved_const(b, self, 1, self.sb)
        return S.map2(S.sp.atan2, a, b)

    def forward(self, a, b, dt):
        self.save(a, b)
        a, b = _operands(self, a, b, dt)
        return laid_out(np.asarray(sleef_atan2.atan2(a, b)), (a, b))

    def backward(self, g, F, a, b):
        # atan2_backward: recip = (a*a + b*b).reciprocal() with 0 where that is 0,
        # then grad * b * recip and grad * -a * recip
        dt = self.out_dtype
        a, b = _in_dtype(F, a, dt), _in_dtype(F, b, dt)
        den = a * a + b * b
        if F.tensor_mode:
            recip = MaskedFill.apply(F.reciprocal(den), (den == 0).data, 0)
        else:
            recip = np.where(den == 0, np.zeros((), den.dtype), 1 / den)
        n = self.needs
        return (
            F.sum_to(g * b * recip, self.sa) if n[0] else None,
            F.sum_to(g * -a * recip, self.sb) if n[1] else None,
        )

    def jvp(self, ts, F, a, b):
        # (-self_p * other_t + other_p * self_t) / (self_p.pow(2) + other_p.pow(2))
        ta, tb = ts
        num = add_terms(-a * tb if tb is not None else None, b * ta if ta is not None else None)
        return num / (a**2 + b**2)


class Hypot(Function):
    __slots__ = ("sa", "sb")
    name = "HypotBackward0"
    saved_names = ("self", "other", "result")
    saved_order = (1, 0, 2)  # PyTorch saves other, self, then the result

    def formula(self, S, a, b, *_):
        a, b = S.saved_const(a, self, 0, self.sa), S.saved_const(b, self, 1, self.sb)
        return S.map2(lambda u, v: S.sp.sqrt(u**2 + v**2), a, b)

    def forward(self, a, b, dt):
        a0, b0 = a, b
        a, b = _operands(self, a, b, dt)
        out = laid_out(np.asarray(sleef_hypot.hypot(a, b)), (a, b))
        self.save(a0, b0, out)
        return out

    def backward(self, g, F, a, b, out):
        n = self.needs  # grad * self / result, grad * other / result
        a, b = _in_dtype(F, a, self.out_dtype), _in_dtype(F, b, self.out_dtype)
        return (
            F.sum_to(g * a / out, self.sa) if n[0] else None,
            F.sum_to(g * b / out, self.sb) if n[1] else None,
        )

    def jvp(self, ts, F, a, b, out):
        ta, tb = ts
        return add_terms(
            ta * a / out if ta is not None else None, tb * b / out if tb is not None else None
        )


def _float_result(a, b):
    return _float_dt(dtypes.result_type(a, b))


@register(
    "atan2",
    "atan2(input, other)",
    "angle of the point (other, input): arc tangent of input / other in the right quadrant",
    method=True,
    aliases=("arctan2",),
    checks=[((Arg((2, 3)), Arg((3,), 0.5, 2.0)), {}), ((Arg(()), Arg((2,), -2.0, -0.5)), {})],
    category="math",
    batch=None,
    inplace=Inplace("atan2_", tensors_only=True),
    pure=False,
    parser=Parser(("other",)),
)
def atan2(input, other):
    a, b = tensors_only("atan2", input, other)
    return Atan2.apply(a, b, dt=_float_result(a, b))


def floats_only(kernel, a, b):
    """The result dtype of two tensors whose CPU kernel (`<kernel>_cpu`) takes floating
    dtypes only; PyTorch's NotImplementedError for any other."""
    dt = dtypes.result_type(a, b)
    if dt.kind != "f":
        raise GradRuntimeError(
            f"\"{kernel}_cpu\" not implemented for '{dtypes.scalar_type_name(dt)}'",
            type_name="NotImplementedError",
        )
    return dt


@register(
    "hypot",
    "hypot(input, other)",
    "sqrt(input ** 2 + other ** 2), element-wise",
    method=True,
    checks=[((Arg((2, 3)), Arg((3,), 0.5, 2.0)), {})],
    category="math",
    batch=None,
    inplace=Inplace("hypot_", tensors_only=True),
    pure=False,
    parser=Parser(("other",)),
)
def hypot(input, other):
    a, b = tensors_only("hypot", input, other)
    return Hypot.apply(a, b, dt=floats_only("hypot", a, b))


with_method_positions(atan2, "atan2")
with_method_positions(hypot, "hypot")

# derivatives.yaml: grad * result * M_LN2 (the last product with a Scalar: MulBackward1)
unary(
    "exp2",
    "Exp2Backward0",
    sleef_exp2.exp2,
    lambda g, F, out: times_scalar(F, g * out, LN2),
    "2 ** input",
    "out",
    batch=None,  # sample by sample (torch.vmap batches it: not yet here)
    formula=lambda sp, v: 2**v,
)


class _FmaxFmin(Function):
    """fmax / fmin: the other operand where one is NaN, `self` on ties (C's fmax and fmin,
    as glibc makes them); the gradient goes all to the chosen operand (derivatives.yaml)."""

    __slots__ = ("sa", "sb")
    saved_names = ("self", "other")
    saved_order = (1, 0)  # PyTorch saves other before self
    zeros_through = False  # (masked_fill materialises efficient zeros)

    def formula(self, S, a, b, *_):
        a, b = S.saved_const(a, self, 0, self.sa), S.saved_const(b, self, 1, self.sb)
        fn = S.sp.Max if self.name == "FmaxBackward0" else S.sp.Min
        return S.map2(fn, a, b)

    def _self_wins(self, a, b, strict=False):
        a, b = np.asarray(a), np.asarray(b)
        if self.name == "FmaxBackward0":
            win = a > b if strict else a >= b
        else:
            win = a < b if strict else a <= b
        return win | np.isnan(b)

    def forward(self, a, b, dt):
        self.save(a, b)
        a, b = _operands(self, a, b, dt)
        return np.asarray(np.where(self._self_wins(a, b), a, b))

    def backward(self, g, F, a, b):
        # self: grad.masked_fill(~(self >= other | other.isnan()), 0); other: the rest
        win = self._self_wins(a.data if F.tensor_mode else a, b.data if F.tensor_mode else b)
        n = self.needs
        if F.tensor_mode:
            return (
                F.sum_to(MaskedFill.apply(g, ~win, 0), self.sa) if n[0] else None,
                F.sum_to(MaskedFill.apply(g, win, 0), self.sb) if n[1] else None,
            )
        zero = np.zeros((), g.dtype)
        return (
            F.sum_to(np.where(win, g, zero), self.sa) if n[0] else None,
            F.sum_to(np.where(win, zero, g), self.sb) if n[1] else None,
        )

    def jvp(self, ts, F, a, b):
        # other_t + (self_p > other_p | other_p.isnan()) * (self_t - other_t) (fmax), with
        # self_p <= other_p for fmin: ties take other's tangent in fmax, self's in fmin
        ta, tb = ts
        dt = (ta if ta is not None else tb).data.dtype
        strict = self.name == "FmaxBackward0"
        m = Tensor(self._self_wins(a.data, b.data, strict=strict).astype(dt))
        if tb is None:
            return m * ta
        return tb + m * (-tb if ta is None else ta - tb)


class Fmax(_FmaxFmin):
    __slots__ = ()
    name = "FmaxBackward0"


class Fmin(_FmaxFmin):
    __slots__ = ()
    name = "FminBackward0"


def _fmaxmin(name, node):
    def fn(input, other):
        a, b = tensors_only(name, input, other)
        return node.apply(a, b, dt=dtypes.result_type(a, b))

    fn.__name__ = name
    return fn


for _name, _node, _doc in (
    ("fmax", Fmax, "larger, ignoring NaN"),
    ("fmin", Fmin, "smaller, ignoring NaN"),
):
    register(
        _name,
        f"{_name}(input, other)",
        f"element-wise {_doc} (NaN only where both are)",
        method=True,
        checks=[((Arg((2, 3)), Arg((3,))), {})],
        category="math",
        batch=None,
        inplace=None,
        pure=False,
        parser=Parser(("other",)),
    )(with_method_positions(_fmaxmin(_name, _node), _name))
del _name, _node, _doc
