"""`explain(out, x)`, `explain(out)`, `backward out, explain=true` and `diff(f, x, n)`:
the derivative as a formula in the program's own names, and the chain rule step by step.

    >>> x = torch.ones(2, 2, requires_grad=True)
    >>> y = x + 2; z = y * y * 3; out = z.mean()
    >>> explain(out, x)
    steps:      yᵢⱼ = xᵢⱼ + 2
                zᵢⱼ = 3·yᵢⱼ²
                out = Σᵢⱼ zᵢⱼ/4
    chain rule: ∂out/∂xᵢⱼ = ∂out/∂zᵢⱼ · ∂zᵢⱼ/∂yᵢⱼ · ∂yᵢⱼ/∂xᵢⱼ = 1/4 · 6·yᵢⱼ · 1
    derivative: ∂out/∂xᵢⱼ = 3·(xᵢⱼ + 2)/2
    value:      at x = 1 (every element): 9/2 = 4.5, equal to x.grad

The formulas come from each op's `formula` rule (on its class, in its own file;
explain_sym.py) applied to the graph that was recorded (a loop is the steps it ran);
SymPy does the algebra and the printing.  SymPy is imported when explain or diff first
runs, not at start-up: it takes longer to import than gradcli itself.

Output: Unicode in a terminal, ASCII under NO_COLOR or TERM=dumb; under --json one
`explain` record (the formula as text SymPy parses back, its LaTeX, the value and the
check); a notebook shows the LaTeX (`_repr_latex_`).
"""

from __future__ import annotations

import numpy as np

from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradTypeError, GradValueError
from ..core.tensor import Tensor
from ..ops.registry import not_a_tensor_op


def _type_name(v):
    if isinstance(v, bool):
        return "bool"
    return type(v).__name__ if type(v) is not Tensor else "Tensor"


def _variables():
    return context.current.variables or {}


def _need_sympy(what):
    try:  # (imported when explain or diff first runs: start-up does not grow)
        import sympy  # noqa: F401
    except ImportError:
        raise GradRuntimeError(
            f"{what}() needs SymPy, which is not installed",
            hint="pip install sympy (or pip install '.[explain]' in gradcli's clone)",
            type_name="ModuleNotFoundError",
        ) from None


def _check_out(out):
    if type(out) is not Tensor:
        raise GradTypeError(
            f"explain(): argument 'out' must be a Tensor, not {_type_name(out)}",
        )
    if out.grad_fn is None:
        what = "a leaf tensor" if out.requires_grad else "a tensor that does not require grad"
        raise GradValueError(
            f"explain(): out has no graph to explain (it is {what})",
            hint="explain the result of operations on a tensor with requires_grad=True",
        )


def explanation(out, leaves=None, variables=None, out_name=None, title=None, check_out=False):
    """The Explanation of out's graph for `leaves` (all leaves when None)."""
    _need_sympy("explain")
    from .explain_report import Explanation  # SymPy is imported here, on first use

    if check_out:
        _check_out(out)
    variables = _variables() if variables is None else variables
    return Explanation(out, leaves, variables, out_name, title)


@not_a_tensor_op(
    "explain",
    "explain(out, x=None)",
    "the derivative of out by x (every leaf that requires grad when x is left out) as a "
    "formula in the program's names: the steps, the chain rule, the simplified "
    "derivative and its value, checked against autograd",
    category="autograd",
)
def explain(out, x=None):
    _check_out(out)
    leaves = None
    if x is not None:
        xs = list(x) if isinstance(x, (list, tuple)) else [x]
        for t in xs:
            if type(t) is not Tensor:
                raise GradTypeError(
                    f"explain(): argument 'x' must be a Tensor, not {_type_name(t)}"
                )
        leaves = xs
    ctx = context.current
    ctx.out.figure("explain", explanation(out, leaves), None)
    return None


# ---------------------------------------------------------------- diff


def _param_name(f):
    params = getattr(f, "params", None)
    if params:
        first = params[0]
        return first if isinstance(first, str) else getattr(first, "name", "x")
    return "x"


class Derivative:
    """diff(f): the derivative of f as a formula; calling it gives its value."""

    def __init__(self, f, n, formula):
        self.f, self.n, self.formula = f, n, formula

    def __call__(self, x):
        from .explain_diff import derivative_value

        return derivative_value(self.f, x, self.n)

    def __repr__(self):
        return self.formula.short()

    def _repr_latex_(self):
        return self.formula._repr_latex_()


@not_a_tensor_op(
    "diff",
    "diff(f, x=None, n=1)",
    "the n-th derivative of the function f as a formula (diff(f)(x) is its value); "
    "with x, also its value at x, checked against autograd",
    category="autograd",
)
def diff(f, x=None, n=1):
    if not callable(f) or type(f) is Tensor:
        raise GradTypeError(f"diff(): the first argument must be a function, got {_type_name(f)}")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise GradValueError(f"diff(): n must be a positive int, got {n!r}")
    _need_sympy("diff")
    from .explain_diff import diff_explanation

    name = _param_name(f)
    if x is None:
        d = diff_explanation(f, None, int(n), name)
        return Derivative(f, int(n), d)
    context.current.out.figure("explain", diff_explanation(f, x, int(n), name), None)
    return None
