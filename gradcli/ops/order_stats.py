"""Order statistics along a dim: `median`, `nanmedian`, `kthvalue` and `mode`, each a
`torch.return_types` pair (values, indices) with dim, and median/nanmedian of all
elements a value.

Which of tied values' index is returned is PyTorch's CPU kernels': median and nanmedian
partition the indices with `std::nth_element` under a total order (value, then index), so
the index is the one a stable sort puts at the median's place; kthvalue runs ATen's own
quickselect (`quick_select_template`, a median-of-three Hoare partition with NaN as the
largest value) on (value, index) pairs; mode sorts (value, index) pairs by value with
`std::sort` (numerics/random/stl_order.py) and takes the last of the first longest run of
equal values.  Their gradients are derivatives.yaml's value_selecting_reduction_backward
(zeros scattered with grad at the indices); median and nanmedian of all elements share
the gradient among the elements equal to the result (evenly_distribute_backward)."""

from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor, type_name
from ..engine.function import FUNCTIONS, Function
from ..engine.saved import saved_shown
from ..numerics.random import stl_order
from ..runtime.errors import GradIndexError, GradRuntimeError, GradTypeError
from .dims import norm_dims
from .gathering import Gather, _gather, _scatter
from .maxmin import MaxAll
from .reduce import saved_keepdim, saved_sizes
from .return_types import ValuesIndices
from .registry import Arg, Parser, register
from .tensor_args import int_arg

M = Arg((2, 5))


# ------------------------------------------------------------------ the kernels


def _median_row(row, ignore_nan):
    """The index median (nanmedian) picks in one row."""
    nan = np.isnan(row) if row.dtype.kind == "f" else np.zeros(row.shape, bool)
    if not ignore_nan and nan.any():
        return int(np.argmax(nan))  # the first NaN
    n_nan = int(nan.sum())
    k = (row.size - n_nan - 1) // 2 if n_nan < row.size else 0
    if n_nan == row.size and row.size > 3:
        # every value a NaN: all equivalent under the comparator, the place nth_element
        # leaves them in decides
        pairs = list(range(row.size))
        stl_order.nth_element(pairs, 0, 0, row.size, lambda a, b: False)
        return pairs[0]
    return int(np.argsort(row, kind="stable")[k])  # (NaN sorted last)


def _gt_or_nan(x, y):
    return (x != x and y == y) or x > y


def _quick_select(vals, idx, k):
    """ATen's quick_select_template on the lists vals/idx (swapped together), so that
    place k holds the k-th smallest value, NaN the largest."""
    lo, hi = 0, len(vals) - 1
    gt = _gt_or_nan

    def swap(i, j):
        vals[i], vals[j] = vals[j], vals[i]
        idx[i], idx[j] = idx[j], idx[i]

    while True:
        if hi <= lo:
            return
        if hi == lo + 1:
            if gt(vals[lo], vals[hi]):
                swap(lo, hi)
            return
        p = (lo + hi) >> 1
        swap(p, lo + 1)
        if gt(vals[lo + 1], vals[hi]):
            swap(lo + 1, hi)
        if gt(vals[lo], vals[hi]):
            swap(lo, hi)
        if gt(vals[lo + 1], vals[lo]):
            swap(lo + 1, lo)
        i, j = lo + 1, hi
        piv = vals[lo]
        while True:
            i += 1
            while gt(piv, vals[i]):
                i += 1
            j -= 1
            while gt(vals[j], piv):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1


def _kth_row(row, k):
    """The index kthvalue picks in one row (k counted from 0)."""
    order = np.argsort(row, kind="stable")  # NaN last
    at = order[k]
    v = row[at]
    ties = np.isnan(row) if v != v else row == v
    if int(ties.sum()) == 1:
        return int(at)  # the only such value: any quickselect finds it there
    vals, idx = row.tolist(), list(range(row.size))
    _quick_select(vals, idx, k)
    return idx[k]


def _mode_row(row):
    """The index mode picks in one row: std::sort of (value, index) by value, then the
    last element of the first longest run of equal values."""
    floating = row.dtype.kind == "f"
    if not (floating and np.isnan(row).any()):
        vals, counts = np.unique(row, return_counts=True)
        if counts.max() == 1:
            return int(np.argmin(row)) if row.size else 0  # all distinct: the smallest
    pairs = list(zip(row.tolist(), range(row.size)))
    stl_order.sort(pairs, 0, len(pairs), lambda a, b: a[0] < b[0])
    best, best_i, run = 0, 0, 0
    for i, (v, at) in enumerate(pairs):
        run += 1
        if i == len(pairs) - 1 or v != pairs[i + 1][0]:
            if run > best:
                best, best_i = run, at
            run = 0
    return best_i


