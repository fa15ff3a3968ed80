"""User classes: `class C(B): body` makes a real Python class with type();
attribute access, assignment and super() go through the class rules
(docs/developer/architecture.md, Classes), so a program reaches only its own
attributes and a library base's allowlist."""

from __future__ import annotations

import sys

from ..runtime.errors import (
    GradAttributeError,
    GradError,
    GradRuntimeError,
    GradTypeError,
    LimitError,
    did_you_mean,
)
from ..core.convert import type_name
from ..core.printing import CLASS_NAMES
from ..library.values import USER_MARK, BoundMethod, Decorated
from .exceptions import TYPES as EXCEPTION_TYPES
from .functions import UserFunction, call_depth, frames

USER = USER_MARK  # in a class namespace: the class was written in the language
# in a class namespace: True when every class of its MRO is one the program wrote (or
# LanguageObject and object): no library base, so `obj.name` is the instance's variable
# or else the first class's attribute of that name (the compiled fast paths read that)
PLAIN = "__gradcli_plain__"  # (read as getattr(cls, "__gradcli_plain__", False))
# in a class namespace: the set of the names (keys) its MRO's classes of the program hold,
# kept by make_class and set_class_attr (set_plain reads it)
NAMES = "__gradcli_names__"
# in a class body's namespace: name -> annotation text of its annotated names, in order
# (`x: int = 0`); the class keeps it as Python's __annotations__
ANNOTATIONS = "__annotations__"
# in a class namespace: a plain class's attributes as plain_class_attr finds them, kept as
# they are asked for (the fast tier's lookups: fast_dispatch.py), emptied when an
# attribute of the class or of a class it derives from is set (`changed`); None on a
# class that is not plain
LOOKUP = "__gradcli_lookup__"
# the key under which a plain class's LOOKUP table holds the class's NAMES set (put back
# by `changed` after it empties the table): the generated code tests a name there, a
# dict's item, where reading the class's attribute is Python's slower lookup on a type
# (a space first: no attribute's name, no fast_key)
NAMES_KEY = " names"
MAX_MRO = 500  # classes in a class's MRO (docs/limits.md)

#: values whose hash and equality are Python's own for these types (no code of the
#: program runs when a set or a dict hashes or compares them)
SCALARS = frozenset({int, float, bool, str, type(None)})
_OBJECT_HASH, _OBJECT_EQ = object.__hash__, object.__eq__
#: the classes whose objects a set or a dict hashes and compares by Python's own rules,
#: running no code of the program: SCALARS, and each class met that keeps object's hash
#: and equality (identity), added when first asked about (`hash_plain_class`); emptied
#: back to SCALARS when a class of the program changes (`changed`), or grows large.  The
#: fast tier's code reads it as one set (`type(v) in HASH_PLAIN`), never replaced.
HASH_PLAIN = set(SCALARS)
_HASH_PLAIN_MAX = 512


def hash_plain_class(t):
    """Whether a set or a dict hashes and compares objects of class t running no code of
    the program (kept in HASH_PLAIN when so)."""
    if t in HASH_PLAIN:
        return True
    if t.__hash__ is not _OBJECT_HASH or t.__eq__ is not _OBJECT_EQ:
        return False
    if len(HASH_PLAIN) >= _HASH_PLAIN_MAX:  # (classes made again and again: not kept all)
        _forget_hashes()
    HASH_PLAIN.add(t)
    return True


def _forget_hashes():
    HASH_PLAIN.clear()
    HASH_PLAIN.update(SCALARS)


