"""The bitwise operators `&`, `|`, `<<`, `>>` and `~` (and `&=` ...): Python's meaning
on ints, bools, sets and dicts, PyTorch's on tensors (ops/bitwise.py).  `^` stays
power (SPEC: `^` and `**` are both power), so exclusive or is torch.bitwise_xor or
logical_xor."""

from __future__ import annotations

import math
import operator

from ..runtime import context
from ..runtime.errors import GradError, GradTypeError
from ..core.convert import type_name
from ..core.tensor import Tensor
from ..ops.bitwise import invert
from ..ops.registry import operator_function
from ..library.values import program_object, python_protocol
from ..library.stdlib import DictView
from ..runtime.limits import check_items
from .datamodel import NO

OPS = frozenset({"&", "|", "<<", ">>"})
_SETS = (set, frozenset)
_PY = {"&": operator.and_, "|": operator.or_, "<<": operator.lshift, ">>": operator.rshift}


def _pyname(v):
    return "NoneType" if v is None else "Tensor" if type(v) is Tensor else type_name(v)


def _shift(op, a, b):
    if b < 0:
        raise GradError("negative shift count", type_name="ValueError")
    if op == ">>":
        return a >> b
    if a and abs(a).bit_length() + b > context.current.limits.max_int_bits:
        return math.inf if a > 0 else -math.inf  # as `*` and `**` overflow (docs/limits.md)
    return a << b


_INPLACE = {"&": operator.iand, "|": operator.ior}


def _python(op, a, b, augmented=False):
    ta, tb = type(a), type(b)
    if ta in (int, bool) and tb in (int, bool):
        if op == "&":
            return a & b
        if op == "|":
            return a | b
        return _shift(op, int(a), int(b))
    if (
        op in ("&", "|")
        and ta in _SETS
        and tb in _SETS
        or (op == "|" and isinstance(a, dict) and isinstance(b, dict))
    ):
        # `s |= t` changes s in place, as in Python (a name bound to it sees the change)
        return (_INPLACE if augmented else _PY)[op](a, b)
    if op in ("&", "|") and (ta is DictView or tb is DictView):
        r = view_set_op(_PY[op], a, b)
        if r is not NO:
            return r
    sign = op + "=" if augmented else op
    raise GradTypeError(
        f"unsupported operand type(s) for {sign}: '{_pyname(a)}' and '{_pyname(b)}'"
    )


def view_set_op(op, a, b):
    """`d.keys() - other`, `other & d.items()` ...: Python's set operators of a dict's keys
    and items views, with any iterable on the other side, giving a set; NO otherwise."""
    sides = []
    for v in (a, b):
        if type(v) is DictView:
            if not v.setlike:
                return NO
            sides.append(set(v._view()))
        elif isinstance(v, (set, frozenset, list, tuple, dict, range, str)):
            try:
                sides.append(set(v))
            except TypeError:
                return NO
        else:
            return NO
    check_items(len(sides[0]) + len(sides[1]), "the result", "elements")
    return op(*sides)


def binary_op(op, augmented=False):
    """`a op b` for one of OPS (runtime.binary_op hands these here; `augmented`: for
    `a op= b`)."""
    tensor_fn = operator_function(op)  # (the op that declares the operator)

    def run(a, b):
        if type(a) is Tensor and type(b) is Tensor:  # (`mask1 & mask2`: the op's answer)
            return tensor_fn(a, b)
        if program_object(a) or program_object(b):  # its __and__, __ror__ ...
            return python_protocol(_PY[op], a, b)
        if type(a) is Tensor or type(b) is Tensor:
            other = b if type(a) is Tensor else a
            if not isinstance(other, (Tensor, int, float)) or other is None:
                raise GradTypeError(
                    f"unsupported operand type(s) for {op}: '{_pyname(a)}' and '{_pyname(b)}'"
                )
            return tensor_fn(a, b)
        return _python(op, a, b, augmented)

    return run


def invert_value(v):
    """`~v`: Python's on ints and bools (~True is -2), PyTorch's on tensors."""
    if type(v) is Tensor:
        return invert(v)
    if isinstance(v, int):
        return ~v
    raise GradTypeError(f"bad operand type for unary ~: '{_pyname(v)}'")
