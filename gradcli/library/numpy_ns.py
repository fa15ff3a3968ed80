"""`import numpy as np` beside torch: the part of NumPy that lectures and books use with
tensors, computed by NumPy itself (so results are NumPy's, bit for bit).

A program gets NumPy's arrays and scalars as values: they print as NumPy prints them,
take part in the operators (`a * 2`, `a + t` with a tensor gives a tensor, as torch
does), index and iterate as NumPy's, and pass to `torch.tensor`,
`torch.from_numpy` (sharing memory, as torch's does) and back with `t.numpy()`.
What a program reaches is the allowlist below: constants, array creation, element-wise
math, reductions, shape functions and `np.random` (NumPy's own legacy stream, seeded
with `np.random.seed`); an array's attributes are ARRAY_ATTRS and ARRAY_METHODS.  No
file, pickle, memory-map or C-level access (`load`, `save`, `fromfile`, `tofile`,
`ctypes`, `lib` ...) is in it, sizes are checked against the memory cap before an
array is made, and object arrays are refused."""

from __future__ import annotations

import operator

import numpy as np

from ..runtime.errors import (
    GradAttributeError,
    GradError,
    GradRuntimeError,
    GradTypeError,
    GradValueError,
)
from ..runtime.limits import check_alloc, check_broadcast
from ..core import dtypes
from ..core.convert import type_name
from ..core.printing import CLASS_NAMES
from ..core.tensor import Tensor
from .values import BoundMethod, BuiltinFunction, Module

NUMPY_VALUES = (np.ndarray, np.generic)


def _plain(v):
    """A language value as NumPy takes it: a tensor's values (as `np.asarray(t)` reads
    them through torch's __array__), lists and tuples of such, numbers and arrays."""
    if type(v) is Tensor:
        if v.requires_grad:
            raise GradRuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead."
            )
        return v.data
    if isinstance(v, (list, tuple)):
        return type(v)(_plain(x) for x in v)
    if v is None or isinstance(v, (bool, int, float, str, complex, slice, np.ndarray, np.generic)):
        return v
    t = _SCALAR_TYPES.get(id(v))
    if t is None:
        t = dtypes.PYTHON_TYPES.get(id(v))  # the language's int, float, bool (a.astype(int))
    if t is not None:
        return t
    if isinstance(v, np.dtype) or (isinstance(v, type) and issubclass(v, np.generic)):
        return v
    raise GradTypeError(f"NumPy does not take a {type_name(v)} here")


def _checked(r):
    if isinstance(r, np.ndarray) and r.dtype.kind == "O":
        raise GradTypeError("arrays of Python objects are not supported")
    return r


def _numpy_error(e):
    if isinstance(e, MemoryError):
        return GradError("the array does not fit in memory", type_name="MemoryError")
    kind = {TypeError: GradTypeError, ValueError: GradValueError}.get(type(e))
    if kind is not None:
        return kind(str(e))
    return GradError(str(e), type_name=type(e).__name__)


def call(fn, *args, **kwargs):
    """fn(*args, **kwargs) of NumPy on the program's values, NumPy's errors in its words."""
    args = [_plain(a) for a in args]
    kwargs = {k: _plain(v) for k, v in kwargs.items()}
    if kwargs.get("dtype") is object:
        raise GradTypeError("arrays of Python objects are not supported")
    try:
        return _checked(fn(*args, **kwargs))
    except (TypeError, ValueError, IndexError, ZeroDivisionError, OverflowError, MemoryError) as e:
        raise _numpy_error(e) from None


def _wrap(name, fn):
    return BuiltinFunction(f"numpy.{name}", lambda *a, **k: call(fn, *a, **k))


def _products(name, fn):
    """outer / meshgrid: the result's size (the product of the inputs' sizes) checked
    before it is made."""

    def run(*args, **kwargs):
        sizes = [int(np.size(_plain(a))) for a in args]
        n = 1
        for k in sizes:
            n *= k
        check_alloc((n * (len(sizes) if name == "meshgrid" else 1),))
        return call(fn, *args, **kwargs)

    return BuiltinFunction(f"numpy.{name}", run)


