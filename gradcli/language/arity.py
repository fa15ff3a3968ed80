"""A built-in op called with too few arguments, in PyTorch's words (its Python argument
parser), where Python's would name gradcli's own parameters (`pow() missing 1 required
positional argument: 'b'`):

- an op with one signature: `mul() missing 1 required positional arguments: "other"`
  (PyTorch's plural for one argument, singular for more: `transpose() missing 2
  required positional argument: "dim0", "dim1"`), the same for `x.mul()`;
- an overloaded op: `pow() received an invalid combination of arguments - got (Tensor),
  but expected one of:` (`got ()` for `x.pow()`, the tensor being self);
- the bare name `pow` is Python's built-in: `pow() missing required argument 'exp'
  (pos 2)`.

The call sites mark a tensor's method call with `MethodName` and a call of a bare name
with `BareName` (both `str`), so that the message can tell the forms apart.
"""

from __future__ import annotations

from ..runtime.errors import GradTypeError
from ..core.tensor import Tensor, type_name
from ..library.values import METHODS
from ..ops.registry import BUILTINS


class MethodName(str):
    """The name of a method called on a tensor (`x.name(...)`)."""

    __slots__ = ()


class BareName(str):
    """The name of a function called by a bare name (`name(...)`)."""

    __slots__ = ()


# PyTorch's parameters after `input` for the ops with one signature (as its parser
# reports them: `torch.dot(x)` misses "tensor", `x.mv()` "vec")
SINGLE = {
    "mul": ("other",),
    "maximum": ("other",),
    "minimum": ("other",),
    "atan2": ("other",),
    "arctan2": ("other",),
    "hypot": ("other",),
    "allclose": ("other",),
    "equal": ("other",),
    "logical_and": ("other",),
    "logical_or": ("other",),
    "logical_xor": ("other",),
    "matmul": ("other",),
    "mv": ("vec",),
    "dot": ("tensor",),
    "outer": ("vec2",),
    "ger": ("vec2",),
    "unsqueeze": ("dim",),
    "select": ("dim", "index"),
    "flip": ("dims",),
    "chunk": ("chunks",),
    "cumsum": ("dim",),
    "transpose": ("dim0", "dim1"),
    "swapaxes": ("axis0", "axis1"),
    "swapdims": ("dim0", "dim1"),
}
# ops whose function form has several signatures in PyTorch (and whose method form has
# one: its parameters, as SINGLE)
OVERLOADED = {
    "pow",
    "div",
    "remainder",
    "floor_divide",
    "subtract",
    "lt",
    "le",
    "gt",
    "ge",
    "eq",
    "ne",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "bitwise_left_shift",
    "bitwise_right_shift",
    "narrow",
    "masked_fill",
    "where",
    "mm",
}
METHOD_SINGLE = {"mm": ("mat2",)}
# one signature printed in full after "but expected"
EXPECTED = {
    "add": (
        "(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)",
        "(Tensor other, *, Number alpha = 1)",
    ),
    "sub": (
        "(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)",
        "(Tensor other, *, Number alpha = 1)",
    ),
}
# Python's built-ins that share a name with an op: (parameter, position) in order
PYTHON = {"pow": (("base", 1), ("exp", 2))}


def _types(args):
    return ", ".join("Tensor" if isinstance(a, Tensor) else type_name(a) for a in args)


def _is_builtin(fn, name):
    """Whether `fn` is the op `name` (a method, the function, or its value wrapper)."""
    entry = BUILTINS.get(name)
    if entry is None:
        return False
    target = getattr(fn, "fn", fn)  # BuiltinFunction, BoundMethod
    target = getattr(target, "__wrapped__", target)  # a built-in with Python's meaning too
    return target is entry.fn or target is METHODS.get(name) or fn is METHODS.get(name)


def arity_error(fn, name, args, kwargs):
    """PyTorch's (or Python's) TypeError for the built-in op `name` called with too few
    arguments, or None when `fn` is not such an op."""
    if not isinstance(name, str) or kwargs:
        return None
    if not _is_builtin(fn, name):
        alias = getattr(fn, "name", None) or getattr(fn, "__name__", None)  # f = torch.mul
        if not (isinstance(alias, str) and _is_builtin(fn, alias)):
            return None
        name = str(alias)
    if type(name) is BareName and name in PYTHON:
        param, pos = PYTHON[name][min(len(args), len(PYTHON[name]) - 1)]
        return GradTypeError(f"{name}() missing required argument '{param}' (pos {pos})")
    method = type(name) is MethodName
    given = args[1:] if method else args
    if name in EXPECTED:
        return GradTypeError(
            f"{name}() received an invalid combination of arguments - got "
            f"({_types(given)}), but expected {EXPECTED[name][method]}"
        )
    params = METHOD_SINGLE.get(name) if method else None
    if params is None and name in OVERLOADED:
        return GradTypeError(
            f"{name}() received an invalid combination of arguments - got "
            f"({_types(given)}), but expected one of:"
        )
    params = params or SINGLE.get(name)
    if params is None:
        return None
    if not method:
        params = ("input",) + params
    missing = params[len(given) :]
    if not missing:
        return None
    n = len(missing)
    names = ", ".join(f'"{p}"' for p in missing)
    return GradTypeError(
        f"{name}() missing {n} required positional argument{'s' if n == 1 else ''}: {names}"
    )
