"""Calling a value of the language: `call(fn, args, kwargs, ...)` with its errors
placed at the call (or at a keyword), and `call_failed`, what a call does with an
exception raised by the callee (the fast call sites of callsites.py share it)."""

from __future__ import annotations

import inspect
import re
import types

import numpy as np

from ..runtime.errors import GradError, GradTypeError, OperandTypeError, did_you_mean
from ..library.values import METHODS
from ..ops import batching
from ..ops.registry import BUILTINS, FUNCTIONS, METHOD_ONLY
from . import positions
from .arity import MethodName, arity_error, builtin_name, method_words, operand_error
from .classes import callable_class
from .functions import UserFunction
from .iteration import pyname
from .out_arg import call_with_out
from .positions import located
from .pykeywords import keyword_error


def call(fn, args, kwargs, name, line, col, kwpos=None):
    """fn(*args, **kwargs) with its errors placed at the call (or at a keyword)."""
    if not callable(fn) or (isinstance(fn, type) and not callable_class(fn)):
        raise GradTypeError(f"'{pyname(fn)}' object is not callable", line, col)
    try:
        return fn(*args, **kwargs)
    except Exception as e:
        return call_failed(e, fn, args, kwargs, name, line, col, kwpos)


def call_failed(e, fn, args, kwargs, name, line, col, kwpos):
    """`e`, raised by fn(*args, **kwargs), placed at the call (called inside the
    `except` that caught it); a built-in that met a batched tensor of vmap instead
    runs its batching rule and returns the result."""
    if type(fn) is not UserFunction and batching.failed_on_batched(e, fn, args, kwargs):
        return _batched_call(fn, args, kwargs, name, line, col, kwpos)  # inside vmap
    if isinstance(e, (TypeError, GradTypeError)) and type(fn) is not UserFunction:
        plain = numpy_scalars(args, kwargs)
        if plain is not None and _takes_out(fn, name):
            return call(fn, plain[0], plain[1], name, line, col, kwpos)
    if not isinstance(e, GradError):
        if isinstance(e, TypeError):
            err = keyword_error(fn, name, args, kwargs)
            if err is not None:
                raise err.at(*_kw_pos(err, kwpos, line, col)) from None
            if "out" in kwargs and "'out'" in str(e) and _takes_out(fn, name):
                try:
                    return call_with_out(fn, args, kwargs, name or pyname(fn))
                except GradError as e2:
                    raise e2.at(*_kw_pos(e2, kwpos, line, col)) from None
            renamed = numpy_spelling(e, fn, kwargs, name)
            if renamed is not None:
                return call(fn, args, renamed, name, line, col, kwpos)
            err = _call_type_error(e, fn, name, kwargs, args)
            raise err.at(*_kw_pos(err, kwpos, line, col)) from None
        raise located(e, line, col) from None
    if type(e) is OperandTypeError and e.line is None:
        err = operand_error(fn, name, args, e.value)
        if err is not None:
            raise err.at(line, col) from None
    if name and e.line is None and e.message.startswith("argument '"):
        e.message = f"{name}(): {e.message}"  # PyTorch names the function
    if type(e) is GradTypeError and e.line is None and type(name) is MethodName and not kwargs:
        e.message = method_words(e.message, name, len(args))
    raise e.at(*_kw_pos(e, kwpos, line, col))


# NumPy's names of arguments that PyTorch's argument parser takes for torch's own
# (`x.sum(axis=1, keepdims=True)`), for the functions and methods of torch's C++ core
NUMPY_NAMES = {"axis": "dim", "keepdims": "keepdim", "x": "input", "a": "input", "x1": "input"}
NUMPY_NAMES["x2"] = "other"
_NP_NUMBERS = (np.integer, np.floating)
_ops = None


def _is_op(target):
    global _ops
    if _ops is None:
        _ops = {id(e.fn) for t in (BUILTINS, METHOD_ONLY) for e in t.values()}
        _ops.update(id(f) for f in METHODS.values())
    return id(target) in _ops


