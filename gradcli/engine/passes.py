"""The steps of a backward pass that need nothing of a node but its `parents`: how
many consumers each node has, the ready queue, releasing the parents of a node no
gradient reached, checking the head gradient a user gives, and where the gradients
that reached leaves go (autograd._pass, the backward loop, runs them)."""

from __future__ import annotations

import heapq
from sys import getrefcount

import numpy as np

from ..runtime.errors import GradRuntimeError, ShapeError
from ..core.convert import to_tensor
from ..core.tensor import Tensor
from ..core.layout import grad_array, obeys_grad_layout
from ..numerics.floats.singles import value32
from .zero_grads import EfficientZeros

F64, F32 = np.dtype(np.float64), np.dtype(np.float32)

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


def count_deps(roots):
    """Consumers of each node reachable from `roots`, found without recursion."""
    deps = {}
    stack = []
    for r in roots:
        if type(r) is not Tensor and r not in deps:
            deps[r] = 0
            stack.append(r)
    push, pop = stack.append, stack.pop
    while stack:
        for p in pop().parents:
            if p is not None and type(p) is not Tensor:
                n = deps.get(p)
                if n is None:
                    deps[p] = 1
                    push(p)
                else:
                    deps[p] = n + 1
    return deps


def as_grad(g, like: np.ndarray, create_graph: bool, i: int = 0):
    """Check/convert a head gradient given by the user (for output i)."""
    if g is None:
        if like.size != 1:
            raise GradRuntimeError(
                "grad can be implicitly created only for scalar outputs",
                hint="reduce the output to a scalar first, e.g. with sum(...) or mean(...), "
                "or pass a gradient of the output's shape",
            )
        arr = np.array(1, dtype=like.dtype) if not like.ndim else np.ones(like.shape, like.dtype)
        return Tensor(arr) if create_graph else arr
    if not isinstance(g, Tensor):
        g = to_tensor(g)
    if g.data.shape != like.shape:
        raise ShapeError(
            f"Mismatch in shape: grad_output[{i}] has a shape of torch.Size({list(g.data.shape)}) "
            f"and output[{i}] has a shape of torch.Size({list(like.shape)})."
        )
    if create_graph:
        return g
    arr = g.data
    return arr.astype(like.dtype) if arr.dtype != like.dtype else arr


def seq(node):
    """A node's creation number (function.Function.seq; 0 for one made without it)."""
    return getattr(node, "seq", 0)


def ready_queue(nodes):
    """The nodes ready to run, as PyTorch's engine keeps them: the one made last
    (the highest sequence number) first.  `push_ready` adds one; heapq.heappop(q)[2]
    takes the next."""
    q = [(-seq(n), id(n), n) for n in nodes]
    heapq.heapify(q)
    return q


def push_ready(q, node):
    heapq.heappush(q, (-seq(node), id(node), node))


def deliver_leaves(queue, touched, store, fresh=()):
    """The gradients that reached leaves in a pass, [(leaf, gradient)] in their order,
    into the leaves' .grad as PyTorch's AccumulateGrad takes them: each cast to its
    leaf's dtype and a leaf's added up in their order (its input buffer), then once
    into .grad (`store(leaf, g, False)`: autograd._store_grad).  `fresh`: ids of
    arrays the caller made, which become .grad without a copy (True: all of them)."""
    if len(queue) == 1 or len({id(p) for p, _ in queue}) == len(queue):
        _deliver(queue, touched, store, fresh)  # each leaf once: nothing to add up
        return
    fresh = {id(ig) for _, ig in queue} if fresh is True else set(fresh)
    total = {}
    for p, ig in queue:
        dt = p.data.dtype
        if ig.dtype is not dt and ig.dtype != dt:
            ig = ig.astype(dt)
            fresh.add(id(ig))
        prev = total.get(p)
        if prev is not None:
            ig = _add(prev, ig)
            fresh.add(id(ig))
        total[p] = ig
    _deliver(total.items(), touched, store, fresh)


_S64, _S32 = np.float64, np.float32  # (NumPy's scalars: np.float64 is a float)
_fadd = float.__add__


def _add(a, b):
    """np.add(a, b) of two of a leaf's gradients; two NumPy scalars of one dtype (the
    0-d gradients of a scalar network's parameters) added as Python floats, without a
    ufunc's call: a double's sum is the IEEE sum, and two float32 values' sum rounded to
    a double and then to float32 is float32's own.  Two NaNs go to NumPy (which keeps
    the first one's payload, where a Python float's sum keeps the second's)."""
    t = type(a)
    if t is type(b):
        if t is _S64:
            r = _fadd(a, b)
            if r == r:
                return _S64(r)
        elif t is _S32:
            r = _fadd(float(a), float(b))
            if r == r:
                return _S32(r)
    return np.add(a, b)


