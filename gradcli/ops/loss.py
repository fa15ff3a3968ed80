"""Loss functions: torch.nn.functional's `mse_loss`, `l1_loss`, `binary_cross_entropy`,
`binary_cross_entropy_with_logits`, `nll_loss` and `cross_entropy`, and the torch.nn
modules that wrap them (`nn.MSELoss()` ...).

Each fused loss is one node, as in PyTorch (`MseLossBackward0` ...).  Its VJP
saves only the inputs and recomputes from them with `F`, so it is differentiable
again under create_graph.  `reduction` is "mean" (the default), "sum" or "none".
"""

from __future__ import annotations

import math

import numpy as np

from ..engine.declare import none
from ..numerics.sums.summation import nll_cascade, torch_sum

from ..core import dtypes
from ..engine.function import Function
from .elementwise import DivScalar
from ..engine.forward import add_terms
from ..engine.vjp_arrays import ArrayF
from ..core.convert import tensor_arg
from ..runtime.errors import (
    GradIndexError,
    GradRuntimeError,
    GradTypeError,
    GradValueError,
    broadcast_error,
)
from ..core.tensor import Tensor
from .registry import Arg, register
from ..numerics.floats import torch_act
from ..numerics.floats.libm_log import libm_log
from .loss_grads import BCEGrad, bce_grad_values
from .fused_grads import (
    REDUCTION_CODES,
    MseLossBackward,
    mse_backward_values,
    saved_reduction,
    saved_weight,
)
from .dims import norm_dims, one_dim
from .softmax import log_softmax
from .shape import to
from ..runtime import context
from .registry import FUNCTIONS

REDUCTIONS = ("mean", "sum", "none")
SCALAR_NAMES = {
    "float64": "Double",
    "float32": "Float",
    "float16": "Half",
    "int64": "Long",
    "int32": "Int",
    "uint8": "Byte",
    "bool": "Bool",
}  # c10's ScalarType names
P = Arg((2, 3), 0.05, 0.95)  # probabilities, away from 0 and 1
T = Arg((2, 3), 0.0, 1.0, grad=False)  # targets


def _reduction(reduction, size_average=None, reduce=None):
    """The reduction asked for; the legacy size_average/reduce win when given, as in PyTorch."""
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = ("mean" if size_average else "sum") if reduce else "none"
        context.warn(
            "size_average and reduce args will be deprecated, please use "
            f"reduction='{reduction}' instead."
        )
    if reduction not in REDUCTIONS:
        raise GradValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _reduced(S, loss, reduction):
    """A formula rule's element-wise loss reduced as asked."""
    if reduction == "none":
        return loss
    return S.mean(loss) if reduction == "mean" else S.sum(loss)


def _reduce(loss, reduction):
    """Forward: the element-wise loss reduced as asked."""
    if reduction == "none":
        return loss
    if loss.dtype.kind != "f" or not loss.size:
        return np.sum(loss) if reduction == "sum" else np.mean(loss)
    total = np.asarray(torch_sum(loss), dtype=loss.dtype)  # PyTorch's order, bit for bit
    return total if reduction == "sum" else np.asarray(total / loss.size, dtype=loss.dtype)


def _spread(g, F, shape, reduction):
    """Backward of the reduction: the head gradient per element."""
    if reduction == "none":
        return g
    if reduction == "mean":
        g = g / max(int(math.prod(shape)), 1)
    return F.broadcast_to(g, shape)


def _c(F, a):
    """A constant array as the VJP's namespace needs it (a Tensor under create_graph)."""
    return Tensor(a) if F.tensor_mode and a is not None else a


def _floats(input, target):
    x, y = tensor_arg(input), tensor_arg(target)
    dt = dtypes.result_type(x, y)
    if dt.kind != "f":
        dt = context.current.default_float
    return (x if x.data.dtype == dt else to(x, dt)), (y if y.data.dtype == dt else to(y, dt))


class _Loss(Function):
    __slots__ = ("reduction", "shape")

    def setup(self, x, y, reduction):
        self.reduction = reduction
        self.shape = broadcast_shape(x.shape, y.shape)

    def jvp(self, ts, F, x, y):
        """reduce(loss(x, y)): the element-wise derivatives (the backward without its
        reduction, with g = 1) times the tangents, reduced the same way."""
        shape, red = self.shape, self.reduction
        self.reduction = "none"
        try:
            ones = Tensor(np.ones(shape, x.data.dtype))
            gx, gy = self.backward(ones, F, F.broadcast_to(x, shape), F.broadcast_to(y, shape))[:2]
        finally:
            self.reduction = red
        d = add_terms(
            gx * ts[0] if ts[0] is not None else None, gy * ts[1] if ts[1] is not None else None
        )
        if red == "none":
            return d
        total = F.sum(d)
        return total if red == "sum" else total / max(int(math.prod(shape)), 1)


