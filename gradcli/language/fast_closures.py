"""Functions defined in a function of the fast tier (fast_tier.py): a `def` or a lambda
of plain positional parameters without defaults, decorators or `yield`, whose body the
tier compiles, becomes a Python function nested in the generated one (a lambda's made
before its statement), so that the variables
it shares with the functions around it are Python's own cells (a closure's variable
read, `nonlocal` written, late-bound, as the closure compiler's scopes give them).

The value the `def` binds (or the lambda gives) is the closure compiler's own
UserFunction (its name, qualified name, origin, repr, depth counting and errors), made
as that `def` makes it
(definitions.py), with the nested Python function as its `fast` code: a call runs
that (UserFunction.__call__ and run), never the closure compiler's body, which needs
the enclosing call's scope that a fast function does not keep."""

from __future__ import annotations

import ast

from .parser import Tree

from .fast_ast import Unsupported, _call, _h, _name, _pos, at
from .fast_forms import nested_parameters
from .fast_objects import _hoisted
from .fast_support import SITES
from .functions import UserFunction, given_defaults
from .iteration import iterate
from ..library.stdlib import LazyIterator
from .scopes import FunctionInfo


_new = object.__new__


def nested_function(make, gs, fast, n, site, defaults=None):
    """The UserFunction of a nested `def` (`make`: the closure compiler's, made in the
    program's scope: no default, no decorator reads the enclosing one), running the
    Python function `fast` (just made by its `def` in the generated function around).

    `make` makes the site's first function (`site`: [the program's scope, that
    function, the attributes every copy takes from it]), and each is made as a copy
    of it (the attributes set from one tuple), which is what `make` gives again:
    every attribute the same (its file too: the one its text was compiled from) but its
    own dict of defaults when it has any (`defaults`, computed where the `def` runs;
    else the first one's empty dict, which is only read), and its Python function.

    The Python function does not know its UserFunction (its last parameter, `@me`,
    stays None: no object of its own made for it at each definition, no cycle through
    it holding the call's variables past the call: test_call_cycles): what needs the
    function running there (an error's call chain, the running frames) takes the
    site's first function (`me`), which has the same name, signature, scopes and file."""
    p = site[1]
    if site[0] is not gs:  # (a function of its own, holding nothing of a call)
        p = make(gs, {})  # (its defaults, computed by the caller: `defaults`)
        site[0], site[1] = gs, p
        # (what every copy takes as it is: p is never handed out, nothing changes it)
        site[2] = (p.name, p.sig, p.body, p.globals, p.is_lambda, p.closure, p.generator)
        site[2] += (p.qualname, p.doc, p.cell, p.nests, p.quick)
        SITES[fast.__code__] = site
    f = _new(UserFunction)
    (
        f.name,
        f.sig,
        f.body,
        f.globals,
        f.is_lambda,
        f.closure,
        f.generator,
        f.qualname,
        f.doc,
        f.cell,
        f.nests,
        f.quick,
    ) = site[2]
    f.defaults = p.defaults if defaults is None else defaults  # (p's: {}, read only)
    f.origin = p.origin
    f.fast = fast
    f.fastn = n
    f.fastm = ()
    if defaults and n >= 0:
        given_defaults(f, (None,))
    return f


