"""torch functions that ATen composes of other ops (CompositeImplicitAutograd; kron ...): each is
written here as torch writes it, of gradcli's ops, so its values and its graph (the
grad_fn of its result is the last op's: `hstack` gives CatBackward0, `tile`
RepeatBackward0, `fliplr` FlipBackward0) are torch's.  Also the index functions that
record no graph: `nonzero`, `count_nonzero`, `tril_indices`/`triu_indices`,
`searchsorted`/`bucketize`, `bincount`."""

from __future__ import annotations

import numpy as np

from ..core.convert import tensor_arg, type_name
from ..core.tensor import Tensor
from ..engine.declare import none
from ..ops.dims import norm_dims, one_dim
from ..ops.shape import UnsafeView, _viewable
from ..ops.registry import FUNCTIONS, Arg, register
from ..runtime.errors import GradRuntimeError, GradTypeError

M = Arg((2, 3))
V = Arg((3,))
NO_CHECKS = none("an index function: no gradient")


def _f(name):
    return FUNCTIONS[name]


def _tensors(tensors, name):
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise GradTypeError(
            f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not "
            f"{type_name(tensors)}"
        )
    return [tensor_arg(t) for t in tensors]


def _atleast(t, nd):
    """atleast_1d/2d/3d of one tensor, as ATen makes them (a reshape of a 0-d tensor,
    unsqueezes of the others)."""
    d = t.data.ndim
    if d >= nd:
        return t
    if d == 0:
        return _f("reshape")(t, (1,) * nd)
    if nd == 2:
        return _f("unsqueeze")(t, 0)
    if d == 1:
        return _f("unsqueeze")(_f("unsqueeze")(t, 0), -1)
    return _f("unsqueeze")(t, -1)


def _stack_of(name, nd, dim):
    def stack(tensors, *, out=None):
        ts = _tensors(tensors, name)
        if not ts:
            raise GradRuntimeError(f"{name} expects a non-empty TensorList")
        rep = [_atleast(t, nd) for t in ts]
        return _f("cat")(rep, dim(rep))

    return stack


_STACKS = {
    "hstack": (1, lambda rep: 0 if rep[0].data.ndim == 1 else 1, "horizontally (dim 1; 0 for 1-d)"),
    "vstack": (2, lambda rep: 0, "vertically (dim 0 of each, at least 2-d)"),
    "dstack": (3, lambda rep: 2, "depth-wise (dim 2 of each, at least 3-d)"),
}
for _name, (_nd, _dim, _how) in _STACKS.items():
    register(
        _name,
        f"{_name}(tensors)",
        f"the tensors concatenated {_how}",
        checks=[(([M, M],), {}), (([V, V],), {})],
        category="shape",
        batch=None,
        inplace=None,
        pure=False,
        parser=None,
    )(_stack_of(_name, _nd, _dim))


