"""A replayed body's statement `total op= E.item()` or `recv.append(E.item())` of an
expression E other than a name (`correct += (pred == y).sum().item()`: loop_shapes.held_item)
split in two before the body is compiled (loop_compile.py): an assignment of E to a name
the program cannot spell (`held`), replayed as any assignment is, and the statement
reading that name's number (`total op= <name>.item()`), which replays as bookkeeping
does (replay_plan.Item, Append).

The name is no variable of the program: its value is held in a `Cell` of the statement,
which the assignment's closure fills and the statement's own closure reads and lets go
(`Compiler.e_held`), so the program never sees it (`globals()`, `locals()`), and a
compiled iteration runs E, `item()` and `op=` once each, in the statement's order, as
the statement compiled whole would."""

from __future__ import annotations

import builtins

from .loop_shapes import _kind, held_item, names_in, pure
from .loop_shapes import held_backward
from .parser import Token, Tree
from .positions import located, pos
from .state import state


class Cell:
    """Where a split statement's value is held between its two parts."""

    __slots__ = ("value",)

    def __init__(self):
        self.value = None

    def store(self, s, v):
        self.value = v

    def load(self, s):
        return self.value


def to_cell(run, cell, line, col):
    """The closure of a split statement's first part (`run`: its value's closure): the
    value held in its cell, the line set and errors placed as a statement's
    (Compiler.small)."""
    store = cell.store

    def first_part(s):
        state.line = line
        try:
            store(s, run(s))
        except Exception as e:
            raise located(e, line, col) from None

    return first_part


def held(name) -> bool:
    """Whether a made name is one `split` gave (no variable of the program)."""
    return " " in name


def split(nodes):
    """(the statements, each split one as its two parts, {id(part): the node to compile
    its closure from}, {name: its Cell})."""
    out, alt, cells = [], {}, {}
    for n in nodes:
        got = held_item(n) or held_backward(n)
        if got is None:
            parts = _unpacked(n)
            if parts is None:
                out.append(n)
                continue
            alt.update((id(p), c) for p, c in parts)
            out.extend(p for p, _ in parts)
            continue
        value, item = got
        line, col = pos(item)
        name = f"item at {line}:{col}"
        cell = cells[name] = Cell()
        target = Tree("name", [Token("NAME", name, line=line, column=col)], value.meta)
        first = Tree("assign", [target, value], n.meta)
        second = _replace(n, value, target)
        alt[id(second)] = _replace(n, value, Tree("held", [cell], value.meta))
        out += (first, second)
    return out, alt, cells


def kind_of(n):
    """loop_shapes._kind of a statement, an unpacking `a, b = E` that `split` splits
    counted as the assignment of its first name, and `E.backward()` (`held_backward`) as a
    backward."""
    if held_backward(n) is not None:
        return ("backward", None)
    parts = _unpacked(n)
    return _kind(n) if parts is None else ("assign", parts[0][0].children[0].children[0].value)


def unpacked(n):
    """The names an unpacking that `split` splits binds (else none)."""
    parts = _unpacked(n)
    return {p.children[0].children[0].value for p, _ in parts} if parts is not None else set()


def _unpacked(n):
    """For `a, b = E` (names, each bound once, none read by E, E pure: `logits, loss =
    model(xb, yb)` of a forward returning a tuple), its parts as (node, the node to
    compile its closure from): `a = E`, compiled from the statement itself (it binds
    every name), then `b = a` for each other name, compiled as `pass` (its value is an
    op's output of the first part's: replay_plan takes it so, an alias); else None."""
    if n.data != "assign" or len(n.children) != 2 or not isinstance(n.children[0], Tree):
        return None
    target, value = n.children
    names = [c for c in target.children if c is not None]
    if (
        not _forward(value)
        or target.data not in ("tuple_items", "exprlist_items")
        or not all(isinstance(c, Tree) and c.data == "name" for c in names)
        or len({c.children[0].value for c in names}) != len(names)
        or {c.children[0].value for c in names} & names_in(value)
        or not pure(value)
    ):
        return None
    first = Tree("assign", [names[0], value], n.meta)
    out = [(first, n)]
    for c in names[1:]:
        out.append((Tree("assign", [c, names[0]], n.meta), Tree("pass_stmt", [], n.meta)))
    return out


def _forward(value) -> bool:
    """Whether an unpacked value is a call `f(a, ...)` of a variable, not a built-in's
    name, given names or names indexed by names only (`model(xb, yb)`, `model(X[ix],
    Y[ix])`: a forward on the iteration's data; not `get_batch(16)` or `next(it)`, which
    make the data: a body's head, replay_head.py)."""
    if not (isinstance(value, Tree) and value.data == "call"):
        return False
    fn, args = value.children
    return (
        isinstance(fn, Tree)
        and fn.data == "name"
        and not hasattr(builtins, fn.children[0].value)
        and args is not None
        and bool(args.children)
        and all(_data(a) for a in args.children)
    )


def _data(a) -> bool:
    """A forward's argument `_forward` takes: a name, or a name indexed by names (`X[ix]`:
    the iteration's minibatch, drawn by the head)."""
    if not isinstance(a, Tree):
        return False
    if a.data == "name":
        return True
    if a.data != "getitem" or not _data(a.children[0]) or a.children[0].data != "name":
        return False
    subs = a.children[1]
    return (
        isinstance(subs, Tree)
        and subs.data == "subscripts"
        and all(isinstance(c, Tree) and c.data == "name" for c in subs.children)
    )


def _replace(node, old, new):
    """A copy of the tree `node` with the node `old` (the same object) in it replaced by
    `new` (only the nodes above it copied)."""
    if node is old:
        return new
    if not isinstance(node, Tree):
        return node
    children = [_replace(c, old, new) for c in node.children]
    if all(a is b for a, b in zip(children, node.children)):
        return node
    return Tree(node.data, children, node.meta)