class FastClosures:
    """Nested `def`s (mixed into fast_tier.Emitter)."""

    def _held(self, name):
        """Whether `name`, read in this nested function, is a variable of a function
        around it, bound before its definition (a Python cell always holding a value)."""
        return self.info.mode(name) == "free" and self.free_ok(name)

    def free_ok(self, name):
        """Whether `name`, free here, is bound by a function of this unit around it (a
        Python variable of the generated functions around this one) before the
        statement that defines this function there (bound_before): a Python cell
        then always holds a value when it is read, where the closure compiler, not
        finding it, would read the program's variable or the built-in of that name."""
        p = self.info.parent
        while p is not None:
            if p.kind != "class":
                if name in p.nonlocals:
                    if p not in self.enclosing:
                        return False
                elif name in p.locals:
                    return p in self.enclosing and name in self.bound_at[p]
            p = p.parent
        return False

    def bound_here(self, node):
        """The names of this function certainly bound where `node` is (bound_before); in
        a comprehension (`comp_steps`: its clauses), the targets of the clauses before
        the one holding `node`, every target in its element."""
        steps = getattr(self, "comp_steps", None)
        if steps is None:
            return bound_before(self.suite, node, self.params)
        out = set()
        for c in steps:
            if _contains(c, node):
                return out
            if c.data == "comp_for":
                _names(c.children[0], out)
        return out

    def _comprehension(self, node):
        """A comprehension in a function: its Python function nested in this one (the
        function's variables its cells), defined before the statement, called with the
        items of its first iterable (evaluated here, as the closure compiler's is in
        the enclosing scope); a generator expression's generator handed out as
        comprehensions.py hands it out."""
        if self.cached:
            raise Unsupported("a comprehension in a loop whose variables are cached")
        if self.info is None:  # (a loop of the program: its variables are the program's)
            return self._program_comprehension(node)
        if self.info.kind not in ("function", "comprehension"):
            raise Unsupported("a comprehension outside a function")
        first = node.children[-1].children[0].children[1]
        items = self.expr(first)
        line, col = _pos(first)
        fn_def, kind = self.comp.inline_comprehension(self, node)
        self.hoisted.append(fn_def)
        call = _call(
            _name(fn_def.name),
            at(_call(_h("iterate"), items), line, col),
            _h("gv"),
            _h("gs"),
            _h("builtins"),
        )
        if kind == "genexp":
            call = _call(_h("LazyIterator"), call, ast.Constant("generator object <genexpr>"))
        return at(call, *_pos(node))

    e_listcomp = e_setcomp = e_dictcomp = e_genexp = _comprehension

    def summed_comprehension(self, node, call_at):
        """(the Python function of the generator expression `node` summed as it goes,
        kind "sum" of fast_comprehensions, the items of its first iterable computed
        here) for a call `sum(node)` at call_at, or Unsupported."""
        if self.cached:
            raise Unsupported("a comprehension in a loop whose variables are cached")
        first = node.children[-1].children[0].children[1]
        if self.info is None:
            fn = self.comp.comprehension_function(node, "sum", call_at)
            if fn is None:
                raise Unsupported("a comprehension this tier does not compile")
            made = self.const(fn, "summed" + self.tmp()[2:])
        elif self.info.kind in ("function", "comprehension"):
            fn_def, _ = self.comp.inline_comprehension(self, node, "sum", call_at)
            self.hoisted.append(fn_def)
            made = _name(fn_def.name)
        else:
            raise Unsupported("a comprehension outside a function")
        self.consts["@iterate"] = iterate
        items = at(_call(_h("iterate"), self.expr(first)), *_pos(first))
        return made, items

    def _program_comprehension(self, node):
        """A comprehension in a loop of the program: the Python function the closure
        compiler's code calls for it (fast_comprehensions.comprehension_unit), called
        with the items of its first iterable (evaluated here) as that code calls it."""
        fn = self.comp.comprehension_function(node)
        if fn is None:
            raise Unsupported("a comprehension this tier does not compile")
        first = node.children[-1].children[0].children[1]
        items = self.expr(first)
        line, col = _pos(first)
        call = _call(
            self.const(fn, "comprehension" + self.tmp()[2:]),
            at(_call(_h("iterate"), items), line, col),
            _h("gv"),
            _h("gs"),
            _h("builtins"),
        )
        self.consts["@iterate"] = iterate
        if node.data == "genexp":
            self.consts["@LazyIterator"] = LazyIterator
            call = _call(_h("LazyIterator"), call, ast.Constant("generator object <genexpr>"))
        return at(call, *_pos(node))

    def s_nonlocal_stmt(self, node):
        return []  # (scopes.py has read it: the function's `nonlocal` comes first)

    def s_funcdef(self, node):
        name_tok, params, _returns, suite = node.children
        self.at_definition = []
        made, value = self._nested(node, name_tok.value, params, suite, False)
        before, self.at_definition = self.at_definition, []
        return [
            *before,
            made,
            ast.Assign(targets=[self.store_target(name_tok.value)], value=value),
        ]

    def _given(self, node, def_name, free):
        """({name: the names of its class, table, dict and names (fast_objects._hoisted's)},
        those read by this function's own prologue) for the variables of this function
        that the nested function defined by `node` reads (`free`, bound before it) when
        it calls itself (`build_topo`: many calls a definition), and that nothing binds
        again once it is defined: `node` a statement of this
        function's body itself (run once a call), no statement after it binding them.
        Their classes are read once where the function is defined (or, for a parameter
        this function reads so, when its call starts), not at each of its calls: an
        object's class never changes, nor the dict of its variables."""
        info, suite = self.info, self.suite
        if suite is None or info.kind != "function" or def_name not in free:
            # (only a function that calls itself: the reads kept in cells, made at each
            # definition, cost more than a call's own reads of them, and they add
            # objects to the collector's count where a function is defined at each
            # call and called once, as micrograd's `_backward` is)
            return {}, set()
        stmts = [c for c in suite.children if isinstance(c, Tree)]
        at_def = [i for i, c in enumerate(stmts) if c is node]
        if not at_def:
            return {}, set()
        again = FunctionInfo("", "function", info.parent)
        again.analyse(stmts[at_def[0] + 1 :])
        own = getattr(self, "given", {})
        given, by_prologue, tag = {}, set(), None
        for x in sorted(free):
            if (
                x == def_name
                or x in again.locals
                or x not in info.locals
                or x in info.globals
                or x in info.nonlocals
                or x in own
            ):
                continue
            if x in getattr(self, "fixed", ()) and self._mode(x) == "local":
                given[x] = _hoisted(x)  # (read once by this function's own prologue)
                by_prologue.add(x)
                continue
            if tag is None:
                tag = self.tmp()[2:]
            given[x] = tuple(f"{k}_{tag}" for k in _hoisted(x))
        return given, by_prologue

    def _own_calls(self, node, def_name, inner):
        """Whether the calls of `def_name` in the nested function that the `def` statement
        `node` defines call that function itself: its name a variable of this function
        that only `node` binds (a statement of this function's body itself, run once a
        call: no statement after it, no `nonlocal`, no handler binds it), not one of the
        nested function's own."""
        info, suite = self.info, self.suite
        if (
            suite is None
            or info.kind != "function"
            or def_name in inner.locals
            or def_name in inner.nonlocals
            or def_name not in info.locals
            or def_name in info.globals
            or def_name in info.nonlocals
            or _unbinding(suite) is not False
        ):
            return False
        stmts = [c for c in suite.children if isinstance(c, Tree)]
        at_def = [i for i, c in enumerate(stmts) if c is node]
        if not at_def:
            return False
        again = FunctionInfo("", "function", info.parent)
        again.analyse(stmts[at_def[0] + 1 :])
        return def_name not in again.locals

    def e_lambda_(self, node):
        params, body = node.children
        made, value = self._nested(node, "<lambda>", params, body, True)
        self.hoisted.append(made)  # (defined before the statement: fast_tier.Emitter.stmt)
        line, col = _pos(node)
        return at(value, line or 1, col or 1)

    def _nested(self, node, name, params, body_node, is_lambda):
        """(the statement defining the factory of the nested function's Python function,
        the expression making its UserFunction) for a `def` or a lambda."""
        comp, info = self.comp, self.info
        if info is None or info.kind != "function":
            raise Unsupported("a function defined outside a function")
        names, positional, defaults = nested_parameters(params)  # (fast_forms.py)
        inner = FunctionInfo(name, "function", info)
        inner.locals.update(names)
        if positional:
            inner.first_param = positional[0]
        inner.analyse([body_node])
        if inner.generator:
            raise Unsupported("a nested generator")
        # the closure compiler's `def` or lambda, compiled where it stands (its maker)
        outer, comp.fn = comp.fn, info
        try:
            make = comp.e_lambda_(node) if is_lambda else comp._def_value(node)[1]
        finally:
            comp.fn = outer
        k = str(self.n)  # (its Python function's name: `@def <name> <k>`)
        self.n += 1
        em = type(self)(comp, inner)
        em.consts = self.consts  # (one namespace: the names of constants kept apart)
        em.n = self.n
        if not is_lambda and positional == names and self._own_calls(node, name, inner):
            em.own_def = (name, "@def " + name + " " + k, len(names))
        em.enclosing = self.enclosing | {info}
        em.suite, em.params = (None if is_lambda else body_node), names
        em.bound_at = {**self.bound_at, info: self.bound_here(node)}
        if is_lambda:  # (its value, no statement: no line set)
            value = em.expr(body_node)
            body = [*em.hoisted, ast.Return(value=value)]
        else:
            # its parameters and the variables of the function around that it reads, when
            # nothing there can bind them while it runs (no `nonlocal`, no `except ...
            # as`): their classes read once per call (fast_objects.unit)
            held = _unbinding(self.suite) is False and not inner.nonlocals
            free = _free_names(body_node) - inner.locals if held else set()
            free = {n for n in free if em._held(n)}
            em.unit([*names, *sorted(free)], body_node)
            em.given, em.given_by_prologue = self._given(node, name, free)
            body = em.block(body_node)
            body = [*em.prologue(), *body]
            self.at_definition = self.given_reads(em)  # (fast_objects.py)
        self.n = em.n
        if inner.nonlocals:
            body.insert(0, ast.Nonlocal(names=sorted(inner.nonlocals)))
        # its name its own in the function around (fast_support.fast_name reads the
        # function's name before the space), `@me` None (nested_function)
        made = self.function_def("@def " + name + " " + k, [*names, "@me"], body)
        made.args.defaults = [ast.Constant(None)]
        self.consts["@nested_function"] = nested_function
        maker = self.const(make, "def_" + k)
        proto = self.const([None, None, None], "proto_" + k)  # (nested_function)
        value = _call(
            _h("nested_function"),
            maker,
            _h("gs"),
            _name(made.name),
            ast.Constant(len(names) if positional == names else -1),  # (else bound first)
            proto,
            *self.defaults_given(defaults),  # (fast_forms.py)
        )
        return made, value