# the special methods a class of the language may define (Python's operators and
# built-ins call them: datamodel.py); what stays out reaches Python's machinery
# (__getattr__, __new__, __del__, __init_subclass__, descriptors, pickling ...)
_OPERATORS = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul")
_BITWISE = ("and", "or", "lshift", "rshift")  # (`^` is power: no __xor__)
DUNDERS = frozenset(
    {
        "__init__",
        "__call__",
        "__repr__",
        "__str__",
        "__format__",
        "__len__",
        "__getitem__",
        "__setitem__",
        "__delitem__",
        "__contains__",
        "__iter__",
        "__next__",
        "__bool__",
        "__eq__",
        "__ne__",
        "__lt__",
        "__le__",
        "__gt__",
        "__ge__",
        "__hash__",
        "__neg__",
        "__pos__",
        "__abs__",
        "__invert__",
        "__float__",
        "__int__",
        "__enter__",
        "__exit__",
        "__post_init__",  # (a dataclass's __init__ calls it)
    }
    | {f"__{p}{n}__" for n in _OPERATORS + _BITWISE for p in ("", "r", "i")}
)


class LanguageObject:
    """The base of `class C:` (Python's `object` is not reachable through it), and the
    language's `object`: `object()` is a bare object, as Python's, with no variables
    (no `__dict__`: a class of the program gets one)."""

    __slots__ = ()

    def __repr__(self):
        if type(self) is LanguageObject:
            return "<object object>"
        return f"<__main__.{type(self).__qualname__} object>"


# its name in Python's words (`object() takes no arguments`, `'object' object has no
# attribute 'x'`)
LanguageObject.__name__ = LanguageObject.__qualname__ = "object"


def is_dunder(name):
    return name.startswith("__") and name.endswith("__")


def user_key(name):
    """Where a class of the program keeps `name`. The library's hooks on a Python class are
    named `language_*` (`language_iter`, `language_getattr` ...); a name of the program's with
    that prefix is kept under another key, so a program's method is never taken for a hook."""
    return "user:" + name if name.startswith("language_") else name


def direct_name(name):
    """Is `obj.name` of a plain class (PLAIN) the key `name` of the instance's and the
    classes' namespaces (not a special method's, not kept under another key: user_key)?"""
    return not is_dunder(name) and user_key(name) == name


def is_user_class(c):
    return isinstance(c, type) and c.__dict__.get(USER, False)


def _check_base(b):
    if (
        b is LanguageObject
        or is_user_class(b)
        or (isinstance(b, type) and getattr(b, "language_subclassable", False))
    ):
        return b
    raise GradTypeError(
        f"a class cannot derive from '{getattr(b, '__name__', type_name(b))}'"
        if isinstance(b, type)
        else f"a class derives from classes, not from a {type_name(b)}",
        hint="derive from a class of the program, nn.Module, torch.autograd.Function, "
        "torch.optim.Optimizer (or an optimizer), a Dataset or an exception type",
    )


def make_class(name, bases, ns, keywords, qualname=None):
    """`class name(*bases, **keywords)` with the namespace its body made."""
    if keywords:
        raise GradTypeError(
            f"class {name}: keyword arguments ({', '.join(keywords)}) are not supported"
        )
    ns = dict(ns)
    annotations = ns.pop(ANNOTATIONS, None)
    for k in ns:
        if is_dunder(k) and k not in DUNDERS:
            raise GradTypeError(
                f"class {name}: defining {k} is not supported",
                hint=f"the special methods a class may define: {', '.join(sorted(DUNDERS))}",
            )
    bases = tuple(_check_base(b) for b in bases) or (LanguageObject,)
    if max(len(b.__mro__) for b in bases) >= MAX_MRO:
        # Python computes each MRO in time that grows with its length (a loop making a
        # chain of 3,000 classes takes half a minute)
        raise LimitError(f"class {name}: a class hierarchy deeper than {MAX_MRO} classes")
    ns = {user_key(k): v for k, v in ns.items()}
    ns[USER] = True
    ns[PLAIN] = all(b is LanguageObject or b.__dict__.get(PLAIN, False) for b in bases)
    ns[LOOKUP] = {} if ns[PLAIN] else None
    ns[NAMES] = set().union(
        *(b.__dict__.get(NAMES, ()) for c in bases for b in c.__mro__),
        (k for k in ns if not is_dunder(k)),
    )
    if ns[LOOKUP] is not None:
        ns[LOOKUP][NAMES_KEY] = ns[NAMES]
    if annotations is not None:
        ns[ANNOTATIONS] = annotations
    ns["__module__"] = "__main__"
    ns["__qualname__"] = qualname or name
    if any(isinstance(b, type) and issubclass(b, GradError) for b in bases):
        ns.setdefault("type_name", name)  # a user exception shows its class name
    try:
        cls = type(name, bases, ns)
    except TypeError as e:
        raise GradTypeError(f"class {name}: {e}") from None
    if any(c.__dict__.get(ABSTRACT_BASE) for c in cls.__mro__):
        cls.__abstractmethods__ = _abstract_methods(cls, ns, bases)
    return cls


