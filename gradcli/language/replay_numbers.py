"""A number computed under no_grad in a replayed loop body (`with torch.no_grad(): val =
loss_fn(model(Xv), Yv).item()`, loop_shapes._no_grad_number): its ops are noted as an
assignment's are, under no_grad (they make no node; the plan's grad mode is the
body's, the statement's is not counted in it: NO_GRAD), and replayed as an Assign of
the name followed by a Number, which takes the number from the Assign's value as
Tensor.item takes it and binds the name to it: the program sees a Python float, as
compiled, and an `if` on it runs in the body's compiled tail (replay_tail.py)."""

from __future__ import annotations

from .replay_records import ASSIGN, NUMBER, Noted, Number
from .state import state

#: the kinds of body items that are noted as assignments, and their records' kinds
NOTED = {"assign": ASSIGN, "number": NUMBER}


class _NoGrad:
    """The grad mode a no_grad number's statement was noted in: false (no node, as
    no_grad), and not the body's mode (replay_plan.plan discards it from the modes)."""

    __slots__ = ()

    def __bool__(self):
        return False


NO_GRAD = _NoGrad()


def _unbound(s, v):
    """The store of a number's name while its Assign holds its value (Body.stores): the
    name is bound by its Number, or by its block run as compiled."""


def noted(kind, what, steps, mine, k, line, i, extra):
    """The records of a noted assignment (a Noted), and for a no_grad number the Number
    after it."""
    out = [Noted(ASSIGN, what, steps, mine, k, line, i)]
    if kind == "number":
        out.append(Number(NUMBER, what, extra[0], i, line))
    return out


def number(run, item, v):
    """A replayed Number, given the number of its name's value (Run._number): bound to
    the name, which its Assign's value no longer holds."""
    _, name, store, at, line = item
    state.line = line
    del run.pending[name]
    store(run.s, v)
