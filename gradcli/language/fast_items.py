"""Displays, subscripts and unpacking in the fast tier (fast_tier.py): string literals
(not f-strings), list and tuple displays without `*`, `a[k]` and `a[i:j]` read and
assigned, and assignments and `for` targets of names, subscripts and tuples or lists
of them (no `*`).

Each runs what the closure compiler runs for it: `a[k]` is items.get_item (a tensor's
index, else comprehensions' py_index), placed at the subscript; `a[k] = v` is
items.set_item, the value computed first, then the object, then the key; `a, b = v`
takes a tuple of the right length as it is and anything else through
statements.unpacked (iter_values, the counts' ValueError at the target)."""

from __future__ import annotations

import ast

from .parser import Tree

from ..runtime.errors import GradTypeError
from ..core.convert import type_name
from .fast_ast import Unsupported, _call, _h, _is, _name, _pos, at
from .arity import BareName
from .items import get_item, set_item
from .statements import unpacked
from .containers import constant_item, constant_set

#: the tree's names of a tuple or list display or target
_SEQUENCES = frozenset({"tuple_items", "exprlist_items", "list_", "list_items"})


def _elements(node):
    """The items of a tuple or list node (no `*`)."""
    children = node.children
    if node.data == "list_":
        children = children[0].children if children and children[0] is not None else []
    out = [c for c in children if c is not None]
    if any(isinstance(c, Tree) and c.data == "star_expr" for c in out):
        raise Unsupported("starred item")
    return out


def hashable(k):
    """k, when it can be a key of a dict or an item of a set; else Python's TypeError."""
    try:
        hash(k)
    except TypeError:
        raise GradTypeError(f"unhashable type: '{type_name(k)}'") from None
    return k


def set_of(items):
    """The set of a display's items (each tested hashable, in order)."""
    return set(hashable(k) for k in items)


def dict_of(parts):
    """The dict of a display's (value, key, value, key ...)."""
    d = {}
    for i in range(0, len(parts), 2):
        d[parts[i + 1]] = parts[i]
    return d


