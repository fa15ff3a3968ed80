"""Render NumPy arrays exactly the way PyTorch's ``repr(tensor)`` does.

gradcli promises that every tensor it prints looks character-for-character
like PyTorch 2.13's ``repr`` of a CPU tensor with the same values and dtype,
with the default print options (precision 4, threshold 1000, edgeitems 3,
linewidth 80, automatic scientific mode) unless told otherwise.  This module
is a from-scratch re-implementation of those observable rules on top of
NumPy; ``tests/golden/printing.json`` (recorded from real torch by
``scripts/gen_golden.py printing``) pins the behaviour down.

The rules, in the order they are applied:

1. *Prefix and indent.*  The text starts with ``tensor(``; its length (7) is
   the indent of everything nested inside it.  Each deeper bracket level
   indents one more column.
2. *Empty tensors* print ``[]``; their shape is given as ``size=(...)``
   unless they are 1-d, and their dtype is given whenever it differs from
   the default float dtype (so even an empty int64 tensor says
   ``dtype=torch.int64``).
3. *Summarisation.*  When there are more than 1000 elements, every axis
   longer than 2*3 keeps only its first 3 and last 3 entries, with ``...``
   standing in for the rest.  The number formatting (width, int/sci mode) is
   decided from the kept entries only.
4. *Number formatting* (one format for the whole tensor):

   - integers and bools print as Python's ``str`` (``True``/``False``);
   - floats look only at the non-zero finite values.  If there are none, or
     all of them are integral, the tensor is in *int mode* (``1.``, ``-3.``).
     *Scientific mode* (``1.2346e+08``) is used when the largest magnitude is
     more than 1000 times the smallest, or above 1e8, or the smallest is below
     1e-4; otherwise fixed point with ``precision`` decimals.  Scientific
     mode wins over int mode.  ``nan``/``inf``/``-inf`` print as such (no
     trailing dot even in int mode).
   - every cell is right-aligned to the widest *non-zero finite* cell (at
     least 1).  Zeros and non-finite cells do not take part, so they can be
     wider than the rest (``tensor([1., nan])``).

5. *Line wrapping* of the innermost rows: a row holds
   ``max(1, (linewidth - indent) // (width + 2))`` cells per line, where
   ``width`` is the cell width above; continuation lines are indented to
   just after the row's ``[``.  The ``...`` of a summarised row counts as a
   cell there (it is written `` ...``).
6. *Nesting.*  Sub-tensors are separated by ``,`` then ``d - 1`` newlines
   (``d`` = dimensions of the tensor being joined, so 3-d+ tensors get blank
   lines between blocks) and the indent of the next level.
7. *Suffixes*, in this order: ``size=`` (empty only), ``dtype=`` (when the
   dtype is neither the default float dtype nor int64 nor bool), then
   ``grad_fn=<Name>`` or, failing that, ``requires_grad=True``.  Each suffix
   goes after ``, `` on the same line unless that would pass ``linewidth``,
   in which case it starts a new line indented by 7.  (torch measures the
   current line as two characters longer than it is; we copy that.)
"""

from __future__ import annotations

import enum as _enum
import functools
import math
import types

import numpy as np
from ..runtime import context
from ..runtime.errors import LimitError, python_type_name
from .tensor import DUNDERS, Tensor
from ..runtime.limits import check_items
from ..runtime.device import Device
from ..runtime.settings import DEFAULTS
from .parameter import is_parameter, is_uninitialized

from .tangents import TANGENTS, shown_tangent

__all__ = ["tensor_repr", "torch_dtype_name"]

# torch's defaults (set_printoptions changes them: context.current.printopts).
_THRESHOLD = 1000  # more elements than this => summarise
_EDGEITEMS = 3  # entries kept at each end of a summarised axis
DEFAULT_PRINTOPTS = (_THRESHOLD, _EDGEITEMS, None)  # threshold, edgeitems, sci_mode

_PREFIX = "tensor("

# NumPy dtype -> name torch prints in ``dtype=...``.
_TORCH_DTYPE_NAMES = {
    np.dtype(np.bool_): "torch.bool",
    np.dtype(np.uint8): "torch.uint8",
    np.dtype(np.uint16): "torch.uint16",
    np.dtype(np.uint32): "torch.uint32",
    np.dtype(np.uint64): "torch.uint64",
    np.dtype(np.int8): "torch.int8",
    np.dtype(np.int16): "torch.int16",
    np.dtype(np.int32): "torch.int32",
    np.dtype(np.int64): "torch.int64",
    np.dtype(np.float16): "torch.float16",
    np.dtype(np.float32): "torch.float32",
    np.dtype(np.float64): "torch.float64",
}

