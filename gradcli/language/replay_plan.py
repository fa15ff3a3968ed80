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
* A no_grad block of steps `w -= lr * w.grad` gets its entries (`updates`).
"""

from __future__ import annotations

from functools import partial
from operator import itemgetter

import numpy as np

from ..runtime import context
from ..core.tensor import Tensor
from ..engine import replay as engine
from ..engine.versions import OWN
from ..library.nn.module import replay_same
from .loop_shapes import called_def
from .replay_through import THROUGH_GLOBALS
from .replay_through import held as _held, unsafe_globals


from .replay_records import AS_COMPILED, ASSIGN, BACKWARD, CALL, CHECK
from .replay_records import AsCompiled, Assign, Backward, Check, Noted
from .replay_records import APPEND, GUARD, ITEM, Guard, NotedStep, Step, plain
from .replay_records import BATCH, TAIL, Batch, Tail
from .replay_numbers import NO_GRAD, NOTED, noted
from .replay_steps import taking
from .replay_checks import Fail, checks_of, compiled_call, keeps, kinds, namespaces, once
from .replay_checks import library_checks
from .replay_updates import block_item, bookkeeping_item, zero_grad


#: the key of a noted assignment's `read` under which replay._noting notes the state of
#: each module it reads (Module.replay_state) as it reads it: the plan checks the state
#: the iteration ended with, which must be that one (a module put in eval() after a
#: statement ran it in training would be replayed in training)
MODULE_STATES = ("", "modules")


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
        "remakes",
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
    remakes = {}  # op index of a view of a variable's tensor -> (its class, parameters)
    calls = False  # a method call runs as compiled: checks again before an assignment
    through = {}  # the globals functions seen through read: their values
    swap = {}  # id of a loop target's data tensor -> (the tensor, its load)
    keys = {}  # item index of an assignment -> its ops' index tensors (`_keys`)
    keyed = set()  # the ops that take index tensors (never hoisted)
    # op index -> its key's parts remade from slots before it runs (`_keys`: index
    # tensors an earlier op of the iteration made)
    opkeys = {}
    made_by = partial(_made_by, notes, opof)  # (the plan's op that made an index array)

    holders = _holders(body, seen)
    tail = _tail_at(body.items)
    for i, (kind, what, closure, extra, line, col) in enumerate(body.items[:tail]):
        if (called := _called(kind, what, extra, seen.get(i), checks)) is not None:
            held, read, mode, into = called  # (its checks added by replay_defs._Held.item)
            modes.add(mode)
            items.append(held.item(body, i, read, items, checks, holders, swap, into))
        elif kind in NOTED:  # name = expression; a no_grad block's number
            (start, end), read, result, value, mode = seen[i]
            k = _alias(what, seen[i], opof.get(result), items, viewof)
            if k is not None:  # (`logits, loss = model(xb, yb)`'s second name)
                modes.add(mode)
                items.extend(noted(kind, what, (), (), k, line, i, extra))
                keys[i], results[k] = [], value
                continue
            modes.add(mode)
            checks.extend(_read_checks(extra[2], read, body.swaps, holders, swap))
            through.update(read.get(THROUGH_GLOBALS, ()))  # (function_checks)
            namespaces(extra[4], read)
            known = _numbers(extra[3], read)
            if extra[5]:  # (it calls an op or a module: their code's dims, `_Dims`)
                known = _Dims(known)
            steps, mine, fixes, written = [], [], [], set()
            for x in range(start, end):
                cls, args, params, node, requires_grad, mask, srcs, view = notes[x]
                j = len(ops)
                writes = _written(cls, params, read, swap, written)
                params = _keys(params, known, read, frees, mine, fixes, writes, made_by)
                if fixes and fixes[-1][0] is params:  # (it takes index tensors)
                    keyed.add(j)
                keyrefs = _made_keys(j, params, fixes, opkeys)
                argidx = tuple(_slot(a, opof, read, consts, frees, mine, known) for a in args)
                if view:  # (it shares its base's version counter: _view_base)
                    _view_base(j, cls, params, argidx, frees, (viewof, opview, remakes), mode, swap)
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
                steps.append(NotedStep(j, argidx, params, mask, node is not None, keyrefs))
            k = opof.get(result)
            if k is None or k < steps[0].j or k in viewof:
                raise Fail  # (a view the program sees: its view bookkeeping is not replayed)
            _numbered(read, frees, mine, written)
            items.extend(noted(kind, what, tuple(steps), tuple(mine), k, line, i, extra))
            keys[i] = fixes
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
            items.append(block_item(kind, what, extra, seen[i], checks, closure))
        elif kind in ("item", "append"):  # running += loss.item(), losses.append(...)
            items.append(bookkeeping_item(kind, what, extra, seen[i], checks, i, line))
        elif kind == "call":  # recv.method(numbers) of gradcli's own object, as compiled
            checks.extend(kinds(extra, seen[i]))
            if not compiled_call(seen[i][what[0]], what[1]):
                raise Fail(f"`{what[0]}.{what[1]}()` may run the program's code")
            cleared = zero_grad(what, extra, seen[i], checks, line)
            items.append(cleared or AsCompiled(AS_COMPILED, closure))
            calls = calls or (cleared is None and not keeps(seen[i][what[0]], what[1]))
        else:  # run as compiled: what it reads must run no code of the program
            items.append(_as_compiled(kind, what, extra, seen[i], checks, closure, i))
    mode = _one_mode(modes)
    checks, items = _batched(checks, _tailed(items, tail, len(body.items)))
    remakes = _kept_views(adopt, freed, remakes, items)
    unsafe_globals(body, through, Fail)
    items, guards = _guards(_rechecked(items, calls))
    views = _view_results(items, opview, results)
    n, c = len(ops), len(consts)
    plan = Plan()
    plan.draws, plan.key = (), None  # (language/replay_draws.py: set by Run._record)
    fixed = _invariant(items, ops, frees, swap, keyed)
    if any(u in fixed or k in fixed for k, (u, _, _) in views.items()):
        raise Fail

    likes = _deferrable(items, ops, results, fixed, adopt)

    def step(j, argidx, params, mask, done):
        idx = tuple(_final(a, n, c) for a in argidx)
        get = _rekeyed(_getter(idx), opkeys.get(j), n, c)
        return plain(
            Step(
                j,
                get,
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
        _assign(x, it, items, views, fixed, frees, n + c, swap, step, keys.get(it.at, ()))
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
                (n + c + i, frees[i], swap[id(frees[i])][1] if id(frees[i]) in swap else None)
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
    plan.checks = once(checks)
    # (those of the names the loop's target binds: made again before each iteration of
    # a steady plan, which the others hold through)
    plan.moving = (
        once([c for c in checks if c[0] in body.targets]) if body.targets is not None else ()
    )
    plan.names = frozenset(name for name, _ in checks)  # (what the checks read)
    # (the checks hold from one replayed iteration to the next unless they read what
    # the loop binds; a `while` condition runs no code of the program while its
    # variables hold numbers, which Run._ready checks: Body.cond_loads)
    plan.steady = (
        not calls
        and type(items[-1]) is not Tail
        and (body.targets is not None or (body.targets is None and body.cond_loads is not None))
    )
    plan.mode = mode
    plan.backward = backward
    plan.ops = tuple(ops)
    plan.consts = tuple(consts)
    plan.frees = tuple(frees)
    plan.adopt = tuple(adopt)
    plan.views = views
    plan.remakes = remakes
    return plan


#: a hoisted op's tensors are compared with their bytes before each iteration: up to
#: this many bytes (an op of a bigger one runs each iteration)
HOIST_BYTES = 1 << 20
#: ... and of a tensor a loop's target or a function's parameter binds (compared each
#: iteration, and its ops made again where they differ): up to this many bytes
SWAP_HOIST_BYTES = 1 << 16


def _assign(x, it, items, views, fixed, frees, base, swap, step, keys):
    """The Assign of the noted assignment `it` (item x): its steps but the hoisted
    (`fixed`), its variables' tensors' slots (after `base`), those of loop targets' data
    tensors apart (`_live`), its ops' index tensors (`keys`, `_keys`) by their slots."""
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
            _live(
                steps,
                [(k, t) for k, t in mine if id(t) in swap],
                swap,
                tuple(
                    (d, name, parts, tuple((p, base + f) for p, f in places))
                    for d, name, parts, places in keys
                ),
            ),
        )
    )