def broadcast_shape(sa, sb):
    if sa == sb:  # (the usual loss: np.broadcast_shapes costs more than the loss's step)
        return tuple(sa)
    try:
        return np.broadcast_shapes(sa, sb)
    except ValueError:
        raise broadcast_error(sa, sb) from None


def _pair(F, gx, gy, x, y):
    """The gradients of both operands, summed back to their shapes."""
    return F.sum_to(gx, x.shape), F.sum_to(gy, y.shape)


class MseLoss(_Loss):
    __slots__ = ()
    name = "MseLossBackward0"
    saved_names = ("self", "target")
    saved_extra = {"reduction": lambda node: REDUCTION_CODES[node.reduction]}

    def forward(self, x, y, reduction="mean"):
        self.setup(x, y, reduction)
        self.save(x, y)
        d = x - y
        return _reduce(d * d, reduction)

    def formula(self, S, x, y):
        d = S.saved_const(x, self, 0, self.shape) - S.saved_const(y, self, 1, self.shape)
        sq = S.map(lambda v: v**2, d)
        if self.reduction == "none":
            return sq
        return S.mean(sq) if self.reduction == "mean" else S.sum(sq)

    def backward(self, g, F, x, y):
        red, shape = self.reduction, self.shape
        if F.tensor_mode:  # one recorded mse_loss_backward per operand, as in PyTorch
            n = getattr(self, "needs", None) or (True, True)  # (unset in a JVP)
            return (
                F.sum_to(MseLossBackward.apply(g, x, y, reduction=red, shape=shape), x.shape)
                if n[0]
                else None,
                F.sum_to(MseLossBackward.apply(g, y, x, reduction=red, shape=shape), y.shape)
                if n[1]
                else None,
            )
        gd = mse_backward_values(g, x, y, red, shape, F.broadcast_to)
        n = getattr(self, "needs", None) or (True, True)  # (unset in a JVP)
        return (
            F.sum_to(gd, x.shape) if n[0] else None,
            F.sum_to(-gd, y.shape) if n[1] else None,  # (a target: seldom needed)
        )


def _size_warning(x, y):
    if x.data.shape != y.data.shape:
        context.warn(
            f"Using a target size (torch.Size({list(y.data.shape)})) that is different to the "
            f"input size (torch.Size({list(x.data.shape)})). This will likely lead to "
            "incorrect results due to broadcasting. Please ensure they have the same size."
        )


@register(
    "mse_loss",
    "mse_loss(input, target, reduction='mean')",
    "mean squared error: mean((input - target) ^ 2)",
    checks=[
        ((Arg((2, 3)), Arg((2, 3))), {}),
        ((Arg((3,)), T), {"reduction": "sum"}),
        ((Arg((2, 3)), Arg((2, 3))), {"reduction": "none"}),
    ],
    category="loss",
    batch="mse_loss",
    inplace=None,
    pure=True,
    parser=None,
)
def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    x, y = _floats(input, target)
    _size_warning(x, y)
    return MseLoss.apply(x, y, reduction=_reduction(reduction, size_average, reduce))


@register(
    "l1_loss",
    "l1_loss(input, target, reduction='mean')",
    "mean absolute error: mean(abs(input - target))",
    checks=[((Arg((2, 3)), T), {}), ((Arg((3,)), Arg((3,))), {"reduction": "none"})],
    category="loss",
    batch="l1_loss",
    inplace=None,
    pure=True,
    parser=None,
)
def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    x, y = _floats(input, target)
    _size_warning(x, y)
    loss = FUNCTIONS["abs"](x - y)  # PyTorch records the same: Mean/Sum over Abs
    reduction = _reduction(reduction, size_average, reduce)
    if reduction == "none":
        return loss
    return FUNCTIONS["sum" if reduction == "sum" else "mean"](loss)


def _same_size(x, y):
    if x.data.shape != y.data.shape:
        raise GradValueError(
            f"Target size (torch.Size({list(y.data.shape)})) must be the same "
            f"as input size (torch.Size({list(x.data.shape)}))"
        )