def _takes_out(fn, name):
    """Whether fn is a built-in op (which takes PyTorch's out=), not a user function."""
    if type(fn) is UserFunction:
        return False
    return _is_op(getattr(fn, "fn", fn)) or getattr(fn, "name", name) in FUNCTIONS


def numpy_spelling(e, fn, kwargs, name):
    """kwargs with NumPy's spelling of an op's arguments turned into PyTorch's, when
    the call failed on one of them; None when that is not why it failed."""
    if not any(k in NUMPY_NAMES for k in kwargs) or "unexpected keyword" not in str(e):
        return None
    if type(fn) is UserFunction:
        return None
    target = getattr(fn, "fn", fn)
    n = getattr(fn, "name", name)
    if n in FUNCTIONS:  # the op registered under that name (behind `x.max`, `torch.sum` ...)
        target = FUNCTIONS[n]
    elif not _is_op(target):
        return None
    try:
        params = inspect.signature(target).parameters
    except (TypeError, ValueError):
        return None
    renamed = {}
    for k, v in kwargs.items():
        torch_name = NUMPY_NAMES.get(k)
        if torch_name and k not in params and torch_name in params and torch_name not in kwargs:
            k = torch_name
        renamed[k] = v
    return renamed if list(renamed) != list(kwargs) else None


def numpy_scalars(args, kwargs):
    """(args, kwargs) with each NumPy integer or floating scalar made the Python number
    that PyTorch's argument parser reads it as (an op that refused one takes the number);
    None when there is none."""
    if not any(isinstance(v, _NP_NUMBERS) for v in (*args, *kwargs.values())):
        return None

    def plain(v):
        return v.item() if isinstance(v, _NP_NUMBERS) else v

    return [plain(v) for v in args], {k: plain(v) for k, v in kwargs.items()}


def _batched_call(fn, args, kwargs, name, line, col, kwpos):
    """A built-in that met a batched tensor of vmap: its batching rule, or the loop."""
    try:
        return batching.dispatch(fn, args, kwargs)
    except GradError as e:
        raise e.at(*_kw_pos(e, kwpos, line, col))
    except TypeError as e:
        err = _call_type_error(e, fn, name, kwargs, args)
        raise err.at(*_kw_pos(err, kwpos, line, col)) from None
    except Exception as e:
        raise located(e, line, col) from None


def _kw_pos(err, kwpos, line, col):
    """An unexpected keyword argument is pointed at where it is written."""
    if kwpos and err.line is None and "keyword argument '" in err.message:
        k = err.message.rsplit("keyword argument '", 1)[1].split("'")[0]
        return kwpos.get(k, (line, col))
    return line, col


# (compiled by `re` at the first such error, not at start-up)
_ARITY = (
    r"(missing \d+ required positional argument.*|takes .* given\)?|"
    r"got multiple values for argument .*)"
)


_PY_METHODS = (types.MethodDescriptorType, types.BuiltinFunctionType)


def _call_type_error(e, fn, name, kwargs, args=()):
    msg = str(e)
    target = getattr(fn, "fn", fn)
    if not isinstance(name, str):  # a call of an expression: the function's own name
        name = builtin_name(fn) or getattr(fn, "name", None) or getattr(target, "__name__", "")
    try:
        params = list(inspect.signature(target).parameters)
    except (TypeError, ValueError):
        params = []
    if isinstance(target, type):  # a library class: Python names its __init__
        name = f"{target.__name__}.__init__"
    for k in kwargs:
        if f"'{k}'" in msg and "unexpected keyword" in msg:
            return GradTypeError(
                f"{name}() got an unexpected keyword argument '{k}'",
                hint=did_you_mean(k, [p for p in params if p not in ("args", "kwargs")]),
            )
    m = re.search(_ARITY, msg)
    if m and isinstance(target, _PY_METHODS):  # Python's own words name it (tuple.count())
        return GradTypeError(msg)
    if m:
        if m.group(1).startswith("missing"):
            err = arity_error(fn, name, args, kwargs)  # an op: PyTorch's words
            if err is not None:
                return err
        return GradTypeError(f"{name}() {m.group(1)}")
    return positions.translate_python_error(e)