#: NumPy's float scalar types and their dtypes (`_deliver`)
_SCALARS = {_S64: np.dtype(np.float64), _S32: np.dtype(np.float32)}


def _deliver(pairs, touched, store, fresh):
    """Each (leaf, its gradient) into the leaf's .grad, cast to its dtype (a cast is
    new: `fresh` too).  A gradient that only its pair holds (an array, or a view of an
    owner only it holds, by CPython's reference count: `_ALONE`) is new too, as
    AccumulateGrad takes a gradient whose use_count is 1 as .grad without a copy."""
    every = fresh is True
    for p, ig in pairs:
        dt = p.data.dtype
        if _SCALARS.get(type(ig)) is dt and p.grad is None and not p.data.ndim:
            # a NumPy scalar (the sum of a 0-d leaf's gradients, `_add`'s) of the leaf's
            # dtype: a new 0-d array of it, as grad_array's copy of it makes
            p.grad = Tensor(np.array(ig))
            touched[id(p)] = p
            continue
        new = every or id(ig) in fresh
        if not new and type(ig) is np.ndarray and p.grad is None and ig.flags.writeable:
            b = ig.base
            if b is None:
                new = getrefcount(ig) == _ALONE[0]
            elif type(b) is np.ndarray and b.base is None:
                new = getrefcount(ig) == _ALONE[0] and getrefcount(b) == _ALONE[1]
        if ig.dtype != dt:
            ig = ig.astype(dt)
            new = True
        if type(ig) is EfficientZeros:  # into .grad as plain zeros (engine/zero_grads.py)
            ig, new = np.zeros(ig.shape, dt), True
        if p.grad is None and ig.shape == p.data.shape:  # _store_grad's first
            # (a new array is .grad as it is; another is copied, as PyTorch's AccumulateGrad)
            stolen = new and type(ig) is np.ndarray and obeys_grad_layout(ig, p.data)
            p.grad = Tensor(ig if stolen else grad_array(ig, p.data, dt))
        else:
            store(p, ig, False)
        touched[id(p)] = p


def _held(pairs):
    """The reference counts `_deliver` reads, in a loop over `pairs` as its: (the
    gradient's, its base's as a local variable)."""
    for _, ig in pairs:
        b = ig.base
        return getrefcount(ig), getrefcount(b)
    return None


#: the counts `_deliver` sees for a gradient that only its pair holds, of an owner only it
#: holds (CPython's counts of a frame's own references differ between versions)
_ALONE = _held([(None, np.empty(2)[1:])])


def finished_leaves(queue, unfinished):
    """Of the gradients that reached leaves before a pass failed, [(leaf, gradient)],
    those of the leaves that no unfinished node still owed one. PyTorch's engine runs a
    leaf's AccumulateGrad as soon as the leaf's last consumer has run, so when a node
    fails (a freed graph, a saved value changed in place) those leaves have their
    gradients in .grad and the others get nothing (not the part that reached them)."""
    owed = {id(p) for n in unfinished if n is not None for p in n.parents if type(p) is Tensor}
    if not owed:
        return queue
    return [(p, g) for p, g in queue if id(p) not in owed]


def unfinished_nodes(node, q, deps):
    """The nodes a pass of the backward loop had not finished when `node` failed: it,
    those ready (in the queue `q`) and those still waiting for a consumer."""
    return [node, *(e[2] for e in q), *(n for n, d in deps.items() if d)]


def release(node, deps, push):
    """A node no gradient reached: its parents need not wait for it."""
    for p in node.parents:
        if p is not None and type(p) is not Tensor:
            deps[p] -= 1
            if deps[p] == 0:
                push(p)


class ReadyQueue:
    """The order of a backward pass from PyTorch's engine's ready queue: of the nodes
    whose gradient is complete (every consumer ran), the one made last runs next.  The
    gradients wait in `grads` (node -> gradient) and each node's consumers yet to run
    in `deps` (count_deps).  A parent made ready that was made after every node waiting
    in the queue runs next without it, and its gradient, when it had one consumer, is
    handed over without `grads`: a chain of nodes runs without either.

    The backward loop (autograd._pass) asks it: `first()` and `next(node, g, in_grads)`
    give the node to run next and its gradient, or (None, None) (`next` first shows the
    step of `node`, its gradient g and what its backward gave, to `tracer` if there is
    one, and sends those gradients where they go); `unfinished(node)`, the nodes not
    finished when `node` failed.  A leaf's gradient goes to `deliver(leaf, g)` at once
    if given, else it waits in `leaves`, in their order, for the loop; `add` adds two of
    a node's gradients, `cast(g, dtype)` gives one in its node's dtype.  (`first` and
    `next` are functions of the pass's queue, not methods: a chain of nodes asks for
    each next one.)"""

    __slots__ = ("q", "deps", "leaves", "first", "next", "scaled")

    def __init__(self, ready, grads, deps, add, cast, deliver=None, tracer=None):
        self.q = ready_queue(ready)
        self.deps, self.leaves = deps, []  # (leaf, gradient) in their order
        self.first, self.next = _steps(self.q, grads, deps, add, cast, deliver, self.leaves)
        self.scaled = _scaled(self.q, grads, deps)
        if tracer is not None:
            self.next = _traced(self.next, tracer)

    def unfinished(self, node):
        return unfinished_nodes(node, self.q, self.deps)


