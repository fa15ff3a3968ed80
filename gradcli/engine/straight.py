"""A replayed loop body's backward as one straight-line function.

A replayed body (engine/replay.py) runs `out.backward()` through a graph of shadow nodes
whose structure is the same every iteration: the same nodes, the same edges, the same
schedule (schedule.made_now), the same leaves.  The backward loop (autograd._pass) walks
that schedule step by step, reading each step's routes, keeping the gradients waiting in
a list and the leaves' gradients in another; here the same steps are written out once, as
one Python function per graph (`Straight`), built as Python's tree (never a text) and
compiled: each node's VJP called in the
schedule's order, each gradient sent on to a local variable of the node (or leaf) it
goes to, sums made in the order the loop makes them, each leaf's gradients added up and
then stored into its .grad as passes.deliver_leaves stores them.  What it does is the
loop's common case, step for step (the flow record, the saved values' version check and
freeing, a second pass's error, efficient zeros, the casts to a node's dtype, a whole sum
left for later, a pass that fails half way); what it leaves out is what cannot happen
in that case, checked once per pass before it runs (`backward`): a node or leaf with
hooks or retain_grad anywhere in the run (context.node_watches, leaf_hooks),
retain_graph, an output of more than 0 dims.  Otherwise autograd.plain_node runs the
pass through the same schedule.

The function is made at a graph's fifth pass (`MAKE_AT`: a loop of a few replayed
iterations costs no compile), from the graph it is given (its nodes' classes,
dtypes and leaves, found by the walk of schedule._structure, which is the schedule's own
numbering); its code is kept per tree.
"""

from __future__ import annotations

import ast
from sys import getrefcount
from operator import is_
from types import CodeType, FunctionType

import numpy as np

from ..core.tensor import Tensor
from ..numerics.parallel import GRAIN
from ..numerics.sums import sum_rows
from ..numerics.sums.sum_mid import MID_MIN
from ..runtime import context
from ..runtime.errors import GradRuntimeError
from . import observe, schedule, straight_code, versions
from .autograd import UNSCHEDULED, _ONES, _cast, _plain, _store_grad, plain_node, run_backward
from .passes import SECOND_BACKWARD, _deliver, deliver_leaves, finished_leaves
from .schedule import Later, LaterF
from .vjp_arrays import sum_to
from .zero_grads import EfficientZeros, spread

#: the passes a Straight runs through plain_node before its function is made: a loop of
#: a few iterations does not make it (making it, about a millisecond, is repaid by some
#: hundred passes: a training loop's); its code kept for a graph of the same structure
#: and leaves is taken at the second pass
MAKE_AT = 4
#: a graph of more nodes keeps the loop (the function's making grows with the graph: about
#: 0.15 ms a node)
MAX_NODES = 256
_CODE: dict = {}  # the tree (ast.dump) -> its code
_KEEP = 256


class Straight:
    """A replayed graph's backward: its schedule (`steps`, schedule.made_now's) and, once
    made, its function (`run(root, g, flow, small)`)."""

    __slots__ = ("steps", "run", "uses")

    def __init__(self, steps):
        self.steps = steps
        self.run = None
        self.uses = 0


#: the Straights of a compiled `loss.backward()`'s graphs (`backward_out`): by id of
#: their schedule, (the schedule, [(the nodes' dtypes, where the leaves' gradients go, the
#: Straight or None when a node gathers pieces), ...], `_to_leaves` of the schedule)
_COMPILED: dict = {}
_SHAPES_PER_SCHEDULE = 4