def _shape_of(args, kwargs, key="size"):
    shape = kwargs.get(key, kwargs.get("shape", args[0] if args else ()))
    if shape is None:
        return ()
    return (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)


def _sized(name, fn, shape_at=None):
    """A function making an array of a given shape: the size is checked first."""

    def run(*args, **kwargs):
        if shape_at == "dims":  # np.random.rand(2, 3)
            shape = tuple(args)
        elif isinstance(shape_at, int):  # np.random.normal(0, 1, size=(2, 3)): its place
            shape = kwargs.get("size", args[shape_at] if len(args) > shape_at else None)
            shape = () if shape is None else (shape,) if isinstance(shape, int) else shape
        else:
            shape = _shape_of(args, kwargs)
        try:
            check_alloc(tuple(int(n) for n in shape))
        except (TypeError, ValueError):
            pass  # NumPy reports a bad shape in its own words
        return call(fn, *args, **kwargs)

    return BuiltinFunction(f"numpy.{name}", run)


def _ranged(name, fn):
    """arange / linspace: the number of values checked before they are made."""

    def run(*args, **kwargs):
        try:
            if name == "linspace":
                n = kwargs.get("num", args[2] if len(args) > 2 else 50)
            else:
                lo, hi, step = (list(args) + [None, None])[:3]
                lo, hi = (0, lo) if hi is None else (lo, hi)
                n = (float(hi) - float(lo)) / float(1 if step is None else step)
            check_alloc((max(int(n), 0),))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            pass
        return call(fn, *args, **kwargs)

    return BuiltinFunction(f"numpy.{name}", run)


_ELEMENTWISE = (
    "exp log log2 log10 log1p expm1 sqrt square sin cos tan arcsin arccos arctan tanh sinh "
    "cosh abs absolute sign floor ceil round rint negative reciprocal isnan isinf isfinite "
    "add subtract multiply divide true_divide floor_divide power mod maximum minimum "
    "arctan2 hypot exp2 clip where sum mean std var prod max min amax amin argmax argmin "
    "cumsum cumprod median percentile quantile all any allclose isclose array_equal "
    "dot matmul inner outer transpose reshape ravel squeeze expand_dims concatenate stack "
    "vstack hstack column_stack flip sort argsort unique count_nonzero nonzero diff "
    "meshgrid asarray copy shape ndim size trace diag tril triu einsum average shares_memory "
    "may_share_memory"
).split()
_SIZED = "zeros ones full empty zeros_like ones_like full_like empty_like eye identity".split()


_SCALAR_TYPES = {}  # id(the language's np.float32 ...) -> NumPy's type


class _ScalarType(BuiltinFunction):
    """A NumPy scalar type as the language has it: equal to its dtype, as NumPy's
    (`a.dtype == np.float32`)."""

    __slots__ = ()

    def __eq__(self, other):
        t = _SCALAR_TYPES.get(id(self))
        if isinstance(other, np.dtype):
            return other == t
        return self is other

    def __hash__(self):
        return id(self)


def _scalar_type(t):
    """np.float32 ...: callable (np.float32(1.5)) and a dtype (dtype=np.float32)."""
    f = _ScalarType(f"numpy.{t.__name__}", lambda *a: call(t, *a))
    _SCALAR_TYPES[id(f)] = t
    _LANGUAGE_TYPES[t] = f
    CLASS_NAMES[id(f)] = (f, f"numpy.{t.__name__}")
    return f


_LANGUAGE_TYPES = {}  # NumPy's scalar type -> the language's np.float32 ...


def type_of(x):
    """type(x) of a NumPy array or scalar: np.ndarray, np.float64 ... (printing as NumPy's
    classes), or the name of a scalar type the namespace has not."""
    if type(x) is np.ndarray:
        CLASS_NAMES.setdefault(id(np.ndarray), (np.ndarray, "numpy.ndarray"))
        return np.ndarray
    make_module()
    return _LANGUAGE_TYPES.get(type(x))


def array(obj, dtype=None, copy=True):
    if type(obj) is Tensor:  # np.array(t): its values (a copy unless copy=False)
        obj = _plain(obj)
    return call(np.array, obj, dtype=dtype, copy=copy)


