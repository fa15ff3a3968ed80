"""Which variables of a fast-tier unit (fast_tier.py) only ever hold ints: those every
assignment of the unit gives an int expression (an int literal, such a variable, `+`
`-` `*` of two of them, `//` or `%` of one by a nonzero int literal, `-` of one), found
as the largest such set.  The unit's specialized body, entered when the variables it
starts with are ints, runs their operators without type tests: only the size test
that keeps int results within the limit (a result beyond it is the operator
function's: inf, a float, on which Python's own operators then give what the
operator functions give for a float and an int, and the size test, failing, sends
`+` `-` `*` to those functions again)."""

from __future__ import annotations

from .parser import Token, Tree

_SCOPES = frozenset(
    {"funcdef", "classdef", "decorated", "lambda_", "listcomp", "setcomp", "dictcomp", "genexp"}
)
_CLOSED = frozenset({"+", "-", "*"})


def _assignments(node, out, loop_target):
    """(name, value node, operator) of each binding in node; value None: not an int."""
    if not isinstance(node, Tree) or node.data in _SCOPES:
        return
    d = node.data
    if d == "assign":
        for t in node.children[:-1]:
            if isinstance(t, Tree) and t.data == "name":
                out.append((t.children[0].value, node.children[-1], None))
    elif d == "augassign":
        t, op, v = node.children
        if isinstance(t, Tree) and t.data == "name":
            out.append((t.children[0].value, v, op.value[:-1]))
    elif d == "for_stmt":
        t = node.children[0]
        if isinstance(t, Tree) and t.data == "name" and t.children[0].value != loop_target:
            out.append((t.children[0].value, None, None))
    for c in node.children:
        _assignments(c, out, loop_target)


def _literal_int(node):
    if not (isinstance(node, Tree) and node.data == "number"):
        return None
    text = node.children[0].value.replace("_", "")
    if any(c in text for c in ".eEjJxXoObB") or len(text) > 18:
        return None
    return int(text)


def _is_int(node, ints):
    if isinstance(node, Token) or node is None:
        return False
    d = node.data
    if d == "call":
        return _self_call(node, ints) and SELF in ints
    if d == "number":
        return _literal_int(node) is not None
    if d == "name":
        return node.children[0].value in ints
    if d == "unary":
        return node.children[0].value == "-" and _is_int(node.children[1], ints)
    if d == "binary":
        ch = node.children
        if not _is_int(ch[0], ints):
            return False
        for op, r in zip(ch[1::2], ch[2::2]):
            if not _step(op.value, r, ints):
                return False
        return True
    return False


def _step(op, right, ints):
    """Whether int `op` right is an int."""
    if op in _CLOSED:
        return _is_int(right, ints)
    if op in ("//", "%"):
        return bool(_literal_int(right))
    return False


#: stands in `ints` for "the function's calls of itself give ints"
SELF = " self"


def _self_call(node, ints):
    """Whether node calls the function itself (ints[SELF_NAME]) with int arguments only."""
    func, args = node.children
    if not (isinstance(func, Tree) and func.data == "name"):
        return False
    if func.children[0].value != ints.get(SELF_NAME):
        return False
    parts = [a for a in (args.children if args is not None else ()) if a is not None]
    n = ints.get(SELF_N)
    if n is not None and len(parts) != n:  # (fewer: its defaults, the second one has none)
        return False
    return all(isinstance(a, Tree) and _is_int(a, ints) for a in parts)


SELF_NAME = " name"
SELF_N = " parameters"


def _calls(node, out):
    if isinstance(node, Tree) and node.data not in _SCOPES:
        if node.data == "call":
            out.append(node)
        for c in node.children:
            _calls(c, out)


def _returns(node, out):
    if isinstance(node, Tree) and node.data not in _SCOPES:
        if node.data == "return_stmt":
            out.append(node.children[0])
        for c in node.children:
            _returns(c, out)


def _last_statement(suite):
    last = None
    for c in suite.children:
        if isinstance(c, Tree):
            last = c
    if last is not None and last.data == "simple_stmt":
        last = [x for x in last.children if x is not None][-1]
    return last


