"""The steps of a backward pass that need nothing of a node but its `parents`: how
many consumers each node has, releasing the parents of a node no gradient reached,
and checking the head gradient a user gives; and one node's step, `vjp` (its backward
with its saved values, checked and then freed), which autograd.py's loops run
(engine/schedule.py's run writes the same step out in its loop: a change here belongs
there too)."""

from __future__ import annotations

import heapq

import numpy as np

from ..runtime.errors import GradRuntimeError, ShapeError
from ..core.convert import to_tensor
from ..core.tensor import Tensor
from ..core.layout import grad_array, obeys_grad_layout
from . import versions
from .zero_grads import EfficientZeros, spread

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
        if ig.dtype != p.data.dtype:
            ig = ig.astype(p.data.dtype)
            fresh.add(id(ig))
        prev = total.get(p)
        if prev is not None:
            ig = np.add(prev, ig)
            fresh.add(id(ig))
        total[p] = ig
    _deliver(total.items(), touched, store, fresh)


def _deliver(pairs, touched, store, fresh):
    """Each (leaf, its gradient) into the leaf's .grad, cast to its dtype (a cast is
    new: `fresh` too)."""
    every = fresh is True
    for p, ig in pairs:
        dt = p.data.dtype
        new = every or id(ig) in fresh
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


def vjp(node, g, F, retain_graph, unpack=None):
    """A node's backward with its saved values (checked against their versions), which
    are freed after it unless retain_graph: a second pass must then fail.  `unpack`:
    a function of the node giving what its backward gets instead of the saved arrays
    (create_graph: them as Tensors of the graph)."""
    saved = node.saved
    zeros = type(g) is EfficientZeros
    if zeros and node.zeros_through is not True:
        g = np.zeros(g.shape, g.dtype)  # (plain zeros, as PyTorch's kernel sees them)
    if saved:
        if versions.state.bumped:
            versions.check(node)
        in_grads = node.backward(g, F, *(saved if unpack is None else unpack(node)))
        if not retain_graph:
            node.saved = None
            node.saved_src = None
    elif saved is None:
        raise GradRuntimeError(SECOND_BACKWARD)
    else:
        in_grads = node.backward(g, F)
        if node.holds_saved and not retain_graph:
            node.saved = None
    if zeros:  # zeros in, zeros out (engine/zero_grads.py)
        return spread(node, in_grads)
    return in_grads
