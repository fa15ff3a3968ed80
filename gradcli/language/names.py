"""What a program may read of a function's or class's identity -- `__name__`,
`__qualname__`, `__doc__` -- and what `type(x)` (and `x.__class__`) gives and how
classes print.

These and `__class__` are the only dunder attributes the language reads
(docs/language.md, what is out): each gives a string (or None) computed here, or the
class `type(x)` gives (a class of the program, one of the library's, or the language's
own `int`, `list` ...), never another Python object, so `__dict__`, `__globals__`
and frames stay unreachable."""

from __future__ import annotations

import functools
import types

from .parser import Token, Tree, literal_value

from ..runtime.errors import GradAttributeError, GradError
from ..core.convert import type_name
from ..core.printing import CLASS_NAMES, callable_name
from ..core.tensor import Tensor
from ..core import dtypes
from ..runtime.device import Device
from ..ops.creation import TorchGenerator
from ..ops.return_types import ValuesIndices
from ..library.values import LIBRARY_CLASSES, BoundMethod, BuiltinFunction, Module, Size
from ..library.stdlib import LazyIterator, LruCache
from ..core.parameter import is_parameter
from ..library.nn.module import Parameter
from ..library.torch_names import library_class
from ..library.numpy_ns import NUMPY_VALUES, type_of as numpy_type_of
from .classes import LanguageObject, is_user_class
from .instance_vars import InstanceVars
from .exceptions import public_type
from .functions import BoundUserMethod, Generator, UserFunction
from .unbound import PY_TYPES

NAME_ATTRS = frozenset({"__name__", "__qualname__", "__doc__"})


def docstring(suite):
    """The docstring of a `def`/`class` body (its first statement, a plain string
    literal), or None."""
    first = None
    for child in suite.children:
        if isinstance(child, Tree):
            first = child
            break
    if first is not None and first.data == "simple_stmt":
        first = first.children[0]
    if not (isinstance(first, Tree) and first.data == "expr_stmt"):
        return None
    node = first.children[0]
    if not (isinstance(node, Tree) and node.data == "string"):
        return None
    parts = []
    for tok in node.children:
        if not isinstance(tok, Token) or tok.value[:2].lower().count("f"):
            return None  # an f-string is not a docstring, as in Python
        try:
            parts.append(literal_value(tok.value))
        except (SyntaxError, ValueError):
            return None
    return "".join(parts)


def _short(name):
    return name.rsplit(".", 1)[-1]


def name_attr(obj, name):
    """`obj.__name__` / `obj.__qualname__` / `obj.__doc__`, as Python gives them for
    functions, classes, built-ins and modules; Python's AttributeError otherwise."""
    if type(obj) is BoundUserMethod or type(obj) is LruCache:  # (a cache: its function's)
        obj = obj.fn
    if type(obj) is UserFunction:
        return (
            obj.name if name == "__name__" else obj.qualname if name == "__qualname__" else obj.doc
        )
    if isinstance(obj, type):
        # (a namedtuple's class is the program's too: Python makes it in __main__)
        if is_user_class(obj) or obj.__dict__.get("__module__") == "__main__":
            if name == "__doc__":
                return obj.__dict__.get("__doc__")
            return obj.__name__ if name == "__name__" else obj.__qualname__
        if name != "__doc__":
            shown = CLASS_NAMES.get(id(obj))
            return _short(shown[1]) if shown is not None else obj.__name__
    elif name != "__doc__":
        shown = CLASS_NAMES.get(id(obj))
        if shown is not None:  # int, list, torch.Tensor ...
            return _short(shown[1])
        if type(obj) is TypeName:
            return _short(obj.name)
        if type(obj) is BuiltinFunction or type(obj) is BoundMethod:
            return _short(obj.name)
        if isinstance(obj, Module):
            return obj.name
        if callable(obj) and hasattr(obj, "__code__"):  # a built-in of the op table
            return callable_name(obj)
    elif is_user_class(type(obj)):
        return type(obj).__dict__.get("__doc__")
    raise GradAttributeError(f"'{_type_name(obj)}' object has no attribute '{name}'")


def _type_name(v):
    return _TYPE_NAMES.get(type(v)) or ("type" if isinstance(v, type) else type_name(v))


