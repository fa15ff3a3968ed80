"""The plan of a replayed loop body (language/replay.py replays it): what a noted
iteration showed, made into named records (`Assign` with its `Step`s, `Backward`,
`NoGrad`, `AsCompiled`), slots and checks, or `Fail` when it cannot be replayed.

* Each op's arguments come from a slot of `Run.vals`: an earlier op's output, a
  constant (a number the statement writes or a variable holds, not one made from a
  tensor's value) or a variable's tensor's array; each node's parents are other ops'
  nodes or the variables' leaf tensors; a `backward` gets the schedule of its graph,
  which must be made of the body's own nodes.
* The checks made before each replayed iteration (`checks`, read by replay._check):
  per variable a statement reads, the same tensor object (dtype, shape,
  requires_grad, grad_fn), an equal number, or gradcli's own value.
* Ops of constants and tensors that need no gradient are hoisted (`_invariant`).
* A no_grad block of steps `w -= lr * w.grad` gets its entries (`_updates`).
"""

from __future__ import annotations

import math
from operator import itemgetter
from typing import Any

import numpy as np

from ..runtime import context
from ..runtime.limits import SAMPLE
from ..core.tensor import Tensor
from ..engine import replay as engine
from ..engine.versions import OWN
from ..library.nn.module import Module, replay_pure, replay_state
from ..library.values import program_object
from ..library.scalar_steps import ARRAY_STEPS, SCALED_STEPS, number_factor
from ..library.values import GradModeContext
from ..library.values import Module as Namespace
from ..library.optim import Optimizer
from .loop_shapes import called_def
from .replay_through import THROUGH_GLOBALS, function_checks, held as _held
from .replay_through import literals, through_state, unsafe_globals


from .replay_records import APPEND, AS_COMPILED, ASSIGN, BACKWARD, CALL, CHECK, ITEM, NO_GRAD
from .replay_records import ARRAY_STEP, CLEAR_GRAD, EACH, ENTRY_AS_COMPILED, STEP, ZERO_GRAD
from .replay_records import Append, AsCompiled, Assign, Backward, Check, Item, NoGrad, Noted
from .replay_records import GUARD, Guard, NotedStep, Step, plain
from .replay_steps import taking


class Plan:
    """What a noted iteration showed (see `plan`): its `items` are the fields of
    `Assign`, `Backward`, `NoGrad` and `AsCompiled` records, in that order (`plain`)."""

    __slots__ = (
        "items",
        "conds",
        "guards",
        "checks",
        "mode",
        "backward",
        "ops",
        "consts",
        "frees",
        "adopt",
        "default",
        "loose",
        "hoist",
        "hoist_frees",
        "hoist_kept",
        "steady",
        "moving",
        "views",
        "names",
        "draws",
        "key",
    )

    def sets(self):
        """A new set of shadow nodes, one per op, linked as the noted graph."""
        shadows = [engine.shadow(cls, node) for cls, node, *_ in self.ops]
        for sh, (cls, node, prefs, srcs) in zip(shadows, self.ops):
            if node is not None:
                engine.link(sh, tuple(shadows[x] if c else x for c, x in prefs))
        return shadows


class Fail(Exception):
    pass


