"""`import inspect`: what tutorials use of it, on the language's own calls and values.

`currentframe()` gives the running call of a function of the program as a Frame of
the language's: `f_back` (its caller's, None at the top), `f_locals` (a copy of its
variables), `f_code.co_name`; `getargvalues(frame)` its ArgInfo (d2l's
`save_hyperparameters` reads the caller's arguments so); `signature(f)` the
parameters of a function of the program; `isclass`, `isfunction`, `ismethod`.
No Python frame, code object or module is reachable through it: a Frame holds the
language's scope, and gives only copies of its variables."""

from __future__ import annotations

import inspect as _inspect

from ..runtime.errors import GradError, GradTypeError, GradValueError
from ..core.printing import CLASS_NAMES, show
from ..library.stdlib import StdModule, namedtuple_class
from ..library.values import BoundMethod, BuiltinFunction
from .classes import is_user_class
from .functions import BoundUserMethod, UserFunction, expand_frames, frames
from .names import name_attr


def _variables(fn, scope):
    """A copy of a call's variables: its parameters first (positional, keyword-only,
    *args, **kwargs), then the others in the order they were bound, as CPython orders
    f_locals."""
    sig = fn.sig
    order = [*sig.params, *sig.kwonly, *([sig.star] if sig.star else [])]
    order += [sig.kwstar] if sig.kwstar else []
    names = [n for n in order if n in scope.vars]
    names += [n for n in scope.vars if n not in names and n.isidentifier()]
    return {n: scope.vars[n] for n in names}


class Code:
    """What a Frame's `f_code` gives: the function's name."""

    __slots__ = ("co_name",)
    language_attrs = {"co_name": lambda c: c.co_name}

    def __init__(self, name):
        self.co_name = name

    def __repr__(self):
        return f"<code object {self.co_name}>"


class Frame:
    """One call of a function of the program (`inspect.currentframe()`)."""

    __slots__ = ("entry", "index")

    def __init__(self, index):
        self.entry = frames[index]  # (function, scope)
        self.index = index  # its place in functions.frames while it runs

    def f_back(self):
        i = self.index
        if 0 < i < len(frames) and frames[i] is self.entry:  # (still running)
            return Frame(i - 1)
        return None

    def f_locals(self):
        return _variables(*self.entry)

    def f_code(self):
        return Code(self.entry[0].name)

    def __repr__(self):
        return f"<frame object, code {self.entry[0].name}>"


Frame.language_attrs = {
    "f_back": Frame.f_back,
    "f_locals": Frame.f_locals,
    "f_code": Frame.f_code,
}


def currentframe():
    expand_frames()  # (the fast tier's running functions: functions.PendingFrames)
    if not frames:
        raise GradValueError(
            "inspect.currentframe() at the top level of the program",
            hint="gradcli gives the frames of the program's functions (as d2l's "
            "save_hyperparameters reads them), not the top level's",
        )
    return Frame(len(frames) - 1)


ArgInfo = namedtuple_class("ArgInfo", "args varargs keywords locals")


def getargvalues(frame):
    if type(frame) is not Frame:
        raise GradTypeError(f"getargvalues() wants a frame, not {type(frame).__name__}")
    fn, scope = frame.entry
    sig = fn.sig
    return ArgInfo(list(sig.params) + list(sig.kwonly), sig.star, sig.kwstar, _variables(fn, scope))


class Parameter:
    """One parameter of a Signature: `.name`, `.default` (inspect.Parameter.empty when
    it has none), `.kind` (its name, as `str(p.kind)` gives it)."""

    __slots__ = ("name", "default", "kind")
    language_attrs = {
        "name": lambda p: p.name,
        "default": lambda p: p.default,
        "kind": lambda p: p.kind,
    }

    def __init__(self, name, default, kind):
        self.name, self.default, self.kind = name, default, kind

    def text(self):
        star = {"VAR_POSITIONAL": "*", "VAR_KEYWORD": "**"}.get(self.kind, "")
        if self.default is _EMPTY:
            return star + self.name
        return f"{self.name}={show(self.default)}"

    language_str = True

    def __str__(self):
        return self.text()

    def __repr__(self):
        return f'<Parameter "{self.text()}">'

    def __eq__(self, other):
        return type(other) is Parameter and (self.name, self.default, self.kind) == (
            other.name,
            other.default,
            other.kind,
        )

    def __hash__(self):
        return hash((self.name, self.kind))


