"""Objects in the fast tier (fast_tier.py): `obj.name`, `obj.name = v`, `obj.name(...)`
compiled to Python trees, each guarded for the common case, an object of a plain
class of the program (classes.PLAIN: its LOOKUP table is not None), and sent otherwise
to the functions the closure compiler's own code calls, so that every other kind of
object (tensors, modules, library objects, classes) gets exactly what it gets there.
A parameter the function never binds again has its class's table and the dict of its
variables read once per call (`unit`, `prologue`).

- `obj.name` (a name that is not a special method's): the instance's own variable,
  as calls.py's `run_plain` reads it; anything else `runtime.get_attr`.
- `obj.name = v`: Python's own store when the class is plain and none of its classes
  has an attribute `name` (classes.set_plain's case: the instance's variable);
  anything else as statements.py's `store_attr` stores it.
- `obj.name(a, b)`: a method of a plain class with a fast function called directly
  (callsites.py's `run0`/`run1` case), anything else as callsites.py's `method_site`
  calls it.  An error in such a method is a step of the call chain named by the
  method, as in Python's traceback (GradError.at).
- `C(a, b)`: an object of a plain class whose `__init__` has a fast function made as
  callsites.make_plain makes it (`class_call`).
- f-strings: their fields formatted as expressions._fmt_piece formats them.

Every node is placed at the attribute's name, where the closure compiler places
the errors of these operations (fast_support.fail)."""

from __future__ import annotations

import ast
from .calls import plain_name
from .classes import HASH_PLAIN, NAMES_KEY, direct_name, fast_key, fast_lookup, plain_lookup
from .expressions import _joined_text
from ..runtime.limits import SMALL
from .fast_calls import class_table
from .fast_ast import Unsupported, _and, _call, _h, _name, _or, _pos, at
from .fast_dispatch import (
    attr_reader,
    attr_writer,
    field_formatter,
    framed,
    framed_reader,
    hinted_caller,
    init_returned,
    repr_returned,
    method_caller,
)
from .fast_ast import _copy, _op_key
from .fast_dispatch import compare_method, compare_rest, inplace_rest, plain_first, refusal
from .datamodel import _DUNDER
from .fast_support import OWN_ATTR, augmented_op
from .parser import Tree, literal_value
from .scopes import FunctionInfo

#: inspect.currentframe(): the frame of a function running as the closure compiler
#: runs it (a fast function is a running frame only while it calls: fast_support)
FRAME_MAKER = "currentframe"


# ----------------------------------------------------------------- trees


def _attr(v, name):
    return ast.Attribute(value=v, attr=name, ctx=ast.Load())


def _simple(e):
    return isinstance(e, (ast.Name, ast.Constant))


