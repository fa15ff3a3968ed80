"""The reverse-mode engine: `backward` and `autograd.grad` over a graph of nodes
(engine/function.py's `Function`), and where gradients land (a leaf's `.grad`).

Each node's `backward` runs in one of two modes: fast (`F` is `ArrayF`, plain
ndarrays) or create_graph (`F` is `TensorF`, every step itself recorded, so
gradients can be differentiated again).  The graph is walked without recursion.
"""

from __future__ import annotations


import contextlib
import itertools

import numpy as np

from .declare import none
from ..runtime.errors import GradRuntimeError
from ..core import tangents as tan
from ..core.tensor import Tensor
from ..core.layout import grad_array
from .hooks import begin_pass, end_pass, noted, run_hooks, run_node_post, run_node_pre
from ..runtime import context
from . import kept, modes, observe, schedule, versions, zero_grads
from .zero_grads import EfficientZeros, is_zeros, spread
from .piece_grads import PieceGrad, gather
from .function import _OUT, FUNCTIONS, TensorF, Function
from .vjp_arrays import ArrayF, sum_to
from .passes import (
    SECOND_BACKWARD,
    ReadyQueue,
    as_grad,
    count_deps,
    deliver_leaves,
    finished_leaves,
    seq,
)
from .schedule import Later

_FRESH: dict = {}  # id(leaf) -> (sum, .grad) stored by the running create_graph backward


class CopyGrad(Function):
    """The copy a leaf's .grad gets under backward(create_graph=True)."""

    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )

    __slots__ = ()
    name = "CopyBackwards"
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def forward(self, x):
        return x.copy()

    def backward(self, g, F):
        return (g,)

    def jvp(self, ts, F):
        return type(self).apply(ts[0])


class CloneGrad(CopyGrad):
    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )
    __slots__ = ()
    name = "CloneBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")


# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------


def _accumulate(a, b, create_graph):
    if create_graph:
        return _add_tensors(a, b)
    return np.add(a, b)  # (efficient zeros, -0.0, leave the other as it is)


def run_backward(
    outputs,
    grad_outputs,
    retain_graph=False,
    create_graph=False,
    inputs=None,
    allow_unused=False,
    accumulate=False,
):
    """Propagate gradients from `outputs` to the leaves.

    With `inputs` None, gradients are accumulated into each leaf's `.grad` (and
    into non-leaves that called `retain_grad()`); the leaves whose `.grad`
    changed are returned in creation order.  With `inputs` given (autograd.grad),
    nothing's `.grad` is touched and the gradients of `inputs` are returned;
    with `accumulate` too (backward(inputs=...)), they are accumulated into the
    `.grad` of those inputs only, which are returned as without `inputs`."""
    if inputs is None and not create_graph and len(outputs) == 1 and grad_outputs[0] is None:
        out = outputs[0]
        if _plain(out):
            return _in_creation_order(_plain_root(out, retain_graph))  # out.backward()
    heads = []
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):  # every given gradient first
        if isinstance(out, Tensor) and (out.requires_grad or g is not None):
            heads.append((out, as_grad(g, out.data, create_graph, i)))
    for i, out in enumerate(outputs):
        if not isinstance(out, Tensor) or not out.requires_grad:
            raise GradRuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )

    # targets for autograd.grad: leaf tensor or node -> slot index
    capture = results = None
    if inputs is not None:
        capture = {}
        for i, t in enumerate(inputs):
            if not isinstance(t, Tensor) or not t.requires_grad:
                raise GradRuntimeError("One of the differentiated Tensors does not require grad")
            capture[t.grad_fn if t.grad_fn is not None else t] = i
        results = [None] * len(inputs)

    grads = {}
    touched = {}
    roots = []
    held = (
        {} if context.current.leaf_hooks else None
    )  # gradients of leaves with hooks, summed first
    for out, g in heads:
        key = out.grad_fn if out.grad_fn is not None else out
        if type(key) is Tensor:  # backward on a leaf itself
            _deliver_leaf(
                key, g, create_graph, capture, results if capture else None, touched, held
            )
            continue
        grads[key] = _accumulate(grads[key], g, create_graph) if key in grads else g
        roots.append(key)

    if capture is not None and held is None and not create_graph and len(roots) == 1:
        steps = _grad_steps(roots[0]) if observe.active() is None else None
        if steps is not None:  # autograd.grad through its graph's schedule
            _planned_grad(roots[0], grads[roots[0]], steps, retain_graph, capture, results)
            return _finish(inputs, results, touched, accumulate, allow_unused, False)
    deps = count_deps(roots)
    ready = roots if len(roots) == 1 else [r for r in dict.fromkeys(roots) if deps[r] == 0]
    prev_mode = context.current.grad_enabled
    context.current.grad_enabled = create_graph
    res = results if capture is not None else None
    tracer = observe.active()  # (engine/observe.py: trace, flow record)
    flow = observe.start_flow(len(deps)) if capture is None and not create_graph else None
    plain = capture is None and not create_graph and held is None and tracer is None
    if held is None and not plain and not create_graph:
        held = {}  # a leaf's gradients are added up first, then delivered (as _pass's own)
    note = noted(context.current)  # (hooks can run: the pass's roots noted while it runs)
    prev_roots = begin_pass(roots) if note else ()
    try:
        if plain:  # the common case (into .grad)
            queue = ReadyQueue(ready, grads, deps, np.add, _cast)
            _pass(retain_graph, flow, touched, queue)
        else:  # hooks on leaves, autograd.grad, create_graph, the trace

            def deliver(leaf, g):
                _deliver_leaf(leaf, g, create_graph, capture, res, touched, held)

            def failed(unfinished):  # the leaves whose every consumer ran get theirs
                nonlocal held
                if held and capture is None:
                    done = finished_leaves(list(held.values()), unfinished)
                    held = {id(leaf): (leaf, g) for leaf, g in done}
                    _deliver_held(held, create_graph, capture, res, touched)

            general = _General(create_graph, capture, res, tracer, deliver, failed, roots)
            queue = ReadyQueue(ready, grads, deps, general.add, _cast, deliver, tracer)
            _pass(retain_graph, flow, touched, queue, general=general)
            if held:
                _deliver_held(held, create_graph, capture, res, touched)
    finally:
        context.current.grad_enabled = prev_mode
        _FRESH.clear()
        if note:
            end_pass(prev_roots)

    return _finish(inputs, results, touched, accumulate, allow_unused, create_graph)


