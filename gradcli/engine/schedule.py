"""Backward schedules: a loop that builds the same graph every iteration runs
`out.backward()` in an order written down once for that graph's structure.

A training loop's backward walks a small graph of the same shape every time; the
ready queue (passes.ReadyQueue) would spend most of the pass on bookkeeping that only
depends on that shape: counting consumers, a dict of pending gradients, which node
runs next.  Here a graph's *structure* is each node's class, how long before the root
it was made and where each of its parents is (nothing, a leaf, or another node, by
position in a breadth-first walk); the second time a structure is seen its *schedule*
is made: the nodes in the order the ready queue would give them, each with where its
input gradients go.  A schedule is only a plan: the one backward loop (autograd._pass)
walks it instead of the ready queue, each node's step its own, with the gradients
waiting in a list by position; each node is reached through its consumer's parents.

What a schedule adds to the order: a node whose backward returns F.sum_to's results
as they are and that feeds a leaf gets `LaterF`, which leaves a 0-d leaf's whole sums
for later (`Later`), made all at once at the end of the pass (`flush`); and one made
for a replayed loop body (`made_now`) marks the nodes that give each input their
gradient as it is.  It stands aside (the ready queue orders the pass) for graphs of
more than `MAX_NODES` nodes and for a node made without a creation number.
tests/engine/test_schedule.py runs every golden program with schedules made on first sight
and compares passes in both orders.
"""

from __future__ import annotations

import heapq

import numpy as np

from ..core.tensor import Tensor
from .passes import deliver_leaves
from ..numerics.sums.sum_mid import MID_MIN
from ..numerics.sums.sum_rows import torch_sums
from .vjp_arrays import ArrayF, sum_to

#: (a scalar network's graph is hundreds of 0-d nodes: a training step of a micrograd-style
#: MLP has about 300; the walk that finds a key stops here, so a long chain pays for
#: this many nodes' walk at most)
MAX_NODES = 1024
#: a structure gets its schedule the time it is seen this many times (a graph seen
#: once, as in a one-off `backward`, costs only its walk)
SIGHTINGS = 2
_KEEP = 512  # structures remembered (seen or scheduled); all forgotten beyond
_KEEP_ITEMS = 1 << 20  # or when their keys hold more items than this (8 MiB of references)

_schedules: dict = {}  # structure -> steps
_seen: dict = {}  # structure -> times seen without a schedule yet


def find(root, walked=None):
    """The schedule for the graph under the node `root`, or None: the ready queue
    orders the pass (too big, a node made without a creation number, or a structure
    not seen often enough yet).  The list `walked`, if given, receives the nodes in
    the walk's order (`_structure`)."""
    if not MAX_NODES:
        return None
    key = _structure(root, walked)
    if key is None:
        return None
    steps = _schedules.get(key)
    if steps is None:
        seen = _seen.get(key, 0) + 1
        if seen < SIGHTINGS:
            _remember(_seen, key, seen)
            return None
        if _seen.pop(key, None) is not None:
            _items[id(_seen)] = _items.get(id(_seen), 0) - len(key)
        steps = _schedule(key)
        _remember(_schedules, key, steps)
    return steps


def made_now(root):
    """The schedule of the graph under `root`, made now whatever was seen before (a
    replayed loop body's, engine/replay.py), or None (too big, or a node made without a
    creation number)."""
    nodes = []
    key = _structure(root, nodes)
    if key is None:
        return None
    # (a graph of these nodes' shapes: whose backward gives its inputs g itself)
    return tuple((k, routes, F, nodes[k].passes_through()) for k, routes, F, _ in _schedule(key))


def walk(root):
    """The nodes of the graph under `root` in the order of its structure's positions (a
    schedule's steps name nodes by them)."""
    nodes: list = []
    _structure(root, nodes)
    return nodes


def _structure(root, walked=None):
    """The structure of the graph under `root` (module docstring): per node in the
    walk's order, its class, its creation number below the root's (the order it runs
    in) and then its parents (None, -1 for a leaf, a node's position).  None for a
    graph of more than MAX_NODES nodes or with a node made without a number.  The list
    `walked`, if given, receives the nodes in the walk's order."""
    nodes = [root]
    index = {root: 0}
    key: list = []
    # (the lists' and dict's methods and the globals bound once: a graph of a few
    # hundred nodes is walked at every pass of a loop run as compiled)
    put, add, find, leaf, most = key.append, nodes.append, index.get, Tensor, MAX_NODES
    try:
        top = root.seq
        for n in nodes:  # grows while it is walked: breadth first
            put(type(n))
            put(top - n.seq)
            for p in n.parents:
                if p is None:
                    put(None)
                elif type(p) is leaf:
                    put(-1)
                else:
                    j = find(p)
                    if j is None:
                        j = len(nodes)
                        if j >= most:
                            return None
                        index[p] = j
                        add(p)
                    put(j)
    except AttributeError:  # a node made without a number (seq)
        return None
    if walked is not None:
        walked.extend(nodes)
    return tuple(key)


_items = {id(_schedules): 0, id(_seen): 0}  # the items of each table's keys


