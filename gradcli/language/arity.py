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

import inspect

from ..runtime.errors import GradTypeError
from ..core.tensor import Tensor, type_name
from ..library.values import METHODS, BoundMethod
from ..ops.registry import BUILTINS


class MethodName(str):
    """The name of a method called on a tensor (`x.name(...)`)."""

    __slots__ = ()


class BareName(str):
    """The name of a function called by a bare name (`name(...)`)."""

    __slots__ = ()


# Python's built-ins that share a name with an op: (parameter, position) in order
PYTHON = {"pow": (("base", 1), ("exp", 2))}


_IN_PLACE: dict = {}  # an op's in-place method (and its aliases') -> the op's entry


def _entry(name):
    """The op `name` names: a built-in, or an op's in-place method (`add_`, `greater_`),
    whose PyTorch parser words its errors as the op's method does."""
    entry = BUILTINS.get(name)
    if entry is None and name.endswith("_"):
        if not _IN_PLACE:  # (derived from the ops' declarations, at the first error)
            for e in BUILTINS.values():
                if e.inplace:
                    _IN_PLACE.setdefault(e.inplace.name, e)
                    if e.inplace.name == f"{e.name}_":
                        for a in e.aliases:
                            _IN_PLACE.setdefault(f"{a}_", e)
        entry = _IN_PLACE.get(name)
    return entry


def _parser(name):
    """The Parser the op `name` declares (ops/registry.py), for that name or alias."""
    entry = _entry(name)
    parser = entry.parser if entry is not None else None
    return parser.get(name) if isinstance(parser, dict) else parser


def _types(args):
    return ", ".join("Tensor" if isinstance(a, Tensor) else type_name(a) for a in args)


def _is_builtin(fn, name):
    """Whether `fn` is the op `name` (a method, the function, or its value wrapper)."""
    entry = _entry(name)
    if entry is None:
        return False
    target = getattr(fn, "fn", fn)  # BuiltinFunction, BoundMethod
    target = getattr(target, "__wrapped__", target)  # a built-in with Python's meaning too
    return (
        target is entry.fn
        or target is getattr(entry.fn, "tensor_op", None)  # torch.abs: the op alone
        or target is METHODS.get(name)
        or fn is METHODS.get(name)
    )


def _op_name(fn, name):
    """The op's name as the call spelled it (a MethodName or BareName kept), its alias
    for a function value (`f = torch.mul`), or None when `fn` is not a built-in op."""
    if isinstance(name, str) and _is_builtin(fn, name):
        return name
    alias = getattr(fn, "name", None) or getattr(fn, "__name__", None)
    if isinstance(alias, str) and _is_builtin(fn, alias):
        return str(alias)
    return builtin_name(fn)


def builtin_name(fn):
    """The name of the built-in op `fn` is (a function value called without a name:
    `getattr(torch, "gt")(x)`; an alias by its own name, `getattr(torch, "greater")`), or
    None."""
    own = getattr(fn, "_gradcli_name", None)
    if isinstance(own, str) and _is_builtin(fn, own):
        return own
    return next((e.name for e in BUILTINS.values() if _is_builtin(fn, e.name)), None)


def _unbound(fn, name, args):
    """A tensor's method taken as a value (`f = x.add; f(...)`): the method, its name
    and the tensor as the first argument, as a call `x.add(...)` gives them."""
    if type(fn) is BoundMethod and type(fn.obj) is Tensor:
        return fn.fn, MethodName(fn.name), (fn.obj, *args)
    return fn, name, args


def operand_error(fn, name, args, value):
    """PyTorch's TypeError for the built-in op `name` given an operand `value` that is
    neither a tensor nor a number: `add(): argument 'other' (position 1) must be Tensor,
    not str` (`x.add('a')`; position 2 for `torch.add(x, 'a')`), or, for an overloaded
    op, `pow() received an invalid combination of arguments - got (Tensor, str), but
    expected one of:`; None when `fn` is not such an op or `value` is not a positional
    argument."""
    fn, name, args = _unbound(fn, name, args)
    name = _op_name(fn, name)
    if name is None or type(name) is BareName and name in PYTHON:
        return None
    method = type(name) is MethodName
    given = args[1:] if method else args
    pos = next((i for i, a in enumerate(given) if a is value), None)
    if pos is None:
        return None
    parser = _parser(name)
    if parser is None or parser.overloaded and not parser.tensor_operands:
        return GradTypeError(
            f"{name}() received an invalid combination of arguments - got "
            f"({_types(given)}), but expected one of:"
        )
    try:
        params = list(inspect.signature(_entry(name).fn).parameters.values())
    except (TypeError, ValueError):
        return None
    params = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if parser.params:  # PyTorch's names where gradcli's function has its own (mul(a, b))
        params = ["input", *parser.params]
    at = pos + 1 if method else pos
    if at >= len(params):
        return None
    what = "NoneType" if value is None else type_name(value)
    return GradTypeError(
        f"{name}(): argument '{params[at]}' (position {pos + 1}) must be Tensor, not {what}"
    )


_COMBINATION = "() received an invalid combination of arguments - got (Tensor"


def method_words(message, name, given):
    """An op's "invalid combination" error in the words of its method `name` (a tensor's
    method called with `given` positional arguments, self among them), where the op's function
    worded it: PyTorch's parser of a method names the method (`xlogy_`) and leaves self
    out of what it got (`got (str)`, not `got (Tensor, str)`)."""
    op, cut, rest = message.partition(_COMBINATION)
    if not cut or not op.isidentifier():
        return message
    got = rest.partition("), but expected")[0]
    if got.count(",") + 1 != given or "=" in got:  # (worded as the method's already)
        return message
    return f"{name}() received an invalid combination of arguments - got ({rest.removeprefix(', ')}"


def arity_error(fn, name, args, kwargs):
    """PyTorch's (or Python's) TypeError for the built-in op `name` called with too few
    arguments, or None when `fn` is not such an op."""
    if kwargs:
        return None
    fn, name, args = _unbound(fn, name, args)
    name = _op_name(fn, name)
    if name is None:
        return None
    if type(name) is BareName and name in PYTHON:
        param, pos = PYTHON[name][min(len(args), len(PYTHON[name]) - 1)]
        return GradTypeError(f"{name}() missing required argument '{param}' (pos {pos})")
    parser = _parser(name)
    if not parser:  # None: Python's words
        return None
    method = type(name) is MethodName
    given = args[1:] if method else args
    if parser.expected is not None:
        return GradTypeError(
            f"{name}() received an invalid combination of arguments - got "
            f"({_types(given)}), but expected {parser.expected[method]}"
        )
    params = parser.method_params if method else None
    if params is None and parser.overloaded:
        return GradTypeError(
            f"{name}() received an invalid combination of arguments - got "
            f"({_types(given)}), but expected one of:"
        )
    params = params or parser.params
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
