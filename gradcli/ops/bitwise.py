"""Bitwise and logical ops on bool and integer tensors, as PyTorch's: `&`, `|`, `~`,
`<<`, `>>` (torch.bitwise_and/or/xor/not, bitwise_left/right_shift) and
torch.logical_and/or/xor/not.  None is differentiable (PyTorch defines no gradient
for them); a floating operand is PyTorch's NotImplementedError, word for word."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.declare import none
from ..engine.function import Untracked
from ..runtime.errors import GradError, GradTypeError
from ..core import dtypes
from ..core.convert import tensor_arg
from ..core.tensor import Tensor
from .elementwise import _args2
from .tensor_args import tensors_only, with_method_positions
from .registry import Parser, internal, register


def _not_implemented(kernel, dt):
    return GradError(
        f"\"{kernel}_cpu\" not implemented for '{dtypes.scalar_type_name(dt)}'",
        type_name="NotImplementedError",
    )


def _integral(a, b, kernel):
    """The operands' arrays in their result dtype (bool or integer), or PyTorch's error."""
    a, b = _args2(a, b)
    dt = dtypes.result_type(a, b)
    if dt.kind not in "biu":
        raise _not_implemented(kernel, dt)
    ad = a.data if type(a) is Tensor else a
    bd = b.data if type(b) is Tensor else b
    return np.asarray(ad).astype(dt, copy=False), np.asarray(bd).astype(dt, copy=False), dt


class _Bitwise(Untracked):
    """a op b element-wise in the result dtype dt (bool or integer): an op of the engine
    that makes no node, so a recording notes it (library/function_plans.py)."""

    __slots__ = ()
    np_fn: Any = None

    def forward(self, a, b, dt):
        a, b = np.asarray(a).astype(dt, copy=False), np.asarray(b).astype(dt, copy=False)
        return np.asarray(self.np_fn(a, b)).astype(dt, copy=False)


def _bitwise(npfn, kernel):
    cls = type(
        kernel.capitalize(),
        (_Bitwise,),
        {"__slots__": (), "name": kernel, "np_fn": staticmethod(npfn), "__module__": __name__},
    )

    def fn(input, other):
        a, b = _args2(input, other)
        dt = dtypes.result_type(a, b)
        if dt.kind not in "biu":
            raise _not_implemented(kernel, dt)
        return cls.apply(a, b, dt=dt)

    return fn


for _name, _np, _kernel, _sym, _ops in (
    ("bitwise_and", np.bitwise_and, "bitwise_and", "&", ("&",)),
    ("bitwise_or", np.bitwise_or, "bitwise_or", "|", ("|",)),
    ("bitwise_xor", np.bitwise_xor, "bitwise_xor", "xor", ()),  # (`^` is a power)
):
    register(
        _name,
        f"{_name}(input, other)",
        f"input {_sym} other, element-wise, on bool and integer tensors",
        parser=Parser(overloaded=True),
        method=True,
        category="bitwise",
        batch=None,
        inplace=_name + "_",
        operators=_ops,
        pure=False,
        checks=none("not differentiable (integer and bool tensors)"),
    )(_bitwise(_np, _kernel))
del _name, _np, _kernel, _sym, _ops


def _shift(left):
    kernel = "lshift" if left else "rshift"

    def fn(input, other):
        a, b, dt = _integral(input, other, kernel)
        if dt.kind == "b":  # bools shift as int64, as PyTorch promotes them
            a, b, dt = a.astype(np.int64), b.astype(np.int64), np.dtype(np.int64)
        bits = dt.itemsize * 8
        a, b = np.broadcast_arrays(a, b)
        inside = (b >= 0) & (b < bits)  # counts outside [0, bits): PyTorch gives 0 (or -1)
        safe = np.where(inside, b, 0).astype(dt)
        with np.errstate(all="ignore"):
            out = np.left_shift(a, safe) if left else np.right_shift(a, safe)
        if not inside.all():
            out = np.where(inside, out, 0 if left or dt.kind == "u" else np.where(a < 0, -1, 0))
        return Tensor(np.asarray(out).astype(dt, copy=False))

    return fn


register(
    "bitwise_left_shift",
    "bitwise_left_shift(input, other)",
    "input << other, element-wise, on bool and integer tensors",
    method=True,
    category="bitwise",
    batch=None,
    inplace="bitwise_left_shift_",
    operators=("<<",),
    pure=False,
    checks=none("not differentiable (integer and bool tensors)"),
    parser=Parser(overloaded=True),
)(_shift(True))
register(
    "bitwise_right_shift",
    "bitwise_right_shift(input, other)",
    "input >> other, element-wise (arithmetic for signed integers)",
    method=True,
    category="bitwise",
    batch=None,
    inplace="bitwise_right_shift_",
    operators=(">>",),
    pure=False,
    checks=none("not differentiable (integer and bool tensors)"),
    parser=Parser(overloaded=True),
)(_shift(False))


@register(
    "bitwise_not",
    "bitwise_not(input)",
    "~input: logical not of bools, bitwise not of integers",
    method=True,
    category="bitwise",
    batch=None,
    inplace="bitwise_not_",
    pure=False,
    checks=none("not differentiable (integer and bool tensors)"),
    parser=None,
)
def bitwise_not(input):
    x = tensor_arg(input).data
    if x.dtype.kind not in "biu":
        raise _not_implemented("bitwise_not", x.dtype)
    return Tensor(np.asarray(np.invert(x)))


@internal("invert")
def invert(x):
    """`~tensor` (Tensor.__invert__): PyTorch refuses floats with a TypeError."""
    if x.data.dtype.kind not in "biu":
        raise GradTypeError(
            "~ (operator.invert) is only implemented on integer and Boolean-type tensors"
        )
    return Tensor(np.asarray(np.invert(x.data)))


def _logical(npfn, name):
    def fn(input, other):
        a, b = _args2(*tensors_only(name, input, other))  # PyTorch refuses numbers
        ad = a.data if type(a) is Tensor else a
        bd = b.data if type(b) is Tensor else b
        return Tensor(np.asarray(npfn(ad, bd)))

    return fn


for _name, _np in (
    ("logical_and", np.logical_and),
    ("logical_or", np.logical_or),
    ("logical_xor", np.logical_xor),
):
    register(
        _name,
        f"{_name}(input, other)",
        f"{_name.split('_')[1]} of the truth of each element (bool tensor)",
        parser=Parser(("other",)),
        method=True,
        category="bitwise",
        batch=None,
        inplace=_name + "_",
        pure=False,
        checks=none("not differentiable (integer and bool tensors)"),
    )(with_method_positions(_logical(_np, _name), _name))
del _name, _np


@register(
    "logical_not",
    "logical_not(input)",
    "not of the truth of each element (bool tensor)",
    method=True,
    category="bitwise",
    batch=None,
    inplace="logical_not_",
    pure=False,
    checks=none("not differentiable (integer and bool tensors)"),
    parser=None,
)
def logical_not(input):
    return Tensor(np.asarray(np.logical_not(tensor_arg(input).data)))