def _remember(table, key, value):
    n = _items.get(id(table), 0)
    if key not in table:
        if len(table) >= _KEEP or n + len(key) > _KEEP_ITEMS:
            table.clear()
            n = 0
        n += len(key)
    _items[id(table)] = n
    table[key] = value


def _schedule(key):
    """The steps for a structure (`find`'s key): (node position, ((input slot, where
    its gradient goes), ...), the F its backward gets, False) in the ready queue's
    order (PyTorch's: of the nodes whose gradient is complete, the one made last);
    where is a node's position or -1 for a leaf.
    A node whose backward returns F.sum_to's results as they are (`sums_as_is`) and
    that has a leaf among its inputs gets LaterF.  (The last field, whether the node's
    backward gives each input g itself, is made_now's: Function.passes_through.)"""
    parents = []
    classes = []
    ages = []  # how long before the root each node was made
    items = iter(key)
    for item in items:
        if isinstance(item, type):
            classes.append(item)
            ages.append(next(items))
            parents.append([])
        else:
            parents[-1].append(item)
    n = len(ages)
    deps = [0] * n
    for ps in parents:
        for j in ps:
            if j is not None and j >= 0:
                deps[j] += 1
    steps = []
    ready = [(ages[0], 0)]
    while ready:
        k = heapq.heappop(ready)[1]
        ps = parents[k]
        later = classes[k].sums_as_is and any(j is not None and j < 0 for j in ps)
        steps.append(
            (
                k,
                tuple((slot, j) for slot, j in enumerate(ps) if j is not None),
                LaterF if later else ArrayF,
                False,
            )
        )
        for j in ps:
            if j is None or j < 0:
                continue
            deps[j] -= 1
            if deps[j] == 0:
                heapq.heappush(ready, (ages[j], j))
    return tuple(steps)


class Later:
    """A whole sum LaterF left for later: the gradient of a 0-d leaf, the sum of `g`, or
    of the product `g * c` when `c` is not None (LaterF.sum_scaled: the product is made
    where the sums are made, straight into their buffer)."""

    __slots__ = ("g", "c")

    def __init__(self, g, c=None):
        self.g = g
        self.c = c

    def values(self):
        """The values summed."""
        return self.g if self.c is None else np.multiply(self.g, self.c)


def _whole(g, shape):
    """Whether sum_to(g, shape) is a whole sum sum_rows can make with others."""
    return (
        not shape
        and type(g) is np.ndarray
        and g.ndim == 1
        and g.size >= MID_MIN
        and g.dtype.kind == "f"
        and g.flags.c_contiguous
    )


class LaterF(ArrayF):
    """ArrayF whose sum_to and sum_scaled leave the whole sums sum_rows can make together
    for later (`Later`); `flush` makes them at the end of the pass, all at once."""

    @staticmethod
    def sum_to(g, shape):
        if g.shape == shape:  # (sum_to's first case, without its call)
            return g
        if _whole(g, shape):
            return Later(g)
        return sum_to(g, shape)

    @staticmethod
    def sum_scaled(g, c, shape):
        # g * c of two arrays of one shape and dtype is np.multiply(g, c) (fused.scaled)
        if _whole(g, shape) and type(c) is np.ndarray and c.shape == g.shape and c.dtype is g.dtype:
            return Later(g, c)
        return ArrayF.sum_scaled(g, c, shape)


def unfinished(plan, step):
    """The nodes a pass through `plan` (root, gradient, steps) had not finished when
    its step `step` failed: that step's node and those of the steps after it (their
    leaves get no gradient: passes.finished_leaves)."""
    root, _, steps = plan
    walked = []
    _structure(root, walked)
    at = steps.index(step) if step is not None else 0
    return [walked[s[0]] for s in steps[at:]] if walked else []


def resolved(queue):
    """The leaves' gradients that waited, [(leaf, gradient)] in their order, with the
    sums left for later made (all at once, as `flush` makes them)."""
    waiting = [ig for _, ig in queue if type(ig) is Later]
    if not waiting:
        return queue
    sums = iter(torch_sums([ig.g for ig in waiting], [ig.c for ig in waiting]))
    return [(p, np.asarray(next(sums), ig.g.dtype) if type(ig) is Later else ig) for p, ig in queue]


def flush(queue, touched, store):
    """The leaves' gradients that waited (in their order), some of them sums left for
    later: those made all at once, then passes.deliver_leaves (each leaf's added up in
    order, then into its .grad; a sum made here becomes .grad without a copy)."""
    waiting = [ig for _, ig in queue if type(ig) is Later]
    if not waiting:  # (none left: a pass that failed)
        deliver_leaves(queue, touched, store)
        return
    sums = torch_sums([ig.g for ig in waiting], [ig.c for ig in waiting])
    if len(waiting) == len(queue):  # all of them sums (as sum_to makes them: new)
        deliver_leaves(
            [(p, np.asarray(v, ig.g.dtype)) for (p, ig), v in zip(queue, sums)],
            touched,
            store,
            True,
        )
        return
    sums = iter(sums)
    fresh = set()
    resolved = []
    for p, ig in queue:
        if type(ig) is Later:
            ig = np.asarray(next(sums), ig.g.dtype)  # as sum_to makes it
            fresh.add(id(ig))
        resolved.append((p, ig))
    deliver_leaves(resolved, touched, store, fresh)
