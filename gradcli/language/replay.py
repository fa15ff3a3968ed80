"""Loop bodies replayed (issue 16): a training loop runs the same ops on the same
tensors every iteration; once one iteration has shown which ops its statements reach,
the next ones run those ops' forwards and the backward straight away, on nodes made
once (engine/replay.py, shadows), without the compiled closures' dispatch.

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
  for `backward`, and each `if` condition false.  Then the ops run on shadow nodes
  (two sets, used in turn, so the values of the previous iteration keep their graph),
  `backward` through the engine, the other statements as compiled.  A failed check
  runs the iteration as compiled (and an `if` that holds keeps the plan; anything
  else notes the next iteration again, up to MAX_RECORDS times).
* The names the replayed statements make are bound when the program can next see
  them: when the loop ends (however it ends), or before an iteration runs as
  compiled, each to a Tensor of the last value given to it, whose graph is the
  shadows of its iteration, handed over (`materialize`).

Everything the program sees is what the compiled loop makes: the same ops' forwards
and VJPs on the same values in the same order (so the same bits), the engine's own
backward (its checks of saved values, its errors, .grad, the flow record), and the
Tensors and graphs left in the variables.  `context.current.replay` False
(`--no-replay`) runs every iteration as compiled; tests/test_replay.py runs programs
both ways and compares all they print.
"""
from __future__ import annotations

import math
from operator import itemgetter

import numpy as np

from ..base import context
from ..core.tensor import Tensor
from ..engine import replay as engine
from ..engine.versions import OWN, version
from .loop_shapes import compile_body, names_in
from .positions import located
from .state import state
from .stmtlines import sequence

#: times a loop run notes an iteration again after a check failed; then it runs as compiled
MAX_RECORDS = 3


class Body:
    """A qualifying loop body, compiled: its statements (loop_shapes._item) and their
    closures; `start()` gives the state of one run of the loop."""
    __slots__ = ("items", "closures", "stores", "run_all")

    def __init__(self, items):
        self.items = items
        self.closures = tuple(it[2] for it in items)
        self.stores = {what: extra[0] for kind, what, _, extra, _, _ in items if kind == "assign"}
        self.run_all = sequence(self.closures)     # the body as compiled

    @classmethod
    def compile(cls, comp, suite, target, cond):
        """The Body of a loop with this `for` target or `while` condition (the other
        None), or None when the body does not qualify (loop_shapes.compile_body)."""
        names = names_in(target) if target is not None else set()
        items = compile_body(comp, suite, names, cond)
        return None if items is None else cls(items)

    def start(self, s):
        return Run(self, s)


class _Plan:
    """What a noted iteration showed (see `_plan`)."""
    __slots__ = ("items", "conds", "checks", "mode", "backward", "ops", "consts", "frees",
                 "adopt", "default", "loose", "hoist", "hoist_frees", "hoist_kept")

    def sets(self):
        """A new set of shadow nodes, one per op, linked as the noted graph."""
        shadows = [engine.shadow(cls, node) for cls, node, *_ in self.ops]
        for sh, (cls, node, prefs, srcs) in zip(shadows, self.ops):
            if node is not None:
                engine.link(sh, tuple(shadows[x] if c else x for c, x in prefs))
        return shadows


