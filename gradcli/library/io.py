"""`load(path)` and `save(t, path)`: tensors to and from NumPy `.npy` and CSV files.

These two built-ins are the only way a program reaches a file, and each touches
exactly the path it is given (no temporary files, no added suffix, no `~`
expansion).  Loaded data becomes a leaf tensor of the default floating dtype
(float64 unless `--dtype float32`) unless `dtype=` says otherwise.
"""
from __future__ import annotations

import os
import warnings

import numpy as np

from ..core import dtypes
from ..core.convert import tensor_arg, type_name
from ..base.errors import GradError, GradTypeError, GradValueError
from ..base.limits import check_alloc
from ..ops.registry import register
from ..core.tensor import Tensor
from ..base import context
from .methods import requires_grad_

_KINDS = {".npy": "npy", ".csv": "csv"}


class GradIOError(GradError):
    type_name = "OSError"


def _kind(path, fname):
    if not isinstance(path, str):
        raise GradTypeError(f"{fname}(): the path must be a string, not {type_name(path)}")
    if not path:
        raise GradValueError(f"{fname}(): empty path")
    ext = os.path.splitext(path)[1].lower()
    kind = _KINDS.get(ext)
    if kind is None:
        raise GradValueError(
            f"{fname}(): unknown file type {ext or '(none)'!r} for {path!r}",
            hint="use a name ending in .npy (NumPy) or .csv (comma-separated numbers)")
    return kind


def _os_error(fname, path, e: OSError):
    return GradIOError(f"{fname}(): cannot {'read' if fname == 'load' else 'write'} "
                       f"{path!r}: {e.strerror or e}")


def _load_npy(path):
    with open(path, "rb") as f:
        try:
            version = np.lib.format.read_magic(f)
            if version == (1, 0):
                shape, _, dt = np.lib.format.read_array_header_1_0(f)
            else:
                shape, _, dt = np.lib.format.read_array_header_2_0(f)
        except Exception:
            raise GradValueError(f"load(): {path!r} is not a NumPy .npy file") from None
        if dt.hasobject or dt.kind not in "biuf" or dt.fields is not None:
            raise GradValueError(f"load(): {path!r} holds {dt} data, not numbers")
        check_alloc(shape, max(8, dt.itemsize))
        f.seek(0)
        try:
            return np.load(f, allow_pickle=False)
        except Exception as e:
            raise GradValueError(f"load(): {path!r} is a damaged .npy file ({e})") from None


def _load_csv(path):
    size = os.path.getsize(path)
    if size > context.current.limits.max_memory:
        check_alloc((size,), 1)
    try:
        with open(path, "r", encoding="utf-8-sig") as f:
            text = f.read()
    except UnicodeDecodeError:
        raise GradValueError(f"load(): {path!r} is not a CSV of numbers (not text)") from None
    lines = text.splitlines()
    skip = 0
    first = next((i for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith("#")),
                 None)
    if first is not None and not _numeric_row(lines[first]):
        nxt = next((i for i in range(first + 1, len(lines)) if lines[i].strip() and
                    not lines[i].lstrip().startswith("#")), None)
        if nxt is not None and _numeric_row(lines[nxt].split("#")[0]) and \
                len(lines[nxt].split("#")[0].split(",")) == len(lines[first].split(",")):
            skip = first + 1       # one header row of column names
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            arr = np.loadtxt(lines[skip:], delimiter=",", dtype=np.float64, ndmin=0)
        except ValueError as e:
            raise GradValueError(f"load(): {path!r} is not a CSV of numbers "
                                 f"({_csv_problem(lines, skip, e)})") from None
    return arr


def _csv_problem(lines, skip, exc):
    """Which line is wrong, in the file's own line numbers."""
    width = None
    for i in range(skip, len(lines)):
        text = lines[i].split("#")[0]
        if not text.strip():
            continue
        if not _numeric_row(text):
            shown = text.strip()
            shown = shown if len(shown) <= 40 else shown[:37] + "..."
            return f"line {i + 1}: {shown!r}"
        n = len(text.split(","))
        if width is None:
            width = n
        elif n != width:
            return f"line {i + 1} has {n} values, the lines before it {width}"
    return str(exc).split("\n")[0].split(";")[0]


def _numeric_row(line):
    for cell in line.split(","):
        try:
            float(cell)
        except ValueError:
            return False
    return True


@register("load", "load(path, dtype=None, requires_grad=False)",
          "a tensor (leaf) from a .npy or .csv file; default floating dtype unless dtype=",
          category="misc")
def load(path, dtype=None, requires_grad=False):
    kind = _kind(path, "load")
    try:
        arr = _load_npy(path) if kind == "npy" else _load_csv(path)
    except OSError as e:
        raise _os_error("load", path, e) from None
    if dtype is not None:
        dt = dtypes.as_numpy(dtype)
    else:
        dt = context.current.default_float
    arr = np.ascontiguousarray(arr, dtype=dt)
    t = Tensor(arr)
    if requires_grad:
        requires_grad_(t, True)
    return t


def _csv_fmt(a):
    if a.dtype.kind == "f":
        return "%.17g" if a.dtype.itemsize >= 8 else "%.9g"
    return "%d"


@register("save", "save(t, path)",
          "write a tensor's values to a .npy or .csv file (1-D or 2-D for CSV); returns none",
          category="misc")
def save(t, path):
    kind = _kind(path, "save")
    x = tensor_arg(t)
    a = x.data
    if kind == "csv":
        if a.ndim > 2:
            raise GradValueError(f"save(): a CSV file holds 1-D or 2-D data, this tensor has "
                                 f"shape {list(a.shape)}", hint="reshape it first, or use .npy")
        out = a.astype(np.int64) if a.dtype.kind == "b" else a
        if out.ndim == 0:
            out = out.reshape(1)
    try:
        if kind == "npy":
            with open(path, "wb") as f:
                np.save(f, a, allow_pickle=False)
        else:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                np.savetxt(f, out, delimiter=",", fmt=_csv_fmt(out))
    except OSError as e:
        raise _os_error("save", path, e) from None
    return None
