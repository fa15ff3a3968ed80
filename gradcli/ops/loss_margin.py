"""The margin losses and distances of torch.nn.functional, as PyTorch computes them:
multilabel_margin_loss and multi_margin_loss are kernels of their own
(MultilabelMarginLossBackward0, MultiMarginLossBackward0: ATen's loops, their sums in
its order and accumulator types); pairwise_distance, cosine_similarity and
triplet_margin_loss are ATen's compositions of other ops, written here with the same
ops in the same order."""

from __future__ import annotations

import numpy as np

from ..core import dtypes
from ..core.convert import tensor_arg
from ..core.tensor import Tensor
from ..engine.declare import none
from ..engine.function import Function
from ..runtime.errors import GradRuntimeError, GradValueError
from .elementwise import AddScalar
from .activation_base import NotImplementedGrad, _not_implemented
from .fused_grads import saved_reduction, saved_weight
from .loss import _reduction
from .loss_more import _apply_reduction, _decl, clamp_min
from .moments import aten_norm
from .registry import FUNCTIONS, Arg

_OP = FUNCTIONS
FORMULA = none("no formula rule yet: shown as a named function with its Jacobian")


def _frames(x):
    """(nframe, dim) of a loss's input: a vector or scalar is one frame."""
    if x.ndim <= 1:
        return 1, (1 if x.ndim == 0 else x.shape[0])
    return x.shape[0], x.shape[1]


def _check_input(x):
    n = x.ndim
    if not ((n == 2 and x.shape[1] != 0) or (n == 1 and x.shape[0] != 0) or n == 0):
        raise GradRuntimeError(
            "Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
            f"[{', '.join(map(str, x.shape))}]"
        )


