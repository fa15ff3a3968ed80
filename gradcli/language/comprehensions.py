"""Displays and comprehensions: lists, tuples, dicts and sets with `*`/`**`
unpacking, and list/set/dict comprehensions and generator expressions, each
running in a scope of its own (as in Python 3), within the limits."""

from __future__ import annotations

from .parser import Tree

from ..runtime.errors import GradTypeError
from ..runtime import context
from ..runtime.limits import check_items
from ..core.convert import type_name
from ..library.stdlib import LazyIterator
from . import runtime as rt
from .containers import _key as _hashable, constant_item as _constant, constant_set as _constant_set
from .functions import Scope
from .iteration import iterate, sample, spread, step, tick
from .positions import pos, syntax_error
from .scopes import FunctionInfo
from .state import state


class Comprehensions:
    """Compiles displays and comprehensions (mixed into the Compiler)."""

    # a comprehension in a function of the fast tier (fast_closures.py reaches it here;
    # the fast tier is imported when a program first has a loop, a def or a comprehension)
    @staticmethod
    def inline_comprehension(outer, node, kind=None, call_at=None):
        from .fast_comprehensions import inline_comprehension

        return inline_comprehension(outer, node, kind, call_at)

    def comprehension_function(self, node, kind=None, call_at=None):  # (in a fast loop)
        from .fast_comprehensions import comprehension_function

        return comprehension_function(self, node, kind, call_at)

    def _items(self, nodes):
        """args(s) -> list for display items that may hold *unpacking."""
        parts = [
            (
                isinstance(c, Tree) and c.data == "star_expr",
                self.expr(c.children[1] if isinstance(c, Tree) and c.data == "star_expr" else c),
            )
            for c in nodes
            if c is not None
        ]
        if not any(star for star, _ in parts):
            items = tuple(e for _, e in parts)
            return _display(items, list)

        def run(s):
            out = spread(parts, s)
            check_items(len(out), "the display")
            return out

        return run

    def e_list_(self, node):
        inner = node.children[0] if node.children else None
        return self._items(inner.children if inner is not None else ())

    def e_list_items(self, node):
        return self._items(node.children)

    def e_tuple_items(self, node):
        items = self._items(node.children)
        made = getattr(items, "made", None)
        if made is not None:  # (_display: the items in order, no unpacking)
            return _display(made, tuple)
        return lambda s: tuple(items(s))

    e_exprlist_items = e_tuple_items

    def e_star_expr(self, node):
        raise syntax_error("can't use starred expression here", node)

    def e_set_(self, node):
        nodes = [c for c in node.children[0].children if c is not None]
        items = self._items(nodes)
        if len(nodes) > 2 and all(_constant(c) for c in nodes):
            return lambda s: _constant_set(items(s))
        return self._guard(lambda s: set(_hashable(k) for k in items(s)), node)

    def e_dict_(self, node):
        entries = []
        for c in (
            node.children[0].children if node.children and node.children[0] is not None else ()
        ):
            if c is None:
                continue
            if c.data == "pair":
                entries.append((self.expr(c.children[0]), self.expr(c.children[1])))
            else:
                entries.append((None, self.expr(c.children[1])))

        def run(s):
            d = {}
            for k, v in entries:
                if k is None:
                    m = v(s)
                    if not isinstance(m, dict):
                        raise GradTypeError(f"'{type_name(m)}' object is not a mapping")
                    d.update(m)
                else:
                    d[_hashable(k(s))] = v(s)
            return d

        return self._guard(run, node)

    # ------------------------------------------------------------ comprehensions
    def _fast(self, node, run):
        """A comprehension's closure `run`, or its fast code (fast_comprehensions.py)
        when the fast tier compiles it and the run has the fast tier on."""
        from .fast_comprehensions import comprehension_unit

        fast = comprehension_unit(self, node)
        if fast is None:
            return run
        clauses = node.children[-1]
        first_iter = self.expr(clauses.children[0].children[1])

        def either(s):
            if context.current.fast_tier:
                return fast(s, first_iter)
            return run(s)

        return either

    def _comprehension(self, node, elements, lazy=False):
        """run(s, add) that calls add(cs) for each element of a comprehension, in its
        own scope cs; `elements` compiles the element closures in that scope."""
        clauses = node.children
        first_for = clauses[0]
        first_iter = self.expr(first_for.children[1])  # in the enclosing scope
        info = FunctionInfo("<comprehension>", "comprehension", self.fn)
        for c in clauses:
            if c.data == "comp_for":
                info._target(c.children[0])
        outer, self.fn = self.fn, info
        try:
            steps = []
            for i, c in enumerate(clauses):
                if c.data == "comp_for":
                    steps.append(
                        (
                            "for",
                            self.target(c.children[0]),
                            None if i == 0 else self.expr(c.children[1]),
                            pos(c.children[1]),
                        )
                    )
                else:
                    steps.append(("if", self.expr(c.children[0]), None, None))
            made = elements()
        finally:
            self.fn = outer
        steps = tuple(steps)
        truth = rt.truth
        flat = len(steps) == 1 or (len(steps) == 2 and steps[1][0] == "if")
        if lazy:
            if flat:  # one `for`, at most one `if`: the same steps in one loop
                return _flat_lazy(first_iter, steps), made
            return self._lazy_comprehension(first_iter, steps), made
        if flat:
            return _flat(first_iter, steps), made

        def run(s, add):
            items0 = iterate(first_iter(s))
            cs = Scope({}, s.globals if s.globals is not None else s, s.depth, s.closure)
            max_steps = context.current.limits.max_steps

            # `level` is handed itself, not closed over (a closure over itself would
            # be a reference cycle holding the comprehension's scope)
            def level(level, k, items=None):
                if k == len(steps):
                    add(cs)
                    return
                kind, a, b, where = steps[k]
                if kind == "if":
                    if truth(a(cs)):
                        level(level, k + 1)
                    return
                for item in items if items is not None else iterate(b(cs)):
                    a(cs, item)
                    if max_steps is not None:
                        step(max_steps, *where)
                    tick(*where)
                    level(level, k + 1)

            level(level, 0, items0)

        return run, made

    @staticmethod
    def _lazy_comprehension(first_iter, steps):
        """start(s, elt): evaluates the first iterable now, and returns a Python
        generator of the elements (a genexp's own scope, steps counted as loops)."""
        truth = rt.truth
        n = len(steps)

        def start(s, elt):
            items0 = iterate(first_iter(s))
            cs = Scope({}, s.globals if s.globals is not None else s, s.depth, s.closure)
            max_steps = context.current.limits.max_steps

            def level(level, k, items=None):  # handed itself: no cycle (see above)
                if k == n:
                    yield elt(cs)
                    return
                kind, a, b, where = steps[k]
                if kind == "if":
                    if truth(a(cs)):
                        yield from level(level, k + 1)
                    return
                for item in items if items is not None else iterate(b(cs)):
                    a(cs, item)
                    if max_steps is not None:
                        step(max_steps, *where)
                    tick(*where)
                    yield from level(level, k + 1)

            return level(level, 0, items0)

        return start

    def e_listcomp(self, node):
        elt, clauses = node.children
        run, e = self._comprehension(clauses, lambda: self.expr(elt))

        collect = getattr(run, "collect", None)
        if collect is not None:  # (_flat)
            return self._guard(self._fast(node, lambda s: collect(s, e)), node)

        def listcomp(s):
            out = []
            append = out.append
            limit = context.current.limits.max_items

            def add(cs):
                append(e(cs))
                if len(out) > limit:
                    check_items(len(out), "the list")

            run(s, add)
            return out

        return self._guard(self._fast(node, listcomp), node)

    def e_genexp(self, node):
        """A generator expression: its first iterable is evaluated at once (as in
        Python), the rest one value at a time as its consumer asks."""
        elt, clauses = node.children
        start, e = self._comprehension(clauses, lambda: self.expr(elt), lazy=True)
        run = lambda s: LazyIterator(start(s, e), "generator object <genexpr>")  # noqa: E731
        return self._guard(self._fast(node, run), node)

    def e_setcomp(self, node):
        elt, clauses = node.children
        run, e = self._comprehension(clauses, lambda: self.expr(elt))

        def setcomp(s):
            out = set()

            def add(cs):
                out.add(_hashable(e(cs)))
                if len(out) > context.current.limits.max_items:
                    check_items(len(out), "the set")

            run(s, add)
            return out

        return self._guard(self._fast(node, setcomp), node)

    def e_dictcomp(self, node):
        key, value, clauses = node.children
        run, (k, v) = self._comprehension(clauses, lambda: (self.expr(key), self.expr(value)))

        def dictcomp(s):
            out = {}

            def add(cs):
                out[_hashable(k(cs))] = v(cs)
                if len(out) > context.current.limits.max_items:
                    check_items(len(out), "the dict")

            run(s, add)
            return out

        return self._guard(self._fast(node, dictcomp), node)