class FastCalls:
    """The trees of method calls, objects made and repr (mixed into FastObjects: they
    use its lookups of an object's class)."""

    def method_call(self, node):
        """`obj.attr(a, b ...)` with positional arguments."""
        if self.cached:
            raise Unsupported("a call in a loop whose variables are cached")
        func, args = node.children
        obj_node, tok = func.children
        attr = tok.value
        if attr == FRAME_MAKER:
            raise Unsupported("a frame (a function's running frame is the closure's)")
        line, col = tok.line, tok.column
        if self.keywords_or_super(node):
            if attr == "backward":  # (calls.py adds a hint to its errors)
                raise Unsupported("backward")
            return self.method_keyword_call(node)  # (fast_forms.py)
        parts = []
        for a in args.children if args is not None else ():
            if a is None:
                continue
            if not isinstance(a, Tree) or a.data in (
                "kwarg",
                "star_arg",
                "kwstar_arg",
                "starargs",
                "argvalue",
            ):
                raise Unsupported("keyword or star argument")
            parts.append(self.expr(a))
        obj = self.expr(obj_node)
        self.calls = True  # (a comprehension then goes through a list one item at a time)
        site = self.const(method_caller(attr, line, col), f"method_{attr}_{self.tmp()[2:]}")
        if attr == "backward":  # its errors with calls.py's hint: the general call only
            hinted = hinted_caller(method_caller(attr, line, col), plain_name(obj_node))
            site = self.const(hinted, f"method_{attr}_{self.tmp()[2:]}")
            items = ast.Tuple(elts=parts, ctx=ast.Load())
            if self.info is None:
                return at(_call(site, obj, items), line, col)
            return at(_call(self.const(framed, "framed"), site, obj, items), line, col)
        _, _, tb, ty, nm, dd = self._base(obj, dd=True)
        if tb is not None:
            o, first = obj, []
        else:
            o = _name(self.tmp())
            first = [ast.NamedExpr(target=_name(o.id, ast.Store()), value=obj)]
        # the arguments computed before the method is looked up, as the closure does
        names = []
        for p in parts:
            if _simple(p):
                names.append(p)
            else:
                n = self.tmp()
                first.append(ast.NamedExpr(target=_name(n, ast.Store()), value=p))
                names.append(_name(n))
        f = self.tmp()
        checks = [_is_itself(e) for e in first]
        direct = None
        if attr in _GROWING and len(names) == 1 and isinstance(o, ast.Name):
            # (computed first, the object and its argument: the other branch takes them)
            known = _copy_name(ty) if tb is not None and isinstance(ty, ast.Name) else None
            direct, checks = self._growing(attr, o, names[0], checks, known), []
            if tb is None and len(first) == 1 and first[0].target.id == o.id:
                first = []  # (o computed by the test: `whose` reads it)
        if tb is None:
            ty, tb = _name(self.tmp()), _name(self.tmp())
            whose = _copy_name(o)
            if len(first) == 1 and first[0].target.id == o.id:  # (no argument: o computed here)
                checks, whose = [], first[0]
            checks.append(
                _is_not_none(
                    ast.NamedExpr(
                        target=_name(tb.id, ast.Store()),
                        value=self._table(
                            ast.NamedExpr(
                                target=_name(ty.id, ast.Store()), value=_call(_h("type"), whose)
                            )
                        ),
                    )
                )
            )
            dd = _attr(_copy_name(o), "__dict__")
        else:
            checks.append(_is_not_none(_copy_name(tb)))
        if nm is None:  # (tb is not None where it is read)
            nm = _names_of(tb)
        # (its class's method first: reading `__dict__` makes CPython build the dict of an
        # object that keeps its variables inline, which a name no class has never needs)
        checks += [
            self._fast_lookup(f, tb, ty, attr, len(parts) + 1),
            ast.Compare(left=ast.Constant(attr), ops=[ast.NotIn()], comparators=[dd]),
        ]
        fast = _placed(
            ast.Call(
                func=_name(f),
                args=[_copy_name(o), *[_copy_name(n) for n in names]],
                keywords=[],
            ),
            line,
            col,
        )
        items = ast.Tuple(elts=[_copy_name(n) for n in names], ctx=ast.Load())
        if self.info is None:
            slow = _call(site, _copy_name(o), items)
        else:  # (the running frames: as for a call of a name, fast_support.frame_call)
            slow = _call(self.const(framed, "framed"), site, _copy_name(o), items)
        # a function of the program kept in the instance (micrograd's v._backward()), a
        # name no class of its has: Python's own read of its variable (none: runtime.
        # get_attr's error, fast_support.OWN_ATTR), called as callsites' `other` calls
        # it, an error in it a step of the call chain
        g = self.tmp()
        own = _and(
            _is_not_none(_copy_name(tb)),
            ast.Compare(left=ast.Constant(attr), ops=[ast.NotIn()], comparators=[_copy(nm)]),
            *_fast_function(g, _own_attr(_copy_name(o), attr, line, col), len(parts)),
        )
        kept = ast.Call(
            func=_attr(_name(g), "fast"), args=[_copy_name(n) for n in names], keywords=[]
        )
        slow = ast.IfExp(test=own, body=kept, orelse=slow)
        # a list's, set's or dict's method, a function of a module (fast_calls.py)
        slow = self.builtin_methods(attr, o, names, ty, slow, line, col)
        out = ast.IfExp(test=_and(*checks), body=fast, orelse=slow)
        if direct is not None:
            test, call = direct
            out = ast.IfExp(test=test, body=call, orelse=out)
        return at(out, line, col)

    def _growing(self, attr, o, v, computed, ty=None):
        """(the test, the call) of `o.append(v)` for a list, `o.add(v)` for a set, run as
        Python's own in the generated code where fast_builtins' site (_append, _set_add)
        would call it: a list or set of fewer items than the items limit and than a look
        at the memory, a set's item one that Python hashes and compares running no code
        of the program (classes.HASH_PLAIN); `computed`: the object and argument's
        computations, made first; `ty`: the object's class, when read already."""
        kind = list if attr == "append" else set
        n = self.tmp()
        test = [
            *computed,
            _is(ty or _call(_h("type"), _copy_name(o)), self.const(kind, "type_" + kind.__name__)),
        ]
        if kind is set:
            hashes = self.const(HASH_PLAIN, "hash_plain")
            test.append(
                ast.Compare(
                    left=_call(_h("type"), _copy_name(v)), ops=[ast.In()], comparators=[hashes]
                )
            )
        size = ast.NamedExpr(
            target=_name(n, ast.Store()), value=_call(self.const(len, "len"), _copy_name(o))
        )
        limit = _attr(_attr(_attr(_h("context"), "current"), "limits"), "max_items")
        test += [
            ast.Compare(left=size, ops=[ast.Lt()], comparators=[ast.Constant(SMALL - 1)]),
            ast.Compare(left=_name(n), ops=[ast.Lt()], comparators=[limit]),
        ]
        call = ast.Call(func=_attr(_copy_name(o), attr), args=[_copy_name(v)], keywords=[])
        return _and(*test), call

    def class_call(self, f, ft, parts, slow, name, line, col, test, fast):
        """`f(*parts)`: `fast` when `test` (a function with a fast function: the
        callee's value computed there, the variable f, its type ft), else an object of
        a plain class whose `__init__` has a fast function made here, as
        callsites.make_plain makes it, anything else `slow` (which computes the
        arguments itself: `parts` are computed in one branch only).  The class's
        `__init__` is looked up before the arguments are computed (only a dataclass's
        decorator sets one after the class is made).  A call of `repr` tests for the
        built-in first (_repr_call)."""
        made = self._made(f, ft, parts, slow, name, line, col)
        if self.consts.get(name.id) != "repr" or len(parts) != 1:
            return ast.IfExp(test=test, body=fast, orelse=made)
        callee = _name(f)

        class Taken(ast.NodeTransformer):  # (the callee's computation, for the first test)
            def visit_NamedExpr(self, node):
                nonlocal callee
                if node.target.id == f:
                    callee = node
                    return _name(f)
                return self.generic_visit(node)

        test = Taken().visit(test)
        return self._repr_call(
            f, callee, parts, ast.IfExp(test=test, body=fast, orelse=made), name, line, col
        )

    def _made(self, f, ft, parts, slow, name, line, col):
        """class_call's object of a plain class, else `slow`."""
        self.calls = True  # (a comprehension then goes through a list one item at a time)
        i, o, r, tb = self.tmp(), self.tmp(), self.tmp(), self.tmp()
        firsts, names = [], []
        for p in parts:
            if _simple(p):
                firsts.append(p)
                names.append(_copy_name(p))
            else:
                n = self.tmp()
                firsts.append(ast.NamedExpr(target=_name(n, ast.Store()), value=p))
                names.append(_name(n))
        test = _and(
            _is(_name(ft), self.const(type, "type_type")),
            _is_not_none(ast.NamedExpr(target=_name(tb, ast.Store()), value=self._table(_name(f)))),
            self._fast_lookup(i, _name(tb), _name(f), "__init__", len(parts) + 1),
        )
        new = ast.NamedExpr(
            target=_name(o, ast.Store()), value=_call(self.const(object.__new__, "new"), _name(f))
        )
        init = _placed(ast.Call(func=_name(i), args=[new, *firsts], keywords=[]), line, col)
        made = ast.IfExp(
            test=_is(ast.NamedExpr(target=_name(r, ast.Store()), value=init), ast.Constant(None)),
            body=_name(o),
            orelse=_call(
                self.const(init_returned, "init_returned"),
                _name(f),
                ast.Tuple(elts=names, ctx=ast.Load()),
                _name(r),
                name,
                ast.Constant(line),
                ast.Constant(col),
            ),
        )
        return ast.IfExp(test=test, body=made, orelse=self._called(f, ft, parts, slow, line, col))

    def _called(self, f, ft, parts, slow, line, col):
        """_made's object of a plain class whose `__call__` (its class's) has a fast
        function: that called with the object and the arguments, as
        callsites.call_other calls it (an error out of it a step of the call chain
        named `__call__`, as in Python's traceback), else `slow`."""
        c, tb = self.tmp(), self.tmp()
        test = _and(
            _is_not_none(
                ast.NamedExpr(target=_name(tb, ast.Store()), value=self._table(_name(ft)))
            ),
            self._fast_lookup(c, _name(tb), _name(ft), "__call__", len(parts) + 1),
        )
        call = ast.Call(func=_name(c), args=[_name(f), *[_copy(p) for p in parts]], keywords=[])
        return ast.IfExp(test=test, body=_placed(call, line, col), orelse=slow)

    def _repr_call(self, f, callee, parts, slow, name, line, col):
        """`repr(v)` (the callee computed by `callee`) of an object of a plain class
        whose `__repr__` has a fast function: called here as the built-in
        (core.printing.show: Python's repr) calls it, its text checked as Python's repr
        checks it; anything else `slow` (the callee computed)."""
        builtin = self.comp.builtins.get("repr")
        if builtin is None:
            return slow
        a, tb, ty, rf, r = (self.tmp() for _ in range(5))
        general = "plain_call" if self.info is None else "frame_call"
        given = _call(  # (the same call of the value computed here)
            _h(general),
            _name(f),
            ast.Tuple(elts=[_name(a)], ctx=ast.Load()),
            name,
            ast.Constant(line),
            ast.Constant(col),
        )
        test = _and(
            _is_not_none(
                ast.NamedExpr(
                    target=_name(tb, ast.Store()),
                    value=self._table(
                        ast.NamedExpr(
                            target=_name(ty, ast.Store()),
                            value=_call(
                                _h("type"),
                                ast.NamedExpr(target=_name(a, ast.Store()), value=parts[0]),
                            ),
                        )
                    ),
                )
            ),
            self._fast_lookup(rf, _name(tb), _name(ty), "__repr__", 1),
        )
        text = _placed(ast.Call(func=_name(rf), args=[_name(a)], keywords=[]), line, col)
        direct = ast.IfExp(
            test=_is(
                _call(_h("type"), ast.NamedExpr(target=_name(r, ast.Store()), value=text)),
                _h("str"),
            ),
            body=_name(r),
            orelse=_call(
                self.const(repr_returned, "repr_returned"),
                _name(f),
                _name(a),
                _name(r),
                name,
                ast.Constant(line),
                ast.Constant(col),
            ),
        )
        return ast.IfExp(
            test=_is(callee, self.const(builtin, "repr_builtin")),
            body=ast.IfExp(test=test, body=direct, orelse=given),
            orelse=slow,
        )


