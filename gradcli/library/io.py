"""`load(path)` and `save(t, path)`: tensors to and from NumPy `.npy` and CSV files.

These two built-ins are the only way a program reaches a file, and each touches
exactly the path it is given (no added suffix, no `~` expansion; `save` writes a
temporary file beside it and renames it into place, so a failed save never leaves
a partial file).  `load` reads only regular files.  Loaded data becomes a leaf tensor of the default floating dtype
(float64 unless `--dtype float32`) unless `dtype=` says otherwise.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import warnings

import numpy as np

from ..core import dtypes
from ..core.convert import tensor_arg, type_name
from ..runtime.errors import GradError, GradTypeError, GradValueError
from ..runtime.limits import check_alloc
from ..ops.registry import not_a_tensor_op
from ..core.tensor import Tensor
from ..runtime import context
from .methods import requires_grad_

_KINDS = {".npy": "npy", ".csv": "csv", ".pt": "torch", ".pth": "torch", ".tar": "torch"}


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
            hint="use a name ending in .npy (NumPy), .csv (comma-separated numbers) "
            "or .pt/.pth/.tar (PyTorch's format)",
        )
    return kind


def _os_error(fname, path, e: OSError):
    return GradIOError(
        f"{fname}(): cannot {'read' if fname == 'load' else 'write'} {path!r}: {e.strerror or e}"
    )


def _open_regular(path, mode):
    """Open `path` for reading only if it is a regular file: a FIFO (which would wait for a
    writer forever), a device or a directory is refused without blocking."""
    # (through `open`, the one way this module reaches a file: a harness may guard it)
    f = open(
        path,
        mode,
        **({} if "b" in mode else {"encoding": "utf-8-sig"}),
        opener=lambda p, flags: os.open(p, flags | getattr(os, "O_NONBLOCK", 0)),
    )
    try:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            what = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
            raise GradIOError(f"load(): cannot read {path!r}: {what}")
        os.set_blocking(f.fileno(), True)
        return f
    except BaseException:
        f.close()
        raise


def _load_npy(path, dt):
    with _open_regular(path, "rb") as f:
        try:
            version = np.lib.format.read_magic(f)
            if version == (1, 0):
                shape, _, ft = np.lib.format.read_array_header_1_0(f)
            else:
                shape, _, ft = np.lib.format.read_array_header_2_0(f)
        except Exception:
            raise GradValueError(f"load(): {path!r} is not a NumPy .npy file") from None
        if ft.hasobject or ft.kind not in "biuf" or ft.fields is not None:
            raise GradValueError(f"load(): {path!r} holds {ft} data, not numbers")
        check_alloc(shape, max(8, ft.itemsize, dt.itemsize))
        f.seek(0)
        try:
            return np.load(f, allow_pickle=False)
        except Exception as e:
            raise GradValueError(f"load(): {path!r} is a damaged .npy file ({e})") from None


_CHUNK = 1 << 14  # lines parsed by NumPy at a time
_CHUNK_CHARS = 1 << 24  # ... or fewer, when they are long


def _data_lines(f, path):
    """(line number, line) of each line holding data: no blank or comment-only lines.
    A line is read up to a quarter of the memory cap (a 2 GB one-line file was read
    whole, twice over)."""
    limit = max(1 << 16, context.current.limits.max_memory // 4)
    i = 0
    while True:
        line = f.readline(limit + 1)
        if not line:
            return
        i += 1
        if len(line) > limit:
            raise GradValueError(
                f"load(): line {i} of {path!r} is longer than {limit} characters "
                "(a quarter of the memory cap)"
            )
        if "#" in line:
            line = line.split("#", 1)[0]
        if line and not line.isspace():
            yield i, line


def _load_csv(path, dt):
    """Two streaming passes: the first finds the header, the shape and any ragged line
    (so the memory cap is checked on the parsed size before anything is made); the
    second parses a chunk of lines at a time into the preallocated array.  Peak memory
    is the array plus one chunk, whatever the file's size."""
    parse_dt = np.dtype(np.int64) if dt.kind in "iu" else np.dtype(np.float64)
    try:
        with _open_regular(path, "r") as f:
            rows, width, skip = 0, None, 0
            for i, text in _data_lines(f, path):
                n = text.count(",") + 1
                if rows == 0 and skip == 0 and not _numeric_row(text):
                    skip = i  # maybe a header row of column names
                    header, header_width = text, n
                    continue
                if width is None:
                    width = n
                    if skip and n != header_width:
                        raise _not_numbers(path, skip, header)
                elif n != width:
                    raise GradValueError(
                        f"load(): {path!r} is not a CSV of numbers (line {i} "
                        f"has {n} values, the lines before it {width})"
                    )
                rows += 1
            if skip and rows == 0:
                raise _not_numbers(path, skip, header)
            check_alloc((rows, width or 0), max(8, dt.itemsize))
            arr = np.empty((rows, width) if rows else (0,), dtype=parse_dt)
            f.seek(0)
            done, chunk, first, chars = 0, [], None, 0
            for i, text in _data_lines(f, path):
                if i <= skip:
                    continue
                if not chunk:
                    first = i
                chunk.append(text)
                chars += len(text)
                if len(chunk) == _CHUNK or chars > _CHUNK_CHARS:
                    _parse_into(arr, done, chunk, first, path, parse_dt)
                    done, chunk, chars = done + len(chunk), [], 0
            if chunk:
                _parse_into(arr, done, chunk, first, path, parse_dt)
    except UnicodeDecodeError:
        raise GradValueError(f"load(): {path!r} is not a CSV of numbers (not text)") from None
    if rows == 1 or width == 1:  # as np.loadtxt: one row or one column is 1-D
        arr = arr.reshape(-1) if arr.size != 1 else arr.reshape(())
    return arr