ABSTRACT_BASE = "__gradcli_abc__"  # on abc.ABC: its subclasses' abstract methods are counted


def is_abstract(v):
    """Is v a function (or a static or class method of one) that @abstractmethod marked?"""
    v = v.__func__ if isinstance(v, (staticmethod, classmethod)) else v
    return type(v) is UserFunction and bool(v.attrs) and v.attrs.get("__isabstractmethod__", False)


def _abstract_methods(cls, ns, bases):
    """Python's ABCMeta rule: the class's own abstract methods, and its bases' that it does
    not override with a function that is not abstract.  A class with any cannot be made
    (object.__new__ refuses it in Python's words)."""
    names = {k for k, v in ns.items() if is_abstract(v)}
    for b in bases:
        for k in getattr(b, "__abstractmethods__", ()):
            v = next((c.__dict__[k] for c in cls.__mro__ if k in c.__dict__), None)
            if is_abstract(v):
                names.add(k)
    return frozenset(names)


def _bind(v, obj, cls):
    """A class attribute as seen from obj (an instance, or None for the class)."""
    if isinstance(v, (UserFunction, Decorated, staticmethod, classmethod, property)):
        return v.__get__(obj, cls)
    return v


def library_allowlist(cls, obj, name, above=False):
    """A library base's allowlist (rule 4), or a KeyError. `above`: super()'s lookup, the
    method as `cls` defines it where its own dispatch would find an override again."""
    attrs = getattr(cls, "language_attrs", None)
    if attrs and name in attrs:
        return attrs[name](obj)
    methods = getattr(cls, "language_methods", None)
    if methods and name in methods:
        method = methods[name]
        if above and hasattr(method, "above"):
            method = method.above(cls)
        return BoundMethod(obj, name, method)
    getter = getattr(cls, "language_getattr", None)
    if getter is not None:
        try:
            return getter(obj, name)
        except AttributeError:
            pass
    raise KeyError(name)


def _no_attr(what, name, candidates=()):
    return GradAttributeError(
        f"'{what}' object has no attribute '{name}'", hint=did_you_mean(name, list(candidates))
    )


def instance_attr(obj, name):
    """`obj.name` for an instance of a user class or of a library class."""
    cls = type(obj)
    if is_dunder(name):
        if name in DUNDERS:  # x.__add__: a special method the program's class defines
            for c in cls.__mro__:
                if c.__dict__.get(USER) and c.__dict__.get(name) is not None:
                    return _bind(c.__dict__[name], obj, cls)
        raise _no_attr(cls.__name__, name)
    d = getattr(obj, "__dict__", None)
    key = user_key(name)
    if d is not None and key in d:
        return d[key]
    for c in cls.__mro__:
        if c.__dict__.get(USER) and key in c.__dict__:
            return _bind(c.__dict__[key], obj, cls)
    try:
        return library_allowlist(cls, obj, name)
    except KeyError:
        pass
    known = [
        k.removeprefix("user:")
        for c in cls.__mro__
        if c.__dict__.get(USER)
        for k in c.__dict__
        if not is_dunder(k)
    ] + [k.removeprefix("user:") for k in d or ()]
    raise _no_attr(cls.__name__, name, known)


