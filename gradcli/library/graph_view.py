"""The graph with its values, and as a picture: `graph(y, values=true)`, `graph(y, "svg")`.

Values: for each op, the shape of the value it made and the gradient that flowed
into it in the last `backward` through it (the engine keeps the gradients of its
last few passes, `engine.observe.FLOWS`; gradients of more than FLOW_SMALL
elements by shape only); for each leaf its `.grad`.  Before any backward (or
after a `retain_graph=true` one) the gradients are those a backward of y would
give (computed now, without touching any `.grad`).

SVG: a layered drawing made here (no Graphviz): the output at the top, every
node one layer below the lowest node that consumes it, the order inside a layer
by the mean position of the consumers (one sweep), one box per node (ops square,
leaves rounded and blue) with arrows from inputs to the op that uses them.

`GraphPicture` is what `graph()` returns: text when displayed, and it knows its
graph, so `save(graph(y), "g.svg")` (or .dot, .txt) writes it and a notebook shows
it as SVG (`_repr_svg_`).
"""

from __future__ import annotations

import numpy as np

from ..runtime.errors import GradError, GradValueError
from ..core.printing import show
from ..core.tensor import Tensor
from ..engine import autograd, observe
from . import svg

TEXT_WIDTH = 60  # a gradient's text is cut beyond this many characters
MAX_NODES = 2000  # an SVG picture of more nodes is refused


def nodes_and_edges(t):
    """Every node (ops and leaf tensors that take gradients) reachable from t's
    grad_fn in discovery order, and the edges (input, consumer)."""
    root = t.grad_fn if t.grad_fn is not None else t
    order, seen, edges = [root], {id(root)}, []
    stack = [root]
    while stack:
        item = stack.pop()
        if type(item) is Tensor:
            continue
        for p in item.parents:
            if p is None:
                continue
            edges.append((p, item))
            if id(p) not in seen:
                seen.add(id(p))
                order.append(p)
                stack.append(p)
    return order, edges


def flow_of(node):
    """{node: gradient (or its shape)} of the most recent recorded backward pass that
    went through `node`, for the nodes of its graph that pass ran (or None)."""
    rec = observe.flow_record(getattr(node, "fpass", None))
    if rec is None:
        return None
    flow = {}
    seen = {id(node)}
    stack = [node]
    while stack:
        n = stack.pop()
        g = rec.get(id(n), _NONE)
        if g is not _NONE:
            flow[n] = g
        for q in n.parents:
            if q is not None and type(q) is not Tensor and id(q) not in seen:
                seen.add(id(q))
                stack.append(q)
    return flow


_NONE = object()


def _one_line(v) -> str:
    text = " ".join(part.strip() for part in show(v).split("\n"))
    return text if len(text) <= TEXT_WIDTH else text[: TEXT_WIDTH - 3] + "..."


def _shape(shape) -> str:
    return "[" + ", ".join(str(n) for n in shape) + "]"


def gradients(t):
    """{node: gradient array or shape} for t's graph: the recorded flow of a past
    backward, or a fresh pass (nothing's .grad touched) while the graph is intact."""
    root = t.grad_fn
    if root is None:
        return {}
    flow = flow_of(root)
    if flow is not None:
        return flow
    if t.data is None:  # graph(y.grad_fn): no value to start a pass from
        return {}
    seen = {}

    def tracer(node, g, in_grads):
        seen[node] = g if np.size(g) <= observe.FLOW_SMALL else np.shape(g)

    leaves = [p for p in nodes_and_edges(t)[0] if type(p) is Tensor]
    head = None if t.data.size == 1 else Tensor(np.ones(t.data.shape, t.data.dtype))
    prev = observe.set_tracer(tracer)
    try:
        autograd.run_backward(
            (t,), (head,), retain_graph=True, inputs=leaves or [t], allow_unused=True
        )
    except GradError as e:
        if "backward through the graph a second time" in e.message:
            raise GradValueError(
                "graph(values=true): the gradients of this graph are gone (its backward ran "
                "several passes ago, or the graph has more nodes than are remembered, "
                f"{observe.FLOW_NODES}, and was freed)",
                hint="call graph(y, values=true) right after backward y, or backward y, "
                "retain_graph=true",
            ) from None
        raise
    finally:
        observe.set_tracer(prev)
    return seen


def value_notes(t, names):
    """item -> the text after its name in the values view."""
    grads = gradients(t)

    def note(item):
        if type(item) is Tensor:
            g = item.grad
            return "   .grad = " + (_one_line(g) if g is not None else "None")
        g = grads.get(item)
        if g is None:
            return "   (no gradient reached it)"
        if isinstance(g, tuple):
            return f"   value {_shape(g)}   grad in: {_shape(g)} (too big to keep)"
        arr = np.asarray(g)
        return f"   value {_shape(arr.shape)}   grad in: {_one_line(Tensor(arr))}"

    return note


# ---------------------------------------------------------------- SVG


