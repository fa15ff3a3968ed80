"""The forwards and functions a replayed statement may see through (language/
replay_through.py checks them when a plan is made): their shapes checked on the parse
tree, once, when the `def` is compiled (language/definitions.py), as loop_shapes.py
checks a loop body's; what they found is noted in loop_shapes.THROUGH and
THROUGH_DEFS."""

from __future__ import annotations

from .loop_shapes import (
    _def_statements,
    _dotted,
    _statements,
    _trees,
    names_in,
    namespace_calls,
    pure,
)
from .loop_compile import _literals, namespaced
from .parser import Tree


def _assigned(n, me=None):
    """The names a `name = expression` statement (or `a, b = expression`, unpacking what
    the expression gives: a tensor's rows or a tuple a call returns, the same number of
    items for the same shapes) binds, its expression made as a replayed assignment's
    (`pure`, `self.attr` reading module `me`'s attributes), else None."""
    ch = n.children
    if n.data != "assign" or len(ch) != 2 or not isinstance(ch[0], Tree) or not pure(ch[1], me):
        return None
    target = ch[0]
    if target.data == "name":
        return [target.children[0].value]
    if target.data == "tuple_items" and all(
        isinstance(c, Tree) and c.data == "name" for c in target.children
    ):
        return [c.children[0].value for c in target.children]
    return None


def through(suite, params, comp=None):
    """Whether a method's body is one a replayed loop may see through when it is a
    module's `forward` or a method a forward calls (replay_through._methods): a
    docstring, `name = expression` statements (or `a, b = expression`: `_assigned`),
    `if p is None:` branches of them on a parameter p (`_branches`), `for name in
    iterable:` loops of such statements and a last `return expression` (or a tuple of
    them and None, `_returned`), each expression made as a replayed assignment's
    (`pure`) where `self.attr(...)` may call the module's own modules or methods and
    `self.w` read its parameters and buffers, of its parameters, its locals and
    globals; each loop's iterable either `self.attr` (a ModuleList or Sequential of the
    module's, checked by replay_through.through_state: its modules called in turn as
    `name(...)`) or reading none of its parameters and locals (a draw:
    `range(random.randint(0, 3))`, made in its place at each call, the ops of each of
    its values noted as a plan of their own, language/replay_draws.py): (the globals it
    reads, the attributes of `self` it calls, the draws' loops' nodes, the other
    attributes of `self` it reads: its parameters' and buffers' names, the numbers it
    writes, which its ops may take as constants, the attributes its loops go over),
    else None.  Nothing else runs: what its ops are is a function of the module's
    state, the shapes and dtypes of what it is given and what its loops go over."""
    if not params:
        return None
    me = params[0]
    nodes, ret = _def_statements(suite)
    if ret is None or not ret.children or ret.children[0] is None:
        return None
    local = set(params)
    flat, loops, each = [], [], set()
    nodes, tested, nones = _branches(nodes, params[1:])
    if nodes is None:
        return None
    for n in nodes:
        if n.data == "for_stmt":
            target, iterable, inner, other = n.children
            if other is not None or not (isinstance(target, Tree) and target.data == "name"):
                return None
            if target.children[0].value in tested:
                return None
            local.add(target.children[0].value)
            attr = _own_attr(iterable, me)
            if attr is not None:  # (`for block in self.blocks:`, a ModuleList's modules)
                each.add(attr)
            else:
                loops.append(n)
            flat.extend(_statements(inner))
        else:
            flat.append(n)
    for n in flat:
        names = _assigned(n, me) if id(n) not in nones else [n.children[0].children[0].value]
        if names is None or tested.intersection(names):  # (a parameter an `if` tests
            return None  # bound again)
        local.update(names)
    value = ret.children[0]
    if not (pure(value, me) or _returned(value, me)):
        return None
    if any(names_in(n.children[1]) & local for n in loops):
        return None
    calls = {
        t.children[0].children[1].value
        for x in flat + [ret]
        for t in _trees(x)
        if t.data == "call"
        and isinstance(t.children[0], Tree)
        and t.children[0].data == "getattr"
        and _dotted(t.children[0].children[0]) == (me, ())
    }
    tensors = {
        t.children[1].value
        for x in flat + [ret]
        for t in _trees(x)
        if t.data == "getattr" and _dotted(t.children[0]) == (me, ())
    } - calls
    reads = set().union(*(names_in(x) for x in flat + [ret]))
    literals = (
        frozenset().union(*(_literals(comp, x) for x in flat + [ret]))
        if comp is not None
        else frozenset()
    )
    return (
        frozenset(reads - local),
        frozenset(calls),
        tuple(loops),
        frozenset(tensors),
        literals,
        frozenset(each),
    )


