"""torch.nn's loss modules as Modules (so they print, register as submodules and
sit in a Sequential like PyTorch's): each calls its functional form in ops/loss.py."""

from __future__ import annotations

from ...runtime.errors import GradTypeError
from ...ops import loss as F
from ...ops import loss_more as M
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
        if "reduction" in options:
            F._reduction(options["reduction"])
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
    )
}
LOSSES.update(
    (name, _loss(name, fn, 3))
    for name, fn in (
        ("GaussianNLLLoss", M.gaussian_nll_loss),
        ("MarginRankingLoss", M.margin_ranking_loss),
        ("CosineEmbeddingLoss", M.cosine_embedding_loss),
    )
)
