"""Hooks on tensors: what a non-leaf asked of its node (`register_hook`,
`retain_grad`), the hook lists of leaves (kept in the run's context), and running
hooks on a gradient during backward."""

from __future__ import annotations

import weakref

import numpy as np

from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..core.tensor import Tensor
from .versions import type_word


class Watch:
    """What a non-leaf tensor asked of its node: hooks (register_hook) and keeping
    its gradient as .grad (retain_grad).  Kept in the node's `watch` slot."""

    __slots__ = ("ref", "retain", "hooks")

    def __init__(self, t):
        self.ref, self.retain, self.hooks = weakref.ref(t), False, []


def watch(t) -> Watch:
    """The Watch of non-leaf tensor t (made on first use)."""
    w = t.grad_fn.watch
    if w is None:
        w = t.grad_fn.watch = Watch(t)
        context.current.node_watches = True  # (autograd._plain_root's shared head gradient)
    return w


def leaf_hooks(t) -> list:
    """The hook list of leaf tensor t (made on first use)."""
    table = context.current.leaf_hooks  # id(leaf) -> (weakref to it, [hooks])
    if table is None:
        table = context.current.leaf_hooks = {}
    entry = table.get(id(t))
    if entry is None or entry[0]() is not t:
        key = id(t)  # dropped with the leaf
        entry = table[key] = (weakref.ref(t, lambda _r: table.pop(key, None)), [])
    return entry[1]


def _type_text(dt):
    """PyTorch's name of a CPU tensor type in messages: torch.FloatTensor, CPUBoolType."""
    return "CPUBoolType" if dt == np.bool_ else f"torch.{type_word(dt)}Tensor"


def run_hooks(hooks, g, create_graph):
    """Call each hook with the gradient (a Tensor); a result other than None
    replaces it, and must be a tensor of its type and shape (PyTorch's checks)."""
    for hook in list(hooks):
        r = hook(g if type(g) is Tensor else Tensor(g))
        if r is None:
            continue
        if not isinstance(r, Tensor):
            what = "NoneType" if r is None else type(r).__name__
            raise GradTypeError(f"expected Variable, but hook returned '{what}'")
        name = getattr(hook, "name", None) or getattr(hook, "__name__", "hook")
        if r.data.dtype != g.dtype:
            raise GradRuntimeError(
                f"hook '{name}' has changed the type of value (was {_type_text(g.dtype)} "
                f"got {_type_text(r.data.dtype)})"
            )
        if r.data.shape != g.shape:
            raise GradRuntimeError(f"hook '{name}' has changed the size of value")
        g = r if create_graph else r.data
    return g
