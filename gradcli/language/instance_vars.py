"""`obj.__dict__` and `vars(obj)`: an object's variables as a dict, in Python's names.

An object of a class of the program keeps its variables in its Python `__dict__`, some
under another key (classes.user_key: `language_*` names), and an object whose class
derives from a library class (nn.Module, an optimizer, an exception) keeps the library's
own state there too.  So the program never gets that dict itself: it gets an
`InstanceVars`, a dict that shows the variables of the program's object under their
Python names and writes through to the object (`obj.__dict__[k] = v`, `.update(...)`,
`del`, `pop`, `setdefault`, `clear`), read again from the object whenever it is read
(a live view, as Python's `__dict__` is).  It holds only values the program stored.
A key that is not a string, or a special name (`__len__`), is refused: Python's own
machinery reads an instance's special names.  `obj.__dict__ = d` sets the object's
variables to d's in place: a dict of them taken before sees the new ones (Python's
would keep the old ones; the compiled functions read an object's dict once a call).

Objects whose `__dict__` would show the library's state are refused (vars() of an
nn.Module lists PyTorch's internal hook tables); a library class whose instances hold
only the program's variables says `language_vars = True` (a Dataset); one that keeps
them elsewhere gives them by `language_vars(obj)` (argparse's Namespace)."""

from __future__ import annotations

from ..runtime.errors import GradError, GradTypeError
from ..core.convert import type_name
from ..library.values import program_object
from .classes import LanguageObject, is_dunder, is_user_class, user_key

_MISSING = object()


def _plain_vars(cls):
    """Whether every class of cls's MRO is the program's, `object`, or a library class
    whose instances keep only the program's variables (`language_vars = True`)."""
    for c in cls.__mro__:
        if c is object or c is LanguageObject or is_user_class(c):
            continue
        if c.__dict__.get("language_vars") is not True:
            return False
    return True


def _python_name(k):
    return k[5:] if type(k) is str and k.startswith("user:") else k


def _checked_key(k):
    if type(k) is not str:
        raise GradTypeError(
            f"an object's variables are named by strings, not {type_name(k)}",
            hint="store other keys in a dict of the object's",
        )
    if is_dunder(k):
        raise GradTypeError(
            f"cannot set '{k}' through an object's __dict__ (special names are Python's)"
        )
    return user_key(k)


class InstanceVars(dict):
    """`obj.__dict__` of an object of the program: a dict of its variables in Python's
    names, read again from the object before each read and written through to it."""

    __slots__ = ("owner",)

    def __init__(self, owner):
        dict.__init__(self)
        self.owner = owner
        self._sync()

    def _sync(self):
        dict.clear(self)
        dict.update(self, {_python_name(k): v for k, v in self.owner.__dict__.items()})
        return self

    # ---------------------------------------------------------------- reads
    def __getitem__(self, k):
        return dict.__getitem__(self._sync(), k)

    def get(self, k, default=None):
        return dict.get(self._sync(), k, default)

    def __contains__(self, k):
        return dict.__contains__(self._sync(), k)

    def __iter__(self):
        return dict.__iter__(self._sync())

    def __len__(self):
        return dict.__len__(self._sync())

    def keys(self):
        return dict.keys(self._sync())

    def values(self):
        return dict.values(self._sync())

    def items(self):
        return dict.items(self._sync())

    def copy(self):
        return dict(self._sync())

    def __eq__(self, other):
        return dict.__eq__(self._sync(), other)

    def __ne__(self, other):
        return dict.__ne__(self._sync(), other)

    __hash__ = None

    def __repr__(self):
        return dict.__repr__(self._sync())

    def __reversed__(self):
        return dict.__reversed__(self._sync())

    def __or__(self, other):
        return dict.__or__(self._sync(), other)

    def __ror__(self, other):
        return dict.__ror__(self._sync(), other)

    # ---------------------------------------------------------------- writes
    def __setitem__(self, k, v):
        self.owner.__dict__[_checked_key(k)] = v
        self._sync()

    def __delitem__(self, k):
        key = user_key(k) if type(k) is str else k
        del self.owner.__dict__[key]  # (a KeyError in Python's words when absent)
        self._sync()

    def pop(self, k, *default):
        key = user_key(k) if type(k) is str else k
        if key in self.owner.__dict__:
            v = self.owner.__dict__.pop(key)
            self._sync()
            return v
        if default:
            return default[0]
        raise KeyError(k)

    def popitem(self):
        if not self.owner.__dict__:
            raise KeyError("popitem(): dictionary is empty")
        k, v = self.owner.__dict__.popitem()
        self._sync()
        return _python_name(k), v

    def setdefault(self, k, default=None):
        key = _checked_key(k)
        v = self.owner.__dict__.setdefault(key, default)
        self._sync()
        return v

    def update(self, other=(), /, **kw):
        items = list(other.items()) if isinstance(other, dict) else list(other)
        for k, v in [*items, *kw.items()]:
            self.owner.__dict__[_checked_key(k)] = v
        self._sync()

    def __ior__(self, other):
        self.update(other)
        return self

    def clear(self):
        self.owner.__dict__.clear()
        self._sync()

    def __reduce_ex__(self, protocol):  # (copy.copy / deepcopy: a plain dict of them)
        return (dict, (dict(self._sync()),))


