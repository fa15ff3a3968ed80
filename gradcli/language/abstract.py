"""`import abc`: `class Loss(ABC)` with `@abstractmethod` methods, as Python's abc module
makes them: a class with an abstract method it does not override cannot be made, in
Python's words ("Can't instantiate abstract class Loss with abstract method forward");
its subclasses that define every one can.  (The classes' abstract methods are counted in
classes.make_class; `ABCMeta` as a metaclass is not there: derive from `ABC`.)"""

from __future__ import annotations

from ..library.stdlib import StdModule
from ..library.values import BuiltinFunction
from ..runtime.errors import GradTypeError
from .classes import ABSTRACT_BASE, make_class
from .functions import UserFunction


def abstractmethod(fn):
    """@abc.abstractmethod: marks the function (its `__isabstractmethod__`)."""
    target = fn.__func__ if isinstance(fn, (staticmethod, classmethod)) else fn
    if type(target) is not UserFunction:
        raise GradTypeError("abstractmethod() takes a function of the program")
    target.attrs = {**(target.attrs or {}), "__isabstractmethod__": True}
    return fn


def make_module():
    abc = make_class("ABC", (), {}, {})
    abc.__module__ = "abc"
    setattr(abc, ABSTRACT_BASE, True)
    return StdModule(
        "abc",
        {"ABC": abc, "abstractmethod": BuiltinFunction("abc.abstractmethod", abstractmethod)},
    )
