"""nn.MultiheadAttention and F.multi_head_attention_forward on the path that returns the
attention weights (PyTorch's Python code, op for op: the packed or separate input
projections, q scaled by sqrt(1 / head_dim), bmm, softmax, dropout, bmm, the output
projection, the weights averaged over heads), with PyTorch's parameters drawn in its
order; with need_weights=False, scaled_dot_product_attention on the heads (PyTorch's
path: its flash kernel) and no weights.  Masks as PyTorch's code takes them: bool masks
made additive (0 or -inf in the query's dtype), the key padding mask merged into the
attention mask, added to the scores (baddbmm: the mask plus each product's sum) or given to
scaled_dot_product_attention; is_causal as PyTorch's hint."""

from __future__ import annotations

import math

import numpy as np

from ...core.convert import tensor_arg
from ...core.tensor import Tensor
from ...runtime import context
from ...ops import batching
from ...ops.registry import FUNCTIONS
from ...ops.softmax import FUNCTIONAL as SOFTMAX_FUNCTIONAL
from ...runtime.errors import GradAssertionError, GradRuntimeError, GradValueError
from .init import constant_, xavier_normal_, xavier_uniform_
from .layers import Linear, _empty
from .module import Module


def _op(name, *args, **kwargs):
    return batching.op(name, *args, **kwargs)


def _unsupported(what):
    return GradRuntimeError(f"multi_head_attention_forward: {what} is not supported by gradcli")


def _in_projection_packed(q, k, v, w, b):
    """PyTorch's _in_projection_packed for distinct q, k, v: w and b in three chunks."""
    w_q, w_k, w_v = _op("chunk", w, 3)
    b_q = b_k = b_v = None
    if b is not None:
        b_q, b_k, b_v = _op("chunk", b, 3)
    return _op("linear", q, w_q, b_q), _op("linear", k, w_k, b_k), _op("linear", v, w_v, b_v)


def _packed_same(q, k, v, w, b):
    """_in_projection_packed when k is v (and perhaps q is k): one linear, unflattened."""
    E = q.data.shape[-1]
    if q is k:
        proj = _op("linear", q, w, b)
        proj = _op(
            "contiguous",
            _op(
                "squeeze",
                _op(
                    "transpose",
                    _op("unsqueeze", _op("view", proj, *proj.data.shape[:-1], 3, E), 0),
                    0,
                    -2,
                ),
                -2,
            ),
        )
        return tuple(_op("select", proj, 0, i) for i in range(3))
    w_q, w_kv = _op("split", w, [E, E * 2])
    b_q = b_kv = None
    if b is not None:
        b_q, b_kv = _op("split", b, [E, E * 2])
    q_proj = _op("linear", q, w_q, b_q)
    kv = _op("linear", k, w_kv, b_kv)
    kv = _op(
        "contiguous",
        _op(
            "squeeze",
            _op(
                "transpose", _op("unsqueeze", _op("view", kv, *kv.data.shape[:-1], 2, E), 0), 0, -2
            ),
            -2,
        ),
    )
    return q_proj, _op("select", kv, 0, 0), _op("select", kv, 0, 1)


