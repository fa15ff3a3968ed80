"""Generator bodies: a function with `yield` is compiled a second way, its
statements that (directly or in their blocks) yield becoming Python generator
functions, so the body runs only as far as its consumer asks (`next(g)`, a `for`
loop, `zip` with an endless generator, `any(...)`), as in Python.

In a generator body a block is a sequence of plain statement closures (those with
no `yield`: compiled as everywhere else) and generator closures, run with `yield
from`; either returns the same signals (None, BREAK, CONTINUE, a Return).  `yield`
is a statement, or the right side of an assignment (`x = yield v` binds None:
gradcli has no `send`); inside any other expression it is a syntax error.  Loops
count --max-steps as everywhere, the generator's steps run inside its consumer's
call depth (functions.Generator), and an abandoned generator's `finally` blocks
do not run (docs/language.md)."""

from __future__ import annotations

from .parser import Token, Tree

from ..runtime.errors import GradError, GradTypeError
from ..runtime import context
from ..library.values import GradModeContext
from . import runtime as rt
from .exceptions import Handling, catchable, matches
from .functions import Generator
from .iteration import iterate, step, tick
from .positions import located, pos, syntax_error
from .runtime import BREAK, CONTINUE
from .state import state

_OWN_SCOPE = frozenset(
    {"funcdef", "classdef", "decorated", "lambda_", "listcomp", "setcomp", "dictcomp", "genexp"}
)
_YIELDS = frozenset({"yield_", "yield_from"})


def has_yield(node):
    """Whether a statement yields (not counting functions, classes and comprehensions
    it defines: their yields are their own)."""
    if not isinstance(node, Tree):
        return False
    if node.data in _YIELDS:
        return True
    if node.data in _OWN_SCOPE:
        return False
    return any(has_yield(c) for c in node.children)


def _yielded(node):
    """The yield node a statement is made of (`yield v`, `(yield v)`), or None."""
    if (
        isinstance(node, Tree)
        and node.data in ("yield_stmt", "expr_stmt")
        and len(node.children) == 1
    ):
        node = node.children[0]
    return node if isinstance(node, Tree) and node.data in _YIELDS else None


