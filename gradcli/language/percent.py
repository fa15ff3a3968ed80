"""`text % values`: Python's printf-style string formatting (`'%d: %.3f' % (i, loss)`,
older tutorials' way), done by Python's own `%` on the values as the language shows
them: a tensor prints as `str(t)`/`repr(t)` show it and converts to a number for
`%d`/`%f` as PyTorch's `int(t)`/`float(t)` do (one element only), a NumPy value as
NumPy's own conversions do; lists, dicts and
other values print as the language prints them.  A width or precision over the
string limit is refused before the text is made, and `*` (taken from the values)
is not supported."""

from __future__ import annotations

import operator
import re

import numpy as np

from ..runtime.errors import GradError, GradValueError
from ..runtime.limits import check_format_spec, check_items
from ..core.printing import show, show_str
from ..core.tensor import Tensor
from ..runtime import context

#: the most characters a number's conversion gives without a width or precision (%f of
#: 1e308: 316)
_NUMBER = 400
# (compiled by `re` at the first `%` format, not at start-up)
_SPEC = r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d*))?[hlL]?(.)"


class _Shown:
    """A value handed to Python's `%`: str and repr as the language shows it."""

    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v

    def __str__(self):
        return show_str(self.v)

    def __repr__(self):
        return show(self.v)


#: what Tensor.__float__ says (once) of a tensor that requires grad
SCALAR_WARNING = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
    "behavior.\nConsider using tensor.detach() first."
)


class _ShownTensor(_Shown):
    """A tensor handed to Python's `%`: also a number for %d, %f ... (one element)."""

    __slots__ = ()

    def _item(self):
        if self.v.data.size != 1:
            raise GradValueError("only one element tensors can be converted to Python scalars")
        return self.v.data.reshape(()).item()

    def __float__(self):
        if self.v.requires_grad:
            context.warn(SCALAR_WARNING)
        return float(self._item())

    def __int__(self):
        return int(self._item())

    def __index__(self):
        v = self._item()
        if isinstance(v, float):
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(v)


class _ShownNumpy(_Shown):
    """A NumPy array or scalar handed to Python's `%`: also a number for %d, %f ... as
    NumPy's own float(), int() and index() convert it (one element; NumPy's errors)."""

    __slots__ = ()

    def __float__(self):
        return float(self.v)

    def __int__(self):
        return int(self.v)

    def __index__(self):
        return operator.index(self.v)


def _shown(v):
    if type(v) in (str, int, float, bool) or v is None:
        return v
    if isinstance(v, Tensor):
        return _ShownTensor(v)
    if isinstance(v, (np.ndarray, np.generic)):
        return _numpy_class(type(v))(v)
    return _Shown(v)


_NUMPY_CLASSES: dict = {}


def _numpy_class(t):
    """_ShownNumpy under NumPy's type's name (`numpy.float32`), which Python's errors
    name (`%x format: an integer is required, not numpy.float32`)."""
    cls = _NUMPY_CLASSES.get(t)
    if cls is None:
        cls = _NUMPY_CLASSES[t] = type(f"numpy.{t.__name__}", (_ShownNumpy,), {"__slots__": ()})
    return cls


def percent_format(fmt: str, values):
    """fmt % values, as Python formats it (its size bounded before it is made)."""
    size = len(fmt)
    for m in re.finditer(_SPEC, fmt, re.S):
        width, precision = m.group(1), m.group(2)
        if width == "*" or precision == "*":
            raise GradValueError("'*' in a % format is not supported: write the width in it")
        check_format_spec(f"{width or ''}.{precision or ''}")
        size += int(width or 0) + int(precision or 0)
    if type(values) is tuple:
        args = tuple(_shown(v) for v in values)
    elif type(values) is dict:
        args = {k: _shown(v) for k, v in values.items()}
    else:
        args = _shown(values)
    for v in args.values() if type(args) is dict else args if type(args) is tuple else (args,):
        size += (
            _NUMBER
            if type(v) in (int, float, bool) or v is None
            else len(v)
            if type(v) is str
            else len(str(v)) + len(repr(v))
        )
        check_items(size, "the formatted string", "characters")
    try:
        text = fmt % args
    except GradError:
        raise
    except (TypeError, ValueError, KeyError, OverflowError) as e:
        kind = type(e).__name__
        raise GradError(str(e), type_name=kind) from None
    check_items(len(text), "the formatted string", "characters")
    return text
