"""Values of the library that are not tensors: namespaces (`torch`, `torch.nn` ...),
grad-mode contexts, torch.Size, built-in functions and bound methods as values,
the truth of a condition, and the table of tensor methods."""

from __future__ import annotations

import inspect

import numpy as np

from ..runtime.errors import (
    GradAttributeError,
    GradError,
    GradRuntimeError,
    GradTypeError,
    GradValueError,
    did_you_mean,
)
from ..core.printing import CLASS_NAMES
from ..core.tensor import Tensor, type_name
from ..runtime import context

METHODS: dict = {}  # x.name(...) of a tensor: name -> fn(tensor, *args, **kwargs)


#: the names of the library functions that declare `replay_compiled`: what a replayed loop's
#: statement `f(args)` may call (language/loop_shapes.py; the function it reaches is checked
#: when the plan is made)
REPLAY_COMPILED: set = set()


def replay_compiled(fn):
    """Declares that a replayed loop body may run a statement calling the library function
    fn as compiled in its place (language/loop_shapes._library_call, replay_checks.
    library_checks): fn runs no code of the program while its arguments are tensors,
    numbers, literals and lists of tensors, and changes nothing a replay's plan checks
    (no variable, module or graph: only tensors' values, in place)."""
    fn.replay_compiled = True
    REPLAY_COMPILED.add(fn.__name__)
    return fn


class Module:
    """`torch`, `torch.autograd`, `F` ...: attribute access finds built-ins by name."""

    __slots__ = ("name", "members", "_load")

    def __init__(self, name, members=None, load=None):
        """`load`: a function that makes the members when they are first read (a
        namespace whose library most programs never import), instead of `members`."""
        self.name, self._load = name, load
        if load is None:
            self.members = members or {}

    def __getattr__(self, attr):
        # only a lazy namespace's `members`, unset until first read, comes here
        if attr != "members" or self._load is None:
            raise AttributeError(attr)
        load, self._load = self._load, None
        members = self.members = load()
        return members

    @property
    def loaded(self):
        """Whether the members are made (a lazy namespace's are made at their first read)."""
        return self._load is None

    def __repr__(self):
        return f"<module '{self.name}'>"

    def get(self, attr, builtins):
        v = self.members.get(attr)
        if v is None:
            v = builtins.get(attr)
        if v is None:
            raise GradAttributeError(
                f"module '{self.name}' has no attribute '{attr}'",
                hint=did_you_mean(attr, list(self.members) + list(builtins)),
            )
        return v


class GradModeContext:
    """`no_grad` / `enable_grad` (with or without parentheses) for `with`."""

    __slots__ = ("enabled", "saved", "label")

    def __init__(self, enabled, label):
        self.enabled, self.label, self.saved = enabled, label, []

    def __call__(self, fn=None):
        if fn is None:
            return self
        ctx = GradModeContext(self.enabled, self.label)  # @torch.no_grad() on a def

        def decorated(*args, **kwargs):
            with ctx:
                r = fn(*args, **kwargs)
            if getattr(fn, "generator", False) is True and hasattr(r, "grad_mode"):
                r.grad_mode = self.enabled  # each resumption runs in the mode (PyTorch's)
            return r

        return Decorated(decorated, fn)

    def __enter__(self):
        self.saved.append(context.current.grad_enabled)
        context.current.grad_enabled = self.enabled

    def __exit__(self, *exc):
        context.current.grad_enabled = self.saved.pop()

    def run(self, fn, arg):
        """`with self: return fn(arg)`, with __enter__ and __exit__ inlined (the `with
        torch.no_grad():` block of a training loop, once per iteration)."""
        saved = self.saved
        saved.append(context.current.grad_enabled)
        context.current.grad_enabled = self.enabled
        try:
            return fn(arg)
        finally:
            context.current.grad_enabled = saved.pop()

    def __repr__(self):
        return f"<{self.label}>"


