"""Index ops with an index tensor, as PyTorch 2.13 has them: `index_select(input, dim,
index)` (IndexSelectBackward0), `gather(input, dim, index)` (GatherBackward0), the
out-of-place `scatter(input, dim, index, src | value)` (ScatterBackward0/1) and
`scatter_add(input, dim, index, src)` (ScatterAddBackward0), with PyTorch's checks and
words.  Their gradients are each other, as in derivatives.yaml: index_select's is
zeros.index_add(dim, index, g) (IndexAddBackward0 under create_graph, whose own
gradient is index_select again), gather's is zeros.scatter_add(dim, index, g), and
scatter's and scatter_add's gradient of src is g.gather(dim, index).  Every op here is
linear in its tensors, so each JVP is the op on the tangents.

Where PyTorch's loops add or write into one place more than once (index_add,
scatter_add, scatter with repeated indices), the NumPy calls here visit the index in
the same order (`_order`), so sums of repeated indices are added in PyTorch's order,
the last write wins as in PyTorch, and a bad index reported is the first it meets."""

from __future__ import annotations

import numpy as np

from ..engine.declare import none
from ..runtime.errors import GradIndexError, GradRuntimeError, GradTypeError
from ..core.tensor import Tensor, type_name
from ..engine.function import Function
from ..engine.forward import linear
from .dims import norm_dims
from .tensor_args import int_arg
from .registry import Arg, register

M = Arg((3, 4))


def _tensor(v, op, what, pos):
    if not isinstance(v, Tensor):
        raise GradTypeError(
            f"{op}(): argument '{what}' (position {pos}) must be Tensor, not "
            f"{'NoneType' if v is None else type_name(v)}"
        )
    return v


def _dim(dim, ndim, op, pos=2):
    d = norm_dims(int_arg(op, dim, "dim", pos), ndim)
    return d[0] if d else 0


def _index_tensor(node):
    return Tensor(node.index.astype(np.int64))


#: grad_fn._saved_<name> of the nodes here, as torch 2.13 names them
_DIM_INDEX = {"dim": lambda node: node.axis, "index": _index_tensor}


# ---------------------------------------------------------------- index_select


def _index_add(g, shape, axis, index):
    """zeros(shape).index_add(axis, index, g): repeated indices add, in index order."""
    out = np.zeros(shape, dtype=g.dtype)
    if not shape:  # a 0-d input: every index is 0
        out[...] = np.sum(g) if g.ndim else g
        return out
    moved = np.moveaxis(out, axis, 0)  # a view: index_add adds slices along axis
    np.add.at(moved, index, np.moveaxis(g, axis, 0))
    return out


def _select(x, axis, index):
    if x.ndim == 0:
        return x.copy()
    return np.take(x, index, axis=axis)


class IndexSelect(Function):
    __slots__ = ("shape", "axis", "index")
    name = "IndexSelectBackward0"
    holds_saved = True  # (its indices: a second backward fails, as in PyTorch)
    saved_names = none("PyTorch's names of its saved values are not recorded")
    saved_extra = {**_DIM_INDEX, "self_sym_sizes": lambda node: tuple(node.shape)}

    def formula(self, S, x, *_):
        """The elements the index picks: shown as index_select(x) with its Jacobian."""
        return S.named(_select(S.obj(x), self.axis, self.index))

    def forward(self, x, axis, index):
        self.shape, self.axis, self.index = x.shape, axis, index
        return _select(x, axis, index)

    def backward(self, g, F):
        if F.tensor_mode:
            return (IndexAdd.apply(None, g, shape=self.shape, axis=self.axis, index=self.index),)
        return (_index_add(g, self.shape, self.axis, self.index),)

    jvp = linear