class _Empty:
    __slots__ = ()

    def __repr__(self):
        return "<class 'inspect._empty'>"


_EMPTY = _Empty()


class Signature:
    """inspect.signature(f) of a function of the program: `.parameters` (name ->
    Parameter, in order); it prints as Python prints it."""

    __slots__ = ("params",)
    language_attrs = {"parameters": lambda s: dict(s.params)}
    language_str = True

    def __init__(self, params):
        self.params = params

    def __str__(self):
        out, star_done = [], False
        items = list(self.params.values())
        for i, p in enumerate(items):
            if p.kind == "POSITIONAL_ONLY" and (
                i + 1 == len(items) or items[i + 1].kind != "POSITIONAL_ONLY"
            ):
                out.append(p.text())
                out.append("/")
                continue
            if p.kind == "KEYWORD_ONLY" and not star_done:
                out.append("*")
            if p.kind in ("VAR_POSITIONAL", "KEYWORD_ONLY"):
                star_done = True
            out.append(p.text())
        return "(" + ", ".join(out) + ")"

    def __repr__(self):
        return f"<Signature {self}>"


def signature(f):
    bound = type(f) is BoundUserMethod
    fn = f.fn if bound else f
    if type(fn) is not UserFunction:
        raise GradValueError(
            f"no signature found for {show(f)}",
            hint="inspect.signature reads the functions of the program",
        )
    sig, defaults = fn.sig, fn.defaults or {}
    params = {}
    for i, n in enumerate(sig.params):
        if bound and i == 0:
            continue  # the bound object's parameter, as Python leaves it out
        kind = "POSITIONAL_ONLY" if i < sig.posonly else "POSITIONAL_OR_KEYWORD"
        params[n] = Parameter(n, defaults.get(n, _EMPTY), kind)
    if sig.star:
        params[sig.star] = Parameter(sig.star, _EMPTY, "VAR_POSITIONAL")
    for n in sig.kwonly:
        params[n] = Parameter(n, defaults.get(n, _EMPTY), "KEYWORD_ONLY")
    if sig.kwstar:
        params[sig.kwstar] = Parameter(sig.kwstar, _EMPTY, "VAR_KEYWORD")
    return Signature(params)


def _isfunction(x):
    return type(x) is UserFunction


def _ismethod(x):
    return type(x) is BoundUserMethod


def _isclass(x):
    return isinstance(x, type) or id(x) in CLASS_NAMES  # (the language's int, list ...)


def _isbuiltin(x):
    return type(x) in (BuiltinFunction, BoundMethod)


def getdoc(obj):
    """inspect.getdoc(obj): its docstring with the indentation cleaned (inspect.cleandoc),
    None when it has none; a class of the program without one takes its bases' (as
    Python's), an object of one its class's own."""
    if type(obj) is BoundUserMethod:
        obj = obj.fn
    if type(obj) is UserFunction:
        doc = obj.doc
    else:
        cls = obj if isinstance(obj, type) else type(obj)
        if not is_user_class(cls):
            try:
                doc = name_attr(obj, "__doc__")
            except GradError:
                return None
        elif cls is not obj:
            doc = cls.__dict__.get("__doc__")
        else:
            doc = next(
                (c.__dict__["__doc__"] for c in cls.__mro__ if c.__dict__.get("__doc__")), None
            )
    return _inspect.cleandoc(doc) if isinstance(doc, str) else None


def cleandoc(doc):
    if not isinstance(doc, str):
        raise GradTypeError(f"'{type(doc).__name__}' object has no attribute 'expandtabs'")
    return _inspect.cleandoc(doc)


def make_module():
    return StdModule(
        "inspect",
        {
            "currentframe": BuiltinFunction("inspect.currentframe", currentframe),
            "getargvalues": BuiltinFunction("inspect.getargvalues", getargvalues),
            "signature": BuiltinFunction("inspect.signature", signature),
            "isclass": BuiltinFunction("inspect.isclass", _isclass),
            "isfunction": BuiltinFunction("inspect.isfunction", _isfunction),
            "ismethod": BuiltinFunction("inspect.ismethod", _ismethod),
            "isbuiltin": BuiltinFunction("inspect.isbuiltin", _isbuiltin),
            "getdoc": BuiltinFunction("inspect.getdoc", getdoc),
            "cleandoc": BuiltinFunction("inspect.cleandoc", cleandoc),
            "Parameter": StdModule("inspect.Parameter", {"empty": _EMPTY}),
        },
    )
