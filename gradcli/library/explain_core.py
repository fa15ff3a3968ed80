"""The analysis behind `explain(out, x)`: the recorded graph of `out` as formulas.

Each node's op gives its output as SymPy expressions of its inputs (its `formula`
rule, on the op's class: explain_sym.py).  Applied from the leaves up, the rules give
`out` in the leaves' elements (`x_0`, `x_1`, ...); SymPy differentiates that by each
element of a leaf, simplifies, and the derivatives of all elements are folded into one
formula of a generic element (`xᵢ`) where they are one formula, sums over all elements
of a tensor into `Σ`.  The steps shown are the tensors the program named (its
variables, as `graph` and `trace` name them) and the ops without a closed form; an
unnamed intermediate is part of the step that uses it.

An op without a rule is a named function of its inputs: its output stands as symbols
of their own, and its local Jacobian (from its backward, while its saved values live)
carries the chain rule through it.
"""

from __future__ import annotations

import itertools
import random
import re

import numpy as np
import sympy as sp

from ..runtime.errors import GradValueError
from ..core.tensor import Tensor
from ..engine.vjp_arrays import ArrayF
from . import explain_sym as es

MAX_ELEMENTS = 400  # symbols of leaves and steps, in all: more is refused
MAX_PATHS = 6
LETTERS = "ijklmn"


class Step:
    """A tensor shown on its own line: its name, symbols and expression of inputs."""

    def __init__(self, node, name, syms, kind):
        self.node, self.name, self.syms, self.kind = node, name, syms, kind
        self.expr = None  # object array: its value in its step inputs' symbols
        self.inputs = []  # names of the steps and leaves its expression reads
        self.jacobian = None  # (named functions) {input name: ndarray}
        self.repeats = None  # (op name, count) of a chain of one op repeated


def _op_label(node):
    name = re.sub(r"Backward\d*$", "", node.name)
    custom = getattr(node, "fn_cls", None) is not None
    return name if custom else name[:1].lower() + name[1:]


def _names(variables):
    tensors, nodes = {}, {}
    for name, v in (variables or {}).items():
        if type(v) is Tensor and not name.startswith("_"):
            tensors.setdefault(id(v), (name, v))
            if v.grad_fn is not None:
                nodes.setdefault(id(v.grad_fn), (name, v))
    return tensors, nodes


def topo(root):
    """The nodes (Functions) reachable from root, inputs before their users."""
    order, seen, stack = [], {id(root)}, [(root, False)]
    while stack:
        n, done = stack.pop()
        if done:
            order.append(n)
            continue
        stack.append((n, True))
        for p in reversed(n.parents):
            if p is not None and type(p) is not Tensor and id(p) not in seen:
                seen.add(id(p))
                stack.append((p, False))
    return order