# dtypes that never get a ``dtype=`` suffix on a non-empty tensor, besides
# the default float dtype: torch treats int64 and bool as "default" too.
_ALWAYS_IMPLICIT = (np.dtype(np.int64), np.dtype(np.bool_))


def torch_dtype_name(dtype) -> str:
    """``'torch.float32'`` etc. for a NumPy dtype torch can represent."""
    try:
        return _TORCH_DTYPE_NAMES[np.dtype(dtype)]
    except KeyError:
        raise TypeError(f"no torch equivalent for dtype {np.dtype(dtype)}") from None


def tensor_repr(
    array: np.ndarray,
    *,
    grad_fn: str | None = None,
    requires_grad: bool = False,
    default_dtype=np.dtype("float64"),
    precision: int = DEFAULTS.precision,
    linewidth: int = DEFAULTS.linewidth,
    tangent: str | None = None,
    printopts=None,
) -> str:
    """Return what ``repr(torch.tensor(array))`` prints in PyTorch 2.13.

    ``grad_fn`` is the backward node's class name (``"MulBackward0"``); it
    takes precedence over ``requires_grad``, as in torch, where a non-leaf
    never says ``requires_grad=True``.  ``default_dtype`` is the dtype set by
    ``torch.set_default_dtype`` (float64 for gradcli, float32 in
    ``--dtype float32`` mode); ``precision`` and ``linewidth`` are the
    ``torch.set_printoptions`` values of the same name, ``printopts`` its
    (threshold, edgeitems, sci_mode) (None: torch's defaults).
    """
    arr = np.asarray(array)
    dtype = arr.dtype
    dtype_name = torch_dtype_name(dtype)
    default_dtype = np.dtype(default_dtype)
    indent = len(_PREFIX)
    suffixes = []

    if arr.size == 0:
        # Rule 2: shape unless 1-d; dtype unless exactly the default float
        # dtype (there are no values to tell an int tensor apart).
        if arr.ndim != 1:
            suffixes.append("size=" + str(tuple(int(n) for n in arr.shape)))
        if dtype != default_dtype:
            suffixes.append("dtype=" + dtype_name)
        body = "[]"
    else:
        if dtype != default_dtype and dtype not in _ALWAYS_IMPLICIT:
            suffixes.append("dtype=" + dtype_name)
        body = _body(arr, indent, precision, linewidth, printopts or DEFAULT_PRINTOPTS)

    # Rule 7: a grad_fn hides requires_grad.
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    if tangent is not None:  # a dual tensor of torch.autograd.forward_ad
        suffixes.append("tangent=" + tangent)

    return _add_suffixes(_PREFIX + body, suffixes, indent, linewidth)


# ---------------------------------------------------------------------------
# body of a non-empty tensor


def _body(arr: np.ndarray, indent: int, precision: int, linewidth: int, opts) -> str:
    # Rule 3: which entries of each axis are shown.  ``gaps[k]`` is True when
    # axis k is cut, in which case ``...`` goes after its first `edge` entries.
    # Whether an axis is cut depends only on its length, so the shown entries
    # form a sub-grid that one fancy index extracts.
    threshold, edge, sci = opts
    if arr.size > threshold:
        keep, gaps = [], []
        for n in arr.shape:
            if n > 2 * edge:
                keep.append(np.r_[0:edge, n - edge : n])
                gaps.append(True)
            else:
                keep.append(np.arange(n))
                gaps.append(False)
        _check_shown(math.prod(len(k) for k in keep))
        shown = arr[np.ix_(*keep)]
    else:
        _check_shown(arr.size)  # set_printoptions(threshold=...) may show every value
        shown = arr
        gaps = [False] * arr.ndim

    cells, width = _format_cells(shown, precision, sci)

    if arr.ndim == 0:
        return cells[0]
    text, _ = _layout(cells, 0, shown.shape, gaps, indent, width, linewidth, edge)
    return text


_MAX_SHOWN = 2_000_000  # values; summarising keeps up to 6 per axis, so 6**9 for 9-d


def _check_shown(n):
    """A summarised tensor with many short axes (ones(2, 2, ..., 2), 25 axes) still shows
    every value, as PyTorch does: refuse text of that size instead of making it."""
    if n > _MAX_SHOWN:
        raise LimitError(
            f"printing this tensor would show {n} values (more than {_MAX_SHOWN})",
            hint="print a slice, a reduction or .shape instead",
        )


