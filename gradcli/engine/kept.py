"""What a node's backward computes from its saved values alone, made once for the
passes of a Jacobian's rows.

A Jacobian (and so a Hessian) of an output of n elements is n backward passes over one
graph (autograd.one_graph), each with another head gradient; a node's saved values are
the same at every pass (an in-place change of one bumps its version, and the node's
backward raises before it runs), so a factor made of them alone, such as tanh's
`1 - y*y` (a fused multiply-add) or `x ** 3`'s `4 * x ** 3`, is the same at every pass.
A VJP asks for such a factor as `kept(fn, array, *numbers)`: while a table is kept
(`swap`: the rows' passes in which no hook can run) it is `fn(array, *numbers)` made at the
first pass and taken again at the next ones (keyed by `fn`, the array's identity, which
the table holds, and the numbers); otherwise it is made at each call.  The VJP then
multiplies the gradient by it as it did before (never into it: the value is shared), so
the bits are the same.  The table is let go when the rows' block ends.
"""

from __future__ import annotations

#: the bytes of factors a table keeps at most (more are made at each call: a big graph's
#: rows do not hold a copy of its saved values)
BUDGET = 32 << 20

#: the table of the rows' passes running (None: none, every factor made at its call)
_TABLE: list = [None]


def kept(fn, a, *numbers):
    """fn(a, *numbers), made once per array while a table is kept (`swap`); the caller
    reads it and never writes into it."""
    table = _TABLE[0]
    if table is None:
        return fn(a, *numbers)
    key = (fn, id(a), *numbers, *map(type, numbers)) if numbers else (fn, id(a))
    hit = table.get(key)  # (3 and 3.0: two keys)
    if hit is not None and hit[1] is a:
        return hit[0]
    value = fn(a, *numbers)
    size = table.get(None, 0) + getattr(value, "nbytes", 0)
    if size <= BUDGET:  # (a's identity is not reused while the table holds it)
        table[key], table[None] = (value, a), size
    return value


def kept_pair(fn, a, b):
    """fn(a, b) of two arrays, made once per pair while a table is kept (as `kept`)."""
    table = _TABLE[0]
    if table is None:
        return fn(a, b)
    key = (fn, id(a), id(b))
    hit = table.get(key)
    if hit is not None and hit[1] is a and hit[2] is b:
        return hit[0]
    value = fn(a, b)
    size = table.get(None, 0) + getattr(value, "nbytes", 0)
    if size <= BUDGET:
        table[key], table[None] = (value, a, b), size
    return value


def keeping():
    """Whether a table is kept (a VJP that makes its factor in place otherwise)."""
    return _TABLE[0] is not None


def swap(table):
    """Keep the factors of the passes run from now on in `table` (a dict the caller holds
    for as long as the arrays they are made of stay the same; None: keep none); returns
    the table kept before, which the caller gives back when its passes end."""
    prev = _TABLE[0]
    _TABLE[0] = table
    return prev