def _finish(inputs, results, touched, accumulate, allow_unused, create_graph):
    """run_backward's result: with `inputs` (autograd.grad), their gradients (`results`),
    or with `accumulate` too, those added into their .grad and the leaves changed; else
    the leaves whose .grad the pass changed (`touched`)."""
    if accumulate:
        try:
            for t, r in zip(inputs, results):
                if r is not None:
                    _deliver_leaf(t, r, create_graph, None, None, touched)
        finally:
            _FRESH.clear()
    elif inputs is not None:
        for i, r in enumerate(results):
            if r is None and not allow_unused:
                raise GradRuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior."
                )
        results = [zero_grads.plain(r) for r in results]
        return tuple(r if r is None or isinstance(r, Tensor) else Tensor(r) for r in results)
    return _in_creation_order(touched)


def _grad_steps(root):
    """The schedule of autograd.grad's graph under `root` (schedule.find), inside
    `one_graph()` found once for the same root (a Jacobian's rows: one graph, a pass per
    row), else at each pass; None: the ready queue orders the pass."""
    memo = _ONE_GRAPH.memo
    if memo is None:
        return schedule.find(root)
    hit = memo.get("steps")
    if hit is not None and hit[0] is root:
        return hit[1]
    steps = schedule.find(root)
    if steps is not None:
        memo["steps"] = (root, steps)
    return steps


def _planned_grad(root, g, steps, retain_graph, capture, results):
    """autograd.grad (no create_graph, no hooks on leaves, no tracer) of one root through
    its schedule: the nodes run in the ready queue's order (the plan of `_pass`), only
    those leading to an input; a captured node's gradient is taken as it reaches it, a
    leaf's gradients are added up in the order they come (its input buffer) and then
    captured, into `results`."""
    held: dict = {}

    def deliver(leaf, g):
        _deliver_leaf(leaf, g, False, capture, results, None, held)

    general = _General(False, capture, results, None, deliver, _NOTHING, (root,))
    if all(type(k) is Tensor for k in capture):  # (leaves only: a node without watches
        parts = general.parts  # has nothing to capture, `_visit` nothing to do)
        general.parts = (*parts[:4], False, *parts[5:])
    ctx = context.current
    note = noted(ctx)  # (hooks can run: the pass's roots noted while it runs)
    prev_roots = begin_pass((root,)) if note else ()
    prev_mode = ctx.grad_enabled
    ctx.grad_enabled = False
    memo = _ONE_GRAPH.memo  # (a Jacobian's rows, no hooks: factors of saved values kept)
    table = memo.setdefault("kept", {}) if memo is not None and retain_graph and not note else None
    prev_table = kept.swap(table)
    try:
        _pass(retain_graph, None, {}, plan=(root, g, steps), general=general)
        if held:
            _deliver_held(held, False, capture, results, {})
    finally:
        kept.swap(prev_table)
        ctx.grad_enabled = prev_mode
        if note:
            end_pass(prev_roots)


