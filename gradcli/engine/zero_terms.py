"""The zero term of a product's forward-mode rule, as PyTorch records it.

PyTorch's rule for a product `a * b` is `b_t * a_p + a_t * b_p`; a missing tangent is
an efficient zero tensor, so `d * 2`'s tangent is `zeros * a_p + a_t * 2`: the values of
the term alone, but, when a_p requires grad, recorded as AddBackward0 over
MulBackward0(zeros, a_p), whose gradient to a_p is zeros (checked against torch 2.13,
tests/golden/fidelity.json).  `forward.bilinear` adds these nodes when the term or the
primal paired with the missing tangent is in a graph."""

from __future__ import annotations

import numpy as np

from .declare import none
from ..runtime import context
from ..core.tensor import Tensor
from .function import Function


class ZeroTerm(Function):
    """`zeros * p` of an efficient zero tensor: zeros of the result's shape (never nan),
    named as the op's node; its gradient to p is zeros."""

    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )

    __slots__ = ("name", "pshape", "pdtype")
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def forward(self, p, shape, dtype, label):
        self.name, self.pshape = label, np.shape(p)
        self.pdtype = p.dtype if type(p) is np.ndarray else np.dtype(dtype)
        return np.zeros(shape, dtype)

    def backward(self, g, F):
        z = np.zeros(self.pshape, self.pdtype)
        return (Tensor(z) if F.tensor_mode else z,)

    def jvp(self, ts, F):
        return None


class ZeroAdd(Function):
    """`zero_term + term` (AddBackward0): the term's values exactly (broadcast)."""

    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )

    __slots__ = ("keep", "sx", "sy")
    name = "AddBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def forward(self, x, y, keep):
        self.keep, self.sx, self.sy = keep, np.shape(x), np.shape(y)
        shape = np.broadcast_shapes(self.sx, self.sy)
        return np.array(np.broadcast_to(x if keep == 0 else y, shape), copy=True)

    def backward(self, g, F):
        n = self.needs
        return (F.sum_to(g, self.sx) if n[0] else None, F.sum_to(g, self.sy) if n[1] else None)

    def jvp(self, ts, F):
        return ts[self.keep]


class ZeroSub(Function):
    """`zeros - x` of an efficient zero tensor (SubBackward0): -x exactly (-0 for +0)."""

    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )

    __slots__ = ()
    name = "SubBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def forward(self, z, x):
        return np.negative(np.broadcast_to(x, np.broadcast_shapes(np.shape(z), np.shape(x))))

    def backward(self, g, F):
        n = self.needs
        return (g if n[0] else None, -g if n[1] else None)

    def jvp(self, ts, F):
        tz, tx = ts
        return None if tx is None else -tx


def with_zero_term(term, partner, label, first):
    """`term` recorded as PyTorch's sum with the zero term of `partner` (the primal whose
    pair's tangent is missing); `first`: the zero term is the sum's first operand."""
    if not (term.requires_grad or (type(partner) is Tensor and partner.requires_grad)):
        return term
    z = ZeroTerm.apply(partner, shape=term.data.shape, dtype=term.data.dtype, label=label)
    return ZeroAdd.apply(z, term, keep=1) if first else ZeroAdd.apply(term, z, keep=0)


def div_rule(ta, tb, a, b):
    """`a / b`'s forward-mode rule as PyTorch writes it, `(a_t - b_t * result) / b_p`, a
    missing tangent a zero term: `(a_t - zeros * result) / b_p` is recorded (SubBackward0
    over MulBackward0) when the result is in a graph, `(zeros - b_t * result) / b_p`
    always (a zero tensor minus x is -x, also for zeros: ZeroSub)."""
    if tb is not None:
        p = tb * (a / b)
        if ta is None:
            z = Tensor(
                np.zeros(
                    np.broadcast_shapes(np.shape(p.data), np.shape(getattr(a, "data", a))),
                    p.data.dtype,
                )
            )
            return ZeroSub.apply(z, p) / b
        return (ta - p) / b
    partner = next((v for v in (a, b) if type(v) is Tensor and v.requires_grad), None)
    if partner is None or not context.current.grad_enabled:
        return ta / b
    shape = np.broadcast_shapes(ta.data.shape, np.shape(getattr(b, "data", b)))
    z = ZeroTerm.apply(partner, shape=shape, dtype=ta.data.dtype, label="MulBackward0")
    return (ta - z) / b


class Zero:
    """A missing tangent's term in a sum of terms (`sum_terms`): zeros, in a graph when
    `partner` (the primal it multiplies) requires grad; `label` names its node."""

    __slots__ = ("partner", "label", "shape", "dtype")

    def __init__(self, partner, label, shape, dtype):
        self.partner, self.label, self.shape, self.dtype = partner, label, shape, dtype

    def graph(self):
        return type(self.partner) is Tensor and self.partner.requires_grad

    def tensor(self):
        if self.graph():
            return ZeroTerm.apply(
                self.partner, shape=self.shape, dtype=self.dtype, label=self.label
            )
        return Tensor(np.zeros(self.shape, self.dtype))


def sum_terms(*terms):
    """The sum of a rule's terms left to right, as PyTorch's with efficient zero tensors
    (a `Zero` for a missing tangent): the values of the real terms alone, recorded with
    the zero terms where those are in a graph; None when every term is zero."""
    grad = context.current.grad_enabled
    acc = None
    for t in terms:
        if acc is None:
            acc = t
            continue
        za, zt = type(acc) is Zero, type(t) is Zero
        if not za and not zt:
            acc = acc + t
        elif za and zt:
            acc = acc if acc.graph() or not t.graph() else t
        else:
            real, zero = (t, acc) if za else (acc, t)
            if grad and (real.requires_grad or zero.graph()):
                z = zero.tensor()
                acc = ZeroAdd.apply(z, real, keep=1) if za else ZeroAdd.apply(real, z, keep=0)
            else:
                acc = real
    return None if type(acc) is Zero else acc
