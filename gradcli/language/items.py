"""Subscription and deletion on the language's containers: `d[k] = v`, `lst[i] = v`,
`lst[a:b] = items`, `del d[k]`, `del obj.attr`, and `d[k] op= v`."""
from __future__ import annotations

import numpy as np

from ..base import context
from ..base.errors import GradRuntimeError, GradTypeError
from ..base.limits import check_items
from ..core.convert import type_name
from ..core.tensor import Tensor
from ..ops.shape import _norm_key as norm_key  # the one reading of an index key
from ..ops.shape import index
from .classes import is_dunder, is_user_class
from .iteration import iter_values, py_index


def get_item(o, k):
    if type(o) is Tensor:
        return index(o, k)
    return py_index(o, k)


def _list_key(o, k):
    if type(k) is Tensor and k.data.size == 1 and k.data.dtype.kind in "iu":
        k = k.item()
    if isinstance(k, bool) or not isinstance(k, (int, slice)):
        raise GradTypeError(f"list indices must be integers or slices, not {type_name(k)}")
    return k


def set_item(o, k, v):
    """o[k] = v."""
    if isinstance(o, dict):
        try:
            o[k] = v
        except TypeError:
            raise GradTypeError(f"unhashable type: '{type_name(k)}'") from None
        return
    if isinstance(o, list):
        k = _list_key(o, k)
        if isinstance(k, slice):
            v = iter_values(v)
            check_items(len(o) + len(v), "the list")
        try:
            o[k] = v
        except IndexError:
            raise GradRuntimeError("list assignment index out of range",
                                   type_name="IndexError") from None
        except ValueError as e:
            raise GradRuntimeError(str(e), type_name="ValueError") from None
        return
    if type(o) is Tensor:
        set_tensor_item(o, k, v)
        return
    if is_user_class(type(o)) and hasattr(type(o), "__setitem__"):
        o[k] = v
        return
    raise GradTypeError(f"'{type_name(o)}' object does not support item assignment")


def set_tensor_item(t, key, v):
    """`t[key] = v` on a tensor outside any graph (or under no_grad), as PyTorch; the
    tensor takes a new array with the values changed, so graphs built before keep the
    values they saw (gradcli has no version counters: see the README)."""
    grad_on = context.current.grad_enabled
    if grad_on and t.requires_grad and t.grad_fn is None:
        raise GradRuntimeError("a view of a leaf Variable that requires grad is being used in an "
                               "in-place operation.")
    if grad_on and t.grad_fn is not None:
        raise GradRuntimeError(
            "assigning to elements of a tensor that has a grad_fn (x[i] = ... recorded as "
            "CopySlices) is not supported yet",
            hint="build a new tensor, e.g. with where(...), masked_fill(...) or cat(...)")
    k, _, advanced = norm_key(key, t.data.shape)
    value = v.data if type(v) is Tensor else np.asarray(v)
    new = t.data.copy()
    try:
        new[k] = value
    except ValueError:
        target = list(np.empty(t.data.shape, dtype=bool)[k].shape)
        raise _shape_mismatch(list(value.shape), target, advanced) from None
    t.data = new


def _shape_mismatch(value, target, advanced):
    """PyTorch's words: an advanced index's, or expand's for a basic index."""
    if advanced or len(value) > len(target):
        return GradRuntimeError(f"shape mismatch: value tensor of shape {value} cannot be "
                                f"broadcast to indexing result of shape {target}")
    for i in range(1, len(value) + 1):
        if value[-i] != 1 and value[-i] != target[-i]:
            d = len(target) - i
            return GradRuntimeError(
                f"The expanded size of the tensor ({target[d]}) must match the existing size "
                f"({value[-i]}) at non-singleton dimension {d}.  Target sizes: {target}.  "
                f"Tensor sizes: {value}")
    return GradRuntimeError(f"shape mismatch: value tensor of shape {value} cannot be "
                            f"broadcast to indexing result of shape {target}")


def del_item(o, k):
    """del o[k]."""
    if isinstance(o, dict):
        try:
            del o[k]
        except TypeError:
            raise GradTypeError(f"unhashable type: '{type_name(k)}'") from None
        return
    if isinstance(o, list):
        k = _list_key(o, k)
        try:
            del o[k]
        except IndexError:
            raise GradRuntimeError("list assignment index out of range",
                                   type_name="IndexError") from None
        return
    raise GradTypeError(f"'{type_name(o)}' object does not support item deletion")


def del_attr(o, name):
    """del obj.name: an attribute of an instance of a user class."""
    d = getattr(o, "__dict__", None)
    if is_dunder(name) or not is_user_class(type(o)) or d is None:
        raise GradTypeError(f"cannot delete attribute '{name}' of a {type_name(o)}")
    if name not in d:
        raise GradRuntimeError(f"'{type(o).__name__}' object has no attribute '{name}'",
                               type_name="AttributeError")
    del d[name]
