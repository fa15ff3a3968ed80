"""Loop bodies replayed: a training loop runs the same ops on the same
tensors every iteration; once one iteration has shown which ops its statements reach,
the next ones run those ops' forwards and the backward straight away, on nodes made
once (engine/replay.py, shadows), without the compiled closures' dispatch.  The plan
of a noted iteration is made by language/replay_plan.py.

Which bodies: language/loop_shapes.py.  How:

* The first iteration runs as compiled, the engine noting each op it applies
  (`engine.recording`).  The plan maps each op's arguments to a variable's tensor, an
  earlier op's output or a constant, and each node's parents to other ops' nodes or
  the variables' leaf tensors; `backward` gets the schedule of its graph.  An
  iteration that shows anything else (a value no op made, a graph reaching nodes
  made before the loop, the program's own functions) gives no plan: the loop runs as
  compiled.
* Before each later iteration, every check is made (`_ready`): each variable a
  replayed statement reads holds what it held then (the same tensor object with the
  same dtype, shape, requires_grad and grad_fn; an equal number; the same function),
  grad mode, no forward-mode level or saved-tensor hooks, no tracer or leaf hooks
  for `backward`, and each `if` condition false (after a replayed iteration of a
  `for` loop, only the conditions: nothing else can have changed).  Then the ops run
  on shadow nodes (two sets, used in turn, so the values of the previous iteration
  keep their graph): a set's first time each op's whole forward, after that the op's
  kernel where it has one for its arguments' kind (`Function.replay_kernel`, one
  NumPy call: engine.run_kernels); `backward` through the engine, a no_grad block's
  steps `w -= lr * w.grad` on Python floats (replay_steps.py), the other statements
  as compiled.  The ops of constants and tensors needing no gradient (`x ** 2`) are
  computed once (`_hoist`); a loss only `backward` reads is made when the program
  can see it (`Deferred`).  A failed check runs the iteration as compiled (and an
  `if` that holds keeps the plan; anything else notes the next iteration again, up
  to MAX_RECORDS times).
* The names the replayed statements make are bound when the program can next see
  them: when the loop ends (however it ends), or before an iteration runs as
  compiled, each to a Tensor of the last value given to it, whose graph is the
  shadows of its iteration, handed over (`materialize`).  An iteration in which an `if`
  holds replays the statements before it, binds the names they made, runs the `if` as
  compiled and replays the statements after it (`_guarded`: when they make no name and
  the checks hold again; the set it handed over is used again once the program lets go
  of its values, `reusable`); else it runs as compiled, binding only the names its first
  assignments do not make again (`_assigned_first`).

Everything the program sees is what the compiled loop makes: the same ops' forwards
and VJPs on the same values in the same order (so the same bits), the engine's own
backward (its checks of saved values, its errors, .grad, the flow record), and the
Tensors and graphs left in the variables.  `context.current.replay` False
(`--no-replay`) runs every iteration as compiled; tests/language/test_replay.py runs programs
both ways and compares all they print.
"""

from __future__ import annotations


from ..runtime import context
from ..core.tensor import Tensor
from ..engine import replay as engine
from ..library.nn.module import replay_same
from ..library.optim import replay_groups_same
from .loop_compile import compile_body
from .loop_shapes import REPORT, augmented, bound_names, names_in, report, why_not

# (REPORT: set here for the loops, by a test)
from .parser import Tree
from .positions import pos
from .replay_checks import Fail, negative_zero
from .replay_steps import backward_item, run_updates
from .replay_records import AS_COMPILED, ASSIGN, BACKWARD, CHECK, CLEAR_GRAD, ITEM, NO_GRAD, STEP
from .replay_records import APPEND, ARRAY_STEP, BATCH, CALL, EACH, TAIL, ZERO_GRAD
from .replay_tail import tail
from .replay_bind import CALLED, Deferred, bind, lend, materialize, reusable
from .replay_numbers import NOTED, NUMBER, _unbound, number
from .replay_plan import plan as make_plan, remade
from .replay_draws import DRAWS, queued
from .replay_keyed import drawn_iteration, grow, keyed, rest
from .replay_noting import futile, noting

# the kinds the hot loops test as literals (a test checks they are these)
assert (ASSIGN, BACKWARD, AS_COMPILED, NO_GRAD, CHECK, ITEM) == (0, 1, 2, 3, 4, 5)
assert (STEP, CLEAR_GRAD, ARRAY_STEP, ZERO_GRAD, EACH) == (0, 1, 3, 4, 5)
from .state import state
from .stmtlines import sequence
from .functions import HANDED

