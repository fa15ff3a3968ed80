"""More of torch.nn.functional's losses, each as PyTorch computes it: huber_loss,
smooth_l1_loss and soft_margin_loss are kernels of their own (HuberLossBackward0,
SmoothL1LossBackward0, SoftMarginLossBackward0); poisson_nll_loss, gaussian_nll_loss,
kl_div, multilabel_soft_margin_loss, margin_ranking_loss, hinge_embedding_loss and
cosine_embedding_loss are PyTorch's compositions of other ops, written here with the
same ops in the same order (so their grad_fn and values are torch's); clamp_min
(ClampMinBackward0), which they use."""

from __future__ import annotations

import math
from typing import Any

import operator

import numpy as np

from ..core.convert import tensor_arg
from ..core.tensor import Tensor
from ..engine.declare import none
from .fused_grads import saved_reduction
from ..engine.forward import add_terms
from ..engine.function import Function
from ..numerics.sums.summation import torch_sum
from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradValueError
from .dims import one_dim
from .loss import P, T, _floats, _reduce, _reduction
from .registry import FUNCTIONS, Arg, register
from .unary import forward_of

_OP = FUNCTIONS  # the ops by name, looked up when a loss is computed


def _apply_reduction(loss, reduction):
    """apply_loss_reduction: loss.mean(), loss.sum() or the loss itself."""
    if reduction == "mean":
        return _OP["mean"](loss)
    if reduction == "sum":
        return _OP["sum"](loss)
    return loss


def _decl(name, sig, doc, checks, pure=False):
    return register(
        name,
        sig,
        doc,
        checks=checks,
        category="loss",
        batch=None,
        inplace=None,
        pure=pure,
        parser=None,
    )


# ---------------------------------------------------------------- clamp_min


class ClampMin(Function):
    """max(x, bound) (ClampMinBackward0); ClampMax: min(x, bound). The gradient passes
    where x is kept: x >= bound (x <= bound for ClampMax)."""

    __slots__ = ("bound",)
    name = "ClampMinBackward0"
    saved_names = ("self",)
    saved_extra = {"min": lambda node: node.bound}
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    extreme = staticmethod(np.maximum)
    keeps = staticmethod(operator.ge)

    def forward(self, x, bound):
        self.bound = bound
        self.save(x)
        return self.extreme(x, x.dtype.type(bound) if x.dtype.kind == "f" else bound)

    def backward(self, g, F, x):
        if F.tensor_mode:
            return (F.where(Tensor(self.keeps(x.data, self.bound)), g, g * 0),)
        return (np.where(self.keeps(x, self.bound), g, g * 0),)

    def jvp(self, ts, F, x):
        return ts[0] * Tensor(self.keeps(x.data, self.bound).astype(x.data.dtype))


class ClampMax(ClampMin):
    __slots__ = ()
    name = "ClampMaxBackward0"
    saved_extra = {"max": lambda node: node.bound}
    extreme = staticmethod(np.minimum)
    keeps = staticmethod(operator.le)


def _clamp_one(fn, doc):
    register(
        fn.__name__,
        f"{fn.__name__}(input, {fn.__name__[-3:]})",
        doc,
        method=True,
        checks=[((Arg((3, 4)), 0.3), {})],
        category="pointwise",
        batch="elementwise",
        inplace=None,
        pure=True,
        parser=None,
    )(fn)


def clamp_min(input, min):  # noqa: A002
    return ClampMin.apply(tensor_arg(input), bound=float(min))


def clamp_max(input, max):  # noqa: A002
    return ClampMax.apply(tensor_arg(input), bound=float(max))


_clamp_one(clamp_min, "max(input, min) element-wise")
_clamp_one(clamp_max, "min(input, max) element-wise")


# ---------------------------------------------------------------- kernels of their own


