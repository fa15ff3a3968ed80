"""Call sites with only positional arguments (`y.sum()`, `x.pow(2)`, `loss.backward()`,
`mean(y)`, `torch.no_grad()`), compiled for their arity (the calls of a
training loop's body).

A general call (calls.py) evaluates its arguments into a list, its keywords into a
dict, checks the callee is callable and calls `fn(*args, **kwargs)`.  A call written
with n plain positional arguments and no keyword or star has neither keywords nor
unpacking to do: its closure evaluates the n arguments in order and calls the callee
with them, the same values in the same order.  The shortcut is taken only when the
callee is what the general path would certainly call without a question: a tensor's
method from the table (a plain Python function), a built-in that is a plain Python
function, or a function of the program.  Anything else (a class, a bound method, a
module's member, vmap's batched values ...) takes the general path, `invoke.call`,
with the arguments already evaluated.  A callee's exception is handled by the one rule
`invoke.call_failed`, so errors keep their messages and places."""

from __future__ import annotations

from types import FunctionType

from ..runtime.errors import GradError
from ..core.tensor import Tensor
from ..library.values import METHODS
from . import runtime as rt
from .classes import LanguageObject, direct_name, plain_class_attr
from .functions import BoundUserMethod, UserFunction, call_user
from .arity import MethodName
from .invoke import call, call_failed
from .state import state

_new = object.__new__


def _other_method(attr, line, col, kwpos):
    """other(o, args): `o.attr(*args)` for an `o` that is not a tensor."""
    plain = direct_name(attr)

    def other(o, a):  # not a tensor's method: the general path
        t = type(o)
        # (a plain class derives from LanguageObject: any other type, a module or a
        # library class's metaclass, is not asked for the attribute it does not have)
        if plain and issubclass(t, LanguageObject) and getattr(t, "__gradcli_plain__", False):
            d = o.__dict__
            if attr in d:  # an instance's variable (micrograd's v._backward())
                return call(d[attr], a, {}, attr, line, col, kwpos)
            f = plain_class_attr(t, attr)
            if type(f) is UserFunction:  # a method of the program's class: called as
                # its bound method would call it, errors as the bound method's
                q = f.quick
                try:
                    if q is not None and len(q) == len(a) + 1:  # (call_user, inlined)
                        return f.run(dict(zip(q, (o, *a))))
                    return f(o, *a)
                except Exception as e:
                    return call_failed(e, BoundUserMethod(f, o), a, {}, attr, line, col, kwpos)
        try:
            fn = rt.get_attr(o, attr)
        except GradError as e:
            raise e.at(line, col)
        return call(fn, a, {}, attr, line, col, kwpos)

    return other


def method_site(obj, attr, parts, line, col, kwpos):
    """The closure of `obj.attr(p0, p1 ...)` (plain positional arguments `parts`):
    a tensor's method from the table (called directly when it is a plain function),
    a method of a plain class of the program called directly, anything else through
    `get_attr` and `call`, as calls.py's general method call does."""
    site = _Site(obj, attr, line, col, kwpos)
    if len(parts) == 0:
        return _method0(site)
    if len(parts) == 1:
        return _method1(site, parts[0])
    return _method_n(site, tuple(parts))


class _Site:
    """What a method call site's closure reads."""

    def __init__(self, obj, attr, line, col, kwpos):
        self.obj, self.attr, self.line, self.col, self.kwpos = obj, attr, line, col, kwpos
        self.oname = getattr(obj, "var_name", None)  # a variable read in place
        self.plain = direct_name(attr)  # (a plain class's method looked up directly)
        self.other = _other_method(attr, line, col, kwpos)
        self.mattr = MethodName(attr)  # a tensor's method (arity.py tells the forms apart)


def _method0(site):
    obj, attr, line, col, kwpos = site.obj, site.attr, site.line, site.col, site.kwpos
    oname, plain, other, mattr, get = site.oname, site.plain, site.other, site.mattr, METHODS.get

    def run0(s):
        o = s.vars.get(oname, obj)
        if o is obj:
            o = obj(s)
        t = type(o)
        if t is Tensor:
            m = get(attr)
            if type(m) is FunctionType:
                try:
                    return m(o)
                except Exception as e:
                    return call_failed(e, m, (o,), {}, mattr, line, col, kwpos)
            if m is not None:
                return call(m, (o,), {}, mattr, line, col, kwpos)
        elif plain and getattr(t, "__gradcli_plain__", False) and attr not in o.__dict__:
            f = t.__dict__.get(attr)  # (other, inlined: the class's own method first)
            if f is None:
                f = plain_class_attr(t, attr)
            q = f.quick if type(f) is UserFunction else None
            if q is not None and len(q) == 1:
                try:
                    return f.run({q[0]: o})
                except Exception as e:
                    return call_failed(e, BoundUserMethod(f, o), (), {}, attr, line, col, kwpos)
        return other(o, ())

    return run0


def _method1(site, p0):
    obj, attr, line, col, kwpos = site.obj, site.attr, site.line, site.col, site.kwpos
    oname, plain, other, mattr, get = site.oname, site.plain, site.other, site.mattr, METHODS.get

    def run1(s):
        o = s.vars.get(oname, obj)
        if o is obj:
            o = obj(s)
        v0 = p0(s)
        t = type(o)
        if t is Tensor:
            m = get(attr)
            if type(m) is FunctionType:
                try:
                    return m(o, v0)
                except Exception as e:
                    return call_failed(e, m, (o, v0), {}, mattr, line, col, kwpos)
            if m is not None:
                return call(m, (o, v0), {}, mattr, line, col, kwpos)
        elif plain and getattr(t, "__gradcli_plain__", False) and attr not in o.__dict__:
            f = t.__dict__.get(attr)  # (other, inlined: the class's own method first)
            if f is None:
                f = plain_class_attr(t, attr)
            q = f.quick if type(f) is UserFunction else None
            if q is not None and len(q) == 2:
                try:
                    return f.run({q[0]: o, q[1]: v0})
                except Exception as e:
                    return call_failed(e, BoundUserMethod(f, o), [v0], {}, attr, line, col, kwpos)
        return other(o, [v0])

    return run1