def backward_out(out):
    """`loss.backward()` (autograd.backward_out): through a Straight when its graph
    has a schedule (schedule.find: a structure seen before, as a compiled loop makes a
    new graph of one structure each iteration) and the pass is the common case a
    Straight covers (`backward`), else autograd.backward_out.  The code of a Straight is
    written for its graph's node dtypes and for which gradients go to one leaf, which
    a structure does not say (its leaves are -1): they are read from each pass's graph
    and pick the Straight.  A graph with a node that gathers the pieces of a split
    (`cut_piece`, which the pass gathers: engine/piece_grads.py) keeps the loop.
    `--no-replay` keeps it too (the loop a replayed body's Straight is compared with).
    A graph of more than MAX_NODES nodes, which never gets a Straight, goes to the loop
    with the schedule found (neither its dtypes nor its leaves read)."""
    if not _plain(out):
        return run_backward((out,), (None,))
    root = out.grad_fn
    if out.data.ndim or not context.current.replay:
        return plain_node(root, out.data, False)
    walked: list = []
    steps = schedule.find(root, walked)
    if steps is None:
        return plain_node(root, out.data, False, UNSCHEDULED)
    if len(walked) > MAX_NODES:
        return plain_node(root, out.data, False, steps)
    kept = _COMPILED.get(id(steps))
    if kept is None or kept[0] is not steps:
        if len(_COMPILED) >= _KEEP:
            _COMPILED.clear()
        kept = _COMPILED[id(steps)] = (steps, [], _to_leaves(steps))
    dtypes = [n.out_dtype for n in walked]
    sent = _sent(walked, steps, kept[2])
    for d, s, prog in kept[1]:
        if s == sent and all(map(is_, d, dtypes)):
            break
    else:
        prog = None if any(n.cut_piece for n in walked) else Straight(steps)
        if len(kept[1]) >= _SHAPES_PER_SCHEDULE:
            del kept[1][0]
        kept[1].append((dtypes, sent, prog))
    if prog is None:
        return plain_node(root, out.data, False, steps)
    return backward(root, out.data, False, prog)


def made_now(root):
    """The Straight of the graph under `root` (schedule.made_now), or None."""
    steps = schedule.made_now(root)
    return None if steps is None else Straight(steps)


def backward(root, like, retain_graph, prog):
    """`out.backward()` for the output of the node `root` (values `like`) through the
    Straight `prog` of its graph's structure: its function when the pass is the common
    case it covers, else autograd.plain_node through its schedule."""
    ctx = context.current
    run = prog.run
    if run is None or retain_graph or ctx.node_watches or ctx.leaf_hooks or like.ndim:
        if run is None and not retain_graph and prog.uses <= MAKE_AT:
            prog.uses += 1
            if prog.uses > MAKE_AT or prog.uses == 2:  # (then made once: None stays None)
                prog.run = _make(root, prog.steps, prog.uses > MAKE_AT)
        return plain_node(root, like, retain_graph, prog.steps)
    g = _ONES.get(like.dtype)
    if g is None:  # (the shared head gradient is made by plain_node)
        return plain_node(root, like, retain_graph, prog.steps)
    prev = ctx.grad_enabled
    ctx.grad_enabled = False
    try:
        run(root, g, observe.start_flow(len(prog.steps)), observe.FLOW_SMALL)
    finally:
        ctx.grad_enabled = prev
    return None


#: a pass's leaves' gradients taken instead of stored (`backward_taking`): [the ids of the
#: leaves wanted, what was taken]
_TAKE: list = [None, None]


def backward_taking(root, like, prog, wanted):
    """`backward` (retain_graph False) whose leaves' gradients, when they are whole sums
    made together for exactly the leaves whose ids are in `wanted`, none of which has a
    .grad (`_flush_each`), are not stored but returned: (the leaves, their values as
    Python floats, the dtype, {id(leaf): value}), which `give` stores as the pass would
    have; else None (the pass stored them, or any other gradients, as `backward`)."""
    _TAKE[0] = wanted
    try:
        backward(root, like, False, prog)
        return _TAKE[1]
    finally:
        _TAKE[0] = _TAKE[1] = None


def give(taken):
    """Store the gradients `backward_taking` took, as `_flush_each` stores them."""
    leaves, values, dtype, _ = taken
    for p, v in zip(leaves, values):
        p.grad = Tensor(np.array(v, dtype))


def _make(root, steps, build=True):
    """The function of the graph under `root` for its schedule `steps` (None if its code
    is not kept and not `build`)."""
    walked = []
    schedule._structure(root, walked)
    if not walked or len(walked) > MAX_NODES:
        return None
    sent = _sent(walked, steps)
    key = (steps, sent, tuple(type(n).holds_saved for n in walked))  # (what the tree says)
    code = _CODE.get(key)
    if code is None:
        code = straight_code.read(key)  # (a code made by an earlier run)
        if code is None:
            if not build:
                return None
            module_tree = _tree(walked, steps, sent)
            # a tree built here from the schedule's numbers, never a text
            code = compile(module_tree, "<backward>", "exec")
            straight_code.write(key, code)
        if len(_CODE) >= _KEEP:
            _CODE.clear()
        _CODE[key] = code
    space = dict(_SPACE)
    space["steps"] = steps
    space.update((f"D{k}", n.out_dtype) for k, n in enumerate(walked))
    space.update((f"F{x}", step[2]) for x, step in enumerate(steps))
    (made,) = [c for c in code.co_consts if isinstance(c, CodeType)]
    return FunctionType(made, space)


