"""Where a running program's output goes: text for people, JSON lines for programs."""

from __future__ import annotations

import math
import os
import sys

import numpy as np

from .core.printing import show
from .core.tensor import Tensor
from .runtime import context


ASSIGN_LINES = 6  # an assignment's value is shown in the REPL when its text fits in these
#                   lines (of 80 columns)


def summary(v) -> str:
    """One line for a value too long to show: a tensor's shape, dtype, requires_grad and
    grad_fn (`tensor of shape [100, 3], dtype=torch.float64`), a container's length."""
    if type(v) is Tensor:
        parts = [f"tensor of shape {list(v.data.shape)}", f"dtype=torch.{v.data.dtype.name}"]
        if v.grad_fn is not None:
            parts.append(f"grad_fn=<{v.grad_fn.name}>")
        elif v.requires_grad:
            parts.append("requires_grad=True")
        return ", ".join(parts)
    if isinstance(v, (list, tuple, dict, set)):
        return f"{type(v).__name__} of {len(v)} items"
    first = show(v).split("\n", 1)[0]
    return f"{first} ... ({show(v).count(chr(10)) + 1} lines)"


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


_picture_dir = []


def _picture_path(stem: str) -> str:
    """A new file in this run's own temporary folder: gradcli-XXXX/graph-1.svg, ..."""
    import tempfile  # only when a picture is shown on a terminal

    if not _picture_dir:
        _picture_dir.append(tempfile.mkdtemp(prefix="gradcli-"))
    n = 1
    while os.path.exists(os.path.join(_picture_dir[0], f"{stem}-{n}.svg")):
        n += 1
    return os.path.join(_picture_dir[0], f"{stem}-{n}.svg")


class TextOutput:
    """Plain text on stdout, flushed per record so that nothing is lost on an error."""

    def __init__(self, stream=None, quiet=False, echo_assign=False):
        self.stream = stream or sys.stdout
        self.quiet = quiet
        self.echo_assign = echo_assign

    def _write(self, text):
        self.stream.write(text)
        self.stream.flush()

    def _tty_picture(self, v):
        """An SVG picture shown on a terminal is saved to a file, and this says where (the
        terminal would show pages of markup); None for anything else."""
        if not hasattr(v, "_repr_svg_") or not _isatty(self.stream):
            return None
        text = show(v)
        if not text.lstrip().startswith(("<svg", "<?xml")):
            return None
        path = _picture_path("graph" if "graph" in type(v).__name__.lower() else "picture")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return f"<an SVG picture, saved to {path}: open it in a browser>"

    def value(self, v, line):
        if not self.quiet:
            self._write((self._tty_picture(v) or show(v)) + "\n")

    def assign(self, name, v, line):
        """The REPL's `name = value`: the value when its text fits in ASSIGN_LINES lines,
        else one summary line."""
        if not self.quiet:
            text = self._tty_picture(v) or show(v)
            if text.count("\n") >= ASSIGN_LINES or len(text) > ASSIGN_LINES * 80:
                text = summary(v)
            self._write(f"{name} = {text}\n")

    def grad(self, name, g, line):
        if not self.quiet:
            self._write(f"{name}.grad = {show(g)}\n")

    def print(self, text):
        self._write(text)

    def record(self, kind, fields, text):
        """Something a built-in reports (a trace step, a file written): `text` for people."""
        if kind == "file" and self.quiet:
            return
        self._write(text + "\n")

    def figure(self, kind, fig, file):
        """A picture (plot, graph, trace): its text, unless it went to `file`."""
        if file is None:
            self._write(fig.text() + "\n")

    def error(self, err, rendered):
        sys.stdout.flush()
        sys.stderr.write(rendered + "\n")
        sys.stderr.flush()


def _jsonable(v):
    """Strict JSON: non-finite numbers as the strings "nan", "inf", "-inf"."""
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return v
    if isinstance(v, list):
        return [_jsonable(x) for x in v]
    return v


def _tolist(a: np.ndarray):
    """Values as nested lists; float32 (and float16) numbers with their shortest
    decimal form (0.1, not 0.10000000149011612), as PyTorch's .tolist() prints them."""
    if a.dtype.kind == "f" and a.dtype.itemsize < 8:
        flat = [float(str(x)) for x in a.ravel()]
        if a.ndim == 0:
            return flat[0]
        return np.array(flat, dtype=object).reshape(a.shape).tolist()
    return a.tolist()


def _plain(v):
    """The "value" of a JSON record: a number, bool, string, null or nested list."""
    if type(v) is Tensor:
        return _jsonable(_tolist(v.data))
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return _jsonable(v)
    if isinstance(v, (list, tuple)):  # tuples of tensors, (values, indices), torch.Size
        return [_plain(x) for x in v]
    return show(v)


def _deep_plain(v):
    if isinstance(v, dict):
        return {k: _deep_plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_deep_plain(x) for x in v]
    return _plain(v)


def describe(v) -> dict:
    """The value fields of a JSON record."""
    if type(v) is Tensor:
        fn = v.grad_fn
        return {
            "value": _plain(v),
            "shape": list(v.data.shape),
            "dtype": v.data.dtype.name,
            "requires_grad": v.requires_grad,
            "grad_fn": fn.name if fn is not None else None,
        }
    return {
        "value": _plain(v),
        "shape": None,
        "dtype": None,
        "requires_grad": None,
        "grad_fn": None,
    }


class JsonOutput:
    """One JSON object per line (see docs/guides/scripting.md, "JSON output")."""

    def __init__(self, stream=None, quiet=False, echo_assign=False):
        self.stream = stream or sys.stdout
        self.quiet = quiet
        self.echo_assign = echo_assign
        self.line = lambda: 0
        self.fields = {}  # added to every record (a notebook's "cell")

    def _emit(self, record):
        import json  # only under --json (saves start-up time)

        if self.fields:
            record.update(self.fields)
        self.stream.write(json.dumps(record, allow_nan=False) + "\n")
        self.stream.flush()

    def value(self, v, line):
        if not self.quiet:
            self._emit({"kind": "value", "line": line, "text": show(v), **describe(v)})

    def assign(self, name, v, line):
        if not self.quiet:
            self._emit(
                {"kind": "assign", "line": line, "name": name, "text": show(v), **describe(v)}
            )

    def grad(self, name, g, line):
        if not self.quiet:
            d = describe(g)
            self._emit(
                {
                    "kind": "grad",
                    "line": line,
                    "name": name,
                    "text": show(g),
                    "value": d["value"],
                    "shape": d["shape"],
                    "dtype": d["dtype"],
                }
            )

    def print(self, text):
        self._emit(
            {
                "kind": "print",
                "line": self.line(),
                "text": text[:-1] if text.endswith("\n") else text,
            }
        )

    def record(self, kind, fields, text):
        """Something a built-in reports (a trace step), as a record of `fields`
        (tensors in them become their values)."""
        self._emit({"kind": kind, "line": self.line(), **_deep_plain(fields)})

    def figure(self, kind, fig, file):
        """A picture as a record of its data (`kind`: "plot", ...)."""
        self._emit({"kind": kind, "line": self.line(), "file": file, **_deep_plain(fig.record())})

    def error(self, err, rendered):
        """The last record; the same error is also written for people on stderr."""
        self._emit(
            {
                "kind": "error",
                "line": err.line,
                "column": err.column,
                "type": err.type_name,
                "message": err.message,
                "hint": err.hint,
                "file": err.origin[0]
                if err.origin
                else context.current.where()[0]
                if context.current.where
                else None,
            }
        )
        sys.stderr.write(rendered + "\n")
        sys.stderr.flush()