class FastOperators:
    """The operators' trees for objects of plain classes (mixed into FastObjects: they
    use its lookups of an object's class)."""

    def left_constant(self, op, a, b, ac, fallback, augmented, line, col):
        """`a op b` that the number guards leave whole (fast_ast.binop): for a number
        constant a, object_op's reflected case, else fallback(a, b)."""
        if type(ac) in (int, float, bool):
            return self.object_op(op, a, b, None, fallback, augmented, line, col, True)
        return _call(fallback, a, b)

    def right_constant(self, op, a, b, bc, t, fallback, augmented, line, col):
        """`a op b` that fast_ast.binop's guard for a float constant b leaves (t: the
        variable holding a's type): object_op's case for `+ - *`, else fallback(a, b)."""
        if type(bc) is float and op in ("+", "-", "*"):
            return self.object_op(op, a, b, t, fallback, augmented, line, col)
        return _call(fallback, a, b)

    def object_unary(self, op, v, t, line, col):
        """`-v` where the number guard leaves it (t: the variable holding v's type): an
        object of a plain class whose `__neg__` has a fast function gets its answer,
        called here as Python's operator calls it (whatever it returns); anything else
        runtime.unary."""
        tb, f = self.tmp(), self.tmp()
        test = _and(
            _is_not_none(ast.NamedExpr(target=_name(tb, ast.Store()), value=self._table(_name(t)))),
            self._fast_lookup(f, _name(tb), _name(t), "__neg__", 1),
        )
        call = _placed(_call(_name(f), _copy(v)), line, col)
        return ast.IfExp(
            test=test, body=call, orelse=_call(_h("unary"), ast.Constant(op), _copy(v))
        )

    def object_op(self, op, a, b, t, fallback, augmented, line, col, reflected=False):
        """`a op b` where the number guards leave it (fallback(a, b) otherwise), as
        fast_dispatch.plain_first answers it: an object a of a plain class (the
        variable t holds its class) and one of its class or a number, its special
        method called when it has a fast function (not for `a op= b` when the class
        has the in-place method); reflected, a number a and an object b (b computed
        here), b's reflected method."""
        name = _DUNDER.get(op)
        if reflected:
            b, later = self._once(b)
            general = _call(fallback, a, later)
        else:
            later = b
            general = _call(fallback, _copy(a), _copy(b))
        if name is None:
            return general
        tb, f, r = self.tmp(), self.tmp(), self.tmp()
        if reflected:
            t = self.tmp()
            ty = _type_of(t, b)
        else:
            ty = _name(t)
        test = [_is_not_none(ast.NamedExpr(target=_name(tb, ast.Store()), value=self._table(ty)))]
        method = f"__r{name}__" if reflected else f"__{name}__"
        if augmented and not reflected:
            test.append(_is(self._lookup(_name(tb), _name(t), f"__i{name}__"), ast.Constant(None)))
            inplace = self._inplace(op, name, a, b, tb, t, general, line, col)
        test.append(self._fast_lookup(f, _name(tb), _name(t), method, 2))
        args = [_copy_name(later), _copy(a)] if reflected else [_copy(a), _copy(b)]
        call = _placed(_call(_name(f), *args), line, col)
        refuse = self.const(
            refusal(op, name, augmented), "refused_" + _op_key(op) + ("_aug" if augmented else "")
        )
        done = ast.IfExp(
            test=ast.Compare(
                left=ast.NamedExpr(target=_name(r, ast.Store()), value=call),
                ops=[ast.IsNot()],
                comparators=[self.const(NotImplemented, "NotImplemented")],
            ),
            body=_name(r),
            orelse=_call(refuse, _copy(a), _copy_name(later) if reflected else _copy(b)),
        )
        if augmented and not reflected:  # (its in-place method's fast function first)
            inplace.orelse = ast.IfExp(test=_and(*test[1:]), body=done, orelse=_copy(general))
            return ast.IfExp(test=test[0], body=inplace, orelse=general)
        return ast.IfExp(test=_and(*test), body=done, orelse=general)

    def _inplace(self, op, name, a, b, tb, t, general, line, col):
        """object_op's `a op= b` of an object a whose class's in-place method (`__iadd__`)
        has a fast function: that called here (whatever b is), and Python's `a op b`
        only when it answers NotImplemented (fast_dispatch.inplace_rest); the tree's
        `orelse` left for object_op's other cases."""
        fi = self.tmp()
        rest = self.const(inplace_rest(op), "inplace_rest_" + _op_key(op))
        done = self._unless_not_implemented(fi, rest, a, b, line, col)
        found = self._fast_lookup(fi, _name(tb), _name(t), f"__i{name}__", 2)
        return ast.IfExp(test=found, body=done, orelse=_copy(general))

    def power_of_constant(self, a1, a2, b2, bc, fallback, augmented, line, col):
        """`a ** c` (`a ^ c`) of a number constant c where Python's own operator on a
        float a gives what _py_binary gives (no OverflowError, complex result or zero
        division to answer): c in (0, 1] of a float >= 0 (`x ** 0.5`), c 2 or 3 of a
        float below 1e100 in size; an object of a plain class gets its `__pow__`
        (object_op), anything else fallback(a, c).  None for other constants."""
        t = self.tmp()
        is_float = _is(_type_of(t, a1), _h("float"))
        if type(bc) is float and 0.0 < bc <= 1.0:
            safe = ast.Compare(left=a2, ops=[ast.GtE()], comparators=[ast.Constant(0.0)])
        elif type(bc) in (int, float) and bc in (2, 3):
            safe = ast.Compare(
                left=ast.Constant(-1e100),
                ops=[ast.Lt(), ast.Lt()],
                comparators=[a2, ast.Constant(1e100)],
            )
        else:
            return None
        return ast.IfExp(
            test=_and(is_float, safe),
            body=ast.BinOp(left=a2, op=ast.Pow(), right=b2),
            orelse=self.object_op("**", a2, b2, t, fallback, augmented, line, col),
        )

    def object_compare(self, op, a, b, t, fallback, line, col):
        """`a op b` of a comparison operator where the number guard leaves it (t: the
        variable holding a's class): two objects of one plain class whose special
        method (`__lt__` for `<`) has a fast function get its answer, called here as
        Python's operator calls it first, and the rest of Python's protocol only when
        it answers NotImplemented (fast_dispatch.compare_rest: the method is not called
        twice); anything else fallback(a, b)."""
        tb, f = self.tmp(), self.tmp()
        test = _and(
            _is(_call(_h("type"), _copy(b)), _name(t)),
            _is_not_none(ast.NamedExpr(target=_name(tb, ast.Store()), value=self._table(_name(t)))),
            self._fast_lookup(f, _name(tb), _name(t), compare_method(op), 2),
        )
        rest = self.const(compare_rest(op), "compare_rest_" + _op_key(op))
        done = self._unless_not_implemented(f, rest, a, b, line, col)
        return ast.IfExp(test=test, body=done, orelse=_call(fallback, _copy(a), _copy(b)))

    def _unless_not_implemented(self, f, rest, a, b, line, col):
        """`f(a, b)`'s answer (f the variable holding a special method's fast function),
        and `rest(a, b)` (the rest of Python's protocol) only when it is NotImplemented."""
        r = self.tmp()
        call = _placed(_call(_name(f), _copy(a), _copy(b)), line, col)
        return ast.IfExp(
            test=ast.Compare(
                left=ast.NamedExpr(target=_name(r, ast.Store()), value=call),
                ops=[ast.IsNot()],
                comparators=[self.const(NotImplemented, "NotImplemented")],
            ),
            body=_name(r),
            orelse=at(_call(rest, _copy(a), _copy(b)), line, col),
        )


