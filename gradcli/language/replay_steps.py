"""The backward and the no_grad blocks of a replayed loop body (language/replay.py runs
the iterations, language/replay_plan.py makes their plan): a block's steps `w -= lr *
w.grad` on Python floats or on arrays as the in-place rule makes them (library/
scalar_steps.py), its clearings, and a backward whose gradients the steps after it take
as numbers (`taking`, `taken`)."""

from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor
from ..engine import replay as engine
from ..library.scalar_steps import array_step, data_step, divided_step, step_by, step_value
from ..library.scalar_steps import zero_grad_array
from ..runtime import context
from .iteration import step
from .positions import located
from .replay_records import BACKWARD, CLEAR_GRAD, NO_GRAD, STEP
from .state import state


def taking(items, guards):
    """The items with each `backward` that a no_grad block of 0-d steps follows, `w -= lr
    * v.grad` ... then `v.grad = None` for each v a step reads (and only those), made one
    item: the pass's gradients of those leaves, made together (engine/straight.py
    `_flush_each`), go to the steps as numbers instead of into .grad and out again
    (`taken`; nothing runs between the pass and the steps that could see
    .grad, and the block leaves every .grad None); and the `if`s' places (`_guards`) in
    those items."""
    out = list(items)
    between = {k for k, _ in guards}  # (an `if` between the two: not one item)
    for x in range(len(out) - 1):
        it, nxt = out[x], out[x + 1]
        if it is None or it[0] != BACKWARD or nxt[0] != NO_GRAD or not nxt[2]:
            continue
        if x + 1 in between:
            continue
        entries = nxt[1]
        steps = []
        while len(steps) < len(entries) and entries[len(steps)][0] == STEP:
            _, w, v, y, op, _, line = entries[len(steps)]
            steps.append((w, v, y, op, line))
        cleared = entries[len(steps) :]
        if not steps or any(e[0] != CLEAR_GRAD for e in cleared):
            continue
        ids = frozenset(id(e[1]) for e in cleared)
        if len(ids) != len(cleared) or any(id(v) not in ids for _, v, _, _, _ in steps):
            continue
        out[x] = it[:6] + ((ids, tuple(steps), nxt),)
        out[x + 1] = None
    gone = [x for x, it in enumerate(out) if it is None]
    guards = tuple((k - sum(x < k for x in gone), at) for k, at in guards)
    return tuple(it for it in out if it is not None), guards


def run_updates(item, s):
    """A no_grad block (`_updates`) as its closure runs it (its `with` gives gradcli's
    no_grad: the plan's checks keep the names it reads gradcli's own): grad mode off
    while its statements run, each step on Python floats when w.grad is a 0-d array of
    w's dtype (scalar_steps.step_by), else the statement as compiled."""
    if not item[2]:  # (NoGrad.off: a loop of the body, `for p in params: p.grad = None`)
        run_entries(item[1], s)
        return
    ctx = context.current
    prev = ctx.grad_enabled
    ctx.grad_enabled = False
    try:
        run_entries(item[1], s)  # (NoGrad.entries)
    finally:
        ctx.grad_enabled = prev


def backward_item(item, shadows, like, s):
    """A BACKWARD item (replay_plan.Backward): the pass through this iteration's shadows
    (`like`: its root's values, or a zero array of their kind), and the no_grad block
    after it that takes its gradients (`taking`)."""
    _, k, sched, line, bl, bc, then = item
    state.line = line
    try:
        if then is None:
            engine.backward_with(shadows[k], like, False, sched)
            return
        got = engine.backward_taking(shadows[k], like, sched, then[0])
    except Exception as e:  # placed where the compiled call places it
        raise located(e, bl, bc) from None
    if got is None:
        run_updates(then[2], s)
    else:
        taken(then, got, s)


def taken(then, got, s):
    """The no_grad block after a `backward` (`taking`) when the pass took the
    leaves' gradients (engine.backward_taking): each step `w op= y * v.grad` on Python
    floats with v's gradient as the number it took (scalar_steps.step_value: what
    step_by makes of the 0-d .grad the pass would have stored), the block's `v.grad =
    None` then nothing to do.  A step that cannot be so stores the gradients first
    (engine.give) and runs the block from that step as `run_updates` does."""
    _, steps, block = then
    _, _, dtype, values = got
    ctx = context.current
    prev = ctx.grad_enabled
    ctx.grad_enabled = False
    try:
        for x, (w, v, y, op, line) in enumerate(steps):
            state.line = line
            d = w.data
            g = values.get(id(v))
            if g is not None and d.dtype is dtype:
                try:
                    if step_value(w, d, g, y, op):
                        continue
                except ValueError:  # (d is read-only: nothing was changed)
                    pass
            engine.give(got)
            run_entries(block[1][x:], s)
            return
        state.line = block[1][-1][2]  # (the last `v.grad = None`'s)
    finally:
        ctx.grad_enabled = prev


def run_entries(entries, s):
    """The entries of a no_grad block (replay_updates.updates), grad mode off."""
    for e in entries:
        kind = e[0]
        if kind == 0:  # STEP
            _, w, v, y, op, fn, line = e
            state.line = line
            g = v.grad
            if type(g) is Tensor:
                g = g.data
                d = w.data
                if type(g) is np.ndarray and not g.ndim and g.dtype is d.dtype:
                    try:
                        if step_by(w, d, g, y, op):
                            continue  # (the compiled statement then binds w to its
                            # name, which holds w: checked before, changed in place)
                    except ValueError:  # (d is read-only: nothing was changed)
                        pass
            fn(s)
        elif kind == 1:  # CLEAR_GRAD
            state.line = e[2]
            e[1].grad = None
        elif kind == 3:  # ARRAY_STEP
            _, w, v, y, ufunc, fn, line = e
            state.line = line
            g = v.grad
            if type(g) is not Tensor or not array_step(w, g.data, y, ufunc):
                fn(s)
        elif kind == 6:  # LIVE_STEP: ARRAY_STEP of the number its name holds now
            _, w, v, load, ufunc, fn, line = e
            state.line = line
            g, y = v.grad, load(s)
            if (
                type(g) is not Tensor
                or type(y) not in (int, float)
                or not array_step(w, g.data, y, ufunc)
            ):
                fn(s)
        elif kind == 7:  # DATA_STEP: `w.data op= y * v.grad` (y a number, or its load's)
            _, w, v, y, load, ufunc, fn, line = e
            state.line = line
            g = v.grad
            if load is not None:
                y = load(s)
            if (
                type(g) is not Tensor
                or type(y) not in (int, float)
                or not data_step(w, g.data, y, ufunc)
            ):
                fn(s)
        elif kind == 8:  # DIV_STEP: `w op= y * v.grad / z`
            _, w, v, y, z, ufunc, fn, line = e
            state.line = line
            g = v.grad
            if type(g) is not Tensor or not divided_step(w, g.data, y, z, ufunc):
                fn(s)
        elif kind == 4:  # ZERO_GRAD
            _, v, fn, line = e
            state.line = line
            if not zero_grad_array(v.grad):
                fn(s)
        elif kind == 5:  # EACH
            _, (line, col), store, params, per = e
            max_steps = context.current.limits.max_steps
            for p, sub in zip(params, per):  # (as the compiled loop: bound, a step
                store(s, p)  # counted, then its body's statements)
                if max_steps is not None:
                    step(max_steps, line, col)
                run_entries(sub, s)
        else:
            e[1](s)
