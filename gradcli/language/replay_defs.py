"""Calls of a `def` replayed: a function whose body is made of the statements a
replayed loop body is made of (language/loop_compile.py `compile_def`: its parameters
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

from typing import Any, NamedTuple

from ..runtime import context
from ..core.tensor import Tensor
from ..engine import replay as engine
from . import loop_shapes
from .functions import Return
from .loop_compile import compile_def
from .loop_shapes import DEFS, augmented, bound_names, report
from .replay import _GO, _STALE, MAX_RECORDS, Body, Run, _not
from .replay_bind import CALLED, links, reusable
from .replay_checks import Fail, negative_zero
from .replay_plan import _swapped
from .replay_records import CALL
from .state import state
from .stmtlines import sequence


def def_body(comp, suite, name, line, params=()):
    """The closure of a `def`'s body that replays its calls, or None when the body
    does not qualify (loop_compile.compile_def).  Its plain parameters (`params`) are
    checked as a loop's `for` target is: a tensor that needs no gradient, has no
    grad_fn and is held by no other name the body reads, by its kind (replay_plan.
    _swapped), so a step called with each minibatch (`step(model, xb)`) replays."""
    got = compile_def(comp, suite)
    if loop_shapes.REPORT:
        _say(name, line, "qualifies" if got is not None else _not(suite, comp, True))
    if got is None:
        return None
    items, ret, seen, returns, number = got
    made, (rline, _) = number if number is not None else (None, (None, None))
    unseen = seen - {made}  # (the names to bind when `return loss.item()` takes its number)
    # (no `for` target: every check made before each call; in a loop's call, checks
    # made of the names the loop binds are never skipped: _Held.in_loop)
    body = Body(items, frozenset())
    body.line = line
    body.writes, body.augmented = frozenset(bound_names(suite)), augmented(suite)
    body.swaps = frozenset(params) - body.writes  # (a parameter the body binds again: by
    # identity)
    plain = sequence(body.closures + ((ret,) if ret is not None else ()))
    held = _Held(body, ret, seen, returns)
    held.item_of, held.unseen = made, unseen

    def call(s):
        if held.loop:  # (a replayed loop's call: _Held.in_loop checked the plan)
            return held.looped(s)
        if held.busy or not context.current.replay or not engine.plain():
            return plain(s)  # (while a loop notes an iteration: the plan kept)
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
        got = _STALE
        try:
            r = run.iteration(s)
            if r is None and made is not None and made in run.pending:
                got = run._number(made)  # (`return loss.item()`: _STALE, its error as
                # compiled: the name made)
        finally:
            try:
                if run.pending:  # (a replayed call: the names made that the program can
                    # see, bound in the call's scope; the others let go with it, unmade)
                    if run.records >= MAX_RECORDS:  # (a call replayed earns the run one
                        run.records = MAX_RECORDS - 1  # more noting: a def lives long)
                    _unseen(run, seen if got is _STALE else unseen)
                if run.pending:
                    used, plan = tuple(run.sets), run.plan
                    run.materialize()
                    held.lent(run, used, plan)
            finally:
                held.busy = False
                run.s = None
                held.release()
        if run.noted == 0 and held.plain_python is not None:
            # nothing of the engine ran in its statements: plain Python, which the fast
            # tier runs from its next call on (nothing to replay)
            held.plain_python(s)
        if r is not None or ret is None:
            return r
        if got is not _STALE:  # (the `return` statement's value, as it runs it)
            state.line = rline
            return Return(got)
        return ret(s)

    DEFS[call] = held
    return call


class Call(NamedTuple):
    """`name = f(args)` of a `def` whose calls replay, an item of a loop's plan: the call
    replayed as part of the loop's iteration, its value bound when the program can see
    it (`_Held.in_loop`)."""

    kind: int  # CALL
    held: Any  # what the function's calls share (_Held)
    name: str
    fn: Any  # the function (its identity checked)
    args: tuple  # a closure per argument (names and numbers)
    at: int  # its index among the body's items (run as compiled from there)
    line: int
    fresh: bool  # an argument checked by its kind (a loop target's data tensor): the
    # call's scope made again each call
    into: Any = None  # `recv.append(f(args))`: the list's load (the value appended to
    # the list recv holds, name None), else None


#: what a loop's replayed call gives when its value is bound later (_Held.looped)
_LATER = Return(None)


class _Took(Return):
    """What a loop's replayed call of `return name.item()` gives: the number (_Held.looped)."""

    __slots__ = ()


