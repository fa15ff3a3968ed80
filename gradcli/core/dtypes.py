"""Dtypes: names, the default floating type, and PyTorch's type promotion."""

from __future__ import annotations

import numpy as np

from ..runtime import context
from .tensor import type_name
from ..runtime.errors import GradTypeError

bool_ = np.dtype(np.bool_)
int64 = np.dtype(np.int64)
float32 = np.dtype(np.float32)
float64 = np.dtype(np.float64)

# name in the language -> numpy dtype (torch.float64 etc. resolve via the `torch.` prefix)
NAMES = {
    "float64": float64,
    "double": float64,
    "float32": float32,
    "float": float32,
    "int64": int64,
    "long": int64,
    "int32": np.dtype(np.int32),
    "int": np.dtype(np.int32),
    "bool": bool_,
}

TORCH_NAMES = {
    float64: "torch.float64",
    float32: "torch.float32",
    int64: "torch.int64",
    bool_: "torch.bool",
    np.dtype(np.int32): "torch.int32",
    np.dtype(np.int8): "torch.int8",
    np.dtype(np.int16): "torch.int16",
}


# numpy dtype name -> PyTorch's legacy tensor type (x.type(), torch.typename(x))
LEGACY_TYPES = {
    "float64": "DoubleTensor",
    "float32": "FloatTensor",
    "float16": "HalfTensor",
    "int64": "LongTensor",
    "int32": "IntTensor",
    "int16": "ShortTensor",
    "int8": "CharTensor",
    "uint8": "ByteTensor",
    "bool": "BoolTensor",
    "complex64": "ComplexFloatTensor",
    "complex128": "ComplexDoubleTensor",
}


def legacy_type(a):
    """PyTorch's legacy type name of arrays of a's dtype: 'torch.FloatTensor' ..."""
    return "torch." + LEGACY_TYPES.get(a.dtype.name, "Tensor")


def floating(a):
    """Array `a` itself if it is floating, else converted to the default float dtype
    (what PyTorch does with integers given to exp, sigmoid, logsumexp ...)."""
    return a if a.dtype.kind == "f" else a.astype(context.current.default_float)


class DType:
    """A dtype as the language sees it: prints as `torch.float64`.  One object per
    dtype, as PyTorch's: `x.dtype is torch.float64`, `torch.double is torch.float64`."""

    __slots__ = ("np",)
    _made: dict = {}  # numpy dtype -> its DType

    def __new__(cls, np_dtype):
        key = np.dtype(np_dtype)
        made = cls._made.get(key)
        if made is None:
            made = cls._made[key] = super().__new__(cls)
            made.np = key
        return made

    def __reduce__(self):  # copy and deepcopy keep the one object
        return DType, (self.np,)

    def __repr__(self):
        return TORCH_NAMES.get(self.np, f"torch.{self.np.name}")

    def __eq__(self, other):
        return isinstance(other, DType) and other.np == self.np

    def __hash__(self):
        return hash(self.np)

    @property
    def is_floating_point(self):
        return self.np.kind == "f"


# Python's float, int and bool as dtypes (as in PyTorch): the library's built-ins
# `float`, `int`, `bool` are put here by gradcli/library/python.py (id -> numpy dtype)
PYTHON_TYPES: dict[int, np.dtype] = {}


def as_numpy(dtype):
    """A DType, numpy dtype or dtype name -> numpy dtype."""
    if isinstance(dtype, DType):
        return dtype.np
    if isinstance(dtype, str):
        name = dtype[6:] if dtype.startswith("torch.") else dtype
        if name in NAMES:
            return NAMES[name]
        raise GradTypeError(f"unknown dtype {dtype!r}")
    if isinstance(dtype, np.dtype):
        return dtype
    if isinstance(dtype, type) and issubclass(dtype, np.generic):
        return np.dtype(dtype)
    dt = PYTHON_TYPES.get(id(dtype))
    if dt is not None:
        return dt
    raise GradTypeError(f"argument 'dtype' must be torch.dtype, not {type_name(dtype)}")


def _category(dt) -> int:
    # 0 bool, 1 integer, 2 floating
    k = dt.kind
    return 2 if k == "f" else (0 if k == "b" else 1)


def scalar_dtype(v):
    """The dtype a Python scalar takes when it is made into a tensor."""
    if type(v) is float:
        return context.current.default_float
    if type(v) is int:
        return int64
    if isinstance(v, bool):
        return bool_
    if isinstance(v, (int, np.integer)):  # NumPy's integers are ints to PyTorch
        return int64
    return context.current.default_float  # (and np.bool_, as PyTorch's parser reads it)


def promote(a, b):
    """PyTorch's promote_types: a float beats any int, an int beats bool."""
    ca, cb = _category(a), _category(b)
    if ca != cb:
        return a if ca > cb else b
    return np.promote_types(a, b)


def _combine(higher, lower):
    # PyTorch's combine_categories: a higher-priority group keeps its dtype
    # unless a lower-priority operand is of a strictly higher category.
    if higher is None:
        return lower
    if lower is None:
        return higher
    if _category(higher) >= _category(lower):
        return higher
    if _category(lower) == 2 or higher == bool_:
        return promote(higher, lower) if _category(higher) == 2 else lower
    return higher


def result_type(*operands):
    """PyTorch's result type: tensors with dims > 0 outrank 0-d tensors, which
    outrank Python scalars, except that a higher category (bool < int < float)
    always wins; a Python float then takes the default dtype."""
    if len(operands) == 2:
        a, b = operands
        da = getattr(a, "data", None)
        db = getattr(b, "data", None)
        if da is not None and db is not None:
            try:
                if da.dtype is db.dtype and (da.ndim and db.ndim or not da.ndim and not db.ndim):
                    return da.dtype
            except AttributeError:  # a NumPy scalar's .data, a memoryview: the rule below
                pass
        elif da is not None and (type(b) is float or type(b) is int) and da.dtype.kind == "f":
            return da.dtype
        elif db is not None and (type(a) is float or type(a) is int) and db.dtype.kind == "f":
            return db.dtype
    dim = zero = wrapped = None
    for v in operands:
        d = getattr(v, "data", None)
        if d is not None and hasattr(d, "dtype"):
            dt = d.dtype
            if d.ndim:
                dim = dt if dim is None else promote(dim, dt)
            else:
                zero = dt if zero is None else promote(zero, dt)
        else:
            dt = scalar_dtype(v)
            if wrapped is None or _category(dt) > _category(wrapped):
                wrapped = dt
    return _combine(dim, _combine(zero, wrapped))


# c10's ScalarType names, as PyTorch's messages spell dtypes ("... got Double")
SCALAR_TYPE_NAMES = {
    "float64": "Double",
    "float32": "Float",
    "float16": "Half",
    "int64": "Long",
    "int32": "Int",
    "int16": "Short",
    "int8": "Char",
    "uint8": "Byte",
    "bool": "Bool",
    "bfloat16": "BFloat16",
}


def scalar_type_name(dt) -> str:
    dt = np.dtype(dt)
    return SCALAR_TYPE_NAMES.get(dt.name, dt.name)