def _rows(x, axis, pick):
    """int64 indices (keepdim shape) of pick(row) for each row of x along axis."""
    rows = np.moveaxis(x, axis, -1)
    shape = rows.shape[:-1]
    flat = rows.reshape(-1, rows.shape[-1])
    out = np.fromiter((pick(r) for r in flat), np.int64, flat.shape[0])
    return np.expand_dims(out.reshape(shape), axis)


# ------------------------------------------------------------------ the nodes


class _Selected(Function):
    """The values at `index` (keepdim form) along `axis`: the gradient is
    value_selecting_reduction_backward (zeros.scatter(dim, indices, grad))."""

    __slots__ = ("shape", "axis", "index", "dim", "keepdim")
    holds_saved = True  # (its indices: a second backward fails, as in PyTorch)
    saved_names = ("indices",)
    saved_extra = {
        "dim": saved_shown("dim"),
        "keepdim": saved_keepdim,
        "self_sym_sizes": saved_sizes,
    }

    def formula(self, S, x, *_):
        """The elements picked: a named function with its local Jacobian."""
        x = S.obj(x)
        if x.ndim == 0:
            return S.named(x)
        out = _gather(x, self.axis, self.index)
        return S.named(out if self.keepdim else np.squeeze(out, self.axis))

    def forward(self, x, axis, index, dim, keepdim):
        self.shape, self.axis, self.index = x.shape, axis, index
        self.dim, self.keepdim = dim, keepdim
        if x.ndim == 0:
            self.save(np.zeros((), np.int64))
            return x.copy()
        self.save(index if keepdim else np.squeeze(index, axis))
        out = _gather(x, axis, index)
        return out if keepdim else np.squeeze(out, axis)

    def backward(self, g, F, *_):
        if not self.shape:
            return (g,)
        axis = self.axis
        if F.tensor_mode:
            if not self.keepdim:
                g = FUNCTIONS["unsqueeze"](g, axis)
            zeros = Tensor(np.zeros(self.shape, g.data.dtype))
            return (FUNCTIONS["scatter"](zeros, axis, Tensor(self.index), g),)
        if not self.keepdim:
            g = np.expand_dims(g, axis)
        return (_scatter(None, self.shape, g.dtype, axis, self.index, g, False),)

    def jvp(self, ts, F, *saved):
        (t,) = ts
        if not self.shape:
            return t
        out = Gather.apply(t, axis=self.axis, index=self.index)
        return out if self.keepdim else FUNCTIONS["squeeze"](out, self.axis)


class MedianDim(_Selected):
    __slots__ = ()
    name = "MedianBackward1"


class NanmedianDim(_Selected):
    __slots__ = ()
    name = "NanmedianBackward1"


class Kthvalue(_Selected):
    __slots__ = ()
    name = "KthvalueBackward0"


class Mode(_Selected):
    __slots__ = ()
    name = "ModeBackward0"


def _nan_last(a, b):
    return a < b or (b != b and a == a)


def _median_all(x, ignore_nan):
    """median_impl: std::nth_element on a copy of the values (in memory order), NaN the
    result when there is one (median) or the median of the others (nanmedian)."""
    flat = np.ravel(x, order="K")
    if flat.size == 0:
        return np.asarray(np.nan, x.dtype) if x.dtype.kind == "f" else np.zeros((), x.dtype)
    n_nan = 0
    if flat.dtype.kind == "f":
        nan = np.isnan(flat)
        n_nan = int(nan.sum())
        if n_nan and (not ignore_nan or n_nan == flat.size):
            return np.asarray(np.nan, x.dtype)
    k = (flat.size - n_nan - 1) // 2
    out = np.sort(flat)[k]  # (NaN sorted last)
    if out == 0 and flat.dtype.kind == "f" and np.signbit(flat[flat == 0]).any():
        # +0 and -0 tie: the one nth_element leaves at the place
        vals = flat.tolist()
        stl_order.nth_element(vals, 0, k, len(vals), _nan_last if ignore_nan else _less)
        out = vals[k]
    return np.asarray(out, x.dtype)


def _less(a, b):
    return a < b


class Median(MaxAll):
    """median of all elements (the lower of the two middle ones): ties share the
    gradient evenly, as max's."""

    __slots__ = ()
    name = "MedianBackward0"
    ignore_nan = False

    def forward(self, x):
        self.setup(x, None, False)
        out = _median_all(x, self.ignore_nan)
        self.save(x, out)
        return out


