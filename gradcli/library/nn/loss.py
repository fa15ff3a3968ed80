"""torch.nn's loss modules as Modules (so they print, register as submodules and
sit in a Sequential like PyTorch's): each calls its functional form in ops/loss.py."""

from __future__ import annotations

from ...runtime.errors import GradRuntimeError, GradTypeError, GradValueError
from ...core.convert import tensor_arg
from ...ops import batching
from ...ops import ctc
from ...ops import loss as F
from ...ops import loss_margin as LM
from ...ops import loss_more as M
from .layers import Linear
from .module import Module


class _Loss(Module):
    fn = None
    known = ()
    inputs = 2

    def __init__(self, *args, **options):
        super().__init__()
        names = self.known
        if len(args) > len(names):
            raise GradTypeError(
                f"{type(self).__name__}.__init__() takes at most {len(names) + 1} "
                f"positional arguments but {len(args) + 1} were given"
            )
        for k, v in zip(names, args):
            options[k] = v
        for k in options:
            if k not in names:
                raise GradTypeError(
                    f"{type(self).__name__}.__init__() got an unexpected keyword argument '{k}'"
                )
        # (as PyTorch's _Loss, the reduction is checked by the call, not here: KLDivLoss
        # takes 'batchmean')
        self.__dict__["_options"] = options
        self.reduction = options.get("reduction", "mean")

    def forward(self, *inputs):
        if len(inputs) != self.inputs:
            raise GradTypeError(
                f"{type(self).__name__}.forward() takes {self.inputs + 1} positional "
                f"arguments but {len(inputs) + 1} were given"
            )
        return type(self).fn(*inputs, **self.__dict__["_options"])


def _loss(name, fn, inputs=2):
    code = fn.__code__
    known = code.co_varnames[inputs : code.co_argcount + code.co_kwonlyargcount]
    return type(
        name,
        (_Loss,),
        {"fn": staticmethod(fn), "known": known, "inputs": inputs, "replay_op": fn.__name__},
    )


LOSSES = {
    name: _loss(name, fn)
    for name, fn in (
        ("MSELoss", F.mse_loss),
        ("L1Loss", F.l1_loss),
        ("BCELoss", F.binary_cross_entropy),
        ("BCEWithLogitsLoss", F.binary_cross_entropy_with_logits),
        ("NLLLoss", F.nll_loss),
        ("CrossEntropyLoss", F.cross_entropy),
        ("PoissonNLLLoss", M.poisson_nll_loss),
        ("KLDivLoss", M.kl_div),
        ("HuberLoss", M.huber_loss),
        ("SmoothL1Loss", M.smooth_l1_loss),
        ("SoftMarginLoss", M.soft_margin_loss),
        ("MultiLabelSoftMarginLoss", M.multilabel_soft_margin_loss),
        ("HingeEmbeddingLoss", M.hinge_embedding_loss),
        ("MultiLabelMarginLoss", LM.multilabel_margin_loss),
        ("MultiMarginLoss", LM.multi_margin_loss),
    )
}
LOSSES.update(
    (name, _loss(name, fn, 3))
    for name, fn in (
        ("GaussianNLLLoss", M.gaussian_nll_loss),
        ("MarginRankingLoss", M.margin_ranking_loss),
        ("CosineEmbeddingLoss", M.cosine_embedding_loss),
        ("TripletMarginLoss", LM.triplet_margin_loss),
    )
)


class CTCLoss(Module):
    """the Connectionist Temporal Classification loss of log_probs (T, N, C) and targets."""

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__()
        self.blank, self.reduction, self.zero_infinity = blank, reduction, zero_infinity

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        return ctc.ctc_loss(
            log_probs,
            targets,
            input_lengths,
            target_lengths,
            self.blank,
            self.reduction,
            self.zero_infinity,
        )


LOSSES["CTCLoss"] = CTCLoss


def triplet_margin_with_distance_loss(
    anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False, reduction="mean"
):
    """max(d(a, p) - d(a, n) + margin, 0) for a distance function of the program's
    (pairwise_distance by default), reduced: torch.nn.functional's Python, line by line."""
    if margin <= 0:
        raise GradValueError(f"margin must be greater than 0, got {margin}")
    a, p, n = tensor_arg(anchor), tensor_arg(positive), tensor_arg(negative)
    dims = (a.data.ndim, p.data.ndim, n.data.ndim)
    if not dims[0] == dims[1] == dims[2]:
        raise GradRuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number "
            f"of dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative "
            f"{dims[2]}D inputs"
        )
    distance = LM.pairwise_distance if distance_function is None else distance_function
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        dist_neg = batching.op("minimum", dist_neg, distance(positive, negative))
    loss = M.clamp_min(margin + dist_pos - dist_neg, 0)
    if reduction == "mean":
        return batching.op("mean", loss)
    if reduction == "sum":
        return batching.op("sum", loss)
    return loss


class TripletMarginWithDistanceLoss(Module):
    """max(d(a, p) - d(a, n) + margin, 0) for a distance function d, reduced."""

    def __init__(self, *, distance_function=None, margin=1.0, swap=False, reduction="mean"):
        super().__init__()
        if margin <= 0:
            raise GradValueError(
                f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got "
                f"{margin} instead"
            )
        self.distance_function = distance_function
        self.margin, self.swap, self.reduction = margin, swap, reduction

    def forward(self, anchor, positive, negative):
        return triplet_margin_with_distance_loss(
            anchor,
            positive,
            negative,
            distance_function=self.distance_function,
            margin=self.margin,
            swap=self.swap,
            reduction=self.reduction,
        )