class _Pointwise(Function):
    """A loss of input and target element by element, reduced; the subclass gives
    `loss(x, t)` and `grads(x, t, g)` -> (d input, d target) before the reduction."""

    __slots__ = ("reduction", "shape", "p")
    saved_names = ("self", "target")
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    target_grad = True  # the target's gradient is minus the input's

    def forward(self, x, t, reduction, p):
        self.reduction, self.shape, self.p = reduction, x.shape, p
        self.save(x, t)
        return _reduce(self.loss(x, t), reduction)

    grad_node: Any = None  # its backward kernel as a recorded op (create_graph), if one

    def backward(self, g, F, x, t):
        if F.tensor_mode and self.grad_node is not None:
            # derivatives.yaml: the backward kernel of (input, target), and of (target,
            # input) for the target, each a node with its own double backward
            n, node, kw = self.needs, self.grad_node, {"reduction": self.reduction, "p": self.p}
            return (node.apply(g, x, t, **kw) if n[0] else None), (
                node.apply(g, t, x, **kw) if n[1] and self.target_grad else None
            )
        if F.tensor_mode:  # the derivative as a formula of the tensors (differentiable again)
            n = max(int(np.prod(self.shape)), 1)
            if self.reduction != "none":
                g = F.broadcast_to(g / n if self.reduction == "mean" else g, self.shape)
            gx = self.deriv(x, t) * g
        else:
            norm = 1.0 / max(x.size, 1) if self.reduction == "mean" else 1.0
            g = np.broadcast_to(g, self.shape) if self.reduction != "none" else g
            gx = self.grads(x, t, g, x.dtype.type(norm))
        return gx, (-gx if self.target_grad else None)

    def jvp(self, ts, F, x, t):
        tx, tt = ts
        if not self.target_grad:
            tt = None
        dv = tx if tt is None else (-tt if tx is None else tx - tt)
        if dv is None:
            return None
        elem = self.deriv(x, t) * dv
        if self.reduction == "none":
            return elem
        return _OP["mean" if self.reduction == "mean" else "sum"](elem)


class _PointwiseGrad(Function):
    """A _Pointwise loss's backward kernel, loss_backward(grad_output, input, target), as
    a recorded op (create_graph), with derivatives.yaml's derivatives: for grad_output
    the kernel again (`again`), for input `second(grad * grad_output)` and for target its
    negation, where `second` is FunctionsManual's loss_double_backward (`keep`: the
    element-wise factor, 0 or 1 or 1/beta, as PyTorch multiplies and divides it)."""

    __slots__ = ("reduction", "p")
    loss: Any  # the loss's node, whose `grads` is the kernel (set below, once it is defined)
    saved_names = ("grad_output", "self", "target")
    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )

    def forward(self, g, x, t, reduction, p):
        self.reduction, self.p = reduction, p
        self.save(g, x, t)
        return self.values(g, x, t)

    def values(self, g, x, t):
        red = self.reduction
        norm = 1.0 / max(x.size, 1) if red == "mean" else 1.0
        g = np.broadcast_to(g, x.shape) if red != "none" else g
        return self.loss.grads(self, x, t, g, x.dtype.type(norm))

    def kernel(self, F, g, x, t):
        """loss_backward(g, x, t) itself: a node again under create_graph."""
        if F.tensor_mode:
            return type(self).apply(g, x, t, reduction=self.reduction, p=self.p)
        return self.values(g, x, t)

    def second(self, q, F, x, t):
        xa, ta = (x.data, t.data) if F.tensor_mode else (x, t)
        mask = (np.abs(xa - ta) < xa.dtype.type(self.p)).astype(xa.dtype)
        r = self.keep(q * (Tensor(mask) if F.tensor_mode else mask))
        return r / max(int(np.size(xa)), 1) if self.reduction == "mean" else r

    def backward(self, gg, F, g, x, t):
        n = self.needs
        d = self.second(gg * g, F, x, t) if n[1] or n[2] else None
        return (
            self.again(gg, F, g, x, t) if n[0] else None,
            d if n[1] else None,
            -d if n[2] else None,
        )

    def jvp(self, ts, F, g, x, t):
        tg, tx, tt = ts
        return add_terms(
            add_terms(
                self.second(tx * g, F, x, t) if tx is not None else None,
                -self.second(tt * g, F, x, t) if tt is not None else None,
            ),
            self.kernel(F, tg, x, t) if tg is not None else None,
        )


