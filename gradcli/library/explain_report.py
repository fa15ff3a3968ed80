"""What `explain` shows: the steps, the chain rule, the simplified derivative and its
value checked against autograd, as text (Unicode or ASCII), a --json record and LaTeX.
(The analysis is explain_core.py; the built-ins are explain.py.)"""

from __future__ import annotations

import numpy as np
import sympy as sp

from ..runtime.errors import GradError, GradValueError
from ..core.printing import show
from ..core.tensor import Tensor
from ..engine.autograd import run_backward
from . import explain_core as ec
from . import explain_sym as es
from .explain_text import ExplanationText

MAX_SIMPLIFY = 64  # elements of a derivative simplified one by one; more are kept as they are
TEXT_WIDTH = 100


def _one_line_tensor(arr, dtype):
    t = Tensor(np.asarray(arr, dtype=dtype))
    text = " ".join(part.strip() for part in show(t).split("\n"))
    return text if len(text) <= TEXT_WIDTH else text[: TEXT_WIDTH - 3] + "..."


def _letters(shape):
    return ec.LETTERS[: len(shape)]


class LeafResult:
    def __init__(self, name, tensor, syms):
        self.name, self.tensor, self.syms = name, tensor, syms
        self.elements = None  # object array of simplified derivatives
        self.template = None  # one formula of a generic element, or None
        self.values = None  # float array, or None (not known)
        self.exact = None  # one exact SymPy number when every element's value is it
        self.chain = []  # paths: [(labels, factors)]
        self.check = None


