"""`diff(f, x, n)`: the n-th derivative of a function of the language as a formula
(SymPy's, from the graph f records at a point), its value at x checked against autograd."""

from __future__ import annotations

import numpy as np
import sympy as sp

from ..runtime.errors import GradValueError
from ..core.tensor import Tensor
from ..engine.autograd import run_backward
from . import explain_core as ec
from . import explain_sym as es
from .explain_print import ascii_terminal, latex, one_line, partial, sup, tensor_label
from .explain_text import _one_line_tensor


def _point(x):
    if type(x) is Tensor:
        return Tensor(np.array(x.data, dtype=np.float64), True)
    try:
        return Tensor(np.array(x, dtype=np.float64), True)
    except (TypeError, ValueError):
        raise GradValueError(
            f"diff(): the point x must be a number or a tensor, got {type(x).__name__}"
        ) from None


def _traced(f, x, name):
    xt = _point(0.7 if x is None else x)
    y = f(xt)
    if type(y) is not Tensor or y.grad_fn is None:
        if type(y) is Tensor or isinstance(y, (int, float)):
            return xt, None
        raise GradValueError(f"diff(): f returned {type(y).__name__}, not a tensor")
    return xt, y


class DiffExplanation:
    """diff(f, x, n): the n-th derivative of f as a formula (and its value at x)."""

    def __init__(self, f, x, n, name):
        self.n, self.name, self.f = n, name, f
        self.leaf_syms = None
        xt, y = _traced(f, x, name)
        self.x = None if x is None else xt
        if y is None:  # f does not depend on x: every derivative is 0
            self.expr = sp.Integer(0)
            self.values = None
            return
        ec.start_simplifying()
        a = ec.Analysis(y, {name: xt}, "f")
        syms = a.leaf_of[id(xt)][2]
        e, _ = a.scalar_out()
        if a.opaque:
            raise GradValueError("diff(): f uses an op without a formula rule")
        if syms.size == 1:
            s = syms.flat[0]
            d = ec.simplify(sp.diff(e, s, n))
            self.expr = d.xreplace({s: sp.Symbol(name, real=True)})
        else:
            if n != 1:
                raise GradValueError("diff(): n > 1 needs a function of one number")
            arr = es.obj([ec.simplify(sp.diff(e, s)) for s in syms.flat]).reshape(syms.shape)
            self.expr = ec.collapse(arr, a.owners())
            if self.expr is None:
                raise GradValueError("diff(): the derivative has no one formula for every element")
        self.leaf_syms = syms

    def short(self, style=None):
        style = style or ("ascii" if ascii_terminal() else "unicode")
        return one_line(self.expr, style)

    def lines(self, style):
        order = "" if self.n == 1 else (f"^{self.n}" if style == "ascii" else sup(self.n))
        shape = () if self.leaf_syms is None else self.leaf_syms.shape
        if shape:  # the gradient of a function of a tensor: by each element
            lhs = partial("f", tensor_label(self.name, ec.LETTERS[: len(shape)], style), style)
        else:
            lhs = f"d{order}f/d{self.name}{order}"
        out = [f"{lhs} = {one_line(self.expr, style)}"]
        if self.x is not None:
            v, auto = self.value()
            at = (
                _one_line_tensor(self.x.data, np.float64)
                if self.x.data.ndim
                else f"{float(self.x.data):g}"
            )
            ok = (
                "equal to autograd's"
                if auto is not None and np.allclose(v, auto, rtol=1e-10, atol=1e-12)
                else f"which DIFFERS from autograd's {auto}"
            )
            shown = f"{float(v):.10g}" if np.ndim(v) == 0 else _one_line_tensor(v, np.float64)
            out.append(f"at {self.name} = {at}: {shown}, {ok}")
        return out

    def value(self):
        s = sp.Symbol(self.name, real=True)
        data = self.x.data
        if data.ndim == 0:
            v = float(sp.N(self.expr.xreplace({s: es.number(data.item())}), 20))
        else:
            v = np.empty(data.shape)
            for idx in np.ndindex(*data.shape):
                subs = {}
                for sym in self.expr.free_symbols:
                    subs[sym] = es.number(data[idx].item())
                v[idx] = float(sp.N(self.expr.xreplace(subs), 20))
        auto = derivative_value(self.f, self.x, self.n).data
        return v, auto

    def text(self, style=None):
        style = style or ("ascii" if ascii_terminal() else "unicode")
        return "\n".join(self.lines(style))

    def __repr__(self):
        return self.text()

    def record(self):
        rec = {
            "variable": self.name,
            "order": self.n,
            "formula": one_line(self.expr, "plain"),
            "latex": latex(self.expr),
            "text": self.short("unicode"),
        }
        if self.x is not None:
            v, auto = self.value()
            rec["at"] = Tensor(self.x.data)
            rec["value"] = Tensor(np.asarray(v))
            rec["check"] = {
                "against": "autograd",
                "equal": bool(np.allclose(v, auto, rtol=1e-10, atol=1e-12)),
                "autograd": Tensor(np.asarray(auto)),
            }
        return rec

    def _repr_latex_(self):
        return f"$${latex(self.expr)}$$"


def diff_explanation(f, x, n, name):
    return DiffExplanation(f, x, n, name)


def derivative_value(f, x, n):
    """The n-th derivative of f at x, by autograd (create_graph for n > 1)."""
    xt = _point(x)
    y = f(xt)
    if type(y) is not Tensor or y.grad_fn is None:
        return Tensor(np.zeros_like(xt.data))
    g = y
    for k in range(n):
        head = None if g.data.size == 1 else Tensor(np.ones(g.data.shape, g.data.dtype))
        last = k == n - 1
        (g,) = run_backward((g,), (head,), not last, not last, inputs=[xt], allow_unused=True)
        if g is None:
            return Tensor(np.zeros_like(xt.data))
        if not last and g.grad_fn is None:
            return Tensor(np.zeros_like(xt.data))
    return Tensor(np.asarray(g.data))