def plain_class_attr(cls, name, default=None):
    """The attribute `name` (not a special method's) of a plain class as its namespace
    holds it (a function unbound, a staticmethod as such), or `default`: the first
    class of the MRO that has it, as `instance_attr` finds it."""
    for c in cls.__mro__:
        d = c.__dict__
        if name in d:
            return d[name]
    return default


def set_plain(o, t, name, v):
    """`o.name = v` (name not a special method's) done here when t, o's class, is plain
    and no class of it has an attribute `name` (a property) or a `language_setattr`:
    the instance's variable, as `set_instance_attr` sets it; False when not done."""
    if (
        getattr(t, "__gradcli_plain__", False)
        and name not in t.__gradcli_names__  # (plain_class_attr's classes)
        and getattr(t, "language_setattr", None) is None
    ):
        o.__dict__[name] = v
        return True
    return False


def _type_name(cls):
    """The name a class goes by in an error: `object` for the base of `class C:`."""
    return "object" if cls is LanguageObject else cls.__name__


def class_attr(cls, name):
    """`C.name` for a class of the program (or a library class it can reach)."""
    if name in ("__mro__", "__bases__") and is_user_class(cls):
        shown = _visible_classes(cls, name == "__mro__")
        if shown is not None:
            return shown
    if is_dunder(name) and name not in DUNDERS:
        raise GradAttributeError(f"type object '{_type_name(cls)}' has no attribute '{name}'")
    key = user_key(name)
    for c in cls.__mro__:
        if c.__dict__.get(USER) and key in c.__dict__ and c.__dict__[key] is not None:
            return _bind(c.__dict__[key], None, cls)
    if is_dunder(name):
        raise GradAttributeError(f"type object '{_type_name(cls)}' has no attribute '{name}'")
    for c in cls.__mro__:
        methods = c.__dict__.get("language_class_methods")
        if methods and name in methods:
            return BoundMethod(cls, name, methods[name])
        values = c.__dict__.get("language_class_attrs")  # (a namedtuple's _fields)
        if values and name in values:
            return values[name]
        allowed = c.__dict__.get("language_methods")
        raw = c.__dict__.get(name)
        if isinstance(raw, (staticmethod, classmethod)) and (
            (allowed and name in allowed)
            or (c.__dict__.get("language_subclassable") and not name.startswith("_"))
        ):
            # a library base's public class/static methods (torch.autograd.Function.apply)
            return raw.__get__(None, cls)
    raise GradAttributeError(f"type object '{_type_name(cls)}' has no attribute '{name}'")


#: (a class of the program, a name) -> library_method's answer, emptied when a class of the
#: program changes (`changed`: only set_class_attr sets a program class's attribute; a
#: library class's attributes never change) or when it grows large
_LIBRARY_METHODS: dict = {}


def library_method(cls, name):
    """class_attr(cls, name) for a class of the program when no class of the program in
    its MRO has `name` and a library base gives it a public class or static method
    (`LeakyClamp.apply` of a torch.autograd.Function), kept; None for any other case
    (class_attr answers it)."""
    key = (cls, name)
    f = _LIBRARY_METHODS.get(key)
    if f is not None:
        return f or None
    if len(_LIBRARY_METHODS) >= 256:
        _LIBRARY_METHODS.clear()
    f = _LIBRARY_METHODS[key] = _library_method(cls, name) or False
    return f or None


def _library_method(cls, name):
    if not is_user_class(cls) or is_dunder(name) or name in ("__mro__", "__bases__"):
        return None
    ukey = user_key(name)
    mro = cls.__mro__
    for c in mro:  # (class_attr's two walks, in its order)
        d = c.__dict__
        if d.get(USER) and d.get(ukey) is not None:
            return None
    for c in mro:
        d = c.__dict__
        methods, values = d.get("language_class_methods"), d.get("language_class_attrs")
        if (methods and name in methods) or (values and name in values):
            return None  # (class_attr's other library answers: not kept)
        raw = d.get(name)
        if isinstance(raw, (staticmethod, classmethod)):
            allowed = d.get("language_methods")
            if (allowed and name in allowed) or (
                d.get("language_subclassable") and not name.startswith("_")
            ):
                return raw.__get__(None, cls)
    return None


