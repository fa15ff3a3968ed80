"""A backward trace: `backward out, trace=true` and `backward_trace(out)` (`trace` is
PyTorch's trace of a matrix, nothing else).

While a `Trace` is active the engine calls it once per node it runs
(`engine.observe.set_tracer`; when no trace is on, the engine reads that global
once per pass and nothing else).  Each step is shown as it happens, in the
engine's order: the node's grad_fn name, the gradient that came in, and what
went out to each input (an op, shown by its step number and name, or a leaf,
whose .grad receives it).  The backward command then shows the leaves' .grad
as usual; `backward_trace(out)` does the same and keeps the graph.

    #1 MeanBackward0   grad in: tensor(1.)
       -> #2 MulBackward0: tensor([[0.2500, 0.2500], [0.2500, 0.2500]])

Under --json each step is a `trace` record: `step`, `node`, `grad_in` (value
and `shape`), `outputs` ([{`to`, `step` (null for a leaf), `leaf`, `grad`}]).
Steps beyond MAX_STEPS are counted, not shown.
"""

from __future__ import annotations

import numpy as np

from ..runtime import context
from ..core.printing import show
from ..core.tensor import Tensor
from ..engine import observe
from ..engine.declare import none
from ..ops.registry import register
from .autograd_api import backward_leaves
from .graphviz import _names

MAX_STEPS = 1000
TEXT_WIDTH = 100


def _one_line(g) -> str:
    text = " ".join(part.strip() for part in show(_tensor(g)).split("\n"))
    return text if len(text) <= TEXT_WIDTH else text[: TEXT_WIDTH - 3] + "..."


def _tensor(g):
    """A gradient as a Tensor (the output turns it into JSON values)."""
    return g if type(g) is Tensor else Tensor(np.asarray(g))


class Trace:
    """Context manager: the engine reports each node to `step` while it is active."""

    def __init__(self, out):
        self.out = out
        self.names = _names()
        self.ids = {}  # node -> step number (given when first seen)
        self.steps = 0
        self.hidden = 0

    def __enter__(self):
        self.prev = observe.set_tracer(self.step)
        return self

    def __exit__(self, *exc):
        observe.set_tracer(self.prev)
        if self.hidden:
            self.out.record(
                "trace", {"more": self.hidden}, f"... ({self.hidden} more steps not shown)"
            )
        return False

    def _id(self, node):
        i = self.ids.get(node)
        if i is None:
            i = self.ids[node] = len(self.ids) + 1
        return i

    def step(self, node, g, in_grads):
        self.steps += 1
        me = self._id(node)
        targets = []
        for p, ig in zip(node.parents, in_grads):
            if p is None:
                continue
            if type(p) is Tensor:
                targets.append((self.names.get(id(p), "<leaf>"), None, True, ig))
            else:
                targets.append((p.name, self._id(p), False, ig))
        if self.steps > MAX_STEPS:
            self.hidden += 1
            return
        outs = [
            {"to": name, "step": step, "leaf": leaf, "grad": None if ig is None else _tensor(ig)}
            for name, step, leaf, ig in targets
        ]
        lines = [f"#{me} {node.name}   grad in: {_one_line(g)}"]
        for name, step, leaf, ig in targets:
            where = f"{name} (leaf, into .grad)" if leaf else f"#{step} {name}"
            lines.append(f"   -> {where}: {'None' if ig is None else _one_line(ig)}")
        self.out.record(
            "trace",
            {
                "step": me,
                "node": node.name,
                "grad_in": _tensor(g),
                "shape": list(np.shape(g)),
                "outputs": outs,
            },
            "\n".join(lines),
        )


def traced(out, fn, *args, **kwargs):
    """fn(*args, **kwargs) with a trace of every backward pass it runs."""
    with Trace(out):
        return fn(*args, **kwargs)


@register(
    "backward_trace",
    "backward_trace(out, gradient=None, retain_graph=true)",
    "backward with a trace: each node the engine runs, in its order, with the gradient that "
    "came in and what went to each input, then the leaves' .grad (it adds into .grad as "
    "backward does; the graph is kept, so backward can follow)",
    category="autograd",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("prints a trace, not a tensor op"),
    parser=None,
)
def backward_trace(out, gradient=None, retain_graph=True):
    """backward_trace(out): backward with a trace, then the leaves' .grad (as the backward
    command shows them); the graph is kept unless retain_graph=false."""
    ctx = context.current
    touched = traced(ctx.out, backward_leaves, out, gradient, retain_graph)
    line = ctx.where()[1] if ctx.where is not None else 0
    names = {}
    for name, v in (ctx.variables or {}).items():
        if type(v) is Tensor:
            names.setdefault(id(v), name)
    for leaf in touched or ():
        name = names.get(id(leaf))
        if name is not None:
            ctx.out.grad(name, leaf.grad, line)
    return None