def _steps(q, grads, deps, add, cast, deliver, leaves):
    """A ReadyQueue's `first` and `next`, over its queue `q`."""
    pop, gpop = heapq.heappop, grads.pop

    def push(p):
        push_ready(q, p)

    def first():
        while q:
            node = pop(q)[2]
            g = gpop(node, None)
            if g is not None:
                return node, g
            release(node, deps, push)  # no gradient reached it
        return None, None

    def next_node(node, g, in_grads):
        nxt = gn = None  # the parent made ready that was made last, its gradient
        for p, ig in zip(node.parents, in_grads):
            if p is None:
                continue
            if type(p) is Tensor:
                if ig is not None:
                    if deliver is None:
                        leaves.append((p, ig))
                    else:
                        deliver(p, ig)
                continue
            d = deps[p] - 1
            deps[p] = d
            if ig is not None:
                if ig.dtype is not p.out_dtype and ig.dtype != p.out_dtype:
                    ig = cast(ig, p.out_dtype)
                if d or p in grads:
                    prev = grads.get(p)
                    grads[p] = ig if prev is None else add(prev, ig)
                    ig = None
            if d == 0:
                if ig is None:
                    ig = gpop(p, None)
                if nxt is None:
                    nxt, gn = p, ig
                elif seq(p) > seq(nxt):  # the one made last runs next
                    _wait(q, grads, nxt, gn)
                    nxt, gn = p, ig
                else:
                    _wait(q, grads, p, ig)
        if nxt is not None:
            if q and -q[0][0] > seq(nxt):
                _wait(q, grads, nxt, gn)  # a node made later is waiting
            elif gn is not None:
                return nxt, gn
            else:  # made ready without a gradient
                release(nxt, deps, push)
        return first()

    return first, next_node


def _scaled(q, grads, deps):
    """A ReadyQueue's `scaled(node, g, retain_graph, flow)`, for the backward loop's common
    case (no hooks on leaves, no tracer, no capture, no create_graph): `node`, ready to
    run with g a 0-d float64 or float32 gradient (a NumPy scalar), and the nodes after it
    while each one's backward multiplies its one input's gradient by a number
    (Function.grad_factor: `tensor * number`, `tensor + number`) and that input is a node
    of g's dtype that it alone consumes and that runs next (nothing made later waiting in
    the queue), run here as one loop on a Python float: each product as the node's
    backward makes it (scalar_times: the IEEE product of doubles; for float32 the number
    rounded to float32, the exact product rounded once), with the loop's bookkeeping (the
    flow record, the saved values freed unless retain_graph, the consumer counted).  A
    node with hooks or retain_grad, or whose input is a leaf, is left to the loop.
    Returns the node to run next and its gradient."""

    def scaled(node, g, retain_graph, flow):
        tg = type(g)
        if tg is np.float64:
            dt = F64
        elif tg is np.float32:
            dt = F32
        else:
            return node, g
        x = float(g)
        fno, frec = flow if flow is not None else (None, None)
        ran = False
        while True:
            factor = node.grad_factor
            if factor is None or node.watch is not None:
                break
            k = factor()
            if k is None:
                break
            p = node.parents[0]
            if type(p) is Tensor or p.out_dtype is not dt or deps[p] != 1 or p in grads:
                break
            if q and -q[0][0] > seq(p):  # (a node made later runs first)
                break
            if dt is F32:
                k = value32(k)
                if k is None:
                    break
            if frec is not None:
                node.fpass = fno
                frec[id(node)] = tg(x) if ran else g
            if not retain_graph:  # (what the loop frees; a number saved has no version)
                if node.saved:
                    node.saved = node.saved_src = None
                elif node.holds_saved:
                    node.saved = None
            x = x * k if dt is F64 else float(np.float32(x * k))
            deps[p] = 0
            node = p
            ran = True
        return node, (tg(x) if ran else g)

    return scaled


def _traced(next_node, tracer):
    """`next_node` that first shows the step to `tracer` (node, its gradient, in_grads)."""

    def traced(node, g, in_grads):
        tracer(node, g, in_grads)
        return next_node(node, g, in_grads)

    return traced


def _wait(q, grads, node, g):
    """A ready node into the queue, its gradient (if any) into `grads`."""
    if g is not None:
        grads[node] = g
    push_ready(q, node)