def multi_head_attention_forward(
    query,
    key,
    value,
    embed_dim_to_check,
    num_heads,
    in_proj_weight,
    in_proj_bias,
    bias_k,
    bias_v,
    add_zero_attn,
    dropout_p,
    out_proj_weight,
    out_proj_bias,
    training=True,
    key_padding_mask=None,
    need_weights=True,
    attn_mask=None,
    use_separate_proj_weight=False,
    q_proj_weight=None,
    k_proj_weight=None,
    v_proj_weight=None,
    static_k=None,
    static_v=None,
    average_attn_weights=True,
    is_causal=False,
):
    """Multi-head attention of query over key and value (MultiheadAttention's forward)."""
    query, key, value = tensor_arg(query), tensor_arg(key), tensor_arg(value)
    if static_k is not None or static_v is not None:
        raise _unsupported("static_k or static_v")
    is_batched, key_padding_mask, attn_mask, is_causal = _masks(
        query, key, _arg(key_padding_mask), _arg(attn_mask), num_heads, is_causal, need_weights
    )
    if not is_batched:
        query, key, value = (_op("unsqueeze", t, 1) for t in (query, key, value))
        if key_padding_mask is not None:
            key_padding_mask = _op("unsqueeze", key_padding_mask, 0)
    tgt_len, bsz, embed_dim = query.data.shape
    if embed_dim != embed_dim_to_check:
        raise GradAssertionError(
            f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}"
        )
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise GradAssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        b_q = b_k = b_v = None
        if in_proj_bias is not None:
            b_q, b_k, b_v = _op("chunk", in_proj_bias, 3)
        q = _op("linear", query, q_proj_weight, b_q)
        k = _op("linear", key, k_proj_weight, b_k)
        v = _op("linear", value, v_proj_weight, b_v)
    elif key is value:
        q, k, v = _packed_same(query, key, value, in_proj_weight, in_proj_bias)
    else:
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    if attn_mask is not None:
        attn_mask = _mask_3d(attn_mask, tgt_len, k.data.shape[0], bsz * num_heads)
    if bias_k is not None and bias_v is not None:
        k = _op("cat", [k, _op("repeat", bias_k, 1, bsz, 1)])
        v = _op("cat", [v, _op("repeat", bias_v, 1, bsz, 1)])
        attn_mask, key_padding_mask = _padded(attn_mask), _padded(key_padding_mask)
    q = _op("transpose", _op("view", q, tgt_len, bsz * num_heads, head_dim), 0, 1)
    k = _op("transpose", _op("view", k, k.data.shape[0], bsz * num_heads, head_dim), 0, 1)
    v = _op("transpose", _op("view", v, v.data.shape[0], bsz * num_heads, head_dim), 0, 1)
    if add_zero_attn:
        zeros = _op("zeros", (bsz * num_heads, 1, head_dim), dtype=k.dtype)
        k = _op("cat", [k, zeros], 1)
        v = _op("cat", [v, zeros], 1)
        attn_mask, key_padding_mask = _padded(attn_mask), _padded(key_padding_mask)
    src_len = k.data.shape[1]
    if key_padding_mask is not None:
        attn_mask = _merged(attn_mask, key_padding_mask, bsz, num_heads, src_len)
    if not training:
        dropout_p = 0.0
    if not need_weights:  # scaled_dot_product_attention on (bsz, heads, len, head_dim)
        if attn_mask is not None:
            if attn_mask.data.shape[0] == 1 and attn_mask.data.ndim == 3:
                attn_mask = _op("unsqueeze", attn_mask, 0)
            else:
                attn_mask = _op("view", attn_mask, bsz, num_heads, -1, src_len)
        q = _op("view", q, bsz, num_heads, tgt_len, head_dim)
        k = _op("view", k, bsz, num_heads, src_len, head_dim)
        v = _op("view", v, bsz, num_heads, src_len, head_dim)
        out = FUNCTIONS["scaled_dot_product_attention"](q, k, v, attn_mask, dropout_p, is_causal)
        out = _op("view", _op("contiguous", _op("permute", out, 2, 0, 1, 3)), bsz * tgt_len, -1)
        out = _op("linear", out, out_proj_weight, out_proj_bias)
        out = _op("view", out, tgt_len, bsz, out.data.shape[1])
        return (_op("squeeze", out, 1) if not is_batched else out), None
    E = q.data.shape[-1]
    q_scaled = _op("mul", q, math.sqrt(1.0 / float(E)))
    weights = _op("bmm", q_scaled, _op("transpose", k, -2, -1))
    if attn_mask is not None:  # baddbmm(attn_mask, ...): the mask plus each product's sum
        weights = _op("add", attn_mask, weights)
    weights = SOFTMAX_FUNCTIONAL["softmax"](weights, -1)
    if dropout_p > 0.0:
        weights = _op("dropout", weights, dropout_p)
    out = _op("bmm", weights, v)
    out = _op("reshape", _op("transpose", out, 0, 1), tgt_len * bsz, embed_dim)
    out = _op("linear", out, out_proj_weight, out_proj_bias)
    out = _op("view", out, tgt_len, bsz, out.data.shape[1])
    weights = _op("view", weights, bsz, num_heads, tgt_len, src_len)
    if average_attn_weights:
        weights = _op("mean", weights, 1)
    if not is_batched:
        out = _op("squeeze", out, 1)
        weights = _op("squeeze", weights, 0)
    return out, weights


def _arg(mask):
    return None if mask is None else tensor_arg(mask)