#: times a loop run notes an iteration again after a check failed; then it runs as compiled
MAX_RECORDS = 3


class Body:
    """A qualifying loop body, compiled: its statements (loop_compile._item) and their
    closures; `start()` gives the state of one run of the loop."""

    __slots__ = (
        "items",
        "closures",
        "stores",
        "run_all",
        "targets",
        "line",
        "first",
        "loads",
        "after_first",
        "writes",
        "augmented",
        "swaps",
        "kept",
        "cond_loads",
        "keyed",
        "rest",
        "tail",
    )

    def __init__(self, items, targets):
        self.items = items
        self.line = None  # (where the loop is: REPORT)
        # the names the body binds (a replayed call's checks that read none of them
        # hold from one replayed iteration to the next: replay_defs._Held.in_loop)
        self.writes = None
        self.augmented = frozenset()  # (of them, those changed with `op=`)
        self.kept = None  # the last run that ended with a plan (Run.finish), for the next
        self.swaps = frozenset()  # the names a `for` target binds: each iteration's data
        # tensor (no grad) may be another object of the same kind (replay_plan._swapped)
        self.targets = targets  # the name a `for` loop binds (None: a `while` loop,
        # or a target that is not a name)
        self.cond_loads = None  # a `while` loop's: the loads of its condition's variables
        self.keyed = False  # a loop's: a plan per draws (replay_draws.py; a def's: none)
        self.rest = None  # a top-level loop's: its fast code from an item on (control._looped)
        self.closures = tuple(it[2] for it in items)
        self.stores = {
            w: x[0] if k == "assign" else _unbound for k, w, _, x, _, _ in items if k in NOTED
        }
        self.loads = {what: extra[1] for kind, what, _, extra, _, _ in items if kind == "assign"}
        self.run_all = sequence(self.closures)  # the body as compiled
        # the assignments the body starts with (Run._assigned_first)
        first = 0
        while first < len(items) and items[first][0] == "assign":
            first += 1
        self.first = first
        self.after_first = sequence(self.closures[first:])
        at = next((x for x, it in enumerate(items) if it[0] == "compiled"), None)
        self.tail = sequence(self.closures[at:]) if at is not None else None

    @classmethod
    def compile(cls, comp, suite, target, cond):
        """The Body of a loop with this `for` target or `while` condition (the other
        None), or None when the body does not qualify (loop_compile.compile_body)."""
        names = names_in(target) if target is not None else set()
        items = compile_body(comp, suite, names, cond)
        # (a target other than a name, `d[0]`, `o.x`, may run the program's code when it
        # is bound: such a loop is checked each iteration, as a `while` loop; names
        # `a, b` bound from a tuple run none, and the loop says when an item is not one:
        # Run.unsteady)
        plain = isinstance(target, Tree) and (target.data == "name" or _names(target))
        line = pos(target if target is not None else cond)[0]
        if REPORT:
            report(line, "qualifies" if items is not None else _not(suite, comp))
        if items is None:
            return None
        body = cls(items, names if plain else None)
        body.line = line
        body.writes, body.augmented = frozenset(names | bound_names(suite)), augmented(suite)
        # (and the names its batch statements bind, `idx = perm[i : i + bs]`: Batch)
        body.swaps = frozenset(names | {it[1] for it in items if it[0] == "batch"})
        body.keyed = True
        if cond is not None:  # (numbers and variables only: loop_shapes._condition)
            body.cond_loads = tuple(comp.load_name(n, cond) for n in sorted(names_in(cond)))
        return body

    def start(self, s):
        """The run of the loop's iterations: the last run's, when it ended with a plan
        (an inner loop run once per epoch: its plan checked before the first iteration,
        as after a compiled one, instead of an iteration noted again), else a new one."""
        run = self.kept
        if run is None:
            return Run(self, s) if not REPORT else Counted(self, s)
        self.kept = None
        run.body, run.s = self, s
        run.steady = False
        run.records = 0
        run.counts = [0, 0, 0]
        return run