def grad_rows(out, inputs, heads, create_graph=False, arrays=False):
    """autograd.grad of `out` for `inputs` with each head gradient of `heads` (arrays
    of out's shape and dtype) in turn, retain_graph and allow_unused: a Jacobian's rows
    (library/calculus.py), yielding each pass's tuple as run_backward gives it (with
    `arrays`, and no create_graph, their arrays: no Tensor made per row).

    Without create_graph, hooks, the tracer or an input that is not a leaf, the passes
    share what depends only on the graph: its schedule (its steps with their nodes and
    parents found once, the nodes that lead to no input left out: the ready queue passes
    them over), the inputs' slots and the factors kept of saved values (engine/kept.py);
    each pass runs the steps (`_row_pass`) as `_pass` runs a plan.  Otherwise each row is
    run_backward's own pass (inside one_graph: the nodes needed found once)."""
    heads = iter(heads)
    plan = None
    if not create_graph:
        first = next(heads, None)
        if first is None:
            return
        first = _one_row(out, inputs, first, False)  # (the graph seen: its schedule next)
        yield _as_arrays(first) if arrays else first
        plan = _row_plan(out, inputs)
    if plan is None:
        with one_graph():
            for h in heads:
                row = _one_row(out, inputs, h, create_graph)
                yield _as_arrays(row) if arrays and not create_graph else row
        return
    steps, size, capture = plan
    ctx = context.current
    prev_mode, table, dt, checked = ctx.grad_enabled, {}, out.data.dtype, None
    try:
        for h in heads:
            if h.dtype != dt:
                h = h.astype(dt)
            ctx.grad_enabled = False
            prev_table = kept.swap(table)
            try:
                # (the saved values' versions are checked at a row after an in-place op:
                # none can happen between rows, so they are checked at the first one)
                epoch = versions.state.epoch
                leaves = _row_pass(steps, size, h, checked != epoch)
                checked = epoch
            finally:
                kept.swap(prev_table)
                ctx.grad_enabled = prev_mode
            results = [None] * len(inputs)
            held: dict = {}
            for leaf, g in leaves:  # (each leaf's gradients added up in their order)
                i = capture.get(leaf)
                if i is None:
                    continue
                dt = leaf.data.dtype
                if g.dtype != dt:
                    g = g.astype(dt)
                prev = held.get(i)
                held[i] = g if prev is None else np.add(prev, g)
            for i, g in held.items():
                results[i] = zero_grads.plain(g) if arrays else g
            yield tuple(results) if arrays else _finish(inputs, results, {}, False, True, False)
    finally:
        ctx.grad_enabled = prev_mode


def _as_arrays(row):
    """A row's gradients (Tensors or None) as their arrays."""
    return tuple(None if t is None else t.data for t in row)


def _one_row(out, inputs, h, create_graph):
    return run_backward(
        [out],
        [Tensor(h)],
        retain_graph=True,
        create_graph=create_graph,
        inputs=list(inputs),
        allow_unused=True,
    )


def _row_plan(out, inputs):
    """(steps, the graph's number of nodes, {input leaf: slot}) for grad_rows' shared
    passes, or None (a pass of run_backward's own for each row): each step (position,
    node, whether it passes its gradient through, ((slot, position or -1 for a leaf,
    parent), ...))."""
    ctx = context.current
    root = out.grad_fn
    if (
        root is None
        or type(out) is not Tensor
        or observe.active() is not None
        or noted(ctx)
        or any(type(t) is not Tensor or t.grad_fn is not None for t in inputs)
    ):
        return None
    capture = {t: i for i, t in enumerate(inputs)}
    found = schedule.find(root)
    if found is None:
        return None
    walked = schedule.walk(root)
    needed = _needed_here((root,), capture)  # (the first row's, inside one_graph)
    steps = []
    for k, routes, _, through in found:
        node = walked[k]
        if node not in needed:
            continue  # (its inputs get no gradient: nothing leads from it to an input)
        parents = node.parents
        sent = tuple((slot, j, parents[slot]) for slot, j in routes)
        steps.append((k, node, through, sent))
    return steps, len(walked), capture


