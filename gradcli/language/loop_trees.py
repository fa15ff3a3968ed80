"""The walks of a statement's parse tree that the loop shapes (language/loop_shapes.py,
loop_updates.py, loop_schedules.py) are made of: its trees, the names it reads, its
number literals, a call's positional arguments and expressions made of given parts."""

from __future__ import annotations

from .parser import Tree


def _trees(node):
    """node and every Tree below it."""
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, Tree):
            yield n
            todo.extend(n.children)


def names_in(node):
    """The variables an expression or statement reads or writes (its `name` nodes)."""
    return {t.children[0].value for t in _trees(node) if t.data == "name"}


def _number(node):
    return isinstance(node, Tree) and (
        node.data == "number"
        or (node.data == "unary" and node.children[0].value == "-" and _number(node.children[1]))
    )


def _args(call):
    """The positional arguments of a call node (None if it has any other kind)."""
    args = call.children[1]
    if args is None:
        return []
    out = list(args.children)
    return (
        out
        if all(
            isinstance(a, Tree) and a.data not in ("kwarg", "star_arg", "kw_arg", "starstar_arg")
            for a in out
        )
        else None
    )


def _made_of(node, ops, other) -> bool:
    """Whether an expression is names, numbers, `ops` (binary operators; "**" for powers
    too) and unary minus of such parts, or a part `other(node)` accepts."""
    if not isinstance(node, Tree):
        return False
    d, ch = node.data, node.children
    if d in ("name", "number"):
        return True
    if d == "binary":
        return all(t.value in ops for t in ch[1::2]) and all(
            _made_of(c, ops, other) for c in ch[0::2]
        )
    if d == "power":
        return "**" in ops and _made_of(ch[0], ops, other) and _made_of(ch[2], ops, other)
    if d == "unary":
        return ch[0].value == "-" and _made_of(ch[1], ops, other)
    return other(node)


def _written(node):
    """The variables a statement binds or changes in place."""
    out = set()
    for t in _trees(node):
        if (
            t.data in ("assign", "augassign")
            and isinstance(t.children[0], Tree)
            and t.children[0].data == "name"
        ):
            out.add(t.children[0].children[0].value)
    return out
