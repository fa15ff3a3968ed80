"""Compound statements: `if`, `while`, `for`, `def` and `with`."""

from __future__ import annotations

from .parser import Tree

from ..runtime.errors import GradError, GradTypeError
from ..runtime import context
from . import runtime as rt
from ..library.values import GradModeContext, program_object
from . import datamodel
from .iteration import iterate, sample, step
from ..runtime.limits import SAMPLE
from .runtime import BREAK, CONTINUE
from .exceptions import Handling, catchable, matches
from .positions import located, pos
from .state import state


def _replayable(comp, suite, target, cond):
    """language/replay.Body.compile for a loop with a `for` target or a `while`
    condition (imported with the first loop: start-up)."""
    from .replay import Body

    return Body.compile(comp, suite, target, cond)


def _looped(loop, b, body, other):
    """A loop statement's closure: `loop(s, again)` runs the iterations (`again(s)` one
    body) and returns their signal, or `other` (the `else` block, None if none) when
    the loop ran out.  A body that qualifies for replay (language/replay.py) runs its
    iterations through one replay run, whose names are bound before anything after
    the loop (its `else` included) runs, however the loop ends."""

    def ended(r, s):
        if r is not other:  # a break (None) or a signal
            return r
        return other(s) if other is not None else None

    def plain(s):
        return ended(loop(s, b), s)

    if body is None:
        return plain

    def run(s):
        if not context.current.replay:
            return plain(s)
        runner = body.start(s)
        try:
            r = loop(s, runner.iteration)
        finally:
            runner.finish()
        return ended(r, s)

    return run


#: compile an `if` without elif to its own closure (tests/test_callsites.py compiles
#: programs with it off too, to compare with the general closure)
ONE_TEST = True