def _label_lines(item, names, note):
    if type(item) is Tensor:
        lines = [names.get(id(item), "<leaf>"), _shape(item.data.shape)]
    else:
        lines = [item.name]
    if note is not None:
        text = note(item).strip()
        if text:
            lines.extend(part.strip() for part in text.split("   ") if part.strip())
    return lines


def svg_picture(t, names, values=False) -> str:
    order, edges = nodes_and_edges(t)
    note = value_notes(t, names) if values else None
    index = {id(n): i for i, n in enumerate(order)}
    consumers = {i: [] for i in range(len(order))}
    for a, b in edges:
        consumers[index[id(a)]].append(index[id(b)])
    if len(order) > MAX_NODES:
        raise GradValueError(
            f"graph(): {len(order)} nodes are too many for a picture (at most {MAX_NODES})",
            hint="graph(y) gives the text tree",
        )
    # layer = longest path from the output, so that every arrow points up: visit a
    # node once all its consumers are placed (Kahn's order from the output down)
    waiting = [0] * len(order)
    inputs = {i: [] for i in range(len(order))}
    for a, b in edges:
        waiting[index[id(a)]] += 1
        inputs[index[id(b)]].append(index[id(a)])
    layer = [0] * len(order)
    ready = [0]
    while ready:
        i = ready.pop()
        for p in inputs[i]:
            layer[p] = max(layer[p], layer[i] + 1)
            waiting[p] -= 1
            if waiting[p] == 0:
                ready.append(p)
    layers = {}
    for i in range(len(order)):
        layers.setdefault(layer[i], []).append(i)
    labels = [_label_lines(n, names, note) for n in order]
    char_w, line_h, pad = 7.2, 15, 8
    sizes = [
        (max(len(s) for s in lab) * char_w + 2 * pad, len(lab) * line_h + pad) for lab in labels
    ]
    gap_x, gap_y = 24, 48
    pos = {}
    y = 20
    row_height = {}
    for k in sorted(layers):
        members = layers[k]
        if k > 0:  # order by the mean x of the consumers already placed
            members.sort(
                key=lambda i: np.mean(
                    [pos[c][0] + sizes[c][0] / 2 for c in consumers[i] if c in pos] or [0]
                )
            )
        x = 20
        for i in members:
            pos[i] = (x, y)
            x += sizes[i][0] + gap_x
        row_height[k] = max(sizes[i][1] for i in members)
        y += row_height[k] + gap_y
    width = max(pos[i][0] + sizes[i][0] for i in pos) + 20
    height = y - gap_y + 20
    # centre each row
    for k, members in layers.items():
        row_w = pos[members[-1]][0] + sizes[members[-1]][0] - pos[members[0]][0]
        shift = (width - 40 - row_w) / 2
        for i in members:
            pos[i] = (pos[i][0] + shift, pos[i][1])
    d = svg.Svg(width, height)
    d.arrow_marker()
    for a, b in edges:
        ia, ib = index[id(a)], index[id(b)]
        (xa, ya), wa = pos[ia], sizes[ia][0]
        (xb, yb), (wb, hb) = pos[ib], sizes[ib]
        d.line(xa + wa / 2, ya, xb + wb / 2, yb + hb, stroke="#555", marker="arrow")
    for i, item in enumerate(order):
        (x, y), (w, h) = pos[i], sizes[i]
        leaf = type(item) is Tensor
        d.rect(
            x,
            y,
            w,
            h,
            fill="#dbeafe" if leaf else "#f5f5f5",
            stroke="#333",
            rx=10 if leaf else 2,
            cls="leaf node" if leaf else "op node",
            title=" ".join(labels[i]),
        )
        for j, s in enumerate(labels[i]):
            d.text(
                x + w / 2,
                y + pad / 2 + line_h * (j + 0.75),
                s,
                size=12 if j == 0 else 11,
                anchor="middle",
                weight="bold" if j == 0 else None,
                family="DejaVu Sans Mono, Menlo, monospace" if j else svg.FONT,
            )
    return d.to_string()


class GraphPicture(str):
    """graph()'s result: shown as its text; knows its graph for SVG/DOT files."""

    def __new__(cls, text, tensor, names, values, dot):
        self = super().__new__(cls, text)
        self.tensor, self.names, self.values, self.dot = tensor, names, values, dot
        return self

    def __repr__(self):
        return str(self)

    def _repr_svg_(self):
        return svg_picture(self.tensor, self.names, self.values)

    def file_text(self, kind):
        """The file contents for save(): "svg", "dot" or "txt"; None if not a picture kind."""
        if kind == "svg":
            return self._repr_svg_()
        if kind == "dot":
            return self.dot(self.tensor, self.names) + "\n"
        if kind == "txt":
            return str(self) + "\n"
        return None


class SvgPicture(str):
    """graph(y, "svg"): the SVG text, shown as it is; a notebook shows the picture."""

    def __repr__(self):
        return str(self)

    def _repr_svg_(self):
        return str(self)

    def file_text(self, kind):
        return str(self) if kind == "svg" else None