class FastItems:
    """Displays and subscripts (mixed into fast_ast.FastExpressions' Emitter)."""

    def _display(self, node, kind):
        line, col = _pos(node)
        elts = [self.expr(c) for c in _elements(node)]
        return at(kind(elts=elts, ctx=ast.Load()), line or 1, col or 1)

    def e_list_(self, node):
        return self._display(node, ast.List)

    def e_list_items(self, node):
        return self._display(node, ast.List)

    def e_tuple_items(self, node):
        return self._display(node, ast.Tuple)

    e_exprlist_items = e_tuple_items

    def e_string(self, node):
        """A string literal (adjacent ones joined), not an f-string."""
        for tok in node.children:
            text = tok.value
            if "f" in text[: len(text) - len(text.lstrip("fFrRbBuU"))].lower():
                raise Unsupported("f-string")
        v = self.comp.expr(node)(None)  # (a literal's closure: its value, no scope read)
        if type(v) is not str:
            raise Unsupported("literal")
        line, col = _pos(node)
        return at(ast.Constant(v), line or 1, col or 1)

    def e_set_(self, node):
        """{a, b}: the items in order, then each tested hashable (its error placed at
        the display, as the closure compiler's guard places it)."""
        nodes = _elements(node.children[0])
        elts = [self.expr(c) for c in nodes]
        if len(nodes) > 2 and all(constant_item(c) for c in nodes):  # CPython's order
            self.consts["@constant_set"] = constant_set
            return at(_call(_h("constant_set"), ast.Tuple(elts=elts, ctx=ast.Load())), *_pos(node))
        self.consts["@set_of"] = set_of
        return at(_call(_h("set_of"), ast.Tuple(elts=elts, ctx=ast.Load())), *_pos(node))

    def e_dict_(self, node):
        """{k: v}: each entry's value, then its key tested hashable (placed at the
        display), as the closure compiler's `d[_hashable(k(s))] = v(s)` computes them."""
        where = _pos(node)
        parts = []
        for c in node.children[0].children if node.children and node.children[0] else ():
            if c is None:
                continue
            if c.data != "pair":
                raise Unsupported("** in a dict display")
            k, v = c.children
            parts.append(self.expr(v))
            parts.append(at(_call(_h("hashable"), self.expr(k)), *where))
        self.consts["@hashable"] = hashable
        self.consts["@dict_of"] = dict_of
        return at(_call(_h("dict_of"), ast.Tuple(elts=parts, ctx=ast.Load())), *where)

    def _key(self, subs):
        """What is between the brackets (a tuple for `a, b`), as calls._subscript_key."""
        items = [self.expr(c) for c in subs.children if c is not None]
        if len(items) == 1 and len(subs.children) == 1:
            return items[0]
        return ast.Tuple(elts=items, ctx=ast.Load())

    def e_getitem(self, node):
        if self.cached:  # (a program's __getitem__ may run)
            raise Unsupported("a subscript in a loop whose variables are cached")
        obj, subs = node.children
        o = self.expr(obj)
        k = self._key(subs)
        self.consts["@get_item"] = get_item
        return at(_call(_h("get_item"), o, k), *_pos(subs))

    def e_slice(self, node):
        parts = [self.expr(c) if c is not None else ast.Constant(None) for c in node.children]
        while len(parts) < 3:
            parts.append(ast.Constant(None))
        self.consts["@slice"] = slice
        line, col = _pos(node)
        return at(_call(_h("slice"), *parts), line or 1, col or 1)

    def keyword_call(self, node):
        """`f(a, k=v)` of a name with positional and keyword arguments (no `*`, `**`):
        the callee, the positional arguments, then the keywords' values in order, then
        invoke.call (fast_support.plain_call), as calls.py's general call runs it."""
        func, args = node.children
        if any(isinstance(a, Tree) and a.data in ("star_arg", "kwstar_arg") for a in args.children):
            return self.star_call(node)  # (fast_forms.py)
        name = func.children[0].value
        parts, keys, values = [], [], []
        for a in args.children:
            if a is None:
                continue
            if not isinstance(a, Tree) or a.data in ("star_arg", "kwstar_arg", "starargs"):
                raise Unsupported("star argument")
            if a.data == "kwarg":
                key, value = a.children
                if key.value in keys:
                    raise Unsupported("a keyword given twice")
                keys.append(key.value)
                values.append(self.expr(value))
            elif keys or a.data == "argvalue":
                raise Unsupported("argument")
            else:
                parts.append(self.expr(a))
        kwpos = {
            a.children[0].value: _pos(a.children[0])
            for a in args.children
            if isinstance(a, Tree) and a.data == "kwarg"
        }
        line, col = _pos(node)
        fn = self.load(func.children[0])
        kw = ast.Dict(keys=[ast.Constant(k) for k in keys], values=values)
        # (from a fast function, its frames made the running frames: frame_call)
        how = _h("plain_call" if self.info is None else "frame_call")
        return at(
            _call(
                how,
                fn,
                ast.Tuple(elts=parts, ctx=ast.Load()),
                self.const(BareName(name), "name_" + str(self.n)),
                ast.Constant(line),
                ast.Constant(col),
                kw,
                self.const(kwpos, "kwpos_" + str(self.n)),
            ),
            line,
            col,
        )

    # ------------------------------------------------------------- targets

    def augmented_item(self, target, op, value, aug):
        """`a[k] op= v` as the closure compiler runs it: the object and the key once,
        the item read, then the value, `aug` of the two (a tensor item in place), the
        item set; what the reading, the operator and the setting raise placed at the
        operator."""
        if self.cached:  # (a program's __getitem__ may run)
            raise Unsupported("a subscript in a loop whose variables are cached")
        obj, subs = target.children
        o, k, old = self.tmp(), self.tmp(), self.tmp()
        self.consts["@get_item"] = get_item
        self.consts["@set_item"] = set_item
        where = (op.line, op.column)
        return [
            ast.Assign(targets=[_name(o, ast.Store())], value=self.expr(obj)),
            ast.Assign(targets=[_name(k, ast.Store())], value=self._key(subs)),
            at(
                ast.Assign(
                    targets=[_name(old, ast.Store())],
                    value=_call(_h("get_item"), _name(o), _name(k)),
                ),
                *where,
            ),
            at(
                ast.Expr(
                    _call(
                        _h("set_item"), _name(o), _name(k), _call(aug, _name(old), self.expr(value))
                    )
                ),
                *where,
            ),
        ]

    def assign_to(self, targets, value):
        """`t1 = t2 = ... = value`: the value computed once, stored in each in turn."""
        if len(targets) == 1:
            return self.stores(targets[0], value)
        v = self.tmp()
        out = [ast.Assign(targets=[_name(v, ast.Store())], value=value)]
        for t in targets:
            out.extend(self.stores(t, _name(v)))
        return out

    def stores(self, target, value):
        """The statements storing the value of the expression `value` (evaluated
        once, first) in `target`, or Unsupported."""
        kind = target.data if isinstance(target, Tree) else None
        if kind == "name":
            return [ast.Assign(targets=[self.store_target(target.children[0].value)], value=value)]
        if self.cached:  # (a program's __setitem__ or __iter__ may run)
            raise Unsupported("a target in a loop whose variables are cached")
        if kind == "getattr":
            return self.attr_stores(target, value)  # (fast_objects.py)
        if kind == "getitem":
            obj, subs = target.children
            v = self.tmp()
            first = ast.Assign(targets=[_name(v, ast.Store())], value=value)
            o, k = self.expr(obj), self._key(subs)
            self.consts["@set_item"] = set_item
            put = at(ast.Expr(_call(_h("set_item"), o, k, _name(v))), *_pos(subs))
            return [first, put]
        if kind in _SEQUENCES:
            subs = _elements(target)
            n = len(subs)
            line, col = _pos(target)
            v, items = self.tmp(), self.tmp()
            self.consts["@unpacked"] = unpacked
            self.consts["@tuple"] = tuple
            self.consts["@len"] = len
            # a tuple of n items as it is; anything else as the closure compiler unpacks it
            whole = ast.IfExp(
                test=ast.BoolOp(
                    op=ast.And(),
                    values=[
                        _is(_call(_h("type"), _name(v)), _h("tuple")),
                        ast.Compare(
                            left=_call(_h("len"), _name(v)),
                            ops=[ast.Eq()],
                            comparators=[ast.Constant(n)],
                        ),
                    ],
                ),
                body=_name(v),
                orelse=_call(
                    _h("unpacked"), _name(v), ast.Constant(n), ast.Constant(line), ast.Constant(col)
                ),
            )
            out = [
                ast.Assign(targets=[_name(v, ast.Store())], value=value),
                at(ast.Assign(targets=[_name(items, ast.Store())], value=whole), line, col),
            ]
            for i, sub in enumerate(subs):
                item = ast.Subscript(value=_name(items), slice=ast.Constant(i), ctx=ast.Load())
                out.extend(self.stores(sub, item))
            return out
        raise Unsupported("assignment target")