class SmoothL1Grad(_PointwiseGrad):
    __slots__ = ()
    name = "SmoothL1LossBackwardBackward0"
    saved_extra = {"beta": lambda node: node.p, "reduction": saved_reduction}

    def keep(self, q):
        return q / self.p

    def again(self, gg, F, g, x, t):
        """smooth_l1_loss_backward(grad, self, target), summed to grad_output's shape."""
        return F.sum_to(self.kernel(F, gg, x, t), np.shape(g.data if F.tensor_mode else g))


class HuberGrad(_PointwiseGrad):
    __slots__ = ()
    name = "HuberLossBackwardBackward0"
    saved_extra = {"delta": lambda node: node.p, "reduction": saved_reduction}

    def keep(self, q):
        return q

    def again(self, gg, F, g, x, t):
        """huber_loss_double_backward_grad_output: the kernel of grad, or, reduced, the
        sum of grad times the kernel of ones."""
        if self.reduction == "none":
            return self.kernel(F, gg, x, t)
        shape = np.shape(g.data if F.tensor_mode else g)
        ones = np.ones(shape, (g.data if F.tensor_mode else g).dtype)
        r = self.kernel(F, Tensor(ones) if F.tensor_mode else ones, x, t)
        return F.sum(r * gg) if F.tensor_mode else np.asarray(torch_sum(r * gg), r.dtype)


class HuberLoss(_Pointwise):
    __slots__ = ()
    name = "HuberLossBackward0"
    saved_extra = HuberGrad.saved_extra
    grad_node = HuberGrad

    def loss(self, x, t):
        d, half = x.dtype.type(self.p), x.dtype.type(0.5)
        z = np.abs(x - t)
        return np.where(z < d, half * z * z, d * (z - half * d)).astype(x.dtype)

    def deriv(self, x, t):
        v, d = x - t, self.p
        return _OP["where"](v <= -d, -d + 0 * v, _OP["where"](v >= d, d + 0 * v, v))

    def grads(self, x, t, g, norm):
        d = x.dtype.type(self.p)
        v = x - t
        return np.where(
            v <= -d, -norm * g * d, np.where(v >= d, norm * g * d, norm * v * g)
        ).astype(x.dtype)


class SmoothL1Loss(_Pointwise):
    __slots__ = ()
    name = "SmoothL1LossBackward0"
    saved_extra = SmoothL1Grad.saved_extra
    grad_node = SmoothL1Grad

    def loss(self, x, t):
        b, half = x.dtype.type(self.p), x.dtype.type(0.5)
        z = np.abs(x - t)
        return np.where(z < b, half * z * z / b, z - half * b).astype(x.dtype)

    def deriv(self, x, t):
        v, b = x - t, self.p
        return _OP["where"](v <= -b, -1 + 0 * v, _OP["where"](v >= b, 1 + 0 * v, v / b))

    def grads(self, x, t, g, norm):
        b = x.dtype.type(self.p)
        v = x - t
        return np.where(v <= -b, -norm * g, np.where(v >= b, norm * g, norm * v * g / b)).astype(
            x.dtype
        )


class SoftMarginLoss(_Pointwise):
    __slots__ = ()
    name = "SoftMarginLossBackward0"

    target_grad = False

    def loss(self, x, t):
        # ATen: neg_out(input).mul_(target).exp_().log1p_(), each PyTorch's kernel
        return forward_of("log1p", forward_of("exp", -x * t))

    def deriv(self, x, t):
        z = _OP["exp"](-t * x)
        return -t * z / (1 + z)

    def grads(self, x, t, g, norm):
        z = forward_of("exp", -t * x)
        return ((t * z) * -norm / (z + 1) * g).astype(x.dtype)


def _pointwise(node, input, target, reduction, p, what):
    x, t = _floats(input, target)
    if x.data.shape != t.data.shape:
        context.warn(
            f"Using a target size ({_size(t)}) that is different to the input size "
            f"({_size(x)}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size."
        )
        shape = np.broadcast_shapes(x.data.shape, t.data.shape)
        x, t = _OP["expand"](x, *shape), _OP["expand"](t, *shape)
    return node.apply(x, t, reduction=_reduction(reduction), p=p)


