"""The language's `torch.nn` and `torch.nn.functional` namespaces: `members(Namespace)`
gives what `torch.nn` holds besides `functional`, `FUNCTIONAL` the functions of
`torch.nn.functional`.  Imported when a program first reads either namespace
(library/torch_ns.py), with the layers, losses and containers it names."""

from __future__ import annotations

from ...ops.registry import FUNCTIONS
from ...ops.softmax import FUNCTIONAL as SOFTMAX_FUNCTIONAL
from .. import counting
from . import activations, attention, dropout, init, inplace_acts, reshaping, utils
from .rnn_utils import FUNCTIONS_RNN
from .embedding_bag import EmbeddingBag, embedding_bag
from .folding import Fold, Unfold, fold, unfold
from .containers import CONTAINERS
from .layers import LAYERS, bilinear
from .layers_more import LAYERS_MORE
from .loss import FUNCTIONAL as LOSS_FUNCTIONAL, LOSSES
from .norms import NORMS
from .recurrent import RECURRENT
from .transformer import TRANSFORMER
from .layers_1d import LAYERS_1D
from .padding import PADDING
from .module import Module, Parameter

FUNCTIONAL = {
    **inplace_acts.FUNCTIONAL,
    "bilinear": bilinear,
    "linear": FUNCTIONS["linear"],
    **SOFTMAX_FUNCTIONAL,
    **counting.FUNCTIONAL,
    **dropout.FUNCTIONAL,
    **activations.FUNCTIONAL,
    **LOSS_FUNCTIONAL,
    **reshaping.FUNCTIONAL,
    "multi_head_attention_forward": attention.multi_head_attention_forward,
    "embedding_bag": embedding_bag,
    "unfold": unfold,
    "fold": fold,
}


def members(namespace):
    """torch.nn's names; `namespace(name, members)` makes a sub-namespace (nn.init)."""
    out = {
        "Module": Module,
        "Parameter": Parameter,
        "init": namespace("torch.nn.init", dict(init.FUNCTIONS)),
        "utils": namespace(
            "torch.nn.utils",
            {**utils.UTILS, "rnn": namespace("torch.nn.utils.rnn", dict(FUNCTIONS_RNN))},
        ),
    }
    out.update(LAYERS)
    out.update(LAYERS_MORE)
    out.update(activations.ACTIVATIONS)
    out.update(reshaping.LAYERS)
    out["MultiheadAttention"] = attention.MultiheadAttention
    out.update(dropout.LAYERS)
    out.update(NORMS)
    out.update(CONTAINERS)
    out.update(LOSSES)
    out.update(RECURRENT)
    out.update(TRANSFORMER)
    out.update(LAYERS_1D)
    out.update(PADDING)
    out["EmbeddingBag"] = EmbeddingBag
    out["Unfold"], out["Fold"] = Unfold, Fold
    return out