class IndexAdd(Function):
    """zeros.index_add(dim, index, g): index_select's gradient under create_graph (the
    zeros are PyTorch's `self`, which needs no gradient: next_functions[0] is None)."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ("axis", "index", "source_dim")
    name = "IndexAddBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")
    saved_extra = {
        **_DIM_INDEX,
        "alpha": lambda node: 1,
        "source_dim": lambda node: node.source_dim,
    }

    def forward(self, zeros, g, shape, axis, index):
        self.axis, self.index, self.source_dim = axis, index, g.ndim
        return _index_add(g, shape, axis, index)

    def backward(self, gg, F):
        if F.tensor_mode:
            return (None, IndexSelect.apply(gg, axis=self.axis, index=self.index))
        return (None, _select(gg, self.axis, self.index))

    jvp = linear


@register(
    "index_select",
    "index_select(input, dim, index)",
    "the slices of input at the positions `index` (a 1-D int64 tensor) along dim",
    method=True,
    checks=[
        ((M, 1, Tensor(np.array([2, 0, 2]))), {}),
        ((M, 0, Tensor(np.array([1]))), {}),
        ((M, -1, Tensor(np.array(3))), {}),
    ],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def index_select(input, dim, index):
    x = _tensor(input, "index_select", "input", 1)
    d = _dim(dim, x.data.ndim, "index_select")
    idx = _tensor(index, "index_select", "index", 3).data
    if idx.dtype not in (np.int64, np.int32):
        raise GradRuntimeError("index_select(): Expected dtype int32 or int64 for index")
    if idx.ndim > 1:
        raise GradIndexError("index_select(): Index is supposed to be a vector")
    idx = idx.reshape(-1).astype(np.intp)
    if x.data.ndim == 0:
        if idx.size != 1:
            raise GradRuntimeError(
                f"index_select(): Index to scalar can have only 1 value, got {idx.size} value(s)"
            )
        if idx[0] != 0:
            raise GradIndexError("index out of range in self")
    else:
        n = x.data.shape[d]
        bad = idx[(idx < 0) | (idx >= n)]
        if n == 0 and idx.size and x.data.ndim > 1 and not x.data.size:
            raise GradRuntimeError("index_select(): self indexing axis dim should be positive")
        if bad.size:
            # PyTorch's CPU kernel checks an empty input's and dim 1 apart, in other words
            if d != 1 and (x.data.ndim == 1 or x.data.size):
                raise GradIndexError("index out of range in self")
            raise GradRuntimeError(
                f"INDICES element is out of DATA bounds, id={int(bad[0])} axis_dim={n}"
            )
    return IndexSelect.apply(x, axis=d, index=idx)


# ---------------------------------------------------------------- gather / scatter


def _strides(shape):
    out, step = [], 1
    for n in reversed(shape):
        out.append(step)
        step *= n
    return out[::-1]


def _order(shape, axis, shapes):
    """The flat (C-order) positions of an index of `shape` in the order ATen's
    scatter/gather kernel visits them, its operands (self, index, src) being contiguous
    tensors of `shapes`.  Along `axis` innermost when it is the last dim; otherwise
    TensorIterator's loop over the other dims runs its innermost (coalesced) run of dims
    as one chunk, and the kernel loops over `axis` outside that chunk."""
    nd = len(shape)
    flat = np.arange(int(np.prod(shape)), dtype=np.intp).reshape(shape)
    if axis == nd - 1 or nd < 2:
        return flat.reshape(-1)
    others = [d for d in range(nd) if d != axis]
    strides = [_strides(sh) for sh in shapes]
    chunk = [others[-1]]
    size, step = shape[others[-1]], [st[others[-1]] for st in strides]
    for d in reversed(others[:-1]):
        if shape[d] == 1:
            chunk.insert(0, d)
        elif size == 1:
            chunk.insert(0, d)
            size, step = shape[d], [st[d] for st in strides]
        elif all(st[d] == size * s0 for st, s0 in zip(strides, step)):
            chunk.insert(0, d)
            size *= shape[d]
        else:
            break
    outer = [d for d in others if d not in chunk]
    return flat.transpose(outer + [axis] + chunk).reshape(-1)


def _places(index, axis, order):
    """The full NumPy index (one flat array per dim) of the places `index` (at least
    1-D) names along `axis`, in the visiting `order`."""
    grids = list(np.indices(index.shape, sparse=True))
    grids[axis] = index
    return tuple(np.broadcast_to(g, index.shape).reshape(-1)[order] for g in grids)


def _gather(x, axis, index):
    """x.gather(axis, index); a 0-d x or index is a 1-D one of one element (PyTorch)."""
    x1 = x.reshape(1) if x.ndim == 0 else x
    i1 = index.reshape(1) if index.ndim == 0 else index
    flat = np.arange(i1.size)  # the order does not matter here
    return x1[_places(i1, axis, flat)].reshape(index.shape)


def _scatter(base, shape, dtype, axis, index, src, add):
    """A copy of base (None: zeros of shape) with src (a number, or an array at least of
    index's shape) written (`add`: added) at the places `index` names along axis, in
    the order PyTorch's kernel visits them (sums of repeated places in its order, the
    last write winning as in PyTorch)."""
    # (np.array: a 0-d gradient may come as a NumPy scalar, whose copy cannot be written)
    out = np.zeros(shape, dtype=dtype) if base is None else np.array(base)
    o1 = out.reshape(1) if out.ndim == 0 else out  # a view of out
    i1 = index.reshape(1) if index.ndim == 0 else index
    scalar = np.ndim(src) == 0
    s1 = None if scalar else (src.reshape(1) if src.ndim == 0 else src)
    shapes = [o1.shape, i1.shape] + ([] if scalar else [s1.shape])
    order = _order(i1.shape, axis, shapes)
    places = _places(i1, axis, order)
    if scalar:
        vals = np.broadcast_to(np.asarray(src, out.dtype), order.shape)
    else:
        vals = s1[tuple(slice(0, n) for n in i1.shape)].reshape(-1)[order]
    if add:
        np.add.at(o1, places, vals)
    else:
        o1[places] = vals
    return out


class Gather(Function):
    """PyTorch saves self (gather_backward takes it), so changing it in place before
    backward is its version error."""

    __slots__ = ("shape", "axis", "index")
    name = "GatherBackward0"

    def formula(self, S, x, *_):
        """The elements the index picks: shown as gather(x) with its Jacobian."""
        return S.named(_gather(S.obj(x), self.axis, self.index))

    saved_names = ("self",)
    saved_extra = {**_DIM_INDEX, "sparse_grad": lambda node: False}

    def forward(self, x, axis, index):
        self.shape, self.axis, self.index = x.shape, axis, index
        self.save(x)
        return _gather(x, axis, index)

    def backward(self, g, F, x):
        if F.tensor_mode:
            return (ScatterAdd.apply(None, g, shape=self.shape, axis=self.axis, index=self.index),)
        return (_scatter(None, self.shape, g.dtype, self.axis, self.index, g, True),)

    jvp = linear


class ScatterAdd(Function):
    """input.scatter_add(dim, index, src); input None: zeros of `shape` (gather's gradient,
    PyTorch's zeros needing no gradient)."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    holds_saved = True  # (its index: a second backward fails, as in PyTorch)
    __slots__ = ("axis", "index", "src_shape")
    name = "ScatterAddBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")
    add = True
    saved_extra = _DIM_INDEX

    def forward(self, base, src, shape, axis, index):
        self.axis, self.index, self.src_shape = axis, index, src.shape
        return _scatter(base, shape, src.dtype, axis, index, src, self.add)

    def _src_grad(self, g, F):
        if self.index.shape != self.src_shape:  # PyTorch's engine refuses the gather
            raise GradRuntimeError(
                f"Function {self.name} returned an invalid gradient at index 1 - got "
                f"{list(self.index.shape)} but expected shape compatible with "
                f"{list(self.src_shape)}"
            )
        if F.tensor_mode:
            return Gather.apply(g, axis=self.axis, index=self.index)
        return _gather(g, self.axis, self.index)

    def backward(self, g, F):
        return (g if self.needs[0] else None, self._src_grad(g, F) if self.needs[1] else None)

    jvp = linear