def _size(t):
    return f"torch.Size([{', '.join(map(str, t.data.shape))}])"


@_decl(
    "huber_loss",
    "huber_loss(input, target, reduction='mean', delta=1.0)",
    "0.5 (x - y)^2 where |x - y| < delta, else delta (|x - y| - delta / 2), reduced",
    [((Arg((3, 4)), Arg((3, 4))), {}), ((Arg((5,)), Arg((5,))), {"delta": 0.5})],
    pure=True,
)
def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    if delta <= 0:
        raise GradRuntimeError("huber_loss does not support non-positive values for delta.")
    return _pointwise(HuberLoss, input, target, reduction, float(delta), "huber_loss")


@_decl(
    "smooth_l1_loss",
    "smooth_l1_loss(input, target, reduction='mean', beta=1.0)",
    "0.5 (x - y)^2 / beta where |x - y| < beta, else |x - y| - beta / 2, reduced",
    [((Arg((3, 4)), Arg((3, 4))), {}), ((Arg((5,)), Arg((5,))), {"beta": 0.5})],
    pure=True,
)
def smooth_l1_loss(
    input, target, size_average=None, reduce=None, reduction="mean", beta=1.0
):  # fmt: skip
    if beta < 0:
        raise GradRuntimeError("smooth_l1_loss does not support negative values for beta.")
    reduction = _reduction(reduction, size_average, reduce)
    if beta == 0:
        return _OP["l1_loss"](input, target, reduction=reduction)
    return _pointwise(SmoothL1Loss, input, target, reduction, float(beta), "smooth_l1_loss")


@_decl(
    "soft_margin_loss",
    "soft_margin_loss(input, target, reduction='mean')",
    "log(1 + exp(-y x)), reduced (targets y of 1 and -1)",
    [((Arg((3, 4)), Tensor(np.sign(np.arange(12.0).reshape(3, 4) % 3 - 0.5))), {})],
)
def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(reduction, size_average, reduce)
    return _pointwise(SoftMarginLoss, input, target, reduction, None, "soft_margin_loss")


# ---------------------------------------------------------------- compositions


@_decl(
    "poisson_nll_loss",
    "poisson_nll_loss(input, target, log_input=True, full=False, eps=1e-08, reduction='mean')",
    "exp(x) - y x (log_input), or x - y log(x + eps), plus Stirling's term if full; reduced",
    [((Arg((2, 3)), T), {}), ((P, Arg((2, 3), 0.0, 3.0, grad=False)), {"log_input": False})],
)
def poisson_nll_loss(
    input, target, log_input=True, full=False, size_average=None, eps=1e-08, reduce=None,
    reduction="mean",
):  # fmt: skip
    reduction = _reduction(reduction, size_average, reduce)
    x, t = tensor_arg(input), tensor_arg(target)
    mul, sub = _OP["mul"], _OP["sub"]
    if log_input:
        loss = sub(_OP["exp"](x), mul(t, x))
    else:
        loss = sub(x, mul(t, _OP["log"](_OP["add"](x, eps))))
    if full:  # ATen's Stirling term, op for op (its float32 log is torch.log's, not NumPy's),
        # `t log t - t + 0.5 log(2 pi t)` with the right operand first, as ATen's build
        # evaluates it (the order the backward adds the target's gradients in)
        log, add = _OP["log"], _OP["add"]
        half_log = mul(log(mul(t, 2 * math.pi)), 0.5)
        st = add(sub(mul(t, log(t)), t), half_log)
        loss = add(loss, _OP["masked_fill"](st, _OP["le"](t, 1), 0))
    return _apply_reduction(loss, reduction)


