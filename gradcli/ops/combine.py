"""Tensors joined, split, flipped and masked: cat, stack, split, chunk, flip,
masked_fill (a family after `shape`)."""

from __future__ import annotations


import numpy as np

from ..engine.declare import none
from ..engine.saved import given, saved_shown
from ..core import dtypes
from ..engine.function import Function
from ..engine.forward import linear
from ..core.convert import tensor_arg
from ..runtime.errors import (
    GradRuntimeError,
    GradTypeError,
    GradValueError,
    ShapeError,
)
from ..runtime.limits import check_alloc
from ..core.tensor import Tensor
from .registry import FUNCTIONS, Arg, Parser, internal, register, tensor_f
from ..runtime import context
from .dims import norm_dims
from ..runtime.limits import check_objects
from ..runtime.errors import broadcast_error

M = Arg((2, 3))
from .indexing import _int_or_none, _node_class, index
from .shape import to


def _laid_out(out, first):
    """cat's and stack's result as torch lays it out: contiguous, unless the first input is
    4-d or 5-d and channels last, whose layout torch keeps (NumPy keeps any input layout)."""
    if out.flags.c_contiguous:
        return out
    if first.ndim in (4, 5):
        order = sorted(range(first.ndim), key=lambda d: -first.strides[d])
        if order == [0, *range(2, first.ndim), 1]:  # channels last
            return out
    return np.ascontiguousarray(out)


class Cat(Function):
    __slots__ = ("axis", "sizes", "dim")
    name = "CatBackward0"
    saved_names = ()
    saved_extra = {"dim": saved_shown("dim")}

    def formula(self, S, *xs):
        if any(x is None for x in xs):
            raise S.Unsupported("a constant piece")
        return np.concatenate([S.obj(x) for x in xs], self.axis)

    def forward(self, *xs, axis, dim=None):
        self.axis, self.dim = axis, axis if dim is None else dim  # (the dim as given)
        self.sizes = [a.shape[axis] for a in xs]
        return _laid_out(np.concatenate(xs, axis), xs[0])

    def backward(self, g, F):
        return tuple(F.split(g, self.sizes, self.axis))

    jvp = linear


class Stack(Function):
    __slots__ = ("axis", "dim")
    name = "StackBackward0"
    saved_names = ()
    saved_extra = {"dim": saved_shown("dim")}

    def formula(self, S, *xs):
        if any(x is None for x in xs):
            raise S.Unsupported("a constant piece")
        return np.stack([S.obj(x) for x in xs], self.axis)

    def forward(self, *xs, axis, dim=None):
        self.axis, self.dim = axis, axis if dim is None else dim  # (the dim as given)
        return _laid_out(np.stack(xs, axis), xs[0])

    def backward(self, g, F):
        n = (g.data if F.tensor_mode else g).shape[self.axis]
        return tuple(F.take(g, (slice(None),) * self.axis + (i,)) for i in range(n))

    jvp = linear


def _tensor_list(tensors, what):
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise GradTypeError(f"{what}(): argument 'tensors' must be a tuple or list of tensors")
    if not tensors:  # PyTorch's words: cat's Python check, stack's ATen one
        if what == "cat":
            raise GradValueError("torch.cat(): expected a non-empty list of Tensors")
        raise GradRuntimeError(f"{what} expects a non-empty TensorList")
    ts = [tensor_arg(t) for t in tensors]
    dt = dtypes.result_type(*ts)
    return [t if t.data.dtype == dt else to(t, dt) for t in ts]


