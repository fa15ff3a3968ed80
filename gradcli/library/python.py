"""Python's built-ins in the language: print, display, len, range, float, int, bool,
str, list, tuple, and abs/min/max/round with their Python meaning on plain numbers."""

from __future__ import annotations

import functools

import numpy as np


from ..core import dtypes
from ..core.convert import type_name
from ..runtime.errors import GradError, GradTypeError, GradValueError
from ..ops.registry import BUILTINS, FUNCTIONS, not_a_tensor_op
from .stdlib import counted
from .values import program_object, python_protocol, tensor_number, truth
from ..core.tensor import Tensor
from ..runtime import context
from ..core.printing import show_str
from ..core.printing import show
from ..runtime.limits import check_items, check_objects


def python_builtin(name, sig, doc, batch=None):
    """Decorator: register a Python built-in (not a tensor op; vmap runs it sample by
    sample unless `batch` says otherwise)."""
    return not_a_tensor_op(name, sig, doc, "a Python built-in", category="misc", batch=batch)


# ---------------------------------------------------------------- output


@python_builtin(
    "print",
    "print(*values, sep=' ', end='\\n', flush=False)",
    "print values as Python and PyTorch do",
)
def print_(*values, sep=" ", end="\n", flush=False):  # (flush: each line is written whole)
    for what, v in (("sep", sep), ("end", end)):
        if v is not None and not isinstance(v, str):
            raise GradTypeError(f"{what} must be None or a string, not {type_name(v)}")
    sep = " " if sep is None else sep
    end = "\n" if end is None else end
    parts = [show_str(v) for v in values]
    n = sum(map(len, parts)) + len(sep) * max(len(parts) - 1, 0) + len(end)
    check_items(n, "print's output", "characters")  # (print(*["a" * 10**7] * 100): 1 GB)
    context.current.out.print(sep.join(parts) + end)


@python_builtin(
    "display",
    "display(*values)",
    "show each value's repr on its own line (Jupyter's display)",
)
def display(*values):
    for v in values:
        context.current.out.print(show(v) + "\n")


# ---------------------------------------------------------------- Python basics


@python_builtin(
    "len",
    "len(x)",
    "length of a list, string or a tensor's first dim",
    batch="len",
)
def len_(x):
    if isinstance(x, Tensor):
        if x.data.ndim == 0:
            raise GradTypeError("len() of a 0-d tensor")
        return x.data.shape[0]
    if isinstance(x, (list, tuple, str, range)):
        return len(x)
    if isinstance(x, np.ndarray):  # NumPy's: the first dimension
        return python_protocol(len, x)
    n = getattr(type(x), "language_len", None)  # containers, datasets, loaders
    if n is not None:
        return n(x)
    raise GradTypeError(f"object of type '{type_name(x)}' has no len()")


@python_builtin(
    "range",
    "range(stop) or range(start, stop, step=1)",
    "integers for a for loop",
)
def range_(*args):
    if not 1 <= len(args) <= 3:
        raise GradTypeError(f"range expected 1 to 3 arguments, got {len(args)}")
    args = [
        a.item() if isinstance(a, Tensor) else int(a) if isinstance(a, np.integer) else a
        for a in args
    ]  # (a NumPy integer is an index, as Python takes it through __index__)
    for a in args:
        if isinstance(a, bool) or not isinstance(a, int):
            raise GradTypeError(f"'{type_name(a)}' object cannot be interpreted as an integer")
    return range(*args)


def _scalar(x, conv, what):
    if isinstance(x, Tensor):
        if conv is float:
            return tensor_number(x)
        if x.data.size != 1:  # (Tensor.__int__'s words, not .item()'s)
            raise GradValueError("only one element tensors can be converted to Python scalars")
        return conv(x.item())
    if isinstance(x, str):
        try:
            return conv(x)
        except ValueError as e:  # Python's own words ("invalid literal for int() ...")
            raise GradValueError(str(e)) from None
    if isinstance(x, (int, float)):
        try:
            return conv(x)
        except ValueError as e:
            raise GradValueError(str(e)) from None
        except OverflowError as e:  # int(inf)
            raise GradError(str(e), type_name="OverflowError") from None
    if program_object(x) or isinstance(x, (np.ndarray, np.generic)):  # __float__ / __int__
        return python_protocol(conv, x)
    kinds = (
        "a string, a bytes-like object or a real number"
        if what == "int"
        else "a string or a real number"
    )
    name = "NoneType" if x is None else type_name(x)
    raise GradTypeError(f"{what}() argument must be {kinds}, not '{name}'")


@python_builtin(
    "float",
    "float(x)",
    "a Python float (float('inf') and float('nan') work); as a dtype, float64",
)
def float_(x=0.0, /):
    return _scalar(x, float, "float")