def _unbinding(suite):
    """Whether `suite` (None: a lambda's body, unknown) has a statement that may bind
    or unbind a variable of its function from a function inside it or in a handler
    (`nonlocal`, `except ... as`)."""
    if suite is None:
        return None
    todo = [suite]
    while todo:
        n = todo.pop()
        if isinstance(n, Tree):
            if n.data == "nonlocal_stmt" or (
                n.data == "except_clause" and n.children[-2] is not None
            ):
                return True
            todo.extend(n.children)
    return False


def _free_names(node):
    """The names `node` reads (with those it binds: the caller takes its locals out)."""
    out = set()
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, Tree):
            if n.data == "name" and n.children and hasattr(n.children[0], "value"):
                out.add(n.children[0].value)
            todo.extend(n.children)
    return out


def _names(target, out):
    if isinstance(target, Tree):
        if target.data == "name":
            out.add(target.children[0].value)
        elif target.data in ("tuple_items", "exprlist_items", "list_items", "list_"):
            for c in target.children:
                _names(c, out)


def _contains(tree, node):
    if tree is node:
        return True
    return isinstance(tree, Tree) and any(_contains(c, node) for c in tree.children)


def bound_before(suite, node, params):
    """The names certainly bound when the statement of `suite` (a function's body)
    that holds `node` starts: its parameters, the names assigned by the statements
    of the body before it (not inside them: an `if`'s, a loop's), the functions
    `def`ined there, and the name of `node` itself when the statement is its `def`."""
    out = set(params or ())
    if suite is None:  # (a lambda's body: no statement)
        return out
    for child in suite.children:
        if not isinstance(child, Tree):
            continue
        if _contains(child, node):
            if child is node and node.data == "funcdef":
                out.add(node.children[0].value)
            return out
        smalls = child.children if child.data == "simple_stmt" else [child]
        for st in smalls:
            if not isinstance(st, Tree):
                continue
            if st.data == "assign":
                for t in st.children[:-1]:
                    _names(t, out)
            elif st.data == "funcdef":
                out.add(st.children[0].value)
    return out


def nests_only_defs(suite):
    """Whether the functions `suite` defines are all `def` statements and lambdas (no
    class or decorated definition)."""
    found = [True]

    def walk(node):
        if not isinstance(node, Tree):
            return
        if node.data in ("classdef", "decorated"):
            found[0] = False
            return
        for c in node.children:
            walk(c)

    walk(suite)
    return found[0]