class Run:
    """One run of a loop with a qualifying body."""

    __slots__ = (
        "body",
        "s",
        "plan",
        "pending",
        "records",
        "sets",
        "turn",
        "vals",
        "fixed",
        "steady",
        "kernels",
        "fast",
        "lives",
        "counts",
        "bases",
        "why",
        "noted",
        "lent",
        "alts",
        "drawing",
        "tree",
    )

    def __init__(self, body, s):
        self.body = body
        self.s = s
        self.plan = None
        self.pending = {}  # name -> (shadow set, op index, array, plan)
        self.records = 0
        self.sets = [None, None]
        self.turn = 0
        self.vals = None
        self.kernels = None  # per op: its kernel (engine.kernel_of), None, or _UNSET
        self.fast, self.lives = None, {}  # (lives: `_alive`'s last, by an item's place)
        self.fixed = None  # the hoisted ops' values: (what they read, (op, value) ...)
        self.steady = False  # the last iteration was replayed, with a plan.steady plan
        self.bases = {}  # name -> the output its value views (replay_plan.Assign.base)
        self.counts = [0, 0, 0]  # iterations replayed, in all, handed (REPORT: Counted)
        self.why = None  # why the last noted iteration gave no plan (REPORT)
        self.noted = -1  # the engine's ops the last noted iteration ran (replay_defs.py)
        # per turn, a set handed over with the names made (`lend`), or None
        self.lent = [None, None]
        self.alts = None  # draws -> the state of the plan noted with them (`_drawn`), or None
        self.drawing = None  # the draws of this iteration made ahead: ((value, item) ...)
        self.tree = None  # the draws noted: which is made next (replay_draws.make)

    def iteration(self, s):
        """Run the body once; returns its signal, as Compiler.block's closure does."""
        plan = self.plan
        if plan is not None:
            why = self._ready(plan)
            if why is None:
                return self._replay(plan) if not plan.draws else drawn_iteration(self, plan)
            if why is not _COND:
                self.plan = self.alts = self.tree = None  # (the draws noted: in that state)
            elif plan.draws:  # (its draws made by the compiled iteration, in their place)
                return self._compiled(0)
            else:
                r = _guarded(self, plan)
                if r is not _STALE:
                    return r
                if self.pending and not any(p[0] is CALLED for p in self.pending.values()):
                    return self._assigned_first()  # (a call's value: every name bound first)
            return self._compiled(0)
        if self.records < MAX_RECORDS and engine.plain():
            self.records += 1
            return self._record()
        r = self._compiled(0)
        if self.body.rest is None or self.records < MAX_RECORDS or r is not None:
            return r
        return HANDED if context.current.fast_tier else None  # (no plan left to make)

    def unsteady(self):
        """The loop's target was bound from something other than a tuple (its unpacking
        may have run code of the program): the next iteration checks the whole plan."""
        self.steady = False

    def taking(self):
        """Code of the program is about to make the loop's next item (a generator's): the
        names made are bound (`bind`: that code may read them), and the next iteration
        makes every check of the plan (that code may have changed anything)."""
        if self.pending:
            self.bind()
        self.steady = False

    def _compiled(self, start):
        """The body's statements from `start` on, as compiled (made names bound first)."""
        self.steady = False
        if self.pending:
            self.materialize()
        if self.drawing is not None:  # (the draws its statements make: made ahead)
            queued([v for v, at in self.drawing if at >= start])
        return sequence(self.body.closures[start:])(self.s) if start else self.body.run_all(self.s)

    def _assigned_first(self):
        """The iteration as compiled (an `if` holds), the names replayed iterations made
        not bound first: the assignments the body starts with (Body.first) run first,
        and a name one of them assigns again is let go (no statement of the loop reads
        it before: a replayed statement that reads one fails its check,
        language/replay_plan.py), its value unseen, its shadow set not handed over (so
        it stays the replay's).  The names left (an error, or made by a later statement)
        are bound after them, before the rest of the body, with creation numbers of
        before them (taken first: as the compiled iteration would have bound them)."""
        self.steady = False
        body, s, pending = self.body, self.s, self.pending
        sets = {id(p[0]): (p[0], p[3]) for p in pending.values()}
        numbers = engine.reserve(
            len(pending) + sum(len(sh) + len(plan.adopt) for sh, plan in sets.values())
        )
        try:
            for closure in body.closures[: body.first]:
                closure(s)  # (an assignment gives no signal)
        finally:
            for name in [n for n in pending if _assigned(body, n, s)]:
                del pending[name]
            if pending:
                self.materialize(numbers)
        return body.after_first(s)

    def finish(self):
        self.lent = [None, None]
        if self.pending:
            self.materialize()
        plan = self.plan
        if plan is None:
            self.alts = self.tree = None
            return
        # kept for the loop's next run (Body.start), holding none of this run's values:
        # what the shadow sets saved that no backward freed, the ops' outputs and the
        # variables' arrays in `vals`, the hoisted values, the scope (and so the plans
        # of other draws: `_drawn`)
        rest(plan, self.vals, self.sets)
        self.fixed, self.lives = None, {}
        alts = self.alts
        if alts:
            for key, got in alts.items():
                if got is not None:
                    rest(got[0], got[1], got[5])
                    alts[key] = (*got[:4], None, got[5], got[6], None)
        self.s = None
        self.body.kept = self
        self.body = None  # (no cycle: the body holds its kept run, not this one it)

    # -- noting an iteration ------------------------------------------------------------
    def _record(self):
        self.steady = False
        if self.pending:
            self.materialize()
        s = self.s
        why = futile(self.body, s)
        if why is not None:  # (its plan would fail: the loop as compiled, by the fast
            self.why = why  # tier where it can, noting no other iteration)
            self.records = MAX_RECORDS
            return self._compiled(0)
        # assign: (its notes' range, values read, its result's op, grad mode);
        # backward: (its root's op, the root's node)
        seen = {}
        outer, DRAWS.seen = DRAWS.seen, []  # (the draws the iteration makes)
        drew = DRAWS.seen
        try:
            r, notes, first = noting(self.body, s, seen, drew)
        finally:
            DRAWS.seen = outer
        if r is not None:
            return r
        self.noted = len(notes)
        draws, key = (), None
        try:
            if None in notes:  # (a forward-mode level or hooks context opened)
                raise Fail("a forward-mode level or saved-tensor hooks were opened")
            draws, key = keyed(self.body, drew, first)
            self.plan = make_plan(self.body, seen, notes)
            if drew and any(it[0] == CALL for it in self.plan.items):
                raise Fail("a forward's loop draws in a statement with a call of a def")
            self.plan.draws, self.plan.key = draws, key
            if drew and not grow(self, draws, key):
                raise Fail("a forward's loops drew in another order than before")
        except Fail as e:
            self.plan = None
            self.why = str(e) or "what the noted iteration did cannot be replayed"
            if key is not None and self.alts is not None and grow(self, draws, key):
                self.alts[key] = None  # (these values run as compiled: `_drawn`)
        if self.plan is not None:
            p = self.plan
            self.vals = [None] * len(p.ops) + list(p.consts) + [None] * len(p.frees)
            self.kernels = [_UNSET] * len(p.ops)  # (decided on a warm set's first use)
            # per assignment: _program's, once decided (none where an op takes this
            # iteration's index tensors as its parameters: `_alive`'s keys)
            self.fast = [() if it[0] == ASSIGN and _keyed(it[9]) else None for it in p.items]
            self.fixed, self.lives = None, {}
            self.sets = [None, None]
        return None

    # -- a replayed iteration ------------------------------------------------------------
    def _ready(self, plan):
        """None if the iteration can be replayed, else why not (_COND: an `if` holds).
        After a replayed iteration of a `for` loop whose statements do not read what it
        binds, only the `if` conditions: nothing else can have changed (no code of the
        program ran since the checks held: loop_shapes.py)."""
        s = self.s
        if self.steady and self.body.cond_loads and not _numbers(self.body.cond_loads, s):
            self.steady = False  # (a `while` condition on something else may have run code)
        if self.steady:
            if plan.moving and not _check(plan.moving, s):  # (what the target binds)
                return _STALE
        else:
            ctx = context.current
            if (
                ctx.grad_enabled is not plan.mode
                or ctx.default_float is not plan.default
                or not engine.plain()
                or (plan.backward and not engine.backward_ready())
                or not _check(plan.checks, s)
            ):
                return _STALE
        for cond, loads in plan.conds:
            try:
                for load in loads:
                    t = type(load(s))
                    if t is not int and t is not float and t is not bool:
                        return _STALE
                if cond(s):
                    return _COND
            except Exception:
                return _COND  # (the compiled iteration raises it in its place)
        return None

    def _number(self, name):
        """The number `name.item()` gives of a made name's replayed value (as Tensor.item
        takes it), or _STALE when the statement must run as compiled (no value, not
        one element: its error in its place)."""
        p = self.pending.get(name)
        if p is None:
            return _STALE
        v = p[2]
        if type(v) is Deferred:  # (made now: the program sees its value)
            v = v.value()
            self.pending[name] = (p[0], p[1], v, p[3])
            if p[0] is CALLED:  # (the call's own name too)
                p[1].made(v)
        if v is None or v.size != 1:  # (None: a call that returns nothing)
            return _STALE
        return v.reshape(()).item()  # (as Tensor.item)

    def _still(self, plan):
        """Whether the plan's checks hold again (before an assignment that follows a
        method call run as compiled: replay_plan.Check)."""
        ctx = context.current
        return (
            ctx.grad_enabled is plan.mode
            and ctx.default_float is plan.default
            and engine.plain()
            and (not plan.backward or engine.backward_ready())
            and _check(plan.checks, self.s)
        )

    def _replay(self, plan):
        """A replayed iteration (its checks held)."""
        r = self._items(plan, 0, None)
        if r is not _GO:
            return r
        self.steady = plan.steady
        return None

    def _items(self, plan, start, stop, shadows=None, warm=True):  # noqa: C901 (one loop)
        """Items start..stop (None: to the end) of a replayed iteration, in the set
        `shadows`; None: the iteration's first items, its set chosen first (the other
        one than the last iteration's; `warm`: its ops' forwards ran once) and the hoisted
        values put in their slots.  _GO, or what the rest of the iteration run as
        compiled gave (an item that could not be replayed, a hoisted op that raised)."""
        vals = self.vals
        if shadows is None:
            turn = self.turn
            self.turn = turn ^ 1
            shadows = self.sets[turn]
            if shadows is None and self.lent[turn] is not None:
                lent, self.lent[turn] = self.lent[turn], None  # (handed over: `lend`)
                if lent[0] is plan and reusable(lent[1]):
                    shadows = self.sets[turn] = lent[1]
            warm = shadows is not None  # (its ops' forwards ran once: Deferred)
            if shadows is None:
                shadows = self.sets[turn] = plan.sets()
            elif plan.loose:  # the values of two iterations ago: no name holds them now
                engine.release(shadows, plan.loose)
            if plan.hoist:
                fixed = self.fixed
                if fixed is None or not _unchanged(fixed[0], self.s):
                    fixed = self.fixed = _hoist(plan, shadows, vals, self.s)
                    if fixed is None:  # (as compiled, the error in its place)
                        return self._compiled(0)
                for j, v in fixed[1]:
                    vals[j] = v
        s = self.s
        forward = engine.forward
        kernels = self.kernels
        pending = self.pending
        fast = self.fast
        items = plan.items
        if start or stop is not None:
            items = items[start:stop]
        for at_item, item in enumerate(items, start):
            kind = item[0]
            # (the kinds as literals: a global's lookup per item costs in the hot loop)
            if kind == 0:  # ASSIGN: name = expression (replay_plan.Assign)
                _, name, steps, frees, k, line, drop, at, base, live = item
                for slot, t in frees:
                    vals[slot] = t.data
                if live is not None:  # (a loop target's tensor of this iteration)
                    steps = _alive(live, steps, vals, s, self.lives, at_item)
                state.line = line
                try:
                    if warm:
                        f = fast[at_item]
                        if f:  # its first ops' kernels, in one call
                            if live is not None and live[1]:  # (its saved sources: now's)
                                f = _fixed(f, live[1], steps, self.lives.get(at_item))
                            engine.run_kernels(shadows, vals, f[0])
                            steps = f[1]
                    for j, args, params, mask, srcs, done, like, idx in steps:
                        a = args(vals)
                        if not warm:  # (the set's first: its whole forwards)
                            vals[j] = forward(shadows[j], a, params, mask, srcs)
                        elif like is not None and a[0].nbytes <= DEFER_BYTES:
                            vals[j] = Deferred(shadows[j], a, params, like)
                        else:  # (kernels decided for _program)
                            if kernels[j] is _UNSET:
                                kernels[j] = engine.kernel_of(shadows[j], a, params)
                            vals[j] = forward(shadows[j], a, params, mask, srcs)
                        for x in done:  # values no later op reads: let go, as compiled
                            vals[x] = None
                except Exception:  # (as compiled, the error in its place)
                    return self._compiled(at)
                a = None  # (the last op's arguments: its input, let go as compiled)
                if warm and fast[at_item] is None:
                    fast[at_item] = _program(item[2], kernels)  # (Assign.steps)
                first = name not in pending
                pending[name] = (shadows, k, vals[k], plan)
                if base is not None:  # (a view: its base's value, for its Tensor)
                    self.bases[name] = vals[base]
                if first:  # the compiled iteration's value: let go
                    self.body.stores[name](s, None)
                for j in drop:  # values no later statement reads: let go
                    vals[j] = None
            elif kind == 1:  # BACKWARD: name.backward() (replay_plan.Backward)
                like = vals[item[1]]
                backward_item(item, shadows, like if type(like) is not Deferred else like.like, s)
            elif kind == 3:  # NO_GRAD: a no_grad block (replay_plan.NoGrad)
                run_updates(item, s)
            elif kind == 2:  # AS_COMPILED (replay_plan.AsCompiled: its closure)
                item[1](s)
            else:  # CHECK, ITEM, CALL, APPEND, BATCH (not in the bench's loops)
                r = _other(self, plan, item)
                if r is not _GO:
                    return r
        return _GO

    # -- binding the names (replay_bind.py) ----------------------------------------------
    def bind(self):
        bind(self)

    def lend(self, plan, turn, shadows):
        lend(self, plan, turn, shadows)

    def materialize(self, numbers=None):
        materialize(self, numbers)