def _to_leaves(steps):
    """(node position, input slot) of each gradient the schedule sends to a leaf, in the
    order they come: `_sent`'s, read once per schedule."""
    return tuple((k, slot) for k, routes, _, _ in steps for slot, j in routes if j < 0)


def _sent(walked, steps, to_leaves=None):
    """Per gradient the schedule sends to a leaf, in the order they come: the leaf's
    number (the leaves numbered in the order their first gradient comes); `to_leaves`:
    the schedule's `_to_leaves`, if kept."""
    leaves: dict = {}
    number = leaves.setdefault
    return tuple(
        [
            number(id(walked[k].parents[slot]), len(leaves))
            for k, slot in to_leaves or _to_leaves(steps)
        ]
    )


# the few forms of Python's tree the function is made of (each placed at line 1: its
# errors' tracebacks name the function, not a line)
_PLACE = {"lineno": 1, "col_offset": 0}


def _e(cls, *args):
    return cls(*args, **_PLACE)


def _n(name):
    return _e(ast.Name, name, ast.Load())


def _to(name):
    return _e(ast.Name, name, ast.Store())


def _at(value, attr, store=False):
    return _e(ast.Attribute, value, attr, ast.Store() if store else ast.Load())


def _call(f, *args):
    return _e(ast.Call, _n(f) if type(f) is str else f, list(args), [])


def _k(v):
    return _e(ast.Constant, v)


def _is(a, b, op=ast.Is):
    return _e(ast.Compare, a, [op()], [b])


def _item(value, i):
    return _e(ast.Subscript, value, _k(i), ast.Load())


def _set(target, value):
    return _e(ast.Assign, [_to(target) if type(target) is str else target], value)


def _if(test, body, orelse=()):
    return _e(ast.If, test, list(body), list(orelse))


