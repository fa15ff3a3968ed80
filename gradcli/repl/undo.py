"""`:undo`: back to before the last input.

An input runs as Python's REPL runs it: what it did before an error or a Ctrl-C
stays (a training loop stopped after 1,200 iterations keeps them).  Before each
input the REPL takes a snapshot -- the variables, what a statement can change in
place on the tensors they hold (.data, .grad, requires_grad), the random
generator, the grad mode and the transcript -- and `:undo` puts back the last one
that differs from now (so an input that only showed a value is skipped).
Snapshots share the tensors' values (only a .grad, which backward changes in
place, is copied), and at most UNDO_DEPTH are kept.
"""

from __future__ import annotations

import sys

import numpy as np

from ..runtime import context
from ..engine import versions
from ..session import _restore_tensors, _snapshot_tensors

UNDO_DEPTH = 20


class Snapshot:
    __slots__ = ("vars", "tensors", "rng", "grad_mode", "transcript", "cells", "text")

    def __init__(self, repl, text):
        scope_vars = repl.session.scope.vars
        self.vars = dict(scope_vars)
        self.tensors = _snapshot_tensors(scope_vars)
        ctx = context.current
        self.rng = ctx.generator.get_state() if ctx._generator is not None else None
        self.grad_mode = ctx.grad_enabled
        self.transcript = len(repl.transcript.items)
        self.cells = len(getattr(repl.transcript, "cells", ()))
        self.text = text

    def unchanged(self, repl) -> bool:
        """Nothing the snapshot holds has changed since (an input that only showed values)."""
        scope_vars = repl.session.scope.vars
        if scope_vars.keys() != self.vars.keys() or any(
            scope_vars[k] is not v for k, v in self.vars.items()
        ):
            return False
        for t, data, _keep, version, grad_fn, requires_grad, g, gdata in self.tensors:
            if (
                t.data is not data
                or t.requires_grad != requires_grad
                or t.grad is not g
                or versions.version(t) != version
                or t.grad_fn is not grad_fn
            ):
                return False
            if g is not None and not np.array_equal(g.data, gdata, equal_nan=True):
                return False
        return True

    def restore(self, repl):
        scope_vars = repl.session.scope.vars
        scope_vars.clear()
        scope_vars.update(self.vars)
        _restore_tensors(self.tensors)
        ctx = context.current
        if self.rng is not None:
            ctx.generator.set_state(self.rng)
        else:  # no random numbers had been drawn: start the generator afresh
            ctx._generator = None
        ctx.grad_enabled = self.grad_mode
        del repl.transcript.items[self.transcript :]
        shown = getattr(repl.transcript, "shown", set())
        shown.difference_update([i for i in shown if i >= self.transcript])
        if hasattr(repl.transcript, "cells"):
            del repl.transcript.cells[self.cells :]


class UndoStack:
    def __init__(self):
        self.items = []

    def push(self, repl, text):
        self.items.append(Snapshot(repl, text))
        if len(self.items) > UNDO_DEPTH:
            del self.items[0]

    def clear(self):
        self.items.clear()

    def undo(self, repl):
        """Restore the last snapshot; returns the input it was taken before, or None."""
        while self.items:
            snap = self.items.pop()
            if snap.unchanged(repl) and self.items:
                continue  # an input that changed nothing: undo the one before it
            snap.restore(repl)
            return snap.text
        return None


def cmd_undo(repl, arg):
    text = repl.undo.undo(repl)
    if text is None:
        sys.stdout.flush()
        sys.stderr.write(":undo: nothing to undo\n")
        sys.stderr.flush()
        return
    first = text.strip().split("\n")[0]
    more = " ..." if "\n" in text.strip() else ""
    sys.stdout.write(f"undone: {first}{more}  (the variables are as they were before it)\n")
    sys.stdout.flush()