class Counted(Run):
    """A Run that counts the iterations it replays (REPORT), and says so when it ends."""

    __slots__ = ()

    def iteration(self, s):
        self.counts[1] += 1
        r = Run.iteration(self, s)
        self.counts[2] = r is HANDED
        return r

    def _replay(self, plan):
        self.counts[0] += 1
        return Run._replay(self, plan)

    def finish(self):
        line = self.body.line
        Run.finish(self)  # (which lets go of the body when it keeps the run)
        text = "%d of %d iterations replayed" % tuple(self.counts[:2])
        text += ", the others run by the fast tier" if self.counts[2] else ""
        if self.why is not None and self.plan is None:
            text += " (no plan: %s)" % self.why
        report(line, text)


def _not(suite, comp, is_def=False):
    """The report's words for a body that does not qualify (loop_shapes.why_not)."""
    if comp.fn is not None and getattr(comp.fn, "kind", None) == "class":
        return "does not qualify (in a class body)"
    return "does not qualify (%s)" % why_not(suite, is_def)


def _names(target):
    """Whether a `for` target is names only, `a, b` (statements.py's unpacking)."""
    return target.data in ("tuple_items", "exprlist_items", "list_items") and all(
        isinstance(c, Tree) and c.data == "name" for c in target.children if c is not None
    )