class ScatterAddNoSrc(ScatterAdd):
    """scatter_add whose src needs no gradient: PyTorch keeps the index only for src's
    gradient, so a second backward runs."""

    __slots__ = ()
    holds_saved = False


class Scatter(ScatterAdd):
    """input.scatter(dim, index, src): the gradient of input is g with the written
    places zeroed (ScatterBackward1 under create_graph), of src g.gather(dim, index)."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ()
    name = "ScatterBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")
    add = False

    def backward(self, g, F):
        gi = None
        if self.needs[0]:
            gi = (
                ScatterValue.apply(g, axis=self.axis, index=self.index, value=0.0)
                if F.tensor_mode
                else _scatter(g, g.shape, g.dtype, self.axis, self.index, 0.0, False)
            )
        return (gi, self._src_grad(g, F) if self.needs[1] else None)


class ScatterValue(Function):
    """input.scatter(dim, index, value): a number written at the places."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ("axis", "index")
    name = "ScatterBackward1"
    holds_saved = True  # (its index: a second backward fails, as in PyTorch)
    saved_names = none("PyTorch's names of its saved values are not recorded")
    saved_extra = _DIM_INDEX

    def forward(self, x, axis, index, value):
        self.axis, self.index = axis, index
        return _scatter(x, x.shape, x.dtype, axis, index, value, False)

    def backward(self, g, F):
        if F.tensor_mode:
            return (ScatterValue.apply(g, axis=self.axis, index=self.index, value=0.0),)
        return (_scatter(g, g.shape, g.dtype, self.axis, self.index, 0.0, False),)

    def jvp(self, ts, F, *saved):
        return ScatterValue.apply(ts[0], axis=self.axis, index=self.index, value=0.0)


