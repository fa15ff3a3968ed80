"""nn.Transformer, TransformerEncoder(Layer) and TransformerDecoder(Layer) on PyTorch's
standard path (its Python code, op for op): self-attention (and the decoder's attention
over the memory) through nn.MultiheadAttention with need_weights=False (so
scaled_dot_product_attention), dropout, the residual sum and LayerNorm, then the
feed-forward block (linear, activation, dropout, linear, dropout), post-norm or pre-norm
(`norm_first`); masks as PyTorch takes them (bool masks made additive, a mask equal to the
causal one given to the attention as `is_causal`, as the stacks detect it); the stacks'
layers deep copies of the layer given; parameters drawn in PyTorch's order (Transformer
draws its matrices again, xavier_uniform_).  The fast path PyTorch takes in evaluation
without grad (`_transformer_encoder_layer_fwd`, nested tensors) is not reproduced: there
the layers run the same standard path."""

from __future__ import annotations

import copy

import numpy as np

from ...core import dtypes
from ...core.convert import tensor_arg
from ...core.tensor import Tensor
from ...ops.registry import FUNCTIONS
from ...runtime import context
from ...runtime.errors import GradRuntimeError
from .attention import MultiheadAttention, _arg, canonical_mask
from .containers import ModuleList
from .init import xavier_uniform_
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
        _blocks(self, 2, d_model, dim_feedforward, dropout, activation, layer_norm_eps, bias, dtype)
        self.norm_first = norm_first

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        src = tensor_arg(src)
        src_mask = _arg(src_mask)
        src_key_padding_mask = canonical_mask(
            _arg(src_key_padding_mask), "src_key_padding_mask", src_mask, "src_mask", src
        )
        src_mask = canonical_mask(src_mask, "src_mask", None, "", src)
        masks = (src_mask, src_key_padding_mask, is_causal)
        x = src
        if self.norm_first:
            x = FUNCTIONS["add"](x, self._sa_block(self.norm1(x), *masks))
            return FUNCTIONS["add"](x, self._ff_block(self.norm2(x)))
        x = self.norm1(FUNCTIONS["add"](x, self._sa_block(x, *masks)))
        return self.norm2(FUNCTIONS["add"](x, self._ff_block(x)))

    def _sa_block(self, x, attn_mask=None, key_padding_mask=None, is_causal=False):
        x = self.self_attn(
            x,
            x,
            x,
            attn_mask=attn_mask,
            key_padding_mask=key_padding_mask,
            need_weights=False,
            is_causal=is_causal,
        )[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)


def _relu_or_gelu(activation):
    return getattr(activation, "__name__", None) in _ACTIVATIONS or type(activation).__name__ in (
        "ReLU",
        "GELU",
    )