def _tree(walked, steps, sent):  # noqa: C901 (one writer of the function's statements)
    """The tree of a module defining `run(n0, g, flow, small)` for the graph `walked`
    (the nodes in the walk's order, the root first), its schedule and `sent` (`_sent`).
    Node k's gradient
    waits in `wk` (the root's is g), the m-th gradient sent to a leaf in `cm` and that
    leaf in `lx` (x: the leaves numbered in the order their first gradient comes); `lt`
    says that one of them is a whole sum left for later.  In Python, a step is:

        at = 3                              # (the step's position, for a failure)
        if w3 is not None:
            n3.fpass = fno
            frec[id(n3)] = w3 if w3.size <= small else w3.shape
            if type(w3) is EZ:
                r = zstep(n3, w3, F3, False, bumped, ep)
            else:
                s = n3.saved
                if s:
                    if bumped and getattr(n3, "epoch", None) != ep:
                        check(n3)
                    r = n3.backward(w3, F3, *s)
                    n3.saved = n3.saved_src = None
                elif s is None:
                    raise GradRuntimeError(SECOND)
                else:
                    r = n3.backward(w3, F3)
            x = r[0]                        # to node 4
            if x is not None:
                if x.dtype is not D4 and x.dtype != D4:
                    x = cast(x, D4)
                w4 = x                      # (or: x if w4 is None else add(w4, x))
            l0 = n3.parents[1]              # to a leaf
            c0 = r[1]
            r = x = None
            w3 = None
    """
    later = any(step[2] is LaterF for step in steps)
    leaves = range(max(sent) + 1 if sent else 0)
    head = [
        _e(ast.Assign, [_e(ast.Tuple, [_to("fno"), _to("frec")], ast.Store())], _n("flow")),
        _set("vs", _n("vstate")),
        _set("bumped", _at(_n("vs"), "bumped")),
        _set("ep", _at(_n("vs"), "epoch")),
    ]
    head += [_set(f"w{k}", _k(None)) for k in range(1, len(walked))]
    head += [_set(f"c{m}", _k(None)) for m in range(len(sent))]
    head += [_set(f"l{x}", _k(None)) for x in range(len(leaves))]
    if later:
        head.append(_set("lt", _k(False)))
    head.append(_set("at", _k(0)))
    body = []
    found = {0}  # nodes bound to a local
    sends = set()  # nodes sent a gradient so far
    m = 0
    for x, (k, routes, F, through) in enumerate(steps):
        node = walked[k]
        if k not in found:  # (bound before its step, through a consumer's parents)
            i, slot = _finder(walked, k, found)
            body.append(_set(f"n{k}", _item(_at(_n(f"n{i}"), "parents"), slot)))
            found.add(k)
        if x:
            body.append(_set("at", _k(x)))
        n, w, f = _n(f"n{k}"), _n("g" if k == 0 else f"w{k}"), _n(f"F{x}")
        step = [
            _e(ast.Assign, [_at(n, "fpass", True)], _n("fno")),
            _e(
                ast.Assign,
                [_e(ast.Subscript, _n("frec"), _call("id", n), ast.Store())],
                _e(ast.IfExp, _is(_at(w, "size"), _n("small"), ast.LtE), w, _at(w, "shape")),
            ),
        ]
        zeros = _set("r", _call("zstep", n, w, f, _k(through), _n("bumped"), _n("ep")))
        if through:
            run = [_set("r", _e(ast.Tuple, [w, w], ast.Load()))]
        else:
            saved = [
                _if(
                    _e(
                        ast.BoolOp,
                        ast.And(),
                        [
                            _n("bumped"),
                            _is(_call("getattr", n, _k("epoch"), _k(None)), _n("ep"), ast.NotEq),
                        ],
                    ),
                    [_e(ast.Expr, _call("check", n))],
                ),
                _set(
                    "r",
                    _call(_at(n, "backward"), w, f, _e(ast.Starred, _n("s"), ast.Load())),
                ),
                _e(ast.Assign, [_at(n, "saved", True), _at(n, "saved_src", True)], _k(None)),
            ]
            unsaved = [_set("r", _call(_at(n, "backward"), w, f))]
            if type(node).holds_saved:
                unsaved.append(_e(ast.Assign, [_at(n, "saved", True)], _k(None)))
            run = [
                _set("s", _at(n, "saved")),
                _if(
                    _n("s"),
                    saved,
                    [
                        _if(
                            _is(_n("s"), _k(None)),
                            [_e(ast.Raise, _call("GradRuntimeError", _n("SECOND")), None)],
                            unsaved,
                        )
                    ],
                ),
            ]
        step.append(_if(_is(_call("type", w), _n("EZ")), [zeros], run))
        for slot, j in routes:
            if j < 0:  # a leaf: its gradient waits for the end of the pass
                step.append(_set(f"l{sent[m]}", _item(_at(n, "parents"), slot)))
                step.append(_set(f"c{m}", _item(_n("r"), slot)))
                if F is LaterF:
                    step.append(
                        _if(_is(_call("type", _n(f"c{m}")), _n("Later")), [_set("lt", _k(True))])
                    )
                m += 1
                continue
            sent_on = []
            if F is LaterF:  # (a whole sum left for later, sent to a node: made now)
                made = _call("sum_to", _call(_at(_n("x"), "values")), _e(ast.Tuple, [], ast.Load()))
                sent_on.append(_if(_is(_call("type", _n("x")), _n("Later")), [_set("x", made)]))
            dt = _at(_n("x"), "dtype")
            sent_on.append(
                _if(
                    _e(
                        ast.BoolOp,
                        ast.And(),
                        [_is(dt, _n(f"D{j}"), ast.IsNot), _is(dt, _n(f"D{j}"), ast.NotEq)],
                    ),
                    [_set("x", _call("cast", _n("x"), _n(f"D{j}")))],
                )
            )
            wj = _n(f"w{j}")
            if j in sends:
                sum_ = _e(ast.IfExp, _is(wj, _k(None)), _n("x"), _call("add", wj, _n("x")))
                sent_on.append(_set(f"w{j}", sum_))
            else:
                sent_on.append(_set(f"w{j}", _n("x")))
                sends.add(j)
            step.append(_set("x", _item(_n("r"), slot)))
            step.append(_if(_is(_n("x"), _k(None), ast.IsNot), sent_on))
        step.append(_e(ast.Assign, [_to("r"), _to("x")], _k(None)))
        if k:
            step.append(_set(f"w{k}", _k(None)))
            step = [_if(_is(w, _k(None), ast.IsNot), step)]
        body += step
    pairs = _e(
        ast.Tuple,
        [_e(ast.Tuple, [_n(f"l{sent[m]}"), _n(f"c{m}")], ast.Load()) for m in range(len(sent))],
        ast.Load(),
    )
    failed = _call(
        "failed", _n("n0"), _n("g"), _n("steps"), _n("at"), pairs, _n("lt") if later else _k(False)
    )
    tail = []
    if later:  # (the sums left for later made together: schedule.flush)
        flush = "flush_each" if len(set(sent)) == len(sent) else "flush"
        tail.append(_if(_n("lt"), [_e(ast.Expr, _call(flush, pairs)), _e(ast.Return, None)]))
    for x in range(len(leaves)):  # each leaf's gradients added up, into its .grad
        ms = [m for m in range(len(sent)) if sent[m] == x]
        if len(ms) == 1:
            into = _call("into", _n(f"l{x}"), _n(f"c{ms[0]}"), _k(False))
            tail.append(_if(_is(_n(f"c{ms[0]}"), _k(None), ast.IsNot), [_e(ast.Expr, into)]))
        else:
            gs = _e(ast.Tuple, [_n(f"c{m}") for m in ms], ast.Load())
            tail.append(_e(ast.Expr, _call("total", _n(f"l{x}"), gs)))
    handler = _e(
        ast.ExceptHandler, _n("BaseException"), None, [_e(ast.Expr, failed), _e(ast.Raise)]
    )
    args = ast.arguments([], [_e(ast.arg, a) for a in ("n0", "g", "flow", "small")], None, [], [])
    args.kw_defaults, args.defaults = [], []
    fn = _e(
        ast.FunctionDef,
        "run",
        args,
        [*head, _e(ast.Try, body, [handler], [], []), *tail],
        [],
        None,
        None,
    )
    return ast.Module([fn], [])


