"""Simple statements that set the current line and place their errors in their own
closure (the statements of a loop body run once per iteration).

`Compiler.small` wraps a statement's closure in one that sets `state.line` and
turns whatever the statement raises into an error at the statement (`located`).
The closures made here do both themselves, in the same order around the same work,
so the wrapper and its call are not needed: `small` returns them as they are
(they are marked `located`).  Which statements: an assignment to one target that
does not echo (`loss = ...`, `y_pred = ...`, `w.grad = None`), an expression
statement (`loss.backward()`), `return`, `name += k` on small ints
(fastops.int_step) and the fused step `x -= a * b` (updates.py)."""

from __future__ import annotations

from .functions import Return
from .positions import located
from .state import state

_new = object.__new__


def assign(setter, val, line, col):
    """`target = value` (one target, no echo): a variable of this scope stored in
    place, any other target by its setter."""
    name = getattr(setter, "local_name", None)
    if name is not None:

        def run(s):
            state.line = line
            try:
                s.vars[name] = val(s)
            except Exception as e:
                raise located(e, line, col) from None
    else:

        def run(s):
            state.line = line
            try:
                setter(s, val(s))
            except Exception as e:
                raise located(e, line, col) from None

    run.located = True
    return run


def sequence(stmts):
    """The closure running statement closures in order until one signals (returns
    BREAK, CONTINUE or a Return): an indented block's (Compiler.block), a replayed loop
    body's as compiled (language/replay.py)."""
    if len(stmts) == 1:
        return stmts[0]
    stmts = tuple(stmts)

    def run(s):
        for st in stmts:
            r = st(s)
            if r is not None:
                return r

    return run


def expression(e, display, line, col):
    """An expression statement; its value shown when `display` (at top level) and it
    is not None."""
    if display:

        def run(s):
            state.line = line
            try:
                v = e(s)
                if v is not None:
                    state.out.value(v, line)
            except Exception as err:
                raise located(err, line, col) from None
    else:

        def run(s):
            state.line = line
            try:
                e(s)
            except Exception as err:
                raise located(err, line, col) from None

    run.located = True
    return run


def returning(e, line, col):
    """`return value` (its value's closure `e`)."""

    def run(s):
        state.line = line
        try:
            r = _new(Return)  # Return(e(s)), without a call of Return.__init__
            r.value = e(s)
            return r
        except Exception as err:
            raise located(err, line, col) from None

    run.located = True
    return run
