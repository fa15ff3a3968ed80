"""`torch.topk(input, k, dim=-1, largest=True, sorted=True)` and `x.topk(...)`: a
`torch.return_types.topk(values, indices)`, TopkBackward0 on the values.

Which of tied values comes first is PyTorch's: its CPU kernel (ATen's topk_impl_loop)
fills a row of (value, index) pairs and orders them with `std::partial_sort` when
k * 64 <= the row's length, else `std::nth_element` at k - 1 followed (sorted=True)
by `std::sort` of the first k - 1; NaN counts as the largest value (smallest=False:
the largest as well, so last).  Rows whose order those algorithms fix regardless
(a sorted result of k distinct values, each beating the rest of the row) are done by
NumPy; the others follow libstdc++'s algorithms step for step (numerics/random/stl_order.py).  The gradient is zeros.scatter(dim, indices, g)
(ScatterBackward0 under create_graph), the JVP the tangent gathered at the indices."""

from __future__ import annotations

import numpy as np

from ..engine.saved import saved_shape, saved_shown
from ..numerics.random import stl_order
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..core.tensor import Tensor, type_name
from ..engine.function import Function
from .dims import norm_dims
from .gathering import Gather, Scatter, _gather, _scatter
from .return_types import ValuesIndices
from .tensor_args import int_arg
from .registry import Arg, register


def _nan_first(x, y):
    xv, yv = x[0], y[0]
    return (xv != xv and yv == yv) or xv > yv


def _nan_last(x, y):
    xv, yv = x[0], y[0]
    return (xv == xv and yv != yv) or xv < yv


def _stl_row(row, k, largest, sorted_):
    """The indices topk_impl_loop leaves in the first k places of one row."""
    n = len(row)
    queue = list(zip(row.tolist(), range(n)))
    less = _nan_first if largest else _nan_last
    if k * 64 <= n:
        stl_order.partial_sort(queue, 0, k, n, less)
    else:
        stl_order.nth_element(queue, 0, k - 1, n, less)
        if sorted_:
            stl_order.sort(queue, 0, k - 1, less)
    return [i for _, i in queue[:k]]


def topk_indices(x, k, axis, largest, sorted_):
    """int64 indices of topk along axis (x at least 1-D, 0 <= k <= its size there)."""
    rows = np.moveaxis(x, axis, -1)
    shape = rows.shape
    rows = rows.reshape(-1, shape[-1])
    n = shape[-1]
    out = np.empty((rows.shape[0], k), dtype=np.int64)
    if k:
        order = np.argsort(rows, axis=1, kind="stable")  # NaN last
        if largest:
            order = order[:, ::-1]
        # a sorted result whose k values are distinct and beat the rest: the values fix
        # the order whatever the algorithm (ties elsewhere in the row do not matter)
        top = np.take_along_axis(rows, order[:, : k + 1], axis=1)
        tie = top[:, 1:] == top[:, :-1]
        if rows.dtype.kind == "f":
            tie |= np.isnan(top[:, 1:]) & np.isnan(top[:, :-1])
        exact = ~tie.any(axis=1)
        if not (sorted_ or k * 64 <= n):  # nth_element's own order of the k
            exact[:] = False
        out[exact] = order[exact, :k]
        for r in np.flatnonzero(~exact):
            out[r] = _stl_row(rows[r], k, largest, sorted_)
    return np.moveaxis(out.reshape(shape[:-1] + (k,)), -1, axis)


class Topk(Function):
    __slots__ = ("shape", "axis", "index", "dim")
    name = "TopkBackward0"
    holds_saved = True  # (its indices: a second backward fails, as in PyTorch)
    # its indices are its saved value (packed by saved-tensor hooks); dim as given
    saved_names = ("indices",)
    saved_extra = {"dim": saved_shown("dim"), "self_sym_sizes": saved_shape()}

    def forward(self, x, axis, index, dim=None):
        self.shape, self.axis, self.index = x.shape, axis, index
        self.dim = axis if dim is None else dim
        self.save(index)
        return _gather(x, axis, index)

    def formula(self, S, x, *_):
        """No closed form: the elements it picked, shown as topk(x) with its Jacobian."""
        return S.named(_gather(S.obj(x), self.axis, self.index))

    def backward(self, g, F, *_):
        if F.tensor_mode:
            return (Scatter.apply(None, g, shape=self.shape, axis=self.axis, index=self.index),)
        return (_scatter(None, self.shape, g.dtype, self.axis, self.index, g, False),)

    def jvp(self, ts, F, *saved):
        return Gather.apply(ts[0], axis=self.axis, index=self.index)


@register(
    "topk",
    "topk(input, k, dim=-1, largest=True, sorted=True)",
    "the k largest (largest=False: smallest) values along dim and their indices",
    method=True,
    checks=[
        ((Arg((3, 5)), 2), {}),
        ((Arg((4, 3)), 3), {"dim": 0}),
        ((Arg((6,)), 2), {"largest": False, "sorted": False}),
    ],
    category="reduce",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def topk(input, k, dim=-1, largest=True, sorted=True, *, out=None):
    if not isinstance(input, Tensor):
        raise GradTypeError(
            f"topk(): argument 'input' (position 1) must be Tensor, not {type_name(input)}"
        )
    k, dim = (
        int_arg("topk", k, "k", 1),
        int_arg("topk", dim, "dim", 2),
    )  # positions as x.topk(...) counts
    x = input.data
    axis = norm_dims(dim, x.ndim)
    axis = axis[0] if axis else 0
    size = x.shape[axis] if x.ndim else 1
    if not 0 <= k <= size:
        raise GradRuntimeError("selected index k out of range")
    if x.dtype == np.bool_:
        raise GradRuntimeError("topk does not support bool dtypes on CPU")
    if x.ndim == 0:
        index = np.zeros((), dtype=np.int64)
    else:
        index = topk_indices(x, k, axis, bool(largest), bool(sorted))
    values = Topk.apply(input, axis=axis, index=index, dim=dim)
    return ValuesIndices(values, Tensor(index.copy(order="C")), "topk")