def _index_arg(index, op, what_op, pos=3):
    idx = _tensor(index, op, "index", pos).data
    if idx.dtype not in (np.int64, np.int32):
        raise GradRuntimeError(f"{what_op}(): Expected dtype int32/int64 for index")
    return idx.astype(np.intp)


def _bounds(index, axis, n, shapes):
    """PyTorch's error for the first index out of [0, n) that its kernel meets."""
    bad = index < 0
    bad |= index >= n
    if bad.any():
        order = (
            _order(index.shape, axis, [tuple(sh) for sh in shapes])
            if index.ndim
            else np.zeros(1, np.intp)
        )
        flat = index.reshape(-1)[order]
        first = flat[bad.reshape(-1)[order]][0]
        raise GradRuntimeError(
            f"index {int(first)} is out of bounds for dimension {axis} with size {n}"
        )


def _nd(a):
    return max(a.ndim, 1)


@register(
    "gather",
    "gather(input, dim, index)",
    "the values of input at `index` along dim (index: int64, as many dims as input)",
    method=True,
    checks=[
        ((M, 1, Tensor(np.array([[0, 3, 0], [1, 1, 2]]))), {}),
        ((M, 0, Tensor(np.array([[2, 0, 1, 2], [2, 2, 0, 1]]))), {}),
        ((Arg((4,)), 0, Tensor(np.array([3, 3, 0]))), {}),
    ],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def gather(input, dim, index, *, sparse_grad=False, out=None):
    x = _tensor(input, "gather", "input", 1)
    d = _dim(dim, x.data.ndim, "gather")
    idx = _index_arg(index, "gather", "gather")
    xs = x.data.shape
    if _nd(idx) != _nd(x.data):
        raise GradRuntimeError(
            "Index tensor must have the same number of dimensions as input tensor"
        )
    for i in range(idx.ndim):
        if i != d and idx.ndim == len(xs) and idx.shape[i] > xs[i]:
            raise GradRuntimeError(
                f"Size does not match at dimension {i} expected index {list(idx.shape)} to be "
                f"no larger than self {list(xs)} apart from dimension {d}"
            )
    _bounds(idx, d if idx.ndim else 0, xs[d] if xs else 1, [idx.shape, xs or (1,), idx.shape])
    return Gather.apply(x, axis=d, index=idx)


def _scatter_checks(x, d, idx, src, op):
    xs = x.data.shape
    if _nd(idx) != _nd(x.data):
        raise GradRuntimeError(
            "Index tensor must have the same number of dimensions as self tensor"
        )
    if src is not None and _nd(idx) != _nd(src.data):
        raise GradRuntimeError("Index tensor must have the same number of dimensions as src tensor")
    if src is not None and src.data.dtype != x.data.dtype:
        raise GradRuntimeError(f"{op}(): Expected self.dtype to be equal to src.dtype")
    if idx.ndim and idx.size and len(xs) == idx.ndim:
        too_big = any(i != d and idx.shape[i] > xs[i] for i in range(idx.ndim))
        ss = src.data.shape if src is not None else None
        if src is not None and ss:
            too_big = too_big or any(idx.shape[i] > ss[i] for i in range(idx.ndim))
        if too_big:
            tail = f" and to be no larger size than src {list(ss)}" if src is not None else ""
            raise GradRuntimeError(
                f"Expected index {list(idx.shape)} to be no larger than self "
                f"{list(xs)} apart from dimension {d}{tail}"
            )
    shapes = [xs or (1,), idx.shape] + ([src.data.shape or (1,)] if src is not None else [])
    _bounds(idx, d if idx.ndim else 0, xs[d] if xs else 1, shapes)


@register(
    "scatter",
    "scatter(input, dim, index, src)",
    "a copy of input with src (a tensor, or value=number) written at `index` along dim",
    method=True,
    checks=[
        ((Arg((3, 5)), 1, Tensor(np.array([[0, 4], [2, 1], [3, 0]])), Arg((3, 2))), {}),
        ((Arg((3, 4)), 0, Tensor(np.array([[2, 0, 1, 0]])), 1.5), {}),
    ],
    category="shape",
    batch=None,
    inplace="scatter_",
    pure=False,
    parser=None,
)
def scatter(input, dim, index, src=None, value=None, *, reduce=None):
    x = _tensor(input, "scatter", "input", 1)
    d = _dim(dim, x.data.ndim, "scatter")
    idx = _index_arg(index, "scatter", "scatter")
    if reduce is not None:
        raise GradRuntimeError(
            "scatter(): the reduce argument is not supported by gradcli "
            "(PyTorch deprecates it; use scatter_add)"
        )
    if src is None:
        src = value
    if isinstance(src, Tensor):
        _scatter_checks(x, d, idx, src, "scatter")
        return Scatter.apply(x, src, shape=x.data.shape, axis=d, index=idx)
    if isinstance(src, bool) or not isinstance(src, (int, float)):
        raise GradTypeError(
            f"scatter(): argument 'value' must be Number, not "
            f"{'NoneType' if src is None else type_name(src)}"
        )
    _scatter_checks(x, d, idx, None, "scatter")
    return ScatterValue.apply(x, axis=d, index=idx, value=src)


@register(
    "scatter_add",
    "scatter_add(input, dim, index, src)",
    "a copy of input with src added at `index` along dim (repeated places add up)",
    method=True,
    checks=[
        ((Arg((3, 4)), 1, Tensor(np.array([[0, 0, 3], [1, 2, 1]])), Arg((2, 3))), {}),
        ((Arg((5,)), 0, Tensor(np.array([4, 4, 0, 4])), Arg((4,))), {}),
    ],
    category="shape",
    batch=None,
    inplace="scatter_add_",
    pure=False,
    parser=None,
)
def scatter_add(input, dim, index, src):
    x = _tensor(input, "scatter_add", "input", 1)
    d = _dim(dim, x.data.ndim, "scatter_add")
    idx = _index_arg(index, "scatter_add", "scatter")
    src = _tensor(src, "scatter_add", "src", 3)
    _scatter_checks(x, d, idx, src, "scatter")
    node = ScatterAdd if src.requires_grad else ScatterAddNoSrc
    return node.apply(x, src, shape=x.data.shape, axis=d, index=idx)
