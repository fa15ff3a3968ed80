"""`import enum`: `class Phase(enum.Enum)` is Python's enum class, made by Python's
EnumMeta from the names the class body binds (`auto()` as Python numbers it): its
members, their `name` and `value`, `Phase("eval")`, `Phase["EVAL"]`, iteration, `len`,
`in`, `@enum.unique`, the members' repr and str are Python's.  The body's functions are
the members' methods.  IntEnum, StrEnum and Flag are not there (their members'
arithmetic would be the language's)."""

from __future__ import annotations

import enum as _enum

from ..library.stdlib import StdModule
from ..library.values import LIBRARY_TYPES, BuiltinFunction
from ..runtime.errors import GradError, GradRuntimeError, GradTypeError, GradValueError
from .classes import ANNOTATIONS, is_dunder
from .functions import UserFunction


class EnumBase:
    """`enum.Enum` as a program sees it: a base its classes derive from."""

    __slots__ = ("py",)

    def __init__(self, py):
        self.py = py
        LIBRARY_TYPES[id(self)] = py  # isinstance(m, enum.Enum)

    def __repr__(self):
        return f"<enum '{self.py.__name__}'>"


def is_enum_base(b):
    """Is b one of enum's bases or a program's enum (a class deriving from it is an enum)?"""
    return isinstance(b, (EnumBase, _Meta))


class _Meta(_enum.EnumMeta):
    """Python's EnumMeta, with the hooks by which the language iterates an enum class,
    counts it and subscripts it."""

    def language_iter(cls):
        return list(cls)

    def language_len(cls):
        return len(cls)

    def language_getitem(cls, key):  # Phase["TRAIN"]
        try:
            return cls[key]
        except KeyError:
            raise GradRuntimeError(repr(key), type_name="KeyError") from None


_Meta.__name__ = _Meta.__qualname__ = "EnumType"  # (Python's name for the classes' type)


def enum_class(name, bases, ns, keywords, qualname=None):
    """The class `class name(enum.Enum)` whose body made the namespace ns."""
    if keywords:
        raise GradTypeError(
            f"class {name}: keyword arguments ({', '.join(keywords)}) are not supported"
        )
    if len(bases) != 1:
        raise GradTypeError(f"class {name}: an enum derives from one enum class")
    base = bases[0].py if isinstance(bases[0], EnumBase) else bases[0]
    if base.__members__:
        raise GradTypeError(f"<enum {name!r}> cannot extend {base!r}")
    # (a program's enum without members: its methods and values are the new class's too)
    methods = dict(base.__dict__.get("language_methods", {}))
    values = {
        k: v for k, v in base.__dict__.get("language_class_attrs", {}).items() if k not in methods
    }
    try:
        body = _Meta.__prepare__(name, (base,))
        body["__module__"] = "__main__"
        body["__qualname__"] = qualname or name
        for k, v in ns.items():
            if k == ANNOTATIONS:
                continue
            if is_dunder(k):
                raise GradTypeError(
                    f"class {name}: defining {k} in an enum is not supported",
                    hint="an enum class may hold members and methods",
                )
            if isinstance(v, UserFunction):
                methods[k] = v
            else:
                body[k] = v.py if isinstance(v, _Auto) else v
        cls = _Meta(name, (base,), body)
        # the values Python keeps out of the members (a private __name) are attributes
        values.update((k, v) for k, v in ns.items() if k in body and k not in cls.__members__)
    except GradError:
        raise
    except TypeError as e:
        raise GradTypeError(str(e)) from None
    except ValueError as e:
        raise GradValueError(str(e)) from None
    type.__setattr__(cls, "language_methods", methods)
    type.__setattr__(cls, "language_attrs", {"name": lambda m: m.name, "value": lambda m: m.value})
    type.__setattr__(cls, "language_class_attrs", {**dict(cls.__members__), **values, **methods})
    type.__setattr__(cls, "language_callable", True)
    type.__setattr__(cls, "language_str", True)  # print(Phase.TRAIN): Python's str
    return cls


class _Auto:
    """`enum.auto()`: the value Python's enum gives the member in its place."""

    __slots__ = ("py",)

    def __init__(self):
        self.py = _enum.auto()

    def __repr__(self):
        return "auto()"


def unique(cls):
    """@enum.unique: Python's ValueError when two names have one value."""
    if not isinstance(cls, _Meta):
        raise GradTypeError(f"unique() takes an enum class, not {cls!r}")
    try:
        return _enum.unique(cls)
    except ValueError as e:
        raise GradValueError(str(e)) from None


def make_module():
    return StdModule(
        "enum",
        {
            "Enum": EnumBase(_enum.Enum),
            "auto": BuiltinFunction("enum.auto", _Auto),
            "unique": BuiltinFunction("enum.unique", unique),
        },
    )