class BCEWithLogits(_Loss):
    """(1 - y) x + lw softplus(-x), lw = 1 + (pos_weight - 1) y; times weight."""

    __slots__ = ("w", "pw")
    name = "BinaryCrossEntropyWithLogitsBackward0"
    saved_names = ("self", "target")
    saved_extra = {
        "weight": saved_weight("w"),
        "pos_weight": saved_weight("pw"),
        "reduction": saved_reduction,
    }

    def formula(self, S, x, y, *_):
        x, y = S.saved_const(x, self, 0, self.shape), S.saved_const(y, self, 1, self.shape)
        x, y = np.broadcast_arrays(S.obj(x), S.obj(y))
        log_sig = S.map(lambda v: -S.sp.log(1 + S.sp.exp(-v)), x)
        if self.pw is not None:
            log_sig = log_sig * ((S.obj(self.pw) - 1) * y + 1)
        loss = (1 - y) * x - log_sig
        return _reduced(S, loss if self.w is None else loss * S.obj(self.w), self.reduction)

    def forward(self, x, y, w, pw, reduction="mean"):
        self.setup(x, y, reduction)
        self.save(x, y)
        self.w, self.pw = w, pw
        # torch: (1 - y) * x - log_sigmoid(x) [* ((pos_weight - 1) * y + 1)], [* weight]
        if w is None and pw is None and x.dtype is y.dtype and x.shape == y.shape:
            if x.dtype.char in "fd":  # (one compiled pass where the loops are loaded)
                return _reduce(torch_act.bce_with_logits(x, y), reduction)
        if x.dtype.char in "fd":
            log_sig = torch_act.log_sigmoid(x)  # torch's kernel, to the last bit
        else:
            m = np.maximum(-x, 0)
            log_sig = -(np.log(np.exp(-m) + np.exp(-x - m)) + m)
        if pw is not None:
            log_sig = log_sig * ((pw - 1) * y + 1)
        if x.dtype != y.dtype:  # operands of two float dtypes: torch's in-place steps on
            dt = y.dtype  # 1 - y, so each is rounded to the target's dtype (the result's)
            loss = ((1 - y) * x).astype(dt)
            loss = (loss - log_sig).astype(dt)
            return _reduce(loss if w is None else (loss * w).astype(dt), reduction)
        loss = (1 - y) * x - log_sig
        if w is not None:  # (loss.mul_(weight): the loss keeps its dtype)
            loss = (loss * w).astype(loss.dtype, copy=False)
        return _reduce(loss, reduction)

    def backward(self, g, F, x, y):
        w, pw = _c(F, self.w), _c(F, self.pw)
        # torch's binary_cross_entropy_with_logits_backward: ((sigmoid(x) - y) * grad), with
        # pos_weight ((p*y + 1 - y) * sigmoid(x) - p*y) * grad; [* weight] / n; for the target
        # -x * grad, with pos_weight (log_sigmoid(-x) - log_sigmoid(x) * p) * grad; [* weight] / n
        gb = F.broadcast_to(g, self.shape) if self.reduction != "none" else g
        sig = F.sigmoid(x)
        # the target's gradient only where it is asked for (a target of no grad: never);
        # a JVP's call has no `needs` and asks for both
        need_y = (getattr(self, "needs", None) or (True, True))[1]
        if pw is None:
            gx = (sig - y) * gb
            gy = -x * gb if need_y else None
        else:
            py = pw * y
            gx = (((py + 1) - y) * sig - py) * gb
            # binary_cross_entropy_with_logits_target_backward
            log_sig = FUNCTIONS["logsigmoid"] if F.tensor_mode else torch_act.log_sigmoid
            gy = (log_sig(-x) - log_sig(x) * pw) * gb if need_y else None
        if w is not None:
            gx = gx * w
            gy = gy * w if need_y else None
        if self.reduction == "mean":  # div_(numel): DivBackward1 under create_graph
            n = max(int(math.prod(self.shape)), 1)
            if F.tensor_mode:
                gx = DivScalar.apply(gx, c=n)
                gy = DivScalar.apply(gy, c=n) if need_y else None
            else:
                gx = gx / n
                gy = gy / n if need_y else None
        gx = F.sum_to(gx, x.shape)
        return (gx, F.sum_to(gy, y.shape) if need_y else None, None, None)


def _const(t):
    """An optional weight: an array (PyTorch does not differentiate weights here)."""
    return None if t is None else tensor_arg(t).data


