"""Run-time guards: memory cap for new tensors, recursion depth, step budget, and
the sizes of the plain Python values (lists, strings, integers) a program makes.

Every guard raises `LimitError` *before* the big thing is made: NumPy commits
memory lazily, so catching MemoryError afterwards is not enough (the process
would be killed by the kernel first).
"""

from __future__ import annotations

import math

from .errors import LimitError
from . import context
from .stack import max_depth_cap


def _limits():
    return context.current.limits


_HINT = "raise the cap with --max-memory if you mean it"


def _fmt(n):
    if n >= 1 << 50:
        return "more than 1 PiB"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024


def _shape_text(shape):
    text = str(tuple(shape))
    return text if len(text) <= 80 else text[:77] + "...)"


def check_alloc(shape, itemsize=8):
    """Refuse a tensor over the memory cap before anything is allocated."""
    shape = tuple(int(n) for n in shape)
    if any(n < 0 for n in shape):
        return  # the caller reports negative sizes in its own words
    n = math.prod(shape) * itemsize
    if n > _limits().max_memory:
        raise LimitError(
            f"a tensor of shape {_shape_text(shape)} needs {_fmt(n)}, more than "
            f"the memory cap of {_fmt(_limits().max_memory)}",
            hint=_HINT,
        )


def check_broadcast(*shapes, itemsize=8):
    """Refuse an element-wise result whose broadcast shape is over the memory cap
    (`ones(100000, 1) * ones(1, 100000)`).  Shapes that do not broadcast pass:
    the op itself reports the mismatch."""
    first = shapes[0]
    if all(s == first for s in shapes):
        return  # same shapes: the result is no bigger than an input
    import numpy as np

    try:
        out = np.broadcast_shapes(*shapes)
    except ValueError:
        return
    check_alloc(out, itemsize)


def check_objects(n, what, bytes_each=64):
    """Refuse turning a tensor into `n` Python objects (list(x), x.tolist(), `for r in x`)
    when they would take more than the memory cap, or more than max_items of them."""
    if n > _limits().max_items or n * bytes_each > _limits().max_memory:
        raise LimitError(
            f"{what} would make {n} Python objects (the limit is "
            f"{min(_limits().max_items, _limits().max_memory // bytes_each)})",
            hint="work on the tensor as a whole, or on a slice of it",
        )


def check_items(n, what="the result", unit="elements"):
    """Refuse a list, tuple or string longer than max_items."""
    if n > _limits().max_items:
        raise LimitError(
            f"{what} would have {n} {unit}, more than the limit of {_limits().max_items}"
        )


def check_held(nbytes, what):
    """Refuse holding more than the memory cap in values gradcli keeps on its own
    (a generator's values are made before they are consumed)."""
    if nbytes > _limits().max_memory:
        raise LimitError(
            f"{what} would hold {_fmt(nbytes)}, more than the memory cap of "
            f"{_fmt(_limits().max_memory)}",
            hint=_HINT,
        )


def check_format_spec(spec):
    """Refuse a format width or precision that would make a string over max_items
    (`"{:>9999999999}".format(1)`)."""
    if not spec:
        return
    digits = ""
    for ch in spec + " ":
        if ch.isdigit():
            digits += ch
            continue
        if digits and (len(digits) > 12 or int(digits) > _limits().max_items):
            raise LimitError(
                f"format spec {spec[:30]!r}: width or precision too large "
                f"(the limit is {_limits().max_items})"
            )
        digits = ""


def depth_hint():
    """What to say when recursion is too deep: raise --max-depth, or (at its cap)
    that the C stack allows no deeper."""
    cap = max_depth_cap()
    if _limits().max_depth < cap:
        return "raise it with --max-depth"
    return f"--max-depth is capped at {cap}: the C stack allows no deeper recursion"


def depth_exceeded():
    """The error for a user function called deeper than --max-depth."""
    return LimitError(
        f"maximum recursion depth exceeded ({_limits().max_depth} nested calls of user functions)",
        hint=depth_hint(),
    )