class TypeName:
    """What type(x) gives for a value whose type the language has no name for."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"<class '{self.name}'>"

    def __eq__(self, other):
        return isinstance(other, TypeName) and other.name == self.name

    def __hash__(self):
        return hash(self.name)


_TYPE_NAMES = {
    type(None): "NoneType",
    UserFunction: "function",
    BoundUserMethod: "method",
    BuiltinFunction: "builtin_function_or_method",
    BoundMethod: "builtin_function_or_method",
    types.FunctionType: "builtin_function_or_method",  # (print, sin: the library's own)
    types.BuiltinFunctionType: "builtin_function_or_method",
    functools.partial: "functools.partial",
    Generator: "generator",
    dtypes.DType: "torch.dtype",
    Size: "torch.Size",
    Module: "module",
    range: "range",
    Tensor: "torch.Tensor",
    int: "int",
    float: "float",
    bool: "bool",
    str: "str",
    list: "list",
    tuple: "tuple",
    dict: "dict",
    set: "set",
    complex: "complex",
    slice: "slice",
}
CLASS_OF = {}  # a Python type -> the language's value that names it (int, torch.Tensor ...)


def type_of(x):
    """type(x): the class of an object of a user class (or an exception), the
    language's own `int`, `list`, `torch.Tensor` ... for those, else a TypeName that
    prints as Python prints the type."""
    t = type(x)
    if isinstance(x, GradError):
        return public_type(x)
    if is_user_class(t) or t is LanguageObject or isinstance(x, BaseException):
        return t  # (LanguageObject: `object()`'s class, the language's `object`)
    if t.__dict__.get("__module__") == "__main__":  # a namedtuple's class
        return t
    if t is Tensor and is_parameter(x):
        return Parameter
    if isinstance(x, NUMPY_VALUES):
        v = numpy_type_of(x)
        if v is not None:
            return v
        return TypeName(f"numpy.{t.__name__}")
    v = CLASS_OF.get(t) or LIBRARY_CLASSES.get(t)
    if v is not None:
        return v
    if t is LazyIterator and x.kind.endswith(" object"):  # enumerate, zip, map ...
        return TypeName(x.kind[: -len(" object")])
    if isinstance(x, ValuesIndices):  # torch.return_types.max, .sort ...: one per op
        return TypeName(f"torch.return_types.{x.kind}")
    if library_class(t) is not None:  # nn.Linear, torch.optim.SGD ...: the class itself
        return t
    if id(x) in CLASS_NAMES:
        return TypeName("type")  # type(int)
    path = getattr(t, "language_type_path", None)  # (a library value's class by its import path)
    if path is not None:
        return TypeName(path)
    return TypeName(_type_name(x))


def type_shown(obj):
    """The name of obj's type as Python's messages give it: the language's type(obj)
    (`function`, `ValueError`, `generator`), not the Python class that carries it."""
    if type(obj) is BoundUserMethod:  # (Python looks a method's attributes up on its function)
        return "function"
    try:
        return name_attr(type_of(obj), "__name__")
    except GradError:
        return "NoneType" if obj is None else type_name(obj)


def install_classes(builtins):
    """Mark the built-ins that stand for Python's types (`int`, `list`, `torch.Tensor`
    ...): type(x) gives them and they print as Python's classes do."""
    for name, py, shown in (
        ("int", int, "int"),
        ("float", float, "float"),
        ("bool", bool, "bool"),
        ("str", str, "str"),
        ("list", list, "list"),
        ("tuple", tuple, "tuple"),
        ("dict", dict, "dict"),
        ("set", set, "set"),
        ("frozenset", frozenset, "frozenset"),
        ("range", range, "range"),
        ("complex", complex, "complex"),  # (out of the language: prelude.LEFT_OUT)
        ("bytes", bytes, "bytes"),
        ("bytearray", bytearray, "bytearray"),
        ("memoryview", memoryview, "memoryview"),
        ("Tensor", Tensor, "torch.Tensor"),
    ):
        v = builtins.get(name)
        if v is not None:
            CLASS_OF[py] = v
            CLASS_NAMES[id(v)] = (v, shown)
    if "dict" in builtins:  # obj.__dict__ (instance_vars.py) is a dict to the program
        CLASS_OF[InstanceVars] = builtins["dict"]
    base = builtins.get("object")
    if base is not None:  # (the language's object: Python's name for it)
        CLASS_NAMES[id(base)] = (base, "object")
    torch = builtins.get("torch")
    members = torch.members if type(torch) is Module else {}
    for name, py, shown in (  # torch's classes the library makes by other means
        ("dtype", dtypes.DType, "torch.dtype"),
        ("device", Device, "torch.device"),
        ("Generator", TorchGenerator, "torch._C.Generator"),
    ):
        v = members.get(name, builtins.get(name))  # (torch.device: the built-in device)
        if v is not None:
            CLASS_OF[py] = v
            CLASS_NAMES[id(v)] = (v, shown)
            PY_TYPES[id(v)] = py  # isinstance(d, torch.device)