def _parse_into(arr, start, lines, first, path, parse_dt):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            block = np.loadtxt(lines, delimiter=",", dtype=parse_dt, ndmin=2)
        except ValueError:
            if parse_dt.kind == "f":
                raise _locate(path, lines, first) from None
            try:  # integers asked for, decimals given: parse as floats and cast
                block = np.loadtxt(lines, delimiter=",", dtype=np.float64, ndmin=2)
            except ValueError:
                raise _locate(path, lines, first) from None
    arr[start : start + len(lines)] = block


def _locate(path, lines, first):
    """The first line and column that is not a number.  Only the position is named:
    a file's content is never quoted (the path may name any readable file)."""
    for k, text in enumerate(lines):
        if not _numeric_row(text):
            return _not_numbers(path, first + k, text)
    return GradValueError(f"load(): {path!r} is not a CSV of numbers")


def _not_numbers(path, line, text):
    where = f"line {line}"
    col = 1
    for cell in text.split(","):
        try:
            float(cell)
        except ValueError:
            break
        col += len(cell) + 1
    where += f", column {col}"
    return GradValueError(f"load(): {path!r} is not a CSV of numbers ({where} is not a number)")


def _numeric_row(line):
    for cell in line.split(","):
        try:
            float(cell)
        except ValueError:
            return False
    return True


@not_a_tensor_op(
    "load",
    "load(path, dtype=None, requires_grad=False)",
    "a tensor (leaf) from a .npy or .csv file; default floating dtype unless dtype=; "
    "the saved value from a .pt/.pth/.tar file (PyTorch's format, read safely)",
    category="misc",
)
def load(path, dtype=None, requires_grad=False, *, map_location=None, weights_only=None):
    kind = _kind(path, "load")
    if kind == "torch":  # torch.load: PyTorch's zip format, read as weights_only=True reads
        from .torch_file import read  # (zipfile and pickle: only for a .pt file, start-up time)

        try:
            with _open_regular(path, "rb") as f:
                return read(f, path)
        except OSError as e:
            raise _os_error("load", path, e) from None
    dt = np.dtype(dtypes.as_numpy(dtype) if dtype is not None else context.current.default_float)
    try:
        arr = _load_npy(path, dt) if kind == "npy" else _load_csv(path, dt)
    except OSError as e:
        raise _os_error("load", path, e) from None
    arr = np.ascontiguousarray(arr, dtype=dt).reshape(arr.shape)  # 0-d stays 0-d
    t = Tensor(arr)
    if requires_grad:
        requires_grad_(t, True)
    return t