def _own_attr(node, me):
    """The attribute `self.attr` names (me: the name of `self`), else None."""
    if isinstance(node, Tree) and node.data == "getattr" and _dotted(node.children[0]) == (me, ()):
        return node.children[1].value
    return None


def _branches(nodes, params):
    """A forward's statements with each `if p is None: ... else: ...` (or `is not
    None`, `else` optional) of a parameter p replaced by the statements of both its
    branches (`name = expression`, or `name = None`; a `name = None` may also come
    before the `if`, `loss = None` then `if targets is not None: loss = ...`): (the
    statements, the parameters tested, the ids of the `name = None` statements), or
    (None, None, None) for another `if`.  What branch runs is a function of what the call is given (a
    variable's tensor or number, checked before each replayed iteration, a literal or a
    default: none is None one time and not the next while the plan's checks hold, and
    no statement may bind p), so the ops noted are those of each replayed call."""
    out, tested, nones = [], set(), set()
    for n in nodes:
        if n.data != "if_stmt":
            if _none(n):  # (`loss = None` before `if targets is not None: loss = ...`)
                nones.add(id(n))
            out.append(n)
            continue
        ch = n.children
        p = _none_test(ch[0])
        if len(ch) != 3 or p is None or p not in params:
            return None, None, None
        tested.add(p)
        for suite in ch[1:]:
            for st in _statements(suite) if suite is not None else ():
                if not (st.data == "assign" and len(st.children) == 2):
                    return None, None, None
                value = st.children[1]
                if isinstance(value, Tree) and value.data == "none":
                    if not _none(st):
                        return None, None, None
                    nones.add(id(st))
                out.append(st)
    return out, tested, nones


def _none(n) -> bool:
    """Whether a statement is `name = None`."""
    ch = n.children
    return (
        n.data == "assign"
        and len(ch) == 2
        and isinstance(ch[0], Tree)
        and ch[0].data == "name"
        and isinstance(ch[1], Tree)
        and ch[1].data == "none"
    )


def _none_test(cond):
    """The parameter of a condition `p is None` or `p is not None`, else None."""
    if not (isinstance(cond, Tree) and cond.data == "compare" and len(cond.children) == 3):
        return None
    left, op, right = cond.children
    words = [t.value for t in op.children]
    if words not in (["is"], ["is", "not"]) or not isinstance(left, Tree):
        return None
    if left.data != "name" or not (isinstance(right, Tree) and right.data == "none"):
        return None
    return left.children[0].value


def _returned(value, me) -> bool:
    """Whether a forward's returned value is a tuple display of pure expressions, names
    and None (`return logits, loss`)."""
    return (
        isinstance(value, Tree)
        and value.data == "tuple_items"
        and all(isinstance(c, Tree) and (c.data == "none" or pure(c, me)) for c in value.children)
    )


def through_def(comp, suite, params):
    """Whether a function's body is one a replayed statement may see through when it
    calls the function (`loss = loss_fn(X, Y)`: its ops are the statement's, as a
    module's forward's are): a docstring, `name = expression` statements, `if p is
    None:` branches of them (`_branches`) and a last `return expression` (or a tuple
    of them, `_returned`), each expression made as a replayed assignment's (`pure`), of
    its parameters, its locals and globals: (the globals it reads, the numbers it
    writes, its namespace calls as `_item` gives them, the language's built-ins), else
    None."""
    nodes, ret = _def_statements(suite)
    if ret is None or not ret.children or ret.children[0] is None:
        return None
    local = set(params)
    nodes, tested, nones = _branches(nodes, params)
    if nodes is None:
        return None
    for n in nodes:
        names = _assigned(n) if id(n) not in nones else [n.children[0].children[0].value]
        if names is None or tested.intersection(names):
            return None
        local.update(names)
    if not (pure(ret.children[0]) or _returned(ret.children[0], None)):
        return None
    every = nodes + [ret]
    reads = set().union(*(names_in(x) for x in every))
    builtins = comp.builtins
    calls = tuple(
        (name, path, attr, builtins.get(attr) or namespaced(attr))
        for name, path, attr in sorted(set().union(*(namespace_calls(x) for x in every)))
        if name not in local
    )
    literals = frozenset().union(*(_literals(comp, x) for x in every))
    return frozenset(reads - local), literals, calls, builtins