@register(
    "binary_cross_entropy_with_logits",
    "binary_cross_entropy_with_logits(input, target, weight=None, reduction='mean', "
    "pos_weight=None)",
    "binary cross entropy of sigmoid(input), computed stably",
    checks=[
        ((Arg((2, 3)), T), {}),
        ((Arg((2, 3)), Arg((2, 3), 0, 1)), {"reduction": "sum"}),
        ((Arg((2, 3)), Arg((2, 3), 0, 1)), {"pos_weight": [0.5, 2.0, 3.0], "reduction": "none"}),
    ],
    category="loss",
    batch=None,
    inplace=None,
    pure=True,
    parser=None,
)
def binary_cross_entropy_with_logits(
    input, target, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None
):
    x, y = tensor_arg(input), tensor_arg(target)
    _same_size(x, y)
    if y.data.dtype.kind != "f":
        raise GradRuntimeError(
            f"result type {SCALAR_NAMES[x.data.dtype.name]} can't be cast to "
            f"the desired output type {SCALAR_NAMES[y.data.dtype.name]}"
        )
    if x.data.dtype.kind != "f" or pos_weight is not None:
        x, y = _floats(x, y)  # (two float dtypes stay as they are: BCEWithLogits.forward)
    return BCEWithLogits.apply(
        x,
        y,
        _const(weight),
        _const(pos_weight),
        reduction=_reduction(reduction, size_average, reduce),
    )


class BCE(_Loss):
    """-w (y log x + (1 - y) log(1 - x)), each log clamped at -100 as in PyTorch."""

    __slots__ = ("w",)
    name = "BinaryCrossEntropyBackward0"
    saved_names = ("self", "target")
    saved_extra = {"weight": saved_weight("w"), "reduction": saved_reduction}

    def formula(self, S, x, y, *_):
        """(the logs as they are: the clamp at -100 only acts at x = 0 or 1)"""
        x, y = S.saved_const(x, self, 0, self.shape), S.saved_const(y, self, 1, self.shape)
        x, y = np.broadcast_arrays(S.obj(x), S.obj(y))
        loss = -(y * S.log(x) + (1 - y) * S.log(1 - x))
        return _reduced(S, loss if self.w is None else loss * S.obj(self.w), self.reduction)

    def forward(self, x, y, w, reduction="mean"):
        # (the ranges checked here, so a replayed step checks them too: the op is pure)
        if not np.all((x >= 0) & (x <= 1)):
            raise GradRuntimeError("all elements of input should be between 0 and 1")
        if not np.all((y >= 0) & (y <= 1)):
            raise GradRuntimeError("all elements of target should be between 0 and 1")
        self.setup(x, y, reduction)
        self.save(x, y)
        self.w = w
        # ATen's scalar kernel: the C library's log and log1p (NumPy's float32 log is
        # its own SIMD loop, not glibc's), in its order: (y - 1) log1p(-x) - y log(x)
        log_x = np.maximum(libm_log(x), -100)
        log_1x = np.maximum(np.log1p(-x), -100)
        loss = (y - 1) * log_1x - y * log_x
        return _reduce(loss if w is None else loss * w, reduction)

    def backward(self, g, F, x, y):
        w = _c(F, self.w)
        # binary_cross_entropy_backward: a kernel (bce_grad_values), under create_graph a
        # node with FunctionsManual's double backward (BinaryCrossEntropyBackwardBackward0)
        if F.tensor_mode:
            gx = BCEGrad.apply(g, x, y, w=self.w, reduction=self.reduction)
        else:
            gx = bce_grad_values(g, x, y, self.w, self.reduction)
        gl = _spread(g, F, self.shape, self.reduction)
        gy = gl * (F.log(1 - x) - F.log(x))
        if w is not None:
            gy = gy * w
        return (*_pair(F, gx, gy, x, y), None)


@register(
    "binary_cross_entropy",
    "binary_cross_entropy(input, target, weight=None, reduction='mean')",
    "binary cross entropy of probabilities input against target",
    checks=[((P, T), {}), ((P, Arg((2, 3), 0, 1)), {"reduction": "none"})],
    category="loss",
    batch=None,
    inplace=None,
    pure=True,
    parser=None,
)
def binary_cross_entropy(
    input, target, weight=None, size_average=None, reduce=None, reduction="mean"
):
    xi, yi = tensor_arg(input), tensor_arg(target)
    x, y = _floats(xi, yi)
    if x.data.shape != y.data.shape:
        raise GradValueError(
            f"Using a target size (torch.Size({list(y.data.shape)})) that is "
            f"different to the input size (torch.Size({list(x.data.shape)})) "
            "is deprecated. Please ensure they have the same size."
        )
    dx, dy = xi.data.dtype, yi.data.dtype
    if dx != dy and dx.kind == dy.kind == "f":  # its kernel takes one dtype: no promotion
        raise GradRuntimeError(
            f"Found dtype {dtypes.scalar_type_name(dy)} but expected {dtypes.scalar_type_name(dx)}"
        )
    return BCE.apply(x, y, _const(weight), reduction=_reduction(reduction, size_average, reduce))