def _row_pass(steps, size, head, check):
    """One row of grad_rows: the steps run as `_pass` runs a plan's (no hooks, no
    capture of nodes, retain_graph, ArrayF; the saved values' versions checked if
    `check`); returns the (leaf, gradient) pairs in the order they came."""
    waiting = [None] * size
    waiting[0] = head
    leaves = []
    check = check and versions.state.bumped
    F = ArrayF
    for k, node, through, sent in steps:
        g = waiting[k]
        if g is None:
            continue
        waiting[k] = None
        zeros = type(g) is EfficientZeros
        if zeros and node.zeros_through is not True:  # (engine/zero_grads.py)
            g = np.zeros(g.shape, g.dtype)  # (plain zeros, as the kernel sees them)
        if through:
            in_grads = (g, g)
        else:
            saved = node.saved
            if saved:
                if check:
                    versions.check(node)  # (an in-place op since the node's forward?)
                in_grads = node.backward(g, F, *saved)
            elif saved is None:
                raise GradRuntimeError(SECOND_BACKWARD)
            else:
                in_grads = node.backward(g, F)
        if zeros:
            in_grads = spread(node, in_grads)
        for slot, j, p in sent:
            ig = in_grads[slot]
            if ig is None:
                continue
            if j < 0:
                leaves.append((p, ig))
                continue
            if ig.dtype is not p.out_dtype and ig.dtype != p.out_dtype:
                ig = _cast(ig, p.out_dtype)
            prev = waiting[j]
            waiting[j] = ig if prev is None else np.add(prev, ig)
    return leaves


def _NOTHING(unfinished):
    """A failed autograd.grad pass's leaves: nothing to deliver (it raises)."""


def _deliver_held(held, create_graph, capture, res, touched):
    """The leaves' summed gradients into .grad, through the leaves' hooks."""
    hooked = context.current.leaf_hooks or {}
    for leaf, g in held.values():
        entry = hooked.get(id(leaf))
        if entry is not None:
            g = run_hooks(entry[1], g, create_graph)
        _deliver_leaf(leaf, g, create_graph, capture, res, touched)
        if entry is not None and entry[2] and capture is None:
            for hook in list(entry[2]):  # register_post_accumulate_grad_hook: hook(leaf)
                hook(leaf)


def backward_out(out):
    """`out.backward()` with nothing given (a training loop's `loss.backward()`):
    run_backward((out,), (None,)) without the list of leaves it returns."""
    if _plain(out):
        _plain_root(out, False)
    else:
        run_backward((out,), (None,))


def _plain(out):
    """Whether `out.backward()` is the common case `_plain_root` runs."""
    return (
        type(out) is Tensor
        and out.grad_fn is not None
        and out.requires_grad
        and out.data.size == 1
        and plain_path()
    )


_ANOMALY_OFF = context.ANOMALY_OFF  # (the run's anomaly mode when it is off: one object)


def plain_path():
    """No tracer and no hooks on leaves: what `_plain` asks of the run besides `out`."""
    ctx = context.current
    return observe.TRACER is None and not ctx.leaf_hooks and ctx.anomaly is _ANOMALY_OFF


#: the head gradient of a 0-d floating output, by dtype: one read-only array of 1 for
#: every pass.  No VJP writes into a gradient, but a hook may (`g.mul_(2)`), and its change
#: must reach every node that shares that gradient (Add hands its own on): in a run where
#: a node got hooks or retain_grad (`context.node_watches`) each pass makes its own.
_ONES: dict = {}


def _plain_root(out, retain_graph):
    """`out.backward()` for a one-value `out` with a graph, no hooks on leaves and no
    tracer: run_backward's steps for that case, its checks made once.  Returns the
    leaves whose .grad it changed ({id: leaf})."""
    return plain_node(out.grad_fn, out.data, retain_graph)


#: `plain_node`'s steps when its caller asked schedule.find and got None (one sighting of
#: a structure counted once)
UNSCHEDULED = ()