def int_function(suite, candidates, name, n):
    """(variables holding only ints, whether the function's calls of itself with int
    arguments give ints) for the body `suite` of function `name` of n parameters: they
    do when every call in it is such a call of itself (each argument given), and it ends in a `return` and every `return`
    gives an int (the function `name` is checked to be itself when a call starts)."""
    calls = []
    _calls(suite, calls)
    returns = []
    _returns(suite, returns)
    last = _last_statement(suite)
    if calls and last is not None and last.data == "return_stmt":
        ints = int_variables(suite, candidates, self_name=name)
        env = _Ints(ints, {SELF_NAME: name, SELF: True, SELF_N: n})
        if all(_self_call(c, env) for c in calls) and all(
            r is not None and _is_int(r, env) for r in returns
        ):
            return ints, True
    return int_variables(suite, candidates), False


class _Ints(set):
    """A set of variable names, with the function's own name (SELF_NAME) and whether
    its calls of itself give ints (SELF)."""

    def __init__(self, names, extra):
        super().__init__(names)
        self.extra = extra

    def get(self, key):
        return self.extra.get(key)

    def __contains__(self, key):
        if key == SELF:
            return bool(self.extra.get(SELF))
        return super().__contains__(key)


def int_variables(suite, candidates, loop_target=None, self_name=None):
    """The candidates that only ever hold ints in `suite` (a unit's body or loop)."""
    bindings = []
    _assignments(suite, bindings, loop_target)
    extra = {SELF_NAME: self_name, SELF: self_name is not None}
    ints = _Ints(candidates, extra)
    changed = True
    while changed:
        changed = False
        for name, value, op in bindings:
            if name not in ints:
                continue
            ok = value is not None and (
                _is_int(value, ints) if op is None else _step(op, value, ints)
            )
            if not ok:
                ints.discard(name)
                changed = True
    return frozenset(n for n in ints if n not in (SELF, SELF_NAME))


def assigned_names(suite):
    """The names `suite` binds (assignments, `op=`, `for` targets)."""
    bindings = []
    _assignments(suite, bindings, None)
    return frozenset(name for name, _, _ in bindings)


#: a variable of a specialized body checked to hold an int of at most this size
#: (a bound's test of two one-digit ints is CPython's quickest comparison)
SMALL = (1 << 30) - 1
#: how much larger in size than its parameter's an argument of a function's call of
#: itself may be, for its second function to take its parameters unchecked
STEP = 1 << 20
#: the size of those parameters, SMALL plus STEP for each call deeper (fewer than
#: 2 ** 31: Python's recursion limit is far below)
DEEP = 1 << 61


def _growth(node, names):
    """(a, c) for an int expression of `names`, int literals, `+ - *`, unary `-` and
    `//` `%` by a nonzero int literal: its size is at most a * B + c when each name
    holds an int of at most B in size; None for any other expression, and for one
    with a square of the names."""
    if not isinstance(node, Tree):
        return None
    d = node.data
    if d == "number":
        v = _literal_int(node)
        return None if v is None else (0, abs(v))
    if d == "name":
        return (1, 0) if node.children[0].value in names else None
    if d == "unary":
        return _growth(node.children[1], names) if node.children[0].value == "-" else None
    if d != "binary":
        return None
    ch = node.children
    g = _growth(ch[0], names)
    for op, r in zip(ch[1::2], ch[2::2]):
        o = op.value
        if g is None:
            return None
        if o in ("//", "%"):
            k = _literal_int(r)
            if not k:
                return None
            g = g if o == "//" else (0, abs(k))
            continue
        h = _growth(r, names)
        if h is None or o not in _CLOSED:
            return None
        if o == "*":
            if g[0] and h[0]:
                return None
            g = (g[0] * h[1] + h[0] * g[1], g[1] * h[1])
        else:
            g = (g[0] + h[0], g[1] + h[1])
    return g


def small_steps(suite, name, params, small):
    """Whether every call of `name` in `suite` (a function that calls only itself)
    gives each parameter in `small` an int at most STEP larger in size than the
    largest of `small`, or at most SMALL: then, when the first call's are at most
    SMALL, those of a call k deeper are at most SMALL + k * STEP, below DEEP."""
    calls = []
    _calls(suite, calls)
    for c in calls:
        func, args = c.children
        if not (isinstance(func, Tree) and func.data == "name" and func.children[0].value == name):
            return False
        parts = [a for a in (args.children if args is not None else ()) if a is not None]
        if len(parts) != len(params):
            return False
        for p, a in zip(params, parts):
            if p in small:
                g = _growth(a, small)
                if g is None or g[0] > 1 or g[1] > (STEP if g[0] else SMALL):
                    return False
    return True
