"""Binding the names a replayed loop's iterations made (language/replay.py `Run`): each
to a Tensor of its last value, whose graph is its iteration's shadow nodes, handed over
to the program when it can next see them (the loop's end, an `if` that holds, a tail,
a head, the code that makes the next item); the set handed over used again at its turn
once the program lets go of it (`lend`, `reusable`)."""

from __future__ import annotations

from sys import getrefcount

from ..core.tensor import Tensor
from ..engine import replay as engine
from .replay_plan import SwapView
from .replay_records import BACKWARD

#: a pending name's first field when its value is a replayed call's (replay_defs.py):
#: (CALLED, what the calls share, its value, None)
CALLED = object()


class Deferred:
    """The value of an op made when the program can see it (`value`), not when it runs:
    a `deferrable` op (a loss's sum or mean: ops/reduce.py) whose output no other op
    reads, only its statement's name and `backward` (which needs only its dtype and
    shape: `like`, a zero array of them).  Its node's fields are those of the set's
    first, whole forward (the same shapes and parameters each iteration)."""

    __slots__ = ("sh", "args", "params", "like")

    def __init__(self, sh, args, params, like):
        self.sh, self.args, self.params, self.like = sh, args, params, like

    def value(self):
        return engine.forward(self.sh, self.args, self.params, None, None)


def bind(run):
    """Bind the names the last replayed iteration made before code of the program
    runs mid-loop (a tail, a head, an `if` that holds, the code that makes the loop's
    next item), the iteration's shadow set used again at its next turn once nothing
    holds its nodes (`lend`)."""
    plan = run.plan
    shadows = run.sets[run.turn ^ 1]  # (the last iteration's)
    if plan is not None and shadows is not None:
        if not any(it[0] == BACKWARD for it in plan.items):
            for node in shadows:  # its nodes are new to the program: no pass has
                node.fpass = None  # gone through them (graph(values=true))
    materialize(run)
    lend(run, plan, run.turn ^ 1, shadows)


def lend(run, plan, turn, shadows):
    """A set `materialize` handed over (the names' Tensors were given its nodes), kept
    to be used at its turn once the program lets go of them (`reusable`: `_items`),
    when the body's backward frees every node (Plan.loose empty: a set kept would
    otherwise hold saved values after the program let go of its Tensors)."""
    if plan is not None and shadows is not None and not plan.loose:
        if run.sets[turn] is None:
            run.lent[turn] = (plan, shadows)


def materialize(run, numbers=None):
    """Bind every name a replayed statement made to a Tensor of its last value, whose
    graph is its iteration's shadows (handed over: new ones are made next time);
    `numbers`: their creation numbers (engine.reserve), else numbers of now."""
    pending = run.pending  # (emptied at the end: a Ctrl-C half way leaves it
    # for the loop's `finally` to bind)
    for name in [n for n, p in pending.items() if p[0] is CALLED]:  # a call's value:
        run.body.stores[name](run.s, pending[name][1].bind(numbers))  # its own names
        del pending[name]  # bound, its `return` run (replay_defs._Held.bind)
    used = [p[0] for p in pending.values()]
    # the shadow sets the values come from, the older first (sets[turn] is the one
    # the next iteration would use: the older of the two)
    order = [
        x
        for x in (run.sets[run.turn], run.sets[run.turn ^ 1])
        if x is not None and any(x is u for u in used)
    ]
    for shadows in order:
        engine.hand_over(shadows, numbers)
    made = {}
    stores = run.body.stores
    plans = {}
    for name, (shadows, k, out, plan) in pending.items():
        view = plan.views.get(k)
        if view is not None:  # (its base's Tensor first, as the ops made them)
            base = _tensor(made, shadows, view[0], run.bases[name], numbers)
        t = _tensor(made, shadows, k, out, numbers)
        if view is not None and getattr(t, "view_of", None) is None:
            engine.link_view(t, base, _remake(view[1], view[2]))
        stores[name](run.s, t)  # (after its node)
        plans[id(shadows)] = plan
    for shadows in order:
        for j, i, src, base in (plan := plans[id(shadows)]).adopt:  # saved values that are
            node = shadows[j]  # ops' outputs
            if getattr(node, "saved_src", None) is not None and node.saved:
                if type(base) is SwapView:  # (this iteration's: its version counter)
                    base = node.saved_src[i]
                remake = plan.remakes.get(src)
                engine.adopt_sources(
                    node,
                    i,
                    _tensor(made, shadows, src, node.saved[i], numbers),
                    base,
                    remake and _remake(*remake),
                )
    # (a set no value came from is no one's: kept, its forwards' fields set)
    run.sets = [None if any(x is o for o in order) else x for x in run.sets]
    run.pending = {}
    run.bases = {}
    run.fixed = None  # (the program may now hold the hoisted values)


def _remake(cls, params):
    """The view op of node class `cls` with these parameters, as a function of a Tensor
    (a view's `view_of`: engine/versions.py)."""
    return lambda t: cls.apply(t, **params)


def links(sets):
    """Per node of a shadow set, the references to it when nothing else holds it: the
    set's list, each of its parents' links from the set's nodes, and getrefcount's
    argument."""
    links = [2] * len(sets)
    at = {id(sh): j for j, sh in enumerate(sets)}
    for sh in sets:
        for p in getattr(sh, "parents", ()) or ():
            j = at.get(id(p))
            if j is not None:
                links[j] += 1
    return links


def reusable(sets, known=None):
    """Whether a shadow set handed over to the program's Tensors is free again (their
    values freed): each node held only by the set and its parents' links (`links`, or
    `known`), no hooks (`watch`) on it; then what a Tensor of its output gave it
    (`out_vc`, its version counter) is let go, as if it had not been handed over."""
    if known is None:
        known = links(sets)
    for j in range(len(sets)):  # (by index: no local holds a node)
        if getrefcount(sets[j]) != known[j] or getattr(sets[j], "watch", None) is not None:
            return False
    for sh in sets:
        if getattr(sh, "out_vc", None) is not None:
            sh.out_vc = None
    return True


def _tensor(made, shadows, k, out, numbers):
    key = (id(shadows), k)
    t = made.get(key)
    if t is None:
        if isinstance(out, Deferred):  # (a subclass: a test counts them)
            out = out.value()
        node = shadows[k]
        node = node if hasattr(node, "needs") else None
        t = made[key] = Tensor(out, node is not None, node)
        if numbers is not None:
            t.seq = next(numbers)
    return t