class Size(tuple):
    """torch.Size: a tuple of ints, the class of `x.shape` (a class of the language:
    `torch.Size([2, 3])`, `isinstance(s, torch.Size)`, `type(s) is torch.Size`)."""

    __slots__ = ()
    language_callable = True

    def __new__(cls, *args, **kwargs):
        if kwargs:
            raise GradTypeError("tuple() takes no keyword arguments")
        if len(args) > 1:
            raise GradTypeError(f"tuple expected at most 1 argument, got {len(args)}")
        sizes = args[0] if args else ()
        if type(sizes) is not tuple or any(type(n) is not int for n in sizes):
            sizes = _size_items(sizes)
        return tuple.__new__(cls, sizes)

    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return tuple.__new__(Size, r) if type(key) is slice else r  # a slice: a Size

    def __repr__(self):
        return f"torch.Size([{', '.join(str(n) for n in self)}])"


def _size_items(sizes):
    """The ints of torch.Size(sizes), as torch takes them: an int, a bool or an integer
    tensor of one element for each item of an iterable."""
    if isinstance(sizes, Tensor):
        items = [Tensor(np.asarray(v)) for v in sizes.data] if sizes.data.ndim else None
    elif isinstance(sizes, (tuple, list, range, str)):
        items = sizes
    else:
        try:
            items = list(sizes)
        except TypeError:
            items = None
    if items is None:
        raise GradTypeError(f"'{type_name(sizes)}' object is not iterable")
    out = []
    for i, n in enumerate(items):
        if isinstance(n, Tensor) and n.data.size == 1 and n.data.dtype.kind in "iub":
            n = int(n.data.reshape(()))
        elif isinstance(n, np.integer):
            n = int(n)
        if not isinstance(n, int):
            raise GradTypeError(
                f"torch.Size() takes an iterable of 'int' (item {i} is '{type_name(n)}')"
            )
        out.append(int(n))
    return tuple(out)


class BuiltinFunction:
    """A built-in as a value (`f = exp`, `print(exp)`)."""

    __slots__ = ("name", "fn")

    def __init__(self, name, fn):
        self.name, self.fn = name, fn

    def __call__(self, *a, **k):
        return self.fn(*a, **k)

    def __repr__(self):
        return f"<built-in function {self.name}>"


#: Python type -> the library's built-in that stands for it (collections.deque ...)
LIBRARY_CLASSES: dict = {}
#: id of such a built-in -> the Python type (what isinstance and issubclass test against)
LIBRARY_TYPES: dict = {}


def builtin_class(name, py, fn):
    """A built-in that makes values of the Python type `py` and is that class to a program,
    as Python's `collections.deque` is: it prints as `<class 'name'>`, `type(x)` of a value
    of `py` gives it, `isinstance` and `issubclass` take it."""
    v = BuiltinFunction(name, fn)
    CLASS_NAMES[id(v)] = (v, name)
    LIBRARY_CLASSES[py] = v
    LIBRARY_TYPES[id(v)] = py
    return v


class Decorated:
    """A function wrapped by a library decorator (`@torch.no_grad()` on a `def`): called as
    the wrapper says, and, like the Python function torch's decorator returns, a method when
    it is a class attribute (`obj.f(x)` passes obj first); printed as the function it wraps."""

    __slots__ = ("fn", "wrapped")

    def __init__(self, fn, wrapped):
        self.fn, self.wrapped = fn, wrapped

    def __call__(self, *a, **k):
        return self.fn(*a, **k)

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        return BoundMethod(obj, getattr(self.wrapped, "name", "function"), self.fn)

    def __repr__(self):
        return repr(self.wrapped) if hasattr(self.wrapped, "qualname") else "<function>"


