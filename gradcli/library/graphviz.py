"""`graph(t)`: the autograd graph behind a tensor, as a text tree or Graphviz DOT.

Text layout (`graph(t)`, `graph(t, "text")`): the root is `t`'s `grad_fn`; below
each op come the ops and leaves it takes gradients to (its `next_functions`,
in argument order), drawn with box-drawing branches.  A leaf is shown by the
name of the variable holding it (`<leaf>` if none) and its shape; an op that
was already drawn higher up (the graph is a DAG: `x * x`, a reused
intermediate) is shown again as `NAME (see above)` without its inputs.
Constants (inputs that do not require grad) are not drawn.

    MeanBackward0
    └── MulBackward0
        └── PowBackward0
            └── AddBackward0
                └── x [2, 2]

DOT (`graph(t, "dot")`): `digraph` with one node per op (box) and per leaf
(ellipse, labelled with name and shape), each drawn once, and an edge from
every input towards the op that consumes it, so arrows point to the output;
`dot -Tsvg` renders it.

Both walk the graph without recursion; the text tree stops after
`MAX_LINES` lines with a `... (N more lines)` note so that a graph of a
million nodes stays printable.  The result is a string (displayed as is).
"""

from __future__ import annotations

from ..engine.function import Function
from ..runtime.errors import GradTypeError, GradValueError
from ..ops.registry import not_a_tensor_op
from ..core.tensor import Tensor
from ..runtime import context
from ..core.convert import type_name

MAX_LINES = 1000


class Picture(str):
    """A string shown as its text (no quotes) when displayed."""

    __slots__ = ()

    def __repr__(self):
        return str(self)


def _names():
    """id(tensor) -> variable name, from the current session's variables."""
    out = {}
    for name, v in (context.current.variables or {}).items():
        if isinstance(v, Tensor):
            out.setdefault(id(v), name)
    return out


def _shape(t):
    return "[" + ", ".join(str(n) for n in t.data.shape) + "]"


def _leaf_label(t, names):
    return f"{names.get(id(t), '<leaf>')} {_shape(t)}"


def _inputs(node):
    """The inputs of a node that take gradients: ops and leaf tensors, in order."""
    return [p for p in node.parents if p is not None]


def text_tree(t, names=None, max_lines=MAX_LINES, note=None):
    """`note(item)`, if given, is text put after each op's or leaf's name."""
    names = _names() if names is None else names
    note = note or (lambda item: "")
    root = t.grad_fn
    if root is None:
        line = _leaf_label(t, names) + note(t)
        if not t.requires_grad:
            line += " (does not require grad: no graph)"
        return line
    lines = [root.name + note(root)]
    seen = {root}
    # stack of (item, prefix, is_last); children pushed in reverse to keep order
    stack = []
    kids = _inputs(root)
    for i in range(len(kids) - 1, -1, -1):
        stack.append((kids[i], "", i == len(kids) - 1))
    hidden = 0
    while stack:
        item, prefix, last = stack.pop()
        if len(lines) >= max_lines:
            hidden += 1
            if isinstance(item, Function) and item not in seen:
                seen.add(item)
                stack.extend((k, "", True) for k in _inputs(item))
            continue
        branch = "└── " if last else "├── "
        if type(item) is Tensor:
            lines.append(prefix + branch + _leaf_label(item, names) + note(item))
            continue
        if item in seen:
            lines.append(prefix + branch + item.name + " (see above)")
            continue
        seen.add(item)
        lines.append(prefix + branch + item.name + note(item))
        child_prefix = prefix + ("    " if last else "│   ")
        kids = _inputs(item)
        for i in range(len(kids) - 1, -1, -1):
            stack.append((kids[i], child_prefix, i == len(kids) - 1))
    if hidden:
        lines.append(f"... ({hidden} more not shown)")
    return "\n".join(lines)


def _dot_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def dot(t, names=None):
    names = _names() if names is None else names
    ids = {}
    lines = ["digraph autograd {", "  rankdir=BT;", '  node [fontname="Helvetica", fontsize=11];']

    def node_id(item):
        key = id(item)
        if key not in ids:
            ids[key] = f"n{len(ids)}"
            if type(item) is Tensor:
                label = f"{names.get(id(item), '<leaf>')}\\n{_shape(item)}"
                lines.append(
                    f'  {ids[key]} [label="{_escape_label(label)}", shape=ellipse, '
                    "style=filled, fillcolor=lightblue];"
                )
            else:
                lines.append(f"  {ids[key]} [label={_dot_str(item.name)}, shape=box];")
            return ids[key], True
        return ids[key], False

    root = t.grad_fn if t.grad_fn is not None else t
    node_id(root)
    edges = []
    stack = [root]
    while stack:
        item = stack.pop()
        if type(item) is Tensor:
            continue
        me = ids[id(item)]
        for p in _inputs(item):
            pid, new = node_id(p)
            edges.append(f"  {pid} -> {me};")
            if new:
                stack.append(p)
    lines.extend(edges)
    lines.append("}")
    return "\n".join(lines)


def _escape_label(s):
    # keep the \n line break of the label, escape quotes
    return s.replace('"', '\\"')


@not_a_tensor_op(
    "graph",
    'graph(t, format="text", values=false)',
    "the autograd graph behind t: a text tree of grad_fn names down to the leaves "
    "(values=true: each value's shape and the gradient that flowed into it), "
    'Graphviz DOT text with format="dot", an SVG picture with format="svg"; '
    'save(graph(t), "g.svg") writes the picture',
    category="autograd",
)
def graph(t, format="text", values=False):
    if isinstance(t, Function):  # graph(y.grad_fn): the same picture
        t = Tensor(None, True, t)
    if not isinstance(t, Tensor):
        raise GradTypeError(f"graph(): expected a tensor, got {type_name(t)}")
    from .graph_view import GraphPicture, SvgPicture, svg_picture, value_notes  # (start-up)

    names = _names()
    values = bool(values)
    if format == "text":
        note = value_notes(t, names) if values else None
        return GraphPicture(text_tree(t, names, note=note), t, names, values, dot)
    if format == "dot":
        return Picture(dot(t, names))
    if format == "svg":
        return SvgPicture(svg_picture(t, names, values))
    raise GradValueError(f'graph(): format must be "text", "dot" or "svg", got {format!r}')
