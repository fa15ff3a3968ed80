"""`F.scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
is_causal=False, scale=None, enable_gqa=False)`: softmax(q k^T * scale + mask) v, by the
CPU kernel PyTorch 2.13 picks.

* 4-D float32/float64 inputs of one batch and head count and one head size, a mask of 2
  or 4 dims: the flash-attention kernel (ScaledDotProductFlashAttentionForCpuBackward0,
  numerics/floats/flash_attention.py), whose backward PyTorch does not differentiate
  again;
* otherwise the math path, ATen's composite `_scaled_dot_product_attention_math` op for
  op: q and k^T each times sqrt(scale) (MulBackward1), matmul, the mask added,
  `_safe_softmax` (SafeSoftmaxBackward0: a softmax whose rows of -inf are 0), matmul.

A boolean mask keeps where it is True (-inf elsewhere, in the query's dtype); is_causal
masks above the diagonal (top left).  dropout_p above 0 takes the math path (PyTorch's
fused kernels take none), with at::dropout of the weights; enable_gqa with other head
counts is refused."""

from __future__ import annotations

import math

import numpy as np

from ..core.convert import tensor_arg
from ..core.tensor import Tensor
from ..engine.declare import none
from ..engine.function import Function
from ..numerics.floats import flash_attention
from ..runtime.errors import GradRuntimeError
from .elementwise import MulScalar, NotDifferentiable
from .registry import FUNCTIONS, register
from .softmax import Softmax

_NAMES = {"float64": "double", "float32": "float", "float16": "c10::Half"}


def _f(name):
    return FUNCTIONS[name]


class SafeSoftmax(Softmax):
    """`_safe_softmax`: softmax with the rows that are all -inf set to 0."""

    __slots__ = ()
    name = "SafeSoftmaxBackward0"

    def forward(self, x, dim):
        out = super().forward(x, dim)
        dead = np.all(x == -np.inf, axis=self.axis, keepdims=True)
        if dead.any():
            out = np.where(dead, out.dtype.type(0), out)
            self.saved = ()
            self.save(out)
        return out


class FlashGrad(NotDifferentiable):
    """_scaled_dot_product_flash_attention_for_cpu_backward, which PyTorch does not
    differentiate again."""

    __slots__ = ()
    name = "ScaledDotProductFlashAttentionForCpuBackwardBackward0"
    aten = "_scaled_dot_product_flash_attention_for_cpu_backward"
    formula = none("a kernel's gradient with no derivative in PyTorch")

    def forward(self, g, q, k, v, out, flash, which):
        return flash.grads(g, q, k, v, out)[which]


class FlashAttention(Function):
    __slots__ = ("mask", "scale", "causal", "lse", "cache")
    name = "ScaledDotProductFlashAttentionForCpuBackward0"
    saved_names = ("query", "key", "value", "output")
    saved_extra = {
        "dropout_p": lambda node: 0.0,
        "is_causal": lambda node: node.causal,
        "scale": lambda node: node.scale,
    }
    jvp = none("PyTorch 2.13 has no forward-mode derivative for the flash kernel")
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    def forward(self, q, k, v, mask, scale, causal):
        self.mask, self.scale, self.causal, self.cache = mask, scale, causal, None
        out, self.lse = flash_attention.forward(q, k, v, mask, scale, causal)
        self.save(q, k, v, out)
        return out

    def grads(self, g, q, k, v, out):
        key = id(g)
        if self.cache is None or self.cache[0] != key:
            got = flash_attention.backward(
                np.asarray(g), q, k, v, out, self.lse, self.mask, self.scale, self.causal
            )
            self.cache = (key, got)
        return self.cache[1]

    def backward(self, g, F, q, k, v, out):
        if F.tensor_mode:
            return tuple(FlashGrad.apply(g, q, k, v, out, flash=self, which=i) for i in range(3))
        self.cache = None
        return self.grads(g, q, k, v, out)


def _dtype_name(t):
    return _NAMES.get(t.data.dtype.name, t.data.dtype.name)


def _bool_to_float(mask, dt):
    """convert_boolean_attn_mask: 0 where kept, -inf elsewhere, in the query's dtype."""
    return np.where(mask, dt.type(0), dt.type(-np.inf))


