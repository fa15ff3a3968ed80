"""The backward kernels PyTorch runs as one op (`tanh_backward`, `sigmoid_backward`,
ATen/native/cpu/BinaryOpsKernel.cpp), with their values to the last bit and, under
create_graph, as recorded ops: the gradient they return prints
grad_fn=<TanhBackwardBackward0> / <SigmoidBackwardBackward0>, as in PyTorch, and
their own derivatives are derivatives.yaml's."""
from __future__ import annotations

import numpy as np

from ..base.fma import fma
from ..engine.autograd import Function
from ..engine.forward import add_terms


def tanh_backward_values(g, y):
    """g * (1 - y*y) with 1 - y*y one fused multiply-add, rounded once, as torch's
    vectorised kernel computes it (y first: a nan keeps its sign through the FMA)."""
    dt = y.dtype
    if dt.char in "fd":
        return g * np.asarray(fma(y, -y, 1, dtype=dt.type), dtype=dt)
    return g * (1 - y * y)


def sigmoid_backward_values(g, y):
    """(g * (1 - y)) * y, in torch's order."""
    return (g * (1 - y)) * y


class TanhBackward(Function):
    __slots__ = ()
    name = "TanhBackwardBackward0"

    def forward(self, g, y):
        self.save(g, y)
        return tanh_backward_values(g, y)

    def backward(self, gg, F, g, y):
        n = self.needs
        return (tanh_grad(gg, F, y) if n[0] else None,
                gg * ((y * -2.0) * g) if n[1] else None)

    def jvp(self, ts, F, g, y):
        tg, ty = ts
        return add_terms(tanh_grad(tg, F, y) if tg is not None else None,
                         ty * ((y * -2.0) * g) if ty is not None else None)


class SigmoidBackward(Function):
    __slots__ = ()
    name = "SigmoidBackwardBackward0"

    def forward(self, g, y):
        self.save(g, y)
        return sigmoid_backward_values(g, y)

    def backward(self, gg, F, g, y):
        n = self.needs
        return (sigmoid_grad(gg, F, y) if n[0] else None,
                (gg * g) * (y * -2.0 + 1) if n[1] else None)

    def jvp(self, ts, F, g, y):
        tg, ty = ts
        return add_terms(sigmoid_grad(tg, F, y) if tg is not None else None,
                         (ty * g) * (y * -2.0 + 1) if ty is not None else None)


def tanh_grad(g, F, y):
    """tanh's VJP (unary()'s order: gradient, namespace, saved output): one recorded op under create_graph, the array kernel otherwise."""
    return TanhBackward.apply(g, y) if F.tensor_mode else tanh_backward_values(g, y)


def sigmoid_grad(g, F, y):
    return SigmoidBackward.apply(g, y) if F.tensor_mode else sigmoid_backward_values(g, y)