@python_builtin(
    "int",
    "int(x, base=10)",
    "a Python int (truncates; of a string in the given base); as a dtype, int64",
)
def int_(x=0, /, base=None):
    if base is not None:
        if not isinstance(x, str):
            raise GradTypeError("int() can't convert non-string with explicit base")
        return python_protocol(int, x, base)
    return _scalar(x, int, "int")


@python_builtin(
    "bool",
    "bool(x)",
    "truth of a value; as a dtype, bool",
)
def bool_(x=False, /):
    return truth(x)


@python_builtin(
    "str",
    "str(object='')",
    "the text print would show",
)
def str_(object=""):
    return show_str(object)


@python_builtin(
    "list",
    "list(x)",
    "a list of the items of x",
)
def list_(x=(), /):
    if isinstance(x, Tensor):
        if not x.data.ndim:
            raise GradTypeError("iteration over a 0-d tensor")
        check_objects(len(x), "list() of this tensor", 300)
        return list(FUNCTIONS["unbind"](x))  # as Tensor.__iter__: unbind(0)
    if isinstance(x, (list, tuple, range, str)):
        check_items(len(x), "the list")
        return list(x)
    it = getattr(type(x), "language_iter", None)
    if it is not None:
        return list(it(x))
    raise GradTypeError(f"'{type_name(x)}' object is not iterable")


@python_builtin(
    "tuple",
    "tuple(x)",
    "a tuple of the items of x",
)
def tuple_(x=(), /):
    return tuple(list_(x))


@python_builtin(
    "divmod",
    "divmod(a, b)",
    "(a // b, a % b) of two numbers, as Python gives them",
)
def divmod_(a, b, /):
    if not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        raise GradTypeError(
            f"unsupported operand type(s) for divmod(): '{type_name(a)}' and '{type_name(b)}'"
        )
    try:
        return divmod(a, b)
    except (ZeroDivisionError, OverflowError) as e:
        raise GradError(str(e), type_name=type(e).__name__) from None


def _plain_builtin(name, sig, doc, py):
    """Register Python's built-in `py` as it is (its errors in Python's words)."""
    python_builtin(name, sig, doc)(lambda *args: python_protocol(py, *args))


_plain_builtin("chr", "chr(i)", "the character of the code point i", chr)
_plain_builtin("ord", "ord(c)", "the code point of the character c", ord)
_plain_builtin("hex", "hex(n)", "the int n in hexadecimal ('0xff')", hex)
_plain_builtin("oct", "oct(n)", "the int n in octal ('0o10')", oct)
_plain_builtin("bin", "bin(n)", "the int n in binary ('0b101')", bin)


# abs/min/max/round: Python meanings on plain numbers, tensor ops otherwise
def _dual(name, py, pairwise=None):
    """The built-in `name` with Python's meaning `py` too: of one number (abs, round),
    or, with `pairwise` (the element-wise op of two tensors: max's maximum), of several
    numbers or one iterable of plain values (min, max)."""
    entry = BUILTINS[name]
    tensor_fn = entry.fn

    def fn(*args, **kwargs):
        if py is abs and kwargs and not _tensors(args) and not _tensors(kwargs.values()):
            raise GradTypeError("abs() takes no keyword arguments")  # (abs(x=1): Python's)
        if pairwise is not None and not args and set(kwargs) <= {"key", "default"}:
            raise GradTypeError(f"{py.__name__} expected at least 1 argument, got 0")
        if any(program_object(a) for a in args) and not any(type(a) is Tensor for a in args):
            return python_protocol(py, *args, **kwargs)  # their __abs__, __lt__ ...
        if pairwise is not None and len(args) == 1 and type(args[0]) in (int, float, bool):
            raise GradTypeError(f"'{type(args[0]).__name__}' object is not iterable")  # max(0)
        if pairwise is not None and _python_extreme(args, kwargs):
            return _extreme(py, args, kwargs)
        if pairwise is None and args and type(args[0]) in _NOT_TENSORS:  # abs('x'): Python's
            return python_protocol(py, *args, **kwargs)
        if py is _round and kwargs:
            number = args[0] if args else kwargs.get("number")
            if isinstance(number, (int, float)):  # round(x, ndigits=2): Python's keywords
                return _python_round(args, kwargs)
        if (
            args
            and not kwargs
            and all(isinstance(a, (int, float)) for a in args)
            and (len(args) > 1 or pairwise is None)
        ):
            return py(*args)
        if (
            pairwise is not None
            and len(args) == 1
            and not kwargs
            and isinstance(args[0], (list, tuple, str, range))
            and args[0]
            and (type(args[0]) in (str, range) or not any(isinstance(a, Tensor) for a in args[0]))
        ):
            try:  # min("hello"), max([1, 5, 3]), max(["b", "a"]); steps counted
                return py(counted(args[0]))
            except TypeError as e:
                raise GradTypeError(str(e)) from None
        if pairwise is not None and len(args) == 2 and not kwargs and isinstance(args[1], Tensor):
            return FUNCTIONS[pairwise](*args)
        return tensor_fn(*args, **kwargs)

    fn.tensor_op = tensor_fn  # (torch.abs, torch.round: the op alone, library/torch_ns.py)
    if hasattr(tensor_fn, "method"):  # x.round(...): the op's own method form
        fn.method = tensor_fn.method
    if hasattr(tensor_fn, "inplace_call"):  # x.round_(...)
        fn.inplace_call = tensor_fn.inplace_call
    entry.fn = fn