def _format_cells(shown: np.ndarray, precision: int, sci=None) -> tuple[list[str], int]:
    """Rule 4: format every shown element; return the padded cells (in C
    order) and the common cell width."""
    flat = shown.ravel()
    values = flat.tolist()  # Python ints/bools/floats, exact for every dtype

    if flat.dtype.kind in "biu":
        # Integers and bools: plain str(), width over all of them.
        strs = [str(v) for v in values]
        width = max(1, max(map(len, strs)))
        return [s.rjust(width) for s in strs], width

    if flat.dtype.kind != "f":
        raise TypeError(f"cannot print dtype {flat.dtype}")

    counted = np.isfinite(flat) & (flat != 0)  # non-zero finite values
    nonzero_finite = flat[counted]
    if nonzero_finite.size == 0:
        # Nothing to measure: int mode, no sci, width 1.
        int_mode, sci_mode = True, False
    else:
        # Integral test in the tensor's own dtype; magnitudes in float64.
        int_mode = bool(np.all(nonzero_finite == np.ceil(nonzero_finite)))
        magnitudes = np.abs(nonzero_finite).astype(np.float64)
        largest = float(magnitudes.max())
        smallest = float(magnitudes.min())
        sci_mode = largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
        if sci is not None:  # set_printoptions(sci_mode=...)
            sci_mode = sci

    if sci_mode:
        spec = f".{precision}e"
        strs = [format(v, spec) for v in values]
    elif int_mode:
        # Integral floats print without decimals but with a trailing dot to
        # show they are floats; nan/inf keep their plain spelling.
        strs = [format(v, ".0f") for v in values]
        strs = [s if s[-1] in "fn" else s + "." for s in strs]  # inf / nan
    else:
        spec = f".{precision}f"
        strs = [format(v, spec) for v in values]

    width = 1
    for s, c in zip(strs, counted.tolist()):
        if c and len(s) > width:
            width = len(s)
    return [s.rjust(width) for s in strs], width


