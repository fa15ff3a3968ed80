"""`w -= lr * w.grad`: an augmented assignment whose value is a product, compiled so
that the gradient-descent step of a training loop on a scalar parameter runs as one
step.

`x op= a * b` (op `+=`, `-=` or `*=`) on a tensor x is, in general, the product
`a * b` (the `*` operator, its errors placed at the `*`), then `x.sub_(...)` and so
on in place (library/inplace.py), errors placed at the operator `-=`.  Under no_grad,
when x is 0-d and the product is a 0-d tensor of x's dtype, `scalar_steps.scaled_step`
makes both on Python floats, exactly as the two steps make them, without the
product's tensor.  Every other case runs the two steps themselves, in the same order
with the same errors."""

from __future__ import annotations

from ..core.tensor import Tensor
from ..library.scalar_steps import SCALED_STEPS, scaled_step
from .expressions import apply2
from .fastops import NUMBER_OPS
from .runtime import SMALL_INT
from .parser import Tree
from .positions import located
from . import runtime as rt
from .state import state


def product(compiler, value):
    """(the closure of `value`, (left, right, mul, line, col)) when `value` is `a * b`,
    compiled as the `*` operator compiles it; (the closure, None) otherwise."""
    if not (
        isinstance(value, Tree)
        and value.data == "binary"
        and len(value.children) == 3
        and value.children[1].value == "*"
    ):
        return compiler.expr(value), None
    left = compiler.expr(value.children[0])
    right = compiler.expr(value.children[2])
    tok = value.children[1]
    mul = rt.binary_op("*")
    return apply2(left, mul, right, tok.line, tok.column), (left, right, mul, tok.line, tok.column)


def scaled_update(op, parts, cur, val, store, inplace, binary, line, col, at):
    """The closure of `target op= a * b` (parts from `product`), or None if op has no
    fused step.  `cur` reads the target, `store` binds it, `inplace` and `binary` are the
    in-place and the plain operator of op, (line, col) the operator's place, `at` the
    statement's: the closure sets the line and places errors there, as Compiler.small's
    wrapper would (stmtlines.py)."""
    step_op = SCALED_STEPS.get(op)
    if step_op is None or inplace is None:
        return None
    left, right, mul, mline, mcol = parts
    sline, scol = at

    def run(s):
        state.line = sline
        try:
            old = cur(s)
            try:
                if type(old) is Tensor:
                    a = left(s)
                    b = right(s)
                    r = scaled_step(old, a, b, step_op)
                    if r is None:  # the general path: the product, then op=
                        try:
                            p = mul(a, b)
                        except Exception as e:
                            raise located(e, mline, mcol) from None
                        r = inplace(old, p)
                else:
                    r = binary(old, val(s))
            except Exception as e:
                raise located(e, line, col) from None
            store(s, r)
        except Exception as e:
            raise located(e, sline, scol) from None

    run.located = True
    return run


def augmented(cur, store, val, vconst, vv, op_sym, inplace, binary, line, col):
    """The closure of `target op= value` (cur reads the target, store writes it): a
    tensor target in place (`inplace`), two floats or two small ints by Python's
    operator, anything else by `binary`; the target read and written in place when it
    is this scope's variable, the value's errors placed at the operator."""
    py = NUMBER_OPS.get(op_sym)  # two floats, two small ints: Python's operator
    name = getattr(cur, "var_name", None)
    if name is None or getattr(store, "local_name", None) != name:
        name = None  # (read and written in place only when both are this scope's variable)

    def run(s):
        old = s.vars.get(name, cur)
        if old is cur:
            old = cur(s)
        try:
            b = vv if vconst else val(s)
            t = type(old)
            if (
                py is not None
                and t is type(b)
                and (
                    t is float
                    or (t is int and -SMALL_INT < old < SMALL_INT and -SMALL_INT < b < SMALL_INT)
                )
            ):
                r = py(old, b)
            elif inplace is not None and t is Tensor:
                r = inplace(old, b)
            else:
                r = binary(old, b)
        except Exception as e:
            raise located(e, line, col) from None
        if name is not None:
            s.vars[name] = r
        else:
            store(s, r)

    return run