def _python_round(args, kwargs):
    """round() with Python's keywords (number, ndigits), refused in Python's words."""
    for k in kwargs:
        if k not in ("number", "ndigits"):
            raise GradTypeError(f"'{k}' is an invalid keyword argument for round()")
    if args and "number" in kwargs:
        raise GradTypeError("argument for round() given by name ('number') and position (1)")
    if len(args) > 1 and "ndigits" in kwargs:
        raise GradTypeError("argument for round() given by name ('ndigits') and position (2)")
    if len(args) > 2:
        raise GradTypeError(f"round() takes at most 2 arguments ({len(args) + len(kwargs)} given)")
    return _round(*args, **kwargs)


def _python_extreme(args, kwargs):
    """Whether min/max take Python's meaning beyond plain numbers: `key=`/`default=`, an
    empty sequence, or several values none of which is a tensor (strings, tuples)."""
    if set(kwargs) - {"key", "default"} or not args:
        return False
    if len(args) == 1:
        x = args[0]
        if type(x) not in (list, tuple, str, range):
            return False
        return not x or bool(kwargs)  # (a list of tensors with key=: Python's too)
    plain = _PLAIN + (list,) if kwargs else _PLAIN  # (lists alone: tensors, element-wise)
    return all(type(a) in plain for a in args)


_PLAIN = (int, float, bool, str, tuple, type(None))
_NOT_TENSORS = (str, type(None), dict, set, frozenset)


def _tensors(items):
    return any(type(v) is Tensor for v in items)


def _extreme(py, args, kwargs):
    if len(args) == 1 and type(args[0]) is not str:
        args = (counted(args[0]),)
    return python_protocol(py, *args, **kwargs)


_dual("abs", abs)
_dual("max", max, "maximum")
_dual("min", min, "minimum")


def _round(number, ndigits=None):
    """Python's round, without computing 10**n for a huge n (`round(5, -10**9)`): an int
    rounded to more digits than it has is 0."""
    if (
        isinstance(ndigits, int)
        and not isinstance(number, bool)
        and isinstance(number, int)
        and ndigits < 0
        and -ndigits > number.bit_length()
    ):
        return 0
    return round(number, ndigits)


_dual("round", _round)


def _python_sum():
    """sum(list) is Python's sum (start + each item: sum([1, 2]) is 3); else the tensor op."""
    entry = BUILTINS["sum"]
    tensor_fn = entry.fn

    @functools.wraps(tensor_fn)  # its signature, for "did you mean" hints
    def fn(*args, **kwargs):
        if args and isinstance(args[0], (list, tuple, range)):
            for k in kwargs:
                if k != "start":
                    raise GradTypeError(f"'{k}' is an invalid keyword argument for sum()")
            if len(args) > 2:
                raise GradTypeError(f"sum() takes at most 2 arguments ({len(args)} given)")
            total = kwargs.get("start", args[1] if len(args) > 1 else 0)
            if isinstance(total, str):
                raise GradTypeError("sum() can't sum strings [use ''.join(seq) instead]")
            r = args[0]
            if type(r) is range and type(total) is int and context.current.limits.max_steps is None:
                return total + len(r) * (r[0] + r[-1]) // 2 if r else total  # (exact)
            for v in counted(r):
                if type(total) in (list, tuple) and type(v) in _PLAIN + (list,):  # sum(rows, [])
                    if type(v) is not type(total):
                        raise GradTypeError(
                            f"can only concatenate {type_name(total)} "
                            f'(not "{type_name(v)}") to {type_name(total)}'
                        )
                    check_items(len(total) + len(v), "the result", "elements")
                    total = total + v
                    continue
                if isinstance(v, (str, list, tuple)) or v is None:
                    raise GradTypeError(
                        f"unsupported operand type(s) for +: '{type_name(total)}' "
                        f"and '{type_name(v)}'"
                    )
                total = total + v
            return total
        return tensor_fn(*args, **kwargs)

    fn.method = tensor_fn  # x.sum(): x is a tensor, the tensor op itself (fill_methods)
    entry.fn = fn


_python_sum()


# Python's float, int and bool name dtypes too (torch.ones(2, dtype=float))
dtypes.PYTHON_TYPES.update(
    {id(float_): dtypes.float64, id(int_): dtypes.int64, id(bool_): dtypes.bool_}
)