def _tail_at(items):
    """The index of the first item of a body's compiled tail (loop_compile._tail), or
    the number of items when it has none."""
    for i, it in enumerate(items):
        if it[0] == "compiled":
            return i
    return len(items)


def _tailed(items, tail, n):
    """The items and a Tail (its place among the body's `n` items) when the body has a
    compiled tail (replay_tail.py), its last item."""
    return [*items, Tail(TAIL, tail)] if tail < n else items


def _called(kind, what, extra, seen, checks):
    """(what its calls share (replay_defs._Held), the values read, grad mode, the
    list's load or None) of `name = f(args)` or `recv.append(f(args))` (the list's load
    then, its check that it holds a list added to `checks`, as `recv.append(...)`'s)
    of a `def` whose calls replay, None for any other statement; Fail for such an
    append of another function or to another object than a list."""
    if kind == "assign":
        held = called_def(extra[6], seen[1])
        return (held, seen[1], seen[4], None) if held is not None else None
    if kind != "append_call":
        return None
    read, mode, got = seen
    held = called_def(extra[2], read)
    if held is None:
        raise Fail(f"`{what[1]}` holds {_held(read and read.get(what[1]))}")
    if type(got) is not list:
        raise Fail(f"`{what[0]}` holds {_held(got)}")
    checks.append((what[0], (extra[0], 3, (list,), None, None, None, None)))
    return held, read, mode, extra[0]


