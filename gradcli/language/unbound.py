"""`str.lower`, `list.append` ...: a method of a built-in type taken from the type (an
unbound method, as `map(str.lower, names)` uses it), with Python's repr and errors.

The language's `str`, `list`, `dict` and `set` are built-in functions (prelude.py maps
them to Python's types in `PY_TYPES`); `runtime.get_attr` asks `method` for an
attribute it found nowhere else, with the tables of the methods the language allows
on those types' values (runtime.STR_METHODS ...)."""

from __future__ import annotations

from ..runtime.errors import GradTypeError
from ..core.tensor import Tensor
from ..library.values import BoundMethod
from .containers import CLASS_METHODS

PY_TYPES: dict = {}  # id of the built-in functions int, float, str ... -> Python's types


class UnboundMethod:
    """`str.lower`: called with a value of the type first."""

    __slots__ = ("type", "name", "fn")

    def __init__(self, py_type, name, fn):
        self.type, self.name, self.fn = py_type, name, fn

    def __call__(self, *args, **kwargs):
        tn = _QUALIFIED.get(self.type, self.type.__name__)
        if not args:
            short = tn.rsplit(".", 1)[-1]
            raise GradTypeError(f"unbound method {short}.{self.name}() needs an argument")
        if not isinstance(args[0], self.type):
            raise GradTypeError(
                f"descriptor '{self.name}' for '{tn}' objects doesn't apply "
                f"to a '{_type_name(args[0])}' object"
            )
        return self.fn(*args, **kwargs)

    def __repr__(self):
        return (
            f"<method '{self.name}' of '{_QUALIFIED.get(self.type, self.type.__name__)}' objects>"
        )


# the class PyTorch defines a tensor's methods on (torch.Tensor.add is TensorBase's)
_QUALIFIED = {Tensor: "torch._C.TensorBase"}


def _type_name(v):
    if v is None:
        return "NoneType"
    t = type(v)
    return "Tensor" if t.__name__ == "Tensor" else t.__name__


def method(obj, name, tables):
    """The unbound method `obj.name` when obj is the language's str, list, dict or set
    and `tables[type]` allows `name`; None otherwise."""
    py = PY_TYPES.get(id(obj))
    own = CLASS_METHODS.get(py)
    if own is not None and name in own:  # dict.fromkeys: a method of the type itself
        return BoundMethod(obj, name, lambda _cls, *a, _f=own[name], **k: _f(*a, **k))
    table = tables.get(py) if py is not None else None
    if table is None or name not in table:
        return None
    return UnboundMethod(py, name, table[name])
