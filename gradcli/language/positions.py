"""Errors placed where they happened: the position of a parse-tree node, and the
one helper (`located`) that turns anything raised while running a closure into a
gradcli error at a line and column."""

from __future__ import annotations

import re

from .parser import Token

from ..runtime.errors import GradError, GradSyntaxError, GradTypeError, LimitError, broadcast_error
from ..runtime.limits import depth_hint


def pos(node):
    """(line, column) of a token or a tree node."""
    if isinstance(node, Token):
        return node.line, node.column
    meta = node.meta
    return getattr(meta, "line", None), getattr(meta, "column", None)


def syntax_error(message, node, hint=None) -> GradSyntaxError:
    """A syntax error at a node (raised by the compiler)."""
    line, col = pos(node)
    return GradSyntaxError(message, line, col, hint=hint)


_PYTHON_ERRORS = (
    ValueError,
    TypeError,
    IndexError,
    ZeroDivisionError,
    OverflowError,
    KeyError,
    AttributeError,
)


def located(exc, line, col):
    """What to raise for `exc` caught at (line, col): a GradError placed there (a
    position it already has is kept), a Python error from inside an op translated
    into gradcli's words, the limits for recursion and memory; anything else as it is."""
    if isinstance(exc, GradError):
        return exc.at(line, col)
    if isinstance(exc, RecursionError):
        return LimitError("maximum recursion depth exceeded", line, col, hint=depth_hint())
    if isinstance(exc, MemoryError):
        return LimitError("out of memory", line, col)
    if isinstance(exc, _PYTHON_ERRORS):
        return translate_python_error(exc).at(line, col)
    return exc


def guard(fn, line, col):
    """fn's closure with errors placed at (line, col)."""

    def run(s):
        try:
            return fn(s)
        except Exception as e:
            raise located(e, line, col) from None

    return run


_BROADCAST = re.compile(
    r"operands could not be broadcast together with (?:shapes|remapped shapes "
    r"\[original->remapped\]:) \(([\d, ]*)\)\s*(?:and requested shape )?\(([\d, ]*)\)"
)
_KWARG = re.compile(r"(?:[\w.<>]+\(\) )?got an unexpected keyword argument '(\w+)'")
_ARITY = re.compile(r"(\w+)\(\) (missing \d+ required positional argument.*|takes .*)")
_KINDS = {
    ValueError: "ValueError",
    TypeError: "TypeError",
    IndexError: "IndexError",
    ZeroDivisionError: "ZeroDivisionError",
    OverflowError: "OverflowError",
    KeyError: "KeyError",
    AttributeError: "AttributeError",
}


def translate_python_error(exc) -> GradError:
    """A Python/NumPy exception from inside an op, as a gradcli error."""
    msg = str(exc).split("\n")[0]
    m = _BROADCAST.search(msg)
    if m:
        sa = [int(v) for v in m.group(1).replace(" ", "").split(",") if v]
        sb = [int(v) for v in m.group(2).replace(" ", "").split(",") if v]
        return broadcast_error(sa, sb)
    m = _KWARG.match(msg)
    if m:
        return GradTypeError(f"unexpected keyword argument '{m.group(1)}'")
    m = _ARITY.match(msg)
    if m:
        return GradTypeError(f"{m.group(1)}() {m.group(2)}")
    kind = _KINDS.get(type(exc), "RuntimeError")
    if kind == "AttributeError":
        kind = "RuntimeError"
    return GradError(msg or kind, type_name=kind)
