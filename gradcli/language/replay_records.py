"""The records of a replayed loop body's plan (language/replay_plan.py makes them,
language/replay.py runs them): one named tuple per kind of item, run as the exact tuple
of its fields (`plain`), and the kinds' numbers each record starts with."""

from __future__ import annotations

from typing import Any, NamedTuple


# The kinds of a plan's items (each record's first field, read by replay.Run._replay)
ASSIGN, BACKWARD, AS_COMPILED, NO_GRAD, CHECK, ITEM, CALL, APPEND = 0, 1, 2, 3, 4, 5, 6, 7
# (where an `if` stands among the items while a plan is made: `Guard`, never run)
GUARD = 8
BATCH = 9
TAIL = 10
NUMBER = 11
# ... and of a no_grad block's entries
STEP, CLEAR_GRAD, ENTRY_AS_COMPILED, ARRAY_STEP, ZERO_GRAD, EACH = 0, 1, 2, 3, 4, 5
LIVE_STEP = 6  # (an ARRAY_STEP whose factor a name gives as it is then: replay_updates)
DATA_STEP = 7  # (`w.data op= factor * v.grad`: scalar_steps.data_step)
DIV_STEP = 8  # (`w op= factor * v.grad / divisor`: scalar_steps.divided_step)


class NotedStep(NamedTuple):
    """One op of a noted assignment: its op index, where its arguments come from
    ((kind, index) per argument, `_slot`), its parameters, mask, whether it made a node,
    and the earlier ops whose outputs its key takes as index tensors (("op", index) each:
    replay_plan._keys; read as its arguments are)."""

    j: int
    argidx: tuple
    params: dict
    mask: Any
    has_node: bool
    keyrefs: tuple = ()

    @property
    def reads(self):
        """Where what it reads comes from: its arguments, then its key's op outputs."""
        return self.argidx + self.keyrefs if self.keyrefs else self.argidx


class Noted(NamedTuple):
    """`name = expression` as noted (`plan` makes an `Assign` of it)."""

    kind: int  # ASSIGN
    name: str
    steps: tuple  # of NotedStep
    mine: tuple  # the variables' tensors it reads (indices into `frees`)
    result: int  # the op whose output the name is bound to
    line: int
    at: int  # its index among the body's items


class Step(NamedTuple):
    """One op of a planned assignment, as `Run._replay` runs it."""

    j: int  # its op index (the slot of its output)
    args: Any  # vals -> its arguments
    params: Any  # its parameters (None: none)
    mask: Any
    srcs: Any  # the sources of its saved values (False: no node)
    done: tuple  # the slots no later op of the statement reads
    like: Any  # a deferred result's zero array, else None
    idx: tuple  # its arguments' slots


class Assign(NamedTuple):
    """`name = expression`, planned."""

    kind: int  # ASSIGN
    name: str
    steps: tuple  # of Step
    frees: tuple  # (slot, the variable's tensor) to read before the steps
    result: int  # the op whose output the name is bound to
    line: int
    drop: tuple  # the slots no later statement reads, let go after it
    at: int  # its index among the body's items
    base: Any  # a view's result: the op whose output it views (kept to bind it), else None
    live: Any  # the loop targets' data tensors it reads (replay._alive), else None


class Backward(NamedTuple):
    """`name.backward()` of the body's own graph."""

    kind: int  # BACKWARD
    root: int  # the op whose output backward starts from
    sched: Any  # the schedule of its graph (engine.schedule_of)
    line: int
    bline: int  # where an error of the call is placed
    bcol: int
    # the no_grad block right after it when its steps may take the leaves' gradients
    # from the pass as numbers (replay_plan._taking): (the ids of the leaves whose
    # .grad it clears, (w, v, y, op, line) per step, the block's NoGrad), else None
    then: Any = None


class AsCompiled(NamedTuple):
    """A statement run as compiled."""

    kind: int  # AS_COMPILED
    run: Any


class Check(NamedTuple):
    """The checks made again before an assignment that follows a method call run as
    compiled (`opt.zero_grad()`, which may change what they checked)."""

    kind: int  # CHECK
    at: int  # the assignment's index among the body's items (run as compiled from there)


class Item(NamedTuple):
    """`target op= name.item()` of a made name (bookkeeping: `running += loss.item()`),
    the number taken from the name's value as Tensor.item takes it."""

    kind: int  # ITEM
    store: Any  # the target's store and load
    load: Any
    name: str  # the made name
    binary: Any  # the language's `op=` of two numbers
    at: int  # its index among the body's items (run as compiled from there, on an error)
    line: int
    # `name.item() * factor`: (the factor's closure, whether the number comes first, the
    # language's `*`), else None
    factor: Any = None


class Append(NamedTuple):
    """`recv.append(name.item())` of a made name (its number taken as `Item`'s), or
    `recv.append(name)` of a variable or a number (bookkeeping: `losses.append(loss.item())`,
    `steps.append(i)`: no op, no code of the program), recv a list (checked as it runs)."""

    kind: int  # APPEND
    load: Any  # the list's load
    name: Any  # the made name, else None
    value: Any  # else the argument's closure
    at: int  # its index among the body's items (run as compiled from there, on an error)
    line: int


class Batch(NamedTuple):
    """`idx = perm[i : i + bs]` (loop_shapes._batch): run as compiled in its place, then
    the checks of the kind of the tensor it bound (replay_plan._swapped), which the
    statements after it read as a loop target's batch; the rest of the iteration as
    compiled when they fail (a shorter last batch)."""

    kind: int  # BATCH
    run: Any  # its closure
    checks: tuple  # the checks of its name (replay._check's), made after it runs
    at: int  # its index among the body's items


class Guard(NamedTuple):
    """Where an `if` of the body stands among the items, while the plan is made (the plan
    keeps its place: Plan.guards)."""

    kind: int  # GUARD
    at: int  # its index among the body's items


class Tail(NamedTuple):
    """The body's compiled tail (loop_compile._tail): its statements run as compiled, the
    names made before them bound first (replay_tail.tail); the plan's last item."""

    kind: int  # TAIL
    at: int  # its first statement's index among the body's items


class Number(NamedTuple):
    """`with torch.no_grad(): name = expression.item()`: after the Assign of its ops (made
    under no_grad: no node), the number taken from its value as Tensor.item takes it,
    bound to the name (replay_numbers.number)."""

    kind: int  # NUMBER
    name: str
    store: Any  # the name's store
    at: int  # its index among the body's items (run as compiled from there)
    line: int


class NoGrad(NamedTuple):
    """A no_grad block of steps (`_updates`), or a loop of the body clearing gradients."""

    kind: int  # NO_GRAD
    entries: tuple
    off: bool = True  # grad mode off while they run (a no_grad block's)


def plain(record):
    """A record as the exact tuple of its fields, the form a plan's items and steps run
    in: `Run._replay` unpacks them every iteration, and CPython unpacks an exact tuple
    faster than a NamedTuple (1.4% of the 2x2 loop's instructions, measured)."""
    return tuple.__new__(tuple, record)
