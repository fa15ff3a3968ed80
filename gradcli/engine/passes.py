"""The steps of a backward pass that need nothing of a node but its `parents`: how
many consumers each node has, releasing the parents of a node no gradient reached,
and checking the head gradient a user gives (engine/autograd.py runs the pass)."""
from __future__ import annotations

import numpy as np

from ..base.errors import GradRuntimeError, ShapeError
from ..core.convert import to_tensor
from ..core.tensor import Tensor


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
                     "or pass a gradient of the output's shape")
        arr = np.array(1, dtype=like.dtype) if not like.ndim else np.ones(like.shape, like.dtype)
        return Tensor(arr) if create_graph else arr
    if not isinstance(g, Tensor):
        g = to_tensor(g)
    if g.data.shape != like.shape:
        raise ShapeError(
            f"Mismatch in shape: grad_output[{i}] has a shape of torch.Size({list(g.data.shape)}) "
            f"and output[{i}] has a shape of torch.Size({list(like.shape)}).")
    if create_graph:
        return g
    arr = g.data
    return arr.astype(like.dtype) if arr.dtype != like.dtype else arr


def release(node, deps, push):
    """A node no gradient reached: its parents need not wait for it."""
    for p in node.parents:
        if p is not None and type(p) is not Tensor:
            deps[p] -= 1
            if deps[p] == 0:
                push(p)
