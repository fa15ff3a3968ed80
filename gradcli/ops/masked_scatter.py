"""`x.masked_scatter(mask, source)` (and `torch.masked_scatter`, `x.masked_scatter_`): x
with the elements of source, in order, where mask is true (x and mask broadcast together,
as PyTorch's out-of-place form does).  MaskedScatterBackward0 saves the mask and source's
sizes; its gradients are derivatives.yaml's: grad.masked_fill(mask, 0) for x and
masked_scatter_backward for source (the gradient where mask is true, in order, zeros after
them, in source's shape)."""

from __future__ import annotations

import numpy as np

from ..core import dtypes
from ..core.convert import tensor_arg
from ..core.tensor import Tensor
from ..engine.declare import none
from ..engine.function import Function
from ..engine.saved import saved_shape
from ..runtime.errors import GradRuntimeError, broadcast_error
from .combine import MaskedFill
from .registry import FUNCTIONS, Arg, Parser, register

_OP = FUNCTIONS
_C_NAMES = {"int64": "Long", "int32": "Int", "float64": "Double", "float32": "Float"}


def _scatter_values(x, mask, source):
    out = np.array(x, copy=True)
    n = int(np.count_nonzero(mask))
    out[mask] = source.reshape(-1)[:n]
    return out


def _source_values(g, mask, shape):
    """masked_scatter_backward: g where mask is true, in order, then zeros, in shape."""
    size = int(np.prod(shape, dtype=np.int64))
    picked = g[mask]
    out = np.zeros(size, g.dtype)
    out[: picked.size] = picked[:size]
    return out.reshape(shape)


class MaskedScatterBackward(Function):
    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )
    __slots__ = ("mask", "given_mask", "shape")
    name = "MaskedScatterBackwardBackward0"
    saved_names = ("mask",)

    def forward(self, g, mask, given_mask, shape):
        self.mask, self.given_mask, self.shape = mask, given_mask, shape
        self.save(given_mask)
        return _source_values(g, mask, shape)

    def backward(self, gg, F, _given):
        # zeros_like(grad_output).masked_scatter(mask, grad)
        shape = self.mask.shape
        if F.tensor_mode:
            zeros = Tensor(np.zeros(shape, gg.data.dtype))
            return (masked_scatter(zeros, Tensor(self.given_mask), gg),)
        return (_scatter_values(np.zeros(shape, gg.dtype), self.mask, gg),)

    def jvp(self, ts, F, _given):
        return MaskedScatterBackward.apply(
            ts[0], mask=self.mask, given_mask=self.given_mask, shape=self.shape
        )


class MaskedScatter(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ("mask", "given_mask", "sa", "source_shape")
    name = "MaskedScatterBackward0"
    saved_names = ("mask",)
    saved_extra = {"source_sym_sizes": saved_shape("source_shape")}

    def forward(self, x, source, mask, given_mask):
        self.mask, self.sa, self.source_shape = mask, x.shape, source.shape
        self.given_mask = given_mask
        self.save(given_mask)
        return _scatter_values(np.broadcast_to(x, mask.shape), mask, source)

    def backward(self, g, F, _given):
        n = self.needs
        gx = gs = None
        if n[0]:
            if F.tensor_mode:
                gx = MaskedFill.apply(g, mask=self.mask, value=0.0)
            else:
                gx = np.where(self.mask, np.zeros((), g.dtype), g)
            gx = F.sum_to(gx, self.sa)
        if n[1]:
            gs = self._source_grad(g, F)
        return gx, gs

    def _source_grad(self, g, F):
        if F.tensor_mode:  # masked_scatter_backward, itself an op (create_graph)
            return MaskedScatterBackward.apply(
                g, mask=self.mask, given_mask=self.saved_mask(), shape=self.source_shape
            )
        return _source_values(g, self.mask, self.source_shape)

    def saved_mask(self):
        return self.given_mask

    def jvp(self, ts, F, _given):
        tx, ts_ = ts
        shape = self.mask.shape
        if tx is None:
            tx = Tensor(np.zeros(shape, ts_.data.dtype))
        if ts_ is None:
            ts_ = Tensor(np.zeros(self.source_shape, tx.data.dtype))
        return MaskedScatter.apply(tx, ts_, mask=self.mask, given_mask=self.mask)


@register(
    "masked_scatter",
    "masked_scatter(input, mask, source)",
    "input with source's elements, in order, where mask is true",
    method=True,
    checks=[
        ((Arg((2, 3)), [[True, False, True], [False, True, False]], Arg((2, 3))), {}),
        ((Arg((2, 3)), [True, False, True], Arg((7,))), {}),
    ],
    category="shape",
    batch=None,
    inplace="masked_scatter_",
    pure=False,
    parser=Parser(overloaded=True),
)
def masked_scatter(input, mask, source):  # noqa: A002
    x, m, s = tensor_arg(input), tensor_arg(mask), tensor_arg(source)
    if m.data.dtype.kind != "b":
        raise GradRuntimeError(
            "masked_scatter_ only supports boolean masks, but got mask with dtype "
            f"{_C_NAMES.get(m.data.dtype.name, dtypes.scalar_type_name(m.data.dtype))}"
        )
    try:
        shape = np.broadcast_shapes(m.data.shape, x.data.shape)
    except ValueError:
        raise broadcast_error(m.data.shape, x.data.shape) from None
    if x.data.dtype != s.data.dtype:
        raise GradRuntimeError(
            "masked_scatter: expected self and source to have same dtypes but got"
            f"{dtypes.scalar_type_name(x.data.dtype)} and {dtypes.scalar_type_name(s.data.dtype)}"
        )
    full = np.array(np.broadcast_to(m.data, shape), order="C")  # (a 0-d mask stays 0-d)
    if np.count_nonzero(full) > s.data.size:
        raise GradRuntimeError("Number of elements of source < number of ones in mask")
    return MaskedScatter.apply(x, s, mask=full, given_mask=m.data)