def _flat(first_iter, steps):
    """run(s, add) of a comprehension of one `for` and at most one `if` (the loop of
    `Comprehensions._comprehension`'s levels, written out: the variable stored in
    place, `tick` inlined); `run.collect(s, e)` makes a list comprehension's list in
    the loop itself; `run.begin(s)` and `run.scopes(begun)` are the generator
    expression's two halves (its first iterable evaluated at once, as in Python)."""
    _, store, _, (line, col) = steps[0]
    cond = steps[1][1] if len(steps) == 2 else None
    name = getattr(store, "local_name", None)  # (the comprehension's own variable)
    truth = rt.truth

    def begin(s):
        items0 = iterate(first_iter(s))
        cs = Scope({}, s.globals if s.globals is not None else s, s.depth, s.closure)
        return items0, cs, context.current.limits.max_steps

    def scopes(begun):
        """The comprehension's scope once per element (its variable bound)."""
        items0, cs, max_steps = begun
        vars = cs.vars
        for item in items0:
            if name is not None:
                vars[name] = item
            else:
                store(cs, item)
            if max_steps is not None:
                step(max_steps, line, col)
            state.ticks -= 1  # (iteration.tick)
            if state.ticks <= 0:
                state.ticks = sample(line, col)
            if cond is not None:
                ok = cond(cs)
                if ok is not True and (ok is False or not truth(ok)):
                    continue
            yield cs

    def run(s, add):
        for cs in scopes(begin(s)):
            add(cs)

    def collect(s, e):
        items0, cs, max_steps = begin(s)
        out = []
        append = out.append
        limit = context.current.limits.max_items
        vars = cs.vars
        for item in items0:  # (scopes, written out)
            if name is not None:
                vars[name] = item
            else:
                store(cs, item)
            if max_steps is not None:
                step(max_steps, line, col)
            state.ticks -= 1
            if state.ticks <= 0:
                state.ticks = sample(line, col)
            if cond is not None:
                ok = cond(cs)
                if ok is not True and (ok is False or not truth(ok)):
                    continue
            append(e(cs))
            if len(out) > limit:
                check_items(len(out), "the list")
        return out

    run.collect, run.begin, run.scopes = collect, begin, scopes
    return run


def _flat_lazy(first_iter, steps):
    """start(s, elt) of a generator expression of one `for` and at most one `if`
    (`Comprehensions._lazy_comprehension`'s levels written out)."""
    run = _flat(first_iter, steps)
    begin, scopes = run.begin, run.scopes

    def start(s, elt):
        return (elt(cs) for cs in scopes(begin(s)))

    return start


def _display(items, kind):
    """The closure of a list or tuple display of `items` (closures, no unpacking),
    evaluated in order; one, two or three items written out."""
    n = len(items)
    if n == 0:
        run = (lambda s: []) if kind is list else (lambda s: ())
    elif n == 1:
        (a,) = items
        run = (lambda s: [a(s)]) if kind is list else (lambda s: (a(s),))
    elif n == 2:
        a, b = items
        run = (lambda s: [a(s), b(s)]) if kind is list else (lambda s: (a(s), b(s)))
    elif n == 3:
        a, b, c = items
        run = (lambda s: [a(s), b(s), c(s)]) if kind is list else (lambda s: (a(s), b(s), c(s)))
    elif kind is list:
        run = lambda s: [i(s) for i in items]  # noqa: E731
    else:
        run = lambda s: tuple([i(s) for i in items])  # noqa: E731
    run.made = items
    return run