class NllLoss(Function):
    """-input[i, target[i]] * weight[target[i]], summed, or averaged by the weights.  Its
    forward takes the target (and the weight) as they are and finds the classes, their
    weights and the ignored samples itself (`_nll_index`), so the op is one pure op of
    its input, target and weight (a replayed loop runs it again on the same tensors)."""

    __slots__ = ("reduction", "shape", "index", "coef", "wsum", "args", "keep", "flat", "whole")
    name = "NllLossBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def forward(self, x, target, weight, ignore_index=-100, reduction="mean", weighted=False):
        rows, cols, coef, keep, flat, whole = _nll_index(x, target, weight, ignore_index)
        self.reduction, self.shape = reduction, x.shape
        # (its double backward applies it again)
        self.args = (target, weight, ignore_index, weighted)
        self.save(x)  # as PyTorch: a second backward without retain_graph fails
        self.index = (rows, cols) if x.ndim == 2 else (cols,)
        self.keep, self.flat, self.whole = keep, flat, whole
        picked = -x.take(flat) * coef  # (x[self.index], from the flat positions)
        self.wsum = None
        if reduction == "none":
            self.coef = coef
            return picked if x.ndim == 2 else picked.reshape(())
        total, wsum = nll_cascade(picked, coef, keep, weighted, whole)
        if reduction == "mean":
            if wsum:
                self.wsum = wsum
            else:
                # no weight at all: PyTorch divides the gradient by 0, which leaves ignored
                # targets at 0 and makes counted (zero-weight) ones nan
                coef = np.where(keep, np.nan, 0.0).astype(x.dtype)
            total = total / wsum if wsum else np.float64("nan").astype(x.dtype)
        self.coef = coef
        return np.asarray(total, dtype=x.dtype)

    def formula(self, S, x, *_):
        """-x[i, target[i]] * weight[target[i]], summed or averaged by the weights."""
        picked = -S.obj(x)[self.index] * S.obj(self.coef)
        if self.reduction == "none":
            return picked if len(self.shape) == 2 else picked.reshape(())
        total = S.sum(picked)
        if self.reduction == "mean":
            total = total / S.number(self.wsum) if self.wsum else total * S.sp.nan
        return total

    def backward(self, g, F, x):
        if F.tensor_mode:  # nll_loss_backward: a node of its own (NllLossBackwardBackward0)
            return (NllGrad.apply(g, x, loss=self), None, None)
        return (self.values(g, F), None, None)

    def values(self, g, F):
        """nll_loss_backward(grad, ...): -grad * weight[target] at each target, 0 elsewhere."""
        n = self.coef.shape[0]
        if self.reduction == "none":
            g = F.reshape(g, (n,))
        else:
            if self.wsum is not None:  # as PyTorch: -(grad / total_weight) * weight
                g = g / (Tensor(self.wsum) if F.tensor_mode else self.wsum)
            if F.tensor_mode or np.ndim(g):
                g = F.broadcast_to(g, (n,))
        vals = g * _c(F, -self.coef)  # (one value of g broadcast by the product itself)
        if not F.tensor_mode:
            # as PyTorch's kernel: each kept sample's value written at its class (one a
            # row, no position twice) into zeros, so a -0.0 stays -0.0; an ignored
            # sample writes nothing
            out = np.zeros(self.shape, dtype=vals.dtype)
            if self.whole:  # (out.put at the flat positions: out[self.index] = vals)
                out.put(self.flat, vals)
            else:
                keep = self.keep
                out.put(self.flat[keep], vals[keep])
            return out
        return F.pad_into(vals, self.shape, self.index)

    def jvp(self, ts, F, *saved):
        """Linear in its input: the op applied to the input's tangent, on the same
        target and weight."""
        t = ts[0]
        if t is None:
            return None
        _, target, weight = ts.args
        return type(self).apply(t, target, weight, **ts.params)

    def next_functions(self):
        return super().next_functions()[:1]  # the target and weight are no inputs of it


