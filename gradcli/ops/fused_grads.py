"""The backward kernels PyTorch runs as one op (`tanh_backward`, `sigmoid_backward`,
ATen/native/cpu/BinaryOpsKernel.cpp), with their values to the last bit and, under
create_graph, as recorded ops: the gradient they return prints
grad_fn=<TanhBackwardBackward0> / <SigmoidBackwardBackward0>, as in PyTorch, and
their own derivatives are derivatives.yaml's."""

from __future__ import annotations

import math

import numpy as np

from ..engine.declare import none
from ..core.tensor import Tensor
from ..numerics import native_layers
from ..numerics.floats.fma import fma, one_rounding
from ..numerics.floats.torch_exp import softplus_backward
from ..engine.function import Function
from ..engine.kept import kept, kept_pair
from ..engine.forward import add_terms
from .shape import to


def tanh_backward_values(g, y):
    """g * (1 - y*y) with 1 - y*y one fused multiply-add, rounded once, as torch's
    vectorised kernel computes it (y first: a nan keeps its sign through the FMA)."""
    dt = y.dtype
    if dt.char in "fd":
        if not y.ndim:  # (the fused step on Python numbers: fma's own for 0-d operands)
            v = y.item()
            if v - v == 0.0:  # (finite: inf and nan take the array steps)
                return g * dt.type(one_rounding(v, -v, 1.0, dt.char == "f"))
        elif (
            type(g) is np.ndarray
            and g.dtype == dt
            and g.shape == y.shape
            and dt.isnative
            and g.flags.c_contiguous
            and y.flags.c_contiguous
        ):  # (one compiled pass where the loops are loaded: the same steps)
            out = native_layers.tanh_backward(g, y)
            if out is not None:
                return out
        return g * kept(_one_minus_square, y)
    return g * (1 - y * y)


def _tanh_cross(y, g):
    """(y * -2.0) * g: the factor of tanh_backward's derivative in its output."""
    return (y * -2.0) * g


def _one_minus_square(y):
    """1 - y*y of a float array, one fused multiply-add (tanh's backward factor)."""
    return np.asarray(fma(y, -y, 1.0, dtype=y.dtype.type), dtype=y.dtype)


def sigmoid_backward_values(g, y):
    """(g * (1 - y)) * y, in torch's order."""
    return (g * (1 - y)) * y


REDUCTION_CODES = {"none": 0, "mean": 1, "sum": 2}  # PyTorch's enum, as `_saved_reduction`


def saved_reduction(node):
    """A loss's `_saved_reduction`: PyTorch's enum of its `reduction` (a node's field)."""
    return REDUCTION_CODES[node.reduction]


def saved_weight(attr):
    """A loss's optional `_saved_weight`/`_saved_pos_weight`: None when not given."""

    def get(self):  # self: the node (a computed name only on gradcli's own objects)
        w = getattr(self, attr)
        return None if w is None else Tensor(np.asarray(w))

    return get


class ElementwiseGrad(Function):
    """A backward kernel k(g, y), element-wise and linear in g, as a recorded op: its
    derivative in g is the kernel again (`again`), its derivative in y a product
    (`cross`) that serves a cotangent (backward) and a tangent (JVP) alike."""

    __slots__ = ()

    def backward(self, gg, F, g, y):
        n = self.needs
        return (self.again(gg, F, y) if n[0] else None, self.cross(gg, F, g, y) if n[1] else None)

    def jvp(self, ts, F, g, y):
        tg, ty = ts
        return add_terms(
            self.again(tg, F, y) if tg is not None else None,
            self.cross(ty, F, g, y) if ty is not None else None,
        )


class TanhBackward(ElementwiseGrad):
    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )
    __slots__ = ()
    name = "TanhBackwardBackward0"
    saved_names = ("grad_output", "output")

    def forward(self, g, y):
        self.save(g, y)
        return tanh_backward_values(g, y)

    def again(self, t, F, y):
        return tanh_grad(t, F, y)

    def cross(self, t, F, g, y):
        if F.tensor_mode or type(g) is not np.ndarray or type(y) is not np.ndarray:
            return t * ((y * -2.0) * g)
        return t * kept_pair(_tanh_cross, y, g)  # (the same at a Jacobian's rows)


class SigmoidBackward(ElementwiseGrad):
    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )
    __slots__ = ()
    name = "SigmoidBackwardBackward0"
    saved_names = ("grad_output", "output")

    def forward(self, g, y):
        self.save(g, y)
        return sigmoid_backward_values(g, y)

    def again(self, t, F, y):
        return sigmoid_grad(t, F, y)

    def cross(self, t, F, g, y):
        return (t * g) * (y * -2.0 + 1)


class SoftplusBackward(ElementwiseGrad):
    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )
    __slots__ = ("beta", "threshold")
    name = "SoftplusBackwardBackward0"
    saved_names = ("grad_output", "self")
    saved_extra = {"beta": lambda node: node.beta, "threshold": lambda node: node.threshold}

    def forward(self, g, x, beta, threshold):
        self.beta, self.threshold = beta, threshold
        self.save(g, x)
        return softplus_values(g, x, beta, threshold)

    def again(self, t, F, x):
        return softplus_grad(t, F, x, self.beta, self.threshold)

    def cross(self, t, F, g, x):
        """softplus_double_backward: sigmoid_backward(t * g, sigmoid(x * beta)) * mask * beta."""
        bx = x * self.beta
        mask = bx < self.threshold
        mask = to(mask, x.dtype) if F.tensor_mode else mask.astype(x.dtype)
        return sigmoid_grad(t * g, F, F.sigmoid(bx)) * mask * self.beta


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