def plan(body, seen, notes):
    """The plan from a noted iteration (`Run._record`'s `seen`, the recorder's `notes`);
    Fail when it cannot be replayed.  Slots of `Run.vals`: the ops' outputs, then the
    constants, then the variables' tensors' arrays."""
    opof = {}  # note index -> plan op index
    nodes = {}  # id(a noted op's node) -> plan op index
    freed = set()  # the ops whose nodes a backward of the body frees
    ops, consts, frees = [], [], []
    results = {}  # op index -> the value its statement gave its name
    items, conds, checks, adopt = [], [], [], []
    modes = set()
    backward = False
    viewof = {}  # op index -> the variable's tensor whose storage its output views
    opview = {}  # op index -> (the op whose output its output views, class, parameters)
    calls = False  # a method call runs as compiled: checks again before an assignment
    through = {}  # the globals functions seen through read: their values
    swap = {}  # id of a loop target's data tensor -> (the tensor, its load)
    holders = _holders(body, seen)
    for i, (kind, what, closure, extra, line, col) in enumerate(body.items):
        if kind == "assign" and (held := called_def(extra[6], seen[i][1])) is not None:
            modes.add(seen[i][4])  # (its checks added by replay_defs._Held.item)
            items.append(held.item(body, i, seen[i][1], items, checks, holders, swap))
        elif kind == "assign":
            (start, end), read, result, value, mode = seen[i]
            if read is None or start == end:
                raise Fail(f"`{what} = ...` applied no op")
            modes.add(mode)
            checks.extend(_swapped(_checks(extra[2], read), body.swaps, holders, read, swap))
            through.update(read.get(THROUGH_GLOBALS, ()))  # (function_checks)
            _namespaces(extra[4], read)
            known = _numbers(extra[3], read)
            if extra[5]:  # (it calls an op or a module: their code's dims, `_Dims`)
                known = _Dims(known)
            steps, mine = [], []
            for x in range(start, end):
                cls, args, params, node, requires_grad, mask, srcs, view = notes[x]
                if any(not _constant(v, known) for v in params.values()):
                    raise Fail
                argidx = tuple(_slot(a, opof, read, consts, frees, mine, known) for a in args)
                j = len(ops)
                if view:  # (it shares its base's version counter: _view_base)
                    _view_base(j, cls, params, argidx, frees, viewof, opview, mode, swap)
                if node is None:
                    if requires_grad:
                        raise Fail
                    ops.append((cls, None, None, None))
                else:
                    if type(node) is not cls or node.watch is not None:
                        raise Fail
                    prefs = tuple(_parent(p, nodes, read) for p in node.parents)
                    if srcs is not None:
                        srcs = _sources(srcs, j, opof, viewof, ops, read, adopt)
                    # (what a shadow copies of the node: not the node, whose saved values
                    # a loop without backward would keep for the whole loop)
                    ops.append((cls, (node.needs, node.out_dtype, node.seq), prefs, srcs))
                    nodes[id(node)] = j
                opof[x] = j
                steps.append(NotedStep(j, argidx, params, mask, node is not None))
            k = opof.get(result)
            if k is None or k < steps[0].j or k in viewof:
                raise Fail  # (a view the program sees: its view bookkeeping is not replayed)
            items.append(Noted(ASSIGN, what, tuple(steps), tuple(mine), k, line, i))
            results[k] = value
        elif kind == "backward":
            at, root = seen[i]
            k = opof.get(at)
            if k is None or root is None or nodes.get(id(root)) != k:
                raise Fail
            freed.update(_own_graph(root, nodes))
            sched = engine.schedule_of(root)
            if sched is None:
                raise Fail
            backward = True
            items.append(Backward(BACKWARD, k, sched, line, extra[1], extra[2]))
        elif kind == "guard":
            conds.append(extra)
            items.append(Guard(GUARD, i))
        elif kind in ("updates", "each") and what is not None:  # a no_grad block, a loop
            items.append(_block(kind, what, extra, seen[i], checks, closure))
        elif kind in ("item", "append"):  # running += loss.item(), losses.append(...)
            items.append(_bookkeeping(kind, what, extra, seen[i], checks, i, line))
        elif kind == "call":  # recv.method(numbers) of gradcli's own object, as compiled
            checks.extend(_kinds(extra, seen[i]))
            if not _calls(seen[i][what[0]], what[1]):
                raise Fail(f"`{what[0]}.{what[1]}()` may run the program's code")
            cleared = _zero_grad(what, extra, seen[i], checks, line)
            items.append(cleared or AsCompiled(AS_COMPILED, closure))
            calls = calls or (cleared is None and not _keeps(seen[i][what[0]], what[1]))
        else:  # run as compiled: what it reads must run no code of the program
            checks.extend(_kinds(extra, seen[i]))
            items.append(AsCompiled(AS_COMPILED, closure))
    if len(modes) != 1 or any(base is not None and j not in freed for j, _, _, base in adopt):
        raise Fail  # (a view saved by a node no backward of the body frees: the Tensor
        # bound for it later is not a view of its base, whose in-place change would
        # make it one of its views again, AsStridedBackward0)
    unsafe_globals(body, through, Fail)
    items, guards = _guards(_rechecked(items, calls))
    views = _view_results(items, opview, results)
    n, c = len(ops), len(consts)
    plan = Plan()
    plan.draws, plan.key = (), None  # (language/replay_draws.py: set by Run._record)
    fixed = _invariant(items, ops, frees, swap)
    if any(u in fixed or k in fixed for k, (u, _, _) in views.items()):
        raise Fail

    likes = _deferrable(items, ops, results, fixed, adopt)

    def step(j, argidx, params, mask, done):
        idx = tuple(_final(a, n, c) for a in argidx)
        return plain(
            Step(
                j,
                _getter(idx),
                params or None,
                mask,
                ops[j][3] if ops[j][1] is not None else False,
                done,
                likes.get(j),
                idx,
            )
        )

    # the slots of constants and variables' arrays, after the ops' outputs
    plan.items = tuple(
        _assign(x, it, items, views, fixed, frees, n + c, swap, step)
        if type(it) is Noted
        else plain(it)
        for x, it in enumerate(items)
    )
    plan.items, guards = taking(plan.items, guards)
    hoisted = [
        (s.j, s.argidx, s.params, s.mask)
        for it in items
        if type(it) is Noted
        for s in it.steps
        if s.j in fixed
    ]
    plan.hoist = tuple(step(j, argidx, params, mask, ()) for j, argidx, params, mask in hoisted)
    plan.hoist_frees = tuple(
        sorted(
            {
                (n + c + i, frees[i])
                for _, argidx, _, _ in hoisted
                for kind, i in argidx
                if kind == "free"
            },
            key=itemgetter(0),
        )
    )
    plan.hoist_kept = tuple(sorted(fixed & _read_elsewhere(items, fixed)))
    plan.default = context.current.default_float
    plan.loose = tuple(j for j, op in enumerate(ops) if op[1] is not None and j not in freed)
    plan.conds = tuple(conds)
    plan.guards = guards
    plan.checks = _once(checks)
    # (those of the names the loop's target binds: made again before each iteration of
    # a steady plan, which the others hold through)
    plan.moving = (
        _once([c for c in checks if c[0] in body.targets]) if body.targets is not None else ()
    )
    plan.names = frozenset(name for name, _ in checks)  # (what the checks read)
    # (the checks hold from one replayed iteration to the next unless they read what
    # the loop binds; a `while` condition runs no code of the program while its
    # variables hold numbers, which Run._ready checks: Body.cond_loads)
    plan.steady = not calls and (
        body.targets is not None or (body.targets is None and body.cond_loads is not None)
    )
    plan.mode = modes.pop()
    plan.backward = backward
    plan.ops = tuple(ops)
    plan.consts = tuple(consts)
    plan.frees = tuple(frees)
    plan.adopt = tuple(adopt)
    plan.views = views
    return plan