class Explanation(ExplanationText):
    """explain()'s result: formulas of out's graph for some leaves, with their values
    and the check against autograd (made when first shown: after a backward that
    `backward out, explain=true` runs)."""

    def __init__(self, out, leaves, variables, out_name, title=None):
        self.title = title
        ec.start_simplifying()
        self.a = a = ec.Analysis(out, variables, out_name)
        self.owners = a.owners()
        self.notes = []
        scalar, summed = a.scalar_out()
        if summed:
            self.notes.append(
                f"{a.out_name} has {out.data.size} elements: this is the derivative of their sum "
                "(backward with a gradient of ones)"
            )
        if leaves is None:
            chosen = list(a.leaves)
        else:
            chosen = []
            for t in leaves:
                hit = a.leaf_of.get(id(t))
                if hit is None:
                    name = next((n for n, v in variables.items() if v is t), None) or "x"
                    why = (
                        "it is not a leaf: explain by the leaves it was computed from"
                        if t.grad_fn is not None
                        else "it does not reach out"
                        if t.requires_grad
                        else "it does not require grad"
                    )
                    raise GradValueError(
                        f"explain(): {name} is not one of {a.out_name}'s leaves ({why})"
                    )
                chosen.append(hit)
        self.results = []
        for name, tensor, syms in chosen:
            self.results.append(self._leaf(name, tensor, syms, scalar))
        self.steps = [st for st in (a.steps.get(id(n)) for n in a.order) if st is not None]
        for st in self.steps:
            if st.repeats:
                op, n = st.repeats
                self.notes.append(
                    f"{st.name}: the graph recorded {op} {n} times in a row (a loop ran that "
                    "many times for these values): this is the path this run took, another "
                    "input may take another"
                )
        if a.constants:
            names = ", ".join(n for n, _ in a.constants)
            self.notes.append(
                f"{names}: constants the graph no longer holds (backward freed its saved "
                "values); explain before backward, or backward with retain_graph=true, to "
                "see their values"
            )
        self._checked = False

    # ------------------------------------------------------------ per leaf
    def _leaf(self, name, tensor, syms, scalar):
        a = self.a
        r = LeafResult(name, tensor, syms)
        d = a.derivative(syms, scalar)
        if d.size <= MAX_SIMPLIFY:
            d = es.obj([ec.simplify(e) for e in d.flat]).reshape(d.shape)
        r.elements = d
        r.template = ec.collapse(d, self.owners)
        if r.template is not None and d.shape:
            r.template = ec.simplify(r.template)
        self._values(r)
        r.chain = self._chain(r)
        return r

    def _substitutions(self):
        subs = {}
        for name, t, syms in self.a.leaves:
            for idx in np.ndindex(*syms.shape):
                subs[syms[idx]] = es.number(t.data[idx].item())
        for name, (t, syms) in self.a.known.items():
            for idx in np.ndindex(*syms.shape):
                subs[syms[idx]] = es.number(t.data[idx].item())
        for st in self.a.opaque.values():
            named = self.a.nnames.get(id(st.node))
            if named is not None:
                data = named[1].data
                for idx in np.ndindex(*st.syms.shape):
                    subs[st.syms[idx]] = es.number(data[idx].item())
        return subs

    def _values(self, r):
        subs = self._substitutions()
        vals = np.empty(r.elements.shape)
        exact = []
        for idx in np.ndindex(*r.elements.shape):
            v = r.elements[idx].xreplace(subs)
            if v.free_symbols:
                r.values = None
                return
            v = sp.nsimplify(v) if v.is_Rational else v
            exact.append(v)
            try:
                vals[idx] = float(sp.N(v, 20))
            except TypeError:
                r.values = None
                return
        r.values = vals
        if exact and all(e == exact[0] for e in exact) and exact[0].is_Rational:
            r.exact = exact[0]

    # ------------------------------------------------------------ chain rule
    def _chain(self, r):
        a = self.a
        by_name = {st.name: st for st in a.steps.values()}
        root = a.steps[id(a.root)]
        paths = []

        def walk(st, path):
            if len(paths) > ec.MAX_PATHS:
                return
            for name in dict.fromkeys(st.inputs):
                if name == r.name:
                    paths.append(path + [name])
                elif name in by_name:
                    walk(by_name[name], path + [name])

        walk(root, [root.name])
        if len(paths) > ec.MAX_PATHS or not paths:
            return []
        if len(paths) == 1 and len(paths[0]) == 2:
            return []  # one step: the chain rule is the derivative itself
        out = []
        for path in paths:
            factors = []
            for top, bottom in zip(path, path[1:]):
                factors.append(self._local(by_name[top], by_name.get(bottom), r, bottom))
            out.append((path, factors))
        return out

    def _local(self, st, below, r, below_name):
        """The local derivative of step st by the step (or leaf) below it, one formula of a
        generic element, or None (a Jacobian that is not diagonal)."""
        if st.kind == "opaque":
            return None  # its local Jacobian is numbers only (shown with its step)
        syms = below.syms if below is not None else r.syms
        e = st.expr
        if e.size == 1:
            arr = es.obj([sp.diff(e.flat[0], s) for s in syms.flat]).reshape(syms.shape)
        elif e.shape == syms.shape:
            arr = np.empty(e.shape, dtype=object)
            others = set(syms.flat)
            for idx in np.ndindex(*e.shape):
                own = syms[idx]
                if any(s in others and s != own for s in e[idx].free_symbols):
                    return None
                arr[idx] = sp.diff(e[idx], own)
        elif e.ndim < syms.ndim and e.shape == syms.shape[: e.ndim]:
            # a matrix's rows, one per element of the step (h = W x: hᵢ reads row i of W)
            arr = np.empty(syms.shape, dtype=object)
            for idx in np.ndindex(*syms.shape):
                own = idx[: e.ndim]
                rows = {s for k, s in np.ndenumerate(syms) if k[: e.ndim] != own}
                if any(s in rows for s in e[own].free_symbols):
                    return None
                arr[idx] = sp.diff(e[own], syms[idx])
        else:
            return None
        if arr.size <= MAX_SIMPLIFY:
            arr = es.obj([ec.simplify(v) for v in arr.flat]).reshape(arr.shape)
        return ec.collapse(arr, self.owners)

    # ------------------------------------------------------------ the check
    def _check_all(self):
        if self._checked:
            return
        self._checked = True
        out = self.a.out
        for r in self.results:
            r.check = self._check(out, r)

    def _check(self, out, r):
        if r.values is None:
            return {"against": None, "equal": None, "why": "its value needs constants not known"}
        leaf = r.tensor
        dt = leaf.data.dtype
        tol = (1e-10, 1e-12) if dt == np.float64 else (2e-5, 1e-6)

        def close(g):
            g = np.asarray(g, dtype=float)
            return g.shape == r.values.shape and bool(
                np.allclose(
                    r.values, g, rtol=tol[0], atol=tol[1] * max(1.0, np.abs(g).max(initial=0))
                )
            )

        if leaf.grad is not None:
            g = leaf.grad.data
            if close(g):
                return {"against": f"{r.name}.grad", "equal": True}
        auto = self._autograd(out, leaf)
        if auto is not None:
            if close(auto):
                if leaf.grad is not None:
                    return {
                        "against": "autograd",
                        "equal": True,
                        "why": f"{r.name}.grad holds something else (gradients of several "
                        "backward passes added up?)",
                    }
                return {"against": "autograd", "equal": True}
            return {"against": "autograd", "equal": False, "autograd": auto}
        if leaf.grad is not None:
            return {
                "against": f"{r.name}.grad",
                "equal": False,
                "autograd": leaf.grad.data,
                "why": f"{r.name}.grad adds up every backward since it was zeroed; the graph "
                "was freed, so no new backward could check this one",
            }
        return {"against": None, "equal": None, "why": "no gradient to compare with"}

    def _autograd(self, out, leaf):
        head = None if out.data.size == 1 else Tensor(np.ones(out.data.shape, out.data.dtype))
        try:
            res = run_backward((out,), (head,), True, False, inputs=[leaf], allow_unused=True)
        except GradError:
            return None
        g = res[0]
        return None if g is None else np.asarray(g.data)