class _BackwardData(Function):
    """_softmax_backward_data / _log_softmax_backward_data(g, out) along `axis` as a
    recorded op, its values from `values` (PyTorch's kernel where gradcli has it)."""

    __slots__ = ("axis", "values")

    def forward(self, g, out, axis, values):
        self.axis, self.values = axis, values
        self.save(g, out)
        return values(g, out, axis)

    def jvp(self, ts, F, g, out):
        tg, to = ts
        return add_terms(
            type(self).apply(tg, out, axis=self.axis, values=self.values)
            if tg is not None
            else None,
            self.out_tangent(to, F, g, out) if to is not None else None,
        )


class SoftmaxBackwardData(_BackwardData):
    """out * (g - sum(g * out, dim))."""

    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )

    __slots__ = ()
    name = "SoftmaxBackwardDataBackward0"
    saved_names = ("grad_output", "output")
    saved_extra = {"dim": lambda node: node.axis}

    def backward(self, gg, F, g, out):
        n, ax = self.needs, self.axis
        # derivatives.yaml's softmax_double_backward for the output
        go = (
            (g * gg - F.sum(out * g, ax, True) * gg - g * F.sum(out * gg, ax, True))
            if n[1]
            else None
        )
        gg_g = None
        if n[0]:  # the op again on gg; plain values when no graph is built
            gg_g = (
                type(self).apply(gg, out, axis=ax, values=self.values)
                if F.tensor_mode
                else self.values(gg, out, ax)
            )
        return (gg_g, go)

    def out_tangent(self, to, F, g, out):
        ax = self.axis
        return to * (g - F.sum(g * out, ax, True)) - out * F.sum(g * to, ax, True)


class LogSoftmaxBackwardData(_BackwardData):
    """g - exp(out) * sum(g, dim)."""

    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )

    __slots__ = ()
    name = "LogSoftmaxBackwardDataBackward0"
    saved_names = ("grad_output", "output")
    saved_extra = {"dim": lambda node: node.axis}

    def backward(self, gg, F, g, out):
        n, ax = self.needs, self.axis
        go = None
        if n[1]:  # d/d out: -sum(g) * exp(out) * gg
            go = (-F.sum(g, ax, True) * F.exp(out)) * gg
        # d/d g: the transpose of (1 - exp(out) 1^T) applied to gg
        gg_g = gg - F.sum(F.exp(out) * gg, ax, True) if n[0] else None
        return (gg_g, go)

    def out_tangent(self, to, F, g, out):
        return -(F.exp(out) * to) * F.sum(g, self.axis, True)


class MseLossBackward(Function):
    """mse_loss_backward: (norm * (x - y)) * grad, norm = 2/n for 'mean', else 2."""

    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )

    __slots__ = ("reduction", "shape")
    name = "MseLossBackwardBackward0"
    saved_names = ("grad_output", "self", "target")
    saved_extra = {"reduction": lambda node: REDUCTION_CODES[node.reduction]}

    def forward(self, g, x, y, reduction, shape):
        self.reduction, self.shape = reduction, shape
        self.save(g, x, y)
        return mse_backward_values(g, x, y, reduction, shape, np.broadcast_to)

    def backward(self, gg, F, g, x, y):
        n, red, shape = self.needs, self.reduction, self.shape
        gg_g = None
        if n[0]:  # mse_loss_double_backward_grad_output
            if red == "none":
                gg_g = (
                    type(self).apply(gg, x, y, reduction=red, shape=shape)
                    if F.tensor_mode
                    else mse_backward_values(gg, x, y, red, shape, np.broadcast_to)
                )
            else:
                gg_g = F.sum(mse_backward_values(g * 0 + 1, x, y, red, shape, F.broadcast_to) * gg)
        dx = None
        if n[1] or n[2]:  # mse_loss_double_backward: 2 * (gg * g), / n for 'mean'
            dx = 2 * (gg * (F.broadcast_to(g, shape) if red != "none" else g))
            if red == "mean":
                dx = dx / max(int(math.prod(shape)), 1)
        return (
            gg_g,
            F.sum_to(dx, x.shape) if n[1] else None,
            F.sum_to(-dx, y.shape) if n[2] else None,
        )

    def jvp(self, ts, F, g, x, y):
        tg, tx, ty = ts
        red, shape = self.reduction, self.shape
        d = None
        if tx is not None or ty is not None:
            diff = add_terms(tx, -ty if ty is not None else None)
            gb = F.broadcast_to(g, shape) if red != "none" else g
            d = (_norm(red, shape) * diff) * gb
        return add_terms(
            type(self).apply(tg, x, y, reduction=red, shape=shape) if tg is not None else None, d
        )


def _norm(reduction, shape):
    # (math.prod of the shape's ints: NumPy's prod of a tuple makes an array and reduces
    # it, 3% of a small MSE training step)
    return 2.0 / max(int(math.prod(shape)), 1) if reduction == "mean" else 2.0


def mse_backward_values(g, x, y, reduction, shape, broadcast):
    """torch's mse_loss_backward kernel: (norm * (x - y)) * grad (grad spread over the
    loss's shape unless reduction='none')."""
    gb = broadcast(g, shape) if reduction != "none" else g
    return (_norm(reduction, shape) * (x - y)) * gb
