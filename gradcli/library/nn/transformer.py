"""nn.TransformerEncoderLayer on PyTorch's standard path (its Python code, op for op):
self-attention through nn.MultiheadAttention with need_weights=False (so
scaled_dot_product_attention), dropout, the residual sum and LayerNorm, then the
feed-forward block (linear, activation, dropout, linear, dropout), post-norm or pre-norm
(`norm_first`); its parameters drawn in PyTorch's order.  The fast path PyTorch takes in
evaluation without grad (`_transformer_encoder_layer_fwd`, a fused kernel) is not
reproduced: there the layer runs the same standard path.  Masks are refused (as
MultiheadAttention's)."""

from __future__ import annotations

from ...ops.registry import FUNCTIONS
from ...runtime.errors import GradRuntimeError
from .attention import MultiheadAttention
from .layers import Dropout, Linear
from .module import Module
from .norms import LayerNorm

_ACTIVATIONS = ("relu", "gelu")


class TransformerEncoderLayer(Module):
    """Self-attention and a feed-forward block, each with a residual sum and LayerNorm."""

    def __init__(
        self,
        d_model,
        nhead,
        dim_feedforward=2048,
        dropout=0.1,
        activation="relu",
        layer_norm_eps=1e-5,
        batch_first=False,
        norm_first=False,
        bias=True,
        device=None,
        dtype=None,
    ):
        super().__init__()
        self.self_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first, dtype=dtype
        )
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        if isinstance(activation, str):
            if activation not in _ACTIVATIONS:
                raise GradRuntimeError(
                    f"activation should be relu/gelu, not {activation}", type_name="RuntimeError"
                )
            activation = FUNCTIONS[activation]
        self.activation = activation

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        if src_mask is not None or src_key_padding_mask is not None or is_causal:
            raise GradRuntimeError(
                "TransformerEncoderLayer: a mask is not supported by gradcli",
                hint="the layer runs without src_mask and src_key_padding_mask",
            )
        x = src
        if self.norm_first:
            x = FUNCTIONS["add"](x, self._sa_block(self.norm1(x)))
            return FUNCTIONS["add"](x, self._ff_block(self.norm2(x)))
        x = self.norm1(FUNCTIONS["add"](x, self._sa_block(x)))
        return self.norm2(FUNCTIONS["add"](x, self._ff_block(x)))

    def _sa_block(self, x):
        x = self.self_attn(x, x, x, need_weights=False)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)


TRANSFORMER = {"TransformerEncoderLayer": TransformerEncoderLayer}
