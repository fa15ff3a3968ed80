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
    its gradient as .grad (retain_grad); and the node's own hooks (`grad_fn.
    register_prehook`: `pre`, `grad_fn.register_hook`: `post`).  Kept in the node's
    `watch` slot."""

    __slots__ = ("ref", "retain", "hooks", "pre", "post")

    def __init__(self, t):
        self.ref = weakref.ref(t) if t is not None else _nobody
        self.retain, self.hooks, self.pre, self.post = False, [], [], []


def _nobody():
    return None


def watch(t) -> Watch:
    """The Watch of non-leaf tensor t (made on first use)."""
    w = t.grad_fn.watch
    if w is None:
        w = t.grad_fn.watch = Watch(t)
        context.current.node_watches = True  # (autograd._plain_root's shared head gradient)
    return w


def node_watch(node) -> Watch:
    """The Watch of a node (for its own hooks; made on first use)."""
    w = node.watch
    if w is None:
        w = node.watch = Watch(None)
        context.current.node_watches = True
    return w


def _as_tensors(gs):
    return tuple(g if g is None or type(g) is Tensor else Tensor(g) for g in gs)


def _as_given(new, old, create_graph, what):
    """A node hook's result in place of the gradients `old` (None: unchanged)."""
    if new is None:
        return old
    if not isinstance(new, (tuple, list)) or len(new) != len(old):
        raise GradRuntimeError(
            f"hook '{what}' has returned an incorrect number of values (got "
            f"{len(new) if isinstance(new, (tuple, list)) else 1}, but expected {len(old)})"
        )
    out = []
    for v in new:
        if v is not None and type(v) is not Tensor:
            raise GradTypeError(f"expected Variable, but hook returned '{type(v).__name__}'")
        out.append(v if v is None or create_graph else v.data)
    return tuple(out)


def run_node_pre(node, g, create_graph):
    """grad_fn.register_prehook hooks: fn(grad_outputs) -> None or new grad_outputs."""
    for hook in list(node.watch.pre):
        (g,) = _as_given(hook(_as_tensors((g,))), (g,), create_graph, _hook_name(hook))
    return g


def run_node_post(node, g, in_grads, create_graph):
    """grad_fn.register_hook hooks: fn(grad_inputs, grad_outputs) -> None or new
    grad_inputs; an input without a gradient (a constant) has None."""
    ins = tuple(ig if p is not None else None for p, ig in zip(node.parents, in_grads))
    for hook in list(node.watch.post):
        ins = _as_given(
            hook(_as_tensors(ins), _as_tensors((g,))), ins, create_graph, _hook_name(hook)
        )
    return ins


def _hook_name(hook):
    return getattr(hook, "name", None) or getattr(hook, "__name__", "hook")


class _Pass:
    """The backward pass running: its roots (for `will_execute`) and a number of its own
    (torch's graph task id).  Only a pass in which a hook can run notes them (a run with
    hooks on nodes or leaves: `noted`), and only while it runs: a root kept after its
    pass would keep its whole graph alive."""

    roots: tuple = ()
    number = 0


def noted(ctx) -> bool:
    """Whether a pass of run state `ctx` notes its roots: hooks (the only callers of
    `will_execute` and `pass_number`) can run in it."""
    return ctx.node_watches or bool(ctx.leaf_hooks)


def begin_pass(roots) -> tuple:
    """Note the roots of a pass beginning; returns the roots noted before (a pass run
    inside a hook of another), for `end_pass`."""
    prev = _Pass.roots
    _Pass.roots = tuple(roots)
    _Pass.number += 1
    return prev


def end_pass(prev) -> None:
    """Forget the roots of the pass ending (their graph is the caller's to keep or drop)."""
    _Pass.roots = prev


def pass_number():
    return _Pass.number


def will_execute(t) -> bool:
    """Whether the backward pass running reaches tensor t (its node, or for a leaf a
    node that takes it): torch._C._will_engine_execute_node."""
    seen = set()
    stack = [r for r in _Pass.roots if r is not None]
    target = t.grad_fn
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node is target:
            return True
        for p in getattr(node, "parents", ()):
            if p is None:
                continue
            if type(p) is Tensor:
                if p is t:
                    return True
                continue
            stack.append(p)
    return False


def leaf_hooks(t) -> list:
    """The hook list of leaf tensor t (made on first use)."""
    table = context.current.leaf_hooks  # id(leaf) -> (weakref to it, [hooks], [post hooks])
    if table is None:
        table = context.current.leaf_hooks = {}
    entry = table.get(id(t))
    if entry is None or entry[0]() is not t:
        key = id(t)  # dropped with the leaf
        entry = table[key] = (weakref.ref(t, lambda _r: table.pop(key, None)), [], [])
    return entry[1]


def post_accumulate_hooks(t) -> list:
    """The hooks run after leaf t's .grad has been accumulated (register_post_
    accumulate_grad_hook; kept beside its gradient hooks, so a backward with them takes
    the path that runs leaf hooks)."""
    leaf_hooks(t)
    return context.current.leaf_hooks[id(t)][2]


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