class Analysis:
    """`out`'s graph as formulas (build it with `Analysis(out, variables, out_name)`)."""

    def __init__(self, out, variables, out_name):
        self.out = out
        self.root = out.grad_fn
        self.tnames, self.nnames = _names(variables)
        self.used = {name for name in (variables or {})}
        self.gen = itertools.count(1)
        self.constants = []  # (name, symbols) of constants the graph no longer has
        self.constant_names = {}
        self.notes = []
        self.order = topo(self.root)
        uses = {}
        for n in self.order:
            for p in n.parents:
                if p is not None:
                    uses[id(p)] = uses.get(id(p), 0) + 1
        self.uses = uses
        self.leaves = []  # (name, tensor, symbols)
        self.leaf_of = {}
        for n in self.order:
            for p in n.parents:
                if type(p) is Tensor and id(p) not in self.leaf_of:
                    name = self.tnames.get(id(p), (None,))[0] or self._fresh("x")
                    syms = es.symbols(name, p.data.shape)
                    self.leaf_of[id(p)] = (name, p, syms)
                    self.leaves.append((name, p, syms))
        self._check_size(sum(s.size for _, _, s in self.leaves))
        self.S = es.Symbolic(self._constant)
        self.full = {}
        self.named_fn = set()
        self.opaque = {}  # id(node) -> Step for ops without a rule
        for n in self.order:
            self.full[id(n)] = self._apply(n, self._full_input)
        self.out_name = out_name or self.nnames.get(id(self.root), ("out",))[0]
        self._steps()

    # ------------------------------------------------------------ names
    def _fresh(self, base):
        while True:
            name = f"{base}{next(self.gen)}"
            if name not in self.used:
                self.used.add(name)
                return name

    def _constant(self, shape, key):
        known = self.constant_names.get(key)
        if known is not None:
            return known
        name = self.constant_names[key] = self._fresh("c")
        syms = es.symbols(name, shape or ())
        self.constants.append((name, syms))
        return name

    def _check_size(self, n):
        if n > MAX_ELEMENTS:
            raise GradValueError(
                f"explain(): the graph has {n} elements in its leaves and steps, too many "
                f"to write out (at most {MAX_ELEMENTS})",
                hint="explain a smaller example of the same computation",
            )

    # ------------------------------------------------------------ evaluation
    def _full_input(self, p):
        if type(p) is Tensor:
            return self.leaf_of[id(p)][2]
        return self.full[id(p)]

    def _apply(self, node, value_of):
        """node's output as an object array, inputs given by value_of(parent)."""
        xs = [None if p is None else value_of(p) for p in node.parents]
        rule = getattr(node, "formula", None)
        if rule and id(node) not in self.opaque:
            self.S.shown_named = False
            try:
                out = es.obj(rule(self.S, *xs))
            except Exception:  # (Unsupported, or a node its rule does not know): opaque
                out = None
            if out is not None:
                if self.S.shown_named:
                    self.named_fn.add(id(node))
                return out
        return self._opaque(node).syms

    def _opaque(self, node):
        st = self.opaque.get(id(node))
        if st is not None:
            return st
        named = self.nnames.get(id(node))
        if named is not None:
            shape = named[1].data.shape
        elif getattr(node, "out_meta", None) is not None:
            shape = tuple(node.out_meta[node.k][0])
        else:
            raise GradValueError(
                f"explain(): {node.name} has no formula rule and its output is not a "
                "named tensor: bind it to a name to explain through it"
            )
        name = named[0] if named is not None else self._fresh("f")
        st = Step(node, name, es.symbols(name, shape), "opaque")
        self.opaque[id(node)] = st
        self._check_size(sum(s.size for _, _, s in self.leaves) + st.syms.size)
        return st

    # ------------------------------------------------------------ steps
    def _steps(self):
        self.steps = {}
        for n in self.order:
            kind = None
            if id(n) in self.opaque:
                kind = "opaque"
            elif id(n) in self.named_fn:
                kind = "named"
            if n is self.root or id(n) in self.nnames or kind:
                if id(n) in self.opaque:
                    st = self.opaque[id(n)]
                else:
                    name = (
                        self.out_name
                        if n is self.root
                        else self.nnames.get(id(n), (None,))[0] or self._fresh("t")
                    )
                    st = Step(n, name, es.symbols(name, self.full[id(n)].shape), kind or "op")
                self.steps[id(n)] = st
        # inputs of named functions are steps (they are named in `f(x)`)
        for n in self.order:
            if id(n) in self.steps and self.steps[id(n)].kind in ("opaque", "named"):
                for p in n.parents:
                    if p is not None and type(p) is not Tensor and id(p) not in self.steps:
                        name = self._fresh("t")
                        self.steps[id(p)] = Step(
                            p, name, es.symbols(name, self.full[id(p)].shape), "op"
                        )
        self._check_size(
            sum(s.size for _, _, s in self.leaves) + sum(st.syms.size for st in self.steps.values())
        )
        self.symbol_owner = {}  # symbol -> (name, symbols array)
        for name, _, syms in self.leaves:
            self._own(name, syms)
        for st in self.steps.values():
            self._own(st.name, st.syms)
        for name, syms in self.constants:
            self._own(name, syms)
        for n in self.order:
            st = self.steps.get(id(n))
            if st is None:
                continue
            memo = {}

            def value_of(p, st=st, memo=memo):
                if type(p) is Tensor:
                    return self.leaf_of[id(p)][2]
                other = self.steps.get(id(p))
                if other is not None:
                    return other.syms
                v = memo.get(id(p))
                if v is None:
                    v = memo[id(p)] = self._apply(p, value_of)
                return v

            if st.kind == "opaque":
                st.expr = st.syms
            else:
                st.expr = self._apply(n, value_of)
            st.inputs = self._inputs_of(n)
            st.repeats = self._repeats(n)
        for name, syms in self.constants:  # made while writing the steps
            self._own(name, syms)

    def _own(self, name, syms):
        for s in syms.flat:
            self.symbol_owner[s] = (name, syms)

    def _inputs_of(self, node):
        """The names of the steps and leaves node's step reads (in graph order)."""
        out, seen, stack = [], set(), list(node.parents)
        while stack:
            p = stack.pop(0)
            if p is None or id(p) in seen:
                continue
            seen.add(id(p))
            if type(p) is Tensor:
                out.append(self.leaf_of[id(p)][0])
            elif id(p) in self.steps:
                out.append(self.steps[id(p)].name)
            else:
                stack.extend(p.parents)
        return out

    def _repeats(self, node):
        """(op label, n) when the unnamed part of node's step is a chain of n >= 3 ops of
        one kind (a loop made them)."""
        best, n = None, 0
        cur = node
        while True:
            kids = [p for p in cur.parents if p is not None]
            if len(kids) != 1 or type(kids[0]) is Tensor or id(kids[0]) in self.steps:
                break
            nxt = kids[0]
            if type(nxt) is type(cur):
                n = n + 1 if best else 2
                best = type(cur)
            cur = nxt
        return (_op_label(node), n) if best and n >= 3 else None

    # ------------------------------------------------------------ derivatives
    def scalar_out(self):
        v = self.full[id(self.root)]
        if v.size == 1:
            return v.flat[0], False
        return sum(v.flat, sp.Integer(0)), True

    def derivative(self, leaf_syms, expr=None):
        """d(out)/d(each element of leaf) as an object array (chain rule through ops
        without a rule by their local Jacobians)."""
        e = self.scalar_out()[0] if expr is None else expr
        out = np.empty(leaf_syms.shape, dtype=object)
        for idx in np.ndindex(*leaf_syms.shape):
            out[idx] = self._total(e, leaf_syms[idx], {})
        return out

    def _total(self, e, s, memo):
        d = sp.diff(e, s)
        for st in self.opaque.values():
            syms = list(st.syms.flat)
            if not any(e.has(o) for o in syms):
                continue
            jac = self.jacobian(st)
            for k, o in enumerate(syms):
                de = sp.diff(e, o)
                if de == 0:
                    continue
                key = (id(st), k, s)
                dk = memo.get(key)
                if dk is None:
                    dk = sp.Integer(0)
                    for p, jm in zip(st.node.parents, jac):
                        if p is None or jm is None:
                            continue
                        inp = self._full_input(p)
                        for m, v in enumerate(inp.flat):
                            if jm[k, m] != 0:
                                dk += es.number(float(jm[k, m])) * self._total(v, s, memo)
                    memo[key] = dk
                d += de * dk
        return d

    def jacobian(self, st):
        """Per input of an op without a rule, its local Jacobian (out elements x input
        elements) from the op's backward; None for an input that takes no gradient."""
        if st.jacobian is not None:
            return st.jacobian
        node = st.node
        if node.saved is None:
            raise GradValueError(
                f"explain(): {node.name} has no formula rule and backward freed its saved "
                "values: explain before backward, or backward with retain_graph=true"
            )
        shapes = [None if p is None else self._full_input(p).shape for p in node.parents]
        rows = [[] for _ in node.parents]
        size = st.syms.size
        dt = getattr(node, "out_dtype", np.dtype(np.float64))
        for k in range(size):
            g = np.zeros(size, dt)
            g[k] = 1
            g = g.reshape(st.syms.shape)
            saved = node.saved or ()
            grads = node.backward(g, ArrayF, *saved)
            for i, gi in enumerate(grads[: len(rows)]):
                if shapes[i] is None:
                    continue
                gi = np.zeros(shapes[i]) if gi is None else np.asarray(gi, float)
                rows[i].append(np.broadcast_to(gi, shapes[i]).reshape(-1))
        st.jacobian = [None if s is None else np.array(r) for s, r in zip(shapes, rows)]
        return st.jacobian


