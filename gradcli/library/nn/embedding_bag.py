"""nn.EmbeddingBag and F.embedding_bag: each bag (a run of indices given by `offsets`,
or a row of a 2-D input) reduced to one row of the table by sum, mean or max, as
PyTorch's CPU kernel does it: the bag's rows added one after another in the table's
dtype (the mean then divided by the bag's size), a row of padding_idx left out, an empty
bag zeros.  The node is PyTorch's EmbeddingBagBackward0, whose backward goes through the
indices in the order `torch.sort` puts them and adds each bag's gradient (the mean's
scaled by 1 / size as a fused multiply-add, BLAS's axpy) into its row."""

from __future__ import annotations

import numpy as np

from ...core.tensor import Tensor
from ...core.convert import tensor_arg
from ...engine.declare import none
from ...engine.function import Function
from ...numerics.floats.fma import fma
from ...ops.registry import FUNCTIONS
from ...runtime.errors import GradRuntimeError, GradValueError
from .layers import _int
from .layers_more import Embedding, embedding_table
from .module import Module

_MODES = ("sum", "mean", "max")


class EmbeddingBagBackward(Function):
    """The bags' reductions of the table's rows."""

    __slots__ = ("indices", "bags", "sizes", "mode", "padding_idx", "shape", "argmax")
    name = "EmbeddingBagBackward0"
    saved_names = ()
    jvp = none("gradcli has no forward-mode rule for embedding_bag")
    formula = none("a gather and reduction of rows: shown as a named function")
    differentiable_twice = False

    def forward(self, weight, indices, bags, n_bags, mode, padding_idx):
        self.indices, self.bags, self.mode, self.padding_idx = indices, bags, mode, padding_idx
        self.shape = weight.shape
        out = np.zeros((n_bags, weight.shape[1]), weight.dtype)
        sizes = np.zeros(n_bags, np.int64)
        argmax = np.full((n_bags, weight.shape[1]), -1, np.int64)
        for k, (i, b) in enumerate(zip(indices, bags)):
            if i == padding_idx:
                continue
            row = weight[i]
            if mode == "max":
                take = (row > out[b]) | (argmax[b] < 0)
                out[b] = np.where(take, row, out[b])
                argmax[b] = np.where(take, i, argmax[b])
            else:
                out[b] = out[b] + row
            sizes[b] += 1
        if mode == "mean":
            nonempty = sizes > 0
            out[nonempty] = out[nonempty] / sizes[nonempty, None].astype(weight.dtype)
        self.sizes, self.argmax = sizes, argmax
        return out

    def backward(self, g, F):
        grad = np.zeros(self.shape, g.dtype)
        if self.mode == "max":
            cols = np.arange(self.shape[1])
            for b in range(g.shape[0]):
                rows = self.argmax[b]
                used = rows >= 0
                np.add.at(grad, (rows[used], cols[used]), g[b, used])
            return (grad,)
        order = FUNCTIONS["sort"](Tensor(self.indices)).indices.data
        for j in order:
            i = self.indices[j]
            if i == self.padding_idx:
                continue
            b = self.bags[j]
            if self.mode == "mean" and self.sizes[b]:
                scale = g.dtype.type(1.0 / self.sizes[b])
                grad[i] = fma(np.full_like(g[b], scale), g[b], grad[i], dtype=g.dtype)
            else:
                grad[i] = grad[i] + g[b]
        return (grad,)


def embedding_bag(
    input,  # noqa: A002
    weight,
    offsets=None,
    max_norm=None,
    norm_type=2,
    scale_grad_by_freq=False,
    mode="mean",
    sparse=False,
    per_sample_weights=None,
    include_last_offset=False,
    padding_idx=None,
):
    x, w = tensor_arg(input), tensor_arg(weight)
    if mode not in _MODES:
        raise GradValueError("mode has to be one of sum, mean or max")
    for given, what in (
        (max_norm is not None, "max_norm"),
        (scale_grad_by_freq, "scale_grad_by_freq"),
        (sparse, "sparse gradients"),
        (per_sample_weights is not None, "per_sample_weights"),
    ):
        if given:
            raise GradRuntimeError(
                f"embedding_bag with {what} is not supported by gradcli",
                type_name="NotImplementedError",
            )
    idx = x.data
    if idx.dtype.kind not in "iu":
        raise GradRuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got {x.type_word if hasattr(x, 'type_word') else 'a float'} "
            "instead (while checking arguments for embedding_bag)"
        )
    if idx.ndim == 2:
        if offsets is not None:
            raise GradValueError(
                "if input is 2D, then offsets has to be None, as input is treated is a "
                "mini-batch of fixed length sequences. However, found offsets of type "
                "<class 'torch.Tensor'>"
            )
        n_bags, per = idx.shape
        starts = np.arange(0, n_bags * per, per, dtype=np.int64)
        idx = idx.reshape(-1)
    elif idx.ndim == 1:
        if offsets is None:
            raise GradValueError("offsets has to be a 1D Tensor but got None")
        starts = tensor_arg(offsets).data.astype(np.int64).reshape(-1)
        if include_last_offset:
            starts = starts[:-1]
        n_bags = len(starts)
    else:
        raise GradValueError(
            f"input has to be 1D or 2D Tensor, but got Tensor of dimension {idx.ndim}"
        )
    bags = np.zeros(len(idx), np.int64)
    for b, s in enumerate(starts):
        bags[s:] = b
    if padding_idx is not None and padding_idx < 0:
        padding_idx += w.data.shape[0]
    pad = -1 if padding_idx is None else int(padding_idx)
    return EmbeddingBagBackward.apply(
        w,
        indices=idx.astype(np.int64),
        bags=bags,
        n_bags=n_bags,
        mode=mode,
        padding_idx=pad,
    )


class EmbeddingBag(Module):
    def __init__(
        self,
        num_embeddings,
        embedding_dim,
        max_norm=None,
        norm_type=2.0,
        scale_grad_by_freq=False,
        mode="mean",
        sparse=False,
        _weight=None,
        include_last_offset=False,
        padding_idx=None,
        device=None,
        dtype=None,
    ):
        super().__init__()
        self.num_embeddings = _int(num_embeddings, "size")
        self.embedding_dim = _int(embedding_dim, "size")
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.mode, self.sparse = scale_grad_by_freq, mode, sparse
        self.include_last_offset = include_last_offset
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise GradRuntimeError(
                    "padding_idx must be within num_embeddings", type_name="AssertionError"
                )
            if padding_idx < 0:
                padding_idx = num_embeddings + padding_idx
        self.padding_idx = padding_idx
        embedding_table(self, _weight, dtype)

    reset_parameters = Embedding.reset_parameters  # N(0, 1), the padding row zeroed

    def forward(self, input, offsets=None, per_sample_weights=None):  # noqa: A002
        return embedding_bag(
            input,
            self.weight,
            offsets,
            self.max_norm,
            self.norm_type,
            self.scale_grad_by_freq,
            self.mode,
            self.sparse,
            per_sample_weights,
            self.include_last_offset,
            self.padding_idx,
        )

    def extra_repr(self):
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        s += f", mode={self.mode!r}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        return s