def _assigned(body, name, s):
    """Whether the variable `name`, None while the replay held its value, holds another
    value (an assignment of the body gives it a Tensor, never None)."""
    try:
        return body.loads[name](s) is not None
    except Exception:
        return False


def _alive(live, steps, vals, s, lives, at):
    """An assignment's steps in an iteration where loop targets hold new data tensors
    (replay_plan._swapped: ((slot, load) per such tensor, (step, position, which) per
    saved value that is one)): their arrays put in their slots, and the steps whose
    nodes save them made with this iteration's tensors as their sources (as compiled:
    their versions recorded, `_saved_self` giving them), and the keys of the ops that
    take index tensors remade of this iteration's arrays (replay_plan._keys).  The steps
    made are kept in `lives` (Run.lives, by the item's place `at`): when the tensors are
    the same ones as the last iteration's (a function called with the same data each
    step), they are those steps again."""
    loads, fixes, keys = live
    now = [load(s) for _, load in loads]
    for (slot, _), t in zip(loads, now):
        vals[slot] = t.data
    for d, name, parts, places in keys:
        for p, slot in places:
            parts[p] = vals[slot]
        d[name] = remade(parts)
    if not fixes:
        return steps
    last = lives.get(at)
    if last is not None and all(t is u for t, u in zip(now, last[0])):
        return last[1]
    steps = list(steps)
    for x, p, w, cls in fixes:
        st = steps[x]
        srcs = list(st[4])
        srcs[p] = now[w] if cls is None else engine.view_source(now[w], cls)
        steps[x] = st[:4] + (tuple(srcs),) + st[5:]
    lives[at] = [now, steps, None]
    return steps