def _random_module():
    state = _Random.state()
    members = {
        "seed": BuiltinFunction("numpy.random.seed", _Random.seed),
        "rand": _sized("random.rand", state.rand, "dims"),
        "randn": _sized("random.randn", state.randn, "dims"),
        "randint": _sized("random.randint", state.randint, 2),
        "normal": _sized("random.normal", state.normal, 2),
        "uniform": _sized("random.uniform", state.uniform, 2),
        "random": _sized("random.random", state.random_sample, 0),
        "random_sample": _sized("random.random_sample", state.random_sample, 0),
        "choice": _sized("random.choice", state.choice, 1),
        "permutation": _wrap("random.permutation", state.permutation),
        "shuffle": _wrap("random.shuffle", state.shuffle),
        "binomial": _sized("random.binomial", state.binomial, 2),
        "poisson": _sized("random.poisson", state.poisson, 1),
        "default_rng": BuiltinFunction("numpy.random.default_rng", RandomGenerator),
        "RandomState": BuiltinFunction("numpy.random.RandomState", RandomState),
    }
    return Module("numpy.random", members)


class RandomState:
    """np.random.RandomState(seed): a legacy stream of NumPy's own (MT19937), its draws
    NumPy's; the methods below only (sizes checked first)."""

    __slots__ = ("rs",)
    language_type_path = "numpy.random.mtrand.RandomState"

    def __init__(self, seed=None):
        self.rs = call(np.random.RandomState, seed)

    def __repr__(self):
        return "RandomState(MT19937)"


def _state_method(name, size_at):
    def run(st, *args, **kwargs):
        method = np.random.RandomState.__dict__[name]
        return _sized(
            f"random.RandomState.{name}", lambda *a, **k: method(st.rs, *a, **k), size_at
        )(*args, **kwargs)

    return run


def _state_call(name):
    def run(st, *args, **kwargs):
        method = np.random.RandomState.__dict__[name]
        return call(lambda *a, **k: method(st.rs, *a, **k), *args, **kwargs)

    return run


RandomState.language_methods = {
    name: _state_method(name, at)
    for name, at in (
        ("rand", "dims"),
        ("randn", "dims"),
        ("randint", 2),
        ("normal", 2),
        ("uniform", 2),
        ("random", 0),
        ("random_sample", 0),
        ("standard_normal", 0),
        ("choice", 1),
        ("exponential", 1),
        ("binomial", 2),
        ("poisson", 1),
    )
}
RandomState.language_methods.update(
    {name: _state_call(name) for name in ("permutation", "shuffle", "seed")}
)


class RandomGenerator:
    """np.random.default_rng(seed): NumPy's Generator (PCG64), its draws NumPy's; the
    methods below only (sizes checked first)."""

    __slots__ = ("g",)
    language_type_path = "numpy.random._generator.Generator"

    def __init__(self, seed=None):
        self.g = call(np.random.default_rng, seed)

    def __repr__(self):
        return "Generator(PCG64)"


def _generator_method(name, size_at):
    def run(rg, *args, **kwargs):
        method = np.random.Generator.__dict__[name]
        return _sized(f"random.Generator.{name}", lambda *a, **k: method(rg.g, *a, **k), size_at)(
            *args, **kwargs
        )

    return run


RandomGenerator.language_methods = {
    name: _generator_method(name, at)
    for name, at in (
        ("random", 0),
        ("normal", 2),
        ("standard_normal", 0),
        ("uniform", 2),
        ("integers", 2),
        ("choice", 1),
        ("exponential", 1),
        ("binomial", 2),
        ("poisson", 1),
    )
}


def _generator_call(name):
    def run(rg, *args, **kwargs):
        method = np.random.Generator.__dict__[name]
        return call(lambda *a, **k: method(rg.g, *a, **k), *args, **kwargs)

    return run


# (np.random itself is imported at the first draw: it loads OpenSSL's libcrypto, 4% of
# start-up)
RandomGenerator.language_methods.update(
    {name: _generator_call(name) for name in ("permutation", "shuffle")}
)