class _Held:
    """What the calls of one compiled body share: the replay run (its plan, its shadow
    nodes) and whether a call of it is running; and, while a replayed loop calls it
    (`in_loop`), the scope its calls run in and the loop's run."""

    __slots__ = (
        "body",
        "run",
        "busy",
        "said",
        "out",
        "plan",
        "links",
        "ret",
        "seen",
        "returns",
        "loop",
        "scope",
        "owner",
        "checked",
        "item_of",
        "unseen",
        "plain_python",
    )  # (said: REPORT)

    def __init__(self, body, ret, seen, returns):
        self.body = body
        self.run = None
        self.busy = False
        self.said = False
        self.out = [None, None]  # per turn: the shadow set handed over by a call
        self.plan = None  # the plan those sets were made for
        self.links = None  # replay.links of its sets (the same for each: the plan's graph)
        self.ret = ret  # the `return` statement's closure, or None
        self.seen = seen  # the names the program can see when a call ends
        self.returns = returns  # the name `return name` reads, None for no value, else ""
        self.loop = False  # the next call is a replayed loop's (in_loop)
        self.scope = None  # the scope of a replayed loop's calls, and that loop's run
        self.owner = None
        self.checked = None  # the plan the loop's last call was checked and replayed with
        self.item_of = None  # the made name of `return name.item()`, else None
        self.unseen = seen  # the names the program can see when such a call ends
        # (scope) -> None: the function called in that scope given its fast tier's code
        # (definitions.py), for a body whose calls ran no op of the engine
        self.plain_python = None

    # -- calls of a replayed loop ----------------------------------------------------------
    def item(self, body, at, read, items, checks, holders, swap, into=None):
        """The loop plan's item of `name = f(args)` (replay_plan.py: a call of this
        function, the loop body's item `at`), or of `recv.append(f(args))` (`into`: the
        list's load), its checks added to `checks`: the function and each argument an
        equal number or the same object, or a loop target's data tensor of the same kind
        (replay_plan._swapped; what the parameters hold is checked by the function's own
        plan: `in_loop`); Fail when the body calls it twice (one run replays its calls)."""
        _, name, _, extra, line, _ = body.items[at]
        loads, call = (extra[1], extra[2]) if into is not None else (extra[2], extra[6])
        if into is not None:
            name = None
        if any(it.kind == CALL and it.held is self for it in items):
            raise Fail(f"`{call[0]}` is called twice")
        mine = []
        for n, load, changed, _ in loads:
            v = read[n]
            if type(v) in (int, float, bool) and not changed:
                mine.append((n, (load, 1, v, type(v), negative_zero(v), None, None)))
            elif type(v) is Tensor:  # (as replay_checks.checks_of gives it, for _swapped)
                mine.append((n, (load, 0, v, v.requires_grad, v.grad_fn, None, None)))
            else:
                mine.append((n, (load, 2, v, None, None, None, None)))
        fresh = False
        for n, c in _swapped(mine, body.swaps, holders, read, swap):
            if c[1] == 7:
                fresh = True
            elif c[1] == 0:
                c = (c[0], 2, c[2], None, None, None, None)
            checks.append((n, c))
        return Call(CALL, self, name, read[call[0]], call[1], at, line, fresh, into)

    def in_loop(self, lrun, item):
        """A replayed loop's item `name = f(args)` (replay_plan.Call), run as the loop's
        own statements are: the call's plan checked (only its `if` conditions when the
        loop's last iteration was replayed and steady, this plan's last call was the
        loop's, its checks read no name the loop binds or changes and it calls no method as
        compiled: nothing can have changed), its statements replayed in one scope kept
        for the loop's calls (the arguments the loop checked, the same each call), and
        the names it makes left pending as a loop's are: the value returned bound when
        the program can see it (`bind`, from replay.Run.materialize).  Anything else runs
        the loop's statement as compiled (a call of its own)."""
        _, _, name, fn, args, at, line, fresh, into = item
        run = self.run
        if (
            self.busy
            or run is None
            or run.plan is None
            or run.plan.draws
            or (self.returns == "" and not self.item_of)
        ):
            return lrun._compiled(at)
        plan = run.plan
        s, pending = lrun.s, lrun.pending
        state.line = line
        scope = self.scope
        if scope is None or self.owner is not lrun:
            if run.pending:
                return lrun._compiled(at)
            try:
                scope = fn.scope_for([a(s) for a in args])
            except Exception:
                return lrun._compiled(at)  # (its error in its place)
            self.scope, self.owner = scope, lrun
            steady = False
        else:
            if fresh:  # (this iteration's data tensors bound to the parameters)
                scope = self.scope = fn.scope_for([a(s) for a in args])
            steady = (
                lrun.steady
                and self.checked is plan
                and plan.steady
                and lrun.body.writes is not None
                and not (lrun.body.writes & plan.names)
            )
        run.s = scope
        run.steady = steady
        if run._ready(plan) is not None:
            if name not in pending:  # (else bound with its names: `bind`)
                self.scope = self.owner = None
            return lrun._compiled(at)
        if into is not None:  # (`recv.append` is looked up before the call runs)
            try:
                got = into(s)
            except Exception:
                got = None
            if type(got) is not list:  # (its error in its place)
                self.scope = self.owner = None
                return lrun._compiled(at)
        self.checked = plan
        self.loop = True
        try:
            r = fn.run_in(scope)
        except BaseException:
            if name not in pending:  # (no value of the loop's comes from the run: what
                self.bind(None, False)  # it made is bound in the call's scope, let go)
            raise
        finally:
            self.loop = False
        if r is _LATER or type(r) is _Took:
            for x in (run, lrun):  # (a call replayed earns its run one more noting,
                if x.records >= MAX_RECORDS:  # and the loop's)
                    x.records = MAX_RECORDS - 1
            if loop_shapes.REPORT and not self.said:
                self.said = True
                _say(fn.name, self.body.line, "calls replayed")
            if type(r) is _Took:  # (`return loss.item()`: the number, no name pending)
                if into is not None:
                    got.append(r.value)
                else:
                    lrun.body.stores[name](s, r.value)
                return _GO
            if into is not None:  # (the list holds the value: bound now)
                got.append(self.bind(None))
                return _GO
            first = name not in pending
            v = None if self.returns is None else run.pending[self.returns][2]
            pending[name] = (CALLED, self, v, None)
            if first:  # the compiled iteration's value: let go
                lrun.body.stores[name](s, None)
        else:
            self.checked = None
            self.scope = self.owner = None  # (a scope the statements as compiled ran in)
            v = r.value if type(r) is Return else None
            if into is not None:
                got.append(v)
            else:
                lrun.body.stores[name](s, v)
        return _GO

    def looped(self, s):
        """The body of a call made by `in_loop`: its statements replayed (its plan
        checked), their names left pending; _LATER, or what the call gives when its
        statements ran as compiled (its names then bound)."""
        self.loop = False
        run = self.run
        self.busy = True
        try:
            r = run._replay(run.plan)
        finally:
            self.busy = False
        if r is None and run.pending and (self.returns is None or self.returns in run.pending):
            return _LATER
        made = self.item_of
        if (
            r is None
            and made is not None
            and made in run.pending
            and not (self.unseen & run.pending.keys())
        ):  # (`return loss.item()` of a local: its number; no name the program sees)
            got = run._number(made)
            if got is not _STALE:
                run.pending.clear()  # (the names let go unmade, as a call's locals)
                run.bases.clear()
                return _Took(got)
        if r is not None:  # (a statement run as compiled gave it: the names are bound)
            self.bind(None, False)
            return r
        return Return(self.bind(None))  # (what the `return` reads was not made here)

    def bind(self, numbers, value=True):
        """Bind the names a loop's replayed calls made that the program can see (as a
        call's end does), let go of the others and of the scope; the value the `return`
        gives (None when there is none, or not `value`)."""
        run, scope = self.run, self.scope
        self.scope = self.owner = self.checked = None
        run.s = scope
        try:
            _unseen(run, self.seen)
            if run.pending:
                used, plan = tuple(run.sets), run.plan
                run.materialize(numbers)
                self.lent(run, used, plan)
            r = self.ret(scope) if value and self.ret is not None else None
        finally:
            run.s = None
            self.release()
        return r.value if type(r) is Return else None

    def made(self, v):
        """The returned name's value made while it is pending (replay.Deferred: a
        loop's `total += loss.item()` of the call's value)."""
        p = self.run.pending.get(self.returns)
        if p is not None:
            self.run.pending[self.returns] = (p[0], p[1], v, p[3])

    # -- calls of the program's ---------------------------------------------------------

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
        if self.links is None:
            self.links = links(sets)
        if reusable(sets, self.links):
            run.sets[t] = sets

    def release(self):
        """Let go of the arrays the last call read and made (the program may drop them
        between calls) and of the hoisted ops' values (replay._hoist: made again by the
        next call, as compiled); the numbers the plan writes stay."""
        run = self.run
        run.fixed = None
        run.lives = {}  # (the arguments' tensors `_alive` kept)
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


def _say(name, line, text):
    """A line of the replay's report (loop_shapes.REPORT): whether the body qualifies, and
    when a call is first replayed."""
    report(line, text, what=f"def {name}")