@register(
    "column_stack",
    "column_stack(tensors)",
    "the tensors as columns side by side (a 0-d or 1-d tensor is one column)",
    checks=[(([V, V],), {}), (([Arg((3, 2)), V],), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def column_stack(tensors, *, out=None):
    ts = _tensors(tensors, "column_stack")
    if not ts:
        raise GradRuntimeError("column_stack expects a non-empty TensorList")
    cols = [_f("reshape")(t, (t.data.size, 1)) if t.data.ndim <= 1 else t for t in ts]
    return _f("cat")(cols, 1)


@register(
    "fliplr",
    "fliplr(input)",
    "the columns in reverse order (flip of dim 1)",
    method=True,
    checks=[((M,), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def fliplr(input):
    x = tensor_arg(input)
    if x.data.ndim < 2:
        raise GradRuntimeError("Input must be >= 2-d.")
    return _f("flip")(x, (1,))


@register(
    "flipud",
    "flipud(input)",
    "the rows in reverse order (flip of dim 0)",
    method=True,
    checks=[((M,), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def flipud(input):
    x = tensor_arg(input)
    if x.data.ndim < 1:
        raise GradRuntimeError("Input must be >= 1-d.")
    return _f("flip")(x, (0,))


@register(
    "moveaxis",
    "moveaxis(input, source, destination)",
    "movedim under NumPy's name",
    method=True,
    checks=[((Arg((2, 3, 4)), 0, 2), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def moveaxis(input, source, destination):
    return _f("movedim")(input, source, destination)


@register(
    "true_divide",
    "true_divide(input, other)",
    "div under its old name",
    method=True,
    checks=[((M, M), {})],
    category="arithmetic",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def true_divide(input, other):
    return _f("div")(input, other)


@register(
    "broadcast_to",
    "broadcast_to(input, size)",
    "input expanded to size (expand)",
    method=True,
    checks=[((V, (2, 3)), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def broadcast_to(input, size):
    return _f("expand")(tensor_arg(input), *tuple(size))


@register(
    "tile",
    "tile(input, dims)",
    "input repeated dims[i] times along dim i (fewer dims than input: 1s in front)",
    method=True,
    checks=[((M, (2,)), {}), ((M, (2, 1, 2)), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def tile(input, dims):
    x = tensor_arg(input)
    reps = tuple(dims) if isinstance(dims, (list, tuple)) else (dims,)
    reps = (1,) * (x.data.ndim - len(reps)) + reps
    return _f("repeat")(x, reps)


# ------------------------------------------------------------ index functions


@register(
    "nonzero",
    "nonzero(input, *, as_tuple=False)",
    "the indices of the non-zero elements: an (n, ndim) int64 tensor, or a tuple of "
    "1-d index tensors with as_tuple=True",
    method=True,
    checks=NO_CHECKS,
    category="indexing",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def nonzero(input, *, out=None, as_tuple=False):
    x = tensor_arg(input)
    where = np.argwhere(x.data != 0).astype(np.int64)
    if as_tuple:
        if x.data.ndim == 0:
            return (Tensor(np.zeros(int(x.data != 0), np.int64)),)
        return tuple(Tensor(np.ascontiguousarray(where[:, i])) for i in range(x.data.ndim))
    return Tensor(np.ascontiguousarray(where.reshape(len(where), x.data.ndim)))


@register(
    "count_nonzero",
    "count_nonzero(input, dim=None)",
    "the number of non-zero elements (over dim)",
    method=True,
    checks=NO_CHECKS,
    category="reduction",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def count_nonzero(input, dim=None):
    x = tensor_arg(input)
    axes = None if dim is None else tuple(norm_dims(dim, x.data.ndim))
    return Tensor(np.asarray(np.count_nonzero(x.data, axis=axes), dtype=np.int64))


def _triangle_indices(name, upper):
    def indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
        for what, v in (("row", row), ("col", col), ("offset", offset)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise GradTypeError(f"{name}(): argument '{what}' must be int, not {type_name(v)}")
        if row < 0 or col < 0:
            raise GradRuntimeError(
                f"row must be non-negative, got{row}"
                if row < 0
                else f"col must be non-negative, got{col}"
            )
        rows, cols = (np.triu_indices if upper else np.tril_indices)(row, offset, col)
        out = np.stack([rows, cols]).astype(np.int64)
        t = Tensor(np.ascontiguousarray(out))
        return t if dtype is None else _f("to")(t, dtype)

    register(
        name,
        f"{name}(row, col, offset=0)",
        f"the 2 x N indices of the {'upper' if upper else 'lower'} triangle of a row x col "
        "matrix, row by row",
        checks=NO_CHECKS,
        category="creation",
        batch=None,
        inplace=None,
        pure=False,
        parser=None,
    )(indices)


_triangle_indices("tril_indices", False)
_triangle_indices("triu_indices", True)


# ------------------------------------------------------------ composites of indexing


@register(
    "repeat_interleave",
    "repeat_interleave(input, repeats, dim=None)",
    "each element repeated `repeats` times (an int, or a tensor of counts along dim); "
    "no dim: of the flattened input",
    method=True,
    checks=[((M, 2), {}), ((M, 2), {"dim": 1}), ((M, [1, 2]), {"dim": 0})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    if repeats is None:  # torch.repeat_interleave(counts): each index, counts[i] times
        counts = tensor_arg(input).data
        return Tensor(np.repeat(np.arange(len(counts), dtype=np.int64), counts))
    x = tensor_arg(input)
    if dim is None:
        x = _f("flatten")(x)
        d = 0
    else:
        if x.data.ndim == 0 and isinstance(repeats, Tensor):
            one_dim(dim, 0)  # ATen sizes the scalar's dim for the counts: PyTorch's error
        d = (norm_dims(dim, x.data.ndim) or (0,))[0]  # (a 0-d tensor's one place: 0)
    if isinstance(repeats, int) and not isinstance(repeats, bool):
        if repeats < 0:
            raise GradRuntimeError("Repeats can not be negative")
        shape = list(x.data.shape)
        u = _f("unsqueeze")(x, d + 1)
        expand = list(u.data.shape)
        expand[d + 1] = repeats
        shape[d] *= repeats
        return _f("view")(_f("contiguous")(_f("expand")(u, *expand)), tuple(shape))
    counts = tensor_arg(repeats)
    if counts.data.ndim == 0 or counts.data.size == 1:
        # one count for every place along dim: still an index_select, as in ATen
        counts = Tensor(np.broadcast_to(counts.data.reshape(1), (x.data.shape[d],)))
    if counts.data.shape[0] != x.data.shape[d]:
        raise GradRuntimeError(
            "repeats must have the same size as input along dim, but got "
            f"repeats.size(0) = {counts.data.shape[0]} and input.size({d}) = {x.data.shape[d]}"
        )
    where = np.repeat(np.arange(len(counts.data), dtype=np.int64), counts.data)
    return _f("index_select")(x, d, Tensor(where))


@register(
    "take_along_dim",
    "take_along_dim(input, indices, dim=None)",
    "the values at indices along dim (input and indices broadcast but for dim); no dim: "
    "of the flattened input",
    method=True,
    checks=[((M, [[0, 2], [1, 1]]), {"dim": 1}), ((M, [0, 5]), {})],
    category="indexing",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def take_along_dim(input, indices, dim=None):
    x, idx = tensor_arg(input), tensor_arg(indices)
    if dim is None:
        return _f("gather")(_f("view")(x, (-1,)), 0, _f("view")(idx, (-1,)))
    d = one_dim(dim, x.data.ndim)
    sizes = list(x.data.shape)
    sizes[d] = idx.data.shape[d]
    idx = _f("expand")(idx, *np.broadcast_shapes(tuple(sizes), idx.data.shape))
    sizes = list(idx.data.shape)
    sizes[d] = x.data.shape[d]
    x = _f("expand")(x, *np.broadcast_shapes(tuple(sizes), x.data.shape))
    return _f("gather")(x, d, idx)


@register(
    "isclose",
    "isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)",
    "element-wise |input - other| <= atol + rtol * |other| (equal values, infinities "
    "included, are close)",
    method=True,
    checks=NO_CHECKS,
    category="compare",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = tensor_arg(input).data, tensor_arg(other).data
    if a.dtype != b.dtype:
        raise GradRuntimeError(
            f"{_DT.get(a.dtype.name, a.dtype.name)} did not match {_DT.get(b.dtype.name, b.dtype.name)}"
        )
    with np.errstate(all="ignore"):
        return Tensor(np.asarray(np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


_DT = {"float32": "Float", "float64": "Double", "int64": "Long", "int32": "Int", "bool": "Bool"}


@register(
    "unique",
    "unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None)",
    "the distinct values in ascending order (with the index of each input value among "
    "them, and how often each occurs)",
    method=True,
    checks=NO_CHECKS,
    category="indexing",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    x = tensor_arg(input).data
    axis = None if dim is None else one_dim(dim, x.ndim)
    values, inverse, counts = np.unique(x, return_inverse=True, return_counts=True, axis=axis)
    out = [Tensor(np.ascontiguousarray(values))]
    if return_inverse:
        out.append(Tensor(inverse.reshape(x.shape if axis is None else -1).astype(np.int64)))
    if return_counts:
        out.append(Tensor(counts.astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


def _searchsorted(seq, x, right, out_int32, sorter=None):
    s = tensor_arg(seq).data
    scalar = not isinstance(x, Tensor)
    v = np.asarray(x) if scalar else x.data
    side = "right" if right else "left"
    if s.ndim <= 1:
        out = np.searchsorted(s, v, side=side, sorter=sorter)
    else:
        if s.shape[:-1] != v.shape[:-1]:
            raise GradRuntimeError(
                "torch.searchsorted(): boundaries tensor should be 1 dimension or the first "
                "N-1 dimensions of boundaries tensor and input value tensor must match, but we "
                f"got boundaries tensor {list(s.shape)} and input value tensor {list(v.shape)}"
            )
        rows_s, rows_v = s.reshape(-1, s.shape[-1]), v.reshape(-1, v.shape[-1])
        out = np.stack([np.searchsorted(a, b, side=side) for a, b in zip(rows_s, rows_v)])
        out = out.reshape(v.shape)
    return Tensor(np.asarray(out, dtype=np.int32 if out_int32 else np.int64))


@register(
    "searchsorted",
    "searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None)",
    "where each value of input would go in the sorted innermost dim of sorted_sequence",
    checks=NO_CHECKS,
    category="indexing",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    if side is not None:
        right = side == "right"
    order = None if sorter is None else tensor_arg(sorter).data
    return _searchsorted(sorted_sequence, input, right, out_int32, order)


@register(
    "bucketize",
    "bucketize(input, boundaries, *, out_int32=False, right=False)",
    "the index of the bucket of each value: boundaries[i-1] < x <= boundaries[i] "
    "(right=True: boundaries[i-1] <= x < boundaries[i])",
    method=True,
    checks=NO_CHECKS,
    category="indexing",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def bucketize(input, boundaries, *, out_int32=False, right=False):
    b = tensor_arg(boundaries)
    if b.data.ndim != 1:
        raise GradRuntimeError(f"boundaries tensor must be 1 dimension, but got dim({b.data.ndim})")
    return _searchsorted(b, input, right, out_int32)


@register(
    "bincount",
    "bincount(input, weights=None, minlength=0)",
    "how often each non-negative int occurs (the sum of its weights, with weights)",
    method=True,
    checks=NO_CHECKS,
    category="reduction",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def bincount(input, weights=None, minlength=0):
    x = tensor_arg(input).data
    if x.ndim != 1 or x.dtype.kind not in "iub":
        raise GradRuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if x.size and x.min() < 0:
        raise GradRuntimeError("bincount only supports 1-d non-negative integral inputs.")
    n = max(int(x.max()) + 1 if x.size else 0, int(minlength))
    if weights is None:
        return Tensor(np.bincount(x, minlength=n).astype(np.int64))
    w = tensor_arg(weights).data
    dt = np.float32 if w.dtype == np.float32 else np.float64
    out = np.zeros(n, dt)
    np.add.at(out, x, w.astype(dt))  # one value after another, in the weights' precision
    return Tensor(out)


@register(
    "kron",
    "kron(input, other)",
    "Kronecker product: every element of input times the whole of other, in blocks",
    method=True,
    checks=[((M, Arg((2, 2))), {}), ((V, M), {})],
    category="linalg",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def kron(input, other):
    # ATen: both viewed with interleaved size-1 dims (_unsafe_view), multiplied, and the
    # product viewed as the result's shape (UnsafeViewBackward0 over MulBackward0)
    for t, what, pos in ((input, "input", 1), (other, "other", 2)):
        if not isinstance(t, Tensor):
            raise GradTypeError(
                f"kron(): argument '{what}' (position {pos}) must be Tensor, not {type_name(t)}"
            )
    sa, sb = input.data.shape, other.data.shape
    nd = max(len(sa), len(sb))
    sa, sb = (1,) * (nd - len(sa)) + sa, (1,) * (nd - len(sb)) + sb
    a_shape = tuple(x for n in sa for x in (n, 1))
    b_shape = tuple(x for n in sb for x in (1, n))
    product = _f("mul")(
        UnsafeView.apply(input, shape=a_shape), UnsafeView.apply(other, shape=b_shape)
    )
    shape = tuple(m * n for m, n in zip(sa, sb))
    arr = product.data  # laid out as TensorIterator lays out the product of its inputs
    if not (arr.flags.c_contiguous or arr.size <= 1 or _viewable(arr, shape)):
        raise GradRuntimeError(  # (_unsafe_view views: it cannot where a copy is needed)
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        )
    return UnsafeView.apply(product, shape=shape)


@register(
    "cartesian_prod",
    "cartesian_prod(*tensors)",
    "every combination of the 1-D tensors' elements, one per row (itertools.product)",
    checks=[((V, Arg((2,))), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def cartesian_prod(*tensors):
    # ATen: meshgrid(tensors, "ij"), each grid flattened, stacked along dim 1
    ts = [tensor_arg(t) for t in tensors]
    for t in ts:
        if t.data.ndim != 1:
            raise GradRuntimeError(
                f"Expect a 1D vector, but got shape [{', '.join(map(str, t.data.shape))}]"
            )
    if len(ts) == 1:
        return ts[0]
    grids = _f("meshgrid")(*ts, indexing="ij")
    return _f("stack")([_f("flatten")(g) for g in grids], 1)