class Run:
    """One run of a loop with a qualifying body."""
    __slots__ = ("body", "s", "plan", "pending", "records", "sets", "turn", "vals", "fixed")

    def __init__(self, body, s):
        self.body = body
        self.s = s
        self.plan = None
        self.pending = {}       # name -> (shadow set, op index, array, plan)
        self.records = 0
        self.sets = [None, None]
        self.turn = 0
        self.vals = None
        self.fixed = None       # the hoisted ops' values: (what they read, (op, value) ...)

    def iteration(self, s):
        """Run the body once; returns its signal, as Compiler.block's closure does."""
        plan = self.plan
        if plan is not None:
            why = self._ready(plan)
            if why is None:
                return self._replay(plan)
            if why is not _COND:
                self.plan = None
            return self._compiled(0)
        if self.records < MAX_RECORDS and engine.plain():
            self.records += 1
            return self._record()
        return self._compiled(0)

    def _compiled(self, start):
        """The body's statements from `start` on, as compiled (made names bound first)."""
        if self.pending:
            self.materialize()
        return sequence(self.body.closures[start:])(self.s) if start else \
            self.body.run_all(self.s)

    def finish(self):
        if self.pending:
            self.materialize()

    # -- noting an iteration ------------------------------------------------------------
    def _record(self):
        if self.pending:
            self.materialize()
        s = self.s
        # assign: (its notes' range, values read, its result's op, grad mode);
        # backward: (its root's op, the root's node)
        seen = {}
        with engine.recording() as rec:
            for i, (kind, what, closure, extra, line, col) in enumerate(self.body.items):
                if kind == "assign":
                    read = _read_all(extra[2], s)
                    start = len(rec.notes)
                    r = closure(s)
                    seen[i] = ((start, len(rec.notes)), read, rec.index_of(extra[1](s)),
                               context.current.grad_enabled)
                else:
                    if kind == "backward":
                        try:
                            root = extra[0](s)
                        except Exception:
                            root = None
                        seen[i] = (rec.index_of(root), getattr(root, "grad_fn", None))
                    elif kind != "guard":
                        seen[i] = _read_all(extra, s)
                    r = closure(s)
                if r is not None:
                    return r
        try:
            if None in rec.notes:           # (a forward-mode level or hooks context opened)
                raise _Fail
            self.plan = _plan(self.body, seen, rec.notes)
        except _Fail:
            self.plan = None
        if self.plan is not None:
            p = self.plan
            self.vals = [None] * len(p.ops) + list(p.consts) + [None] * len(p.frees)
            self.fixed = None
            self.sets = [None, None]
        return None

    # -- a replayed iteration ------------------------------------------------------------
    def _ready(self, plan):
        """None if the iteration can be replayed, else why not (_COND: an `if` holds)."""
        s = self.s
        ctx = context.current
        if ctx.grad_enabled is not plan.mode or ctx.default_float is not plan.default or \
                not engine.plain() or (plan.backward and not engine.backward_ready()) or \
                not _check(plan.checks, s):
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
                return _COND            # (the compiled iteration raises it in its place)
        return None

    def _replay(self, plan):
        s = self.s
        turn = self.turn
        self.turn = turn ^ 1
        shadows = self.sets[turn]
        if shadows is None:
            shadows = self.sets[turn] = plan.sets()
        elif plan.loose:    # the values of two iterations ago: no name holds them any more
            engine.release(shadows, plan.loose)
        vals = self.vals
        forward = engine.forward
        pending = self.pending
        if plan.hoist:
            fixed = self.fixed
            if fixed is None or not _unchanged(fixed[0]):
                fixed = self.fixed = _hoist(plan, shadows, vals)
                if fixed is None:       # (as compiled, the error in its place)
                    return self._compiled(0)
            for j, v in fixed[1]:
                vals[j] = v
        for item in plan.items:
            kind = item[0]
            if kind == 0:                               # name = expression
                _, name, steps, frees, k, line, drop, at = item
                for slot, t in frees:
                    vals[slot] = t.data
                state.line = line
                try:
                    for j, args, params, mask, srcs, done in steps:
                        vals[j] = forward(shadows[j], args(vals), params, mask, srcs)
                        for x in done:      # values no later op reads: let go, as compiled
                            vals[x] = None
                except Exception:           # (as compiled, the error in its place)
                    return self._compiled(at)
                first = name not in pending
                pending[name] = (shadows, k, vals[k], plan)
                if first:                   # the compiled iteration's value: let go
                    self.body.stores[name](s, None)
                for j in drop:              # values no later statement reads: let go
                    vals[j] = None
            elif kind == 1:                             # name.backward()
                _, k, sched, line, bl, bc = item
                state.line = line
                try:
                    engine.backward_with(shadows[k], vals[k], False, sched)
                except Exception as e:      # placed where the compiled call places it
                    raise located(e, bl, bc) from None
            else:                                       # as compiled
                item[1](s)
        return None

    # -- binding the names -----------------------------------------------------------------
    def materialize(self):
        """Bind every name a replayed statement made to a Tensor of its last value, whose
        graph is its iteration's shadows (handed over: new ones are made next time)."""
        pending = self.pending          # (emptied at the end: a Ctrl-C half way leaves it
        used = [p[0] for p in pending.values()]     # for the loop's `finally` to bind)
        # the shadow sets the values come from, the older first (sets[turn] is the one
        # the next iteration would use: the older of the two)
        order = [x for x in (self.sets[self.turn], self.sets[self.turn ^ 1])
                 if x is not None and any(x is u for u in used)]
        for shadows in order:
            engine.hand_over(shadows)
        made = {}
        stores = self.body.stores
        plans = {}
        for name, (shadows, k, out, plan) in pending.items():
            stores[name](self.s, _tensor(made, shadows, k, out))    # (made after its node)
            plans[id(shadows)] = plan
        for shadows in order:
            for j, i, src in plans[id(shadows)].adopt:    # saved values that are ops' outputs
                node = shadows[j]
                if getattr(node, "saved_src", None) is not None and node.saved:
                    engine.adopt_sources(node, i, _tensor(made, shadows, src, node.saved[i]))
        self.sets = [None, None]
        self.pending = {}
        self.fixed = None       # (the program may now hold the hoisted values)


