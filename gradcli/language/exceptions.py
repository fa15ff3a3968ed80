"""Exceptions in the language: Python's and PyTorch's exception types by name, as
classes a program can raise, catch and derive from.  Every gradcli error is one of
them (a ShapeError is PyTorch's RuntimeError); the limits (steps, depth, memory)
and an interrupt are not: no `except` catches them."""

from __future__ import annotations

from ..runtime.errors import GradError, GradSyntaxError, Interrupted, LimitError, python_type_name
from ..core.printing import show, show_str
from ..library.stdlib import EXCEPTION_CLASSES

# name -> its base, as in Python (and PyTorch: shape errors are RuntimeErrors)
PARENTS = {
    "BaseException": None,
    "SystemExit": "BaseException",  # (argparse's, on a bad option or --help)
    "Exception": "BaseException",
    "ArithmeticError": "Exception",
    "ZeroDivisionError": "ArithmeticError",
    "OverflowError": "ArithmeticError",
    "FloatingPointError": "ArithmeticError",
    "LookupError": "Exception",
    "IndexError": "LookupError",
    "KeyError": "LookupError",
    "RuntimeError": "Exception",
    "NotImplementedError": "RuntimeError",
    "RecursionError": "RuntimeError",
    "ShapeError": "RuntimeError",
    "GradcheckError": "RuntimeError",  # (torch.autograd.gradcheck's)
    "ValueError": "Exception",
    "TypeError": "Exception",
    "NameError": "Exception",
    "UnboundLocalError": "NameError",
    "AttributeError": "Exception",
    "AssertionError": "Exception",
    "StopIteration": "Exception",
    "OSError": "Exception",
    "ImportError": "Exception",
    "ModuleNotFoundError": "ImportError",
    "Warning": "Exception",
    "UserWarning": "Warning",
    "DeprecationWarning": "Warning",
    "FutureWarning": "Warning",
    "RuntimeWarning": "Warning",
    "JSONDecodeError": "ValueError",  # (json.loads's)
    "StatisticsError": "ValueError",  # (the statistics module's)
    "error": "Exception",  # (re's: re.error, not a built-in)
    # PyTorch's torch.linalg.LinAlgError (a failed factorization), named by its module
    "torch._C._LinAlgError": "RuntimeError",
    "dataclasses.FrozenInstanceError": "AttributeError",  # (a frozen dataclass's)
}
# classes of a module, not built-ins (json.JSONDecodeError, statistics.StatisticsError)
MODULE_OWNED = {"error": "re", "JSONDecodeError": "json.decoder", "StatisticsError": "statistics"}


def _message(type_name, args):
    """str() of an exception made with `args`, as Python makes it."""
    if len(args) == 1 and type_name == "KeyError":
        return show(args[0])  # str(KeyError(k)) is repr(k), as in Python
    if len(args) == 1 and isinstance(args[0], str):
        return args[0]
    if len(args) == 1:
        return show_str(args[0])
    return "(" + ", ".join(show(a) for a in args) + ")" if args else ""


class LanguageException(GradError):
    """Base of the exception classes a program names: `ValueError("msg")` makes one."""

    language_subclassable = True
    type_name = "Exception"

    def __init__(self, *args):
        super().__init__(_message(self.type_name, args))
        self.args = args

    def __getattr__(self, name):  # only when normal lookup fails
        if name == "message":  # a subclass whose __init__ did not call Exception's
            return _message(self.type_name, self.args)
        raise AttributeError(name)

    def __str__(self):
        return self.message

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(repr(a) for a in self.args)})"


def _make_types():
    out = {}
    for name, parent in PARENTS.items():  # parents come before their children
        base = out[parent] if parent else LanguageException
        module, _, short = name.rpartition(".")  # (a dotted name: its module's class)
        module = module or MODULE_OWNED.get(name, "builtins")
        out[name] = type(
            short, (base,), {"type_name": name, "__module__": module, "__qualname__": short}
        )
    return out


TYPES = _make_types()
EXCEPTION_CLASSES.update(TYPES)  # (for the library's modules: re.error)
BUILTIN_TYPES = {k: v for k, v in TYPES.items() if k not in MODULE_OWNED and "." not in k}


def public_type(err):
    """The class a program sees for a gradcli error (`type(e)`): a program's own
    exception as it is; any other by errors.python_type_name."""
    if isinstance(err, LanguageException):
        return type(err)
    for n in ancestors(python_type_name(err)):
        cls = TYPES.get(n)
        if cls is not None:
            return cls
    return TYPES["Exception"]


def is_instance(err, cls):
    """isinstance(err, cls) for a gradcli error and a class or a tuple of them, by the
    exception classes' family (`except` matches the same way)."""
    if isinstance(cls, tuple):
        return any(is_instance(err, c) for c in cls)
    if isinstance(cls, type) and issubclass(cls, GradError):
        return matches(err, cls)
    return isinstance(err, cls)


def ancestors(name):
    """A type name and the names of its bases."""
    out = []
    while name is not None:
        out.append(name)
        name = PARENTS.get(name, "Exception")
    return out


def catchable(err):
    return (
        isinstance(err, GradError)
        and not isinstance(err, (LimitError, Interrupted, GradSyntaxError))
        and err.type_name != "SyntaxError"
    )


def matches(err, cls):
    """Does `except cls` catch err?  cls: an exception class or a tuple of them."""
    if isinstance(cls, tuple):
        return any(matches(err, c) for c in cls)
    if not (isinstance(cls, type) and issubclass(cls, GradError)):
        raise GradError(
            "catching classes that do not inherit from BaseException is not allowed",
            type_name="TypeError",
        )
    if isinstance(err, cls):
        return True
    name = cls.__dict__.get("type_name")
    return cls is TYPES.get(name) and name in ancestors(err.type_name)


def to_raise(v):
    """The exception `raise v` raises."""
    if isinstance(v, type) and issubclass(v, GradError):
        v = v()
    if not isinstance(v, GradError):
        raise GradError("exceptions must derive from BaseException", type_name="TypeError")
    return v


class Handling:
    """The exceptions being handled (innermost last), for a bare `raise`."""

    stack = []


def reraise():
    if not Handling.stack:
        raise GradError("No active exception to reraise", type_name="RuntimeError")
    raise Handling.stack[-1]
