"""The fast tier's trees for calls of built-ins (run-time side: fast_builtins.py): a
call of a built-in function by its name, and a method call whose object is a list, a
set, a dict or one of gradcli's own modules, each tested for at run time (the callee
is that built-in, the object of that type) and sent to its call site's function,
which answers the call or SLOW; SLOW, or a test that fails, makes the call the
general way with the values already computed (fast_ast.e_call, fast_objects'
method_call)."""

from __future__ import annotations

import ast


from .fast_ast import Unsupported, _copy, _and, _call, _h, _is, _name, _or, at
from .parser import Tree
from .classes import HASH_PLAIN, hash_plain_class

from .fast_builtins import (
    ITERATED,
    LAZY,
    MODULE,
    PLAIN_CLASSES,
    SLOW,
    TENSOR,
    TORCH_MODULE,
    TableSite,
    function_site,
    method_sites,
    module_site,
    summed,
    tensor_site,
    torch_site,
)


def _attr(v, name):
    return ast.Attribute(value=v, attr=name, ctx=ast.Load())


def class_table(em, t):
    """`getattr(t, LOOKUP, None)`: the class t's table if it is plain, else None (fast_objects);
    asked only of a class of the language (every one has LOOKUP, None if not plain, and a
    plain one derives from LanguageObject): a getattr that fails makes an AttributeError,
    which cost ten times the rest of a list's method call.  The site keeps the last plain
    class met and its table (TableSite): the next object of that class is one test."""
    if isinstance(t, ast.NamedExpr):
        first, again = t, _name(t.target.id)
    elif isinstance(t, ast.Name):
        first, again = t, _name(t.id)
    else:
        n = em.tmp()
        first, again = ast.NamedExpr(target=_name(n, ast.Store()), value=t), _name(n)
    site = em.const(TableSite(), "table_site" + em.tmp()[2:])
    return ast.IfExp(
        test=_is(first, ast.Attribute(value=site, attr="cls", ctx=ast.Load())),
        body=ast.Attribute(value=_name(site.id), attr="table", ctx=ast.Load()),
        orelse=_call(ast.Attribute(value=_name(site.id), attr="find", ctx=ast.Load()), again),
    )


def _answered(self, site_call, general):
    """`r if (r := site_call) is not SLOW else general`."""
    r = self.tmp()
    return ast.IfExp(
        test=ast.Compare(
            left=ast.NamedExpr(target=_name(r, ast.Store()), value=site_call),
            ops=[ast.IsNot()],
            comparators=[self.const(SLOW, "SLOW")],
        ),
        body=_name(r),
        orelse=general,
    )


