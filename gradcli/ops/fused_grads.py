"""The backward kernels PyTorch runs as one op (`tanh_backward`, `sigmoid_backward`,
ATen/native/cpu/BinaryOpsKernel.cpp), with their values to the last bit and, under
create_graph, as recorded ops: the gradient they return prints
grad_fn=<TanhBackwardBackward0> / <SigmoidBackwardBackward0>, as in PyTorch, and
their own derivatives are derivatives.yaml's."""
from __future__ import annotations

import numpy as np

from ..base.fma import fma
from ..base.torch_exp import sigmoid as torch_sigmoid, softplus_backward
from ..engine.autograd import Function
from ..engine.forward import add_terms
from .shape import to


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


class SoftplusBackward(Function):
    __slots__ = ("beta", "threshold")
    name = "SoftplusBackwardBackward0"

    def forward(self, g, x, beta, threshold):
        self.beta, self.threshold = beta, threshold
        self.save(g, x)
        return softplus_values(g, x, beta, threshold)

    def backward(self, gg, F, g, x):
        n = self.needs
        return (softplus_grad(gg, F, x, self.beta, self.threshold) if n[0] else None,
                self._x_term(gg * g, F, x) if n[1] else None)

    def _x_term(self, gg_g, F, x):
        """softplus_double_backward: sigmoid_backward(gg * g, sigmoid(x * beta)) * mask * beta."""
        bx = x * self.beta
        mask = bx < self.threshold
        mask = to(mask, x.dtype) if F.tensor_mode else mask.astype(x.dtype)
        s = F.sigmoid(bx) if F.tensor_mode else torch_sigmoid(bx)
        return sigmoid_grad(gg_g, F, s) * mask * self.beta

    def jvp(self, ts, F, g, x):
        tg, tx = ts
        return add_terms(softplus_grad(tg, F, x, self.beta, self.threshold) if tg is not None
                         else None, self._x_term(tx * g, F, x) if tx is not None else None)


def softplus_values(g, x, beta, threshold):
    if x.dtype.char in "fd":
        return softplus_backward(np.broadcast_to(g, x.shape), x, beta, threshold)
    bx = x * beta
    z = np.exp(bx)
    return np.where(bx > threshold, g, (g * z) / (z + 1))


def softplus_grad(g, F, x, beta, threshold):
    """softplus's VJP (torch's softplus_backward kernel; one recorded op under create_graph)."""
    if F.tensor_mode:
        return SoftplusBackward.apply(g, x, beta=beta, threshold=threshold)
    return softplus_values(g, x, beta, threshold)


def tanh_grad(g, F, y):
    """tanh's VJP (unary()'s order: gradient, namespace, saved output): one recorded op under create_graph, the array kernel otherwise."""
    return TanhBackward.apply(g, y) if F.tensor_mode else tanh_backward_values(g, y)


def sigmoid_grad(g, F, y):
    return SigmoidBackward.apply(g, y) if F.tensor_mode else sigmoid_backward_values(g, y)


# ------------------------------------------ softmax's, log_softmax's and mse_loss's backward

class SoftmaxBackwardData(Function):
    """_softmax_backward_data: out * (g - sum(g * out, dim)), as one recorded op."""
    __slots__ = ("axis", "values")
    name = "SoftmaxBackwardDataBackward0"

    def forward(self, g, out, axis, values):
        self.axis, self.values = axis, values
        self.save(g, out)
        return values(g, out, axis)

    def backward(self, gg, F, g, out):
        n, ax = self.needs, self.axis
        # derivatives.yaml's softmax_double_backward for the output
        go = (g * gg - F.sum(out * g, ax, True) * gg - g * F.sum(out * gg, ax, True)) if n[1] else None
        return (type(self).apply(gg, out, axis=ax, values=self.values) if n[0] else None, go)

    def jvp(self, ts, F, g, out):
        tg, to, ax = ts[0], ts[1], self.axis
        return add_terms(type(self).apply(tg, out, axis=ax, values=self.values) if tg is not None
                         else None,
                         to * (g - F.sum(g * out, ax, True)) - out * F.sum(g * to, ax, True)
                         if to is not None else None)


class LogSoftmaxBackwardData(Function):
    """_log_softmax_backward_data: g - exp(out) * sum(g, dim), as one recorded op."""
    __slots__ = ("axis", "values")
    name = "LogSoftmaxBackwardDataBackward0"

    def forward(self, g, out, axis, values):
        self.axis, self.values = axis, values
        self.save(g, out)
        return values(g, out, axis)

    def backward(self, gg, F, g, out):
        n, ax = self.needs, self.axis
        go = None
        if n[1]:        # d/d out: -sum(g) * exp(out) * gg
            go = (-F.sum(g, ax, True) * F.exp(out)) * gg
        # d/d g: the transpose of (1 - exp(out) 1^T) applied to gg
        gg_g = gg - F.sum(F.exp(out) * gg, ax, True) if n[0] else None
        return (gg_g, go)

    def jvp(self, ts, F, g, out):
        tg, to, ax = ts[0], ts[1], self.axis
        return add_terms(type(self).apply(tg, out, axis=ax, values=self.values) if tg is not None
                         else None,
                         -(F.exp(out) * to) * F.sum(g, ax, True) if to is not None else None)


class MseLossBackward(Function):
    """mse_loss_backward: (norm * (x - y)) * grad, norm = 2/n for 'mean', else 2."""
    __slots__ = ("reduction", "shape")
    name = "MseLossBackwardBackward0"

    def forward(self, g, x, y, reduction, shape):
        self.reduction, self.shape = reduction, shape
        self.save(g, x, y)
        return mse_backward_values(g, x, y, reduction, shape, np.broadcast_to)

    def backward(self, gg, F, g, x, y):
        n, red, shape = self.needs, self.reduction, self.shape
        gg_g = None
        if n[0]:        # mse_loss_double_backward_grad_output
            if red == "none":
                gg_g = type(self).apply(gg, x, y, reduction=red, shape=shape)
            else:
                gg_g = F.sum(mse_backward_values(g * 0 + 1, x, y, red, shape, F.broadcast_to) * gg)
        dx = None
        if n[1] or n[2]:    # mse_loss_double_backward: 2 * (gg * g), / n for 'mean'
            dx = 2 * (gg * (F.broadcast_to(g, shape) if red != "none" else g))
            if red == "mean":
                dx = dx / max(int(np.prod(shape)), 1)
        return (gg_g, F.sum_to(dx, x.shape) if n[1] else None,
                F.sum_to(-dx, y.shape) if n[2] else None)

    def jvp(self, ts, F, g, x, y):
        tg, tx, ty = ts
        red, shape = self.reduction, self.shape
        d = None
        if tx is not None or ty is not None:
            diff = add_terms(tx, -ty if ty is not None else None)
            gb = F.broadcast_to(g, shape) if red != "none" else g
            d = (_norm(red, shape) * diff) * gb
        return add_terms(type(self).apply(tg, x, y, reduction=red, shape=shape)
                         if tg is not None else None, d)


def _norm(reduction, shape):
    return 2.0 / max(int(np.prod(shape)), 1) if reduction == "mean" else 2.0


def mse_backward_values(g, x, y, reduction, shape, broadcast):
    """torch's mse_loss_backward kernel: (norm * (x - y)) * grad (grad spread over the
    loss's shape unless reduction='none')."""
    gb = broadcast(g, shape) if reduction != "none" else g
    return (_norm(reduction, shape) * (x - y)) * gb
