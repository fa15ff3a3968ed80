"""`import typing` / `from typing import List, Optional`: the names annotations use.

gradcli does not evaluate annotations (docs/language.md), so these forms are what a
program sees when it uses them as values: subscriptable (`List[int]`), printed as
Python prints them, and callable where Python's are (`cast`, `TypeVar`, `NewType`)."""

from __future__ import annotations

from ..core.printing import show
from ..runtime.errors import GradTypeError, GradValueError
from .values import BuiltinFunction


class TypingForm:
    """A special form or generic alias of `typing` (`typing.List`, `typing.Optional[int]`)."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def language_getitem(self, key):
        if not self.name.isidentifier():  # typing.List[int][str]
            raise GradTypeError(f"{self.name} is not a generic class")
        args = key if isinstance(key, tuple) else (key,)
        if self.name == "Union" and len(args) == 2 and None in args:  # (Python's own repr)
            return TypingForm(f"Optional[{_arg(args[0] if args[1] is None else args[1])}]")
        return TypingForm(f"{self.name}[{', '.join(_arg(a) for a in args)}]")

    def __repr__(self):
        return f"typing.{self.name}"


class CallableForm(TypingForm):
    """A form that is also a function: `NamedTuple("P", [("x", int)])`."""

    __slots__ = ("fn",)

    def __init__(self, name, fn):
        super().__init__(name)
        self.fn = fn

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)


def _arg(a):
    """An argument of a form as Python prints it: a class by its name (`int`, `torch.Tensor`)."""
    if isinstance(a, (TypingForm, TypeVar)):
        return repr(a)
    if a is None:
        return "None"
    if a is Ellipsis:
        return "..."
    if isinstance(a, list):
        return "[" + ", ".join(_arg(x) for x in a) + "]"
    text = show(a)
    if text.startswith("<class '") and text.endswith("'>"):
        text = text[len("<class '") : -2]
        return text
    return text


class TypeVar:
    """`T = TypeVar("T")`."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"~{self.name}"


FORMS = (
    "Any Callable ClassVar Dict Final FrozenSet Generator Generic Iterable Iterator List "
    "Literal Mapping MutableMapping MutableSequence NamedTuple NoReturn Optional Protocol "
    "Sequence Set Tuple Type TypedDict Union DefaultDict OrderedDict Deque Counter Self"
).split()


def _cast(typ, value):
    return value


def _type_var(name, *constraints, bound=None, covariant=False, contravariant=False):
    if not isinstance(name, str):
        raise GradTypeError("TypeVar name must be a string")
    return TypeVar(name)


def _new_type(name, tp):
    return BuiltinFunction(name, lambda x: x)


def _named_tuple(make_class):
    """typing.NamedTuple's call: `NamedTuple("P", [("x", int), ("y", float)])` or
    `NamedTuple("P", x=int)`, a class made as collections.namedtuple makes it."""

    def named_tuple(typename, fields=None, /, **kwargs):
        if fields is not None and kwargs:
            raise GradTypeError(
                "Either list of fields or keywords can be provided to NamedTuple, not both"
            )
        pairs = list(kwargs.items()) if fields is None else list(fields)
        for p in pairs:  # (Python unpacks each pair: its words)
            n = len(p) if isinstance(p, (tuple, list)) else None
            if n is None:
                raise GradTypeError(f"cannot unpack non-iterable {type(p).__name__} object")
            if n != 2:
                raise GradValueError(
                    f"not enough values to unpack (expected 2, got {n})"
                    if n < 2
                    else "too many values to unpack (expected 2)"
                )
        return make_class(typename, [f for f, _ in pairs])

    return named_tuple


def make_module(module_class, namedtuple_class):
    """The module; namedtuple_class(typename, fields) makes a named tuple's class."""
    members = {n: TypingForm(n) for n in FORMS}
    members["NamedTuple"] = CallableForm("NamedTuple", _named_tuple(namedtuple_class))
    members.update(
        cast=BuiltinFunction("typing.cast", _cast),
        TypeVar=BuiltinFunction("typing.TypeVar", _type_var),
        NewType=BuiltinFunction("typing.NewType", _new_type),
        TYPE_CHECKING=False,
    )
    return module_class("typing", members)