class TransformerDecoderLayer(Module):
    """Self-attention, attention over the memory and a feed-forward block, each with a
    residual sum and LayerNorm."""

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
            d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias, dtype=dtype
        )
        self.multihead_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias, dtype=dtype
        )
        _blocks(self, 3, d_model, dim_feedforward, dropout, activation, layer_norm_eps, bias, dtype)
        self.norm_first = norm_first

    def forward(
        self,
        tgt,
        memory,
        tgt_mask=None,
        memory_mask=None,
        tgt_key_padding_mask=None,
        memory_key_padding_mask=None,
        tgt_is_causal=False,
        memory_is_causal=False,
    ):
        add = FUNCTIONS["add"]
        x = tensor_arg(tgt)
        own = (tgt_mask, tgt_key_padding_mask, tgt_is_causal)
        mem = (memory, memory_mask, memory_key_padding_mask, memory_is_causal)
        if self.norm_first:
            x = add(x, self._sa_block(self.norm1(x), *own))
            x = add(x, self._mha_block(self.norm2(x), *mem))
            return add(x, self._ff_block(self.norm3(x)))
        x = self.norm1(add(x, self._sa_block(x, *own)))
        x = self.norm2(add(x, self._mha_block(x, *mem)))
        return self.norm3(add(x, self._ff_block(x)))

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(
            x,
            x,
            x,
            attn_mask=attn_mask,
            key_padding_mask=key_padding_mask,
            is_causal=is_causal,
            need_weights=False,
        )[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal=False):
        x = self.multihead_attn(
            x,
            mem,
            mem,
            attn_mask=attn_mask,
            key_padding_mask=key_padding_mask,
            is_causal=is_causal,
            need_weights=False,
        )[0]
        return self.dropout2(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout3(x)


def _blocks(m, n, d_model, dim_feedforward, dropout, activation, eps, bias=True, dtype=None):
    """A layer's feed-forward block and its n LayerNorms and dropouts, made in PyTorch's
    order (their parameters drawn in it): linear1, dropout, linear2, norm1..n,
    dropout1..n, then the activation."""
    m.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
    m.dropout = Dropout(dropout)
    m.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
    for i in range(1, n + 1):
        setattr(m, f"norm{i}", LayerNorm(d_model, eps=eps, bias=bias, dtype=dtype))
    for i in range(1, n + 1):
        setattr(m, f"dropout{i}", Dropout(dropout))
    m.activation = _activation(activation)


def _activation(activation):
    if isinstance(activation, str):
        if activation not in _ACTIVATIONS:
            raise GradRuntimeError(
                f"activation should be relu/gelu, not {activation}", type_name="RuntimeError"
            )
        return FUNCTIONS[activation]
    return activation


def generate_square_subsequent_mask(sz, device=None, dtype=None):
    """The causal mask: -inf above the diagonal, 0 elsewhere (the default dtype unless
    dtype)."""
    dt = context.current.default_float if dtype is None else dtypes.as_numpy(dtype)
    return Tensor(np.triu(np.full((sz, sz), -np.inf, dt), 1) + np.zeros((sz, sz), dt))


def _seq_len(src, batch_first):
    shape = src.data.shape
    return shape[0] if len(shape) == 2 else shape[1 if batch_first else 0]


def _detect_is_causal_mask(mask, is_causal, size):
    """PyTorch's _detect_is_causal_mask: True when asked, or (unless told) when the mask
    equals the causal mask of its size and dtype."""
    if is_causal is None and mask is not None:
        sz = size if size is not None else mask.data.shape[-2]
        causal = np.triu(np.full((sz, sz), -np.inf, mask.data.dtype), 1)
        return mask.data.shape == causal.shape and bool(np.all(mask.data == causal))
    return is_causal is True


class TransformerEncoder(Module):
    """num_layers deep copies of an encoder layer in turn, then `norm` when given."""

    def __init__(
        self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True
    ):
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(encoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why = _why_not_nested(encoder_layer)
        if enable_nested_tensor and why:
            context.warn(
                "enable_nested_tensor is True, but self.use_nested_tensor is False because " + why
            )
            self.use_nested_tensor = False

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        src = tensor_arg(src)
        mask = _arg(mask)
        src_key_padding_mask = canonical_mask(
            _arg(src_key_padding_mask), "src_key_padding_mask", mask, "mask", src
        )
        mask = canonical_mask(mask, "mask", None, "", src)
        first = self.layers[0]
        seq_len = _seq_len(src, first.self_attn.batch_first)
        is_causal = _detect_is_causal_mask(mask, is_causal, seq_len)
        output = src
        for mod in self.layers:
            output = mod(
                output,
                src_mask=mask,
                is_causal=is_causal,
                src_key_padding_mask=src_key_padding_mask,
            )
        return self.norm(output) if self.norm is not None else output


def _why_not_nested(layer):
    """Why PyTorch's encoder will not use nested tensors for this layer ('' when it would)."""
    name = "encoder_layer"
    if type(layer) is not TransformerEncoderLayer:
        return f"{name} was not TransformerEncoderLayer"
    attn = layer.self_attn
    if layer.norm_first:
        return f"{name}.norm_first was True"
    if not attn.batch_first:
        return (
            f"{name}.self_attn.batch_first was not True"
            "(use batch_first for better inference performance)"
        )
    if not attn._qkv_same_embed_dim:
        return f"{name}.self_attn._qkv_same_embed_dim was not True"
    if attn.in_proj_bias is None:
        return f"{name}.self_attn was passed bias=False"
    if not _relu_or_gelu(layer.activation):
        return f"{name}.activation_relu_or_gelu was not True"
    if layer.norm1.eps != layer.norm2.eps:
        return f"{name}.norm1.eps was not equal to {name}.norm2.eps"
    if attn.num_heads % 2 == 1:
        return f"{name}.self_attn.num_heads is odd"
    return ""


class TransformerDecoder(Module):
    """num_layers deep copies of a decoder layer in turn, then `norm` when given."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(decoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(
        self,
        tgt,
        memory,
        tgt_mask=None,
        memory_mask=None,
        tgt_key_padding_mask=None,
        memory_key_padding_mask=None,
        tgt_is_causal=None,
        memory_is_causal=False,
    ):
        output = tensor_arg(tgt)
        tgt_mask = _arg(tgt_mask)
        seq_len = _seq_len(output, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)
        for mod in self.layers:
            output = mod(
                output,
                memory,
                tgt_mask=tgt_mask,
                memory_mask=memory_mask,
                tgt_key_padding_mask=tgt_key_padding_mask,
                memory_key_padding_mask=memory_key_padding_mask,
                tgt_is_causal=tgt_is_causal,
                memory_is_causal=memory_is_causal,
            )
        return self.norm(output) if self.norm is not None else output


class Transformer(Module):
    """An encoder stack and a decoder stack (PyTorch's "Attention Is All You Need" model)."""

    def __init__(
        self,
        d_model=512,
        nhead=8,
        num_encoder_layers=6,
        num_decoder_layers=6,
        dim_feedforward=2048,
        dropout=0.1,
        activation="relu",
        custom_encoder=None,
        custom_decoder=None,
        layer_norm_eps=1e-5,
        batch_first=False,
        norm_first=False,
        bias=True,
        device=None,
        dtype=None,
    ):
        super().__init__()
        common = (dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, *common, bias=bias, dtype=dtype)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, *common, bias=bias, dtype=dtype)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, norm)
        for p in self.parameters():  # PyTorch's _reset_parameters
            if p.data.ndim > 1:
                xavier_uniform_(p)
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(
        self,
        src,
        tgt,
        src_mask=None,
        tgt_mask=None,
        memory_mask=None,
        src_key_padding_mask=None,
        tgt_key_padding_mask=None,
        memory_key_padding_mask=None,
        src_is_causal=None,
        tgt_is_causal=None,
        memory_is_causal=False,
    ):
        src, tgt = tensor_arg(src), tensor_arg(tgt)
        batched = src.data.ndim == 3
        at = 0 if self.batch_first else 1
        if batched and src.data.shape[at] != tgt.data.shape[at]:
            raise GradRuntimeError("the batch number of src and tgt must be equal")
        if src.data.shape[-1] != self.d_model or tgt.data.shape[-1] != self.d_model:
            raise GradRuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(
            src, mask=src_mask, src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal
        )
        return self.decoder(
            tgt,
            memory,
            tgt_mask=tgt_mask,
            memory_mask=memory_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            memory_key_padding_mask=memory_key_padding_mask,
            tgt_is_causal=tgt_is_causal,
            memory_is_causal=memory_is_causal,
        )

    generate_square_subsequent_mask = staticmethod(generate_square_subsequent_mask)
    # (the static method as the program reads it: nn.Transformer.generate_square_...)
    language_class_attrs = {"generate_square_subsequent_mask": generate_square_subsequent_mask}


TRANSFORMER = {
    "TransformerEncoderLayer": TransformerEncoderLayer,
    "TransformerDecoderLayer": TransformerDecoderLayer,
    "TransformerEncoder": TransformerEncoder,
    "TransformerDecoder": TransformerDecoder,
    "Transformer": Transformer,
}
