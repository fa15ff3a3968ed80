"""Compound statements: `if`, `while`, `for`, `with` and `try`, compiled once for
every body, and the bodies of generator functions.

Each statement method reads its node once (its expressions, blocks, positions, the
replay of a loop, the handlers of a `try`) and builds its closure in one of two forms
from that: the plain form, `run(s) -> signal`, and, in the body of a function with
`yield` when the statement yields, the generator form, a generator function
returning the same signal, run with `yield from`.  The checks and bindings of a
statement (a `with` context's kind, an `except` clause's match and its
alias, the iterable of a `for`) are the same code in both forms; what differs is
only how a block is run: called, or run with `yield from`.  An `if` needs no second
form at all: when its blocks are generator functions, the plain closure returns the
generator of the branch taken, and the generator form runs that.

A generator body runs only as far as its consumer asks (`next(g)`, a `for` loop,
`zip` with an endless generator, `any(...)`), as in Python.  Its blocks are
sequences of plain statement closures (those with no `yield`: compiled as everywhere
else) and generator closures, run with `yield from`; either returns the same signals
(None, BREAK, CONTINUE, a Return).  `yield` is a statement, or the right side of an
assignment (`x = yield v` binds what `g.send(v)` gives, None for `next(g)`, through
`yield from` too); inside any other
expression it is a syntax error.  Loops count --max-steps as everywhere, the
generator's steps run inside its consumer's call depth (functions.Generator), and an
abandoned generator's `finally` blocks do not run (docs/language.md)."""

from __future__ import annotations

from .parser import Token, Tree

from ..runtime.errors import GradError, GradTypeError
from ..core.convert import type_name
from ..runtime import context
from . import runtime as rt
from ..library.values import GradModeContext, program_object
from ..library.stdlib import live, plain_items
from . import datamodel
from .iteration import iterate, sample, step, tick
from ..runtime.limits import SAMPLE
from .runtime import BREAK, CONTINUE
from .exceptions import Handling, catchable, matches
from .functions import HANDED, Generator
from .positions import located, pos, syntax_error
from .state import state
from .replay_draws import drawn


def _replayable(comp, suite, target, cond):
    """language/replay.Body.compile for a loop with a `for` target or a `while`
    condition (imported with the first loop: start-up)."""
    from .replay_head import compile_loop

    return compile_loop(comp, suite, target, cond)


def _whole(body):
    """A replayed body's statements as compiled (with its head: replay_head.Headed)."""
    return getattr(body, "whole", None) or body.run_all


def _left(e, line, col):
    """e, raised in a `for` loop: an error out of a generator it takes its items from
    (placed there, its function left) is a step of the call chain at the loop's
    iterable, as a function's is at its call (GradError.at)."""
    if e.pending_call is not None:
        e.at(line, col)
    return e


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
        if type(r) is tuple:  # (HANDED, the items left): the rest, its `else` too
            return body.rest(s, r[1])
        return ended(r, s)

    run.replays = True  # (the fast tier leaves a loop that qualifies for replay to it)
    run.body = body  # (whose `rest` the compiler sets: Compiler.compound)
    return run


class _Taken:
    """The items of a replayed loop that code of the program makes (a generator's, a
    `map` of its function): before each is taken, the names the replayed iterations
    made are bound, and the next iteration makes every check of the plan
    (replay.Run.taking)."""

    __slots__ = ("items", "run")

    def __init__(self, items, run):
        self.items, self.run = iter(items), run

    def __iter__(self):
        return self

    def __next__(self):
        if self.run is not None:
            self.run.taking()
        return next(self.items)


def _items(it, s, line, col):
    """The iteration of a `for` statement's iterable, its errors placed at it (a set or
    a dict changed while the loop goes through it too, as the fast tier places it)."""
    try:
        v = it(s)
        if type(v) is dict or type(v) is set:
            return live(v, line, col)
        return iterate(v)
    except GradError as e:
        raise e.at(line, col)


def _context_checked(m):
    """m, if a `with` statement may enter it: no_grad, enable_grad or a library
    context (a program's own object is entered by datamodel.run_with)."""
    if not (isinstance(m, GradModeContext) or getattr(type(m), "language_context", False)):
        if not hasattr(type(m), "__enter__"):  # (what Python refuses: in its words)
            raise GradTypeError(
                f"'{type_name(m)}' object does not support the context manager protocol"
            )
        raise GradTypeError("with needs no_grad or enable_grad (with or without parentheses)")
    return m


class _Handling:
    """The running of an `except` clause's block: the error it handles is the current
    one (Handling.stack: a bare `raise`, a new error's context) and bound to the
    clause's alias, which is unbound when the block ends."""

    __slots__ = ("s", "err", "bind")

    def __init__(self, s, err, bind):
        self.s, self.err, self.bind = s, err, bind

    def __enter__(self):
        if self.bind is not None:
            self.bind[0](self.s, self.err)
        Handling.stack.append(self.err)

    def __exit__(self, *exc):
        Handling.stack.pop()
        if self.bind is not None:
            self.bind[1](self.s)


