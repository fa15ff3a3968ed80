"""Postfix expressions: calls (with their argument errors placed at the call or
at the keyword), attribute access and subscripts."""
from __future__ import annotations

import inspect
import re

from lark import Tree

from ..base.errors import GradError, GradSyntaxError, GradTypeError, did_you_mean
from ..core.convert import type_name
from ..core.tensor import Tensor
from ..ops.shape import index
from . import runtime as rt
from .iteration import py_index
from . import positions
from .positions import located, pos
from .state import state


class Calls:
    """Compiles calls, attributes and subscripts (mixed into the Compiler)."""

    def _arguments(self, node):
        """(positional closures, [(name, closure)])."""
        posargs, kw = [], []
        if node is None:
            return posargs, kw
        for a in node.children:
            if a is None:
                continue
            if isinstance(a, Tree) and a.data == "kwarg":
                if any(n == a.children[0].value for n, _ in kw):
                    raise GradSyntaxError(f"keyword argument repeated: {a.children[0].value}",
                                          *pos(a.children[0]))
                kw.append((a.children[0].value, self.expr(a.children[1])))
            else:
                if kw:
                    line, col = pos(a)
                    raise GradSyntaxError("positional argument follows keyword argument",
                                          line, col)
                posargs.append(self.expr(a))
        return posargs, kw

    def e_call(self, node):
        func, args = node.children
        posargs, kw = self._arguments(args)
        line, col = pos(node)
        kwpos = {a.children[0].value: pos(a.children[0]) for a in (args.children if args else ())
                 if isinstance(a, Tree) and a.data == "kwarg"}
        if isinstance(func, Tree) and func.data == "getattr":
            obj = self.expr(func.children[0])
            attr_tok = func.children[1]
            run = self._method_call(obj, attr_tok, posargs, kw, kwpos)
            if attr_tok.value == "backward":
                return _with_backward_hint(run, plain_name(func.children[0]), "method")
            return run
        f = self.expr(func)
        fname = _callee_name(func)

        def run(s):
            fn = f(s)
            a = [p(s) for p in posargs] if posargs else ()
            k = {n: e(s) for n, e in kw} if kw else {}
            state.line = line      # print(f(x)): the print's line, not f's last one
            return call(fn, a, k, fname, line, col, kwpos)
        if fname == "backward" and args is not None and args.children:
            return _with_backward_hint(run, plain_name(args.children[0]), "call")
        return run

    def _method_call(self, obj, attr_tok, posargs, kw, kwpos=None):
        attr = attr_tok.value
        methods = rt.METHODS
        aline, acol = attr_tok.line, attr_tok.column

        def run(s):
            o = obj(s)
            a = [p(s) for p in posargs] if posargs else ()
            k = {n: e(s) for n, e in kw} if kw else {}
            if type(o) is Tensor:
                m = methods.get(attr)
                if m is not None:
                    return call(m, (o, *a), k, attr, aline, acol, kwpos)
            try:
                fn = rt.get_attr(o, attr)
            except GradError as e:
                raise e.at(aline, acol)
            return call(fn, a, k, attr, aline, acol, kwpos)
        return run

    def e_getattr(self, node):
        obj = self.expr(node.children[0])
        tok = node.children[1]
        attr = tok.value
        line, col = tok.line, tok.column
        get = rt.get_attr

        def run(s):
            o = obj(s)
            try:
                return get(o, attr)
            except Exception as e:
                raise located(e, line, col) from None
        return run

    def e_getitem(self, node):
        obj, subs = node.children
        o = self.expr(obj)
        items = [self.expr(c) for c in subs.children if c is not None]
        single = len(items) == 1 and len(subs.children) == 1
        line, col = pos(subs)

        def run(s):
            v = o(s)
            key = items[0](s) if single else tuple(i(s) for i in items)
            try:
                if type(v) is Tensor:
                    return index(v, key)
                return py_index(v, key)
            except Exception as e:
                raise located(e, line, col) from None
        return run

    def e_slice(self, node):
        parts = [self.expr(c) if c is not None else None for c in node.children]
        while len(parts) < 3:
            parts.append(None)
        a, b, c = parts
        return lambda s: slice(a(s) if a else None, b(s) if b else None, c(s) if c else None)

    def e_kwarg(self, node):
        line, col = pos(node)
        raise GradSyntaxError("keyword argument outside a call", line, col)


def _callee_name(func):
    if isinstance(func, Tree) and func.data == "name":
        return func.children[0].value
    if isinstance(func, Tree) and func.data == "getattr":
        return func.children[1].value
    return None


def call(fn, args, kwargs, name, line, col, kwpos=None):
    """fn(*args, **kwargs) with its errors placed at the call (or at a keyword)."""
    if not callable(fn) or isinstance(fn, (type,)):
        raise GradTypeError(f"'{type_name(fn)}' object is not callable", line, col)
    try:
        return fn(*args, **kwargs)
    except GradError as e:
        if name and e.line is None and e.message.startswith("argument '"):
            e.message = f"{name}(): {e.message}"      # PyTorch names the function
        raise e.at(*_kw_pos(e, kwpos, line, col))
    except TypeError as e:
        err = _call_type_error(e, fn, name, kwargs)
        raise err.at(*_kw_pos(err, kwpos, line, col)) from None
    except Exception as e:
        raise located(e, line, col) from None


def _kw_pos(err, kwpos, line, col):
    """An unexpected keyword argument is pointed at where it is written."""
    if kwpos and err.line is None and "keyword argument '" in err.message:
        k = err.message.rsplit("keyword argument '", 1)[1].split("'")[0]
        return kwpos.get(k, (line, col))
    return line, col


def plain_name(node):
    """The variable name if node is just a name (for hints), else None."""
    if isinstance(node, Tree) and node.data == "name":
        return node.children[0].value
    return None


def backward_hint(err, name, form):
    """The non-scalar backward error, with a hint that names the variable."""
    if "implicitly created only for scalar outputs" in err.message:
        if form == "method":
            n = name or "y"
            err.hint = (f"reduce it to a scalar first, {n}.sum().backward() or "
                        f"{n}.mean().backward(), or give a gradient of {n}'s shape: "
                        f"{n}.backward(ones_like({n}))")
        elif name:
            err.hint = (f"reduce it to a scalar first, backward sum({name}) or backward "
                        f"mean({name}), or give a gradient of {name}'s shape: "
                        f"backward {name}, ones_like({name})")
        else:
            err.hint = ("reduce it to a scalar first, backward sum(...) or backward mean(...), "
                        "or give a gradient of the same shape: backward ..., gradient")
    return err


def _with_backward_hint(run, name, form):
    def hinted(s):
        try:
            return run(s)
        except GradError as e:
            raise backward_hint(e, name, form)
    return hinted


_ARITY = re.compile(r"(missing \d+ required positional argument.*|takes .* given|"
                    r"got multiple values for argument .*)")


def _call_type_error(e, fn, name, kwargs):
    msg = str(e)
    target = getattr(fn, "fn", fn)
    try:
        params = list(inspect.signature(target).parameters)
    except (TypeError, ValueError):
        params = []
    for k in kwargs:
        if f"'{k}'" in msg and "unexpected keyword" in msg:
            return GradTypeError(f"{name}() got an unexpected keyword argument '{k}'",
                                 hint=did_you_mean(k, [p for p in params
                                                       if p not in ("args", "kwargs")]))
    m = _ARITY.search(msg)
    if m:
        return GradTypeError(f"{name}() {m.group(1)}")
    return positions.translate_python_error(e)