def _shown(c):
    """Whether a program sees class c as a class (its own, object, the library's, an
    exception type)."""
    return is_user_class(c) or c is LanguageObject or id(c) in CLASS_NAMES or c in _EXCEPTIONS


_EXCEPTIONS = frozenset(EXCEPTION_TYPES.values())


def _visible_classes(cls, mro):
    """C.__mro__ / C.__bases__ of a class of the program as Python gives them, of the
    classes a program sees (its own, the library's it derives from, the exception types,
    object); None when its MRO holds a Python class no class the program sees stands for
    (a namedtuple's tuple): refused, as before."""
    covered = {object}
    for c in cls.__mro__:
        if _shown(c) and not is_user_class(c):
            covered.update(c.__mro__)
    if any(not _shown(c) and c not in covered for c in cls.__mro__):
        return None
    out = tuple(c for c in (cls.__mro__ if mro else cls.__bases__) if _shown(c))
    return out if not mro or LanguageObject in out else (*out, LanguageObject)


def set_instance_attr(obj, name, value):
    """`obj.name = value` (rule 3), a property's setter first."""
    cls = type(obj)
    if is_dunder(name):
        raise GradAttributeError(f"cannot set attribute '{name}'")
    key = user_key(name)
    for c in cls.__mro__:
        if c.__dict__.get(USER) and key in c.__dict__:
            p = c.__dict__[key]
            if isinstance(p, property):
                if p.fset is None:
                    raise GradAttributeError(
                        f"property '{name}' of '{cls.__name__}' object has no setter"
                    )
                p.fset(obj, value)
                return
            break
    setter = getattr(cls, "language_setattr", None)
    if setter is not None:
        setter(obj, name, value)
        return
    d = getattr(obj, "__dict__", None)
    if d is None:
        raise GradAttributeError(f"cannot set attribute '{name}' of a {cls.__name__}")
    d[user_key(name)] = value


def set_class_attr(cls, name, value):
    """`C.name = value` (and setattr(C, name, value)): a program's class takes any name, and
    as a special method a class body may define a function of the program (d2l's
    add_to_class sets `__init__`), never a library callable."""
    if (
        (is_dunder(name) and (name not in DUNDERS or not isinstance(value, UserFunction)))
        or not is_user_class(cls)
    ):  # fmt: skip
        raise GradAttributeError(f"cannot set attribute '{name}' of type '{cls.__name__}'")
    setattr(cls, user_key(name), value)
    if is_dunder(name):
        changed(cls)  # (the special methods the fast tier's tables keep)
        return  # (a class's names below are the ones an instance may shadow)
    classes = [cls]  # the name is one of its classes' now, and of every subclass's
    while classes:
        c = classes.pop()
        names = c.__dict__.get(NAMES)
        if names is not None:
            names.add(user_key(name))
        classes.extend(c.__subclasses__())
    changed(cls)


def changed(cls):
    """The attributes of cls were set: what its and its subclasses' LOOKUP tables keep
    is forgotten, and which classes hash and compare as Python does (HASH_PLAIN), and
    the library methods `library_method` found."""
    _forget_hashes()
    _LIBRARY_METHODS.clear()
    classes = [cls]
    while classes:
        c = classes.pop()
        table = c.__dict__.get(LOOKUP)
        if table:
            table.clear()
            table[NAMES_KEY] = c.__dict__[NAMES]
        classes.extend(c.__subclasses__())


def plain_lookup(table, cls, name):
    """plain_class_attr(cls, name) for a plain class, kept in its LOOKUP table."""
    v = table[name] = plain_class_attr(cls, name)
    return v