def _hoist(plan, shadows, vals):
    """Compute the hoisted ops' values (`_invariant`): (what they read: (tensor, its
    array, its version) ..., the values later ops read: (op, value) ...); None if one
    raises."""
    seen = tuple((t, t.data, version(t)) for _, t in plan.hoist_frees)
    for slot, t in plan.hoist_frees:
        vals[slot] = t.data
    try:
        for j, args, params, mask, srcs, done in plan.hoist:
            vals[j] = engine.forward(shadows[j], args(vals), params, mask, srcs)
    except Exception:
        return None
    kept = tuple((j, vals[j]) for j in plan.hoist_kept)
    for j, *_ in plan.hoist:
        vals[j] = None
    return seen, kept


def _unchanged(seen):
    """Whether each tensor the hoisted ops read holds the same array, unchanged."""
    for t, data, v in seen:
        if t.data is not data or version(t) != v:
            return False
    return True


_COND = object()
_STALE = object()


class _Fail(Exception):
    pass


def _tensor(made, shadows, k, out):
    key = (id(shadows), k)
    t = made.get(key)
    if t is None:
        node = shadows[k]
        node = node if hasattr(node, "needs") else None
        t = made[key] = Tensor(out, node is not None, node)
    return t


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
            if type(v) is not a or v != want or (b is not _negative_zero(v)):
                return False
        elif kind == 3:
            if type(v) not in want:
                return False
        elif v is not want:
            return False
    return True


