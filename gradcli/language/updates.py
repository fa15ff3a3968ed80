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