def fast_key(name, n):
    """The key of a LOOKUP table keeping the fast function of `name` for calls giving n
    arguments by position (`fast_lookup`): a space in it, which no attribute's name has."""
    return sys.intern(f"{name} {n}")  # (the site's constant: found by identity)


def fast_lookup(table, cls, name, n):
    """The Python function (`UserFunction.fast`) of plain_class_attr(cls, name) when it is
    a function of the program taking n arguments by position (`fastn`, or fewer than
    its parameters with the others' defaults its own: `fastm`), else None; kept
    in the class's LOOKUP table under fast_key(name, n), forgotten with the rest of it
    (`changed`: a UserFunction's fast function and `fastn` are set when it is made)."""
    f = table[name] if name in table else plain_lookup(table, cls, name)
    fast = f.fast if type(f) is UserFunction and (f.fastn == n or n in f.fastm) else None
    table[fast_key(name, n)] = fast
    return fast


def _object_init(*args, **kwargs):
    if args or kwargs:
        raise GradTypeError(
            "object.__init__() takes exactly one argument (the instance to initialize)"
        )


class Super:
    """What `super()` gives inside a method: attributes looked up in the classes after
    `cls` in the MRO of `obj` (an instance, or a class in a classmethod)."""

    __slots__ = ("cls", "obj")

    def __init__(self, cls, obj):
        """(obj None: `super(cls)`, unbound: only its `__init__()`, which does nothing)"""
        if not isinstance(cls, type):
            raise GradTypeError(f"super() argument 1 must be a type, not {type_name(cls)}")
        if obj is None:
            self.cls, self.obj = cls, None
            return
        kind = obj if isinstance(obj, type) else type(obj)
        if not issubclass(kind, cls):
            raise GradTypeError("super(type, obj): obj must be an instance or subtype of type")
        self.cls, self.obj = cls, obj

    def __repr__(self):
        if self.obj is None:
            return f"<super: <class '{self.cls.__name__}'>, NULL>"
        return f"<super: <class '{self.cls.__name__}'>>"

    def get(self, name):
        if is_dunder(name) and name not in DUNDERS:
            raise _no_attr("super", name)
        obj = self.obj
        if obj is None:  # (unbound: its own __init__ only)
            if name == "__init__":
                return _unbound_init
            raise _no_attr("super", name)
        kind = obj if isinstance(obj, type) else type(obj)
        mro = kind.__mro__
        for c in mro[mro.index(self.cls) + 1 :]:
            if c.__dict__.get(USER):
                if user_key(name) in c.__dict__:
                    v = c.__dict__[user_key(name)]
                    if isinstance(obj, type):
                        return _bind(v, None, obj) if not isinstance(v, UserFunction) else v
                    return _bind(v, obj, kind)
                continue
            if c is object or c is LanguageObject:
                if name == "__init__":
                    return _object_init
                continue
            if name in DUNDERS and name in c.__dict__:
                return c.__dict__[name].__get__(obj, kind)  # a library base's __init__
            if not isinstance(obj, type):
                try:
                    return library_allowlist(c, obj, name, above=True)
                except KeyError:
                    pass
        raise _no_attr("super", name)


def _unbound_init(*args, **kwargs):
    """`super(C).__init__()`: super's own __init__ with no arguments, which takes them
    from the running method (nothing to do there) and at the top level has none."""
    if not args and not kwargs and not frames and call_depth.n == 0:
        no_super()


def no_super():
    raise GradRuntimeError("super(): no arguments")


__all__ = [
    "LanguageObject",
    "Super",
    "class_attr",
    "instance_attr",
    "make_class",
    "set_class_attr",
    "set_instance_attr",
]


def callable_class(cls):
    """A class the language may call: its own, a library base for it, an exception type."""
    return (
        is_user_class(cls)
        or cls is LanguageObject  # (`object()`: a bare object)
        or getattr(cls, "language_subclassable", False)
        or getattr(cls, "language_callable", False)
        or hasattr(cls, "language_methods")
    )