def _plan(body, seen, notes):
    """The plan from a noted iteration (`Run._record`'s `seen`, the recorder's `notes`);
    _Fail when it cannot be replayed.  Slots of `Run.vals`: the ops' outputs, then the
    constants, then the variables' tensors' arrays."""
    opof = {}           # note index -> plan op index
    nodes = {}          # id(a noted op's node) -> plan op index
    freed = set()       # the ops whose nodes a backward of the body frees
    ops, consts, frees = [], [], []
    items, conds, checks, adopt = [], [], [], []
    modes = set()
    backward = False
    for i, (kind, what, closure, extra, line, col) in enumerate(body.items):
        if kind == "assign":
            (start, end), read, result, mode = seen[i]
            if read is None or start == end:
                raise _Fail
            modes.add(mode)
            checks.extend(_checks(extra[2], read))
            known = _numbers(extra[3], read)
            steps, mine = [], []
            for x in range(start, end):
                cls, args, params, node, requires_grad, mask, srcs = notes[x]
                if any(not _constant(v, known) for v in params.values()):
                    raise _Fail
                argidx = tuple(_slot(a, opof, read, consts, frees, mine, known) for a in args)
                j = len(ops)
                if node is None:
                    if requires_grad:
                        raise _Fail
                    ops.append((cls, None, None, None))
                else:
                    if type(node) is not cls or node.watch is not None:
                        raise _Fail
                    prefs = tuple(_parent(p, nodes, read) for p in node.parents)
                    if srcs is not None:
                        own = []
                        for si, (how, v) in enumerate(srcs):
                            if how == "op" and v in opof:
                                own.append(None)        # an earlier op's output: no Tensor yet
                                adopt.append((j, si, opof[v]))
                            elif how == "value" and (v is None or v is OWN):
                                own.append(v)
                            elif how == "tensor" and _read(v(), read):
                                own.append(v())
                            else:
                                raise _Fail
                        srcs = tuple(own)
                    # (what a shadow copies of the node: not the node, whose saved values
                    # a loop without backward would keep for the whole loop)
                    ops.append((cls, (node.needs, node.out_dtype, node.seq), prefs, srcs))
                    nodes[id(node)] = j
                opof[x] = j
                steps.append((j, argidx, params, mask, node is not None))
            k = opof.get(result)
            if k is None or k < steps[0][0]:
                raise _Fail
            items.append((0, what, tuple(steps), tuple(mine), k, line, i))
        elif kind == "backward":
            at, root = seen[i]
            k = opof.get(at)
            if k is None or root is None or nodes.get(id(root)) != k:
                raise _Fail
            freed.update(_own_graph(root, nodes))
            sched = engine.schedule_of(root)
            if sched is None:
                raise _Fail
            backward = True
            items.append((1, k, sched, line, extra[1], extra[2]))
        elif kind == "guard":
            conds.append(extra)
        else:       # run as compiled: what it reads must run no code of the program
            checks.extend(_kinds(extra, seen[i]))
            items.append((2, closure))
    if len(modes) != 1:
        raise _Fail
    n, c = len(ops), len(consts)
    plan = _Plan()
    fixed = _invariant(items, ops)

    def step(j, argidx, params, mask, done):
        return (j, _getter(tuple(_final(a, n, c) for a in argidx)), params or None, mask,
                ops[j][3] if ops[j][1] is not None else False, done)
    # the slots of constants and variables' arrays, after the ops' outputs
    plan.items = tuple(
        (0, it[1], tuple(step(j, argidx, params, mask, done)
                         for (j, argidx, params, mask, has), done in
                         zip(it[2], _done(it[2], _later(items, x) | {it[4]})) if j not in fixed),
         tuple((n + c + f, frees[f]) for f in it[3]), it[4], it[5], _dropped(items, x), it[6])
        if it[0] == 0 else it for x, it in enumerate(items))
    hoisted = [(j, argidx, params, mask) for it in items if it[0] == 0
               for j, argidx, params, mask, has in it[2] if j in fixed]
    plan.hoist = tuple(step(j, argidx, params, mask, ()) for j, argidx, params, mask in hoisted)
    plan.hoist_frees = tuple(sorted({(n + c + i, frees[i]) for _, argidx, _, _ in hoisted
                                     for kind, i in argidx if kind == "free"},
                                    key=itemgetter(0)))
    plan.hoist_kept = tuple(sorted(fixed & _read_elsewhere(items, fixed)))
    plan.default = context.current.default_float
    plan.loose = tuple(j for j, op in enumerate(ops) if op[1] is not None and j not in freed)
    plan.conds = tuple(conds)
    plan.checks = tuple(checks)
    plan.mode = modes.pop()
    plan.backward = backward
    plan.ops = tuple(ops)
    plan.consts = tuple(consts)
    plan.frees = tuple(frees)
    plan.adopt = tuple(adopt)
    return plan


def _invariant(items, ops):
    """The ops whose values are the same each iteration (hoisted: computed once, again
    only when a variable's tensor they read changed): no node, and every argument a
    constant, a variable's tensor or another such op's value.  (The ops replayed are
    the loop_shapes' pure ones: their values depend on their arguments' alone.)"""
    fixed = set()
    for it in items:
        if it[0] != 0:
            continue
        for j, argidx, params, mask, has in it[2]:
            if ops[j][1] is None and all(kind != "op" or i in fixed for kind, i in argidx):
                fixed.add(j)
    return fixed


def _read_elsewhere(items, fixed):
    """The op outputs read by ops not in `fixed`, or made names, or backward roots."""
    out = set()
    for it in items:
        if it[0] == 0:
            out.add(it[4])
            out.update(i for j, argidx, *_ in it[2] if j not in fixed
                       for kind, i in argidx if kind == "op")
        elif it[0] == 1:
            out.add(it[1])
    return out


def _read(t, read):
    """Whether Tensor t is the value of a variable the statement reads."""
    return t is not None and any(t is v for v in read.values())


def _slot(ref, opof, read, consts, frees, mine, known):
    """Where an op's argument comes from: ("op", j), ("const", i) or ("free", i)."""
    how, v = ref
    if how == "op":
        if v not in opof:
            raise _Fail
        return ("op", opof[v])
    if how == "tensor":
        t = v()
        if not _read(t, read):
            raise _Fail
        for f, u in enumerate(frees):
            if u is t:
                break
        else:
            f = len(frees)
            frees.append(t)
        if f not in mine:
            mine.append(f)
        return ("free", f)
    if _constant(v, known):
        consts.append(v)
        return ("const", len(consts) - 1)
    raise _Fail


def _numbers(literals, read):
    """The numbers a statement's ops may take as constants: those it writes and those
    its variables hold (a number made from a tensor's value, as float16's path makes
    one, would not be the same next time)."""
    return set(literals) | {v for v in read.values() if type(v) in (int, float)}


