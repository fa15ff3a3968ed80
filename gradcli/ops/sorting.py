"""`torch.sort` / `x.sort` (SortBackward0, SortBackward1 with `stable=`), `argsort`, and
`torch.diag` (a vector on a diagonal, DiagEmbedBackward0; a matrix's diagonal copied,
DiagonalBackward0_copy).

The order of tied values is PyTorch's: its CPU sort kernel orders (value, index) pairs
with `std::sort` (`std::stable_sort` when `stable=True`) under a comparison of the values
alone, NaN above every number.  A row without ties is ordered the same by any sort, so
NumPy does it; a row with ties follows libstdc++'s algorithm step for step
(numerics/random/stl_order.py), as topk does.  Integer rows of 32,768 or more, ascending, go
through PyTorch's radix sort, which is stable."""

from __future__ import annotations

import numpy as np

from ..numerics.random import stl_order
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..core.tensor import Tensor, type_name
from ..engine.declare import none
from ..engine.saved import saved_shown, shown_int
from ..engine.forward import linear
from ..engine.function import Function
from .diagonal import Diagonal, _diag_backward
from .dims import norm_dims
from .return_types import ValuesIndices
from .registry import Arg, register
from .tensor_args import int_arg
from .topk import Topk, _nan_first, _nan_last

RADIX_MIN = 32768  # at::internal::GRAIN_SIZE: from this size on, integer rows are radix-sorted


def _stable_rows(rows, descending):
    if not descending:
        return np.argsort(rows, axis=1, kind="stable")  # NaN last
    n = rows.shape[1]
    rev = np.argsort(rows[:, ::-1], axis=1, kind="stable")[:, ::-1]  # NaN first, ties in order
    return n - 1 - rev


def _std_sort_row(row, descending):
    queue = list(zip(row.tolist(), range(len(row))))
    stl_order.sort(queue, 0, len(queue), _nan_first if descending else _nan_last)
    return [i for _, i in queue]


def sort_indices(x, axis, descending, stable):
    """int64 indices that sort x along axis, ties placed as PyTorch's CPU kernel does."""
    if x.ndim == 0 or x.size == 0:
        return np.zeros(x.shape, np.int64)
    rows = np.moveaxis(x, axis, -1)
    shape = rows.shape
    rows = rows.reshape(-1, shape[-1])
    order = _stable_rows(rows, descending)
    radix = x.dtype.kind in "iu" and x.ndim == 1 and x.size >= RADIX_MIN and not descending
    if not stable and not radix and rows.shape[1] > 1:
        s = np.take_along_axis(rows, order, axis=1)
        tie = s[:, 1:] == s[:, :-1]
        if rows.dtype.kind == "f":
            tie |= np.isnan(s[:, 1:]) & np.isnan(s[:, :-1])
        for r in np.flatnonzero(tie.any(axis=1)):
            order[r] = _std_sort_row(rows[r], descending)
    return np.moveaxis(order.reshape(shape), -1, axis)


class Sort(Topk):
    __slots__ = ()
    name = "SortBackward0"

    def forward(self, x, axis, index, dim=None):
        if x.ndim == 0:  # a number sorts to itself
            self.shape, self.axis, self.index, self.dim = x.shape, axis, index, dim
            self.save(index)
            return x.copy()
        return super().forward(x, axis, index, dim)

    def backward(self, g, F, *_):
        if len(self.shape) == 0:
            return (g,)
        return super().backward(g, F)


class SortStable(Sort):
    __slots__ = ()
    name = "SortBackward1"


def _sort_args(what, input, dim, descending):
    if not isinstance(input, Tensor):
        raise GradTypeError(
            f"{what}(): argument 'input' (position 1) must be Tensor, not {type_name(input)}"
        )
    dim = int_arg(what, dim, "dim", 2)
    x = input.data
    axis = norm_dims(dim, x.ndim)
    axis = axis[0] if axis else 0
    return x, axis


@register(
    "sort",
    "sort(input, dim=-1, descending=False, stable=False)",
    "the values sorted along dim and the indices they came from",
    method=True,
    checks=[
        ((Arg((3, 5)),), {}),
        ((Arg((4, 3)),), {"dim": 0, "descending": True}),
        ((Arg((6,)),), {"stable": True}),
    ],
    category="reduce",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def sort(input, dim=-1, descending=False, stable=None, *, out=None):
    x, axis = _sort_args("sort", input, dim, descending)
    index = sort_indices(x, axis, bool(descending), bool(stable))
    node = Sort if stable is None else SortStable
    values = node.apply(input, axis=axis, index=index, dim=dim if type(dim) is int else axis)
    return ValuesIndices(values, Tensor(index.copy(order="C")), "sort")


@register(
    "argsort",
    "argsort(input, dim=-1, descending=False, stable=False)",
    "the indices that sort input along dim",
    method=True,
    category="reduce",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not differentiable (indices)"),
    parser=None,
)
def argsort(input, dim=-1, descending=False, stable=False):
    x, axis = _sort_args("argsort", input, dim, descending)
    return Tensor(sort_indices(x, axis, bool(descending), bool(stable)).copy(order="C"))


class DiagEmbed(Function):
    """A vector on the offset-th diagonal of a square matrix (zeros elsewhere)."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ("offset",)
    name = "DiagEmbedBackward0"
    saved_names = ()
    # diag(vector) is diag_embed(v, offset, -2, -1) in PyTorch: the dims as it gives them
    saved_extra = {
        "offset": saved_shown("offset"),
        "dim1": lambda node: shown_int(-2),
        "dim2": lambda node: shown_int(-1),
    }

    def forward(self, v, offset):
        self.offset = offset
        n = v.shape[0] + abs(offset)
        return _diag_backward(v, (n, n), offset, 0, 1)

    def backward(self, g, F):
        if F.tensor_mode:
            return (Diagonal.apply(g, offset=self.offset, d1=0, d2=1),)
        return (np.diagonal(g, self.offset).copy(),)

    jvp = linear


class DiagonalCopy(Diagonal):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ()
    name = "DiagonalBackward0_copy"

    def forward(self, x, offset, d1, d2, dim1=None, dim2=None):
        return super().forward(x, offset, d1, d2).copy()


@register(
    "diag",
    "diag(input, diagonal=0)",
    "a vector: the matrix with it on a diagonal; a matrix: its diagonal (a copy)",
    method=True,
    checks=[
        ((Arg((3,)),), {}),
        ((Arg((2,)),), {"diagonal": -1}),
        ((Arg((3, 4)),), {"diagonal": 1}),
    ],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def diag(input, diagonal=0, *, out=None):
    if not isinstance(input, Tensor):
        raise GradTypeError(
            f"diag(): argument 'input' (position 1) must be Tensor, not {type_name(input)}"
        )
    diagonal = int_arg("diag", diagonal, "diagonal", 2)
    nd = input.data.ndim
    if nd == 1:
        return DiagEmbed.apply(input, offset=diagonal)
    if nd == 2:
        return DiagonalCopy.apply(input, offset=diagonal, d1=0, d2=1)
    raise GradRuntimeError(f"diag(): Supports 1D or 2D tensors. Got {nd}D")
