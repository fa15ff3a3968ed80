"""Run-time helpers of loops and assignments: iterating a value, unpacking it,
indexing a Python sequence, the --max-steps count, and the names of leaves."""

from __future__ import annotations

import operator

import numpy as np

from ..runtime.errors import GradRuntimeError, GradTypeError, GradValueError, LimitError
from ..runtime.limits import check_items, look
from ..library import numpy_ns
from ..core.convert import type_name
from ..core.tensor import Tensor
from ..library import stdlib
from ..library.stdlib import bounded_list, bounded_values, live
from ..runtime import context
from ..ops.indexing import unbind
from ..library.values import program_object
from . import datamodel
from .classes import is_user_class
from .state import state


def pyname(v):
    """A value's type name as Python's own messages give it (None is a 'NoneType')."""
    return "NoneType" if v is None else type_name(v)


def step(max_steps, line, col):
    """Count one loop iteration against --max-steps."""
    state.steps += 1
    if state.steps > max_steps:
        raise LimitError(
            f"the program ran more than --max-steps={max_steps} loop iterations", line, col
        )


def counted(it):
    """`it` with each item counted as a step (--max-steps), for built-ins that iterate
    (sum, max, all, map, functools.reduce, math.prod ...); as it is without the option."""
    max_steps = context.current.limits.max_steps
    if max_steps is None:
        return it
    return _counting(it, max_steps)


def _counting(it, max_steps):
    for v in it:
        state.steps += 1
        if state.steps > max_steps:
            raise LimitError(f"the program ran more than --max-steps={max_steps} loop iterations")
        yield v


stdlib._COUNTING[0] = counted


def sample(line, col):
    """A look at the run's total memory, every so many iterations of a loop (a loop
    that keeps what it makes is stopped at the cap); how many until the next look,
    to count down again (limits.look)."""
    try:
        return look()
    except LimitError as e:
        raise e.at(line, col)


def tick(line, col):
    """One iteration of a comprehension or a generator's loop, towards the next
    `sample` (a loop statement counts in a local variable instead)."""
    state.ticks -= 1
    if state.ticks <= 0:
        state.ticks = sample(line, col)


def iterate(v):
    """The items a `for` loop goes through."""
    if isinstance(v, range) or type(v) is list:
        return v  # (a list as it is: a loop that appends to it sees the new items, as in Python)
    if isinstance(v, (list, tuple, str)):
        return list(v)
    if type(v) is Tensor:
        if v.data.ndim == 0:
            raise GradTypeError("iteration over a 0-d tensor")
        return unbind(v)
    if type(v) in (dict, set):
        return live(v)  # (changed while a loop runs: Python's RuntimeError)
    if isinstance(v, (dict, set, frozenset)):
        return list(v)
    if type(v) is np.ndarray:  # its rows, as NumPy iterates
        if not v.ndim:
            raise GradTypeError("iteration over a 0-d array")
        return list(v)
    if getattr(type(v), "language_lazy", False):  # a generator, zip(...), map(...) ...
        return v  # taken one value at a time (the loop counts)
    it = getattr(type(v), "language_iter", None)  # library containers, DataLoader
    if it is not None:
        return it(v)
    if hasattr(type(v), "language_remaining"):  # an iterator over values already computed
        return v.language_remaining()
    if isinstance(v, tuple):
        return list(v)
    if program_object(v):  # its __iter__ (or __getitem__), as Python asks
        return datamodel.items(v)
    cls = type(v)
    if "__iter__" in dir(cls) and any(
        hasattr(cls, k)
        for k in (
            "language_subclassable",
            "language_methods",
            "language_attrs",
            "language_iterable",
        )
    ):
        return bounded_list(iter(v), "the items of this object")
    raise GradTypeError(f"'{pyname(v)}' object is not iterable")


def spread(parts, s):
    """The values of `parts`, [(starred, closure)], evaluated in `s`: a starred one's
    items spread in place (`f(a, *b)`, `[a, *b]`)."""
    out = []
    for star, e in parts:
        if star:
            out.extend(iter_values(e(s)))
        else:
            out.append(e(s))
    return out


def iter_values(v):
    """The items of a value unpacked into names (`a, b = v`)."""
    if isinstance(v, (tuple, list)):
        return list(v)
    if not isinstance(v, (range, Tensor, str)):
        try:
            items = iterate(v)
            if getattr(type(items), "language_lazy", False):
                return bounded_values(items, "the values unpacked")
            return list(items)
        except GradTypeError:
            raise GradTypeError(f"cannot unpack non-iterable {pyname(v)} object") from None
    if isinstance(v, (range, str)):  # a string's characters, as in Python
        check_items(len(v), f"unpacking this {type_name(v)}")
        return list(v)
    return list(iterate(v))


def py_index(v, key):
    """v[key] for a list, tuple, string, range or dict."""
    if isinstance(v, (list, tuple, str, range)):
        if isinstance(key, np.integer):  # NumPy's integers index, through __index__
            key = int(key)
        if not isinstance(key, (int, slice)):  # (a bool is an int, as in Python)
            if type(key) is Tensor and key.data.size == 1 and key.data.dtype.kind in "iu":
                key = key.item()
            elif isinstance(v, str):
                raise GradTypeError(f"string indices must be integers, not '{type_name(key)}'")
            else:
                raise GradTypeError(
                    f"{type_name(v)} indices must be integers or slices, not {type_name(key)}"
                )
        try:
            r = v[key]
        except IndexError as e:
            raise GradRuntimeError(str(e), type_name="IndexError") from None
        except ValueError as e:  # (a slice step of 0)
            raise GradValueError(str(e)) from None
        return r
    if isinstance(v, dict):
        try:
            return v[key]
        except TypeError:
            raise GradTypeError(f"unhashable type: '{type_name(key)}'") from None
    if type(v) is np.ndarray:  # NumPy's indexing (a tensor index: its values)
        return numpy_ns.call(operator.getitem, v, key)
    getitem = getattr(type(v), "language_getitem", None)  # Sequential, datasets
    if getitem is not None:
        return getitem(v, key)
    if hasattr(type(v), "__getitem__") and (
        is_user_class(type(v))
        or getattr(type(v), "language_subclassable", False)
        or hasattr(type(v), "language_methods")
    ):
        return v[key]
    raise GradTypeError(f"'{pyname(v)}' object is not subscriptable")


def leaf_names(scope, leaves):
    """id(tensor) -> the first variable name bound to it (locals, then globals)."""
    wanted = {id(t) for t in leaves}
    names = {}
    scopes = [scope.vars] + ([scope.globals.vars] if scope.globals is not None else [])
    for vars in scopes:
        for name, v in vars.items():
            if type(v) is Tensor and id(v) in wanted and id(v) not in names:
                names[id(v)] = name
    return names