class Control:
    """Compiles the block statements (mixed into the Compiler)."""

    def s_if_stmt(self, node):
        cond, suite, *rest = node.children
        else_suite = rest.pop() if rest else None
        branches = [(self.expr(cond), self.block(suite), pos(cond))]
        for el in rest:
            c, b = el.children
            branches.append((self.expr(c), self.block(b), pos(c)))
        other = self.block(else_suite) if else_suite is not None else None
        truth = rt.truth
        if len(branches) == 1 and ONE_TEST:  # no elif: one test, truth() only for a non-bool
            ((c, b, (line, col)),) = branches

            def run1(s):
                state.line = line
                try:
                    ok = c(s)
                    if ok is not True and ok is not False:
                        ok = truth(ok)
                except GradError as e:
                    raise e.at(line, col)
                if ok:
                    return b(s)
                if other is not None:
                    return other(s)

            return run1

        def run(s):
            for c, b, (line, col) in branches:
                state.line = line
                try:
                    ok = truth(c(s))
                except GradError as e:
                    raise e.at(line, col)
                if ok:
                    return b(s)
            if other is not None:
                return other(s)

        return run

    def s_while_stmt(self, node):
        cond, suite, else_suite = node.children
        c = self.expr(cond)
        body = _replayable(self, suite, None, cond)
        b = self.block(suite) if body is None else body.run_all
        other = self.block(else_suite) if else_suite is not None else None
        line, col = pos(cond)
        truth = rt.truth

        def loop(s, again):
            max_steps = context.current.limits.max_steps
            n = SAMPLE  # iterations until the next look at the run's memory
            while True:
                state.line = line
                try:
                    ok = c(s)
                    if ok is not True and ok is not False:
                        ok = truth(ok)
                except GradError as e:
                    raise e.at(line, col)
                if not ok:
                    return other
                if max_steps is not None:
                    step(max_steps, line, col)
                n -= 1
                if not n:
                    n = sample(line, col)
                r = again(s)  # iteration.body, inlined
                if r is not None and r is not CONTINUE:
                    return None if r is BREAK else r

        return _looped(loop, b, body, other)

    def s_for_stmt(self, node):
        target, iterable, suite, else_suite = node.children
        store = self.target(target)
        it = self.expr(iterable)
        body = _replayable(self, suite, target, None)
        b = self.block(suite) if body is None else body.run_all
        other = self.block(else_suite) if else_suite is not None else None
        line, col = pos(iterable)

        def loop(s, again):
            try:
                items = iterate(it(s))
            except GradError as e:
                raise e.at(line, col)
            if type(items) not in (range, list):
                again = b  # taken one at a time, by code that may be the program's own
            max_steps = context.current.limits.max_steps
            n = SAMPLE  # iterations until the next look at the run's memory
            for item in items:
                store(s, item)
                if max_steps is not None:
                    step(max_steps, line, col)
                n -= 1
                if not n:
                    n = sample(line, col)
                r = again(s)  # iteration.body, inlined
                if r is not None and r is not CONTINUE:
                    return None if r is BREAK else r
            return other

        return _looped(loop, b, body, other)

    def s_with_stmt(self, node):
        *items, suite = node.children
        b = self.block(suite)
        for item in reversed(items):
            b = self._with(item, b)
        return b

    def _with(self, item, b):
        ctx, alias = item.children
        c = self.expr(ctx)
        line, col = pos(ctx)
        bind = self.store_name(alias.value) if alias is not None else None

        def run(s):
            try:
                m = c(s)
                if program_object(m):  # its __enter__ and __exit__
                    return datamodel.run_with(m, bind, b, s, line, col)
                if not (
                    isinstance(m, GradModeContext) or getattr(type(m), "language_context", False)
                ):  # library contexts
                    raise GradTypeError(
                        "with needs no_grad or enable_grad (with or without parentheses)"
                    )
            except GradError as e:
                raise e.at(line, col)
            if bind:
                bind(s, m)
            if type(m) is GradModeContext:
                return m.run(b, s)
            try:
                with m:
                    return b(s)
            except GradError as e:  # an error of the context's own (its __enter__)
                raise e.at(line, col)

        return run

    def s_try_stmt(self, node):
        suite, *rest = node.children
        handlers = [c for c in rest if isinstance(c, Tree) and c.data == "except_clause"]
        else_suite, finally_suite = rest[len(handlers) :]
        return self._try(suite, handlers, else_suite, finally_suite)

    def s_try_finally(self, node):
        suite, finally_suite = node.children
        return self._try(suite, [], None, finally_suite)

    def _alias_binding(self, name):
        """(bind, unbind) of `except E as name`: as in Python, the name is unbound when
        the handler ends (the error's traceback would otherwise keep the scope and all
        it holds alive in a reference cycle)."""
        store = self.store_name(name)
        info = self.fn
        glob = info is not None and name in info.globals

        def unbind(s):
            store(s, None)
            vars = (s.globals or s).vars if glob else s.vars
            vars.pop(name, None)

        return store, unbind

    def _try(self, suite, handlers, else_suite, finally_suite):
        b = self.block(suite)
        compiled = []
        for h in handlers:
            typ, alias, hsuite = h.children
            compiled.append(
                (
                    self.expr(typ) if typ is not None else None,
                    self._alias_binding(alias.value) if alias is not None else None,
                    self.block(hsuite),
                    pos(typ) if typ is not None else pos(h),
                )
            )
        other = self.block(else_suite) if else_suite is not None else None
        final = self.block(finally_suite) if finally_suite is not None else None

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
                        return True, hb(s)
                    finally:
                        Handling.stack.pop()
                        if bind is not None:
                            bind[1](s)
            return False, None

        def run(s):
            try:
                try:
                    r = b(s)
                except GradError as err:
                    if not compiled or not catchable(err):
                        raise
                    done, r = handle(s, err)
                    if not done:
                        raise
                    return r
                if r is None and other is not None:
                    return other(s)
                return r
            finally:
                if final is not None:
                    f = final(s)
                    if f is not None:
                        return f  # noqa: B012  (a return in finally wins, as in Python)

        return run