class FastBuiltinCalls:
    """Calls of built-ins (mixed into fast_tier.Emitter)."""

    def builtin_form(self, name, f, fn, parts, fname, line, col, args=None):
        """((the built-in, the tree), the callee's use in e_call's test) for `name(*parts)`
        (`args`: the call's arguments node) when the callee (the variable f, the value fn)
        is the built-in `name` has a call site for: the arguments computed, the site's
        function called, its SLOW the general call (fast_support's frame_call or
        plain_call) of the same values (fast_ast.e_call's; `summed_form` for sum of a
        generator expression); (None, the callee computed) when there is no such site
        (builtin_first tests it first)."""
        bf = self.comp.builtins.get(name)
        site = function_site(name, len(parts), bf, line, col)
        if site is None:
            return None, ast.NamedExpr(target=_name(f, ast.Store()), value=fn)
        names = [self.tmp() for _ in parts]
        computed = [
            ast.NamedExpr(target=_name(n, ast.Store()), value=_copy(p))
            for n, p in zip(names, parts)
        ]
        key = f"site_{name}_{self.tmp()[2:]}"
        call = _call(self.const(site, key), *computed)
        general = _call(
            _h("plain_call" if self.info is None else "frame_call"),
            _name(f),
            ast.Tuple(elts=[_name(n) for n in names], ctx=ast.Load()),
            _copy(fname),
            ast.Constant(line),
            ast.Constant(col),
        )
        form = _answered(self, call, general)
        if name == "set" and len(parts) == 1:
            # a tuple or list of items hashed and compared by Python's own rules
            # (classes.HASH_PLAIN): Python's set of them, as the site's _set makes it
            items = names[0]
            kinds = self.const(frozenset({tuple, list}), "tuple_list")
            test = _and(
                ast.Compare(
                    left=_call(_h("type"), computed[0]), ops=[ast.In()], comparators=[kinds]
                ),
                _call(
                    _attr(self.const(HASH_PLAIN, "hash_plain"), "issuperset"),
                    _call(self.const(map, "map"), _h("type"), _name(items)),
                ),
            )
            call.args[0] = _name(items)
            made = _call(self.const(set, "py_set"), _name(items))
            form = ast.IfExp(test=test, body=made, orelse=form)
        elif name == "isinstance" and len(parts) == 2:
            # a plain class of the program the site has met: Python's answer, as its own
            test = _and(
                _is(computed[0], _name(names[0])),  # (computed in order: always true)
                _is(_call(_h("type"), computed[1]), self.const(type, "type_type")),
                ast.Compare(
                    left=_name(names[1]),
                    ops=[ast.In()],
                    comparators=[self.const(PLAIN_CLASSES, "plain_classes")],
                ),
            )
            made = _call(self.const(isinstance, "py_isinstance"), _name(names[0]), _name(names[1]))
            call.args[:] = [_name(n) for n in names]
            form = ast.IfExp(test=test, body=made, orelse=form)
        form = at(form, line, col)
        builtin = (self.const(bf, f"builtin_{name}"), form)
        if name == "sum" and args is not None:
            nodes = [a for a in args.children if a is not None]
            builtin = self.summed_form(builtin, nodes, parts, line, col)
        return builtin, _name(f)

    def summed_form(self, builtin, nodes, parts, line, col):
        """builtin_form's (built-in, tree) for `sum(genexp[, start])` (`nodes`: the
        arguments' trees, `parts` their Python trees) with the generator expression
        summed as it goes when no --max-steps counts (fast_builtins.summed), else
        `builtin` as it is."""
        if len(nodes) not in (1, 2) or not (
            isinstance(nodes[0], Tree) and nodes[0].data == "genexp"
        ):
            return builtin
        try:
            made, items = self.summed_comprehension(nodes[0], (line, col))  # (fast_closures)
        except Unsupported:
            return builtin
        bf, form = builtin
        fn = summed(self.comp.builtins.get("sum"), "sum", line, col)
        run = self.const(fn, f"summed_{self.tmp()[2:]}")
        call = _call(run, made, items, _h("gv"), _h("gs"), _h("builtins"), *map(_copy, parts[1:]))
        limit = _attr(_attr(_attr(_h("context"), "current"), "limits"), "max_steps")
        test = _is(limit, ast.Constant(None))
        return bf, at(ast.IfExp(test=test, body=at(call, line, col), orelse=form), line, col)

    @staticmethod
    def builtin_first(builtin, f, fn, other):
        """The call `other` (fast_ast.e_call's) after the test for the built-in that
        builtin_form made a tree for (the callee computed in that test), if any."""
        if builtin is None:
            return other
        bf, form = builtin
        test = _is(ast.NamedExpr(target=_name(f, ast.Store()), value=fn), bf)
        return ast.IfExp(test=test, body=form, orelse=other)

    def builtin_methods(self, attr, o, names, ty, general, line, col):
        """`o.attr(*names)` (the object and arguments computed, `ty` its type) for a
        list, set or dict whose method has a site, a tensor's method of a pure op, a
        namespace of the torch API's pure op, or one of gradcli's own modules:
        that site's answer; anything else (or SLOW) `general`."""
        out = general
        for t, site in method_sites(attr, len(names), line, col):
            call = _call(
                self.const(site, f"method_{t.__name__}_{attr}_{self.tmp()[2:]}"),
                _name(o.id) if isinstance(o, ast.Name) else _copy(o),
                *[_copy(n) for n in names],
            )
            out = ast.IfExp(
                test=_is(_copy(ty), self.const(t, "type_" + t.__name__)),
                body=_answered(self, call, _copy(general)),
                orelse=out,
            )
        op = torch_site(attr, line, col)  # (None unless attr is a pure op's name)
        if op is not None:
            call = _call(
                self.const(op, f"torch_{attr}_{self.tmp()[2:]}"),
                _name(o.id) if isinstance(o, ast.Name) else _copy(o),
                *[_copy(n) for n in names],
            )
            out = ast.IfExp(
                test=_is(_copy(ty), self.const(TORCH_MODULE, "TorchModule")),
                body=_answered(self, call, _copy(general)),
                orelse=out,
            )
        op = tensor_site(attr, line, col)  # (None unless attr is a pure op's method)
        if op is not None:
            call = _call(
                self.const(op, f"tensor_{attr}_{self.tmp()[2:]}"),
                _name(o.id) if isinstance(o, ast.Name) else _copy(o),
                *[_copy(n) for n in names],
            )
            out = ast.IfExp(
                test=_is(_copy(ty), self.const(TENSOR, "Tensor")),
                body=_answered(self, call, _copy(general)),
                orelse=out,
            )
        if attr[:1] != "_":
            site = module_site(attr, line, col)
            call = _call(
                self.const(site, f"module_{attr}_{self.tmp()[2:]}"),
                _name(o.id) if isinstance(o, ast.Name) else _copy(o),
                *[_copy(n) for n in names],
            )
            out = ast.IfExp(
                test=_is(_copy(ty), self.const(MODULE, "StdModule")),
                body=_answered(self, call, _copy(general)),
                orelse=out,
            )
        return at(out, line, col)

    def membership(self, op, a, b, fallback):
        """`a in b` (`not in`): Python's own when b is a set or a dict and a's hash and
        equality are Python's own (classes.HASH_PLAIN: no code of the program runs, no
        TypeError), as runtime.compare answers it; else `fallback(a, b)`."""
        a1, a2 = self._once(a)
        b1, b2 = self._once(b)
        ta, tb = self.tmp(), self.tmp()
        first = []
        if isinstance(a1, ast.NamedExpr):  # (a computed before b, whatever the test says)
            first.append(_is(a1, _name(a1.target.id)))
        kind = ast.NamedExpr(target=_name(tb, ast.Store()), value=_call(_h("type"), b1))
        test = _and(
            *first,
            _or(
                _is(kind, self.const(set, "type_set")),
                _is(_name(tb), self.const(dict, "type_dict")),
            ),
            _or(
                ast.Compare(
                    left=ast.NamedExpr(target=_name(ta, ast.Store()), value=_call(_h("type"), a2)),
                    ops=[ast.In()],
                    comparators=[self.const(HASH_PLAIN, "hash_plain")],
                ),
                _call(self.const(hash_plain_class, "hash_plain_class"), _name(ta)),
            ),
        )
        py = ast.Compare(
            left=_copy(a2),
            ops=[ast.In() if op == "in" else ast.NotIn()],
            comparators=[_copy(b2)],
        )
        return ast.IfExp(test=test, body=py, orelse=_call(fallback, _copy(a2), _copy(b2)))

    def iterated(self, items):
        """The items a `for` loop goes through (iteration.iterate): a list, tuple, string,
        range, set or dict as it is (a set or dict changed while the loop runs is
        Python's RuntimeError, which fast_support.fail words as `live` does)."""
        t = self.tmp()
        return ast.IfExp(
            test=ast.Compare(
                left=_call(_h("type"), ast.NamedExpr(target=_name(t, ast.Store()), value=items)),
                ops=[ast.In()],
                comparators=[self.const(ITERATED, "iterated")],
            ),
            body=_name(t),
            orelse=ast.IfExp(  # (a lazy iterator's items are its iterator's: its __next__)
                test=_is(_call(_h("type"), _name(t)), self.const(LAZY, "LazyIterator")),
                body=ast.Attribute(value=_name(t), attr="it", ctx=ast.Load()),
                orelse=_call(_h("iterate"), _name(t)),
            ),
        )
