"""Comparisons (lt le gt ge eq ne, isnan isinf isfinite, any all, allclose, equal): bool
results, not differentiable."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.declare import none
from ..engine.function import Function, Untracked
from ..core import dtypes
from ..core.convert import tensor_arg
from ..runtime.limits import check_reduction
from ..core.tensor import Tensor
from ..runtime.errors import GradTypeError
from .registry import internal, Operator, Parser, register
from .dims import norm_dims
from .elementwise import _args2, _wrapped


class _Compare(Untracked):
    """a op b element-wise: a bool tensor."""

    __slots__ = ()
    np_fn: Any = None

    def forward(self, a, b):
        return np.asarray(self.np_fn(a, b))


def _compare(cls):
    def fn(a, b):
        a, b = _args2(a, b)
        if type(a) is int or type(b) is int:  # compared in the integer dtype, as PyTorch
            dt = dtypes.result_type(a, b)
            if dt.kind in "iu":
                a, b = _wrapped(a, dt), _wrapped(b, dt)
        return cls.apply(a, b)

    return fn


class _CompareInPlace(Function):
    """x.gt_(other) ...: the comparison written into x, in x's dtype (1 or 0); its
    gradients are zeros (PyTorch's GtBackward0 for a number, GtBackward1 for a tensor)."""

    __slots__ = ("shapes",)
    np_fn: Any = None
    saved_names = none("PyTorch's node saves only the shapes and dtypes of its operands")
    formula = none("no gradient: its value is 0 or 1 and its gradients are zeros")

    def forward(self, a, b=None, *, number=None):
        self.shapes = (
            ((a.shape, a.dtype),) if b is None else ((a.shape, a.dtype), (b.shape, b.dtype))
        )
        return np.asarray(self.np_fn(a, number if b is None else b)).astype(a.dtype)

    def backward(self, g, F):  # zeros_like(self), zeros_like(other)
        zeros = [np.zeros(s, d) if need else None for need, (s, d) in zip(self.needs, self.shapes)]
        return tuple(Tensor(z) if F.tensor_mode and z is not None else z for z in zeros)

    def jvp(self, ts, F, *_):  # self_t.zero_()
        return Tensor(np.zeros(*self.shapes[0]))


def _compare_in_place(by_number, by_tensor):
    """The function of x.gt_(other) ... (library/inplace.py writes its result into x)."""

    def fn(a, b):
        a, b = _args2(a, b)
        if type(a) is not Tensor:
            raise GradTypeError(f"expected a tensor, got {type(a).__name__}")
        if type(b) is Tensor:
            return by_tensor.apply(a, b)
        if type(b) is int and a.data.dtype.kind in "iu":
            b = _wrapped(b, a.data.dtype)
        return by_number.apply(a, number=b)

    return fn


for _name, _np, _sym, _aliases in (
    ("lt", np.less, "<", ("less",)),
    ("le", np.less_equal, "<=", ("less_equal",)),
    ("gt", np.greater, ">", ("greater",)),
    ("ge", np.greater_equal, ">=", ("greater_equal",)),
    ("eq", np.equal, "==", ()),
    ("ne", np.not_equal, "!=", ("not_equal",)),
):
    _cls = type(
        _name.capitalize(),
        (_Compare,),
        {"__slots__": (), "name": _name, "np_fn": staticmethod(_np), "__module__": __name__},
    )
    _in_place = _compare_in_place(
        *(
            type(
                f"{_name.capitalize()}InPlace{k}",
                (_CompareInPlace,),
                {
                    "__slots__": (),
                    "name": f"{_name.capitalize()}Backward{k}",
                    "np_fn": staticmethod(_np),
                    "__module__": __name__,
                },
            )
            for k in (0, 1)
        )
    )
    _fn = _compare(_cls)
    _fn.inplace_call = _in_place
    register(
        _name,
        f"{_name}(input, other)",
        f"input {_sym} other, element-wise (bool tensor)",
        parser=Parser(overloaded=True),
        method=True,
        category="compare",
        checks=none("not differentiable (a bool result)"),
        batch="elementwise",
        inplace=f"{_name}_",
        operators=(Operator(_sym, in_place=False),),
        pure=True,
        aliases=_aliases,
    )(internal(_name)(_fn))
del _name, _np, _sym, _cls, _aliases, _fn, _in_place


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
