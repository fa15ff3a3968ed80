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
from .functions import UserFunction
from .arity import MethodName
from .invoke import call, call_failed
from .state import state


def method_site(obj, attr, parts, line, col, kwpos):
    """The closure of `obj.attr(p0, p1 ...)` (plain positional arguments `parts`):
    a tensor's method from the table (called directly when it is a plain function),
    anything else through `get_attr` and `call`, as calls.py's general method call does."""
    get = METHODS.get

    def other(o, a):  # not a tensor's method: the general path
        try:
            fn = rt.get_attr(o, attr)
        except GradError as e:
            raise e.at(line, col)
        return call(fn, a, {}, attr, line, col, kwpos)

    n = len(parts)
    mattr = MethodName(attr)  # a tensor's method (language/arity.py tells the forms apart)
    if n == 0:

        def run0(s):
            o = obj(s)
            if type(o) is Tensor:
                m = get(attr)
                if type(m) is FunctionType:
                    try:
                        return m(o)
                    except Exception as e:
                        return call_failed(e, m, (o,), {}, mattr, line, col, kwpos)
                if m is not None:
                    return call(m, (o,), {}, mattr, line, col, kwpos)
            return other(o, ())

        return run0
    if n == 1:
        (p0,) = parts

        def run1(s):
            o = obj(s)
            v0 = p0(s)
            if type(o) is Tensor:
                m = get(attr)
                if type(m) is FunctionType:
                    try:
                        return m(o, v0)
                    except Exception as e:
                        return call_failed(e, m, (o, v0), {}, mattr, line, col, kwpos)
                if m is not None:
                    return call(m, (o, v0), {}, mattr, line, col, kwpos)
            return other(o, [v0])

        return run1

    def run(s):
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


def function_site(f, parts, name, line, col, kwpos):
    """The closure of `f(p0, p1 ...)` (plain positional arguments `parts`): a built-in
    that is a plain Python function, or a function of the program, called directly
    (both are callable, neither is a class: `call`'s check has nothing to refuse),
    anything else through `call`."""
    n = len(parts)
    if n == 1:
        (p0,) = parts

        def run1(s):
            fn = f(s)
            v0 = p0(s)
            state.line = line  # print(f(x)): the print's line, not f's last one
            if type(fn) is FunctionType or type(fn) is UserFunction:
                try:
                    return fn(v0)
                except Exception as e:
                    return call_failed(e, fn, [v0], {}, name, line, col, kwpos)
            return call(fn, [v0], {}, name, line, col, kwpos)

        return run1
    if n == 2:
        p0, p1 = parts

        def run2(s):
            fn = f(s)
            v0 = p0(s)
            v1 = p1(s)
            state.line = line
            if type(fn) is FunctionType or type(fn) is UserFunction:
                try:
                    return fn(v0, v1)
                except Exception as e:
                    return call_failed(e, fn, [v0, v1], {}, name, line, col, kwpos)
            return call(fn, [v0, v1], {}, name, line, col, kwpos)

        return run2

    def run(s):
        fn = f(s)
        a = [p(s) for p in parts] if parts else ()  # as calls.py's argument closures
        state.line = line
        if type(fn) is FunctionType or type(fn) is UserFunction:
            try:
                return fn(*a)
            except Exception as e:
                return call_failed(e, fn, a, {}, name, line, col, kwpos)
        return call(fn, a, {}, name, line, col, kwpos)

    return run