# ---------------------------------------------------------------- simplifying, folding


def simplify(e):
    """The shortest of SymPy's simplify and factor of e (kept as is when it is long)."""
    if e.count_ops() > 400:
        return e
    best = e
    try:
        f = sp.factor(e)
        if sp.count_ops(f) <= sp.count_ops(e):
            best = f
    except Exception:  # SymPy cannot always (Piecewise, Sum): keep the others
        pass
    try:
        s = sp.simplify(e)
    except Exception:
        return best
    # simplify's form only when it is much shorter: 2·sin(x)·cos(x) stays (not sin(2x)),
    # as a hand derivation writes it
    return s if 2 * sp.count_ops(s) < sp.count_ops(best) else best


def fold_sums(e, owner, first_letter="j"):
    """Sums over every element of a tensor written as Σ: terms f(x_q) for all q of one
    shape (with the same positions of the other tensors of that shape) become
    Σⱼ f(xⱼ)."""
    if e.is_Atom:
        return e
    args = [fold_sums(a, owner, first_letter) for a in e.args]
    e = e.func(*args) if args != list(e.args) else e
    if not e.is_Add or len(e.args) < 2:
        return e
    groups = {}  # (shape, key) -> {position: term}
    rest = []
    for term in e.args:
        hits = {}
        for s in term.free_symbols:
            own = owner.get(s)
            if own is None or own[1].size < 2:
                continue
            arr = own[1]
            pos = _position(arr, s)
            hits.setdefault(arr.shape, set()).add(pos)
        placed = False
        for shape, positions in hits.items():
            if len(positions) != 1 or len(hits) != 1:
                continue
            (pos,) = positions
            dummies = {}
            for s in term.free_symbols:
                own = owner.get(s)
                if own is not None and own[1].shape == shape and _position(own[1], s) == pos:
                    dummies[s] = sp.Dummy(own[0])
            key = term.xreplace(dummies)
            kname = key.xreplace({d: sp.Symbol("_" + d.name) for d in dummies.values()})
            groups.setdefault((shape, kname), {})[pos] = (term, key, dummies)
            placed = True
        if not placed:
            rest.append(term)
    out = list(rest)
    for (shape, _), members in groups.items():
        n = int(np.prod(shape))
        if len(members) != n or n < 2:
            out.extend(t for t, _, _ in members.values())
            continue
        term, key, dummies = next(iter(members.values()))
        letters = [sp.Idx(c) for c in _letters(first_letter, len(shape))]
        repl = {d: sp.Indexed(sp.IndexedBase(d.name), *letters) for d in dummies.values()}
        coeff, body = key.xreplace(repl).as_coeff_Mul()
        out.append(coeff * sp.Sum(body, *[(i, 0, m - 1) for i, m in zip(letters, shape)]))
    return sp.Add(*out)


