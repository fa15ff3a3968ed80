"""The shapes of the in-place updates a replayed loop body may hold (language/loop_shapes.py
says which bodies qualify): a `with torch.no_grad():` block of `w -= expression`,
`w.grad = None`, `w.grad.zero_()` and an op's in-place method, also in `for p in
params:` loops, run as compiled in every iteration (language/replay_updates.py)."""

from __future__ import annotations

from ..ops.registry import BUILTINS
from .loop_trees import _args, _made_of
from .parser import Tree

_ARITH = frozenset({"+", "-", "*", "/", "**"})


def _grad_of(node):
    """`w.grad` -> 'w' (else None)."""
    if (
        isinstance(node, Tree)
        and node.data == "getattr"
        and node.children[1].value == "grad"
        and isinstance(node.children[0], Tree)
        and node.children[0].data == "name"
    ):
        return node.children[0].children[0].value
    return None


def _arithmetic(node) -> bool:
    """Names, numbers, `w.grad` and `+ - * / ** ^` of them (an update's right side: no
    call, subscript or comparison, which could run the program's own code)."""
    return _made_of(node, _ARITH, lambda n: _grad_of(n) is not None)


def _update(small) -> bool:
    """A statement of a no_grad block that may run as compiled in a replayed iteration."""
    d, ch = small.data, small.children
    if d == "augassign":
        return (_data_step(small) or (isinstance(ch[0], Tree) and ch[0].data == "name")) and (
            _arithmetic(ch[2])
        )
    if d == "assign":
        return (
            len(ch) == 2
            and _grad_of(ch[0]) is not None
            and isinstance(ch[1], Tree)
            and ch[1].data == "none"
        )
    if d == "expr_stmt":
        c = ch[0]
        if not (isinstance(c, Tree) and c.data == "call" and c.children[0].data == "getattr"):
            return False
        recv, attr = c.children[0].children[0], c.children[0].children[1].value
        args = _args(c)
        if attr == "zero_" and c.children[1] is None:
            return _grad_of(recv) is not None
        # w.sub_(lr * w.grad): an op's in-place method of a variable (checked when the
        # plan is made: a tensor), with arguments as an update's right side
        return (
            isinstance(recv, Tree)
            and recv.data == "name"
            and bool(args)
            and _inplace_method(attr)
            and all(_arithmetic(a) for a in args)
        )
    return d == "pass_stmt"


def _inplace_method(name) -> bool:
    """Whether `name` is the in-place method an op declares (`register(inplace=...)`)."""
    return any(getattr(e.inplace, "name", None) == name for e in BUILTINS.values())


def _no_grad_head(node) -> bool:
    """Whether a `with` statement is `with torch.no_grad():` (or `no_grad()`)."""
    item = node.children[0]
    if len(node.children) != 2 or item.children[1] is not None:
        return False
    c = item.children[0]
    if c.data == "call" and c.children[1] is None:
        c = c.children[0]
    if c.data == "getattr":
        ok = (
            c.children[1].value == "no_grad"
            and isinstance(c.children[0], Tree)
            and c.children[0].data == "name"
        )
    else:
        ok = c.data == "name" and c.children[0].value == "no_grad"
    return ok


def _no_grad_block(node) -> bool:
    suite = node.children[-1]
    if not _no_grad_head(node):
        return False
    for st in suite.children:
        if not isinstance(st, Tree):
            continue
        if st.data == "for_stmt" and _over_parameters(st):
            continue
        if st.data != "simple_stmt" or not all(_update(x) for x in st.children if x is not None):
            return False
    return True


def _over_parameters(node, update=None):
    """`for p in recv.method(): updates` (`for param in model.parameters():`) or `for p
    in name: updates` (`for p in params:`; `for p in (w, b):`, `displayed`), without
    `else`: the block then runs as
    compiled (its `recv` checked when the plan is made: an object whose class declares
    `replay_calls`, or a list of tensors).  `update`: the test of each statement
    (`_update`, else `_clear`)."""
    target, iterable, suite, other = node.children
    args = _args(iterable) if isinstance(iterable, Tree) and iterable.data == "call" else None
    update = update or _update
    return (
        other is None
        and isinstance(target, Tree)
        and target.data == "name"
        and (
            (
                args == []
                and iterable.children[0].data == "getattr"
                and isinstance(iterable.children[0].children[0], Tree)
                and iterable.children[0].children[0].data == "name"
            )
            or (isinstance(iterable, Tree) and iterable.data == "name")
            or displayed(iterable) is not None
        )
        and all(
            isinstance(st, Tree)
            and st.data == "simple_stmt"
            and all(update(x) for x in st.children if x is not None)
            for st in suite.children
            if isinstance(st, Tree)
        )
    )


def _clear(small) -> bool:
    """A statement that clears a gradient, `w.grad = None` or `w.grad.zero_()` (what a
    loop of the body itself may do with each parameter: `_kind`'s "each")."""
    return (
        _update(small)
        and small.data in ("assign", "expr_stmt")
        and (small.data == "assign" or small.children[0].children[0].children[1].value == "zero_")
    )


def _data_step(small) -> bool:
    """`w.data op= expression` (`p.data += -lr * p.grad`), the expression an update's right
    side: a step through the parameter's `.data`, which needs no no_grad block (its
    tensor records no graph) and leaves the parameter's version counter as it is; run as
    compiled."""
    d, ch = small.data, small.children
    t = ch[0] if d == "augassign" else None
    return (
        isinstance(t, Tree)
        and t.data == "getattr"
        and t.children[1].value == "data"
        and isinstance(t.children[0], Tree)
        and t.children[0].data == "name"
        and _arithmetic(ch[2])
    )


def _in_body(small) -> bool:
    """A statement a loop of the body itself may hold for each parameter (`_kind`'s
    "each", run in the body's grad mode): one that clears a gradient (`_clear`) or a step
    through `.data` (`_data_step`)."""
    return _clear(small) or _data_step(small)


def displayed(iterable):
    """The names of a tuple or list display of names (`(W1, b1, W2)`, `[w, b]`), else None
    (a loop over them steps each variable's tensor: replay_updates._each)."""
    if isinstance(iterable, Tree) and iterable.data == "list_":
        iterable = iterable.children[0] if iterable.children else None
    if not (isinstance(iterable, Tree) and iterable.data in ("tuple_items", "list_items")):
        return None
    if not all(isinstance(c, Tree) and c.data == "name" for c in iterable.children):
        return None
    return tuple(c.children[0].value for c in iterable.children)