def _keyed(live):
    """Whether an assignment's ops take index tensors of this iteration as parameters
    (`_alive`'s keys): its kernels, decided on one iteration's, are not made a program."""
    return live is not None and bool(live[2])


def _fixed(f, fixes, steps, last):
    """An assignment's kernel program (`_program`'s (program, rest)) whose steps save a
    loop target's tensor of this iteration (`fixes`, as `_alive` gives them): its entries
    with their saved values' sources from `steps`, which `_alive` made of them.  (The
    tensors' kinds are the noted ones: their checks, replay_plan._swapped, are of dtype,
    shape and strides, on which the kernels were decided.)  Kept beside `_alive`'s steps
    (`last`, Run.lives' entry): the same steps, the same program."""
    if last is not None and last[1] is steps and last[2] is not None and last[2][0] is f:
        return last[2][1]
    prog, rest = f
    n = len(prog)
    if not any(fix[0] < n for fix in fixes):
        got = prog, steps[n:]
    else:
        entries = list(prog)
        for x, *_ in fixes:
            if x < n:
                e = entries[x]
                entries[x] = e[:7] + (steps[x][4],) + e[8:]
        got = entries, steps[n:]
    if last is not None and last[1] is steps:
        last[2] = (f, got)
    return got


def _other(run, plan, item):
    """A replayed iteration's CHECK (replay_plan.Check: the checks again, after a method
    call) or ITEM (replay_plan.Item: `running += loss.item()`): _GO, or what the rest
    of the iteration run as compiled gives (a check that fails, an error)."""
    s = run.s
    kind = item[0]
    if kind == CHECK:
        return _GO if run._still(plan) else run._compiled(item[1])
    if kind == TAIL:  # (replay_plan.Tail: the body's compiled tail)
        return tail(run, item[1])
    if kind == NUMBER:  # (replay_numbers.Number: a no_grad block's number)
        v = run._number(item[1])
        if v is _STALE:
            return run._compiled(item[3])  # (its error in its place)
        number(run, item, v)
        return _GO
    if kind == CALL:  # (replay_plan.Call: replay_defs._Held.in_loop)
        return item[1].in_loop(run, item)
    if kind == BATCH:  # (replay_plan.Batch: `idx = perm[i : i + bs]`)
        _, closure, checks, at = item
        try:
            closure(s)
        except Exception:
            return run._compiled(at)  # (its error in its place)
        return _GO if _check(checks, s) else run._compiled(at + 1)
    if kind == APPEND:  # (replay_plan.Append: `losses.append(loss.item())`)
        _, load, name, value, at, line = item
        state.line = line
        try:
            got = load(s)
            if type(got) is not list:
                return run._compiled(at)
            v = value(s) if name is None else run._number(name)
        except Exception:
            return run._compiled(at)  # (its error in its place)
        if v is _STALE:
            return run._compiled(at)
        got.append(v)
        return _GO
    _, store, load, name, binary, at, line, factor = item
    state.line = line
    v = run._number(name)
    if v is _STALE:
        return run._compiled(at)  # (its error in its place)
    try:
        if factor is not None:  # (`loss.item() * len(idx)`, in the program's order)
            f, first, times = factor
            v = times(v, f(s)) if first else times(f(s), v)
        r = binary(load(s), v)
    except Exception:
        return run._compiled(at)
    store(s, r)
    return _GO