@_decl(
    "gaussian_nll_loss",
    "gaussian_nll_loss(input, target, var, full=False, eps=1e-06, reduction='mean')",
    "0.5 (log(var) + (x - y)^2 / var) (+ 0.5 log(2 pi) if full), reduced",
    [((Arg((2, 3)), Arg((2, 3)), Arg((2, 3), 0.5, 2.0)), {})],
)
def gaussian_nll_loss(input, target, var, full=False, eps=1e-06, reduction="mean"):
    x, t = tensor_arg(input), tensor_arg(target)
    v = Tensor(np.full(x.data.shape[:-1] + (1,), float(var))) if isinstance(var, float) else var
    v = tensor_arg(v)
    xs, vs = x.data.shape, v.data.shape
    if vs != xs:
        if xs[:-1] == vs:
            v = _OP["unsqueeze"](v, -1)
        elif not (xs[:-1] == vs[:-1] and vs[-1:] == (1,)):
            raise GradValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise GradValueError(reduction + " is not valid")
    if np.any(v.data < 0):
        raise GradValueError("var has negative entry/entries")
    v = _OP["clone"](v)
    v.data = np.maximum(v.data, v.data.dtype.type(eps))  # var.clamp_(min=eps) under no_grad
    diff = _OP["sub"](x, t)
    loss = _OP["mul"](
        0.5, _OP["add"](_OP["log"](v), _OP["div"](_OP["pow"](diff, 2), v))
    )  # fmt: skip
    if full:
        loss = _OP["add"](loss, 0.5 * math.log(2 * math.pi))
    return _apply_reduction(loss, reduction)


@_decl(
    "kl_div",
    "kl_div(input, target, reduction='mean', log_target=False)",
    "the KL divergence of target from input (log-probabilities), reduced; "
    "'batchmean' divides the sum by the batch size",
    [
        ((Arg((2, 3)), P), {"reduction": "batchmean"}),
        ((Arg((2, 3)), Arg((2, 3))), {"log_target": True}),
    ],
)
def kl_div(
    input, target, size_average=None, reduce=None, reduction="mean", log_target=False
):  # fmt: skip
    if size_average is not None or reduce is not None:
        reduction = _reduction("mean", size_average, reduce)
    elif reduction == "mean":
        context.warn(
            "reduction: 'mean' divides the total loss by both the batch size and the support "
            "size.'batchmean' divides only by the batch size, and aligns with the KL div math "
            "definition.'mean' will be changed to behave the same as 'batchmean' in the next "
            "major release."
        )
    inner = "sum" if reduction == "batchmean" else _reduction(reduction)
    x, t = tensor_arg(input), tensor_arg(target)
    if log_target:
        out = _OP["mul"](_OP["exp"](t), _OP["sub"](t, x))
    else:
        # xlogy(t, t): 0 where t is 0, else t * log(t), as ops (t may be in a graph)
        zero = _OP["eq"](t, 0)
        safe = _OP["where"](zero, _OP["ones_like"](t), t)
        xlogy = _OP["where"](zero, _OP["zeros_like"](t), _OP["mul"](t, _OP["log"](safe)))
        out = _OP["sub"](xlogy, _OP["mul"](t, x))
    return _kl_reduce(out, x, inner, reduction)


def _kl_reduce(out, x, inner, reduction):
    reduced = _apply_reduction(out, inner)
    if reduction == "batchmean" and x.data.ndim != 0:
        reduced = _OP["div"](reduced, x.data.shape[0])
    return reduced


@_decl(
    "multilabel_soft_margin_loss",
    "multilabel_soft_margin_loss(input, target, weight=None, reduction='mean')",
    "-(y logsigmoid(x) + (1 - y) logsigmoid(-x)) averaged over the classes, reduced",
    [((Arg((2, 3)), Tensor(np.array([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]]))), {})],
)
def multilabel_soft_margin_loss(
    input, target, weight=None, size_average=None, reduce=None, reduction="mean"
):  # fmt: skip
    reduction = _reduction(reduction, size_average, reduce)
    x, t = tensor_arg(input), tensor_arg(target)
    ls = _OP["logsigmoid"]
    loss = _OP["neg"](
        _OP["add"](
            _OP["mul"](t, ls(x)), _OP["mul"](_OP["sub"](1, t), ls(_OP["neg"](x)))
        )
    )  # fmt: skip
    if weight is not None:
        loss = _OP["mul"](loss, weight)
    class_dim = one_dim(-1, x.data.ndim)  # input.size(-1): PyTorch's error on a scalar
    c = x.data.shape[class_dim]
    loss = _OP["div"](_OP["sum"](loss, class_dim), c)
    return _apply_reduction(loss, reduction)