class BoundMethod:
    __slots__ = ("obj", "name", "fn")

    def __init__(self, obj, name, fn):
        self.obj, self.name, self.fn = obj, name, fn

    def __call__(self, *a, **k):
        if k and type(self.obj) in _PY_VALUES:  # ("a".replace(old="a"): Python's refusal)
            python_keywords(type(self.obj), self.name, k)
        return self.fn(self.obj, *a, **k)


_PY_VALUES = frozenset({str, list, tuple, dict, set, frozenset, int, float, bool})
_KEYWORDS: dict = {}  # (type, name) -> the keywords Python's method takes, None: unknown


def python_keywords(t, name, kwargs):
    """Python's TypeError for keywords its method t.name does not take (the language's
    own versions of some methods take their parameters by name)."""
    key = (t, name)
    if key not in _KEYWORDS:
        py = next((c.__dict__[name] for c in t.__mro__ if name in c.__dict__), None)
        try:
            params = list(inspect.signature(py).parameters.values())[1:]
        except (TypeError, ValueError):
            _KEYWORDS[key] = None
        else:
            kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
            if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
                _KEYWORDS[key] = None
            else:
                names = frozenset(p.name for p in params if p.kind in kinds)
                _KEYWORDS[key] = (names, getattr(py, "__qualname__", f"{t.__name__}.{name}"))
    known = _KEYWORDS[key]
    if known is None:
        return
    names, qualname = known
    if not names:
        raise GradTypeError(f"{qualname}() takes no keyword arguments")
    for k in kwargs:
        if k not in names:
            raise GradTypeError(f"'{k}' is an invalid keyword argument for {name}()")

    def __repr__(self):
        return f"<built-in method {self.name}>"


_NUMPY = (np.ndarray, np.generic)
USER_MARK = "__gradcli_user__"  # in the namespace of every class a program defines


def program_object(v) -> bool:
    """Is v an object of a class the program defined (whose special methods Python's
    own operators and built-ins call)?"""
    return getattr(type(v), "__gradcli_user__", False)  # (USER_MARK)


def python_protocol(fn, *args, **kwargs):
    """fn(*args), a Python built-in or operator run on objects of the program's classes
    (which calls their special methods): Python's own TypeError, ValueError ... become
    the language's errors, in Python's words."""
    try:
        return fn(*args, **kwargs)
    except TypeError as e:
        raise GradTypeError(str(e)) from None
    except ValueError as e:
        raise GradValueError(str(e)) from None
    except (OverflowError, ZeroDivisionError, IndexError, KeyError) as e:
        raise GradError(str(e), type_name=type(e).__name__) from None


def tensor_number(x, index=False):
    """Tensor.__float__ (or, `index`, Tensor.__index__) of a one-element tensor: the number
    Python's float() and the math module's functions take from it."""
    d = x.data
    if index:
        if d.size != 1 or d.dtype.kind not in "biu":
            raise GradTypeError(
                "only integer tensors of a single element can be converted to an index"
            )
        return int(d.reshape(()))
    return x.__float__()  # (it warns when x requires grad, as PyTorch's; __int__ does not)


def truth(v) -> bool:
    """The truth of a condition: bool, number, none, or a one-element tensor."""
    if v is True or v is False:
        return v
    if type(v) is Tensor:
        if v.data.size != 1:
            raise GradRuntimeError(
                "Boolean value of Tensor with "
                + ("no values" if not v.data.size else "more than one value")
                + " is ambiguous"
            )
        return bool(v.data.reshape(()))
    if v is None or isinstance(v, _SIZED):
        return bool(v)
    if program_object(v) or isinstance(v, _NUMPY):  # its __bool__ (__len__), as Python asks
        return python_protocol(bool, v)
    own = getattr(type(v), "language_bool", None)  # a library object's own (vmap's)
    if own is not None:
        return own(v)
    n = getattr(type(v), "language_len", None)  # a dict's view: empty is false
    return True if n is None else n(v) > 0


_SIZED = (int, float, str, list, tuple, dict, set, frozenset, range)
