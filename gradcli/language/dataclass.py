"""`import dataclasses` / `from dataclasses import dataclass, field`.

`@dataclass` reads the class's annotated names in order (`x: int = 0`: the class body
keeps them, statements.s_annassign) and gives the class the methods Python's
dataclass writes: `__init__`, `__repr__`, `__eq__` (and `__lt__`... with `order=True`),
`__hash__ = None` where Python makes instances unhashable. As in Python, the methods
are source text compiled once per class, here by the language's own compiler, so they
are functions of the language (their errors, calls and attribute rules are a program's).
Fields of dataclass bases come first; a default that is a list, dict or set is refused
as Python refuses it; `field(default_factory=...)`, `fields`, `asdict`, `astuple`,
`replace` and `is_dataclass` are there. `frozen=True` makes an assignment to or deletion
of an instance's attribute Python's FrozenInstanceError (the class's `language_setattr`
and `language_delattr`; its `__init__` sets the fields past them) and hashes by the
fields. `slots=True` is refused."""

from __future__ import annotations

from operator import attrgetter

from ..library.stdlib import StdModule, module
from ..library.values import BuiltinFunction
from ..runtime.errors import GradTypeError, GradValueError
from .classes import ANNOTATIONS, LOOKUP, PLAIN, changed, is_user_class, user_key
from .exceptions import TYPES
from .functions import Scope, call_user
from .parser import parse
from .state import state

FIELDS = "__dataclass_fields__"  # on a dataclass: name -> Field, in order


class _Missing:
    __slots__ = ()

    def __repr__(self):
        return "<dataclasses._MISSING_TYPE object>"


MISSING = _Missing()


class Field:
    """`field(default=..., default_factory=..., init=True, repr=True, compare=True)`."""

    __slots__ = ("name", "type", "default", "default_factory", "init", "repr", "compare")
    language_attrs = {
        k: attrgetter(k)
        for k in ("name", "type", "default", "default_factory", "init", "repr", "compare")
    }

    def __init__(self, default, default_factory, init, repr, compare):
        if default is not MISSING and default_factory is not MISSING:
            raise GradValueError("cannot specify both default and default_factory")
        self.name = self.type = None
        self.default, self.default_factory = default, default_factory
        self.init, self.repr, self.compare = init, repr, compare

    def __repr__(self):
        return (
            f"Field(name={self.name!r},type={self.type!r},default={self.default!r},"
            f"default_factory={self.default_factory!r},init={self.init},repr={self.repr},"
            f"compare={self.compare})"
        )


def field(
    *,
    default=MISSING,
    default_factory=MISSING,
    init=True,
    repr=True,
    hash=None,
    compare=True,
    metadata=None,
    kw_only=MISSING,
):
    return Field(default, default_factory, init, repr, compare)


def _fields_of(cls, qualname):
    """The fields of cls in order: its dataclass bases' first, then its own annotations."""
    found = {}
    for base in reversed(cls.__mro__[1:]):
        found.update(base.__dict__.get(FIELDS, {}))
    for name, text in cls.__dict__.get(ANNOTATIONS, {}).items():
        if text is not None and text.replace("typing.", "").startswith("ClassVar"):
            continue
        value = cls.__dict__.get(user_key(name), MISSING)
        f = value if isinstance(value, Field) else Field(value, MISSING, True, True, True)
        f.name, f.type = name, text
        if f.default is not MISSING and type(f.default) in (list, dict, set):
            raise GradValueError(
                f"mutable default {_class_text(type(f.default))} for field {name} is not "
                "allowed: use default_factory"
            )
        if isinstance(value, Field):  # the class keeps the plain default, or nothing
            if f.default is MISSING:
                delattr(cls, user_key(name))
            else:
                setattr(cls, user_key(name), f.default)
        found[name] = f
    seen_default = None
    for f in found.values():
        if not f.init:
            continue
        if f.default is not MISSING or f.default_factory is not MISSING:
            seen_default = f.name
        elif seen_default is not None:
            raise GradTypeError(f"non-default argument '{f.name}' follows default argument")
    return found


def _class_text(t):
    return f"<class '{t.__name__}'>"