@_decl(
    "margin_ranking_loss",
    "margin_ranking_loss(input1, input2, target, margin=0, reduction='mean')",
    "max(0, -y (x1 - x2) + margin), reduced",
    [((Arg((4,)), Arg((4,)), Tensor(np.array([1.0, -1.0, 1.0, -1.0]))), {"margin": 0.1})],
)
def margin_ranking_loss(
    input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"
):  # fmt: skip
    reduction = _reduction(reduction, size_average, reduce)
    a, b, y = tensor_arg(input1), tensor_arg(input2), tensor_arg(target)
    if not (a.data.ndim == b.data.ndim == y.data.ndim):
        raise GradRuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got "
            f"sizes: input1: {_size(a)}, input2: {_size(b)}, target: {_size(y)} "
        )
    out = _OP["add"](_OP["mul"](_OP["neg"](y), _OP["sub"](a, b)), margin)
    return _apply_reduction(clamp_min(out, 0), reduction)


@_decl(
    "hinge_embedding_loss",
    "hinge_embedding_loss(input, target, margin=1.0, reduction='mean')",
    "x where y is 1, max(0, margin - x) where y is -1, reduced",
    [((Arg((2, 3)), Tensor(np.array([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]]))), {})],
)
def hinge_embedding_loss(
    input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"
):  # fmt: skip
    reduction = _reduction(reduction, size_average, reduce)
    x, y = tensor_arg(input), tensor_arg(target)
    zeros = _OP["zeros_like"](x)
    margin_clamp = clamp_min(_OP["sub"](margin, x), 0)
    output_margin = _OP["where"](_OP["ne"](y, 1), margin_clamp, zeros)
    output_self = _OP["where"](_OP["ne"](y, -1), x, zeros)
    return _apply_reduction(_OP["add"](output_margin, output_self), reduction)


@_decl(
    "cosine_embedding_loss",
    "cosine_embedding_loss(input1, input2, target, margin=0, reduction='mean')",
    "1 - cos(x1, x2) where y is 1, max(0, cos(x1, x2) - margin) where y is -1, reduced",
    [((Arg((3, 4)), Arg((3, 4)), Tensor(np.array([1.0, -1.0, 1.0]))), {})],
)
def cosine_embedding_loss(
    input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"
):  # fmt: skip
    reduction = _reduction(reduction, size_average, reduce)
    a, b, y = tensor_arg(input1), tensor_arg(input2), tensor_arg(target)
    d = y.data.ndim
    if d not in (0, 1):
        raise GradRuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if a.data.ndim != d + 1 or b.data.ndim != d + 1:
        raise GradRuntimeError(
            f"{d}D target tensor expects {d + 1}D input tensors, but found inputs with sizes "
            f"{list(a.data.shape)} and {list(b.data.shape)}."
        )
    mul, s = _OP["mul"], _OP["sum"]
    prod_sum = s(mul(a, b), d)
    mag1 = _OP["add"](s(mul(a, a), d), 1e-12)
    mag2 = _OP["add"](s(mul(b, b), d), 1e-12)
    denom = _OP["sqrt"](mul(mag1, mag2))
    cos = _OP["div"](prod_sum, denom)
    zeros = _OP["zeros_like"](cos)
    pos = _OP["sub"](1, cos)
    neg = clamp_min(_OP["sub"](cos, margin), 0)
    output_pos = _OP["where"](_OP["eq"](y, 1), pos, zeros)
    output_neg = _OP["where"](_OP["eq"](y, -1), neg, zeros)
    return _apply_reduction(_OP["add"](output_pos, output_neg), reduction)


HuberGrad.loss = HuberLoss
SmoothL1Grad.loss = SmoothL1Loss
