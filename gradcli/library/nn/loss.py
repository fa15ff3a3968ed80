"""torch.nn's loss modules as Modules (so they print, register as submodules and
sit in a Sequential like PyTorch's): each calls its functional form in ops/loss.py."""

from __future__ import annotations

from ...runtime.errors import GradTypeError
from ...ops import loss as F
from .module import Module


class _Loss(Module):
    fn = None
    known = ()

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

    def forward(self, input, target):
        return type(self).fn(input, target, **self.__dict__["_options"])


def _loss(name, fn):
    code = fn.__code__
    known = code.co_varnames[2 : code.co_argcount]
    return type(name, (_Loss,), {"fn": staticmethod(fn), "known": known})


LOSSES = {
    name: _loss(name, fn)
    for name, fn in (
        ("MSELoss", F.mse_loss),
        ("L1Loss", F.l1_loss),
        ("BCELoss", F.binary_cross_entropy),
        ("BCEWithLogitsLoss", F.binary_cross_entropy_with_logits),
        ("NLLLoss", F.nll_loss),
        ("CrossEntropyLoss", F.cross_entropy),
    )
}