_OWN_SCOPE = frozenset(
    {"funcdef", "classdef", "decorated", "lambda_", "listcomp", "setcomp", "dictcomp", "genexp"}
)
_YIELDS = frozenset({"yield_", "yield_from"})
#: the compound statements that may yield: compiled by control.py in the generator form
_COMPOUND = frozenset({"if_stmt", "while_stmt", "for_stmt", "with_stmt", "try_stmt", "try_finally"})


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


#: compile an `if` without elif to its own closure (tests/language/test_callsites.py compiles
#: programs with it off too, to compare with the general closure)
ONE_TEST = True


class Control:
    """Compiles the block statements and generator bodies (mixed into the Compiler).  Each method takes
    `gen`: whether the statement is one of a generator body that yields, to be
    compiled to the generator form."""

    def suite(self, suite, gen):
        """An indented block's closure: plain, or (gen) a generator function."""
        return self.gen_suite(suite) if gen else self.block(suite)

    def s_if_stmt(self, node, gen=False):
        cond, suite, *rest = node.children
        else_suite = rest.pop() if rest else None
        branches = [(self.expr(cond), self.suite(suite, gen), pos(cond))]
        for el in rest:
            c, b = el.children
            branches.append((self.expr(c), self.suite(b, gen), pos(c)))
        other = self.suite(else_suite, gen) if else_suite is not None else None
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

            return _generating(run1) if gen else run1

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

        return _generating(run) if gen else run

    def s_while_stmt(self, node, gen=False):
        cond, suite, else_suite = node.children
        c = self.expr(cond)
        body = None if gen else _replayable(self, suite, None, cond)
        b = self.suite(suite, gen) if body is None else _whole(body)
        self.replays += body is not None  # (fast_tier.py leaves such a loop to replay)
        other = self.suite(else_suite, gen) if else_suite is not None else None
        line, col = pos(cond)
        truth = rt.truth

        if gen:

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
                    if r is HANDED:
                        return (HANDED, None)
                    return None if r is BREAK else r

        return _looped(loop, b, body, other)

    def s_for_stmt(self, node, gen=False):
        target, iterable, suite, else_suite = node.children
        store = self.target(target)
        it = self.expr(iterable)
        if self.draws and id(node) in self.draws:  # (a forward's draw: replay_draws.py)
            it = drawn(it, pos(iterable)[0], self.draws[id(node)])
        body = None if gen else _replayable(self, suite, target, None)
        b = self.suite(suite, gen) if body is None else _whole(body)
        self.replays += body is not None  # (fast_tier.py leaves such a loop to replay)
        other = self.suite(else_suite, gen) if else_suite is not None else None
        line, col = pos(iterable)

        if gen:

            def run(s):
                items = _items(it, s, line, col)
                max_steps = context.current.limits.max_steps
                try:
                    for item in items:
                        store(s, item)
                        if max_steps is not None:
                            step(max_steps, line, col)
                        tick(line, col)
                        r = yield from b(s)
                        if r is not None and r is not CONTINUE:
                            return None if r is BREAK else r
                except GradError as e:
                    raise _left(e, line, col)
                if other is not None:
                    return (yield from other(s))

            return run

        name = getattr(store, "local_name", None)  # a variable of the scope: stored in place

        def loop(s, again):
            items = _items(it, s, line, col)
            taken = None
            if type(items) not in (range, list) and not plain_items(items):
                # taken one at a time, by code that may be the program's own (a
                # generator): a replayed run binds its names before each item (`_Taken`)
                run = getattr(again, "__self__", None)
                if run is None or not hasattr(run, "taking"):
                    again = b
                else:
                    items = taken = _Taken(items, run)
            # a replayed body's run, told when an item bound to names `a, b` is not a
            # tuple (its unpacking may run the program's code: replay.Run.unsteady)
            unsteady = (
                getattr(getattr(again, "__self__", None), "unsteady", None)
                if name is None and body is not None
                else None
            )
            max_steps = context.current.limits.max_steps
            n = SAMPLE  # iterations until the next look at the run's memory
            vars = s.vars
            walk = iter(items)  # (what a `for` takes its items from: Python's)
            try:
                for item in walk:
                    if name is not None:
                        vars[name] = item
                    else:
                        store(s, item)
                        if unsteady is not None and type(item) is not tuple:
                            unsteady()
                    if max_steps is not None:
                        step(max_steps, line, col)
                    n -= 1
                    if not n:
                        n = sample(line, col)
                    r = again(s)  # iteration.body, inlined
                    if r is not None and r is not CONTINUE:
                        if r is HANDED:  # (the items left: the fast tier's, _looped)
                            return (HANDED, walk if taken is None else taken.items)
                        return None if r is BREAK else r
            except GradError as e:
                raise _left(e, line, col)
            finally:
                if taken is not None:
                    taken.run = None  # (the run ends with the loop)
            return other

        return _looped(loop, b, body, other)

    def s_with_stmt(self, node, gen=False):
        *items, suite = node.children
        b = self.suite(suite, gen)
        for item in reversed(items):
            ctx, alias = item.children
            c = self.expr(ctx)
            line, col = pos(ctx)
            bind = self.store_name(alias.value) if alias is not None else None
            b = (_gen_with if gen else _with)(c, bind, b, line, col)
        return b

    def s_try_stmt(self, node, gen=False):
        suite, *rest = node.children
        handlers = [c for c in rest if isinstance(c, Tree) and c.data == "except_clause"]
        else_suite, finally_suite = rest[len(handlers) :]
        return self._try(suite, handlers, else_suite, finally_suite, gen)

    def s_try_finally(self, node, gen=False):
        suite, finally_suite = node.children
        return self._try(suite, [], None, finally_suite, gen)

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

    def _try(self, suite, handlers, else_suite, finally_suite, gen):
        b = self.suite(suite, gen)
        compiled = []
        for h in handlers:
            typ, alias, hsuite = h.children
            compiled.append(
                (
                    self.expr(typ) if typ is not None else None,
                    self._alias_binding(alias.value) if alias is not None else None,
                    self.suite(hsuite, gen),
                    pos(typ) if typ is not None else pos(h),
                )
            )
        other = self.suite(else_suite, gen) if else_suite is not None else None
        final = self.suite(finally_suite, gen) if finally_suite is not None else None

        def handler(s, err):
            """The (block, alias binding) of the first clause matching err, or None
            when no clause does (err is caught: catchable)."""
            if not catchable(err):
                return None
            for typ, bind, hb, (line, col) in compiled:
                try:
                    ok = typ is None or matches(err, typ(s))
                except Exception as e:
                    raise located(e, line, col) from None
                if ok:
                    return hb, bind
            return None

        return (_gen_try if gen else _plain_try)(b, handler if compiled else None, other, final)

    # ------------------------------------------------------------ generator bodies
    def gen_body(self, suite):
        """The generator function of a generator's body: gen(scope) yields its values
        and returns what the body returns."""
        return self.gen_suite(suite)

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
                elif child.data in _COMPOUND:
                    stmts.append((True, getattr(self, "s_" + child.data)(child, gen=True)))
                else:
                    raise syntax_error("'yield' is not supported in this statement", child)
        finally:
            self.depth -= 1
        stmts = tuple(stmts)

        def run(s):
            for is_gen, st in stmts:
                r = (yield from st(s)) if is_gen else st(s)
                if r is not None:
                    return r

        return True, run

    def gen_suite(self, suite):
        """A block as a generator function (a plain block wrapped)."""
        is_gen, b = self._gblock(suite)
        if is_gen:
            return b

        def run(s):
            yield from ()  # nothing: makes this a generator function
            return b(s)

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
                return (yield v(s) if v is not None else None)  # (what send gives)

            return one
        src = self.expr(node.children[0])

        def many(s):
            it = src(s)
            if type(it) is Generator:  # Python's yield from: sends passed on
                sent = None
                while True:
                    try:
                        item = it.__next__() if sent is None else it.send(sent)
                    except StopIteration:
                        return it.result
                    sent = yield item
            for item in iterate(it):  # noqa: UP028 (a generator over iterate(), not the source)
                yield item
            return None

        return many


