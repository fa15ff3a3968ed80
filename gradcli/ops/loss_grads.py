"""binary_cross_entropy's backward kernel, binary_cross_entropy_backward, and under
create_graph that kernel as a recorded op (BinaryCrossEntropyBackwardBackward0), whose
derivatives are FunctionsManual's formulas of their own, with their 1e-12 epsilon,
not the derivative of the kernel's (derivatives.yaml's binary_cross_entropy_backward)."""

from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor
from ..engine.declare import none
from .fused_grads import saved_reduction, saved_weight
from ..engine.forward import add_terms
from ..engine.function import Function

EPS = 1e-12  # FunctionsManual's eps, and the kernel's EPSILON


def bce_grad_values(g, x, y, w, reduction):
    """The kernel: (grad * (x - y)) / max((1 - x) * x, EPSILON), then [* weight] and / n
    for 'mean' (grad spread over the loss's shape unless reduction='none')."""
    gb = np.broadcast_to(g, x.shape) if reduction != "none" else g
    gx = (gb * (x - y)) / np.maximum((1 - x) * x, EPS)
    if w is not None:
        gx = gx * w
    if reduction == "mean":
        gx = gx / max(x.size, 1)
    return gx


class BCEGrad(Function):
    """binary_cross_entropy_backward(grad_output, input, target, weight, reduction) as a
    recorded op: its derivatives in grad_output, input and target are
    binary_cross_entropy_double_backward_grad_output, _double_backward and
    _double_backward_target (the weight is a constant)."""

    __slots__ = ("w", "reduction")
    name = "BinaryCrossEntropyBackwardBackward0"
    saved_names = ("grad_output", "self", "target")
    saved_extra = {"weight": saved_weight("w"), "reduction": saved_reduction}
    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )

    def forward(self, g, x, y, w, reduction):
        self.w, self.reduction = w, reduction
        self.save(g, x, y)
        return bce_grad_values(g, x, y, w, reduction)

    def _tail(self, r, F, n):
        """[* weight], then / n for 'mean'."""
        if self.w is not None:
            r = r * (Tensor(self.w) if F.tensor_mode else self.w)
        return r / n if self.reduction == "mean" else r

    def grad_output(self, gg, F, x, y, n):
        """(x - y) / ((x + eps) * (1 - x + eps)) * grad [* weight] [/ n], input-shaped
        (the engine sums it to grad_output's shape)."""
        return self._tail((x - y) / ((x + EPS) * (1 - x + EPS)) * gg, F, n)

    def grad_input(self, q, F, x, y, n):
        """(x*x - 2*x*y + y) / ((x + eps)^2 * (1 - x + eps)^2) * q [* weight] [/ n], where
        q is grad * grad_output."""
        num = x * x - 2 * x * y + y
        return self._tail(num / ((x + EPS) ** 2 * (1 - x + EPS) ** 2) * q, F, n)

    def grad_target(self, q, F, x, n):
        """-q [* weight] / max((1 - x) * x, eps) [/ n], the clamp a constant."""
        xa = x.data if F.tensor_mode else x
        denom = np.maximum((1 - xa) * xa, EPS)
        r = -q
        if self.w is not None:
            r = r * (Tensor(self.w) if F.tensor_mode else self.w)
        r = r / (Tensor(denom) if F.tensor_mode else denom)
        return r / n if self.reduction == "mean" else r

    def backward(self, gg, F, g, x, y):
        need = self.needs
        n = max(int(np.size(x.data if F.tensor_mode else x)), 1)
        gshape = np.shape(g.data if F.tensor_mode else g)
        q = gg * g if need[1] or need[2] else None
        return (
            F.sum_to(self.grad_output(gg, F, x, y, n), gshape) if need[0] else None,
            self.grad_input(q, F, x, y, n) if need[1] else None,
            self.grad_target(q, F, x, n) if need[2] else None,
        )

    def jvp(self, ts, F, g, x, y):
        tg, tx, ty = ts
        n = max(int(np.size(x.data)), 1)
        return add_terms(
            add_terms(
                self.grad_input(tx * g, F, x, y, n) if tx is not None else None,
                self.grad_target(ty * g, F, x, n) if ty is not None else None,
            ),
            self.grad_output(tg, F, x, y, n) if tg is not None else None,
        )
