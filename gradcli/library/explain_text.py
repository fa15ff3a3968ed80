"""explain's output: the steps, the chain rule, the derivative and its value as text
(Unicode or ASCII), as a --json record and as LaTeX (explain_report.py computes them)."""

from __future__ import annotations

import numpy as np
import sympy as sp

from ..runtime.errors import GradValueError
from ..core.printing import show
from ..core.tensor import Tensor
from . import explain_core as ec
from . import explain_sym as es
from .explain_print import ascii_terminal, latex, one_line, partial, tensor_label

TEXT_WIDTH = 100


def _one_line_tensor(arr, dtype):
    t = Tensor(np.asarray(arr, dtype=dtype))
    text = " ".join(part.strip() for part in show(t).split("\n"))
    return text if len(text) <= TEXT_WIDTH else text[: TEXT_WIDTH - 3] + "..."


def _letters(shape):
    return ec.LETTERS[: len(shape)]


def _factor(f, style):
    text = one_line(f, style)
    return f"({text})" if f.is_Add else text


class ExplanationText:
    """The showing half of Explanation (which sets a, results, steps, notes, owner)."""

    # ------------------------------------------------------------ text
    def step_lines(self, style):
        lines = []
        for st in self.steps:
            lines.append(self._step_text(st, style))
        return lines

    def _step_text(self, st, style):
        lhs_letters = _letters(st.syms.shape)
        if st.kind in ("opaque", "named"):
            label = ec._op_label(st.node)
            args = ", ".join(st.inputs)
            jac = self._jacobian_text(st, style)
            what = "no formula rule" if st.kind == "opaque" else "no closed form"
            return f"{st.name} = {label}({args})   ({what}; {jac})"
        t = ec.collapse(st.expr, self.owners, lhs_letters)
        if t is not None:
            return f"{tensor_label(st.name, lhs_letters, style)} = {one_line(t, style)}"
        if st.expr.size <= 4:
            parts = []
            for idx in np.ndindex(*st.expr.shape):
                lhs = st.name + ("_" + "_".join(str(i) for i in idx) if idx else "")
                parts.append(
                    f"{one_line(sp.Symbol(lhs), style)} = {one_line(ec.fold_sums(st.expr[idx], self.owners), style)}"
                )
            return "; ".join(parts)
        label = ec._op_label(st.node)
        return f"{st.name} = {label}({', '.join(st.inputs)})"

    def _jacobian_text(self, st, style):
        a = self.a
        parts = []
        if st.kind == "opaque":
            try:
                jac = a.jacobian(st)
            except GradValueError as e:
                return e.message.split(": ", 1)[-1]
            for p, j in zip(st.node.parents, jac):
                if p is None or j is None:
                    continue
                name = a.leaf_of[id(p)][0] if type(p) is Tensor else a.steps[id(p)].name
                parts.append((name, j))
        else:
            for p in st.node.parents:
                if p is None:
                    continue
                if type(p) is Tensor:
                    name, _, syms = a.leaf_of[id(p)]
                else:
                    name, syms = a.steps[id(p)].name, a.steps[id(p)].syms
                j = np.array(
                    [[float(sp.diff(o, s)) for s in syms.flat] for o in st.expr.flat], dtype=float
                )
                parts.append((name, j))
        out = []
        for name, j in parts:
            out.append(
                f"its local Jacobian {partial(st.name, name, style)} = "
                + _one_line_tensor(j, np.float64).replace("tensor(", "(", 1)
            )
        return ", ".join(out) or "no input takes a gradient"

    def _lhs(self, r, style):
        return partial(self.a.out_name, tensor_label(r.name, _letters(r.syms.shape), style), style)

    def derivative_text(self, r, style):
        if r.template is not None:
            return f"{self._lhs(r, style)} = {one_line(r.template, style)}"
        parts = []
        for k, idx in enumerate(np.ndindex(*r.elements.shape)):
            if k == 6:
                parts.append("...")
                break
            label = one_line(sp.Symbol(r.name + "_" + "_".join(str(i) for i in idx)), style)
            parts.append(
                f"{partial(self.a.out_name, label, style)} = {one_line(ec.fold_sums(r.elements[idx], self.owners), style)}"
            )
        return "; ".join(parts)

    def chain_text(self, r, style):
        if not r.chain:
            return None
        dot = " · " if style == "unicode" else " * "
        names = {st.name: st for st in self.a.steps.values()}

        def label(n):
            arr = names[n].syms if n in names else r.syms
            return tensor_label(n, _letters(arr.shape), style)

        symbolic, valued, known = [], [], True
        for path, factors in r.chain:
            symbolic.append(
                dot.join(partial(label(t), label(b), style) for t, b in zip(path, path[1:]))
            )
            if known and all(f is not None for f in factors):
                valued.append(dot.join(_factor(f, style) for f in factors))
            else:
                known = False
        valued = valued if known else None
        lhs = self._lhs(r, style)
        text = f"{lhs} = " + " + ".join(symbolic)
        if valued:
            text += " = " + " + ".join(valued)
        return text

    def value_text(self, r, style):
        self._check_all()
        leaf = r.tensor
        dt = leaf.data.dtype
        if r.values is None:
            return f"at this point: not known ({r.check.get('why')})"
        data = leaf.data
        if data.size and np.all(data == data.flat[0]):
            at = f"{r.name} = {es.number(data.flat[0].item())}"
            if data.ndim:
                at += " (every element)"
        else:
            at = f"{r.name} = {_one_line_tensor(data, dt)}"
        v = r.values
        if r.exact is not None:
            num = float(r.exact)
            shown = f"{num:g}" if num == float(f"{num:g}") else repr(num)
            val = one_line(r.exact, style)
            val = val if val == shown else f"{val} = {shown}"
        elif v.size and np.all(v == v.flat[0]) and v.ndim:
            val = f"{v.flat[0]:.6g} (every element)"
        elif not v.ndim:
            val = f"{float(v):.6g}"
        else:
            val = _one_line_tensor(v, dt)
        c = r.check
        if c["equal"] is True:
            tail = (
                f", equal to {c['against']}"
                if c["against"] != "autograd"
                else (", equal to autograd's gradient")
            )
            if c.get("why"):
                tail += f" ({c['why']})"
        elif c["equal"] is False:
            shown = _one_line_tensor(c["autograd"], dt)
            if c.get("why"):  # only x.grad to compare with: it may hold several passes
                tail = f", which differs from {c['against']} = {shown} ({c['why']})"
            else:
                tail = f", which DIFFERS from {c['against']} = {shown}"
        else:
            tail = f" (not checked: {c.get('why')})"
        return f"at {at}: {val}{tail}"

    def lines(self, style):
        out = []
        if self.title:
            out.append(self.title)
        rows = [("steps:", s) for s in self.step_lines(style)]
        for r in self.results:
            chain = self.chain_text(r, style)
            if chain:
                rows.append(("chain rule:", chain))
            rows.append(("derivative:", self.derivative_text(r, style)))
            rows.append(("value:", self.value_text(r, style)))
        for n in self.notes:
            rows.append(("note:", n))
        width = max(len(k) for k, _ in rows) + 1
        last = None
        for k, v in rows:
            out.append(f"{(k if k != last else ''):<{width}}{v}")
            last = k
        return out

    def text(self, style=None):
        style = style or ("ascii" if ascii_terminal() else "unicode")
        return "\n".join(self.lines(style))

    def __repr__(self):
        return self.text()

    def record(self):
        self._check_all()
        steps = []
        for st in self.steps:
            t = (
                None
                if st.kind in ("opaque", "named")
                else ec.collapse(st.expr, self.owners, _letters(st.syms.shape))
            )
            steps.append(
                {
                    "name": st.name,
                    "formula": one_line(t, "plain") if t is not None else None,
                    "latex": latex(t) if t is not None else None,
                    "text": self._step_text(st, "unicode"),
                }
            )
        leaves = []
        for r in self.results:
            c = dict(r.check)
            if "autograd" in c:
                c["autograd"] = Tensor(np.asarray(c["autograd"]))
            leaves.append(
                {
                    "leaf": r.name,
                    "formula": one_line(r.template, "plain") if r.template is not None else None,
                    "elements": [one_line(e, "plain") for e in r.elements.flat],
                    "latex": latex(r.template) if r.template is not None else None,
                    "text": self.derivative_text(r, "unicode"),
                    "chain": self.chain_text(r, "unicode"),
                    "value": None
                    if r.values is None
                    else Tensor(np.asarray(r.values, dtype=r.tensor.data.dtype)),
                    "check": c,
                }
            )
        return {"out": self.a.out_name, "steps": steps, "derivatives": leaves, "notes": self.notes}

    def _repr_latex_(self):
        rows = []
        for st in self.steps:
            if st.kind in ("opaque", "named"):
                continue
            letters = _letters(st.syms.shape)
            t = ec.collapse(st.expr, self.owners, letters)
            if t is not None:
                rows.append(f"{tensor_label(st.name, letters, 'latex')} &= {latex(t)}")
        for r in self.results:
            if r.template is not None:
                lhs = partial(
                    tensor_label(self.a.out_name, "", "latex"),
                    tensor_label(r.name, _letters(r.syms.shape), "latex"),
                    "latex",
                )
                rows.append(f"{lhs} &= {latex(r.template)}")
        return "$$\\begin{aligned}" + r" \\ ".join(rows) + "\\end{aligned}$$"