#: a hoisted op's tensors are compared with their bytes before each iteration: up to
#: this many bytes (an op of a bigger one runs each iteration)
HOIST_BYTES = 1 << 20


def _assign(x, it, items, views, fixed, frees, base, swap, step):
    """The Assign of the noted assignment `it` (item x): its steps but the hoisted
    (`fixed`), its variables' tensors' slots (after `base`), those of loop targets' data
    tensors apart (`_live`)."""
    steps = tuple(
        step(s.j, s.argidx, s.params, s.mask, done)
        for s, done in zip(it.steps, _done(it.steps, _later(items, x) | _kept(it.result, views)))
        if s.j not in fixed
    )
    mine = [(base + f, frees[f]) for f in it.mine]
    return plain(
        Assign(
            ASSIGN,
            it.name,
            steps,
            tuple((k, t) for k, t in mine if id(t) not in swap),
            it.result,
            it.line,
            _dropped(items, x),
            it.at,
            views[it.result][0] if it.result in views else None,
            _live(steps, [(k, t) for k, t in mine if id(t) in swap], swap),
        )
    )


def _holders(body, seen):
    """id of each tensor the body's assignments read -> how many names hold it."""
    names: dict = {}
    for i, it in enumerate(body.items):
        if it[0] == "assign" and i in seen and type(seen[i][1]) is dict:
            for name, v in seen[i][1].items():
                if type(v) is Tensor:
                    names.setdefault(id(v), set()).add(name)
    return {k: len(v) for k, v in names.items()}


def _swapped(checks, swaps, holders, read, swap):
    """The checks of a statement's variables (`_checks`), where a variable a `for`
    target binds (`swaps`) holds a tensor that needs no gradient and has no grad_fn,
    held by no other name: a check of its kind (replay._check's kind 7: dtype, shape,
    strides) instead of its identity, the tensor noted in `swap` (its slot read and the
    saved values that are it taken from the variable each iteration: `_live`), so a
    loop over minibatches (`for xb, yb in batches:`) replays."""
    for name, c in checks:
        v = c[2]
        if (
            name in swaps
            and c[1] == 0
            and not c[3]
            and c[4] is None
            and holders.get(id(v)) == 1
            and sum(u is v for u in read.values()) == 1
        ):
            d = v.data
            swap[id(v)] = (v, c[0])
            yield name, (c[0], 7, None, d.dtype, d.shape, d.strides, None)
        else:
            yield name, c