def plain_node(root, like, retain_graph, steps=None):
    """_plain_root for the output of the node `root` with values `like`; `steps`: its
    graph's schedule when the caller has it (engine/replay.py), UNSCHEDULED when the
    caller found it has none (the ready queue), else found here."""
    shared = not like.ndim and not context.current.node_watches
    g = _ONES.get(like.dtype) if shared else None
    if g is None:
        g = as_grad(None, like, False)
        if shared and g.dtype.kind == "f":
            g.flags.writeable = False
            _ONES[g.dtype] = g
    if steps is None:
        steps = schedule.find(root)
    elif steps is UNSCHEDULED:
        steps = None
    ctx = context.current
    note = ctx.node_watches or ctx.leaf_hooks  # (hooks can run: root noted while it runs)
    prev_roots = begin_pass((root,)) if note else ()
    prev_mode = ctx.grad_enabled
    ctx.grad_enabled = False
    touched = {}
    try:
        if steps is None:  # (a graph of a structure not seen before, or too big)
            deps = count_deps((root,))
            queue = ReadyQueue([root], {root: g}, deps, np.add, _cast)
            _pass(retain_graph, observe.start_flow(len(deps)), touched, queue)
        else:
            _pass(retain_graph, observe.start_flow(len(steps)), touched, plan=(root, g, steps))
    finally:
        ctx.grad_enabled = prev_mode
        if note:
            end_pass(prev_roots)
    return touched


def _in_creation_order(touched):
    """The leaves whose .grad a pass changed ({id: leaf}), in creation order."""
    return list(touched.values()) if len(touched) < 2 else sorted(touched.values(), key=seq)


class _General:
    """What a pass does besides the common case (`_pass`): the gradients' mode
    (create_graph: Tensors recorded in a graph, F = TensorF), autograd.grad's capture
    (`capture`: node or leaf -> slot of `results`), the tracer, where a leaf's gradient
    goes (`deliver(leaf, g)`, at once; these two are the ready queue's) and what a failed
    pass does with the unfinished nodes (`failed(nodes)`)."""

    __slots__ = ("tracer", "deliver", "failed", "add", "parts")

    def __init__(self, create_graph, capture, results, tracer, deliver, failed, roots=()):
        self.tracer, self.deliver, self.failed = tracer, deliver, failed
        self.add = _add_tensors if create_graph else np.add  # (two gradients of one node)
        self.parts = (  # what the loop reads of it
            create_graph,
            capture,
            results,
            _saved_tensors if create_graph else None,  # (saved values as Tensors)
            create_graph or capture is not None,  # (every node visited)
            TensorF if create_graph else ArrayF,  # (the VJPs' namespace)
            # (with inputs given, only the nodes on a path to one of them run, as in
            # PyTorch's engine: the others keep their saved values)
            None if capture is None else _needed_here(roots, capture),
        )


