"""Subscription and deletion on the language's containers: `d[k] = v`, `lst[i] = v`,
`lst[a:b] = items`, `del d[k]`, `del obj.attr`, and `d[k] op= v`."""

from __future__ import annotations

import operator

import numpy as np

from ..library import numpy_ns
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..runtime.limits import check_items
from ..core.convert import type_name
from ..core.tensor import Tensor
from ..library.inplace import setitem
from ..ops.indexing import index
from .classes import is_dunder, is_user_class, user_key
from .iteration import iter_values, py_index


def get_item(o, k):
    if type(o) is Tensor:
        return index(o, k)
    return py_index(o, k)


def _list_key(o, k):
    if isinstance(k, np.integer):  # NumPy's integers index, through __index__
        k = int(k)
    if type(k) is Tensor and k.data.size == 1 and k.data.dtype.kind in "iu":
        k = k.item()
    if not isinstance(k, (int, slice)):  # (a bool is an int, as in Python)
        raise GradTypeError(f"list indices must be integers or slices, not {type_name(k)}")
    return k


def set_item(o, k, v):
    """o[k] = v."""
    if type(o) is np.ndarray:  # NumPy's assignment
        numpy_ns.call(operator.setitem, o, k, v)
        return
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
            raise GradRuntimeError(
                "list assignment index out of range", type_name="IndexError"
            ) from None
        except ValueError as e:
            raise GradRuntimeError(str(e), type_name="ValueError") from None
        return
    if isinstance(o, Tensor):
        setitem(o, k, v)  # in place, with version counters (library/inplace.py)
        return
    if is_user_class(type(o)) and hasattr(type(o), "__setitem__"):
        o[k] = v
        return
    hook = getattr(type(o), "language_setitem", None)  # a library container (ModuleDict)
    if hook is not None:
        hook(o, k, v)
        return
    raise GradTypeError(f"'{type_name(o)}' object does not support item assignment")


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
            raise GradRuntimeError(
                "list assignment index out of range", type_name="IndexError"
            ) from None
        return
    if is_user_class(type(o)) and hasattr(type(o), "__delitem__"):
        del o[k]
        return
    hook = getattr(type(o), "language_delitem", None)
    if hook is not None:
        hook(o, k)
        return
    raise GradTypeError(f"'{type_name(o)}' object does not support item deletion")


def del_attr(o, name):
    """del obj.name: an attribute of an instance of a user class."""
    d = getattr(o, "__dict__", None)
    hook = getattr(type(o), "language_delattr", None)
    if hook is not None and not is_dunder(name):  # a library object's own rule (nn.Module)
        return hook(o, name)
    if is_dunder(name) or not is_user_class(type(o)) or d is None:
        raise GradTypeError(f"cannot delete attribute '{name}' of a {type_name(o)}")
    key = user_key(name)
    if key not in d:
        raise GradRuntimeError(
            f"'{type(o).__name__}' object has no attribute '{name}'", type_name="AttributeError"
        )
    del d[key]