def _size(shape):
    return "torch.Size([" + ", ".join(str(n) for n in shape) + "])"


def _shape_check(query, key, key_padding_mask, attn_mask, num_heads):
    """PyTorch's _mha_shape_check: whether the input is batched, the masks' dims checked."""
    nd = query.data.ndim
    if nd not in (2, 3):
        raise GradAssertionError(
            f"query should be unbatched 2D or batched 3D tensor but received {nd}-D query tensor"
        )
    kind = "batched (3-D)" if nd == 3 else "unbatched (2-D)"
    if key_padding_mask is not None and key_padding_mask.data.ndim != nd - 1:
        raise GradAssertionError(
            f"For {kind} `query`, expected `key_padding_mask` to be `None` or {nd - 1}-D but "
            f"found {key_padding_mask.data.ndim}-D tensor instead"
        )
    if attn_mask is not None:
        if attn_mask.data.ndim not in (2, 3):
            raise GradAssertionError(
                f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found "
                f"{attn_mask.data.ndim}-D tensor instead"
            )
        if nd == 2 and attn_mask.data.ndim == 3:
            expected = (num_heads, query.data.shape[0], key.data.shape[0])
            if attn_mask.data.shape != expected:
                raise GradAssertionError(
                    f"Expected `attn_mask` shape to be {expected} but got "
                    f"{_size(attn_mask.data.shape)}"
                )
    return nd == 3


def _masks(query, key, key_padding_mask, attn_mask, num_heads, is_causal, need_weights):
    """(is_batched, key_padding_mask, attn_mask, is_causal) as multi_head_attention_forward
    prepares them: shapes checked, bool masks made additive, is_causal kept as a hint for
    scaled_dot_product_attention only without a key padding mask and weights."""
    is_batched = _shape_check(query, key, key_padding_mask, attn_mask, num_heads)
    key_padding_mask = canonical_mask(
        key_padding_mask, "key_padding_mask", attn_mask, "attn_mask", query
    )
    if is_causal and attn_mask is None:
        raise GradRuntimeError(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer "
            "module method `generate_square_subsequent_mask` to create this mask."
        )
    if is_causal and key_padding_mask is None and not need_weights:
        return is_batched, None, None, is_causal  # (scaled_dot_product_attention's is_causal)
    attn_mask = canonical_mask(attn_mask, "attn_mask", None, "", query)
    return is_batched, key_padding_mask, attn_mask, is_causal and key_padding_mask is None


def _merged(attn_mask, key_padding_mask, bsz, num_heads, src_len):
    """The key padding mask merged into the attention mask, per head."""
    for i, n in enumerate((bsz, src_len)):  # PyTorch's _check_key_padding_mask
        if key_padding_mask.data.shape[i] != n:
            raise GradAssertionError(
                f"Expected key_padded_mask.shape[{i}] to be {n}, but got "
                f"{key_padding_mask.data.shape[i]}"
            )
    kpm = _op("view", key_padding_mask, bsz, 1, 1, src_len)
    kpm = _op("reshape", _op("expand", kpm, -1, num_heads, -1, -1), bsz * num_heads, 1, src_len)
    return kpm if attn_mask is None else _op("add", attn_mask, kpm)


def canonical_mask(mask, name, other, other_name, query):
    """PyTorch's F._canonical_mask: a bool mask as an additive float one in the query's
    dtype (0 where kept, -inf where masked); a float mask as it is; the type of `other`
    (the other mask, or None) compared, as PyTorch warns."""
    if mask is None:
        return None
    dt = mask.data.dtype
    if dt != np.bool_ and dt.kind != "f":
        raise GradAssertionError(f"only bool and floating types of {name} are supported")
    if other is not None and other.data.dtype != dt:
        context.warn(
            f"Support for mismatched {name} and {other_name} is deprecated. Use same type for "
            "both instead."
        )
    if dt == np.bool_:
        qdt = query.data.dtype
        return Tensor(np.where(mask.data, qdt.type(-np.inf), qdt.type(0)))
    return mask