def _layout(cells, start, shape, gaps, indent, width, linewidth, edge=_EDGEITEMS):
    """Rules 5 and 6: bracket the cells ``cells[start:]`` of a sub-tensor of
    the given (shown) shape, whose ``[`` is at column ``indent``.  Returns
    the text and the index of the first cell not consumed."""
    ndim = len(shape)
    n = shape[0]
    cut = gaps[0]

    if ndim == 1:
        row = cells[start : start + n]
        if cut:
            row = row[:edge] + [" ..."] + row[edge:]
        per_line = max(1, (linewidth - indent) // (width + 2))
        lines = [", ".join(row[i : i + per_line]) for i in range(0, len(row), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]", start + n

    parts = []
    for i in range(n):
        if cut and i == edge:
            parts.append("...")
        text, start = _layout(cells, start, shape[1:], gaps[1:], indent + 1, width, linewidth, edge)
        parts.append(text)
    sep = "," + "\n" * (ndim - 1) + " " * (indent + 1)
    return "[" + sep.join(parts) + "]", start


def _add_suffixes(text: str, suffixes: list[str], indent: int, linewidth: int) -> str:
    """Rule 7: append ``, suffix`` items and the closing parenthesis."""
    out = [text]
    # torch's measure of the current line: its length plus 2.
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > linewidth:
            out.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            out.append(", " + suffix)
            last_line_len += len(suffix) + 2
    out.append(")")
    return "".join(out)


# --------------------------------------------------------------------------
# Values of the language, as Python (and PyTorch) would show them
# --------------------------------------------------------------------------


def _tangent_text(tan):
    """PyTorch formats the tangent into the dual's repr (f"tangent={tangent}"), and a 0-d
    tensor's __format__ is its number's: `tangent=3.0`, not `tangent=tensor(3.)`."""
    if tan.data.ndim == 0:
        return str(tan.data.item())
    return show(tan)


def show(value) -> str:
    """The `repr` of a language value: what the REPL and `eval` display."""
    if type(value) is Tensor:
        fn = value.grad_fn
        tan = shown_tangent(value) if TANGENTS else None
        if is_parameter(value):
            if is_uninitialized(value):
                return "<UninitializedParameter>"
            return "Parameter containing:\n" + tensor_repr(
                value.data,
                requires_grad=value.requires_grad,
                default_dtype=context.current.default_float,
                precision=context.current.precision,
                linewidth=context.current.linewidth,
                printopts=context.current.printopts,
            )
        return tensor_repr(
            value.data,
            grad_fn=fn.name if fn is not None else None,
            requires_grad=value.requires_grad,
            default_dtype=context.current.default_float,
            precision=context.current.precision,
            linewidth=context.current.linewidth,
            printopts=context.current.printopts,
            tangent=None if tan is None else _tangent_text(tan),
        )
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, tuple) and type(value).__repr__ is not tuple.__repr__:
        return repr(value)  # torch.Size(...)
    if isinstance(value, tuple):
        kind = getattr(value, "kind", None)
        if kind is not None:  # torch.return_types.max(values=..., indices=...)
            a, b = getattr(value, "fields", ("values", "indices"))
            return f"torch.return_types.{kind}(\n{a}={show(value[0])},\n{b}={show(value[1])})"
        if len(value) == 1:
            return f"({show(value[0])},)"
        return "(" + _joined(value) + ")"
    if isinstance(value, list):
        if id(value) in _showing:
            return "[...]"  # a list holding itself, as Python prints it
        _showing.add(id(value))
        try:
            return "[" + _joined(value) + "]"
        finally:
            _showing.discard(id(value))
    if isinstance(value, (bool, int, str)) or value is None:
        return repr(value)
    if CLASS_NAMES and id(value) in CLASS_NAMES:  # int, list, torch.Tensor ...
        return f"<class '{CLASS_NAMES[id(value)][1]}'>"
    if isinstance(value, _enum.EnumMeta):
        return repr(value)  # a program's enum class: <enum 'Phase'>
    if isinstance(value, type) and value.__dict__.get("__module__") == "__main__":
        return f"<class '__main__.{value.__qualname__}'>"  # a class of the program
    if (
        isinstance(value, type)
        and issubclass(value, BaseException)
        and value.__dict__.get("__module__") == "builtins"
    ):
        return f"<class '{value.__qualname__}'>"  # ValueError, RuntimeError ...
    if (
        isinstance(value, type)
        and issubclass(value, BaseException)
        and value.__dict__.get("__module__")
        in ("re", "json.decoder", "statistics", "torch._C", "dataclasses")
    ):  # (re.error, json.JSONDecodeError, statistics.StatisticsError, torch.linalg.LinAlgError)
        return f"<class '{value.__module__}.{value.__qualname__}'>"
    if isinstance(value, _PY_CALLABLES):
        return f"<built-in function {callable_name(value)}>"
    if isinstance(value, dict):
        return (
            "{" + ", ".join(f"{show(k)}: {show(v)}" for k, v in value.items()) + "}"
            if type(value) is dict
            else repr(value)
        )
    if isinstance(value, BaseException) and type(value).__repr__ is BaseException.__repr__:
        name = python_type_name(value).rpartition(".")[2]  # (its class's own name)
        if name == "KeyError":  # its message is the key's repr already, as Python's
            return f"KeyError({value})"
        text = str(value)
        return f"{name}({text!r})" if text else f"{name}()"  # (StopIteration())
    return repr(value)


_showing: set = set()  # ids of the lists being shown (a list that holds itself)
CLASS_NAMES: dict = {}  # id(value) -> (value, name): built-ins that print as Python's classes
_PY_CALLABLES = (
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    functools.partial,
    type,
    np.ufunc,
)


def callable_name(fn) -> str:
    """The language's name of a built-in (set by the library's namespace), never Python's
    qualified name or address."""
    name = getattr(fn, "_gradcli_name", None)
    if name is None:
        name = getattr(fn, "__name__", "function").rstrip("_")
        if not name.isidentifier():
            name = "function"
    return name


_PLAIN_NUMBERS = {int, float, bool, type(None)}


def _joined(items) -> str:
    """The items' reprs joined by ", ", refusing a text over the size limit: a list of
    many references to one long string is small, its text is not."""
    if set(map(type, items)) <= _PLAIN_NUMBERS:  # numbers only: at C speed
        check_items(
            sum(map(len, map(repr, items))) + 2 * len(items), "the text of this value", "characters"
        )
        return ", ".join(map(repr, items))
    parts, total = [], 0
    for v in items:
        text = show(v)
        total += len(text) + 2
        check_items(total, "the text of this value", "characters")
        parts.append(text)
    return ", ".join(parts)


def show_str(value) -> str:
    """What `print` writes for a value: like Python's `str`."""
    if isinstance(value, str):
        return value
    if type(value) is Device or isinstance(value, (np.ndarray, np.generic, np.dtype)):
        return str(value)  # print(torch.device("cpu")) writes cpu; NumPy's str
    if (
        isinstance(value, BaseException)
        or hasattr(type(value), "__gradcli_user__")
        or getattr(type(value), "language_str", False)
    ):
        return str(value)  # an exception; an object of a class with its own __str__
    return show(value)


DUNDERS["repr"] = show  # Tensor's repr (it sits below printing)