def instance_vars(obj):
    """obj.__dict__ / vars(obj) for what has one in the language; None otherwise."""
    t = type(obj)
    hook = getattr(t, "language_vars", None)
    if callable(hook):
        return hook(obj)
    if program_object(obj) and hasattr(obj, "__dict__") and _plain_vars(t):
        return InstanceVars(obj)
    return None


def set_vars(obj, value):
    """obj.__dict__ = value: the object's variables become value's items (`obj.__dict__
    |= d` assigns the same dict back)."""
    d = instance_vars(obj)
    if type(d) is not InstanceVars:
        e = refused(obj, "__dict__")
        raise (
            e
            if e is not None
            else GradError(
                f"'{type_name(obj)}' object attribute '__dict__' is read-only",
                type_name="AttributeError",
            )
        )
    if not isinstance(value, dict):
        raise GradTypeError(f"__dict__ must be set to a dictionary, not a '{type_name(value)}'")
    if type(value) is InstanceVars and value.owner is obj:
        return
    items = [(_checked_key(k), v) for k, v in value.items()]
    obj.__dict__.clear()
    obj.__dict__.update(items)


def refused(obj, what):
    """The error of `obj.__dict__` / `vars(obj)` for an object that has none here."""
    if program_object(obj) or getattr(type(obj), "language_subclassable", False):
        return GradError(
            f"{what} of a '{type(obj).__name__}' object is not available: it would show the "
            "library's own state",
            hint="an object of a class of the program alone (or of a Dataset) has one",
            type_name="TypeError" if what == "vars()" else "AttributeError",
        )
    return None


def vars_(*args):
    """vars(obj): its __dict__ (vars() without an argument stays out: it reaches the
    caller's frame)."""
    if not args:
        raise GradTypeError(
            "vars() without an argument is not supported (it reads the caller's frame)",
            hint="vars(obj) gives an object's variables",
            type_name="NotImplementedError",
        )
    if len(args) > 1:
        raise GradTypeError(f"vars expected at most 1 argument, got {len(args)}")
    obj = args[0]
    d = instance_vars(obj)
    if d is not None:
        return d
    e = refused(obj, "vars()")
    if e is not None:
        raise e
    if isinstance(obj, type):
        raise GradTypeError(
            "vars() of a class is not supported (a class's namespace holds Python's machinery)",
            hint="vars(obj) of an object of the class gives its variables",
        )
    raise GradTypeError("vars() argument must have __dict__ attribute")