def _live(steps, mine, swap):
    """An Assign's `live` (replay._alive): ((slot, load) per loop target's data tensor
    it reads, (step, position, which) per saved value of its steps that is one), or
    None when it reads none."""
    if not mine:
        return None
    which = {id(t): w for w, (_, t) in enumerate(mine)}
    for st in steps:  # (a saved value that is a swapped tensor it does not read)
        for src in st[4] or ():
            if id(src) in swap and id(src) not in which:
                raise Fail
    fixes = tuple(
        (x, p, which[id(src)])
        for x, st in enumerate(steps)
        for p, src in enumerate(st[4] or ())
        if id(src) in which
    )
    return tuple((k, swap[id(t)][1]) for k, t in mine), fixes


def _invariant(items, ops, frees, swap):
    """The ops whose values are the same each iteration (hoisted: computed once, again
    only when a variable's tensor they read holds another array or other bytes,
    replay._unchanged): no node, and every argument a constant, a variable's tensor
    (of at most HOIST_BYTES) or another such op's value.  (The ops replayed are the
    loop_shapes' pure ones: their values depend on their arguments' alone.)  Only in
    the assignments before the body's first other statement: a backward or a no_grad
    block may change in place what a statement after it reads."""
    big = {f for f, t in enumerate(frees) if t.data.nbytes > HOIST_BYTES or id(t) in swap}
    fixed = set()
    for it in items:
        if type(it) is not Noted:
            break
        for s in it.steps:
            if ops[s.j][1] is None and all(
                i in fixed if kind == "op" else kind != "free" or i not in big
                for kind, i in s.argidx
            ):
                fixed.add(s.j)
    return fixed


def _deferrable(items, ops, results, fixed, adopt):
    """{op index: a zero array of its output's dtype and shape} for the ops whose value
    may be made when the program can see it (replay.Deferred): a statement's result of a
    `deferrable` op (ops/reduce.py), that saves nothing, that no op reads and no node
    saves, of another op's output (a new array no one changes; not a variable's tensor,
    which a no_grad block may change in place before the value is made)."""
    read = {
        i
        for it in items
        if type(it) is Noted
        for s in it.steps
        for kind, i in s.argidx
        if kind == "op"
    }
    read.update(src for _, _, src, _ in adopt)
    out = {}
    for k, value in results.items():
        cls, _, _, srcs = ops[k]
        first = next(
            (
                s.argidx[0]
                for it in items
                if type(it) is Noted
                for s in it.steps
                if s.j == k and s.argidx
            ),
            None,
        )
        if (
            getattr(cls, "deferrable", False)
            and srcs is None
            and k not in read
            and k not in fixed
            and type(value) is Tensor
            and first is not None
            and first[0] == "op"
        ):
            out[k] = np.zeros(value.data.shape, value.data.dtype)
    return out


def _read_elsewhere(items, fixed):
    """The op outputs read by ops not in `fixed`, or made names, or backward roots."""
    out = set()
    for it in items:
        if type(it) is Noted:
            out.add(it.result)
            out.update(
                i for s in it.steps if s.j not in fixed for kind, i in s.argidx if kind == "op"
            )
        elif type(it) is Backward:
            out.add(it.root)
    return out


def _bookkeeping(kind, what, extra, read, checks, i, line):
    """The item of `total op= name.item()` (Item), or of `recv.append(...)`
    (loop_shapes._append) when recv holds a list (a check that it still holds one),
    else Fail."""
    if kind == "item":
        checks.extend(_kinds(extra[2], read))
        return Item(ITEM, extra[0], extra[1], what[1], extra[3], i, line)
    recv, name = what
    if read is None or type(read.get(recv)) is not list:
        raise Fail(f"`{recv}` holds {_held(read and read.get(recv))}")
    checks.append((recv, (extra[0], 3, (list,), None, None, None, None)))
    return Append(APPEND, extra[0], name, extra[1], i, line)


def _block(kind, block, loads, seen, checks, closure):
    """The item of a no_grad block (`updates`: its `seen` the values read and the `with`
    expression's) or of a loop of the body (`each`, `for p in params: p.grad = None`: the
    values read; run in the body's grad mode): `_updates`, else AsCompiled."""
    read, head = seen if kind == "updates" else (seen, None)
    checks.extend(_kinds(loads, read))
    if kind == "updates" and (type(head) is not GradModeContext or head.enabled):
        return AsCompiled(AS_COMPILED, closure)
    got = _updates(block, loads, read, checks)
    if got is None:
        return AsCompiled(AS_COMPILED, closure)
    return got if kind == "updates" else got._replace(off=False)