def _guarded(run, plan):
    """An iteration in which an `if` holds (the first whose condition holds, `_ready`
    having found one), when only items that make no name come after it (its set is
    the program's then): the items before it replayed, the names they made bound
    (`materialize`), the `if` run as compiled, then the items after it replayed if the
    checks hold again and those names hold what they were bound to, else the body
    after the `if` as compiled.  _STALE (nothing run) when the `if` is the body's
    first or the names pending from the last iteration are not all made again before
    it (then `_assigned_first`)."""
    s = run.s
    for (cond, _), (k, at) in zip(plan.conds, plan.guards):
        try:
            holds = cond(s)
        except Exception:
            holds = True  # (raised in its place, as compiled)
        if holds:
            break
    else:
        return _STALE
    items = plan.items
    if not k or any(it[0] == 0 for it in items[k:]):  # (ASSIGN)
        return _STALE
    pending = run.pending
    made = {it[1] for it in items[:k] if it[0] == 0}
    if any(p[0] is CALLED or n not in made for n, p in pending.items()):
        return _STALE
    r = run._items(plan, 0, k)
    if r is not _GO:
        return r  # (ran as compiled from a statement before the `if`)
    run.steady = False
    shadows = run.sets[run.turn ^ 1]  # (this iteration's)
    if not any(it[0] == 1 for it in items[:k]):  # (no BACKWARD before the `if`)
        for node in shadows:  # its nodes are new to the program: no pass has gone
            node.fpass = None  # through them (graph(values=true))
    loads = run.body.loads
    names = list(run.pending)
    run.materialize()
    run.lend(plan, run.turn ^ 1, shadows)
    bound = [(loads[n], loads[n](s)) for n in names]
    r = run.body.closures[at](s)  # the `if`
    if r is not None:
        return r
    try:
        same = run._still(plan) and all(load(s) is v for load, v in bound)
    except Exception:
        same = False
    if not same:
        return run._compiled(at + 1)
    r = run._items(plan, k, None, shadows)
    return None if r is _GO else r