class FastObjects(FastOperators, FastCalls):
    """The attribute and method trees (mixed into fast_ast.FastExpressions)."""

    def e_string(self, node):
        """A string, or f"..." (its pieces formatted as expressions._fstring formats
        them; a format's error is placed at the statement, as there)."""
        texts = []
        for tok in node.children:
            text, prefix = tok.value, ""
            while text[0] in "fFrR":
                prefix += text[0].lower()
                text = text[1:]
            texts.append((tok, prefix, text))
        if not any("f" in p for _, p, _ in texts):
            return super().e_string(node)  # (fast_items.py)
        if getattr(self, "stmt_pos", None) is None:
            raise Unsupported("an f-string outside a simple statement")
        line, col = self.stmt_pos
        joined = self.const(_joined_text, "joined_text")
        parts = []
        for tok, prefix, text in texts:
            value = literal_value(("r" if "r" in prefix else "") + text)
            if "f" not in prefix:
                parts.append(ast.Constant(value))
                continue
            pieces = []
            for lit, field, spec, conv in self.comp.fstring_fields(value, tok, self.expr):
                if field is None:
                    pieces.append(ast.Constant(lit))
                    continue
                pieces.append(self._field(field, spec, conv, line, col))
            if len(texts) == 1:
                return at(self._joined(pieces, joined), line, col)
            parts.append(at(_call(joined, ast.List(elts=pieces, ctx=ast.Load())), line, col))
        if len(parts) == 1:
            return parts[0]
        return at(_call(joined, ast.List(elts=parts, ctx=ast.Load())), line, col)

    def _joined(self, pieces, joined):
        """The texts `pieces` (trees) joined as _joined_text joins them: by Python's
        f-string when their length is within the items limit and below a look at the
        memory (limits.check_items has nothing to do then), else by _joined_text."""
        fields = [p for p in pieces if not isinstance(p, ast.Constant)]
        if not fields:
            return _call(joined, ast.List(elts=pieces, ctx=ast.Load()))
        size = self.const(len, "len")
        names, total = [], ast.Constant(sum(len(p.value) for p in pieces if p not in fields))
        for p in pieces:
            if isinstance(p, ast.Constant):
                names.append(p)
                continue
            names.append(_name(self.tmp()))
            n = _call(
                _copy_name(size), ast.NamedExpr(target=_name(names[-1].id, ast.Store()), value=p)
            )
            total = ast.BinOp(left=total, op=ast.Add(), right=n)
        n = self.tmp()
        within = ast.Compare(
            left=ast.NamedExpr(target=_name(n, ast.Store()), value=total),
            ops=[ast.Lt()],
            comparators=[ast.Constant(SMALL)],
        )
        limit = _attr(_attr(_attr(_h("context"), "current"), "limits"), "max_items")
        within = _and(within, ast.Compare(left=_name(n), ops=[ast.LtE()], comparators=[limit]))
        text = ast.JoinedStr(
            values=[
                v
                if isinstance(v, ast.Constant)
                else ast.FormattedValue(value=_copy_name(v), conversion=-1)
                for v in names
            ]
        )
        slow = _call(joined, ast.List(elts=[_copy_name(v) for v in names], ctx=ast.Load()))
        return ast.IfExp(test=within, body=text, orelse=slow)

    def _field(self, e, spec, conv, line, col):
        """The text of one {field} of value e: a str, float or int without a format
        spec as format_field gives it (show: Python's repr of the number), anything
        else by it (fast_dispatch.field_formatter)."""
        if spec and "{" in spec:
            raise Unsupported("a format spec with fields of its own")
        fmt = self.const(field_formatter(spec, conv), f"field_{self.tmp()[2:]}")
        if spec or conv not in (None, "r", "s"):
            return at(_call(fmt, e), line, col)
        v, t = self.tmp(), self.tmp()
        first = ast.NamedExpr(target=_name(v, ast.Store()), value=e)
        kind = ast.NamedExpr(target=_name(t, ast.Store()), value=_call(_h("type"), first))
        # Python's repr, as f"{v!r}" makes it (no call of the built-in)
        rep = ast.JoinedStr(values=[ast.FormattedValue(value=_name(v), conversion=ord("r"))])
        if conv == "r":  # (show: Python's repr of a str too; show_str for "s" and none)
            test = _or(_is(kind, _h("float")), _is(_name(t), _h("int")), _is(_name(t), _h("str")))
            quick = rep
        else:
            test = _or(_is(kind, _h("str")), _is(_name(t), _h("float")), _is(_name(t), _h("int")))
            quick = ast.IfExp(test=_is(_name(t), _h("str")), body=_name(v), orelse=rep)
        return ast.IfExp(test=test, body=quick, orelse=at(_call(fmt, _name(v)), line, col))

    # ------------------------------------------------------------- an object's class

    def unit(self, params, suite):
        """The function being compiled: its parameters that its body never binds again
        have their class's LOOKUP table, class and variables (`__dict__`) read once, when
        the call starts (`prologue`): an object's class never changes, nor the dict of
        its variables."""
        again = FunctionInfo("", "function", self.info.parent)
        again.analyse([suite])
        self.fixed = {p for p in params if p not in again.locals}
        self.read_once = {}  # parameter -> the parts of `_hoisted` it needs beyond the names
        self.names_used = set()  # the names read or set on such parameters
        # the variables whose attributes the body reads, writes or calls: objects, not
        # worth a second body specialized for ints (fast_types.py)
        self.objects = set()
        todo = [suite]
        while todo:
            n = todo.pop()
            if isinstance(n, Tree):
                if n.data == "getattr" and isinstance(n.children[0], Tree):
                    if n.children[0].data == "name":
                        self.objects.add(n.children[0].children[0].value)
                todo.extend(n.children)

    def prologue(self):
        """The statements reading what `unit` said, for the parameters read so: the
        class, its table, the names its classes hold (for an object of a class that
        is not plain, every name this function reads or sets on such a parameter, so
        that the guards of its reads and stores fail) and, only where a method call
        needs it, the dict of its variables (reading it makes CPython build one).  The
        first plain class met is kept with its table and names in the function's own
        namespace (a plain class's table and names are made with it and never
        replaced): a call with an object of that class reads them there; until one is
        met, the last class met is kept so (a list, a set: no table, this function's
        names), which a parameter that is always a list or a set finds there too."""
        # (this function's own: a nested function's names and kept classes are its
        # own, apart from those of the function around it, in the one namespace)
        tag = self.tmp()[2:]
        used = self.const(frozenset(self.names_used), "names_used_" + tag)
        out, kept = [], []
        given = getattr(self, "given", {})
        for p in sorted(getattr(self, "read_once", ())):
            if p not in given:
                self._class_reads(p, _hoisted(p), self.read_once[p], used, tag, out, kept)
        return [ast.Global(names=kept), *out] if kept else out

    def given_reads(self, inner):
        """The statements of this function that read, where the nested function `inner`
        is defined, what `inner` reads once of the variables it was given (`inner.given`:
        this function's variables that nothing binds again after that definition), the
        names that `inner`'s guards use for them; a parameter this function reads once
        itself is read by its own prologue (the names `inner` tests added to its own)."""
        out, kept, tag = [], [], None
        for p in sorted(getattr(inner, "given", ())):
            parts = inner.read_once.get(p)
            if parts is None:
                continue
            if p in inner.given_by_prologue:
                self.read_once.setdefault(p, set()).update(parts | {"tb"})
                self.names_used |= inner.names_used
                continue
            if tag is None:
                tag = self.tmp()[2:]
                used = self.const(frozenset(inner.names_used), "names_used_" + tag)
            self._class_reads(p, inner.given[p], parts, used, tag, out, kept)
        return [ast.Global(names=kept), *out] if kept else out

    def _class_reads(self, p, names, parts, used, tag, out, kept):
        """The statements reading variable p's class, table, names and (`dd` in parts)
        dict of its variables into `names` (_hoisted's), the constants they keep in
        `kept`."""
        tb, ty, dd, nm = names
        cty, ctb, cnm = (self.const(None, f"{k}_{p}_{tag}").id for k in ("cty", "ctb", "cnm"))
        kept += [cty, ctb, cnm]
        first = [
            ast.Assign(targets=[_name(tb, ast.Store())], value=self._table(_name(ty))),
            ast.Assign(
                targets=[_name(nm, ast.Store())],
                value=ast.IfExp(
                    test=_is_not_none(_name(tb)),
                    body=_names_of(_name(tb)),  # (set_class_attr adds to it)
                    orelse=_copy_name(used),
                ),
            ),
            ast.If(
                test=_is(_name(ctb), ast.Constant(None)),
                body=[
                    ast.Assign(targets=[_name(c, ast.Store())], value=_name(v))
                    for c, v in ((cty, ty), (ctb, tb), (cnm, nm))
                ],
                orelse=[],
            ),
        ]
        out += [
            ast.Assign(targets=[_name(ty, ast.Store())], value=_call(_h("type"), _name(p))),
            ast.If(
                test=_is(_name(ty), _name(cty)),
                body=[
                    ast.Assign(targets=[_name(nm, ast.Store())], value=_name(cnm)),
                    # (the table only where a method call reads it)
                    *[ast.Assign(targets=[_name(tb, ast.Store())], value=_name(ctb))]
                    * ("dd" in parts or "tb" in parts),
                ],
                orelse=first,
            ),
        ]
        if "dd" in parts:
            out.append(
                ast.Assign(
                    targets=[_name(dd, ast.Store())],
                    value=ast.IfExp(
                        test=_is_not_none(_name(tb)),
                        body=_attr(_name(p), "__dict__"),
                        orelse=self.const({}, "no_variables"),  # (read, never written)
                    ),
                )
            )

    def _base(self, obj, dd=False):
        """(the object's first use, its later uses, its class's table, its class, the
        names its classes hold (classes.NAMES), the dict of its variables when `dd`;
        None for each not read once at the call's start)."""
        if isinstance(obj, ast.Name) and obj.id in getattr(self, "fixed", ()):
            if self._mode(obj.id) == "local":
                parts = self.read_once.setdefault(obj.id, set())
                if dd:
                    parts.add("dd")
                given = getattr(self, "given", {})
                tb, ty, d, nm = given[obj.id] if obj.id in given else _hoisted(obj.id)
                return obj, obj, _name(tb), _name(ty), _name(nm), _name(d) if dd else None
        if _simple(obj):
            return obj, _copy_name(obj), None, None, None, None
        o = self.tmp()
        return (
            ast.NamedExpr(target=_name(o, ast.Store()), value=obj),
            _name(o),
            None,
            None,
            None,
            None,
        )

    def _table(self, t):
        """`getattr(t, LOOKUP, None)`: the class t's table if it is plain, else None."""
        return class_table(self, t)  # (fast_calls.py)

    def _lookup(self, tb, ty, name):
        """`tb[name] if name in tb else plain_lookup(tb, ty, name)`: plain_class_attr."""
        return ast.IfExp(
            test=ast.Compare(left=ast.Constant(name), ops=[ast.In()], comparators=[tb]),
            body=ast.Subscript(value=_copy_name(tb), slice=ast.Constant(name), ctx=ast.Load()),
            orelse=_call(
                self.const(plain_lookup, "plain_lookup"),
                _copy_name(tb),
                _copy_name(ty),
                ast.Constant(name),
            ),
        )

    def _fast_lookup(self, f, tb, ty, name, n):
        """`(f := <the fast function of the class's attribute name>) is not None`: the
        Python function of a function of the program that plain_class_attr(ty, name)
        finds, when it takes n arguments by position (`fastn`), kept in the class's
        table under a key no attribute has (classes.fast_lookup), one test where the
        attribute, its type and its `fastn` were tested."""
        key = fast_key(name, n)
        found = ast.IfExp(
            test=ast.Compare(left=ast.Constant(key), ops=[ast.In()], comparators=[tb]),
            body=ast.Subscript(value=_copy_name(tb), slice=ast.Constant(key), ctx=ast.Load()),
            orelse=_call(
                self.const(fast_lookup, "fast_lookup"),
                _copy_name(tb),
                _copy_name(ty),
                ast.Constant(name),
                ast.Constant(n),
            ),
        )
        return _is_not_none(ast.NamedExpr(target=_name(f, ast.Store()), value=found))

    # ------------------------------------------------------------- attributes

    def e_getattr(self, node):
        if self.cached:
            raise Unsupported("an attribute in a loop whose variables are cached")
        obj_node, tok = node.children
        attr = tok.value
        if attr == FRAME_MAKER:
            raise Unsupported("a frame (a function's running frame is the closure's)")
        line, col = tok.line, tok.column
        obj = self.expr(obj_node)
        if self.info is None:
            read = self.const(attr_reader(attr), "getattr_" + attr)
        else:  # (the running frames made for what the program's code may run)
            read = self.const(framed_reader(attr), "framed_getattr_" + attr)
        if not direct_name(attr):
            return at(_call(read, obj), line, col)
        first, later, _, _, nm, _ = self._base(obj)
        if nm is not None:  # (the names of a class that is not plain: those read here)
            self.names_used.add(attr)
            test = ast.Compare(left=ast.Constant(attr), ops=[ast.NotIn()], comparators=[nm])
        else:
            t, tb = self.tmp(), self.tmp()
            table = ast.NamedExpr(
                target=_name(tb, ast.Store()), value=self._table(_type_of(t, first))
            )
            test = _and(
                _is_not_none(table),
                ast.Compare(
                    left=ast.Constant(attr), ops=[ast.NotIn()], comparators=[_names_of(_name(tb))]
                ),
            )
        # no class of it has `attr`: the object's own variable, as Python reads it (its
        # AttributeError, when it has none, becomes the closure compiler's: fail)
        value = _own_attr(_copy_name(later), attr, line, col)
        e = ast.IfExp(test=test, body=value, orelse=_call(read, _copy_name(later)))
        return at(e, line, col)

    def attr_augassign(self, node):
        """`obj.attr op= value`, as statements.py's s_augassign runs it: the attribute
        read (the object computed), the value, the operator (a tensor in place), then
        the attribute stored (the object computed again)."""
        if self.cached:
            raise Unsupported("an attribute in a loop whose variables are cached")
        target, op, value = node.children
        op_sym = op.value[:-1]
        if op_sym not in ("+", "-", "*", "/", "//", "%", "^", "**"):
            raise Unsupported("augmented operator")
        old = self.e_getattr(target)
        v = self.expr(value)
        aug = self.const(plain_first(op_sym, augmented_op(op_sym), True), "aug_" + _op_key(op_sym))
        r = self.binop(op_sym, old, v, op.line, op.column, fallback=aug, augmented=True)
        return [self._line(_pos(node)[0]), *self.attr_stores(target, r)]

    def attr_stores(self, target, v):
        """The statements storing the value v (a tree) in `target` (obj.attr): the value
        computed first, then the object, as statements.py's store_attr."""
        obj_node, tok = target.children
        attr = tok.value
        line, col = tok.line, tok.column
        obj = self.expr(obj_node)
        write = self.const(attr_writer(attr), "setattr_" + attr)
        if isinstance(v, (ast.Name, ast.Constant)):  # (nothing runs in computing it)
            out, vt = [], v
        else:
            vt = _name(self.tmp())
            out = [ast.Assign(targets=[_name(vt.id, ast.Store())], value=v)]
        _, _, _, _, nm, _ = self._base(obj)
        if nm is not None:
            o = obj
        else:
            o = _name(self.tmp())
            out.append(at(ast.Assign(targets=[_name(o.id, ast.Store())], value=obj), line, col))
        slow = ast.Expr(_call(write, _copy_name(o), _copy(vt)))
        if not direct_name(attr):
            out.append(at(slow, line, col))
            return out
        # a plain class none of whose classes has `attr` (set_plain's case; a plain
        # class has no `language_setattr`: the program's names are kept apart, user_key)
        if nm is not None:
            self.names_used.add(attr)
            test = ast.Compare(left=ast.Constant(attr), ops=[ast.NotIn()], comparators=[nm])
        else:
            ty, tb = _name(self.tmp()), self.tmp()
            table = ast.NamedExpr(
                target=_name(tb, ast.Store()), value=self._table(_type_of(ty.id, _copy_name(o)))
            )
            test = _and(
                _is_not_none(table),
                ast.Compare(
                    left=ast.Constant(attr), ops=[ast.NotIn()], comparators=[_names_of(_name(tb))]
                ),
            )
        store = ast.Assign(
            targets=[ast.Attribute(value=_copy_name(o), attr=attr, ctx=ast.Store())],
            value=_copy(vt),
        )
        out.append(at(ast.If(test=test, body=[store], orelse=[slow]), line, col))
        return out