def _flash_ok(q, k, v, mask):
    if q.ndim != 4 or k.ndim != 4 or v.ndim != 4:
        return False
    if not (q.shape[0] == k.shape[0] == v.shape[0] and q.shape[1] == k.shape[1] == v.shape[1]):
        return False
    if not (q.shape[3] == k.shape[3] == v.shape[3]) or 0 in (q.shape[2], k.shape[2]):
        return False
    if mask is not None:
        if mask.ndim not in (2, 4):
            return False
        try:
            np.broadcast_shapes(mask.shape, q.shape[:3] + (k.shape[2],))
        except ValueError:
            return False
    return flash_attention.available()


def _math(q, k, v, mask, scale, causal, dropout_p=0.0):
    """_scaled_dot_product_attention_math, op for op (dropout: at::dropout's, training)."""
    dt = q.data.dtype
    negative = scale is not None and scale < 0
    base = abs(scale) if negative else scale
    factor = math.sqrt(base if base is not None else 1.0 / math.sqrt(q.data.shape[-1]))
    qs = MulScalar.apply(q, -factor if negative else factor, dt=dt)
    if causal:
        L, S = q.data.shape[-2], k.data.shape[-2]
        mask = _bool_to_float(np.tril(np.ones((L, S), bool)), dt)
    kt = MulScalar.apply(_f("transpose")(k, -2, -1), factor, dt=dt)
    attn = _f("matmul")(qs, kt)
    if mask is not None:
        attn = _f("add")(attn, Tensor(mask))
    attn = SafeSoftmax.apply(attn, dim=-1)
    if dropout_p > 0.0:
        attn = _f("dropout")(attn, dropout_p, True)
    return _f("matmul")(attn, v)


@register(
    "scaled_dot_product_attention",
    "scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, "
    "is_causal=False, scale=None, enable_gqa=False)",
    "softmax(query @ key^T * scale + attn_mask) @ value",
    category="nn",
    checks=none("the flash kernel's gradient has no derivative in PyTorch; golden cases"),
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def scaled_dot_product_attention(
    query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False
):
    q, k, v = tensor_arg(query), tensor_arg(key), tensor_arg(value)
    if not (q.data.dtype == k.data.dtype == v.data.dtype):
        raise GradRuntimeError(
            "Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{_dtype_name(q)} key.dtype: {_dtype_name(k)} and value.dtype: "
            f"{_dtype_name(v)} instead."
        )
    dt = q.data.dtype
    if dt not in (np.float32, np.float64):
        raise GradRuntimeError(
            "scaled_dot_product_attention: gradcli computes float32 and float64 inputs only"
        )
    dropout_p = float(dropout_p)
    mask = None
    if attn_mask is not None:
        m = tensor_arg(attn_mask)
        if m.requires_grad:
            raise GradRuntimeError(
                "scaled_dot_product_attention: a mask that requires grad is not supported by "
                "gradcli"
            )
        if is_causal:
            raise GradRuntimeError(
                "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
                "is_causal=True"
            )
        md = m.data
        if md.dtype == np.bool_:
            mask = _bool_to_float(md, dt)
        elif md.dtype == dt:
            mask = md
        else:
            raise GradRuntimeError(
                "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                f"attn_mask.dtype: {_dtype_name(m)} and  query.dtype: {_dtype_name(q)} instead."
            )
    if enable_gqa and q.data.ndim >= 3 and k.data.shape[-3] != q.data.shape[-3]:
        raise GradRuntimeError(
            "scaled_dot_product_attention: enable_gqa with fewer key heads is not supported by "
            "gradcli"
        )
    for name, t in (("query", q), ("key", k), ("value", v)):
        if t.data.ndim < 2:
            raise GradRuntimeError(
                f"scaled_dot_product_attention: {name} must have at least 2 dims, got {t.data.ndim}"
            )
    sc = None if scale is None else float(scale)
    if dropout_p == 0.0 and _flash_ok(q.data, k.data, v.data, mask):
        factor = sc if sc is not None else 1.0 / math.sqrt(q.data.shape[-1])
        return FlashAttention.apply(q, k, v, mask=mask, scale=factor, causal=bool(is_causal))
    return _math(q, k, v, mask, sc, bool(is_causal), dropout_p)