@register(
    "cat",
    "cat(tensors, dim=0)",
    "join tensors along an existing dim",
    checks=[(([Arg((2, 3)), Arg((1, 3))],), {}), (([Arg((2, 1)), Arg((2, 2))],), {"dim": 1})],
    category="shape",
    aliases=("concat", "concatenate"),
    batch="join",
    inplace=None,
    pure=True,
    parser=None,
)
def cat(tensors, dim=0):
    ts = _tensor_list(tensors, "cat")
    for k, t in enumerate(ts):
        if t.data.ndim == 0:
            raise GradRuntimeError(
                f"zero-dimensional tensor (at position {k}) cannot be concatenated"
            )
    nd = ts[0].data.ndim
    (axis,) = norm_dims(dim, nd) or (0,)
    for k, t in enumerate(ts):
        if t.data.ndim != nd:
            raise ShapeError(
                f"Tensors must have same number of dimensions: got {nd} and {t.data.ndim}"
            )
        for i, (a, b) in enumerate(zip(ts[0].data.shape, t.data.shape)):
            if i != axis and a != b:
                raise ShapeError(
                    f"Sizes of tensors must match except in dimension {axis}. Expected size {a} "
                    f"but got size {b} for tensor number {k} in the list."
                )
    check_alloc((sum(t.data.size for t in ts),), ts[0].data.dtype.itemsize)
    return Cat.apply(*ts, axis=axis, dim=given(dim, axis))


@tensor_f("concat")
def _concat_t(gs, axis):
    return cat(list(gs), axis)


@tensor_f("split")
def _split_t(g, sizes, axis):
    out, start = [], 0
    for n in sizes:
        out.append(index(g, (slice(None),) * axis + (slice(start, start + n),)))
        start += n
    return out


@register(
    "stack",
    "stack(tensors, dim=0)",
    "join tensors along a new dim",
    checks=[(([Arg((2, 3)), Arg((2, 3))],), {}), (([Arg((3,)), Arg((3,))],), {"dim": 1})],
    category="shape",
    batch="join",
    inplace=None,
    pure=True,
    parser=None,
)
def stack(tensors, dim=0):
    ts = _tensor_list(tensors, "stack")
    s = ts[0].data.shape
    for i, t in enumerate(ts):
        if t.data.shape != s:
            raise ShapeError(
                f"stack expects each tensor to be equal size, but got {list(s)} at "
                f"entry 0 and {list(t.data.shape)} at entry {i}"
            )
    (axis,) = norm_dims(dim, len(s) + 1)
    check_alloc((len(ts),) + s, ts[0].data.dtype.itemsize)
    return Stack.apply(*ts, axis=axis, dim=given(dim, axis))


class Flip(Function):
    __slots__ = ("axes",)
    name = "FlipBackward0"
    saved_names = ()
    saved_extra = {"dims": saved_shown("axes")}

    def formula(self, S, x):
        return np.flip(S.obj(x), self.axes).copy()

    def forward(self, x, axes):
        self.axes = axes
        return np.flip(x, axes).copy()

    def backward(self, g, F):
        return (F.flip(g, self.axes),)

    jvp = linear


@register(
    "flip",
    "flip(input, dims)",
    "the order of elements reversed along dims",
    method=True,
    checks=[((M,), {"dims": 0}), ((M,), {"dims": (0, 1)})],
    category="shape",
    batch="flip",
    inplace=None,
    pure=False,
    parser=Parser(("dims",)),
)
@tensor_f("flip")
def flip(x, dims):
    x = tensor_arg(x)
    axes = norm_dims(dims, x.data.ndim)
    return Flip.apply(x, axes=axes)