def _pass(retain_graph, flow, touched, queue=None, plan=None, general=None):  # noqa: C901
    # (one loop, each step written once: a call per step costs)
    """The backward loop: each node runs its step in PyTorch's engine's order (of the
    nodes whose gradient is complete, the one made last runs first), which comes from
    one of two places:

    * `queue`, a passes.ReadyQueue: the engine's ready queue, asked for the next node
      after each step (`queue.next(node, in_grads)` also sends the step's gradients
      where they go);
    * `plan`, (root node, its gradient, steps): a schedule (engine/schedule.py), the same
      order written down once for the graph's structure, with where each node's input
      gradients go (a position in the plan, or a leaf), the `F` its backward gets and
      whether it passes its gradient through (schedule.made_now).  The loop walks it
      itself, the gradients waiting in a list by position, each node reached through
      its consumer's parents.  Only for the common case.

    Either way each node's step is the same: the flow record, its hooks and
    retain_grad (`_visit`), its backward with its saved values (checked against their
    versions, then freed unless retain_graph: a second pass fails; efficient zeros kept
    or made plain by the node's zeros_through; with autograd.grad's inputs, only the
    nodes leading to one of them run), its post hooks.  A leaf's gradients are added up
    first, in the order they come, and then
    into its .grad (its AccumulateGrad's input buffer: passes.deliver_leaves; a plan's
    whole sums left for later are made then, all at once: schedule.flush).

    `general` None is the common case (into .grad, no create_graph, no leaf hooks, no
    tracer).  Otherwise `_General` says what else runs: every node is visited
    (`_visit`: hooks, capture, create_graph's check); the queue's tracer sees each step
    and a leaf's gradient goes to its `deliver`."""
    small = observe.FLOW_SMALL
    fno, frec = flow if flow is not None else (None, None)
    m = _COMMON if general is None else general
    create_graph, capture, results, unpack, visit_all, F, needed = m.parts
    vstate = versions.state
    through = later = False
    # (the common case: the pieces of split/chunk/unbind gathered, engine/piece_grads.py)
    gathered: dict | None = {} if general is None else None
    if queue is None:  # a plan: the gradients waiting and their nodes, by position
        node, g, steps = plan
        waiting, nodes = [None] * len(steps), [None] * len(steps)
        waiting[0], nodes[0] = g, node
        nxt, leaves = None, []
    else:  # (the queue's steps are not written down: it gives each next node)
        node, g = queue.first()
        steps, nxt, leaves = _ASK, queue.next, queue.leaves
        # (a chain of nodes that scale a 0-d gradient by a number: run as one loop)
        scaled = queue.scaled if general is None else None
    step = None
    try:
        for step in steps:
            if step is not None:  # (a plan's step: its node, if a gradient reached it)
                k, routes, F, through = step
                g = waiting[k]
                if g is None:
                    continue
                waiting[k] = None
                node = nodes[k]
            elif node is None:  # (the queue has no node left)
                break
            if type(g) is PieceGrad:  # (the pieces' array: a plain one from here on)
                g = g.view(np.ndarray)
            if frec is not None:
                node.fpass = fno
                frec[id(node)] = g if g.size <= small else g.shape
            if node.watch is not None or visit_all:
                g = _visit(node, g, capture, results, create_graph)
            saved = node.saved
            zeros = type(g) is EfficientZeros
            if zeros:  # (engine/zero_grads.py: kept where PyTorch's kernel keeps them)
                gz = g
                if node.zeros_through is not True:
                    g = np.zeros(g.shape, g.dtype)  # (plain zeros, as the kernel sees them)
            if needed is not None and node not in needed:
                in_grads = (None,) * len(node.parents)  # (leads to no input: not run)
            elif through:  # (a node that saves nothing: its backward's result)
                in_grads = (g, g)
            elif saved:
                if vstate.bumped and getattr(node, "epoch", None) != vstate.epoch:
                    versions.check(node)  # (an in-place op since the node's forward)
                in_grads = node.backward(g, F, *(saved if unpack is None else unpack(node)))
                if not retain_graph:
                    node.saved = node.saved_src = None
            elif saved is None:
                raise GradRuntimeError(SECOND_BACKWARD)
            elif node.cut_piece and gathered is not None and node.watch is None:
                in_grads = gather(node, g, gathered)
            else:
                in_grads = node.backward(g, F)
                # (what PyTorch keeps outside the saved values, freed with them)
                node.saved = None if node.holds_saved and not retain_graph else saved
            if zeros:  # zeros in, zeros out, for the inputs that keep them
                in_grads, g = spread(node, in_grads), gz
            if node.watch is not None and node.watch.post:
                in_grads = run_node_post(node, g, in_grads, create_graph)
            if step is None:  # (the queue: the tracer, then the next node)
                node, g = nxt(node, g, in_grads)
                if scaled is not None and node is not None and node.grad_factor is not None:
                    node, g = scaled(node, g, retain_graph, flow)
                continue
            parents = node.parents  # (where the plan sends its input gradients)
            for slot, j in routes:
                ig = in_grads[slot]
                if ig is None:
                    continue
                if j < 0:  # a leaf
                    leaves.append((parents[slot], ig))
                    later = later or type(ig) is Later
                    continue
                p = parents[slot]
                if type(ig) is Later:  # (a whole sum left for later: made now)
                    ig = sum_to(ig.values(), ())
                if ig.dtype is not p.out_dtype and ig.dtype != p.out_dtype:
                    ig = _cast(ig, p.out_dtype)  # (as _deliver_leaf)
                prev = waiting[j]
                if prev is None:
                    waiting[j] = ig
                    nodes[j] = p
                else:
                    waiting[j] = np.add(prev, ig)
    except BaseException:
        unfinished = queue.unfinished(node) if plan is None else schedule.unfinished(plan, step)
        m.failed(unfinished)
        leaves[:] = finished_leaves(leaves, unfinished)
        raise
    finally:
        if general is not None and plan is not None:  # (autograd.grad's leaves: captured)
            for leaf, ig in schedule.resolved(leaves) if later else leaves:
                general.deliver(leaf, ig)
        elif later:
            schedule.flush(leaves, touched, _store_grad)
        elif leaves:
            deliver_leaves(leaves, touched, _store_grad)