def _finder(walked, k, found):
    """(a bound node whose parents include node k, the slot)."""
    for i in sorted(found):
        for slot, p in enumerate(walked[i].parents):
            if p is walked[k]:
                return i, slot
    raise AssertionError("a node reached before its consumers")


def _step(node, g, F, through, bumped, ep):
    """A node's step for a gradient that is efficient zeros (autograd._pass's)."""
    if node.zeros_through is not True:
        g = np.zeros(g.shape, g.dtype)  # (plain zeros, as the kernel sees them)
    saved = node.saved
    if through:
        in_grads = (g, g)
    elif saved:
        if bumped and getattr(node, "epoch", None) != ep:
            versions.check(node)
        in_grads = node.backward(g, F, *saved)
        node.saved = node.saved_src = None
    elif saved is None:
        raise GradRuntimeError(SECOND_BACKWARD)
    else:
        in_grads = node.backward(g, F)
        node.saved = None if node.holds_saved else saved
    return spread(node, in_grads)


def _more(leaf, prev, x):
    """A leaf's gradients added up as passes.deliver_leaves adds them (each in the
    leaf's dtype, in the order they came)."""
    dt = leaf.data.dtype
    if prev.dtype != dt:
        prev = prev.astype(dt)
    if x.dtype != dt:
        x = x.astype(dt)
    return np.add(prev, x)


def _into(leaf, g, new):
    """A leaf's gradient into its .grad, as passes._deliver stores it (`new`: an array
    the pass made, which may become .grad as it is); the common case (a .grad of the
    leaf's dtype and shape to add to in place) without its calls.  A gradient that no
    one but the caller's variable holds (an array of its own data, by CPython's
    reference count: `_ALONE`) is new too, as AccumulateGrad takes a gradient whose
    use_count is 1 as .grad without a copy (after `w.grad = None` or `zero_grad()`)."""
    old = leaf.grad
    if old is not None and type(g) is np.ndarray and old.grad_fn is None:
        d = leaf.data
        od = old.data
        dt = d.dtype
        if g.dtype == dt and od.dtype == dt and g.shape == d.shape and od.flags.writeable:
            np.add(od, g, od)  # (into .grad's array; one dtype: no cast)
            return
    if type(g) is not np.ndarray:
        return _deliver(((leaf, g),), {}, _store_grad, True if new else ())
    if not new and g.flags.writeable:
        b = g.base
        if b is None:
            new = getrefcount(g) == _ALONE[0]
        elif type(b) is np.ndarray and b.base is None:  # (a view: its owner held by it alone)
            new = getrefcount(g) == _ALONE[0] and getrefcount(b) == _ALONE[1]
    if old is None:  # (_deliver's first case for a leaf and gradient of one dtype, in C order)
        d = leaf.data
        if g.dtype is d.dtype and g.shape == d.shape and g.flags.c_contiguous:
            if d.flags.c_contiguous:
                leaf.grad = Tensor(g if new else g.copy())
                return
    _deliver(((leaf, g),), {}, _store_grad, True if new else ())


