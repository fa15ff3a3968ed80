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


# (the patterns of Python's and NumPy's messages: compiled by `re` at their first error, not
# at start-up, where compiling them cost 1% of it)
_BROADCAST = (
    r"operands could not be broadcast together with (?:shapes|remapped shapes "
    r"\[original->remapped\]:) \(([\d, ]*)\)\s*(?:and requested shape )?\(([\d, ]*)\)"
)
_KWARG = r"(?:[\w.<>]+\(\) )?got an unexpected keyword argument '(\w+)'"
_ARITY = r"(\w+)\(\) (missing \d+ required positional argument.*|takes .*)"
_KINDS = {
    ValueError: "ValueError",
    TypeError: "TypeError",
    IndexError: "IndexError",
    ZeroDivisionError: "ZeroDivisionError",
    OverflowError: "OverflowError",
    KeyError: "KeyError",
    AttributeError: "AttributeError",
}


_SHAPE = r"\(([\d, ]*)\)"
_REMAPPED = _SHAPE + r"->" + _SHAPE
_MISMATCH = (
    r"shape mismatch: objects cannot be broadcast to a single shape\.\s+Mismatch is between "
    r"arg \d+ with shape " + _SHAPE + r" and arg \d+ with shape " + _SHAPE
)


def _broadcast_shapes(msg):
    """The operands' shapes in NumPy's message that they do not broadcast, or None."""
    found = [m.group(1) for m in re.finditer(_REMAPPED, msg)]
    if len(found) < 2 and "requested shape" not in msg:
        head = "operands could not be broadcast together with shapes "
        found = re.findall(_SHAPE, msg[len(head) :]) if msg.startswith(head) else []
    if len(found) < 2:
        m = re.search(_BROADCAST, msg) or re.search(_MISMATCH, msg)
        found = [m.group(1), m.group(2)] if m else None
    if not found:
        return None
    return [[int(v) for v in f.replace(" ", "").split(",") if v] for f in found]


def _first_mismatch(shapes):
    """PyTorch's error for shapes broadcast together in turn: the first that does not
    fit the shape of those before it."""
    cur = shapes[0]
    for sb in shapes[1:]:
        n = max(len(cur), len(sb))
        pa, pb = [1] * (n - len(cur)) + cur, [1] * (n - len(sb)) + sb
        if any(x != y and 1 not in (x, y) for x, y in zip(pa, pb)):
            return broadcast_error(cur, sb)
        cur = [max(x, y) for x, y in zip(pa, pb)]
    return broadcast_error(shapes[0], shapes[-1])


def translate_python_error(exc) -> GradError:
    """A Python/NumPy exception from inside an op, as a gradcli error."""
    msg = str(exc).split("\n")[0]
    shapes = _broadcast_shapes(msg)
    if shapes:
        return _first_mismatch(shapes)
    m = re.match(_KWARG, msg)
    if m:
        return GradTypeError(f"unexpected keyword argument '{m.group(1)}'")
    m = re.match(_ARITY, msg)
    if m:
        return GradTypeError(f"{m.group(1)}() {m.group(2)}")
    kind = _KINDS.get(type(exc), "RuntimeError")
    if kind == "AttributeError":
        kind = "RuntimeError"
    return GradError(msg or kind, type_name=kind)