def _updates(block, loads, read, checks):
    """The item of a no_grad block (loop_shapes._block) whose `with` gave gradcli's
    no_grad: NoGrad, with per statement an entry: (STEP, w, v, y,
    op, closure, line) for `w op= factor * v.grad` where w is a 0-d float tensor and
    the factor a number (the step scalar_steps.step_by makes, y its number_factor);
    (ARRAY_STEP, w, v, y, ufunc, closure, line) for such a step where w has dims
    (scalar_steps.array_step, y the factor as written, `w.sub_(factor * v.grad)` too);
    (CLEAR_GRAD, w, line) for `w.grad = None`; (ZERO_GRAD, w, closure, line) for
    `w.grad.zero_()` (scalar_steps.zero_grad_array); (EACH, where, store, params,
    entries per param) for `for p in model.parameters(): ...` of gradcli's own module
    (`_each`); (ENTRY_AS_COMPILED, closure) for any other statement (as compiled).  The
    variables the entries take as they are now get checks (`checks`).  None when a
    `for` loop of the block is not one `_each` takes (the block then runs as compiled)."""
    kept = set()
    changed = {name for name, _, ch, _ in loads if ch}
    mine = []  # (the checks of the entries: made only if the block is replayed)
    entries = _entries(block[1], loads, read, mine, changed, kept)
    if entries is None:  # (a loop the replay cannot run: the block as compiled)
        return None
    checks.extend(mine)
    checks.extend(_checks(tuple(x for x in loads if x[0] in kept), read))
    return NoGrad(NO_GRAD, tuple(entries))


def _entries(stmts, loads, read, checks, changed, kept):
    """The entries of `_updates` for these statements ((closure, line, shape) each);
    `kept` gets the names whose values they take."""
    entries = []
    for fn, line, shape in stmts:
        entry: tuple = (ENTRY_AS_COMPILED, fn)
        if shape is not None and shape[0] in ("none", "zero"):
            v = read.get(shape[1])
            if type(v) is Tensor and v.data.dtype.char in "fd":
                entry = (CLEAR_GRAD, v, line) if shape[0] == "none" else (ZERO_GRAD, v, fn, line)
                kept.add(shape[1])
        elif shape is not None and shape[0] == "each":
            entry = _each(shape, loads, read, checks, changed, kept)
            if entry is None:
                return None
        elif shape is not None:
            _, target, op, (how, f), name = shape
            w, v = read.get(target), read.get(name)
            if how == "name":
                kept_f, f = (f, read.get(f)) if f not in changed else (None, None)
            else:
                kept_f = None
            step = SCALED_STEPS.get(op)
            if (
                step is not None
                and type(w) is Tensor
                and type(v) is Tensor
                and v.data.dtype.char in "fd"
                and type(f) in (int, float)
            ):
                y = number_factor(f, w.data.dtype) if not w.data.ndim else f
                if y is not None:
                    entry = (
                        (STEP, w, v, y, step, fn, line)
                        if not w.data.ndim
                        else (ARRAY_STEP, w, v, y, ARRAY_STEPS[op], fn, line)
                    )
                    kept.update(x for x in (target, name, kept_f) if x is not None)
        entries.append(entry)
    return tuple(entries)


def _zero_grad(what, loads, read, checks, line):
    """`model.zero_grad()` of gradcli's own module whose `zero_grad` is Module's (each
    parameter's .grad set to None), its state checked as a called module's (so its
    parameters are the same), or `opt.zero_grad()` of gradcli's own optimizer (its
    groups checked: Optimizer.replay_groups): NoGrad of CLEAR_GRAD entries, no program
    code run (no Check after it); else None (the call runs as compiled)."""
    recv, method, nargs = what
    m = read.get(recv)
    load = next((x[1] for x in loads if x[0] == recv), None)
    if load is None or nargs or method != "zero_grad":
        return None
    if isinstance(m, Optimizer):  # (its groups checked: Optimizer.replay_groups)
        if type(m).zero_grad is not Optimizer.zero_grad:
            return None
        state = m.replay_groups()
        params = [p for _, _, items in state[2] for p in items]
        check: tuple = (load, 5, m, state, None, None, None)
    elif (
        isinstance(m, Module)
        and type(m).zero_grad is Module.zero_grad
        and type(m).parameters is Module.parameters
    ):
        params = m.parameters()
        state, held, _ = replay_state(m)
        check = (load, 4, m, state, held, None, None)
    else:
        return None
    if any(type(p) is not Tensor for p in params):
        return None
    checks.append((recv, check))
    return NoGrad(NO_GRAD, tuple((CLEAR_GRAD, p, line) for p in params))