class Nanmedian(Median):
    __slots__ = ()
    name = "NanmedianBackward0"
    ignore_nan = True


# ------------------------------------------------------------------ the built-ins


def _input(name, input):
    if not isinstance(input, Tensor):
        raise GradTypeError(
            f"{name}(): argument 'input' (position 1) must be Tensor, not "
            f"{'NoneType' if input is None else type_name(input)}"
        )
    if input.data.dtype == np.bool_ and name != "mode":
        raise GradRuntimeError(
            f"\"{name}_cpu\" not implemented for 'Bool'", type_name="NotImplementedError"
        )
    return input


def _axis(name, x, dim, pos=2):
    dim = int_arg(name, dim, "dim", pos)
    (axis,) = norm_dims(dim, x.ndim) or (0,)
    if x.ndim and x.shape[axis] == 0:
        raise GradIndexError(f"{name}(): Expected reduction dim {axis} to have non-zero size.")
    return dim, axis


def _selected(name, node, input, dim, keepdim, pick):
    x = input.data
    dim, axis = _axis(name, x, dim)
    if x.ndim == 0:
        index = np.zeros((), np.int64)
    elif x.size == 0:
        index = np.zeros(tuple(1 if i == axis else n for i, n in enumerate(x.shape)), np.int64)
    else:
        index = _rows(x, axis, pick)
    keepdim = bool(keepdim)
    values = node.apply(input, axis=axis, index=index, dim=dim, keepdim=keepdim)
    shown = index if keepdim or not x.ndim else np.squeeze(index, axis)
    return ValuesIndices(values, Tensor(shown.copy(order="C")), name)


def _median(name, whole, bydim, ignore_nan):
    def fn(input, dim=None, keepdim=False):
        input = _input(name, input)
        if dim is None:
            if keepdim:
                raise GradTypeError(f'{name}() missing 1 required positional arguments: "dim"')
            return whole.apply(input)
        return _selected(name, bydim, input, dim, keepdim, lambda r: _median_row(r, ignore_nan))

    fn.__name__ = name
    return fn


_MEDIAN_CHECKS = [
    ((M,), {}),
    ((M,), {"dim": 1}),
    ((Arg((4, 3)),), {"dim": 0, "keepdim": True}),
    ((Arg((3,)),), {"dim": -1}),
]

for _name, _whole, _bydim, _nan in (
    ("median", Median, MedianDim, False),
    ("nanmedian", Nanmedian, NanmedianDim, True),
):
    register(
        _name,
        f"{_name}(input, dim=None, keepdim=False)",
        (
            "the median (the lower middle value" + (", NaN ignored" if _nan else "") + "); "
            "with dim, (values, indices)"
        ),
        method=True,
        checks=_MEDIAN_CHECKS,
        category="reduce",
        batch=None,
        inplace=None,
        pure=False,
        parser=None,
    )(_median(_name, _whole, _bydim, _nan))
del _name, _whole, _bydim, _nan


@register(
    "kthvalue",
    "kthvalue(input, k, dim=-1, keepdim=False)",
    "the k-th smallest value along dim and its index",
    method=True,
    checks=[((M, 2), {}), ((Arg((4, 3)), 4), {"dim": 0, "keepdim": True}), ((Arg((3,)), 1), {})],
    category="reduce",
    batch=None,
    inplace=None,
    pure=False,
    parser=Parser(("k",)),
)
def kthvalue(input, k, dim=-1, keepdim=False):
    input = _input("kthvalue", input)
    k = int_arg("kthvalue", k, "k", 2)
    x = input.data
    dim = int_arg("kthvalue", dim, "dim", 3)
    (axis,) = norm_dims(dim, x.ndim) or (0,)
    size = x.shape[axis] if x.ndim else 1
    if not 1 <= k <= size:
        raise GradRuntimeError(f"kthvalue(): selected number k out of range for dimension {axis}")
    return _selected("kthvalue", Kthvalue, input, dim, keepdim, lambda r: _kth_row(r, k - 1))


@register(
    "mode",
    "mode(input, dim=-1, keepdim=False)",
    "the most frequent value along dim (the smallest of equally frequent ones) and an index",
    method=True,
    checks=[((M,), {}), ((Arg((4, 3)),), {"dim": 0, "keepdim": True})],
    category="reduce",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def mode(input, dim=-1, keepdim=False):
    input = _input("mode", input)
    return _selected("mode", Mode, input, dim, keepdim, _mode_row)
