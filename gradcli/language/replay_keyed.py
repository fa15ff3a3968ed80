"""A plan per draws (language/replay_draws.py): a replayed loop whose statements call
a forward whose loops go over what code outside the plan draws keeps the plan noted
with each distinct draws (`Run.alts`, up to MAX_KEYS) and the order they were made in
(`Run.tree`: each value tells which draw comes next, a loop in a loop drawing once per
trip), and replays the one the iteration's draws pick (language/replay.py `Run`)."""

from __future__ import annotations

from ..engine import replay as engine
from ..runtime import context
from .replay_draws import END, MAX_KEYS, make, queued, settled
from .replay_plan import Fail


def drawn_iteration(run, plan):
    """An iteration of a plan whose statements call a forward that draws what its
    loops go over (its checks held): the draws made, in their order (each one's
    value tells which is made next: `tree`), then the plan noted with those values
    replayed (its checks made when it is not this one), else the iteration noted
    with them (values not seen before), else run as compiled with them (and with
    `--max-steps`, whose count the forward's loops take a step of: as compiled)."""
    if context.current.limits.max_steps is not None:
        return run._compiled(0)
    drawing, key, new = make(run.tree)
    run.drawing = drawing
    try:
        if key is not None and key != plan.key:
            alts = run.alts
            if alts is None:
                alts = run.alts = {}
            got = alts.get(key)
            if got is None:  # (noted before: no plan for them, and not noted again)
                return run._compiled(0)
            _keep(run, alts)
            _take(run, alts, key)
            plan = run.plan
            if run._ready(plan) is not None:  # (its own checks)
                return run._compiled(0)
        elif key is None:
            alts = run.alts
            if new and (alts is None or len(alts) < MAX_KEYS):
                if alts is None:
                    alts = run.alts = {}
                _keep(run, alts)  # (values not seen before: noted)
                run.drawing = None
                queued([v for v, _ in drawing])
                r = run._record()
                if run.plan is None:  # (none for these values: the last one again)
                    _take(run, alts, plan.key)
                return r
            return run._compiled(0)
        return run._replay(plan)
    finally:
        run.drawing = None
        settled()


def grow(run, draws, key):
    """The draws of a noted iteration added to `tree`; False when they do not
    follow it (another draw after the same values)."""
    if run.tree is None:
        run.tree = [*draws[0], {}]
    node = run.tree
    last = len(draws) - 1
    for i, (site, scope, at) in enumerate(draws):
        if node[0] is not site:
            return False
        got = node[3].get(key[i])
        if i == last:
            if got is not None and got is not END:
                return False
            node[3][key[i]] = END
        else:
            if got is None:
                got = node[3][key[i]] = [*draws[i + 1], {}]
            elif got is END:
                return False
            node = got
    return True


def _keep(run, alts):
    """The current plan's state kept under its draws: the names its last iteration
    made let go when the body's first assignments make them again (as the next
    iteration of this plan would: its set not handed over), else bound."""
    pending, body = run.pending, run.body
    if pending:
        first = set()  # (made by the assignments before any other statement but `if`s)
        for it in body.items:
            if it[0] == "assign":
                first.add(it[1])
            elif it[0] != "guard":
                break
        if all(type(p[0]) is list for p in pending.values()) and first.issuperset(pending):
            run.pending, run.bases = {}, {}
        else:
            run.materialize()
    plan = run.plan
    alts[plan.key] = (
        plan,
        run.vals,
        run.kernels,
        run.fast,
        run.fixed,
        run.sets,
        run.turn,
        run.lent,
    )
    run.steady = False
    run.lent = [None, None]


def _take(run, alts, key):
    """The plan kept under these draws made the current one."""
    (
        run.plan,
        run.vals,
        run.kernels,
        run.fast,
        run.fixed,
        run.sets,
        run.turn,
        run.lent,
    ) = alts.pop(key)


def keyed(body, drew, first):
    """(the draws of a noted iteration: (site, scope, body item) each, the values they
    gave) for its plan (replay_draws.py), Fail when it cannot be replayed so."""
    if not drew:
        return (), None
    if not body.keyed:
        raise Fail("a forward's loop draws what it goes over (in a def's call: as compiled)")
    if first < len(drew):
        raise Fail("a forward's loop draws after a statement that is not an assignment")
    if any(type(v) is not range for _, _, v, _ in drew):
        raise Fail("a forward's loop goes over what is not a range")
    return tuple((site, scope, at) for site, scope, _, at in drew), tuple(v for _, _, v, _ in drew)


def rest(plan, vals, sets):
    """What a plan's run holds of an iteration's values let go (Run.finish)."""
    for shadows in sets:
        if shadows is not None and plan.loose:
            engine.release(shadows, plan.loose)
    n, c = len(plan.ops), len(plan.consts)
    for i in range(n):
        vals[i] = None
    for i in range(n + c, len(vals)):
        vals[i] = None