def _source(fields, qualname, init, repr_, eq, order, post_init, frozen=False, hashed=False):
    """The language source of `_make(...)`, which returns the methods asked for (a
    frozen class's `__init__` sets each field with `_set`, past its __setattr__)."""
    params = ["self"]
    body = []
    for f in fields.values():
        n = f.name
        if f.init:
            if f.default is not MISSING:
                params.append(f"{n}=_defaults[{n!r}]")
            elif f.default_factory is not MISSING:
                params.append(f"{n}=_MISSING")
            else:
                params.append(n)
        if f.default_factory is not MISSING:
            made = f"_factories[{n!r}]()"
            body.append(f"self.{n} = {made} if {n} is _MISSING else {n}" if f.init else "")
            body[-1] = body[-1] or f"self.{n} = {made}"
        elif f.init:
            body.append(f"self.{n} = {n}")
        elif f.default is not MISSING:
            body.append(f"self.{n} = _defaults[{n!r}]")
    if frozen:
        body = [_set_past(line) for line in body]
    if post_init:
        body.append("self.__post_init__()")
    out = ["def _make(_defaults, _factories, _MISSING, _set):"]
    made = []
    if init:
        out.append(f"    def __init__({', '.join(params)}):")
        out += [f"        {line}" for line in body or ["pass"]]
        made.append("__init__")
    if repr_:
        shown = ", ".join(f"{f.name}={{self.{f.name}!r}}" for f in fields.values() if f.repr)
        out.append("    def __repr__(self):")
        out.append(f'        return f"{{type(self).__qualname__}}({shown})"')
        made.append("__repr__")
    compared = [f.name for f in fields.values() if f.compare]
    mine = "(" + "".join(f"self.{n}, " for n in compared) + ")"
    theirs = "(" + "".join(f"other.{n}, " for n in compared) + ")"
    ops = [("__eq__", "==")] if eq else []
    ops += [("__lt__", "<"), ("__le__", "<="), ("__gt__", ">"), ("__ge__", ">=")] if order else []
    for name, op in ops:
        out.append(f"    def {name}(self, other):")
        out.append("        if type(other) is type(self):")
        out.append(f"            return {mine} {op} {theirs}")
        out.append("        return NotImplemented")
        made.append(name)
    if hashed:
        out.append("    def __hash__(self):")
        out.append(f"        return hash({mine})")
        made.append("__hash__")
    out.append(f"    return ({''.join(m + ', ' for m in made)})")
    return "\n".join(out) + "\n", made


def _set_past(line):
    """`self.n = v` as `_set(self, 'n', v)` (object.__setattr__ in Python's frozen __init__)."""
    target, value = line.split(" = ", 1)
    return f"_set(self, {target[len('self.') :]!r}, {value})"


def _set_field(obj, name, value):
    obj.__dict__[user_key(name)] = value


def _frozen(cls, fields):
    """Python's frozen dataclass's __setattr__ and __delattr__, as the class's own rules:
    the class is no longer plain (its attributes are set through set_instance_attr)."""
    error = TYPES["dataclasses.FrozenInstanceError"]

    def language_setattr(obj, name, value):
        if type(obj) is cls or name in fields:
            raise error(f"cannot assign to field {name!r}")
        obj.__dict__[user_key(name)] = value

    def language_delattr(obj, name):
        if type(obj) is cls or name in fields:
            raise error(f"cannot delete field {name!r}")
        key = user_key(name)
        if key not in obj.__dict__:
            raise error(name)
        del obj.__dict__[key]

    cls.language_setattr = language_setattr
    cls.language_delattr = language_delattr
    setattr(cls, PLAIN, False)
    setattr(cls, LOOKUP, None)


def made_methods(compiler, src, args, where="<dataclass>"):
    """The methods the function `_make` of src returns, called with `args`: src compiled,
    defined in a scope of its own and run, its functions defined in the file `where`
    (Python's `<string>`: an error in one of them shows the generated line)."""
    origin, state.origin = state.origin, (where, src)
    try:
        program = compiler.program(parse(src), src)  # (its functions' file: `where`)
        scope = Scope()
        for stmt, _ in program:
            stmt(scope)
        return call_user(scope.vars["_make"], args)
    finally:
        state.origin = origin


