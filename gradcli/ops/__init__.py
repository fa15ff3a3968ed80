"""The op families, each differentiable op a `Function` subclass (forward, backward
and PyTorch's grad_fn name side by side) next to the function that the language
calls; importing this package fills the table in `registry`.

Order: a family imports only the registry, the layers below `ops`, and the
families listed before it.
"""

from . import (
    dims,
    shape,
    indexing,
    narrowing,
    diagonal,
    combine,
    elementwise,
    power,
    half_nodes,
    scaled,
    comparisons,
    unary,
    clamp_where,
    binary_math,
    bitwise,
    reduce,
    maxmin,
    moments,
    softmax,
    linalg,
    creation,
    activation,
    loss,
    nn,
    padding,
)  # noqa: F401
from . import gathering, repeating, topk, inverse  # noqa: F401,E402  (index_select gather scatter repeat ravel topk inverse)
from . import det  # noqa: F401,E402  (det)
from . import linalg_solve  # noqa: F401,E402  (slogdet logdet linalg.solve)
from . import conv1d  # noqa: F401,E402  (conv1d max_pool1d avg_pool1d adaptive_avg_pool1d)
from . import upsample  # noqa: F401,E402  (interpolate)
from . import sorting  # noqa: F401,E402  (sort argsort diag)
from . import conv_transpose  # noqa: F401,E402  (conv_transpose2d)
from . import activation_piecewise, activation_hard  # noqa: F401,E402  (threshold hardtanh relu6 shrinks; hardsigmoid hardswish)
from . import activation_smooth, activation_params  # noqa: F401,E402  (mish selu celu; glu prelu rrelu)
from . import loss_more  # noqa: F401,E402  (huber, smooth_l1, kl_div, poisson_nll ...)
from . import loss_margin  # noqa: F401,E402  (multilabel/multi margin, triplet, distances)
from . import ctc  # noqa: F401,E402  (ctc_loss)
from . import pool3d  # noqa: F401,E402  (avg_pool3d)
from . import shuffle  # noqa: F401,E402  (pixel_shuffle pixel_unshuffle channel_shuffle)
from . import loss_nd  # noqa: F401,E402  (nll_loss of (N, C, d1, ...))
from . import distance  # noqa: F401,E402  (cdist)
from . import attention  # noqa: F401,E402  (scaled_dot_product_attention)
from . import norm_pool  # noqa: F401,E402  (embedding batch_norm avg_pool2d adaptive_avg_pool2d)
from . import layer_norm, group_norm  # noqa: F401,E402  (layer_norm rms_norm group_norm)
from . import rounding, addmm  # noqa: F401,E402  (div's rounding_mode, fmod; torch.addmm)
from . import baddbmm  # noqa: F401,E402  (torch.baddbmm, torch.addbmm)
from . import linalg_decomp  # noqa: F401,E402  (linalg.cholesky, linalg.eigvalsh)
from . import lerp, amax  # noqa: F401,E402  (torch.lerp; torch.amax, amin)
from . import selecting  # noqa: F401,E402  (masked_select roll nan_to_num frac)
from . import cumulative, log_math  # noqa: F401,E402  (cumsum cumprod cummax cummin; logaddexp)
from . import order_stats  # noqa: F401,E402  (median nanmedian kthvalue mode)
from . import nan_moments  # noqa: F401,E402  (nansum nanmean var_mean std_mean)
from . import index_updates  # noqa: F401,E402  (index_add index_copy index_fill)
from . import cross  # noqa: F401,E402  (cross, linalg.cross)
from . import pointwise  # noqa: F401,E402  (addcmul addcdiv)
from . import rotate  # noqa: F401,E402  (rot90 block_diag)
from . import special_math  # noqa: F401,E402  (copysign logit sinc)
from . import gamma  # noqa: F401,E402  (digamma, lgamma)
from . import unfold  # noqa: F401,E402  (x.unfold)
from . import masked_scatter  # noqa: F401,E402  (masked_scatter)
from . import index_put  # noqa: F401,E402  (index_put)
from . import batch_rules  # noqa: F401,E402  (vmap: the batching rules of the ops above)
from .registry import FUNCTIONS
from ..core.tensor import DUNDERS, OPERATOR_OPS


# Tensor's Python operators (core/tensor.py) call these, by the op names it gives: used
# by gradcli itself and by the VJPs in create_graph mode (`a * b` on tensors records a
# graph)
DUNDERS.update((name, FUNCTIONS[name]) for name in OPERATOR_OPS)