def _constant(v, known):
    """Whether v may be taken as a constant of the plan."""
    if v is None or type(v) is bool or type(v) is str or isinstance(v, np.dtype):
        return True
    if type(v) in (int, float) or isinstance(v, np.generic):
        return v in known or (v == v and float(v) in known)
    return type(v) is tuple and all(type(x) is int for x in v)


def _final(ref, n, c):
    kind, i = ref
    return i if kind == "op" else n + i if kind == "const" else n + c + i


def _parent(p, nodes, read):
    """(1, op index) for a noted op's node, (0, p) for None or a variable's leaf."""
    if p is None:
        return (0, None)
    if type(p) is Tensor:
        if _read(p, read):
            return (0, p)
        raise _Fail
    j = nodes.get(id(p))
    if j is None:
        raise _Fail
    return (1, j)


def _own_graph(root, nodes):
    """The ops whose nodes are under `root`, every one made by a noted op (none from
    before the loop)."""
    todo, seen = [root], set()
    while todo:
        n = todo.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if id(n) not in nodes or n.watch is not None:
            raise _Fail
        for p in n.parents:
            if p is not None and type(p) is not Tensor:
                todo.append(p)
    return {nodes[i] for i in seen}


def _dropped(items, x):
    """The op outputs of assignment x that no later statement reads (so that, as in the
    compiled loop, an intermediate array nothing saved is freed when its statement ends:
    `Run.vals` would otherwise keep it to the end of the iteration)."""
    later = _later(items, x)
    return tuple(j for j, *_ in items[x][2] if j not in later)


def _later(items, x):
    """The op outputs the statements after item x read."""
    later = set()
    for it in items[x + 1:]:
        if it[0] == 0:
            later.update(ref[1] for _, argidx, *_ in it[2] for ref in argidx if ref[0] == "op")
        elif it[0] == 1:
            later.add(it[1])
    return later


def _done(steps, keep):
    """Per step of an assignment, the op outputs it reads for the last time in the
    statement (let go after it, as the compiled loop lets an intermediate go); not those
    in `keep` (its result, what later statements read)."""
    last = {}
    for x, (j, argidx, *_) in enumerate(steps):
        for ref in argidx:
            if ref[0] == "op":
                last[ref[1]] = x
    mine = {j for j, *_ in steps} - keep
    out = [[] for _ in steps]
    for j, x in last.items():
        if j in mine:
            out[x].append(j)
    return [tuple(d) for d in out]


def _getter(idx):
    """vals -> the tuple of vals[i] for i in idx (one C call for two or more)."""
    if len(idx) > 1:
        return itemgetter(*idx)
    i, = idx
    return lambda vals: (vals[i],)


def _read_all(loads, s):
    """{name: value} of the variables of `loads` ((name, load, ...)), or None if one is
    unbound (its statement then raises as compiled)."""
    try:
        return {x[0]: x[1](s) for x in loads}
    except Exception:
        return None


def _checks(loads, read):
    """Per variable a replayed statement reads: (load, kind, value, ...) for `_check`: a
    float tensor (the same object, dtype, shape, requires_grad, grad_fn), a number (taken
    as a constant: so not one the body changes, `lr *= 0.9` between two statements), or
    gradcli's own value of that name (`torch`, `mean`)."""
    if read is None:
        raise _Fail
    for name, load, changed, own in loads:
        v = read[name]
        if type(v) is Tensor and v.data.dtype.char in "fd":
            yield (load, 0, v, v.requires_grad, v.grad_fn, v.data.dtype, v.data.shape)
        elif type(v) in (int, float, bool) and not changed:
            yield (load, 1, v, type(v), _negative_zero(v), None, None)
        elif own is not None and v is own:
            yield (load, 2, v, None, None, None, None)
        else:
            raise _Fail


def _kinds(loads, read):
    """Per variable a statement run as compiled reads: a check that it still holds a
    tensor, a number or gradcli's own value (so the statement runs no code of the
    program, which could see a made name)."""
    if read is None:
        raise _Fail
    for name, load, changed, own in loads:
        v = read[name]
        if type(v) is Tensor:
            yield (load, 3, (Tensor,), None, None, None, None)
        elif type(v) in (int, float):
            yield (load, 3, (int, float), None, None, None, None)
        elif own is not None and v is own:
            yield (load, 2, v, None, None, None, None)
        else:
            raise _Fail


def _negative_zero(v):
    return type(v) is float and v == 0 and math.copysign(1.0, v) < 0
