"""Forms of calls and expressions in the fast tier (fast_tier.py) that run what the
closure compiler runs for them, with its evaluation order and its errors' places:

- `obj.m(a, k=v)`: a method call with keywords (no `*`, `**`): the object, the
  positional arguments, then the keywords' values in order, then calls.py's general
  method call (a tensor's method from the table, anything else through `get_attr`
  and `invoke.call`), placed at the attribute's name, a keyword's error at it.
- `super()` (no arguments) in a method: the class the method was defined in (the
  function's `cell`, as the closure compiler's hidden local holds it) and the
  method's first argument, `classes.Super` of the two, placed at the call."""

from __future__ import annotations

import ast

import sys

from ..core.tensor import Tensor
from ..runtime.errors import GradError
from . import runtime as rt
from .arity import MethodName
from .classes import Super, direct_name, plain_class_attr
from .fast_ast import Unsupported, _call, _h, _pos, at
from .fast_support import framed as in_frames
from .functions import BoundUserMethod, UserFunction
from .invoke import call, call_failed
from .names import NAME_ATTRS
from .parser import Token, Tree


def method_keywords(attr, line, col, kwpos, in_function):
    """`o.attr(*a, **k)` as calls.py's `_method_call` runs it, its operands computed:
    a tensor's method from the table; a method of a plain class of the program (not
    shadowed by the instance's variable) or one that `super()` finds, called as its
    bound method (callsites._other_method's case), directly when it has a fast
    function; anything else through `get_attr` and `call` (from a fast function with
    its running frames made, as for its other calls: fast_support.framed)."""
    methods = rt.METHODS
    mattr = MethodName(attr)
    plain = direct_name(attr)
    by_super = attr not in NAME_ATTRS and attr != "__class__"  # (get_attr: Super.get)

    def general(o, a, k):
        try:
            fn = rt.get_attr(o, attr)
        except GradError as e:
            raise e.at(line, col)
        return call(fn, a, k, attr, line, col, kwpos)

    def run(o, a, k):
        t = type(o)
        if t is Tensor:
            m = methods.get(attr)
            if m is not None:
                return call(m, (o, *a), k, mattr, line, col, kwpos)
        elif plain and getattr(t, "__gradcli_plain__", False):
            if attr not in o.__dict__:
                f = plain_class_attr(t, attr)
                if type(f) is UserFunction and f.fast is not None:
                    try:
                        return f(o, *a, **k)
                    except Exception as e:
                        return call_failed(e, BoundUserMethod(f, o), a, k, attr, line, col, kwpos)
        elif t is Super and by_super:
            try:
                fn = o.get(attr)
            except GradError as e:
                raise e.at(line, col)
            if type(fn) is BoundUserMethod and fn.fn.fast is not None:
                try:
                    return fn.fn(fn.obj, *a, **k)
                except Exception as e:
                    return call_failed(e, fn, a, k, attr, line, col, kwpos)
            if in_function:
                return in_frames(sys._getframe(1), call, fn, a, k, attr, line, col, kwpos)
            return call(fn, a, k, attr, line, col, kwpos)
        if in_function:
            return in_frames(sys._getframe(1), general, o, a, k)
        return general(o, a, k)

    return run


def _keyword_arguments(args):
    """(positional argument nodes, [(keyword token, value node)]) of a call's argument
    list of plain arguments and keywords, or Unsupported."""
    parts, kws = [], []
    for a in args.children if args is not None else ():
        if a is None:
            continue
        if not isinstance(a, Tree) or a.data in ("star_arg", "kwstar_arg", "starargs"):
            raise Unsupported("star argument")
        if a.data == "kwarg":
            key = a.children[0]
            if any(k.value == key.value for k, _ in kws):
                raise Unsupported("a keyword given twice")  # (the closure's SyntaxError)
            kws.append((key, a.children[1]))
        elif kws or a.data == "argvalue":
            raise Unsupported("argument")
        else:
            parts.append(a)
    return parts, kws


class FastForms:
    """Keyword method calls and super() (mixed into fast_tier.Emitter)."""

    @staticmethod
    def keywords_or_super(node):
        """Whether the method call `node` has keywords or calls a method of `super()`."""
        (obj_node, _), args = node.children[0].children, node.children[1]
        if args is not None and any(
            isinstance(a, Tree) and a.data == "kwarg" for a in args.children
        ):
            return True
        return (
            isinstance(obj_node, Tree)
            and obj_node.data == "call"
            and obj_node.children[1] is None
            and isinstance(obj_node.children[0], Tree)
            and obj_node.children[0].data == "name"
            and obj_node.children[0].children[0].value == "super"
        )

    def method_keyword_call(self, node):
        """`obj.attr(a, k=v)`, `super().attr(a)`: see the module's docstring."""
        if self.cached:
            raise Unsupported("a call in a loop whose variables are cached")
        func, args = node.children
        obj_node, tok = func.children
        attr = tok.value
        if attr == "backward":  # (calls.py adds a hint to its errors)
            raise Unsupported("backward")
        parts, kws = _keyword_arguments(args)
        obj = self.expr(obj_node)
        pos_args = [self.expr(p) for p in parts]
        values = [self.expr(v) for _, v in kws]
        self.calls = True  # (a comprehension then goes through a list one item at a time)
        kwpos = {k.value: (k.line, k.column) for k, _ in kws}
        line, col = tok.line, tok.column
        run = method_keywords(attr, line, col, kwpos, self.info is not None)
        site = self.const(run, f"kwmethod_{self.tmp()[2:]}")
        a = ast.Tuple(elts=pos_args, ctx=ast.Load())
        k = ast.Dict(keys=[ast.Constant(t.value) for t, _ in kws], values=values)
        return at(_call(site, obj, a, k), line, col)

    def zero_arg_super(self, node):
        """`super()` directly in a method (not in a function defined in one)."""
        info = self.info
        if (
            info is None
            or info.kind != "function"
            or info.parent is None
            or info.parent.kind != "class"
            or info.first_param is None
            or self.enclosing
        ):
            raise Unsupported("super() outside a method")
        self.consts["@Super"] = Super
        cls = ast.Subscript(
            value=ast.Attribute(value=_h("me"), attr="cell", ctx=ast.Load()),
            slice=ast.Constant(0),
            ctx=ast.Load(),
        )
        line, col = _pos(node)
        first = self.load(Token("NAME", info.first_param, line=line, column=col))
        return at(_call(_h("Super"), cls, first), line, col)