def _mask_3d(mask, tgt_len, src_len, heads):
    """The attention mask as (1 or bsz * num_heads, tgt_len, src_len), its size checked."""
    if mask.data.ndim == 2:
        if mask.data.shape != (tgt_len, src_len):
            raise GradRuntimeError(
                f"The shape of the 2D attn_mask is {_size(mask.data.shape)}, but should be "
                f"{(tgt_len, src_len)}."
            )
        return _op("unsqueeze", mask, 0)
    if mask.data.shape != (heads, tgt_len, src_len):
        raise GradRuntimeError(
            f"The shape of the 3D attn_mask is {_size(mask.data.shape)}, but should be "
            f"{(heads, tgt_len, src_len)}."
        )
    return mask


def _padded(mask):
    """F.pad(mask, (0, 1)): a zero column for the key added (bias_k, add_zero_attn)."""
    return None if mask is None else FUNCTIONS["pad"](mask, (0, 1))


class NonDynamicallyQuantizableLinear(Linear):
    """MultiheadAttention's output projection (a Linear by another name)."""


class MultiheadAttention(Module):
    """Attention of num_heads heads: projections of query, key and value, softmax weights."""

    def __init__(
        self,
        embed_dim,
        num_heads,
        dropout=0.0,
        bias=True,
        add_bias_kv=False,
        add_zero_attn=False,
        kdim=None,
        vdim=None,
        batch_first=False,
        device=None,
        dtype=None,
    ):
        if embed_dim <= 0 or num_heads <= 0:
            raise GradValueError(
                "embed_dim and num_heads must be greater than 0,"
                f" got embed_dim={embed_dim} and num_heads={num_heads} instead"
            )
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise GradAssertionError("embed_dim must be divisible by num_heads")
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = _empty(embed_dim, embed_dim, dtype=dtype)
            self.k_proj_weight = _empty(embed_dim, self.kdim, dtype=dtype)
            self.v_proj_weight = _empty(embed_dim, self.vdim, dtype=dtype)
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = _empty(3 * embed_dim, embed_dim, dtype=dtype)
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = _empty(3 * embed_dim, dtype=dtype)
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(
            embed_dim, embed_dim, bias=bias, dtype=dtype
        )
        if add_bias_kv:
            self.bias_k = _empty(1, 1, embed_dim, dtype=dtype)
            self.bias_v = _empty(1, 1, embed_dim, dtype=dtype)
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        if self._qkv_same_embed_dim:
            xavier_uniform_(self.in_proj_weight)
        else:
            xavier_uniform_(self.q_proj_weight)
            xavier_uniform_(self.k_proj_weight)
            xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            constant_(self.in_proj_bias, 0.0)
            constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            xavier_normal_(self.bias_v)

    def forward(
        self,
        query,
        key,
        value,
        key_padding_mask=None,
        need_weights=True,
        attn_mask=None,
        average_attn_weights=True,
        is_causal=False,
    ):
        query, key, value = tensor_arg(query), tensor_arg(key), tensor_arg(value)
        attn_mask = _arg(attn_mask)
        key_padding_mask = canonical_mask(
            _arg(key_padding_mask), "key_padding_mask", attn_mask, "attn_mask", query
        )
        attn_mask = canonical_mask(attn_mask, "attn_mask", None, "", query)
        is_batched = query.data.ndim == 3
        if self.batch_first and is_batched:
            if key is value:
                if query is key:
                    query = key = value = _op("transpose", query, 1, 0)
                else:
                    query, key = (_op("transpose", x, 1, 0) for x in (query, key))
                    value = key
            else:
                query, key, value = (_op("transpose", x, 1, 0) for x in (query, key, value))
        common = dict(
            training=self.training,
            key_padding_mask=key_padding_mask,
            need_weights=need_weights,
            attn_mask=attn_mask,
            average_attn_weights=average_attn_weights,
            is_causal=is_causal,
        )
        args = (
            query,
            key,
            value,
            self.embed_dim,
            self.num_heads,
            self.in_proj_weight,
            self.in_proj_bias,
            self.bias_k,
            self.bias_v,
            self.add_zero_attn,
            self.dropout,
            self.out_proj.weight,
            self.out_proj.bias,
        )
        if not self._qkv_same_embed_dim:
            out, weights = multi_head_attention_forward(
                *args,
                use_separate_proj_weight=True,
                q_proj_weight=self.q_proj_weight,
                k_proj_weight=self.k_proj_weight,
                v_proj_weight=self.v_proj_weight,
                **common,
            )
        else:
            out, weights = multi_head_attention_forward(*args, **common)
        if self.batch_first and is_batched:
            return _op("transpose", out, 1, 0), weights
        return out, weights