def _each(shape, loads, read, checks, changed, kept):
    """The entry of `for p in m.parameters(): ...` (loop_shapes._simple's "each" shape)
    when m is gradcli's own module whose `parameters` is Module's (its parameters are
    those of the module's state, checked as a called module's is: `replay_state`), or
    of `for p in params: ...` over a list of tensors (checked by identity and items,
    `_list_check`), with fewer than SAMPLE of them (the loop then never looks at the
    run's memory): (EACH, the loop's (line, column), its target's store, the
    parameters, per parameter the entries of the body with the target holding it), else
    None."""
    _, target, recv, method, store, inner, at = shape
    m = read.get(recv)
    load = next((x[1] for x in loads if x[0] == recv), None)
    if load is None:
        return None
    if method is None:  # a list of tensors
        if type(m) is not list:
            return None
        params = m
        check: Any = _list_check(load, m)
    elif (
        not isinstance(m, Module)
        or method != "parameters"
        or type(m).parameters is not Module.parameters
        or not _calls(m, method)
    ):
        return None
    else:
        params = m.parameters()
        check = None
    if len(params) >= SAMPLE or any(type(p) is not Tensor for p in params):
        return None
    per, names = [], set()
    for p in params:
        sub = _entries(inner, loads, dict(read, **{target: p}), checks, changed, names)
        if sub is None:
            return None
        per.append(sub)
    kept.update(names - {target})
    if check is None:
        state, held, _ = replay_state(m)
        check = (load, 4, m, state, held, None, None)
    checks.append((recv, check))
    return (EACH, at, store, tuple(params), tuple(per))


def _list_check(load, v):
    """The check that a variable holds the list v with the same items (replay._check's
    kind 6: the same object, its items the same objects)."""
    return (load, 6, v, list(map(id, v)), tuple(v), None, None)


def _sources(srcs, j, opof, viewof, ops, read, adopt):
    """Where op j's saved values come from in the plan: an earlier op's output (no
    Tensor yet: None, named when the values are bound, `adopt`; a view's output, a
    ViewSource sharing its base's version counter), None, OWN or a variable's tensor."""
    own = []
    for si, (how, v) in enumerate(srcs):
        if how == "op" and v in opof:
            base = viewof.get(opof[v])
            own.append(None if base is None else engine.view_source(base, ops[opof[v]][0]))
            adopt.append((j, si, opof[v], base))
        elif how == "value" and (v is None or v is OWN):
            own.append(v)
        elif how == "tensor" and _read(v(), read):
            own.append(v())
        else:
            raise Fail
    return tuple(own)


def _rechecked(items, calls):
    """The items with a Check before each assignment that follows a method call run as
    compiled (since the last check), when the body has one (`calls`)."""
    if not calls:
        return items
    out, dirty = [], False
    for it in items:
        if (type(it) is Noted or it.kind == CALL) and dirty:
            out.append(Check(CHECK, it.at))
            dirty = False
        elif type(it) is AsCompiled:
            dirty = True
        out.append(it)
    return out


def _guards(items):
    """The items without the `if`s' places (Guard), and per `if` (in the body's order):
    (how many items come before it, its index among the body's items)."""
    out, guards = [], []
    for it in items:
        if type(it) is Guard:
            guards.append((len(out), it.at))
        else:
            out.append(it)
    return out, tuple(guards)


def _calls(v, attr):
    """Whether `v.attr(numbers)` may run as compiled in a replayed iteration: v is an
    object of gradcli's own class that declares `replay_calls` (its methods run no code
    of the program), the method its class's (for a module: every module in it
    gradcli's own)."""
    if attr in (getattr(v, "__dict__", None) or ()):
        return False
    if program_object(v):  # (a module the loop sees through, its method Module's: each
        # module of the program's classes in it seen through, none overriding Module's)
        return (
            isinstance(v, Module)
            and hasattr(Module, attr)
            and all(not program_object(m) or through_state(m) is not None for m in v.modules())
            and all(
                attr not in c.__dict__
                for m in v.modules()
                for c in type(m).__mro__
                if "__gradcli_user__" in c.__dict__
            )
        )
    if not getattr(type(v), "replay_calls", False):
        return False
    if isinstance(v, Module):
        return not any(program_object(m) for m in v.modules())
    return True


def _keeps(v, attr):
    """Whether the call `v.attr(numbers)` (`_calls` allowed it) leaves every check of a
    plan as it found it: its class declares the method in `replay_keeps` (an
    optimizer's `step`: the parameters' values change in place, not their tensors,
    dtypes, shapes or graphs, nor any module, list or name), so the iteration after
    it may be steady and no assignment after it is checked again (`_rechecked`)."""
    return not program_object(v) and attr in getattr(type(v), "replay_keeps", ())