class PairwiseDistance(Module):
    """the p-norm of x1 - x2 + eps along the last dim."""

    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1, x2):
        return LM.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(Module):
    """cosine of the angle between x1 and x2 along dim."""

    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1, x2):
        return LM.cosine_similarity(x1, x2, self.dim, self.eps)


def linear_cross_entropy(
    input,
    linear_weight,
    target,
    *,
    linear_bias=None,
    weight=None,
    reduction="mean",
    ignore_index=None,
    label_smoothing=0.0,
    options=None,
):
    """cross_entropy of linear(input, linear_weight, linear_bias) reshaped to (N, C, d1,
    ...): torch.nn.functional's Python on its path without `options` (the chunked path
    with options is not gradcli's)."""
    x, w, t = tensor_arg(input), tensor_arg(linear_weight), tensor_arg(target)
    if not 1 <= x.data.ndim <= 2:
        raise GradRuntimeError(f"expected input with dimensionality 1 or 2, got {x.data.ndim}")
    if w.data.ndim < 2:
        raise GradRuntimeError(
            f"expected linear_weight with dimensionality at least 2, got {w.data.ndim}"
        )
    batches, in_features = x.data.shape[:-1], x.data.shape[-1]
    if in_features != w.data.shape[-1]:
        raise GradRuntimeError(
            "expected equal input and linear_weight last dimensions (in_features), "
            f"got {in_features} and {w.data.shape[-1]}, respectively"
        )
    num_classes, out_features = w.data.shape[0], tuple(w.data.shape[1:-1])
    if linear_bias is not None and tuple(tensor_arg(linear_bias).data.shape) != (
        num_classes,
        *out_features,
    ):
        raise GradRuntimeError(
            f"expected linear_bias shape {(num_classes, *out_features)}, got "
            f"{tuple(tensor_arg(linear_bias).data.shape)}"
        )
    if out_features and not batches:
        raise GradRuntimeError(
            f"K-dimensional loss defined by linear_weight shape {tuple(w.data.shape)} "
            f"requires batched input, (N, {in_features}), got unbatched input with shape "
            f"{tuple(x.data.shape)}"
        )
    logits_shape = (*batches, num_classes, *out_features)
    if tuple(t.data.shape) == logits_shape and ignore_index is not None:
        raise GradRuntimeError(
            "ignore_index cannot be specified when target contains probabilities"
        )
    if options is not None:
        raise GradRuntimeError(
            "linear_cross_entropy: options (its chunked path) is not supported by gradcli"
        )
    ignore_index = -100 if ignore_index is None else ignore_index
    if out_features:
        rows = num_classes
        for n in out_features:
            rows *= n
        w = batching.op("reshape", w, rows, in_features)
        if linear_bias is not None:
            linear_bias = batching.op("reshape", linear_bias, rows)
    logits = batching.op("linear", x, w, linear_bias)
    logits = batching.op("reshape", logits, *logits_shape)
    return F.cross_entropy(
        logits,
        target,
        weight=weight,
        reduction=reduction,
        ignore_index=ignore_index,
        label_smoothing=label_smoothing,
    )


class LinearCrossEntropyLoss(Module):
    """cross_entropy of a Linear layer's logits (num_classes, *out_features) and target."""

    def __init__(
        self,
        in_features,
        num_classes,
        *,
        out_features=(),
        bias=False,
        device=None,
        dtype=None,
        reduction="mean",
        weight=None,
        ignore_index=None,
        label_smoothing=0.0,
        options=None,
    ):
        if weight is not None and tuple(tensor_arg(weight).data.shape) != (num_classes,):
            raise GradRuntimeError(
                f"expected weight shape to be {(num_classes,)}, got "
                f"{tuple(tensor_arg(weight).data.shape)}"
            )
        if label_smoothing < 0 or label_smoothing > 1.0:
            raise GradRuntimeError(
                f"expected label_smoothing to be in range [0, 1], got {label_smoothing}"
            )
        super().__init__()
        self.register_buffer("weight", weight)
        self.reduction = reduction
        self.num_classes, self.out_features = num_classes, out_features
        self.ignore_index, self.label_smoothing = ignore_index, label_smoothing
        rows = num_classes
        for n in out_features:
            rows *= n
        self.linear = Linear(in_features, rows, bias=bias, dtype=dtype)
        self.options = options

    def forward(self, input, target):
        shape = (self.num_classes, *self.out_features)
        w = batching.op("reshape", self.linear.weight, *shape, self.linear.in_features)
        b = self.linear.bias
        if b is not None:
            b = batching.op("reshape", b, *shape)
        return linear_cross_entropy(
            input,
            w,
            target,
            linear_bias=b,
            weight=self.weight,
            reduction=self.reduction,
            ignore_index=self.ignore_index,
            label_smoothing=self.label_smoothing,
            options=self.options,
        )

    def extra_repr(self):
        return (
            f"in_features={self.linear.in_features}, num_classes={self.num_classes}, "
            f"out_features={self.out_features}, bias={self.linear.bias is not None}, "
            f"reduction={self.reduction}, ignore_index={self.ignore_index}, "
            f"label_smoothing={self.label_smoothing}, options={self.options}"
        )


LOSSES["LinearCrossEntropyLoss"] = LinearCrossEntropyLoss
LOSSES["TripletMarginWithDistanceLoss"] = TripletMarginWithDistanceLoss
LOSSES["PairwiseDistance"] = PairwiseDistance
LOSSES["CosineSimilarity"] = CosineSimilarity
FUNCTIONAL = {
    "triplet_margin_with_distance_loss": triplet_margin_with_distance_loss,
    "linear_cross_entropy": linear_cross_entropy,
}