def _process(compiler, cls, init, repr, eq, order, frozen, slots, unsafe_hash):
    if not is_user_class(cls):
        raise GradTypeError("dataclass() should be called on a class of the program")
    if slots:
        raise GradValueError("dataclass(slots=True) is not supported by gradcli")
    if order and not eq:
        raise GradValueError("eq must be true if order is true")
    qualname = cls.__qualname__
    fields = _fields_of(cls, qualname)
    post_init = any("__post_init__" in c.__dict__ for c in cls.__mro__)
    own = cls.__dict__
    # Python's __hash__ of a frozen class compared by value: the compared fields' tuple's
    hashed = (unsafe_hash or (eq and frozen)) and "__hash__" not in own
    src, names = _source(
        fields,
        qualname,
        init and "__init__" not in own,
        repr and "__repr__" not in own,
        eq and "__eq__" not in own,
        order,
        post_init,
        frozen,
        hashed,
    )
    defaults = {n: f.default for n, f in fields.items() if f.default is not MISSING}
    factories = {
        n: f.default_factory for n, f in fields.items() if f.default_factory is not MISSING
    }
    methods = made_methods(compiler, src, (defaults, factories, MISSING, _set_field))
    for name, fn in zip(names, methods):
        fn.qualname = f"{qualname}.{name}"
        setattr(cls, name, fn)
    setattr(cls, FIELDS, fields)
    if eq and not hashed and "__hash__" not in own:
        cls.__hash__ = None  # Python's dataclass: equal by value, so not hashable
    if frozen:
        _frozen(cls, tuple(fields))
    changed(cls)  # (its methods as the fast tier looks them up: classes.LOOKUP)
    return cls


def _decorator(make_compiler):
    """`@dataclass` or `@dataclass(...)`, compiling with a compiler made on first use."""
    compilers = []

    def dataclass(
        cls=None,
        *,
        init=True,
        repr=True,
        eq=True,
        order=False,
        unsafe_hash=False,
        frozen=False,
        match_args=True,
        kw_only=False,
        slots=False,
        weakref_slot=False,
    ):
        def wrap(c):
            if not compilers:
                compilers.append(make_compiler())
            return _process(compilers[0], c, init, repr, eq, order, frozen, slots, unsafe_hash)

        return wrap if cls is None else wrap(cls)

    return dataclass


def _declared(cls):
    """The fields of cls if it or a base of it is a dataclass, else None."""
    for c in cls.__mro__:
        if FIELDS in c.__dict__:
            return c.__dict__[FIELDS]
    return None


def _check(obj, what):
    fields = None if isinstance(obj, type) else _declared(type(obj))
    if fields is None:
        raise GradTypeError(f"{what}() should be called on dataclass instances")
    return fields


def fields(obj):
    found = _declared(obj if isinstance(obj, type) else type(obj))
    if found is None:
        raise GradTypeError("must be called with a dataclass type or instance")
    return tuple(found.values())


def _values(obj, into):
    fs = None if isinstance(obj, type) else _declared(type(obj))
    if fs is not None:
        pairs = [(n, _values(obj.__dict__[n], into)) for n in fs]
        return dict(pairs) if into is dict else tuple(v for _, v in pairs)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_values(v, into) for v in obj)
    if isinstance(obj, dict):
        return type(obj)((_values(k, into), _values(v, into)) for k, v in obj.items())
    return module("copy").members["deepcopy"](obj)


def asdict(obj):
    _check(obj, "asdict")
    return _values(obj, dict)


def astuple(obj):
    _check(obj, "astuple")
    return _values(obj, tuple)


def replace(obj, **changes):
    fs = _check(obj, "replace")
    for name, f in fs.items():
        if not f.init:
            if name in changes:
                raise GradValueError(
                    f"field {name} is declared with init=False, it cannot be specified with "
                    "replace()"
                )
            continue
        changes.setdefault(name, obj.__dict__[name])
    return type(obj)(**changes)


def is_dataclass(obj):
    return _declared(obj if isinstance(obj, type) else type(obj)) is not None


def make_module(make_compiler):
    """The module; `make_compiler()` makes the language compiler the methods need."""
    return StdModule(
        "dataclasses",
        {
            "dataclass": BuiltinFunction("dataclasses.dataclass", _decorator(make_compiler)),
            "field": BuiltinFunction("dataclasses.field", field),
            "fields": BuiltinFunction("dataclasses.fields", fields),
            "asdict": BuiltinFunction("dataclasses.asdict", asdict),
            "astuple": BuiltinFunction("dataclasses.astuple", astuple),
            "replace": BuiltinFunction("dataclasses.replace", replace),
            "is_dataclass": BuiltinFunction("dataclasses.is_dataclass", is_dataclass),
            "MISSING": MISSING,
            "FrozenInstanceError": TYPES["dataclasses.FrozenInstanceError"],
        },
    )