class GeneratorBodies:
    """Compiles the body of a function with `yield` (mixed into the Compiler)."""

    def gen_body(self, suite):
        """The generator function of a generator's body: gen(scope) yields its values
        and returns what the body returns."""
        b = self._gblock(suite)
        if b[0]:
            return b[1]
        plain = b[1]

        def run(s):  # a body whose yields are all in unreachable code? (still a generator)
            return plain(s)
            yield  # unreachable: makes this a generator function

        return run

    def _gblock(self, suite):
        """(is_generator, closure) of an indented block in a generator body."""
        if not has_yield(suite):
            return False, self.block(suite)
        stmts = []
        self.depth += 1
        try:
            for child in suite.children:
                if child is None or isinstance(child, Token):
                    continue
                if not has_yield(child):
                    stmts.extend((False, fn) for fn, _ in self.stmt_list(child))
                elif child.data == "simple_stmt":
                    for small in child.children:
                        if small is None:
                            continue
                        if has_yield(small):
                            stmts.append((True, self._gsmall(small)))
                        else:
                            stmts.append((False, self.small(small)))
                else:
                    method = getattr(self, "g_" + child.data, None)
                    if method is None:
                        raise syntax_error("'yield' is not supported in this statement", child)
                    stmts.append((True, method(child)))
        finally:
            self.depth -= 1
        stmts = tuple(stmts)

        def run(s):
            for is_gen, st in stmts:
                r = (yield from st(s)) if is_gen else st(s)
                if r is not None:
                    return r

        return True, run

    def _gsuite(self, suite):
        """A block as a generator function (a plain block wrapped)."""
        is_gen, b = self._gblock(suite)
        if is_gen:
            return b

        def run(s):
            return b(s)
            yield  # unreachable: makes this a generator function

        return run

    # ------------------------------------------------------------ simple statements
    def _gsmall(self, node):
        fn = self._gsimple(node)
        line, col = pos(node)

        def stmt(s):
            state.line = line
            try:
                return (yield from fn(s))
            except Exception as e:
                raise located(e, line, col) from None

        return stmt

    def _gsimple(self, node):
        y = _yielded(node)
        if y is not None:
            return self._gyield(y)
        if node.data == "assign" and _yielded(node.children[-1]) is not None:
            setters = [self.target(t) for t in node.children[:-1]]
            produce = self._gyield(node.children[-1])

            def assign(s):
                v = yield from produce(s)
                for st in setters:
                    st(s, v)

            return assign
        first = next((c for c in node.iter_subtrees_topdown() if c.data in _YIELDS), node)
        raise syntax_error(
            "'yield' inside an expression is not supported: use it as a "
            "statement or as `x = yield value`",
            first,
        )

    def _gyield(self, node):
        """A generator function yielding what `yield v` / `yield from it` gives; it
        returns the value of the yield expression."""
        if node.data == "yield_":
            v = self.expr(node.children[0]) if node.children[0] is not None else None

            def one(s):
                yield v(s) if v is not None else None

            return one
        src = self.expr(node.children[0])

        def many(s):
            it = src(s)
            for item in iterate(it):  # noqa: UP028 (a generator over iterate(), not the source)
                yield item
            return it.result if type(it) is Generator else None

        return many

    # ------------------------------------------------------------ blocks
    def g_if_stmt(self, node):
        cond, suite, *rest = node.children
        else_suite = rest.pop() if rest else None
        branches = [(self.expr(cond), self._gsuite(suite), pos(cond))]
        for el in rest:
            c, b = el.children
            branches.append((self.expr(c), self._gsuite(b), pos(c)))
        other = self._gsuite(else_suite) if else_suite is not None else None
        truth = rt.truth

        def run(s):
            for c, b, (line, col) in branches:
                state.line = line
                try:
                    ok = truth(c(s))
                except GradError as e:
                    raise e.at(line, col)
                if ok:
                    return (yield from b(s))
            if other is not None:
                return (yield from other(s))

        return run

    def g_while_stmt(self, node):
        cond, suite, else_suite = node.children
        c = self.expr(cond)
        b = self._gsuite(suite)
        other = self._gsuite(else_suite) if else_suite is not None else None
        line, col = pos(cond)
        truth = rt.truth

        def run(s):
            max_steps = context.current.limits.max_steps
            while True:
                state.line = line
                try:
                    ok = truth(c(s))
                except GradError as e:
                    raise e.at(line, col)
                if not ok:
                    return (yield from other(s)) if other is not None else None
                if max_steps is not None:
                    step(max_steps, line, col)
                tick(line, col)
                r = yield from b(s)
                if r is not None and r is not CONTINUE:
                    return None if r is BREAK else r

        return run

    def g_for_stmt(self, node):
        target, iterable, suite, else_suite = node.children
        store = self.target(target)
        it = self.expr(iterable)
        b = self._gsuite(suite)
        other = self._gsuite(else_suite) if else_suite is not None else None
        line, col = pos(iterable)

        def run(s):
            try:
                items = iterate(it(s))
            except GradError as e:
                raise e.at(line, col)
            max_steps = context.current.limits.max_steps
            for item in items:
                store(s, item)
                if max_steps is not None:
                    step(max_steps, line, col)
                tick(line, col)
                r = yield from b(s)
                if r is not None and r is not CONTINUE:
                    return None if r is BREAK else r
            if other is not None:
                return (yield from other(s))

        return run

    def g_with_stmt(self, node):
        *items, suite = node.children
        b = self._gsuite(suite)
        for item in reversed(items):
            b = self._gwith(item, b)
        return b

    def _gwith(self, item, b):
        ctx, alias = item.children
        c = self.expr(ctx)
        line, col = pos(ctx)
        bind = self.store_name(alias.value) if alias is not None else None

        def run(s):
            try:
                m = c(s)
                if not (
                    isinstance(m, GradModeContext) or getattr(type(m), "language_context", False)
                ):
                    raise GradTypeError(
                        "with needs no_grad or enable_grad (with or without parentheses)"
                    )
            except GradError as e:
                raise e.at(line, col)
            if bind:
                bind(s, m)
            with m:
                return (yield from b(s))

        return run

    def g_try_stmt(self, node):
        suite, *rest = node.children
        handlers = [c for c in rest if isinstance(c, Tree) and c.data == "except_clause"]
        else_suite, finally_suite = rest[len(handlers) :]
        return self._gtry(suite, handlers, else_suite, finally_suite)

    def g_try_finally(self, node):
        suite, finally_suite = node.children
        return self._gtry(suite, [], None, finally_suite)

    def _gtry(self, suite, handlers, else_suite, finally_suite):
        b = self._gsuite(suite)
        compiled = []
        for h in handlers:
            typ, alias, hsuite = h.children
            compiled.append(
                (
                    self.expr(typ) if typ is not None else None,
                    self._alias_binding(alias.value) if alias is not None else None,
                    self._gsuite(hsuite),
                    pos(typ) if typ is not None else pos(h),
                )
            )
        other = self._gsuite(else_suite) if else_suite is not None else None
        final = self._gsuite(finally_suite) if finally_suite is not None else None

        def handle(s, err):
            for typ, bind, hb, (line, col) in compiled:
                try:
                    ok = typ is None or matches(err, typ(s))
                except Exception as e:
                    raise located(e, line, col) from None
                if ok:
                    if bind is not None:
                        bind[0](s, err)
                    Handling.stack.append(err)
                    try:
                        return True, (yield from hb(s))
                    finally:
                        Handling.stack.pop()
                        if bind is not None:
                            bind[1](s)
            return False, None

        def body(s):
            try:
                r = yield from b(s)
            except GradError as err:
                if not compiled or not catchable(err):
                    raise
                done, r = yield from handle(s, err)
                if not done:
                    raise
                return r
            if r is None and other is not None:
                return (yield from other(s))
            return r

        if final is None:
            return body

        def run(s):
            try:
                r = yield from body(s)
            except GeneratorExit:
                raise  # abandoned while suspended: no finally (docs/language.md)
            except BaseException:
                f = yield from final(s)
                if f is not None:
                    return f  # a return in finally wins, as in Python
                raise
            f = yield from final(s)
            return f if f is not None else r

        return run