class NllGrad(Function):
    """nll_loss_backward(grad_output, self, ...) as a recorded op (create_graph): its
    derivative in grad_output is nll_loss of the gradient (the loss again), in self
    zeros_like(grad) (derivatives.yaml), so the gradient it makes stays in the graph."""

    __slots__ = ("loss",)
    name = "NllLossBackwardBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")
    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )

    def forward(self, g, x, loss):
        self.loss = loss
        self.save(x)
        return loss.values(g, ArrayF)

    def backward(self, gg, F, x):
        n, loss = self.needs, self.loss
        go = None
        if n[0]:
            target, weight, ignore_index, weighted = loss.args
            out = NllLoss.apply(
                gg if F.tensor_mode else Tensor(gg),
                target,
                weight,
                ignore_index=ignore_index,
                reduction=loss.reduction,
                weighted=weighted,
            )
            go = out if F.tensor_mode else out.data
        zeros = np.zeros(np.shape(gg.data if F.tensor_mode else gg), loss.coef.dtype)
        return (go, (Tensor(zeros) if F.tensor_mode else zeros) if n[1] else None)

    def jvp(self, ts, F, x):
        tg = ts[0]
        return None if tg is None else type(self).apply(tg, x, loss=self.loss)


def _nll_checks(x, t, weight):
    """nll_loss's checks of its arguments' dtypes and shapes (PyTorch's, in its order);
    the weight as NllLoss takes it: the Tensor, its array when it requires grad (no
    gradient goes to it), None or an array of its values."""
    if x.data.ndim == 0:  # nll_loss_nd's first check
        raise GradValueError("Expected 1 or more dimensions (got 0)")
    if t.data.dtype.kind not in "iu":
        raise GradRuntimeError(
            "expected target dtype to be Long or Byte, but got "
            f"{SCALAR_NAMES.get(t.data.dtype.name, t.data.dtype.name)}"
        )
    if x.data.ndim not in (1, 2):
        raise GradRuntimeError(
            f"nll_loss: gradcli takes an input of 1 or 2 dimensions (C) or "
            f"(N, C), got {x.data.ndim}"
        )
    n = x.data.shape[0] if x.data.ndim == 2 else 1
    if x.data.ndim == 2 and t.data.shape != (n,) or x.data.ndim == 1 and t.data.ndim != 0:
        raise GradValueError(
            f"Expected input batch_size ({n}) to match target batch_size "
            f"({t.data.shape[0] if t.data.ndim else 1})."
        )
    if weight is None:
        return None
    w = weight if type(weight) is Tensor else tensor_arg(weight)
    c = x.data.shape[-1]
    if w.data.shape != (c,):
        raise GradRuntimeError(
            f"weight tensor should be defined either for all {c} classes or no "
            f"classes but got weight tensor of shape: {list(w.data.shape)}"
        )
    return w.data if w.requires_grad else w


def _nll_index(x, target, weight, ignore_index):
    """(rows, classes, per sample its class's weight or 0 when ignored, kept, the flat
    positions of x read, whether every sample is kept) of the arrays x (N, C) or (C),
    target (N) or (), weight (C) or None; PyTorch's error for a class out of bounds.  Without a weight, the arrays of the last targets found in bounds
    are given again for the same target values (a training loop's labels, step after
    step: one compare of their bytes instead of the checks and the arrays made again;
    the arrays are read-only)."""
    if weight is None and target.dtype.kind in "iu" and type(ignore_index) is int:
        key = (target.tobytes(), target.dtype, target.ndim, x.ndim, x.shape[0], x.shape[-1])
        key += (x.dtype, ignore_index)
        found = _NLL_LAST.get(key)
        if found is not None:
            return found
        found = _nll_found(x, target, None, ignore_index)
        if len(target.shape) == 1 and target.size <= _NLL_KEPT_SIZE or not target.ndim:
            for a in found[:5]:
                a.flags.writeable = False
            _NLL_LAST.clear()  # (the last one only: a loop's own labels)
            _NLL_LAST[key] = found
        return found
    return _nll_found(x, target, weight, ignore_index)


#: _nll_index's last arrays found without a weight (for targets of at most
#: _NLL_KEPT_SIZE values: the compare of their bytes costs less than the checks)
_NLL_LAST: dict = {}
_NLL_KEPT_SIZE = 4096


#: per (samples, classes, dtype, ndim): the read-only rows, their flat offsets, unit
#: weights and all-kept flags of _nll_found's common case (made once per shape)
_NLL_SHAPES: dict = {}