def _dims(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


# ------------------------------------------------ multilabel_margin_loss


def _label_rows(t, nframe, dim):
    """Each frame's target labels (up to the first negative one)."""
    rows = []
    for row in np.asarray(t, np.int64).reshape(nframe, dim):
        labels = []
        for v in row.tolist():
            if v < 0:
                break
            labels.append(v)
        rows.append(labels)
    return rows


class MultilabelMarginLoss(Function):
    __slots__ = ("reduction", "is_target", "rows")
    name = "MultilabelMarginLossBackward0"
    saved_names = ("self", "target", "is_target")
    saved_extra = {"reduction": saved_reduction}
    formula = FORMULA
    jvp = none("not written yet: multilabel_margin_loss's forward-mode derivative")

    def forward(self, x, t, reduction):
        self.reduction = reduction
        nframe, dim = _frames(x)
        rows = _label_rows(t, nframe, dim)
        flat = np.ascontiguousarray(x).reshape(nframe, dim)
        typ = x.dtype.type
        one = typ(1)
        is_target = np.zeros((nframe, dim), x.dtype)
        sums = []
        for f, labels in enumerate(rows):
            is_target[f, labels] = 1
            total = 0.0  # (ATen's accumulator: double)
            row = flat[f]
            for j in labels:
                xt = row[j]
                for d in range(dim):
                    if not is_target[f, d]:
                        z = one - xt + row[d]
                        if z > 0:
                            total += float(z)
            sums.append(typ(total))  # (the inner sum comes back as the input's type)
        self.rows = rows
        self.is_target = is_target.reshape(np.shape(t))
        self.save(x, t, self.is_target)
        if reduction != "none" or np.ndim(t) <= 1:
            acc = 0.0
            for s in sums:
                acc += float(s)
            acc /= dim
            if reduction == "mean":
                acc /= nframe
            return np.asarray(acc, x.dtype)
        return np.asarray([s / typ(dim) for s in sums], x.dtype)

    def backward(self, g, F, x, t, is_target):
        if F.tensor_mode:
            return (MultilabelMarginLossGrad.apply(g, x, is_target, node=self), None, None)
        return (_multilabel_grad(self, g, x, is_target), None, None)


def _multilabel_grad(node, g, x, is_target):
    nframe, dim = _frames(x)
    typ = x.dtype.type
    step = typ(1.0 / (nframe * dim) if node.reduction == "mean" else 1.0 / dim)
    flat = np.ascontiguousarray(x).reshape(nframe, dim)
    marks = np.asarray(is_target).reshape(nframe, dim)
    out = np.zeros((nframe, dim), x.dtype)
    one = typ(1)
    for f, labels in enumerate(node.rows):
        row, grow = flat[f], out[f]
        for j in labels:
            xt = row[j]
            for d in range(dim):
                if not marks[f, d] and one - xt + row[d] > 0:
                    grow[j] -= step
                    grow[d] += step
    return _times_grad(out, g, nframe, x)


def _times_grad(out, g, nframe, x):
    """A margin loss's per-frame gradient rows times the incoming gradient (one number, or
    one per frame), in x's shape."""
    g = np.asarray(g, x.dtype)
    if g.ndim == 0:
        out *= g
    else:
        out *= g.reshape(nframe, 1)
    return out.reshape(np.shape(x))


class MultilabelMarginLossGrad(NotImplementedGrad):
    __slots__ = ()
    aten = "multilabel_margin_loss_backward"
    compute = staticmethod(lambda g, x, is_target, node: _multilabel_grad(node, g, x, is_target))


@_decl(
    "multilabel_margin_loss",
    "multilabel_margin_loss(input, target, reduction='mean')",
    "sum over target labels j and other classes i of max(0, 1 - (x[j] - x[i])) / C",
    [((Arg((2, 4)), Tensor(np.array([[3, 0, -1, 1], [1, 2, 3, -1]]))), {})],
)
def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(reduction, size_average, reduce)
    x, t = tensor_arg(input), tensor_arg(target)
    _check_input(x.data)
    nframe, dim = _frames(x.data)
    td = t.data
    ok = (td.ndim <= 1 and td.size == dim) if x.data.ndim <= 1 else (td.shape == (nframe, dim))
    if not ok:
        raise GradRuntimeError(
            f"inconsistent target size: {_dims(td.shape)} for input of size: {_dims(x.data.shape)}"
        )
    if td.size and (td.min() < -1 or td.max() >= dim):
        raise GradRuntimeError("argument #2 'target' is out of range")
    if x.data.dtype.kind != "f":
        raise _not_implemented("multilabel_margin_loss_forward_out_frame", x.data.dtype)
    return MultilabelMarginLoss.apply(x, t, reduction=reduction)


# ------------------------------------------------ multi_margin_loss


class MultiMarginLoss(Function):
    __slots__ = ("reduction", "p", "margin", "weight")
    name = "MultiMarginLossBackward0"
    saved_names = ("self", "target")
    saved_extra = {
        "reduction": saved_reduction,
        "p": lambda node: node.p,
        "margin": lambda node: node.margin,
        "weight": saved_weight("weight"),
    }
    formula = FORMULA
    jvp = none("not written yet: multi_margin_loss's forward-mode derivative")

    def forward(self, x, t, p, margin, weight, reduction):
        self.p, self.margin, self.weight, self.reduction = p, margin, weight, reduction
        self.save(x, t)
        nframe, dim = _frames(x)
        typ = x.dtype.type
        m = typ(margin)
        flat = np.ascontiguousarray(x).reshape(nframe, dim)
        targets = np.asarray(t, np.int64).reshape(-1).tolist()
        sums = []
        for f in range(nframe):
            k = targets[f]
            row = flat[f]
            xt = row[k]
            s = typ(0)
            for d in range(dim):
                if d == k:
                    continue
                z = m - xt + row[d]
                if z > 0:
                    h = z if p == 1 else z * z
                    if weight is not None:
                        h = h * weight[k]
                    s = typ(s + h)
            sums.append(typ(s / typ(dim)))
        if reduction == "none" and np.ndim(t) > 0:
            return np.asarray(sums, x.dtype)
        acc = 0.0  # (ATen's accumulator: double)
        for s in sums:
            acc += float(s)
        if reduction == "mean":
            acc /= nframe
        return np.asarray(acc, x.dtype)

    def backward(self, g, F, x, t):
        if F.tensor_mode:
            return (MultiMarginLossGrad.apply(g, x, t, node=self), None)
        return (_multi_margin_grad(self, g, x, t), None)


def _multi_margin_grad(node, g, x, t):
    nframe, dim = _frames(x)
    typ = x.dtype.type
    step = typ(1.0 / (nframe * dim) if node.reduction == "mean" else 1.0 / dim)
    m = typ(node.margin)
    flat = np.ascontiguousarray(x).reshape(nframe, dim)
    targets = np.asarray(t, np.int64).reshape(-1).tolist()
    out = np.zeros((nframe, dim), x.dtype)
    for f in range(nframe):
        k = targets[f]
        row, grow = flat[f], out[f]
        xt = row[k]
        at_target = typ(0)
        for d in range(dim):
            z = m - xt + row[d]
            if d == k:
                continue
            if z > 0:
                h = step if node.p == 1 else typ(typ(typ(2) * step) * z)
                if node.weight is not None:
                    h = typ(h * node.weight[k])
                at_target = typ(at_target - h)
                grow[d] = h
        grow[k] = at_target
    return _times_grad(out, g, nframe, x)


class MultiMarginLossGrad(NotImplementedGrad):
    __slots__ = ()
    aten = "multi_margin_loss_backward"
    compute = staticmethod(lambda g, x, t, node: _multi_margin_grad(node, g, x, t))


@_decl(
    "multi_margin_loss",
    "multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction='mean')",
    "sum over classes i != y of max(0, margin - x[y] + x[i]) ** p / C",
    [
        ((Arg((2, 4)), Tensor(np.array([3, 1]))), {}),
        ((Arg((2, 4)), Tensor(np.array([0, 2]))), {"p": 2}),
    ],
)
def multi_margin_loss(
    input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"
):  # fmt: skip
    reduction = _reduction(reduction, size_average, reduce)
    if p not in (1, 2):
        raise GradValueError("only p == 1 and p == 2 supported")
    x, t = tensor_arg(input), tensor_arg(target)
    w = None
    if weight is not None:
        wt = tensor_arg(weight)
        if wt.data.ndim != 1:
            raise GradValueError("weight must be one-dimensional")
        w = wt.data
    _check_input(x.data)
    nframe, dim = _frames(x.data)
    if not (t.data.ndim <= 1 and t.data.size == nframe):
        raise GradRuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number "
            f"of input samples (batch size). Expected target size [{nframe}], but got "
            f"{_dims(t.data.shape)}. Input has shape {_dims(x.data.shape)}."
        )
    if t.data.size and (t.data.min() < 0 or t.data.max() >= dim):
        raise GradRuntimeError("target out of range")
    if x.data.dtype.kind != "f":
        raise _not_implemented("multi_margin_loss_cpu_kernel", x.data.dtype)
    return MultiMarginLoss.apply(x, t, p=p, margin=margin, weight=w, reduction=reduction)


