"""`class Batch(NamedTuple)`: typing's class form of a named tuple.  The annotated names of
the body, in order, are its fields (a value given there is the field's default), as
`collections.namedtuple` makes them (library/stdlib.py); the body's functions are its
methods and its other values class attributes.  Python's errors for a field without a
default after one with, another base beside NamedTuple, a special method."""

from __future__ import annotations

from ..library.stdlib import namedtuple_class
from ..library.typing_ns import TypingForm
from ..runtime.errors import GradTypeError
from .classes import ANNOTATIONS, is_dunder
from .functions import UserFunction


def is_named_tuple_base(b):
    """Is b typing's NamedTuple (a class deriving from it is a named tuple)?"""
    return isinstance(b, TypingForm) and b.name == "NamedTuple"


def named_tuple_class(name, bases, ns, keywords, qualname=None):
    """The class `class name(NamedTuple)` whose body made the namespace ns."""
    if keywords:
        raise GradTypeError(
            f"class {name}: keyword arguments ({', '.join(keywords)}) are not supported"
        )
    if len(bases) != 1:
        raise GradTypeError("can only inherit from a NamedTuple type and Generic")
    fields = list(ns.get(ANNOTATIONS, {}))
    defaults = []
    for f in fields:
        if f in ns:
            defaults.append(ns[f])
        elif defaults:
            raise GradTypeError(
                f"Non-default namedtuple field {f} cannot follow default field "
                f"{fields[len(defaults) - 1]}"
            )
    methods, values = {}, {}
    for k, v in ns.items():
        if k in fields or k == ANNOTATIONS:
            continue
        if is_dunder(k):
            raise GradTypeError(
                f"class {name}: defining {k} in a NamedTuple is not supported",
                hint="a NamedTuple class may hold fields, methods and class attributes",
            )
        if isinstance(v, UserFunction):
            methods[k] = v
        else:
            values[k] = v
    cls = namedtuple_class(name, fields, defaults=defaults)
    if qualname:
        cls.__qualname__ = qualname
    cls.language_methods = {**cls.language_methods, **methods}
    cls.language_attrs = {
        **cls.language_attrs,
        **{k: (lambda v: lambda t: v)(v) for k, v in values.items()},
    }
    cls.language_class_attrs = {**cls.language_class_attrs, **values, **methods}
    return cls