def _read_checks(loads, read, swaps, holders, swap):
    """The checks of an assignment's variables (checks_of, `_swapped`); Fail when a
    module it reads is not, at the iteration's end, in the state the statement found it
    in (MODULE_STATES: a `model.eval()` after it)."""
    if any(not replay_same(st) for _, st, _ in read.pop(MODULE_STATES, ())):
        raise Fail("a module's state changed after a statement read it (its eval(), train())")
    return _swapped(checks_of(loads, read), swaps, holders, read, swap)


def _holders(body, seen):
    """id of each tensor the body's assignments read -> how many names hold it."""
    names: dict = {}
    for i, it in enumerate(body.items):
        got = seen.get(i) if it[0] in ("assign", "append_call") else None
        read = got[0 if it[0] == "append_call" else 1] if got is not None else None
        if type(read) is dict:
            for name, v in read.items():
                if type(v) is Tensor:
                    names.setdefault(id(v), set()).add(name)
    return {k: len(v) for k, v in names.items()}


def _swapped(checks, swaps, holders, read, swap):
    """The checks of a statement's variables (`checks_of`), where a variable a `for`
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


def _live(steps, mine, swap, keys=()):
    """An Assign's `live` (replay._alive): ((slot, load) per loop target's data tensor
    it reads, (step, position, which) per saved value of its steps that is one, the
    index tensors its ops take: (parameters, name, parts, (position, slot) ...) each,
    `_keys`), or None when it reads none and takes none."""
    if not mine:
        return ((), (), keys) if keys else None
    which = {id(t): w for w, (_, t) in enumerate(mine)}
    fixes = []  # (step, position, which tensor, the view's node class or None)
    for x, st in enumerate(steps):
        for p, src in enumerate(st[4] or ()):
            t, cls = (src.t, src.cls) if type(src) is SwapView else (src, None)
            if id(t) in swap:
                if id(t) not in which:  # (a swapped tensor it does not read)
                    raise Fail
                fixes.append((x, p, which[id(t)], cls))
    fixes = tuple(fixes)
    return tuple((k, swap[id(t)][1]) for k, t in mine), fixes, keys


def _invariant(items, ops, frees, swap, keyed=()):
    """The ops whose values are the same each iteration (hoisted: computed once, again
    only when a variable's tensor they read holds another array or other bytes,
    replay._unchanged): no node, and every argument a constant, a variable's tensor
    (of at most HOIST_BYTES; at most SWAP_HOIST_BYTES for one a loop's target or a
    function's parameter binds anew each time, `swap`, whose bytes are compared each
    iteration: `x ** 2` of the data a training step's `def` is given every call) or
    another such op's value.  (The ops replayed are the
    loop_shapes' pure ones: their values depend on their arguments' alone, but for an
    op whose class declares `draws`, whose value is the generator's next draws:
    Dropout's noise, ops/nn.py `_Noise`, made in its place every iteration, and an op
    whose class declares `writes`, whose forward changes tensors in place: BatchNorm's
    running statistics, ops/norm_pool.py.)  Only in
    the assignments before the body's first other statement: a backward or a no_grad
    block may change in place what a statement after it reads.  Not an op that takes
    index tensors (`keyed`: its key remade each iteration, `_keys`)."""
    big = {
        f
        for f, t in enumerate(frees)
        if t.data.nbytes > (SWAP_HOIST_BYTES if id(t) in swap else HOIST_BYTES)
    }
    fixed = set()
    for it in items:
        if type(it) is Batch:  # (it changes only its name: a batch, never hoisted)
            continue
        if type(it) is not Noted:
            break
        for s in it.steps:
            if (
                ops[s.j][1] is None
                and s.j not in keyed
                and not getattr(ops[s.j][0], "draws", False)
                and not getattr(ops[s.j][0], "writes", ())
                and all(
                    i in fixed if kind == "op" else kind != "free" or i not in big
                    for kind, i in s.argidx
                )
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
        for kind, i in s.reads
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
                i for s in it.steps if s.j not in fixed for kind, i in s.reads if kind == "op"
            )
        elif type(it) is Backward:
            out.add(it.root)
    return out


def _sources(srcs, j, opof, viewof, ops, read, adopt):
    """Where op j's saved values come from in the plan: an earlier op's output (no
    Tensor yet: None, named when the values are bound, `adopt`; a view's output, a
    ViewSource sharing its base's version counter), None, OWN or a variable's tensor."""
    own = []
    for si, (how, v) in enumerate(srcs):
        if how == "op" and v in opof:
            base = viewof.get(opof[v])
            if base is None or type(base) is SwapView:  # (a SwapView: remade of each
                own.append(base)  # iteration's tensor, `_live`)
            else:
                own.append(engine.view_source(base, ops[opof[v]][0]))
            adopt.append((j, si, opof[v], base))
        elif how == "value" and (v is None or v is OWN):
            own.append(v)
        elif how == "tensor" and _read(v(), read):
            own.append(v())
        else:
            raise Fail
    return tuple(own)


def _as_compiled(kind, what, extra, read, checks, closure, at):
    """The item of a statement run as compiled, its variables' checks (`kinds`) added to
    `checks`: a Batch for `idx = perm[i : i + bs]` (its own checks found by
    `_batched`), else an AsCompiled."""
    if kind == "batch":
        checks.extend(kinds(extra[1], read))
        return Batch(BATCH, closure, what, at)
    # (clip_grad_norm_(model.parameters(), 1.0): its function and arguments checked)
    checks.extend(library_checks(what, extra, read) if kind == "library" else kinds(extra, read))
    return AsCompiled(AS_COMPILED, closure)


def _batched(checks, items):
    """The checks without those of the names batch statements bind (`Batch`: made after
    the statement runs, not before the iteration, when the name still holds the last
    iteration's batch), and the items with each Batch holding its own."""
    names = {it.checks: it for it in items if type(it) is Batch}  # (its name, as noted)
    if not names:
        return checks, items
    own = {name: once([c for c in checks if c[0] == name]) for name in names}
    rest = [c for c in checks if c[0] not in names]
    return rest, [
        Batch(BATCH, it.run, own[it.checks], it.at) if type(it) is Batch else it for it in items
    ]


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


def _one_mode(modes):
    """The grad mode the body's assignments ran in, the only one in `modes` but a
    no_grad number's (not the body's); Fail for two.  A body of no_grad blocks only (a
    `def` of an optimizer's step, d2l's `sgd`): the mode it ran in."""
    modes.discard(NO_GRAD)
    if len(modes) > 1:
        raise Fail
    return modes.pop() if modes else context.current.grad_enabled


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


def _kept_views(adopt, freed, remakes, items):
    """{op: (class, parameters)} of the views of a variable's tensor saved by a node no
    backward of the body frees (the iteration's graph is kept as compiled): their
    Tensors, made when the names are bound, are linked to their bases then, remade from
    them (`adopt_sources`).  Fail for a view of a view, or when a statement other than
    an assignment may change a base in place before that (no_grad blocks, calls)."""
    kept = {src for j, _, src, base in adopt if base is not None and j not in freed}
    if not kept:
        return {}
    if not kept.issubset(remakes) or any(
        it.kind not in (ASSIGN, ITEM, APPEND, GUARD, BATCH) for it in items
    ):
        raise Fail
    return {k: remakes[k] for k in kept}


class SwapView:
    """What a view of a loop target's data tensor views (`_view_base`): a tensor the plan
    does not hold, a new one each iteration (`t`, the noted iteration's), and the view's
    node class: a node that saves the view's output saves, in each replayed iteration, a
    source of that iteration's tensor's version counter (replay._alive), which the
    Tensor made for it when the names are bound shares (replay_bind.materialize)."""

    __slots__ = ("t", "cls")

    def __init__(self, t, cls):
        self.t, self.cls = t, cls


def _view_base(j, cls, params, argidx, frees, maps, mode, swap):
    """What the view op j's output views: the variable's tensor (its first argument, or
    the base of the view it views: `viewof`; with its class and parameters, `remakes`,
    when it is the first), or the op whose output it views, not itself a view (`opview`,
    with the op's class and parameters); under no_grad, None (a view of a tensor
    requiring grad then gets bookkeeping of its own: it may only be an operand of later
    ops); Fail for a view of a view of an op's output."""
    viewof, opview, remakes = maps
    if not argidx:
        raise Fail
    kind, i = argidx[0]
    if kind == "free" and id(frees[i]) in swap:  # (of a loop target's data tensor: a
        viewof[j] = SwapView(frees[i], cls)  # new one each iteration; no statement's result)
        return
    if not mode:  # (only an operand of later ops: no statement's result, `viewof`)
        viewof[j] = None
        return
    if kind == "free":
        viewof[j] = frees[i]
        remakes[j] = (cls, params)
    elif kind == "op" and i in viewof:
        base = viewof[i]
        viewof[j] = SwapView(base.t, cls) if type(base) is SwapView else base
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


def _written(cls, params, read, swap, written):
    """The names of the parameters of an op whose class declares `writes` (ops/
    norm_pool.py BatchNorm's `stats`: the tensors its forward changes in place), each None
    or a tuple of Tensors (or None) held by the statement's variables or modules (their
    identity checked as theirs is, never a loop target's swapped tensor), the ids of
    those tensors added to `written`; Fail for any other value."""
    names = getattr(cls, "writes", ())
    for name in names:
        v = params.get(name)
        if v is None:
            continue
        if type(v) is not tuple:
            raise Fail("an op changes in place a value that is not a tuple of tensors")
        for t in v:
            if t is not None and (not _read(t, read) or id(t) in swap):
                raise Fail(
                    "an op changes in place a tensor that no variable of its statement holds"
                )
            written.add(id(t))
    return names


def _keys(params, known, read, frees, mine, fixes, writes=(), made_by=None):
    """The parameters of an op that takes index tensors in a key (`x[idx]`: the index
    op's `key`, a tuple of numbers, None and arrays), as a dict of its own whose key is
    remade each iteration (replay._alive) from the arrays of the variables' tensors it
    took (appended to `mine`, their slots read as an argument's are), noted in `fixes`
    as (the dict, the name, the key's parts, (position, index into `frees`) ...); Fail
    for any other parameter that is not a constant, and for a key of a mask (its
    result's shape is its count, not its shape), of an array that is no variable's
    integer tensor's; not the parameters in `writes` (`_written`).  An index tensor an
    earlier op of the iteration made (`made_by`: its op, `emb = C[X[ix]]`'s `X[ix]`) is
    noted as ("op", its index) in place of a variable's (`_rekeyed` remakes such a key
    when its op runs).  `params` itself when each of them is a constant."""
    if all(k in writes or _constant(v, known) for k, v in params.items()):
        return params
    own = dict(params)
    for name, v in params.items():
        if name in writes or _constant(v, known):
            continue
        if type(v) is np.ndarray:  # (an index array itself: embedding's `idx`)
            v = Bare((v,))
        elif type(v) is not tuple:
            raise Fail("an op takes a value that is neither a variable's tensor nor a constant")
        places = []
        for p, part in enumerate(v):
            if type(part) is not np.ndarray:
                if not (part is None or part is Ellipsis or _constant(part, known)):
                    raise Fail("an index that is neither a number nor a variable's tensor")
                continue
            t = next((t for t in read.values() if type(t) is Tensor and t.data is part), None)
            if t is None and part.dtype.kind in "iu" and made_by is not None:
                k = made_by(part)
                if k is not None:
                    places.append((p, ("op", k)))
                    continue
            if t is None or part.dtype.kind not in "iu":
                raise Fail("an index that is not a variable's integer tensor")
            f = next((f for f, u in enumerate(frees) if u is t), None)
            if f is None:
                f = len(frees)
                frees.append(t)
            if f not in mine:
                mine.append(f)
            places.append((p, f))
        fixes.append((own, name, Bare(v) if type(v) is Bare else list(v), tuple(places)))
    return own


class Bare(list):
    """The parts of an op's parameter that is an index array itself, not a key of
    parts (`_keys`: embedding's `idx`): remade as that array (`remade`)."""

    __slots__ = ()


def remade(parts):
    """A parameter `_keys` noted, remade of its parts: the array itself for a Bare one,
    else the key, a tuple."""
    return parts[0] if type(parts) is Bare else tuple(parts)


def _numbered(read, frees, mine, written=()):
    """Fail when a statement reads a 0-d integer or bool tensor that none of its ops
    takes as a tensor (nor changes in place, `_written`: num_batches_tracked): one taken
    as its number (an index `x[j]`, a constant of the plan), which would not be the same
    next time."""
    took = {id(frees[f]) for f in mine} | set(written)
    for v in read.values():
        if type(v) is Tensor and v.data.ndim == 0 and v.data.dtype.kind in "iub":
            if id(v) not in took:
                raise Fail("a 0-d integer tensor may be taken as its number")


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
    # (a tuple of ints, a shape or dims; a list of them, `x.sum([0, 1])`'s display)
    return (type(v) is tuple or type(v) is list) and all(type(x) is int for x in v)


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


def _alias(what, seen, k, items, viewof):
    """For a noted assignment that applied no op: k, when op k's output is one of the
    last noted assignment's ops' (and no view: its bookkeeping is not replayed), so the
    name bound to it is an alias of that statement's values (`logits, loss =
    model(xb, yb)`'s `loss`: loop_split._unpacked); else Fail.  None when it applied ops."""
    (start, end), read = seen[0], seen[1]
    if read is not None and start != end:
        return None
    # (the statement before the aliases noted so far: `recon, mu, logvar = model(x)`)
    last = next((it for it in reversed(items) if type(it) is not Noted or it.steps), None)
    if (
        read is None
        or k is None
        or k in viewof
        or type(last) is not Noted
        or not last.steps
        or not last.steps[0].j <= k <= last.steps[-1].j
    ):
        raise Fail(f"`{what} = ...` applied no op")
    return k


def _later(items, x):
    """The op outputs the statements after item x read (and the names bound to them)."""
    later = set()
    for it in items[x + 1 :]:
        if type(it) is Noted:
            later.add(it.result)
            later.update(ref[1] for s in it.steps for ref in s.reads if ref[0] == "op")
        elif type(it) is Backward:
            later.add(it.root)
    return later


def _done(steps, keep):
    """Per step of an assignment, the op outputs it reads for the last time in the
    statement (let go after it, as the compiled loop lets an intermediate go); not those
    in `keep` (its result, what later statements read)."""
    last = {}
    for x, s in enumerate(steps):
        for ref in s.reads:
            if ref[0] == "op":
                last[ref[1]] = x
    mine = {j for j, *_ in steps} - keep
    out = [[] for _ in steps]
    for j, x in last.items():
        if j in mine:
            out[x].append(j)
    return [tuple(d) for d in out]


def _NO_ARGS(vals):
    return ()


def _made_by(notes, opof, a):
    """The plan's op whose output's array is `a` (engine/replay.Notes), else None."""
    return opof.get(notes.made_by(a))


def _made_keys(j, params, fixes, opkeys):
    """For op j (its parameters `params`), when its key takes an index tensor an earlier
    op made (`_keys`): its entries of `fixes` moved to opkeys[j] (remade as it runs:
    `_rekeyed`), and those ops' references (("op", index) ...); else ()."""
    mine = [fix for fix in fixes if fix[0] is params]
    if not any(type(f) is tuple for fix in mine for _, f in fix[3]):
        return ()
    opkeys[j] = mine
    fixes[:] = [fix for fix in fixes if fix[0] is not params]
    return tuple(f for fix in mine for _, f in fix[3] if type(f) is tuple)


def _rekeyed(get, fixes, n, c):
    """`get` of a step whose op takes an earlier op's output as an index tensor in its key
    (`_keys`: (the parameters, the name, the key's parts, (position, ("op", j) or the
    variable's index in `frees`) ...) each): the key made of this iteration's arrays in
    the parameters first, then the arguments; `get` itself when it takes none (`fixes`
    None)."""
    if fixes is None:
        return get
    keys = tuple(
        (
            d,
            name,
            parts,
            tuple((p, _final(f if type(f) is tuple else ("free", f), n, c)) for p, f in places),
        )
        for d, name, parts, places in fixes
    )

    def args(vals):
        for d, name, parts, places in keys:
            for p, slot in places:
                parts[p] = vals[slot]
            d[name] = remade(parts)
        return get(vals)

    return args


def _getter(idx):
    """vals -> the tuple of vals[i] for i in idx (one C call for two or more)."""
    if len(idx) > 1:
        return itemgetter(*idx)
    if not idx:  # (an op of no argument: a draw's, ops/nn.py _Noise)
        return _NO_ARGS
    (i,) = idx
    return lambda vals: (vals[i],)
