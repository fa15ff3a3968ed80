"""Calls of a `def` replayed: a function whose body is made of the statements a
replayed loop body is made of (language/loop_shapes.py `compile_def`: its parameters
and the globals it reads are its variables, a `return` may end it) runs each call as
one iteration of a replay run (language/replay.py `Run`) kept with its compiled body,
so a training step written in a function called in a loop replays as the same step
written in the loop does.

* The run's plan is made from a noted call (the first, or one after a check failed,
  up to replay.MAX_RECORDS times in a row: a replayed call allows one more, so a step
  whose learning rate changes now and then replays again after each change) and checked before each call as before each
  iteration of a loop: each variable the statements read (the call's arguments, the
  globals and closures it reads) holds the same tensor object (dtype, shape,
  requires_grad, grad_fn), an equal number or gradcli's own value; grad mode; no
  forward-mode level, saved-tensor hooks or tracer.  A function redefined runs the
  same checks (a `def` run again makes a new function of the same compiled body: its
  plan holds for it when its variables hold what they held), and a call with other
  tensors, shapes or numbers fails them and runs as compiled.
* The names the replayed statements make are bound in the call's scope before the
  `return` runs (as compiled, after them), or when the call ends otherwise (an error,
  an `if` whose block returns), so the value returned is a Tensor whose graph is the
  call's shadow nodes, handed over (replay.Run.materialize); only those the program
  can see then (what the `return` reads, the globals), the others let go unmade.
* A call made while a call of the same body runs (recursion), while a loop notes an
  iteration (engine.recording), or with `--no-replay` runs as compiled.

Everything the program sees is what the compiled call makes (tests/language/
test_replay_defs.py runs programs both ways and compares all they print).
"""

from __future__ import annotations

from sys import getrefcount

from ..runtime import context
from . import loop_shapes
from .loop_shapes import compile_def, report
from .replay import MAX_RECORDS, Body, Run, _not
from .stmtlines import sequence


def def_body(comp, suite, name, line):
    """The closure of a `def`'s body that replays its calls, or None when the body
    does not qualify (loop_shapes.compile_def)."""
    got = compile_def(comp, suite)
    if loop_shapes.REPORT:
        _say(name, line, "qualifies" if got is not None else _not(suite, comp, True))
    if got is None:
        return None
    items, ret, seen = got
    body = Body(items, None)  # (no `for` target: every check made before each call)
    body.line = line
    plain = sequence(body.closures + ((ret,) if ret is not None else ()))
    held = _Held(body)

    def call(s):
        if held.busy or not context.current.replay:
            return plain(s)
        run = held.run
        if run is None:
            run = held.run = Run(body, s)
        held.busy = True
        run.s = s
        run.steady = False
        if run.plan is not None:
            held.lend_back(run)
        if (
            loop_shapes.REPORT
            and not held.said
            and run.plan is not None
            and run._ready(run.plan) is None
        ):
            held.said = True
            _say(name, line, "calls replayed")
        try:
            r = run.iteration(s)
        finally:
            try:
                if run.pending:  # (a replayed call: the names made that the program can
                    # see, bound in the call's scope; the others let go with it, unmade)
                    if run.records >= MAX_RECORDS:  # (a call replayed earns the run one
                        run.records = MAX_RECORDS - 1  # more noting: a def lives long)
                    _unseen(run, seen)
                if run.pending:
                    used, plan = tuple(run.sets), run.plan
                    run.materialize()
                    held.lent(run, used, plan)
            finally:
                held.busy = False
                run.s = None
                held.release()
        if r is not None or ret is None:
            return r
        return ret(s)

    return call


class _Held:
    """What the calls of one compiled body share: the replay run (its plan, its shadow
    nodes) and whether a call of it is running."""

    __slots__ = ("body", "run", "busy", "said", "out", "plan", "links")  # (said: REPORT)

    def __init__(self, body):
        self.body = body
        self.run = None
        self.busy = False
        self.said = False
        self.out = [None, None]  # per turn: the shadow set handed over by a call
        self.plan = None  # the plan those sets were made for
        self.links = None  # _links of its sets (the same for each: the plan's graph)

    def lent(self, run, used, plan):
        """After a call: the shadow sets its names' Tensors were given (`used`, what
        run.sets held before replay.Run.materialize handed them over), kept to be used
        again once nothing else holds them (`lend_back`), when the body's backward frees
        every node (Plan.loose empty: the sets hold no values then)."""
        if plan is None or plan.loose:  # (a node the body's backward does not free
            # keeps its saved values: a set kept would hold them after the program let
            # go of its Tensors)
            return
        if plan is not self.plan:
            self.out = [None, None]
            self.plan = plan
            self.links = None
        for t in (0, 1):
            if used[t] is not None and run.sets[t] is None:
                self.out[t] = used[t]

    def lend_back(self, run):
        """Before a call: the set it would use (run.turn), if a call handed it over and
        nothing holds its nodes any more (the Tensors of its values are freed: the
        caller holds the value returned two calls ago no longer), as if that call had
        not handed it over: so its ops run their kernels (replay.Run._replay's warm set)
        instead of a new set made and run whole.  Free: each node held only by the set
        and its parents' links (its reference count), no hooks (`watch`) on it; what a
        Tensor of its output gave it (`out_vc`, its version counter) is let go."""
        t = run.turn
        sets = self.out[t]
        self.out[t] = None
        if sets is None or run.sets[t] is not None or run.plan is not self.plan:
            return
        links = self.links
        if links is None:
            links = self.links = _links(sets)
        for j in range(len(sets)):  # (by index: no local holds a node)
            if getrefcount(sets[j]) != links[j] or getattr(sets[j], "watch", None) is not None:
                return
        for sh in sets:
            if getattr(sh, "out_vc", None) is not None:
                sh.out_vc = None
        run.sets[t] = sets

    def release(self):
        """Let go of the arrays the last call read and made (the program may drop them
        between calls) and of the hoisted ops' values (replay._hoist: made again by the
        next call, as compiled); the numbers the plan writes stay."""
        run = self.run
        run.fixed = None
        plan = run.plan
        if plan is not None and run.vals is not None:
            n, c = len(plan.ops), len(plan.consts)
            vals = run.vals
            for i in range(n):
                vals[i] = None
            for i in range(n + c, len(vals)):
                vals[i] = None


def _unseen(run, seen):
    """Let go of the values of the made names no one can see when the call ends (its
    locals the `return` does not read): not bound, not made (a loss only `backward`
    read stays unmade: replay.Deferred), and a shadow set no other value came from
    stays the run's, for the next call."""
    pending = run.pending
    for name in [n for n in pending if n not in seen]:
        del pending[name]
        run.bases.pop(name, None)


def _links(sets):
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


def _say(name, line, text):
    """A line of the replay's report (loop_shapes.REPORT): whether the body qualifies, and
    when a call is first replayed."""
    report(line, text, what=f"def {name}")