# ---------------------------------------------------------------- the two forms
def _generating(plain):
    """The generator form of a statement whose plain closure returns the generator of
    the block it chose (None if none)."""

    def run(s):
        g = plain(s)
        return (yield from g) if g is not None else None

    return run


def _with(c, bind, b, line, col):
    def run(s):
        try:
            m = c(s)
            if program_object(m):  # its __enter__ and __exit__
                return datamodel.run_with(m, bind, b, s, line, col)
            _context_checked(m)
        except GradError as e:
            raise e.at(line, col)
        if type(m) is GradModeContext:
            if bind:
                bind(s, None)  # (what its __enter__ gives, as PyTorch's no_grad)
            return m.run(b, s)
        try:
            with m as entered:  # (`as` binds what __enter__ gives, as in Python)
                if bind:
                    bind(s, entered)
                return b(s)
        except GradError as e:  # an error of the context's own (its __enter__)
            raise e.at(line, col)

    return run


def _gen_with(c, bind, b, line, col):
    def run(s):
        try:
            m = _context_checked(c(s))
        except GradError as e:
            raise e.at(line, col)
        with m as entered:
            if bind:
                bind(s, entered)
            return (yield from b(s))

    return run


def _plain_try(b, handler, other, final):
    def run(s):
        try:
            try:
                r = b(s)
            except GradError as err:
                h = handler(s, err) if handler is not None else None
                if h is None:
                    raise
                with _Handling(s, err, h[1]):
                    return h[0](s)
            if r is None and other is not None:
                return other(s)
            return r
        finally:
            if final is not None:
                f = final(s)
                if f is not None:
                    return f  # noqa: B012  (a return in finally wins, as in Python)

    return run


def _gen_try(b, handler, other, final):
    def body(s):
        try:
            r = yield from b(s)
        except GradError as err:
            h = handler(s, err) if handler is not None else None
            if h is None:
                raise
            with _Handling(s, err, h[1]):
                return (yield from h[0](s))
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