def _held(g):
    """The reference counts `_into` reads, in a frame called as it is (g its argument):
    (g's, g's base's as a local variable)."""
    b = g.base
    return getrefcount(g), getrefcount(b)


def _calibrated():
    """`_held`'s counts for a view only its caller's variable holds, of an array only the
    view holds (CPython's counts of a frame's own references differ between versions)."""
    g = np.empty(2)[1:]
    return _held(g)


#: the counts `_into` sees for a gradient no one else holds: (the array's, its owner's)
_ALONE = _calibrated()


def _total(leaf, gs):
    """A leaf's gradients `gs` (None: none came) added up in the order they came and
    stored into its .grad, as passes.deliver_leaves does."""
    a = None
    new = False
    for x in gs:
        if x is None:
            continue
        if a is None:
            a = x
        else:
            a = _more(leaf, a, x)
            new = True
    if a is not None:
        _into(leaf, a, new)


def _failed(root, g, steps, at, pairs, later):
    """A pass that failed at steps[at]: the leaves that no unfinished node still owed a
    gradient get theirs (autograd._pass's failure: passes.finished_leaves)."""
    queue = finished_leaves(
        [p for p in pairs if p[1] is not None], schedule.unfinished((root, g, steps), steps[at])
    )
    if later:
        schedule.flush(queue, {}, _store_grad)
    elif queue:
        deliver_leaves(queue, {}, _store_grad)


def _flush(pairs):
    """The leaves' gradients of a pass in which a whole sum was left for later: into
    their .grad through schedule.flush, as the backward loop delivers them."""
    schedule.flush([p for p in pairs if p[1] is not None], {}, _store_grad)


def _flush_each(pairs):
    """_flush for a pass whose gradients each go to a leaf of their own (the tree says
    so): when every one is a whole sum left for later and its leaf, a 0-d tensor of the
    sum's dtype, has no .grad yet (a training step after `w.grad = None`), the sums made
    together become the leaves' .grad as they are, as passes._deliver's first case makes
    them (a new 0-d array obeys the layout contract); else _flush."""
    gs = []
    cs = []
    for p, ig in pairs:
        if type(ig) is not Later or p.grad is not None:
            return _flush(pairs)
        d = p.data
        if d.shape or d.dtype is not ig.g.dtype:
            return _flush(pairs)
        gs.append(ig.g)
        cs.append(ig.c)
    g = gs[0]
    dtype = g.dtype
    if MID_MIN <= g.size <= GRAIN:
        if all(x is g for x in gs):  # (one gradient, each leaf's factor: Add hands it on)
            got = sum_rows.compiled_one(g, cs)
        else:
            got = sum_rows.compiled(gs, cs, g.size, dtype)
        if got is not None:  # (a value of the dtype as a Python float: exact)
            if not _taken(pairs, got.tolist(), dtype):
                for (p, _), v in zip(pairs, got.tolist()):
                    p.grad = Tensor(np.array(v, dtype))
            return None
    got = sum_rows.torch_sums(gs, cs)
    if any(ig.g.dtype is not dtype for _, ig in pairs) or not _taken(
        pairs, [float(v) for v in got], dtype
    ):
        for (p, ig), v in zip(pairs, got):
            p.grad = Tensor(np.asarray(v, ig.g.dtype))  # (as schedule.flush makes it)
    return None


def _taken(pairs, values, dtype):
    """Whether the leaves' gradients `values` (Python floats, exact in `dtype`) went to
    `backward_taking` (_TAKE: it wants exactly these leaves) instead of into .grad."""
    wanted = _TAKE[0]
    if wanted is None or len(pairs) != len(wanted):
        return False
    by_id = {}
    for (p, _), v in zip(pairs, values):  # (each leaf once: the tree's)
        i = id(p)
        if i not in wanted:
            return False
        by_id[i] = v
    _TAKE[1] = (tuple([p for p, _ in pairs]), values, dtype, by_id)
    return True


_SPACE = {
    "__builtins__": {"type": type, "id": id, "getattr": getattr, "BaseException": BaseException},
    "vstate": versions.state,
    "check": versions.check,
    "EZ": EfficientZeros,
    "zstep": _step,
    "GradRuntimeError": GradRuntimeError,
    "SECOND": SECOND_BACKWARD,
    "Later": Later,
    "sum_to": sum_to,
    "cast": _cast,
    "add": np.add,
    "more": _more,
    "into": _into,
    "failed": _failed,
    "total": _total,
    "flush": _flush,
    "flush_each": _flush_each,
    "store": _store_grad,
}