class _OneGraph:
    """While `one_graph()` is open: the last `_needed` found, with the roots and captured
    keys it was found for (held, so no identity is reused meanwhile)."""

    __slots__ = ("memo",)

    def __init__(self):
        self.memo = None


_ONE_GRAPH = _OneGraph()


@contextlib.contextmanager
def one_graph():
    """Passes of autograd.grad over one graph, one after another (a Jacobian's rows:
    library/calculus.py): the nodes that lead to the inputs (`_needed`) are found once
    for the same roots and inputs, not at every pass.  A node's parents are set when it
    is made and never change, so what leads from the same roots to the same inputs is
    the same; what the memo holds is let go when the block ends."""
    prev = _ONE_GRAPH.memo
    _ONE_GRAPH.memo = {}
    try:
        yield
    finally:
        _ONE_GRAPH.memo = prev


def _needed_here(roots, capture):
    """_needed(roots, capture), found once per roots and inputs inside `one_graph()`."""
    memo = _ONE_GRAPH.memo
    if memo is None:
        return _needed(roots, capture)
    keys = tuple(capture)
    hit = memo.get("last")
    if (
        hit is not None
        and len(hit[0]) == len(roots)
        and len(hit[1]) == len(keys)
        and all(a is b for a, b in zip(hit[0], roots))
        and all(a is b for a, b in zip(hit[1], keys))
    ):
        return hit[2]
    needed = _needed(roots, capture)
    memo["last"] = (tuple(roots), keys, needed)
    return needed


def _needed(roots, capture):
    """The nodes that lead to an input of autograd.grad (a node or a leaf in `capture`):
    the nodes found from `roots`, each after its parents (without recursion), needed
    when a parent is captured or needed."""
    seen, post = set(), []
    for r in roots:
        if type(r) is Tensor or r in seen:
            continue
        seen.add(r)
        stack = [(r, iter(r.parents))]
        while stack:
            node, parents = stack[-1]
            for p in parents:
                if p is not None and type(p) is not Tensor and p not in seen:
                    seen.add(p)
                    stack.append((p, iter(p.parents)))
                    break
            else:
                stack.pop()
                post.append(node)
    needed = set()  # (a captured node itself runs only when it leads to another input)
    for node in post:
        if any(
            p is not None and (p in capture or (type(p) is not Tensor and p in needed))
            for p in node.parents
        ):
            needed.add(node)
    return needed


#: the steps of a pass the ready queue orders: none written down (each next node is asked
#: of the queue after a step)
_ASK = itertools.repeat(None)


def _add_tensors(a, b):
    """Two gradients added as create_graph adds them (a recorded op; efficient zeros
    are skipped, as PyTorch's input buffers skip them)."""
    if is_zeros(b):
        return a
    if is_zeros(a):
        return b
    return a + b


def _cast(g, dtype):
    """A gradient in its node's output dtype (PyTorch's engine casts it)."""
    return FUNCTIONS["to"](g, dtype) if type(g) is Tensor else g.astype(dtype)


#: the common case of `_pass` (general None): its own leaves only (`leaves`)
_COMMON = _General(False, None, None, None, None, lambda unfinished: None)


def nested_backward(node, g, F):
    """A node's backward run inside another node's (CopySlices runs its in-place op's
    node, as PyTorch's does): its saved values checked against their versions, given as
    Tensors of the graph under create_graph, and kept (the node running it is the one
    freed, so a second pass fails there)."""
    saved = node.saved
    if saved is None:
        raise GradRuntimeError(SECOND_BACKWARD)
    if not saved:
        return node.backward(g, F)
    if versions.state.bumped:
        versions.check(node)
    return node.backward(g, F, *(_saved_tensors(node) if F.tensor_mode else saved))


def _saved_tensors(node):
    """A node's saved values as Tensors connected to the graph (create_graph)."""
    return [_saved_tensor(node, s, src) for s, src in zip(node.saved, node.saved_src)]


