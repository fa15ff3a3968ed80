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
import re
import time

import numpy as np
import sympy as sp

from ..runtime.errors import GradValueError
from ..core.tensor import Tensor
from ..engine.vjp_arrays import ArrayF
from . import explain_sym as es
from .explain_fold import LETTERS, Owners, collapse, fold_sums  # noqa: F401  (used through this module)

MAX_ELEMENTS = 400  # symbols of leaves and steps, in all: more is refused
MAX_NODES = 300  # ops in the graph: more is refused (a long loop's graph)
MAX_PATHS = 6


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


def _named_tensors(variables):
    """(name, tensor) of the program's tensors: its variables, and the parameters of the
    modules it holds (`lin.weight`)."""
    for name, v in (variables or {}).items():
        if name.startswith("_"):
            continue
        if isinstance(v, Tensor):
            yield name, v
        elif callable(getattr(v, "named_parameters", None)):
            try:
                params = v.named_parameters()
            except Exception:  # (a class, not a module)
                continue
            for pname, p in params:
                if isinstance(p, Tensor):
                    yield f"{name}.{pname}", p


def _names(variables):
    tensors, nodes = {}, {}
    for name, v in _named_tensors(variables):
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
        self.rule_errors = []  # (node class, error) of rules that raised
        self.order = topo(self.root)
        if len(self.order) > MAX_NODES:
            raise GradValueError(
                f"explain(): the graph has {len(self.order)} ops, too many to write out "
                f"(at most {MAX_NODES})",
                hint="explain a smaller example of the same computation",
            )
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
        self.known = {}  # name -> (tensor, symbols) of the program's constant tensors used
        self.S = es.Symbolic(self._constant, self._named_constant)
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

    def _named_constant(self, arr):
        """The symbols of the program's tensor (not a leaf of this graph) whose values arr
        is (the same array, or a view of all of it in another shape), or None."""
        for name, t in self.tnames.values():
            d = t.data
            if id(t) in self.leaf_of or d.size != arr.size or d.dtype != arr.dtype:
                continue
            same = arr is d or (
                arr.base is not None
                and (arr.base is d or arr.base is d.base and d.base is not None)
                and arr.flags.c_contiguous
                and d.flags.c_contiguous
                and arr.__array_interface__["data"][0] == d.__array_interface__["data"][0]
            )
            if not same:
                continue
            hit = self.known.get(name)
            if hit is None:
                self.used.add(name)
                hit = self.known[name] = (t, es.symbols(name, d.shape))
            return hit[1].reshape(arr.shape)
        return None

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
            except es.Unsupported:  # a use of the op its rule does not cover
                out = None
            except Exception as e:  # a rule that failed: kept (the op-table test reads it)
                self.rule_errors.append((type(node).__name__, repr(e)))
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
        for name, (_, syms) in self.known.items():
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
        for name, (_, syms) in self.known.items():
            self._own(name, syms)

    def owners(self):
        """The Owners (explain_fold.py) of every tensor's symbols: leaves, steps, constants."""
        arrays = list({id(arr): (n, arr) for n, arr in self.symbol_owner.values()}.values())
        return Owners(arrays)

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


SIMPLIFY_SECONDS = 5.0  # the time one explanation spends simplifying; then forms stay
_deadline = [0.0]


def start_simplifying():
    """Give the explanation about to be made its time for simplifying."""
    _deadline[0] = time.monotonic() + SIMPLIFY_SECONDS


def simplify(e):
    """A short form of e: the shortest of factor, e itself and cancel (factor first among
    equals: 3·(x + 2)/2), or SymPy's simplify where that is much shorter still and e has no
    function simplify is slow on (seconds for a tanh of a sum).  A long e (factor and
    cancel take a common denominator of sums of fractions: minutes) stays as it is, and so
    does every e once the explanation's time for simplifying is spent."""
    if sp.count_ops(e) > 30 or len(e.free_symbols) > 6 or time.monotonic() > _deadline[0]:
        return e
    cands = []
    for f in (sp.factor, None, sp.cancel):
        try:
            cands.append(e if f is None else f(e))
        except Exception:  # SymPy cannot always (Piecewise, Sum): keep the others
            pass
    best = min(cands, key=sp.count_ops)
    slow = (sp.tanh, sp.sinh, sp.cosh, sp.tan, sp.Piecewise, sp.Abs, sp.Sum)
    if sp.count_ops(best) > 25 or best.has(*slow):
        return best
    try:
        s = sp.simplify(best)
    except Exception:
        return best
    # simplify's form only when it is much shorter: 2·sin(x)·cos(x) stays (not sin(2x)),
    # as a hand derivation writes it
    return s if 2 * sp.count_ops(s) < sp.count_ops(best) else best
