"""A replayed loop body's compiled tail (loop_compile._tail): the statements from the
first one of a kind a replayed body may not have on (a no_grad validation block that
computes a number, an `if` on it, a call of the program's own function), after
statements that replay (the training step).  Each iteration replays the statements
before the tail, binds the names they made (`Run.materialize`, as before an `if` that
holds: `replay._guarded`) and runs the tail as compiled; the next iteration makes every
check of the plan again (the tail may have changed anything: the plan is never steady).
The shadow set handed over with the names is used again at its next turn when nothing
holds its nodes any more (`replay.reusable`), as an `if`'s is."""

from __future__ import annotations


def tail(run, at):
    """The tail of a replayed iteration (its statements from item `at` on), the names
    made before it bound first: what its statements gave (None, or a `break`'s,
    `continue`'s or `return`'s signal)."""
    run.bind()
    run.steady = False
    return run.body.tail(run.s)