class _Random:
    """NumPy's legacy global stream (`np.random.seed(0); np.random.rand()` draws what
    NumPy draws); unseeded, it starts from fresh entropy, as NumPy's does."""

    rs = None

    @classmethod
    def state(cls):
        if cls.rs is None:
            cls.rs = np.random.RandomState()
        return cls.rs

    @classmethod
    def seed(cls, seed=None):
        call(cls.state().seed, seed)


def reset():
    """A fresh run's stream (an in-process run after another)."""
    _Random.rs = None
    _made.clear()


_made = {}


def make_module():
    if "np" not in _made:
        members = {
            "pi": np.pi,
            "e": np.e,
            "inf": np.inf,
            "nan": np.nan,
            "newaxis": None,
            "ndarray": np.ndarray,
            "array": BuiltinFunction("numpy.array", array),
            "arange": _ranged("arange", np.arange),
            "linspace": _ranged("linspace", np.linspace),
            "random": _random_module(),
        }
        for t in (np.float16, np.float32, np.float64, np.int32, np.int64, np.uint8, np.bool_):
            members[t.__name__] = _scalar_type(t)
        members["bool_"] = members[np.bool_.__name__]  # (NumPy's older name of np.bool)
        functions = np.__dict__  # (the names are this module's own, never a program's)
        for name in _ELEMENTWISE:
            members[name] = _wrap(name, functions[name])
        for name in _SIZED:
            members[name] = _sized(name, functions[name])
        for name in ("outer", "meshgrid"):
            members[name] = _products(name, functions[name])
        linalg = np.linalg.__dict__
        members["linalg"] = Module(
            "numpy.linalg", {n: _wrap(f"linalg.{n}", linalg[n]) for n in ("norm", "inv", "det")}
        )
        _made["np"] = _NumpyModule("numpy", members)
    return _made["np"]


class _NumpyModule(Module):
    __slots__ = ()

    def get(self, attr, builtins):
        return super().get(attr, {})


# ---------------------------------------------------------------- arrays as values

ARRAY_ATTRS = {
    "shape": lambda a: a.shape,
    "dtype": lambda a: a.dtype,
    "ndim": lambda a: a.ndim,
    "size": lambda a: a.size,
    "T": lambda a: a.T,
    "itemsize": lambda a: a.itemsize,
    "nbytes": lambda a: a.nbytes,
}
ARRAY_METHODS = {
    n: (lambda f: lambda a, *args, **kw: call(f, a, *args, **kw))(np.ndarray.__dict__[n])
    for n in (
        "sum mean std var prod max min argmax argmin cumsum all any round clip "
        "reshape transpose flatten ravel squeeze copy astype tolist item dot fill sort argsort"
    ).split()
}


def array_attr(a, name):
    """`a.name` of a NumPy array (or scalar): the allowlist above, nothing else."""
    f = ARRAY_ATTRS.get(name)
    if f is not None:
        return f(a)
    m = ARRAY_METHODS.get(name)
    if m is not None:
        return BoundMethod(a, name, m)
    kind = "numpy.ndarray" if type(a) is np.ndarray else type(a).__name__
    raise GradAttributeError(f"'{kind}' object has no attribute '{name}'")


_OPS = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": operator.pow,
    "^": operator.pow,
    "@": operator.matmul,
    "&": operator.and_,
    "|": operator.or_,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}


_NUMBERS = (float, int, bool)


def binary(op, a, b):
    """`a op b` with a NumPy array or scalar and no tensor: NumPy's operator."""
    ta, tb = type(a), type(b)
    if (ta in _NUMBERS or issubclass(ta, np.generic)) and (
        tb in _NUMBERS or issubclass(tb, np.generic)
    ):  # NumPy scalars and numbers: nothing to broadcast, nothing to convert
        try:
            return _checked(_OPS[op](a, b))
        except (
            TypeError,
            ValueError,
            IndexError,
            ZeroDivisionError,
            OverflowError,
            MemoryError,
        ) as e:
            raise _numpy_error(e) from None
    shapes = [np.shape(_plain(v)) for v in (a, b)]
    check_broadcast(*shapes)
    return call(_OPS[op], a, b)


def truth(a):
    return bool(call(bool, a))