def _view_base(j, cls, params, argidx, frees, viewof, opview, mode, swap):
    """What the view op j's output views: the variable's tensor (its first argument, or
    the base of the view it views: `viewof`), or the op whose output it views, not
    itself a view (`opview`, with the op's class and parameters); Fail under no_grad (a
    view of a tensor requiring grad then gets bookkeeping of its own) or for a view of
    a view of an op's output."""
    if not argidx or not mode:
        raise Fail
    kind, i = argidx[0]
    if kind == "free" and id(frees[i]) in swap:
        raise Fail  # (of a loop target's data tensor: it would view that one)
    if kind == "free":
        viewof[j] = frees[i]
    elif kind == "op" and i in viewof:
        viewof[j] = viewof[i]
    elif kind == "op" and i not in opview:
        opview[j] = (i, cls, params)
    else:
        raise Fail


def _view_results(items, opview, results):
    """{op: opview's entry} of the statements' results that are views of an op's output
    (bound to a Tensor linked to its base's when the names are bound); Fail for a view of
    a made name's value (its Tensor would be made twice)."""
    views = {
        it.result: opview[it.result] for it in items if type(it) is Noted and it.result in opview
    }
    if any(u in results for u, _, _ in views.values()):
        raise Fail
    return views


def _kept(result, views):
    """The slots a statement keeps to its end: its result, and the output a view result
    views (its Tensor is made, the view's base, when the names are bound)."""
    return {result, views[result][0]} if result in views else {result}


def _read(t, read):
    """Whether Tensor t is the value of a variable the statement reads."""
    return t is not None and any(t is v for v in read.values())


def _slot(ref, opof, read, consts, frees, mine, known):
    """Where an op's argument comes from: ("op", j), ("const", i) or ("free", i)."""
    how, v = ref
    if how == "op":
        if v not in opof:
            raise Fail
        return ("op", opof[v])
    if how == "tensor":
        t = v()
        if not _read(t, read):
            raise Fail("an op reads a tensor that no variable of its statement holds")
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
    raise Fail("an op takes a value that is neither a variable's tensor nor a constant")


def _numbers(literals, read):
    """The numbers a statement's ops may take as constants: those it writes and those
    its variables hold (a number made from a tensor's value, as float16's path makes
    one, would not be the same next time)."""
    return set(literals) | {v for v in read.values() if type(v) in (int, float)}


class _Dims(set):
    """The numbers of a statement that calls a pure op's function or gradcli's own
    module: also every int (the dims and sizes the op's code passes its ops, `t(w)`'s 0
    and 1, cross_entropy's dim and ignore_index, made from shapes and constants: the same
    each iteration while the checks hold)."""

    def __contains__(self, v):
        return type(v) is int or set.__contains__(self, v)


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
        raise Fail
    j = nodes.get(id(p))
    if j is None:
        raise Fail("the graph reaches nodes made before the loop")
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
            raise Fail("backward reaches nodes made before the loop, or hooked")
        for p in n.parents:
            if p is not None and type(p) is not Tensor:
                todo.append(p)
    return {nodes[i] for i in seen}


def _dropped(items, x):
    """The op outputs of assignment x that no later statement reads (so that, as in the
    compiled loop, an intermediate array nothing saved is freed when its statement ends:
    `Run.vals` would otherwise keep it to the end of the iteration)."""
    later = _later(items, x)
    return tuple(s.j for s in items[x].steps if s.j not in later)


def _later(items, x):
    """The op outputs the statements after item x read."""
    later = set()
    for it in items[x + 1 :]:
        if type(it) is Noted:
            later.update(ref[1] for s in it.steps for ref in s.argidx if ref[0] == "op")
        elif type(it) is Backward:
            later.add(it.root)
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
    (i,) = idx
    return lambda vals: (vals[i],)