def _csv_fmt(a):
    if a.dtype.kind == "f":
        return "%.17g" if a.dtype.itemsize >= 8 else "%.9g"
    return "%d"


@not_a_tensor_op(
    "save",
    "save(t, path)",
    "write a tensor's values to a .npy or .csv file (1-D or 2-D for CSV), or a value "
    "(tensors, state_dicts, checkpoints) to a .pt/.pth/.tar file; returns none",
    category="misc",
)
def save(t, path):
    if hasattr(t, "file_text") and isinstance(path, str):  # a picture: graph(y)
        return _save_picture(t, path)
    kind = _kind(path, "save")
    if kind == "torch":  # torch.save: any nesting of tensors, numbers, strings, containers
        from .torch_file import write  # (zipfile and pickle: only for a .pt file, start-up time)

        stem = os.path.splitext(os.path.basename(path))[0] or "archive"
        try:
            _write_replacing(path, lambda f: write(t, f, stem))
        except OSError as e:
            raise _os_error("save", path, e) from None
        announce(path)
        return None
    x = tensor_arg(t)
    a = x.data
    if kind == "csv":
        if a.ndim > 2:
            raise GradValueError(
                f"save(): a CSV file holds 1-D or 2-D data, this tensor has shape {list(a.shape)}",
                hint="reshape it first, or use .npy",
            )
        if a.ndim == 2 and 0 in a.shape:
            raise GradValueError(
                f"save(): a CSV file cannot hold the shape {list(a.shape)} "
                "(it would read back as shape [0])",
                hint="use .npy",
            )
        out = a.astype(np.int64) if a.dtype.kind == "b" else a
        if out.ndim == 0:
            out = out.reshape(1)
    try:
        _write_replacing(
            path,
            lambda f: (
                np.save(f, a, allow_pickle=False)
                if kind == "npy"
                else np.savetxt(f, out, delimiter=",", fmt=_csv_fmt(out))
            ),
        )
    except OSError as e:
        raise _os_error("save", path, e) from None
    announce(path)
    return None


def announce(path):
    """Say that a file was written: `saved PATH` for people (not under -q), a
    {"kind": "file", "path"} record under --json."""
    out = context.current.out
    if out is not None:
        out.record("file", {"path": path}, f"saved {path}")


def _write_replacing(path, write):
    """Write into a temporary file in the same directory, then rename it over `path`: a
    failed write (disk full, an interrupt) leaves the old file as it was, never a partial
    one.  A symlink is written through (its target is replaced); anything but a regular
    file at `path` is refused."""
    target = os.path.realpath(path) if os.path.islink(path) else path
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        what = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise (
            IsADirectoryError(errno.EISDIR, what)
            if stat.S_ISDIR(st.st_mode)
            else OSError(errno.EINVAL, what)
        )
    if st is not None:
        mode = stat.S_IMODE(st.st_mode)
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    folder, name = os.path.split(target)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    f = open(tmp, "xb")  # a new file only (through `open`, as load)
    try:
        with f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _save_picture(pic, path):
    ext = os.path.splitext(path)[1].lower()
    text = pic.file_text(ext[1:]) if ext else None
    if text is None:
        kinds = ".svg, .dot or .txt" if pic.file_text("dot") else ".svg"
        raise GradValueError(f"save(): this picture is written as {kinds}, not {ext or '(none)'!r}")
    try:
        _write_replacing(path, lambda f: f.write(text.encode("utf-8")))
    except OSError as e:
        raise _os_error("save", path, e) from None
    announce(path)
