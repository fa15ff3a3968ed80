"""Turning language values (numbers, nested lists, tuples, Tensors) into Tensors."""

from __future__ import annotations

import math

import numpy as np

from . import dtypes
from ..runtime.errors import GradRuntimeError, GradTypeError, GradValueError, OperandTypeError
from .tensor import Tensor, type_name  # noqa: F401  (type_name: used from here too)
from ..runtime import context
from ..runtime.errors import LimitError
from ..runtime.limits import check_alloc


def _infer_dtype(value):
    """PyTorch's dtype inference for `tensor(data)` (infer_scalar_type): each element's
    type, promoted: a bool is bool, an int int64, a float and an empty list the default
    float, a NumPy scalar and a tensor their own dtypes (torch.tensor(np.float64(2.5)) is
    float64, and so is torch.tensor([np.float64(1), 2.]) under float32)."""
    if isinstance(value, np.generic) and value.dtype.kind in "biuf":
        return value.dtype
    kind = -1
    own = None  # the promoted dtypes of NumPy scalars and tensors
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            if not v:  # an empty list counts as the default float ([[], [1]] is float)
                kind = 2
                continue
            ts = set(map(type, v))
            if ts <= _PLAIN.keys():  # a row of plain numbers: decided at C speed
                for t in ts:
                    kind = max(kind, _PLAIN[t])
                continue
            stack.extend(v)
        elif isinstance(v, Tensor):
            dt = v.data.dtype
            own = dt if own is None else dtypes.promote(own, dt)
        elif isinstance(v, bool):
            kind = max(kind, 0)
        elif isinstance(v, int):
            kind = max(kind, 1)
        elif isinstance(v, float) and not isinstance(v, np.generic):
            kind = 2
        elif isinstance(v, np.generic) and v.dtype.kind in "biuf":
            own = v.dtype if own is None else dtypes.promote(own, v.dtype)
        elif isinstance(v, str):
            raise GradTypeError("new(): invalid data type 'str'")
        else:
            raise GradRuntimeError(f"Could not infer dtype of {type_name(v)}")
    if kind < 0:
        return context.current.default_float if own is None else own
    dt = (dtypes.bool_, dtypes.int64, context.current.default_float)[kind]
    return dt if own is None else dtypes.promote(dt, own)


_PLAIN = {bool: 0, int: 1, float: 2}


def _unwrap(value):
    if isinstance(value, Tensor):
        return value.data
    if isinstance(value, (list, tuple)):
        if set(map(type, value)) <= _PLAIN.keys():
            return value
        return [_unwrap(v) for v in value]
    return value


def _check_nested(value):
    """Refuse a nested list whose tensor would be over the memory cap, before walking
    it: `y = [[1] * 10**7] * 10**7` is small in Python (shared rows) but not as a tensor."""
    shape, v = [], value
    while isinstance(v, (list, tuple)):
        shape.append(len(v))
        if len(shape) > 64:
            raise LimitError("list nested too deeply for a tensor (at most 64 dimensions)")
        if not v:
            break
        v = v[0]
    if isinstance(v, Tensor):
        shape.extend(v.data.shape)
    if isinstance(v, str):  # (a string is a sequence to PyTorch: of strings)
        raise GradValueError("too many dimensions 'str'")
    check_alloc(shape)
    # the items of a rectangular list (rows included) are at most depth * elements
    budget, seen, stack = (len(shape) + 1) * math.prod(shape) + 16, 0, [value]
    while stack:
        v = stack.pop()
        seen += len(v)
        if seen > budget:
            raise GradValueError("expected a rectangular nested list (all rows the same length)")
        stack.extend(x for x in v if isinstance(x, (list, tuple)))


def _first_sizes(value):
    """The shape PyTorch infers for a nested list: the lengths of its first items, down to
    the first number or the first empty list."""
    sizes, v = [], value
    while isinstance(v, (list, tuple)):
        sizes.append(len(v))
        if not v:
            break
        v = v[0]
    return sizes


def _ragged(value, dtype):
    """PyTorch's error for the first item (depth first, as its recursive_store walks the
    list against the sizes of the first items) that does not fit: a row of another length,
    a number where a row should be, a row where a number should be; None when that is not
    what is wrong."""
    sizes = _first_sizes(value)
    n = len(sizes)
    stack = [(value, 0)]
    while stack:
        v, d = stack.pop()
        if d == n:
            if isinstance(v, (list, tuple)):
                name = type(v).__name__
                if np.dtype(dtype).kind == "f":
                    return GradTypeError(f"must be real number, not {name}")
                return GradTypeError(f"'{name}' object cannot be interpreted as an integer")
            continue
        if not isinstance(v, (list, tuple)):
            return GradTypeError("not a sequence")
        if len(v) != sizes[d]:
            return GradValueError(
                f"expected sequence of length {sizes[d]} at dim {d} (got {len(v)})"
            )
        stack.extend((item, d + 1) for item in reversed(v))
    return None


def to_array(value, dtype=None) -> np.ndarray:
    if isinstance(value, Tensor):
        a = value.data
        return a if dtype is None or a.dtype == dtype else a.astype(dtype)
    if isinstance(value, np.ndarray):
        return value if dtype is None else value.astype(dtype)
    if isinstance(value, (list, tuple)):
        _check_nested(value)
    if dtype is None:
        dtype = _infer_dtype(value)
    try:
        arr = np.array(_unwrap(value), dtype=dtype)
    except OverflowError:
        raise GradRuntimeError("Overflow when unpacking long") from None  # PyTorch's words
    except (ValueError, TypeError) as e:
        msg = str(e)
        if "inhomogeneous" in msg or "sequence" in msg:
            sizes = _first_sizes(value)
            if 0 in sizes:  # PyTorch stores no item of an empty tensor, so checks none
                return np.zeros(sizes, dtype)
            raise _ragged(value, dtype) or GradValueError(
                "expected a rectangular nested list (all rows the same length)"
            ) from None
        raise GradValueError(f"could not make a tensor: {msg}")
    if arr.dtype == object:
        raise GradValueError("could not make a tensor from this value")
    return arr


def to_tensor(value, dtype=None) -> Tensor:
    if isinstance(value, Tensor) and (dtype is None or value.data.dtype == dtype):
        return value
    return Tensor(to_array(value, dtype))


def operand(value):
    """An argument of an element-wise op: Tensors and Python numbers pass, lists become tensors."""
    if isinstance(value, (Tensor, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return to_tensor(value)
    if isinstance(value, (np.integer, np.floating)):
        return value.item()  # a number, as PyTorch's argument parser reads a NumPy scalar
    if isinstance(value, np.bool_):
        return float(value)  # (which PyTorch's parser reads as a float)
    if isinstance(value, (np.ndarray, np.generic)):
        return Tensor(np.asarray(value))
    err = OperandTypeError(f"expected a tensor or a number, got {type_name(value)}")
    err.value = value
    raise err


def tensor_only(value) -> Tensor:
    """An operand PyTorch's argument parser takes only as a Tensor (not a number or a
    list): its TypeError in the words of the op called (language/arity.py)."""
    if isinstance(value, Tensor):
        return value
    err = OperandTypeError(f"expected a tensor, got {type_name(value)}")
    err.value = value
    raise err


def tensor_arg(value) -> Tensor:
    """An argument that must be a tensor (a number or list is made into one)."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (int, float, list, tuple, np.ndarray, np.generic)):
        return to_tensor(value)
    raise GradTypeError(f"expected a tensor, got {type_name(value)}")