def _letters(first, n):
    start = LETTERS.index(first) if first in LETTERS else 1
    pool = LETTERS[start:] + LETTERS[:start]
    return list(pool[:n])


def _position(arr, s):
    for idx in np.ndindex(*arr.shape):
        if arr[idx] == s:
            return idx
    return None


def generic_map(pos, ref_shape, owner_arrays, letters):
    """σ_pos: each tensor's element at position pos (broadcast to ref_shape) -> its
    generic symbol (name__letters)."""
    r = len(ref_shape)
    sub = {}
    for name, arr in owner_arrays:
        sh = arr.shape
        if not sh or len(sh) > r:
            continue
        idx, lets, ok = [], "", True
        for d, m in enumerate(sh):
            dd = d + r - len(sh)
            if m == ref_shape[dd]:
                idx.append(pos[dd])
                lets += letters[dd]
            elif m == 1:
                idx.append(0)
            else:
                ok = False
                break
        if ok:
            sub[arr[tuple(idx)]] = sp.Symbol(name + ("__" + lets if lets else ""), real=True)
    return sub


def collapse(arr, owner_arrays, owner, letters=None):
    """One formula of a generic element for all of arr's elements (each a function of
    the tensors' elements at its position), or None."""
    shape = arr.shape
    letters = letters or LETTERS[: len(shape)]
    if not shape:
        return fold_sums(arr[()], owner, "i")
    temps = []
    for pos in np.ndindex(*shape):
        e = fold_sums(arr[pos], owner, LETTERS[len(shape)] if len(shape) < 6 else "j")
        temps.append(e.xreplace(generic_map(pos, shape, owner_arrays, letters)))
    first = temps[0]
    if any(isinstance(s, sp.Symbol) and s in owner for s in first.free_symbols):
        return None  # still reads single elements of some tensor
    if all(t == first for t in temps[1:]):
        return first
    if _numerically_equal(temps):
        return first
    return None


def _numerically_equal(exprs):
    sums = {}

    def sub_sums(e):
        return e.replace(lambda a: isinstance(a, sp.Sum), lambda a: sums.setdefault(a, sp.Dummy()))

    exprs = [sub_sums(e) for e in exprs]
    syms = set().union(*(e.free_symbols for e in exprs))
    rng = random.Random(7)
    for _ in range(2):
        vals = {s: sp.Float(rng.uniform(0.3, 1.7)) for s in syms}
        ref = None
        for e in exprs:
            try:
                v = complex(e.xreplace(vals).evalf())
            except (TypeError, ValueError):
                return False
            if ref is None:
                ref = v
            elif abs(v - ref) > 1e-9 * max(1.0, abs(ref)):
                return False
    return True