# ------------------------------------------------ distances and triplet_margin_loss


@_decl(
    "pairwise_distance",
    "pairwise_distance(x1, x2, p=2.0, eps=1e-06, keepdim=False)",
    "the p-norm of x1 - x2 + eps along the last dim",
    [((Arg((3, 4)), Arg((3, 4))), {}), ((Arg((3, 4)), Arg((4,))), {"p": 1.0})],
)
def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    a, b = tensor_arg(x1), tensor_arg(x2)
    inner = max(a.data.ndim, b.data.ndim) - 1
    diff = _OP["sub"](a, b)
    return aten_norm(AddScalar.apply(diff, float(eps), dt=diff.data.dtype), p, inner, keepdim)


@_decl(
    "cosine_similarity",
    "cosine_similarity(x1, x2, dim=1, eps=1e-08)",
    "(x1 / |x1|) . (x2 / |x2|) along dim, each norm at least eps",
    [((Arg((3, 4)), Arg((3, 4))), {}), ((Arg((3, 4)), Arg((3, 4))), {"dim": 0})],
)
def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    a, b = tensor_arg(x1), tensor_arg(x2)
    common = dtypes.result_type(a, b)
    if a.data.dtype.kind in "biu":
        a = Tensor(a.data.astype(common))
    if b.data.dtype.kind in "biu":
        b = Tensor(b.data.astype(common))
    shape = np.broadcast_shapes(a.data.shape, b.data.shape)
    if a.data.shape != shape:
        a = _OP["expand"](a, *shape)
    if b.data.shape != shape:
        b = _OP["expand"](b, *shape)
    norms = []
    for t in (a, b):
        n = _OP["clone"](_OP["linalg.vector_norm"](t, 2, dim, True))
        # (clamp_min_ under no_grad: the clone is new, nothing saved it yet)
        np.maximum(n.data, n.data.dtype.type(eps), out=n.data)
        norms.append(n)
    # (the compiler evaluates the product's right operand first, as torch's hooks show)
    right = _OP["div"](b, norms[1])
    return _OP["sum"](_OP["mul"](_OP["div"](a, norms[0]), right), dim)


@_decl(
    "triplet_margin_loss",
    "triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, "
    "swap=False, reduction='mean')",
    "max(d(a, p) - d(a, n) + margin, 0) with pairwise distances, reduced",
    [
        ((Arg((3, 4)), Arg((3, 4)), Arg((3, 4))), {}),
        ((Arg((3, 4)), Arg((3, 4)), Arg((3, 4))), {"swap": True}),
    ],
)
def triplet_margin_loss(
    anchor,
    positive,
    negative,
    margin=1.0,
    p=2,
    eps=1e-6,
    swap=False,
    size_average=None,
    reduce=None,
    reduction="mean",
):
    reduction = _reduction(reduction, size_average, reduce)
    a, pos, neg = tensor_arg(anchor), tensor_arg(positive), tensor_arg(negative)
    dims = (a.data.ndim, pos.data.ndim, neg.data.ndim)
    if not dims[0] == dims[1] == dims[2]:
        raise GradRuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number "
            f"of dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative "
            f"{dims[2]}D inputs"
        )
    d_pos = pairwise_distance(a, pos, p, eps)
    d_neg = pairwise_distance(a, neg, p, eps)
    if swap:
        d_neg = _OP["minimum"](d_neg, pairwise_distance(pos, neg, p, eps))
    out = clamp_min(_OP["sub"](_OP["add"](d_pos, margin), d_neg), 0)
    return _apply_reduction(out, reduction)


@_decl(
    "normalize",
    "normalize(input, p=2.0, dim=1, eps=1e-12)",
    "input divided by its p-norm along dim (the norm at least eps)",
    [((Arg((3, 4)),), {}), ((Arg((3, 4)),), {"p": 1.0, "dim": 0})],
)
def normalize(input, p=2.0, dim=1, eps=1e-12):  # noqa: A002
    # torch.nn.functional's Python: input.norm(p, dim, keepdim=True).clamp_min(eps)
    # .expand_as(input), then input / denom
    x = tensor_arg(input)
    denom = _OP["expand_as"](clamp_min(_OP["norm"](x, p, dim, True), eps), x)
    return _OP["div"](x, denom)
