"""Operators on plain numbers answered in their own closure (a loop's
`while i < n`, `if t % 100 == 99`, `i += 1`, `y * 1.00001`).

`runtime.binary_op` and `runtime.compare_op` give an operator's function for every
kind of operand; the expression's closure (expressions.apply2) calls it.  For a
comparison of two Python numbers, `int % int` and `int // int` by a nonzero literal,
`i += k` / `i -= k` of small ints, and a floating tensor and a number literal under
an operator with a node, the closures here compute the result themselves, with the
very operation those functions would reach for these operands (`compare_op`:
`type(a) in (int, float) and type(b) in (int, float)` -> the comparison;
`binary_op`: int op nonzero int -> Python's `%` / `//`, small int +- small int ->
Python's `+` / `-`, a floating tensor op an int or float -> the operator's node,
`OPERATOR_NODES`, with the tensor's dtype).  Any other operand goes to the
operator's function, as before, with its errors placed at the operator."""

from __future__ import annotations

import operator

from ..runtime import context
from ..numerics.floats.singles import EXACT_INT
from ..core.tensor import Tensor
from ..engine.number_nodes import F32, F64, number_node
from ..ops.registry import OPERATOR_NODES
from .positions import located
from .runtime import INT_DIV as _INT_DIV, SMALL_INT as _SMALL_INT, SMALL_INT
from .state import state


NUMBER_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul}


def specialize(left, fn, right, lconst, lv, rconst, rv, line, col):
    """The closure of `left op right` (fn the operator's function) computing plain
    numbers itself, or None when op is not one of the cases above."""
    num = getattr(fn, "numeric", None)  # a comparison: operator.lt ...
    if num is not None and not lconst:
        return (
            _compare_const(left, num, fn, rv, line, col)
            if rconst
            else _compare(left, num, fn, right, line, col)
        )
    op = getattr(fn, "op", None)
    div = _INT_DIV.get(op)
    if div is not None and not lconst and rconst and type(rv) is int and rv:
        return _int_div(left, div, fn, rv, line, col)
    node, _, swap = OPERATOR_NODES.get(op, (None, False, False))
    if node is not None and rconst and not lconst and (type(rv) is float or type(rv) is int):
        return _with_literal(left, rv, False, node, fn, line, col)
    if (
        node is not None
        and swap
        and lconst
        and not rconst
        and (type(lv) is float or type(lv) is int)
    ):
        return _with_literal(right, lv, True, node, fn, line, col)
    return None


def _with_literal(expr, k, literal_first, node, fn, line, col):
    """`x op 2.0`, or `3 * x` (`literal_first`; + and *: the node of `x op 3`): a
    floating tensor's node made here with the literal k, as binary_op makes it;
    anything else by binary_op, its operands in the order written."""
    name = getattr(expr, "var_name", None)  # a variable: read in place (by expr if absent)
    # a 0-d float64 or float32 tensor that requires grad, in grad mode: engine/number_nodes.py
    numbers = (
        node is not None
        and node.number_forward is not None
        and (type(k) is float or -EXACT_INT <= k <= EXACT_INT)
    )
    # int op small int literal, float op float literal: Python's operator, as
    # binary_op answers them (n - 1, x * 0.5)
    py = NUMBER_OPS.get(getattr(fn, "op", None))
    kt = type(k) if py is not None and (type(k) is float or -SMALL_INT < k < SMALL_INT) else None

    def run(s):
        t = s.vars.get(name, expr) if name is not None else expr
        if t is expr:
            t = expr(s)
        if type(t) is kt and (kt is float or -SMALL_INT < t < SMALL_INT):
            return py(k, t) if literal_first else py(t, k)
        try:
            if type(t) is Tensor:
                d = t.data
                dt = d.dtype
                if (
                    numbers
                    and (dt is F64 or dt is F32)
                    and not d.ndim
                    and t.requires_grad
                    and context.current.grad_enabled
                ):
                    return number_node(node, t, k)
                if dt.char in "fd":  # (not float16: ops/half_nodes.py)
                    return node.apply2(t, k, dt)
            return fn(k, t) if literal_first else fn(t, k)
        except Exception as e:
            raise located(e, line, col) from None

    return run


def _compare(left, num, fn, right, line, col):
    def run(s):
        a = left(s)
        b = right(s)
        ta, tb = type(a), type(b)
        if (ta is int or ta is float) and (tb is int or tb is float):
            return num(a, b)
        try:
            return fn(a, b)
        except Exception as e:
            raise located(e, line, col) from None

    return run


def _compare_const(left, num, fn, b, line, col):
    tb = type(b)
    plain_b = tb is int or tb is float
    name = getattr(left, "var_name", None)  # a variable: read in place (by left if absent)

    def run(s):
        a = s.vars.get(name, left) if name is not None else left
        if a is left:
            a = left(s)
        ta = type(a)
        if plain_b and (ta is int or ta is float):
            return num(a, b)
        try:
            return fn(a, b)
        except Exception as e:
            raise located(e, line, col) from None

    return run


def _int_div(left, div, fn, b, line, col):
    def run(s):
        a = left(s)
        if type(a) is int:
            return div(a, b)
        try:
            return fn(a, b)
        except Exception as e:
            raise located(e, line, col) from None

    return run


def int_step(op_sym, cur, store, vv, general, at):
    """The closure of `name += k` / `name -= k` (k a small int literal, `cur` reading
    the variable `name`, which has no effect but its value or its error): a small
    int computed here, anything else by `general` (the augmented assignment's
    closure, which reads the variable again).  None for another operator or literal.
    It sets the line and places errors at the statement (`at`), as Compiler.small's
    wrapper would (stmtlines.py)."""
    if op_sym not in ("+", "-") or type(vv) is not int or not -_SMALL_INT < vv < _SMALL_INT:
        return None
    add = op_sym == "+"
    line, col = at
    name = getattr(cur, "var_name", None)
    if name is None or getattr(store, "local_name", None) != name:
        name = None  # (read and written in place only when both are this scope's variable)

    def run(s):
        state.line = line
        try:
            old = s.vars.get(name, cur) if name is not None else cur
            if old is cur:
                old = cur(s)
            if type(old) is int and -_SMALL_INT < old < _SMALL_INT:
                if name is not None:
                    s.vars[name] = old + vv if add else old - vv
                else:
                    store(s, old + vv if add else old - vv)
                return None
            return general(s)
        except Exception as e:
            raise located(e, line, col) from None

    run.located = True
    return run