def _nll_found(x, target, weight, ignore_index):
    cols = target.reshape(-1).astype(np.int64)
    c = x.shape[-1]
    if (
        weight is None
        and cols.size
        and not 0 <= ignore_index < c
        and cols.view(np.uint64).max() < c
    ):  # (every class in bounds, so none ignored: one compare, the arrays of its shape)
        key = (cols.size, c, x.dtype, x.ndim)
        made = _NLL_SHAPES.get(key)
        if made is None:
            rows = np.arange(x.shape[0] if x.ndim == 2 else 1)
            made = (rows, rows * c, np.ones(cols.shape, x.dtype), np.ones(cols.shape, bool))
            for a in made:
                a.flags.writeable = False
            if len(_NLL_SHAPES) >= 64:
                _NLL_SHAPES.clear()
            _NLL_SHAPES[key] = made
        rows, offsets, coef, keep = made
        return rows, cols, coef, keep, (offsets + cols if x.ndim == 2 else cols), True
    keep = cols != ignore_index
    rows = np.arange(x.shape[0] if x.ndim == 2 else 1)
    if weight is None and cols.size and keep.all() and 0 <= cols.min() and cols.max() < c:
        # (the common case, in fewer steps: every sample kept and in bounds, weight 1)
        flat = rows * c + cols if x.ndim == 2 else cols
        return rows, cols, np.ones(cols.shape, x.dtype), keep, flat, True
    bad = keep & ((cols < 0) | (cols >= c))
    if bad.any():
        raise GradIndexError(f"Target {int(cols[bad][0])} is out of bounds.")
    w = np.ones(c, dtype=x.dtype) if weight is None else weight.astype(x.dtype)
    safe = np.where(keep, cols, 0)
    coef = np.where(keep, w[safe], 0).astype(x.dtype)
    flat = rows * c + safe if x.ndim == 2 else safe
    return rows, safe, coef, keep, flat, bool(keep.all())


@register(
    "nll_loss",
    "nll_loss(input, target, weight=None, ignore_index=-100, reduction='mean')",
    "negative log likelihood of the target classes, input being log-probabilities",
    checks=[
        ((Arg((3, 4)), [1, 0, 3]), {}),
        ((Arg((3, 4)), [2, 2, 0]), {"reduction": "none"}),
        ((Arg((3, 4)), [1, -100, 3]), {"weight": [1.0, 2.0, 0.5, 3.0]}),
        ((Arg((2, 3, 4)), [[0, 1, 2, 1], [2, -100, 0, 1]]), {}),
        ((Arg((2, 3, 2, 2)), [[[0, 1], [2, 1]], [[2, 2], [0, 1]]]), {"reduction": "none"}),
    ],
    category="loss",
    batch="nll_loss",
    inplace=None,
    pure=True,
    parser=None,
)
def nll_loss(
    input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"
):
    x = tensor_arg(input)
    if x.data.dtype.kind != "f":
        x = to(x, context.current.default_float)
    if x.data.ndim >= 3:  # (N, C, d1, ...): ops/loss_nd.py
        reduction = _reduction(reduction, size_average, reduce)
        return FUNCTIONS["nll_loss_nd"](x, target, weight, ignore_index, reduction)
    reduction = _reduction(reduction, size_average, reduce)
    t = tensor_arg(target)
    w = _nll_checks(x, t, weight)
    return NllLoss.apply(
        x, t, w, ignore_index=ignore_index, reduction=reduction, weighted=weight is not None
    )