def _program(steps, kernels):
    """An assignment's first steps, up to one whose value may be deferred, as
    engine.run_kernels takes them (an op through its kernel, decided on a warm set: the
    same every iteration; one that has none through its whole forward), and the steps
    after them: (program, rest), or () when no op has a kernel."""
    prog = []
    for j, args, params, mask, srcs, done, like, idx in steps:
        kernel = kernels[j]
        if like is not None or kernel is _UNSET:
            break
        if kernel is None:
            prog.append((j, args, -1, engine.WHOLE, params, False, mask, srcs, done))
            continue
        f, arity, keeps, w = kernel
        prog.append(
            (
                j,
                f,
                idx[0],
                idx[1] if arity == 2 else -1,
                w,
                keeps if srcs is not False else False,
                mask,
                srcs,
                done,
            )
        )
    if not any(e[3] != engine.WHOLE for e in prog):
        return ()
    return tuple(prog), steps[len(prog) :]


def _hoist(plan, shadows, vals, s):
    """Compute the hoisted ops' values (`_invariant`): (what they read: (the tensor, the
    load of the variable when a loop's target or a function's parameter binds it anew,
    the tensor's array, the array's bytes) ..., the values later ops read: (op, value)
    ...); None if one raises."""
    seen = []
    for slot, t, load in plan.hoist_frees:
        if load is not None:  # (this iteration's tensor)
            t = load(s)
        data = t.data
        vals[slot] = data
        seen.append((t, load, data, data.tobytes()))
    try:
        for j, args, params, mask, srcs, done, like, idx in plan.hoist:
            vals[j] = engine.forward(shadows[j], args(vals), params, mask, srcs)
    except Exception:
        return None
    kept = tuple((j, vals[j]) for j in plan.hoist_kept)
    for j, *_ in plan.hoist:
        vals[j] = None
    return tuple(seen), kept


def _unchanged(seen, s):
    """Whether each tensor the hoisted ops read holds the same array with the same
    bytes (a variable a loop's target binds: its tensor of this iteration).  (Not its
    version: an in-place change through `.data`, or backward adding into a `.grad`
    another name holds a view of, gives the tensor no new version.)"""
    for t, load, data, raw in seen:
        if load is not None:
            t = load(s)
        if t.data is not data or data.tobytes() != raw:
            return False
    return True


_COND = object()
_STALE = object()
_GO = object()
_UNSET = object()


#: a deferred op's arguments are kept until its value is made: up to this many bytes
DEFER_BYTES = 1 << 16


def _numbers(loads, s):
    """Whether each of these variables holds a number (an int, float or bool): a `while`
    condition of numbers and variables (loop_shapes._condition) then ran no code of the
    program."""
    try:
        for load in loads:
            t = type(load(s))
            if t is not int and t is not float and t is not bool:
                return False
    except Exception:
        return False
    return True


def _check(checks, s):
    """Whether each variable the body reads holds what it held when noted (`_checks`,
    `_kinds`)."""
    for load, kind, want, a, b, c, d in checks:
        v = load(s)
        if kind == 0:
            if v is not want or v.requires_grad is not a or v.grad_fn is not b:
                return False
            data = v.data
            if data.dtype is not c or data.shape != d:
                return False
        elif kind == 1:
            if type(v) is not a or v != want or (b is not negative_zero(v)):
                return False
        elif kind == 3:
            if type(v) not in want:
                return False
        elif kind == 4:  # gradcli's own module (replay_checks.checks_of)
            if v is not want or not replay_same(a):
                return False
        elif kind == 5:  # gradcli's own optimizer (replay_updates.zero_grad)
            if v is not want or not replay_groups_same(v, a):
                return False
        elif kind == 6:  # a list of tensors (replay_checks.list_check)
            if type(v) is not list or list(map(id, v)) != a:
                return False
        elif kind == 7:  # a loop target's data tensor (replay_plan._swapped): its kind
            if type(v) is not Tensor or v.requires_grad or v.grad_fn is not None:
                return False
            data = v.data
            if data.dtype is not a or data.shape != b or data.strides != c:
                return False
        elif v is not want:
            return False
    return True