class MaskedFill(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ("mask",)
    name = "MaskedFillBackward0"
    holds_saved = True  # (its mask: a second backward fails, as in PyTorch)
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def forward(self, x, mask, value):
        self.mask = mask
        return np.where(mask, np.asarray(value).astype(x.dtype), x)

    def backward(self, g, F):
        if F.tensor_mode:  # PyTorch's grad.masked_fill(mask, 0): MaskedFillBackward0
            return (MaskedFill.apply(g, mask=self.mask, value=0.0),)
        return (F.where(self.mask, 0.0, g),)

    def jvp(self, ts, F):
        return F.where(self.mask, 0.0, ts[0])


@register(
    "masked_fill",
    "masked_fill(input, mask, value)",
    "input with value where mask is true",
    method=True,
    checks=[((M, [[True, False, True], [False, False, True]], 0.5), {})],
    category="shape",
    batch="elementwise",
    inplace="masked_fill_",
    pure=False,
    parser=Parser(overloaded=True),
)
def masked_fill(x, mask, value):
    x, m = tensor_arg(x), tensor_arg(mask)
    if m.data.dtype.kind != "b":
        c_name = {
            "int64": "long int",
            "int32": "int",
            "float64": "double",
            "float32": "float",
            "uint8": "unsigned char",
        }.get(m.data.dtype.name, m.data.dtype.name)
        raise GradRuntimeError(
            f"masked_fill_ only supports boolean masks, but got mask with dtype {c_name}"
        )
    if isinstance(value, Tensor):
        if value.data.ndim:
            raise GradRuntimeError(
                "masked_fill_ only supports a 0-dimensional value tensor, but "
                f"got tensor with {value.data.ndim} dimension(s)."
            )
    try:
        shape = np.broadcast_shapes(m.data.shape, x.data.shape)
    except ValueError:
        shape = None
    if shape != x.data.shape:
        raise broadcast_error(x.data.shape, m.data.shape)
    if isinstance(value, Tensor):  # PyTorch's masked_fill.Tensor: value differentiable too
        return MaskedFillTensor.apply(x, value, mask=np.broadcast_to(m.data, x.data.shape))
    return MaskedFill.apply(x, mask=np.broadcast_to(m.data, x.data.shape), value=value)


class MaskedFillTensor(Function):
    """masked_fill with a 0-d tensor value (MaskedFillBackward1): value gets the sum of
    the gradient where mask is true."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ("mask",)
    name = "MaskedFillBackward1"
    holds_saved = True  # (its mask: a second backward fails, as in PyTorch)
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def forward(self, x, value, mask):
        self.mask = mask
        return np.where(mask, np.asarray(value).astype(x.dtype), x)

    def backward(self, g, F):
        n = self.needs
        return (
            F.where(self.mask, 0.0, g) if n[0] else None,
            F.where(self.mask, g, 0.0).sum() if n[1] else None,
        )

    def jvp(self, ts, F):
        tx, tv = ts
        return F.where(self.mask, 0.0 if tv is None else tv, 0.0 if tx is None else tx)


@register(
    "split",
    "split(input, split_size_or_sections, dim=0)",
    "pieces of split_size (the last smaller), or of the given sizes, along dim",
    method=True,
    checks=[((Arg((5, 3)), 2), {}), ((Arg((5, 3)), [1, 4]), {}), ((Arg((2, 4)), 3), {"dim": 1})],
    category="shape",
    batch="pieces",
    inplace=None,
    pure=False,
    parser=None,
)
def split(x, split_size_or_sections, dim=0):
    x = tensor_arg(x)
    if x.data.ndim == 0:
        raise GradRuntimeError("split expects at least a 1-dimensional tensor")
    (axis,) = norm_dims(dim, x.data.ndim)
    n = x.data.shape[axis]
    s = split_size_or_sections
    if isinstance(s, (list, tuple)):
        sizes = [_int_or_none(v) for v in s]
        if sum(sizes) != n or min(sizes, default=0) < 0:
            raise GradRuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {n} "
                f"(input tensor's size at dimension {dim}), but got "
                f"split_sizes={sizes}"
            )
        name = "SplitWithSizesBackward0"
    else:
        size = _int_or_none(s)
        if size is None or size < 0 or size == 0 and n:
            raise GradRuntimeError(
                f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}"
                if size == 0
                else f"split expects split_size be non-negative, but got split_size={size}"
            )
        sizes = [size] * (n // size) + ([n % size] if n % size else []) if n else [0]
        name = "SplitBackward0"
    check_objects(len(sizes), "splitting this tensor", 300)
    given = (dim, tuple(sizes) if isinstance(s, (list, tuple)) else size)
    return _pieces(x, axis, sizes, _node_class(name, True), given, range(len(sizes)))


def _pieces(x, axis, sizes, cls, given, which):
    """The pieces numbered in `which` of x cut along `axis` into `sizes`, each its own
    node of class `cls` (split's and chunk's view of one piece)."""
    lead, starts = (slice(None),) * axis, [0]
    for k in sizes:
        starts.append(starts[-1] + k)
    return tuple(
        cls.apply(x, key=lead + (slice(starts[i], starts[i + 1]),), adv=False, given=given)
        for i in which
    )


@internal("chunk_pieces")
def chunk_pieces(x, chunks, dim, which):
    """`chunk(x, chunks, dim)`'s pieces numbered in `which` alone, the same views with the
    same nodes (SplitBackward0): for a caller that uses only some of the pieces (a GRU
    cell's step), the others are not made.  Its chunks divide x's size evenly."""
    axis = dim % x.data.ndim
    size = int(x.data.shape[axis]) // chunks
    return _pieces(
        x, axis, [size] * chunks, _node_class("SplitBackward0", True), (dim, size), which
    )


@register(
    "chunk",
    "chunk(input, chunks, dim=0)",
    "at most `chunks` pieces of equal size (the last smaller) along dim",
    method=True,
    checks=[((Arg((5, 3)), 2), {}), ((Arg((2, 4)), 2), {"dim": 1})],
    category="shape",
    batch="pieces",
    inplace=None,
    pure=False,
    parser=Parser(("chunks",)),
)
def chunk(x, chunks, dim=0):
    x = tensor_arg(x)
    chunks = _int_or_none(chunks)
    if chunks is None or chunks <= 0:
        raise GradRuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    if x.data.ndim == 0:
        raise GradRuntimeError("chunk expects at least a 1-dimensional tensor")
    (axis,) = norm_dims(dim, x.data.ndim)
    n = x.data.shape[axis]
    return split(x, max(-(-n // chunks), 1) if n else 1, dim)


@register(
    "meshgrid",
    "meshgrid(*tensors, indexing=None)",
    "coordinate grids: each 0-D or 1-D tensor viewed along its own dim and expanded",
    checks=[
        ((Arg((3,)), Arg((2,))), {"indexing": "ij"}),
        ((Arg((3,)), Arg((2,))), {"indexing": "xy"}),
    ],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def meshgrid(*tensors, indexing=None):
    """ATen's meshgrid: tensor i viewed with -1 at dim i and 1 elsewhere, then expanded
    to every tensor's length (ExpandBackward0 views); "xy" swaps the first two inputs and
    the first two grids.  Without `indexing`, "ij" and PyTorch's warning."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise GradTypeError(
                f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}"
            )
    if indexing is None:
        context.warn(
            "torch.meshgrid: in an upcoming release, it will be required to pass the "
            "indexing argument."
        )
        indexing = "ij"
    if not tensors:
        raise GradRuntimeError("meshgrid expects a non-empty TensorList")
    if indexing not in ("xy", "ij"):
        raise GradRuntimeError(
            f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}'
        )
    if any(t.data.dtype != tensors[0].data.dtype for t in tensors):
        raise GradRuntimeError("meshgrid expects all tensors to have the same dtype")
    ts = list(tensors)
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    for t in ts:
        if t.data.ndim > 1:
            raise GradRuntimeError(
                "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: "
                f"a {t.data.ndim}-D tensor"
            )
    shape = [t.data.size for t in ts]
    check_alloc(tuple(shape), ts[0].data.dtype.itemsize)
    grids = []
    for i, t in enumerate(ts):
        view = [1] * len(ts)
        view[i] = -1
        grids.append(FUNCTIONS["expand"](FUNCTIONS["view"](t, *view), *shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)