@register(
    "cross_entropy",
    "cross_entropy(input, target, weight=None, ignore_index=-100, reduction='mean')",
    "nll_loss(log_softmax(input, dim=1), target); target: class indices or probabilities",
    checks=[
        ((Arg((3, 4)), [1, 0, 3]), {}),
        ((Arg((4,)), 2), {}),
        ((Arg((2, 3)), T), {}),
        ((Arg((2, 3)), T), {"reduction": "none"}),
    ],
    category="loss",
    batch="cross_entropy",
    inplace=None,
    pure=True,
    parser=None,
)
def cross_entropy(
    input,
    target,
    weight=None,
    size_average=None,
    ignore_index=-100,
    reduce=None,
    reduction="mean",
    label_smoothing=0.0,
):
    x, t = tensor_arg(input), tensor_arg(target)
    reduction = _reduction(reduction, size_average, reduce)
    dim = 1 if x.data.ndim >= 2 else 0
    if x.data.ndim == 0:  # ATen's class dim of a scalar input is 1
        if t.data.shape != ():
            norm_dims(1, 0)
        if t.data.dtype.kind != "f":
            raise GradRuntimeError(
                "Expected floating point type for target with class probabilities, got "
                + dtypes.scalar_type_name(t.data.dtype)
            )
        one_dim(1, 0)
    ls = float(label_smoothing)
    if ls > 1.0 or ls < 0.0:
        raise GradRuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {ls:g}")
    logp = log_softmax(x, dim)
    if t.data.dtype.kind != "f" or t.data.shape != x.data.shape:
        # PyTorch reads a target of another shape as class indices, whatever its dtype
        nll = nll_loss(logp, t, weight, ignore_index=ignore_index, reduction=reduction)
        if ls > 0.0:
            return _smoothed(nll, logp, t, weight, ignore_index, reduction, ls, dim)
        return nll
    if ls > 0.0:  # class probabilities: the target mixed with the uniform distribution
        t = t * (1 - ls) + ls / x.data.shape[dim]
    # class probabilities: -sum(target * log_softmax(input)) per sample, as PyTorch computes it
    if t.data.shape != x.data.shape:
        raise GradRuntimeError(
            f"Expected target size {list(x.data.shape)}, got {list(t.data.shape)}"
        )
    if weight is not None:
        logp = logp * Tensor(_const(weight))
    prod = logp * t
    if reduction == "none":
        return -FUNCTIONS["sum"](prod, dim)
    total = -FUNCTIONS["sum"](prod)
    if reduction == "sum":
        return total
    return DivScalar.apply(total, c=x.data.size // x.data.shape[1] if x.data.ndim >= 2 else 1)


def _smoothed(nll, logp, t, weight, ignore_index, reduction, ls, dim):
    """cross_entropy with label smoothing and class-index targets, as ATen's
    cross_entropy_loss_label_smoothing composes it:
    (1 - ls) * nll + (the loss against uniform targets) * (ls / classes)."""
    f = FUNCTIONS
    classes = logp.data.shape[dim]
    if weight is not None:
        w = Tensor(_const(weight))
        shape = [1] * logp.data.ndim
        shape[dim] = w.data.shape[0]
        smooth = -f["sum"](logp * f["view"](w, tuple(shape)), dim)
    else:
        smooth = -f["sum"](logp, dim)
    ignored = f["eq"](t, ignore_index)
    smooth = f["masked_fill"](smooth, ignored, 0.0)
    if reduction == "mean":
        kept = f["logical_not"](ignored)
        if weight is not None:
            count = f["sum"](f["gather"](w, 0, f["index"](t, kept)))  # (masked_select)
        else:
            count = f["sum"](kept)
        ret = f["sum"](smooth) / count
    elif reduction == "sum":
        ret = f["sum"](smooth)
    else:
        ret = smooth
    return nll * (1 - ls) + ret * (ls / classes)


# ----------------------------------------------------------------- torch.nn modules


class LossModule:
    """nn.MSELoss(reduction=...) and friends: a callable that remembers its options."""

    __slots__ = ("name", "fn", "options")

    def __init__(self, name, fn, options):
        self.name, self.fn, self.options = name, fn, options

    def __call__(self, input, target):
        return self.fn(input, target, **self.options)

    def __repr__(self):
        return f"{self.name}()"


def _module(name, fn, doc):
    code = fn.__code__
    known = code.co_varnames[2 : code.co_argcount]  # the options after input, target

    def make(**options):
        for k in options:
            if k not in known:
                raise GradTypeError(f"{name}.__init__() got an unexpected keyword argument '{k}'")
        if "reduction" in options:
            _reduction(options["reduction"])
        return LossModule(name, fn, options)

    register(
        name,
        f"{name}({', '.join(k + '=...' for k in known)})",
        doc,
        category="loss",
        batch=None,
        inplace=None,
        pure=False,
        checks=none("a module class: its function's samples check it"),
        parser=None,
    )(make)


_module("MSELoss", mse_loss, "torch.nn.MSELoss: a callable mse_loss(input, target)")
_module("L1Loss", l1_loss, "torch.nn.L1Loss: a callable l1_loss(input, target)")
_module("BCELoss", binary_cross_entropy, "torch.nn.BCELoss: binary_cross_entropy as a callable")
_module(
    "BCEWithLogitsLoss",
    binary_cross_entropy_with_logits,
    "torch.nn.BCEWithLogitsLoss: binary_cross_entropy_with_logits as a callable",
)
_module("NLLLoss", nll_loss, "torch.nn.NLLLoss: a callable nll_loss(input, target)")
_module(
    "CrossEntropyLoss",
    cross_entropy,
    "torch.nn.CrossEntropyLoss: a callable cross_entropy(input, target)",
)
