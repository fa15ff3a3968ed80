"""Postfix expressions: calls (with their argument errors placed at the call or
at the keyword), attribute access and subscripts."""

from __future__ import annotations

from .parser import Tree

from ..runtime.errors import GradError, GradSyntaxError, GradTypeError
from ..core.convert import type_name
from ..core.tensor import Tensor
from ..ops.indexing import index
from . import runtime as rt
from .callsites import function_site, method_site
from .classes import direct_name
from .arity import BareName, MethodName
from .invoke import call
from .iteration import py_index, spread
from .positions import located, pos, syntax_error
from .state import state

_MISSING = object()


def _not_alone(arguments, genexp) -> bool:
    """Whether an unparenthesized generator expression shares its argument list with
    another argument or with a trailing comma (the list's end lies past its own)."""
    if len(arguments.children) > 1:
        return True
    end = getattr(arguments.meta, "end_pos", None)
    return end is not None and end > genexp.meta.end_pos


class Calls:
    """Compiles calls, attributes and subscripts (mixed into the Compiler)."""

    def _arguments(self, node):
        """(args(s) -> list, kwargs(s) -> dict) for an argument list, with *a and **k."""
        parts, kw, starred = [], [], False
        given = [a for a in node.children if a is not None] if node is not None else []
        for a in given:
            kind = a.data if isinstance(a, Tree) else None
            if kind == "genexp" and pos(a) == pos(a.children[0]) and _not_alone(node, a):
                # f(x for x in y, 1) or f(x for x in y,): no parenthesis of its own
                raise syntax_error("Generator expression must be parenthesized", a)
            if kind == "kwarg":
                if any(n == a.children[0].value for n, _ in kw if n is not None):
                    raise GradSyntaxError(
                        f"keyword argument repeated: {a.children[0].value}", *pos(a.children[0])
                    )
                kw.append((a.children[0].value, self.expr(a.children[1])))
            elif kind == "kwstar_arg":
                starred = True
                kw.append((None, self.expr(a.children[1])))
            elif kind == "star_arg":
                if any(n is None for n, _ in kw):
                    raise syntax_error(
                        "iterable argument unpacking follows keyword argument unpacking", a
                    )
                starred = True
                parts.append((True, self.expr(a.children[1])))
            else:
                if kw:
                    raise syntax_error("positional argument follows keyword argument", a)
                parts.append((False, self.expr(a)))
        if not starred:
            posargs = tuple(e for _, e in parts)
            names = tuple(kw)
            args = (lambda s: [p(s) for p in posargs]) if posargs else (lambda s: ())
            kwargs = (lambda s: {n: e(s) for n, e in names}) if names else (lambda s: {})
            args.plain = None if names else posargs  # only positional: callsites.py
            return args, kwargs

        def args(s):
            return spread(parts, s)

        def kwargs(s):
            out = {}
            for n, e in kw:
                if n is not None:
                    if n in out:
                        raise GradTypeError(f"got multiple values for keyword argument '{n}'")
                    out[n] = e(s)
                    continue
                d = e(s)
                if not isinstance(d, dict):
                    raise GradTypeError(f"argument after ** must be a mapping, not {type_name(d)}")
                for k, v in d.items():
                    if not isinstance(k, str):
                        raise GradTypeError("keywords must be strings")
                    if k in out:
                        raise GradTypeError(f"got multiple values for keyword argument '{k}'")
                    out[k] = v
            return out

        return args, kwargs

    def call_value(self, fn, v, line, col):
        """fn(v), as a decorator is applied."""
        return call(fn, (v,), {}, None, line, col)

    def e_call(self, node):
        func, args = node.children
        if (
            isinstance(func, Tree)
            and func.data == "name"
            and func.children[0].value == "super"
            and args is None
        ):
            run = self.zero_arg_super(node)
            if run is not None:
                return self._guard(run, node)
        posargs, kw = self._arguments(args)
        line, col = pos(node)
        kwpos = {
            a.children[0].value: pos(a.children[0])
            for a in (args.children if args else ())
            if isinstance(a, Tree) and a.data == "kwarg"
        }
        if isinstance(func, Tree) and func.data == "getattr":
            obj = self.expr(func.children[0])
            attr_tok = func.children[1]
            plain = getattr(posargs, "plain", None)
            run = (
                self._method_call(obj, attr_tok, posargs, kw, kwpos)
                if plain is None
                else method_site(obj, attr_tok.value, plain, attr_tok.line, attr_tok.column, kwpos)
            )
            if attr_tok.value == "backward":
                return _with_backward_hint(run, plain_name(func.children[0]), "method")
            return run
        f = self.expr(func)
        fname = _callee_name(func)
        plain = getattr(posargs, "plain", None)

        def run(s):
            fn = f(s)
            a = posargs(s)
            k = kw(s)
            state.line = line  # print(f(x)): the print's line, not f's last one
            return call(fn, a, k, fname, line, col, kwpos)

        if plain is not None:
            run = function_site(f, plain, fname, line, col, kwpos)
        if fname == "backward" and args is not None and args.children:
            return _with_backward_hint(run, plain_name(args.children[0]), "call")
        return run

    def _method_call(self, obj, attr_tok, posargs, kw, kwpos=None):
        attr = attr_tok.value
        methods = rt.METHODS
        aline, acol = attr_tok.line, attr_tok.column
        mattr = MethodName(attr)

        def run(s):
            o = obj(s)
            a = posargs(s)
            k = kw(s)
            if type(o) is Tensor:
                m = methods.get(attr)
                if m is not None:
                    return call(m, (o, *a), k, mattr, aline, acol, kwpos)
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
        # a variable of this scope is read in place (by obj when absent), as fastops.py
        name = getattr(obj, "var_name", None)
        if attr == "grad":  # a leaf's .grad (the training loop's update)

            def run_grad(s):
                o = s.vars.get(name, obj)
                if o is obj:
                    o = obj(s)
                t = type(o)
                if t is Tensor:
                    if o.grad_fn is None:
                        return o.grad
                elif getattr(t, "__gradcli_plain__", False):  # (micrograd's Value.grad)
                    v = o.__dict__.get(attr, _MISSING)
                    if v is not _MISSING:
                        return v
                try:
                    return get(o, attr)
                except Exception as e:
                    raise located(e, line, col) from None

            return run_grad

        if direct_name(attr):

            def run_plain(s):
                o = s.vars.get(name, obj)
                if o is obj:
                    o = obj(s)
                if getattr(
                    type(o), "__gradcli_plain__", False
                ):  # an instance's own variable: as is
                    v = o.__dict__.get(attr, _MISSING)
                    if v is not _MISSING:
                        return v
                try:
                    return get(o, attr)
                except Exception as e:
                    raise located(e, line, col) from None

            return run_plain

        def run(s):
            o = obj(s)
            try:
                return get(o, attr)
            except Exception as e:
                raise located(e, line, col) from None

        return run

    def _subscript_key(self, subs):
        """The closure of what is between the brackets (a tuple for `a, b`)."""
        items = [self.expr(c) for c in subs.children if c is not None]
        if len(items) == 1 and len(subs.children) == 1:
            return items[0]
        return lambda s: tuple(i(s) for i in items)

    def e_getitem(self, node):
        obj, subs = node.children
        o = self.expr(obj)
        key = self._subscript_key(subs)
        line, col = pos(subs)

        def run(s):
            v = o(s)
            k = key(s)
            try:
                if type(v) is Tensor:
                    return index(v, k)
                return py_index(v, k)
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
        return BareName(func.children[0].value)
    if isinstance(func, Tree) and func.data == "getattr":
        return func.children[1].value
    return None


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
            err.hint = (
                f"reduce it to a scalar first, {n}.sum().backward() or "
                f"{n}.mean().backward(), or give a gradient of {n}'s shape: "
                f"{n}.backward(ones_like({n}))"
            )
        elif name:
            err.hint = (
                f"reduce it to a scalar first, backward sum({name}) or backward "
                f"mean({name}), or give a gradient of {name}'s shape: "
                f"backward {name}, ones_like({name})"
            )
        else:
            err.hint = (
                "reduce it to a scalar first, backward sum(...) or backward mean(...), "
                "or give a gradient of the same shape: backward ..., gradient"
            )
    return err


def _with_backward_hint(run, name, form):
    def hinted(s):
        try:
            return run(s)
        except GradError as e:
            raise backward_hint(e, name, form)

    return hinted