def _method_n(site, parts):
    obj, attr, line, col, kwpos = site.obj, site.attr, site.line, site.col, site.kwpos
    oname, other, mattr, get = site.oname, site.other, site.mattr, METHODS.get

    def run(s):
        o = s.vars.get(oname, obj)
        if o is obj:
            o = obj(s)
        a = [p(s) for p in parts]  # (n > 1)
        if type(o) is Tensor:
            m = get(attr)
            if m is not None:
                args = (o, *a)
                if type(m) is not FunctionType:
                    return call(m, args, {}, mattr, line, col, kwpos)
                try:
                    return m(*args)
                except Exception as e:
                    return call_failed(e, m, args, {}, mattr, line, col, kwpos)
        return other(o, a)

    return run


def make_plain(cls, args):
    """cls(*args) for a plain class of the program whose `__init__` is its own (a
    UserFunction), as `type.__call__` makes it; None when cls is not such a class."""
    init = plain_class_attr(cls, "__init__")
    if type(init) is not UserFunction:
        return None
    o = _new(cls)
    q = init.quick
    if q is not None and len(q) == len(args) + 1:  # (call_user, inlined)
        r = init.run(dict(zip(q, (o, *args))))
    else:
        r = init(o, *args)
    if r is not None:
        raise TypeError(f"__init__() should return None, not '{type(r).__name__}'")
    return o


def call_other(fn, args, name, line, col, kwpos):
    """fn(*args) for a callee that is not a function: a plain class of the program
    made here (`make_plain`), an object of one by its `__call__`, anything else by
    `call`."""
    t = type(fn)
    if t is type:
        if getattr(fn, "__gradcli_plain__", False):
            try:
                o = make_plain(fn, args)
            except Exception as e:
                return call_failed(e, fn, args, {}, name, line, col, kwpos)
            if o is not None:
                return o
    elif getattr(t, "__gradcli_plain__", False):  # an object of a plain class: its own __call__
        f = plain_class_attr(t, "__call__")
        if type(f) is UserFunction:
            try:
                return call_user(f, (fn, *args))
            except Exception as e:
                return call_failed(e, fn, args, {}, name, line, col, kwpos)
    return call(fn, args, {}, name, line, col, kwpos)


def function_site(f, parts, name, line, col, kwpos):
    """The closure of `f(p0, p1 ...)` (plain positional arguments `parts`): a built-in
    that is a plain Python function, or a function of the program, called directly
    (both are callable, neither is a class: `call`'s check has nothing to refuse),
    anything else through `call`."""
    # a variable of this scope or a global read in place (by f when absent, which
    # reports it); any other callee by f
    glob = getattr(f, "global_name", None)
    key = glob if glob is not None else getattr(f, "var_name", None)
    n = len(parts)
    if n == 1:
        (p0,) = parts

        def run1(s):
            fn = (s.globals or s).vars.get(key, f) if glob else s.vars.get(key, f)
            if fn is f:
                fn = f(s)
            v0 = p0(s)
            state.line = line  # print(f(x)): the print's line, not f's last one
            if type(fn) is UserFunction:
                q = fn.quick  # (its one parameter given: no binding to check)
                try:
                    if q is not None and len(q) == 1:
                        return fn.run({q[0]: v0})
                    return fn(v0)
                except Exception as e:
                    return call_failed(e, fn, [v0], {}, name, line, col, kwpos)
            if type(fn) is FunctionType:
                try:
                    return fn(v0)
                except Exception as e:
                    return call_failed(e, fn, [v0], {}, name, line, col, kwpos)
            return call_other(fn, [v0], name, line, col, kwpos)

        return run1
    if n == 2:
        p0, p1 = parts

        def run2(s):
            fn = (s.globals or s).vars.get(key, f) if glob else s.vars.get(key, f)
            if fn is f:
                fn = f(s)
            v0 = p0(s)
            v1 = p1(s)
            state.line = line
            if type(fn) is UserFunction:
                q = fn.quick
                try:
                    if q is not None and len(q) == 2:
                        return fn.run({q[0]: v0, q[1]: v1})
                    return fn(v0, v1)
                except Exception as e:
                    return call_failed(e, fn, [v0, v1], {}, name, line, col, kwpos)
            if type(fn) is FunctionType:
                try:
                    return fn(v0, v1)
                except Exception as e:
                    return call_failed(e, fn, [v0, v1], {}, name, line, col, kwpos)
            return call_other(fn, [v0, v1], name, line, col, kwpos)

        return run2

    def run(s):
        fn = (s.globals or s).vars.get(key, f) if glob else s.vars.get(key, f)
        if fn is f:
            fn = f(s)
        a = [p(s) for p in parts] if parts else ()  # as calls.py's argument closures
        state.line = line
        if type(fn) is UserFunction:
            try:
                return call_user(fn, a)
            except Exception as e:
                return call_failed(e, fn, a, {}, name, line, col, kwpos)
        if type(fn) is FunctionType:
            try:
                return fn(*a)
            except Exception as e:
                return call_failed(e, fn, a, {}, name, line, col, kwpos)
        return call_other(fn, a, name, line, col, kwpos)

    return run
