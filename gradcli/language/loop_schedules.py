"""A replayed loop body's schedule statements (language/loop_shapes.py says which bodies
qualify): the numbers a training step's updates read that the iteration changes, computed
from plain numbers, run as compiled in their place (the statement reads variables checked,
when the plan is made and before each iteration, to hold numbers or tensors: no code of
the program runs), their names read by the steps after them as they are then
(replay_updates._live):

* `lr = 0.1 if i < 1000 else 0.01`: a name bound to an expression of names, numbers,
  arithmetic, comparisons, `and`, `or`, `not` and `a if c else b` (`_plain`), or `lr *= 0.5`;
* an `if` / `elif` / `else` whose conditions are such expressions and whose branches hold
  only such statements and `for g in opt.param_groups: g["lr"] = expression` (also `op=`;
  a string key), a step schedule written out;
* an assignment `lr = base * 0.99 ** i` whose name only steps and schedules read
  (`scheduled`; as a replayed assignment it applied no op and gave no plan).

Their names are counters to the rest of the body: a replayed assignment may not read one."""

from __future__ import annotations

from .loop_trees import _made_of, _trees, _written, names_in
from .parser import Tree

_OPS = frozenset({"+", "-", "*", "/", "//", "%", "**"})
_COMPARE = frozenset({"==", "!=", "<", ">", "<=", ">="})
_AUG = frozenset({"+=", "-=", "*=", "/="})


def _plain(node) -> bool:
    """Whether an expression is made of names, numbers, arithmetic, comparisons, `and`,
    `or`, `not`, True, False and `a if c else b` of such parts."""
    return _made_of(node, _OPS, _plain_part)


def _plain_part(node) -> bool:
    d, ch = node.data, node.children
    if d == "ternary" or d in ("and_", "or_"):
        return all(_plain(c) for c in ch)
    if d == "not_":
        return _plain(ch[0])
    if d == "compare":
        return all(c.children[0].value in _COMPARE for c in ch[1::2]) and all(
            _plain(c) for c in ch[0::2]
        )
    return d in ("true", "false")


def _name(node):
    return node.children[0].value if isinstance(node, Tree) and node.data == "name" else None


def _setting(small, target) -> bool:
    """`target["key"] = expression` (or `op=`) of a string key and a `_plain` expression."""
    d, ch = small.data, small.children
    if d not in ("assign", "augassign") or (d == "assign" and len(ch) != 2):
        return False
    if d == "augassign" and ch[1].value not in _AUG:
        return False
    slot = ch[0]
    if not (isinstance(slot, Tree) and slot.data == "getitem" and _name(slot.children[0])):
        return False
    subs = slot.children[1]
    return (
        _name(slot.children[0]) == target
        and isinstance(subs, Tree)
        and subs.data == "subscripts"
        and len(subs.children) == 1
        and isinstance(subs.children[0], Tree)
        and subs.children[0].data == "string"
        and _plain(ch[-1])
        and target not in names_in(ch[-1])
    )


def _groups(node) -> bool:
    """`for g in recv.param_groups: g["lr"] = expression` (statements `_setting`), without
    `else` (recv checked when the plan is made: gradcli's own optimizer)."""
    target, iterable, suite, other = node.children
    name = _name(target)
    if other is not None or name is None:
        return False
    if not (
        isinstance(iterable, Tree)
        and iterable.data == "getattr"
        and _name(iterable.children[0]) is not None
        and iterable.children[1].value == "param_groups"
    ):
        return False
    return _all(suite, lambda small: _setting(small, name), False)


def _all(suite, ok, compound=True) -> bool:
    """Whether each statement of a suite is a simple one `ok` accepts, or (`compound`) an
    `if` or a `for` over an optimizer's groups that `schedule` accepts."""
    for st in suite.children:
        if not isinstance(st, Tree):
            continue
        if st.data == "simple_stmt":
            if not all(ok(x) for x in st.children if x is not None):
                return False
        elif not compound or not _ok(st):
            return False
    return True


def _simple(small) -> bool:
    """`name = expression` or `name op= expression` of a `_plain` expression."""
    d, ch = small.data, small.children
    if d == "assign":
        return len(ch) == 2 and _name(ch[0]) is not None and _plain(ch[1])
    if d == "augassign":
        return _name(ch[0]) is not None and ch[1].value in _AUG and _plain(ch[2])
    return d == "pass_stmt"


def _ok(node) -> bool:
    """Whether a statement is a schedule's (the module's docstring)."""
    d, ch = node.data, node.children
    if d in ("assign", "augassign"):
        return _simple(node)
    if d == "for_stmt":
        return _groups(node)
    if d != "if_stmt":
        return False
    cond, suite, *rest = ch
    branches = [(cond, suite)] + [(c.children[0], c.children[1]) for c in rest[:-1]]
    return all(_plain(c) and _all(s, _simple) for c, s in branches) and (
        rest[-1] is None or _all(rest[-1], _simple)
    )


def schedule(node):
    """The names a statement the module's docstring describes binds with `=` and does not
    read (not read before they are bound: the plan need not check them), as a frozenset,
    else None."""
    if not _ok(node):
        return None
    targets, assigned = set(), set()
    for t in _trees(node):
        if t.data == "assign" and _name(t.children[0]) is not None:
            targets.add(id(t.children[0]))
            assigned.add(_name(t.children[0]))
    read = {_name(t) for t in _trees(node) if t.data == "name" and id(t) not in targets}
    return frozenset(assigned - read)


def scheduled(nodes, kinds, at) -> bool:
    """Whether the replayed assignment `nodes[at]` (`lr = base * 0.99 ** i`: `_plain`) binds
    a name that only steps, schedules, `if` bodies and appends read after it (`_READERS`),
    and at least one step or schedule does."""
    n = nodes[at]
    if not _simple(n) or n.data != "assign":
        return False
    name = _name(n.children[0])
    readers = [k for m, k in zip(nodes[at + 1 :], kinds[at + 1 :]) if name in names_in(m)]
    return any(k is not None and k[0] in _STEPS for k in readers) and all(
        k is not None and k[0] in _READERS for k in readers
    )


def schedules(nodes, kinds):
    """The kinds of a body's statements, an assignment `scheduled` a schedule's (its name
    bound, not read), and a schedule whose names a statement of another kind reads (a
    replayed assignment: `h = x * lr`) None (a statement a replayed body may not have:
    before, as a compiled tail's)."""
    kinds = [
        ("schedule", frozenset({k[1]}))
        if k is not None and k[0] == "assign" and scheduled(nodes, kinds, at)
        else k
        for at, k in enumerate(kinds)
    ]
    for at, k in enumerate(kinds):
        if k is None or k[0] != "schedule":
            continue
        names = _written(nodes[at])
        if any(
            names & names_in(m) and (j is None or j[0] not in _READERS)
            for x, (m, j) in enumerate(zip(nodes, kinds))
            if x != at
        ):
            kinds[at] = None
    return kinds


#: the kinds of statement that may read a schedule's name (run as compiled, or taking it
#: as it is then): steps, schedules, an `if`'s body, an append
_READERS = frozenset({"updates", "each", "schedule", "guard", "append"})
_STEPS = frozenset({"updates", "each", "schedule"})