def _visit(node, g, capture, results, create_graph):
    """What a node's gradient does besides flowing on: the hooks of its tensor run
    (their result replaces it), autograd.grad captures it, retain_grad() stores it;
    create_graph checks the node can be differentiated.  Returns the gradient."""
    w = node.watch
    if w is not None and w.hooks:
        g = run_hooks(w.hooks, zero_grads.plain(g), create_graph)
    if w is not None and w.pre:
        g = run_node_pre(node, g, create_graph)
    if capture is not None:
        i = capture.get(node)
        if i is not None:
            results[i] = g
    elif w is not None and w.retain:
        t = w.ref()
        if t is not None:
            _store_grad(t, g, create_graph)
    if create_graph and not node.differentiable_twice:
        raise GradRuntimeError(
            f"{node.name} cannot be differentiated twice: create_graph=True is not "
            "supported through this op"
        )
    return g


def _deliver_leaf(leaf, g, create_graph, capture, results, touched, held=None):
    dt = leaf.data.dtype  # PyTorch's engine casts a gradient to its input's dtype first
    if type(g) is Tensor:
        if g.data.dtype != dt:
            g = FUNCTIONS["to"](g, dt)
    elif g.dtype != dt:
        g = g.astype(dt)
    if held is not None and (not create_graph or id(leaf) in context.current.leaf_hooks):
        # summed first (PyTorch's AccumulateGrad input buffer); hooks see the sum
        prev = held.get(id(leaf))
        held[id(leaf)] = (leaf, g if prev is None else _accumulate(prev[1], g, create_graph))
        return
    if capture is not None:
        i = capture.get(leaf)
        if i is not None:
            results[i] = g if results[i] is None else _accumulate(results[i], g, create_graph)
        return
    _store_grad(leaf, g, create_graph)
    touched[id(leaf)] = leaf


def _store_grad(t, g, create_graph):
    """Accumulate `g` into `t.grad`, cast to t's dtype, in place when PyTorch would."""
    dt = t.data.dtype
    if create_graph:
        if not isinstance(g, Tensor):
            g = Tensor(g)
        if g.data.dtype != dt:
            g = FUNCTIONS["to"](g, dt)
        if g.data.shape != t.data.shape:
            g = Tensor(np.broadcast_to(g.data, t.data.shape).copy()) if not g.requires_grad else g
        # PyTorch sums a leaf's incoming gradients first and stores a copy of the sum
        fresh = _FRESH.get(id(t))
        if fresh is not None and t.grad is fresh[1]:
            g = _add_tensors(fresh[0], g)  # (the leaf's input buffer skips efficient zeros)
        elif t.grad is not None:
            t.grad = t.grad + zero_grads.plain(g)  # (.grad + zeros: -0. becomes 0.)
            return
        g = zero_grads.plain(g)
        if g.requires_grad:  # a retained non-leaf gets a clone instead
            t.grad = (CopyGrad if t.grad_fn is None else CloneGrad).apply(g)
        else:
            t.grad = g
        _FRESH[id(t)] = (g, t.grad)
        return
    g = zero_grads.plain(g)  # (.grad + zeros: -0. becomes 0.)
    if g.shape != t.data.shape:
        g = np.broadcast_to(g, t.data.shape)
    old = t.grad
    if old is None:
        t.grad = Tensor(grad_array(g, t.data, dt))
    elif old.grad_fn is None and old.data.flags.writeable and old.data.dtype == dt:
        np.add(old.data, g, out=old.data, casting="unsafe")
    elif old.grad_fn is not None and old.data.flags.writeable and old.data.dtype == dt:
        # a .grad made by create_graph: PyTorch adds in place (grad mode is off), so it
        # keeps its grad_fn (CopyBackwards), and a graph that saved it sees the change
        np.add(old.data, g, out=old.data, casting="unsafe")
        versions.bump(old)
    else:
        t.grad = Tensor((old.data + g).astype(dt, copy=False))


def _saved_tensor(node, arr, src):
    if src is _OUT:
        return _saved_output(node, Tensor(arr, True, node))
    if src is not None:
        return src
    if arr is None or type(arr) in (int, float):  # not kept, or a Python number
        return arr
    return Tensor(np.asarray(arr))


def _saved_output(node, t):
    """create_graph backward wraps a node's saved output in a new tensor: it gets the
    tangents of the original output at the open forward-mode levels (engine/forward.py
    keeps them on the node, `fw`), so forward mode sees through the backward pass."""
    tangents = getattr(node, "fw", None)
    if tangents:
        levels = modes.state.levels
        for level, tg in tangents.items():
            if level in levels:
                tan.set_tangent(t, level, tg)
    return t
