"""Python's refusal of keyword arguments its built-ins do not take: `len(obj=x)` is
"len() takes no keyword arguments", `enumerate(xs, begin=1)` "'begin' is an invalid
keyword argument for enumerate()", in CPython's words. A call with a tensor among its
arguments is the op's (`abs(input=t)`, `max(t, dim=0)`: PyTorch's keywords)."""

from __future__ import annotations

from ..core.tensor import Tensor
from ..ops.registry import BUILTINS
from ..runtime.errors import GradTypeError

# the built-ins that take no keyword argument at all
NO_KEYWORDS = frozenset(
    "abs len chr ord hex oct bin callable hash id iter next repr ascii divmod isinstance "
    "issubclass getattr setattr hasattr delattr reversed filter map list tuple set frozenset "
    "float bool range slice any all format super".split()
)
# the built-ins that take some: the name Python's message gives (sorted's is sort())
SOME_KEYWORDS = {
    "enumerate": ("start",),
    "zip": ("strict",),
    "int": ("base",),
    "str": ("object", "encoding", "errors"),
    "print": ("sep", "end", "file", "flush"),
    "round": ("number", "ndigits"),
    "sorted": ("key", "reverse"),
    "min": ("key", "default"),
    "max": ("key", "default"),
    "sum": ("start",),
}


def _is_builtin(fn, name):
    if getattr(fn, "name", None) == name and type(fn).__name__ == "BuiltinFunction":
        return True
    entry = BUILTINS.get(name)
    return entry is not None and entry.fn is fn


def keyword_error(fn, name, args, kwargs):
    """Python's TypeError for keywords the built-in `name` (fn) does not take, or None."""
    if not kwargs or (name not in NO_KEYWORDS and name not in SOME_KEYWORDS):
        return None
    if not _is_builtin(fn, name):
        return None
    if any(type(v) is Tensor for v in args) or any(type(v) is Tensor for v in kwargs.values()):
        return None
    if name in NO_KEYWORDS:
        return GradTypeError(f"{name}() takes no keyword arguments")
    if name in ("sorted", "min", "max") and not args:
        least = "" if name == "sorted" else "at least "
        return GradTypeError(f"{name} expected {least}1 argument, got 0")
    if name == "sum" and not args:
        return GradTypeError("sum() takes at least 1 positional argument (0 given)")
    for k in kwargs:
        if k not in SOME_KEYWORDS[name]:
            shown = "sort" if name == "sorted" else name
            return GradTypeError(f"'{k}' is an invalid keyword argument for {shown}()")
    return None
