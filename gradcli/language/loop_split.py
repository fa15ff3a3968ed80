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

from .loop_shapes import held_item
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
        got = held_item(n)
        if got is None:
            out.append(n)
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