def read_all(loads, s):
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
        raise Fail
    for name, load, changed, own in loads:
        v = read[name]
        if type(v) is Tensor and v.data.dtype.kind in "fiub":
            yield name, (load, 0, v, v.requires_grad, v.grad_fn, v.data.dtype, v.data.shape)
        elif type(v) in (int, float, bool) and not changed:
            yield name, (load, 1, v, type(v), negative_zero(v), None, None)
        elif (own is not None and v is own) or type(v) is Namespace:  # (a namespace
            # cannot be changed: the same object is the same functions)
            yield name, (load, 2, v, None, None, None, None)
        elif own is None and (replay_pure(v) or through_state(v) is not None):
            # gradcli's own module, or one of the program's classes whose forward the loop
            # sees through (replay_through.py): the same object, in the same state (its
            # parameters, buffers, attributes; Module.replay_state; its program classes'
            # attributes and its forwards' globals), its tensors checked as variables' are
            # and taken as what the statement reads
            state, held, found = replay_state(v)
            yield from _program_classes(name, load, v, state, held)
            for i, x in enumerate(sorted(literals(v), key=repr)):  # (its forwards' numbers)
                read[(name, "literal", i)] = x
            for path, t in found:
                read[(name, path)] = t
                if type(t) is Tensor:
                    yield (
                        (name, path),
                        (
                            lambda s, t=t: t,
                            0,
                            t,
                            t.requires_grad,
                            t.grad_fn,
                            t.data.dtype,
                            t.data.shape,
                        ),
                    )
        else:  # a function the statement sees through (replay_through.py), or Fail
            got = function_checks(name, load, v, read, _checks, _namespaces)
            if got is None:
                raise Fail(f"`{name}` holds {_held(v)}")
            yield from got


def _program_classes(name, load, v, state, held):
    """The checks of the module v (Module.replay_state's `state` and `held`), with those
    of its program classes and its forwards' globals when it is one of the program's
    classes (replay_through.through_state)."""
    got = through_state(v)
    if got is not None:
        state = state + got[0]
        held = held + got[1]
    yield name, (load, 4, v, state, held, None, None)
    if got is not None:
        yield from got[2]


def _namespaces(calls, read):
    """Fail unless each call `name.a.b.attr(...)` of a statement
    (loop_shapes.namespace_calls: (name, (a, b), attr, the language's built-in of that
    name)) is a tensor's method `x.attr(...)` or the built-in op's function reached
    through gradcli's namespaces (`torch.mean`, `F.cross_entropy`,
    `torch.nn.functional.nll_loss`; a namespace's own function of that name declares the
    op it calls, as `F.softmax`'s `op_function`).  (A namespace cannot be changed: the
    same objects, checked, hold the same functions.)"""
    for name, path, attr, fn in calls:
        v = read.get(name)
        if type(v) is Tensor and not path:
            continue
        for a in path:
            v = v.members.get(a) if type(v) is Namespace else None
        got = v.members.get(attr, fn) if type(v) is Namespace else None
        if fn is None or (got is not fn and getattr(got, "op_function", None) != attr):
            raise Fail(f"`{name}.{attr}` is not a pure op's function")


def _kinds(loads, read):
    """Per variable a statement run as compiled reads: a check that it still holds a
    tensor, a number or gradcli's own value (so the statement runs no code of the
    program, which could see a made name)."""
    if read is None:
        raise Fail
    for name, load, changed, own in loads:
        v = read[name]
        if type(v) is Tensor:
            yield name, (load, 3, (Tensor,), None, None, None, None)
        elif type(v) in (int, float):
            yield name, (load, 3, (int, float), None, None, None, None)
        elif own is not None and v is own:
            yield name, (load, 2, v, None, None, None, None)
        elif not program_object(v) and getattr(type(v), "replay_calls", False):
            yield name, (load, 3, (type(v),), None, None, None, None)
        elif through_state(v) is not None:  # (its methods gradcli's own: `_calls`)
            state, held, _ = replay_state(v)
            yield from _program_classes(name, load, v, state, held)
        elif type(v) is list and len(v) < SAMPLE and all(type(x) is Tensor for x in v):
            yield name, _list_check(load, v)  # (`for p in params:`, a list of tensors)
        else:
            raise Fail(f"`{name}` holds {_held(v)}")


def _once(checks):
    """The checks, (name, check) each, one per variable and what it checks: the same
    check made for two statements once, and a check of a variable's type (kind 3) left
    out where another check of it (the same object, an equal number, gradcli's own
    value) implies it.  (Each statement reads the same value of a variable: what the
    body changes, it changes in place, loop_shapes.py.)"""
    strict = {name for name, c in checks if c[1] != 3}
    out, seen = [], set()
    for name, c in checks:
        kind = c[1]
        if kind == 3 and name in strict:
            continue
        key = (name, kind, id(c[2]) if kind != 1 else (c[2], c[3], c[4]))
        if key not in seen:
            seen.add(key)
            out.append(c)
    return tuple(out)


def negative_zero(v):
    return type(v) is float and v == 0 and math.copysign(1.0, v) < 0