def _hoisted(p):
    """The names of the table, class, variables and class's names (classes.NAMES) of
    parameter p (FastObjects.unit)."""
    return "@tb_" + p, "@ty_" + p, "@dd_" + p, "@nm_" + p


def _own_attr(o, attr, line, col):
    """`o.attr`, placed at (line, col) and marked as an own variable's read
    (fast_support.OWN_ATTR)."""
    e = ast.Attribute(value=o, attr=attr, ctx=ast.Load())
    e.lineno = e.end_lineno = line
    e.col_offset, e.end_col_offset = col, col + OWN_ATTR
    return e


def _type_of(t, v):
    """`(t := type(v))`"""
    return ast.NamedExpr(target=_name(t, ast.Store()), value=_call(_h("type"), v))


def _fast_function(f, value, n):
    """The tests that `value`, bound to the variable f, is a function of the program with
    a fast form taking n arguments: `type(f := value) is UserFunction` and `f.fastn == n`."""
    return (
        _is(
            _call(_h("type"), ast.NamedExpr(target=_name(f, ast.Store()), value=value)),
            _h("UserFunction"),
        ),
        ast.Compare(left=_attr(_name(f), "fastn"), ops=[ast.Eq()], comparators=[ast.Constant(n)]),
    )


#: the methods of a list or set whose calls grow it by one item (FastCalls._growing)
_GROWING = frozenset({"append", "add"})


def _names_of(table):
    """The NAMES set of a plain class, read from its LOOKUP table (classes.NAMES_KEY)."""
    return ast.Subscript(value=_copy_name(table), slice=ast.Constant(NAMES_KEY), ctx=ast.Load())


def _is_not_none(e):
    return ast.Compare(left=e, ops=[ast.IsNot()], comparators=[ast.Constant(None)])


def _placed(call, line, col):
    """The call placed at (line, col): an error out of the method it calls is a step of
    the call chain there, named by the method (GradError.at)."""
    call.lineno = call.end_lineno = line
    call.col_offset = call.end_col_offset = col
    return call


def _is(a, b):
    return ast.Compare(left=a, ops=[ast.Is()], comparators=[b])


def _copy_name(e):
    if isinstance(e, ast.Name):
        return _name(e.id)
    return ast.Constant(e.value)


def _is_itself(named):
    """`(x := value) is x`: value computed (always true)."""
    return ast.Compare(left=named, ops=[ast.Is()], comparators=[_name(named.target.id)])
