"""Shape ops: reshape view flatten squeeze unsqueeze expand permute (and `.T`), and the
copies and casts: to, clone, alias.  (Indexing is in `indexing`; cat, stack, split, flip
in `combine`.)"""

from __future__ import annotations

import numpy as np

from ..engine.declare import none
from ..engine.saved import given, saved_shape, saved_shown
from ..core import dtypes
from ..engine.function import Function, Untracked
from ..engine.forward import linear
from ..engine.versions import type_word, viewing
from ..core.convert import tensor_arg
from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradTypeError, ShapeError
from ..runtime.limits import check_alloc
from ..core.tensor import Tensor
from .registry import Arg, internal, Parser, register, tensor_f
from ..core.layout import CONTIGUOUS, copy_array, memory_format_arg
from .dims import norm_dims

M = Arg((2, 3))


def size_args(args, what="size"):
    """`f(2, 3)`, `f((2, 3))`, `f([2, 3])` -> (2, 3)."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    out = []
    for a in args:
        if isinstance(a, Tensor) and a.data.size == 1 and a.data.dtype.kind in "iu":
            a = a.item()
        if isinstance(a, bool) or not isinstance(a, int):
            raise GradTypeError(f"{what} must be a sequence of integers, got {a!r}")
        out.append(a)
    return tuple(out)


class View(Function):
    __slots__ = ("shape", "to")
    name = "ViewBackward0"
    saved_names = ()
    saved_extra = {"self_sym_sizes": saved_shape()}

    def forward(self, x, shape):
        self.shape, self.to = x.shape, shape
        return x.reshape(shape)

    def formula(self, S, x):
        return S.obj(x).reshape(self.to)

    def backward(self, g, F):
        return (F.reshape(g, self.shape),)

    jvp = linear


def _resolve_shape(shape, numel, orig):
    if shape.count(-1) > 1:
        raise GradRuntimeError("only one dimension can be inferred")
    known = 1
    for n in shape:
        if n != -1:
            if n < 0:
                raise GradRuntimeError(f"invalid shape dimension {n}")
            known *= n
    if -1 in shape:
        if known == 0 or numel % known:
            raise ShapeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = tuple(numel // known if n == -1 else n for n in shape)
    elif known != numel:
        raise ShapeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


class ReshapeAlias(View):
    __slots__ = ()
    name = "ReshapeAliasBackward0"


class UnsafeView(View):
    __slots__ = ()
    name = "UnsafeViewBackward0"


def _viewable(arr, shape):
    """Whether numpy (like PyTorch) can give this shape without copying."""
    v = arr.view()
    try:
        v.shape = shape
    except AttributeError:
        return False
    return True


@register(
    "reshape",
    "reshape(input, *shape)",
    "the same elements in a new shape (-1: inferred)",
    method=True,
    checks=[((M, 3, 2), {}), ((M, -1), {})],
    category="shape",
    batch="reshape",
    inplace=None,
    pure=True,
    parser=None,
)
@tensor_f("reshape")
@viewing
def reshape(x, *shape):
    x = tensor_arg(x)
    arr = x.data
    return _reshaped(x, _resolve_shape(size_args(shape, "shape"), arr.size, arr.shape))


def _reshaped(x, shape):
    """reshape's graph node for a valid shape (also flatten's, which is a reshape in
    PyTorch): a view when the strides allow one, else a copy viewed (UnsafeViewBackward0)."""
    arr = x.data
    if arr.flags.c_contiguous or arr.size <= 1:
        return View.apply(x, shape=shape)
    if _viewable(arr, shape):
        return ReshapeAlias.apply(x, shape=shape)
    # PyTorch copies (CloneBackward0) and then views the copy (UnsafeViewBackward0)
    return UnsafeView.apply(clone(x, memory_format=CONTIGUOUS), shape=shape)


@register(
    "view",
    "view(input, *shape)",
    "the same elements in a new shape (no copy)",
    method=True,
    function=False,
    checks=[((M, 6), {})],
    category="shape",
    batch="reshape",
    inplace=None,
    pure=True,
    parser=None,
)
@viewing
def view(x, *shape):
    x = tensor_arg(x)
    arr = x.data
    shape = _resolve_shape(size_args(shape, "shape"), arr.size, arr.shape)
    if not (arr.flags.c_contiguous or arr.size <= 1 or _viewable(arr, shape)):
        raise GradRuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        )
    return View.apply(x, shape=shape)


@register(
    "flatten",
    "flatten(input, start_dim=0, end_dim=-1)",
    "merge dims into one",
    method=True,
    checks=[((Arg((2, 3, 2)),), {}), ((Arg((2, 3, 2)),), {"start_dim": 1})],
    category="shape",
    batch="flatten",
    inplace=None,
    pure=True,
    parser=None,
)
@viewing
def flatten(x, start_dim=0, end_dim=-1):
    x = tensor_arg(x)
    s = x.data.shape
    if not s:
        norm_dims(start_dim, 0)  # a scalar's dims are [-1, 0]: PyTorch's range error
        norm_dims(end_dim, 0)
        return View.apply(x, shape=(1,))
    (a,) = norm_dims(start_dim, len(s))
    (b,) = norm_dims(end_dim, len(s))
    if a > b:
        raise GradRuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if a == b:
        return x
    n = int(np.prod(s[a : b + 1]))
    return _reshaped(x, s[:a] + (n,) + s[b + 1 :])


class Squeeze(Function):
    __slots__ = ("shape", "axes", "dim")
    name = "SqueezeBackward0"
    saved_names = ()
    saved_extra = {"self_sym_sizes": saved_shape()}

    def formula(self, S, x, *_):
        x = S.obj(x)
        return np.squeeze(x, axis=self.axes) if self.axes else x

    def forward(self, x, axes, dim=None):
        self.shape, self.axes = x.shape, axes
        self.dim = axes[0] if dim is None and len(axes) == 1 else dim  # as given
        # a view even when nothing is dropped (np.squeeze then gives x itself, which the
        # view bookkeeping would not see as sharing x's storage)
        return np.squeeze(x, axis=axes) if axes else x.view()

    def backward(self, g, F):
        if F.tensor_mode:  # PyTorch's unsqueeze_to: an unsqueeze per dim dropped, in order
            for a in sorted(self.axes):
                g = Unsqueeze.apply(g, axis=a)
            return (g,)
        return (F.reshape(g, self.shape),)

    jvp = linear


class SqueezeDim(Squeeze):
    __slots__ = ()
    name = "SqueezeBackward1"
    saved_extra = {"dim": saved_shown("dim"), **Squeeze.saved_extra}


class SqueezeDims(Squeeze):
    __slots__ = ()
    name = "SqueezeBackward2"
    saved_extra = SqueezeDim.saved_extra


class SqueezeMatmul(Squeeze):
    """The squeeze inside matmul(vector, matrix)."""

    __slots__ = ()
    name = "SqueezeBackward4"
    saved_extra = SqueezeDim.saved_extra


@register(
    "squeeze",
    "squeeze(input, dim=None)",
    "drop dims of size 1",
    method=True,
    checks=[((Arg((2, 1, 3)),), {}), ((Arg((2, 1)),), {"dim": 1})],
    category="shape",
    batch="squeeze",
    inplace=None,
    pure=True,
    parser=None,
)
@viewing
def squeeze(x, dim=None):
    x = tensor_arg(x)
    s = x.data.shape
    if dim is None:
        return Squeeze.apply(x, axes=tuple(i for i, n in enumerate(s) if n == 1))
    axes = norm_dims(dim, len(s))
    cls = SqueezeDims if isinstance(dim, (tuple, list)) else SqueezeDim
    if not s:  # a 0-d tensor: dim 0 (or -1) is its one dim, of size 1
        dim = given(dim, 0) if cls is SqueezeDim else tuple(given(d, 0) for d in dim)
        return cls.apply(x, axes=(), dim=dim)
    dim = (
        given(dim, axes[0]) if cls is SqueezeDim else tuple(given(d, a) for d, a in zip(dim, axes))
    )
    return cls.apply(x, axes=tuple(a for a in axes if s[a] == 1), dim=dim)


class Unsqueeze(Function):
    __slots__ = ("axis", "dim")
    name = "UnsqueezeBackward0"
    saved_names = ()
    saved_extra = {"dim": saved_shown("dim")}

    def forward(self, x, axis, dim=None):
        self.axis, self.dim = axis, axis if dim is None else dim  # (the dim as given)
        return np.expand_dims(x, axis)

    def formula(self, S, x):
        return np.expand_dims(S.obj(x), self.axis)

    def backward(self, g, F):
        if F.tensor_mode:  # PyTorch's squeeze(dim): a gradient of SqueezeBackward1
            return (SqueezeDim.apply(g, axes=(self.axis,)),)
        return (F.reshape(g, g.shape[: self.axis] + g.shape[self.axis + 1 :]),)

    jvp = linear


@register(
    "unsqueeze",
    "unsqueeze(input, dim)",
    "insert a dim of size 1",
    method=True,
    checks=[((Arg((3,)), 0), {}), ((M, -1), {})],
    category="shape",
    batch="unsqueeze",
    inplace=None,
    pure=True,
    parser=Parser(("dim",)),
)
@viewing
def unsqueeze(x, dim):
    x = tensor_arg(x)
    (axis,) = norm_dims(dim, x.data.ndim + 1)
    return Unsqueeze.apply(x, axis=axis, dim=given(dim, axis))


@tensor_f("expand_dims")
def _expand_dims_t(x, axis):
    return unsqueeze(x, axis)


class Expand(Function):
    __slots__ = ("shape", "to")
    name = "ExpandBackward0"
    zeros_through = False  # (PyTorch's kernel materialises efficient zeros)
    saved_names = ()
    saved_extra = {"self_sym_sizes": saved_shape()}

    def forward(self, x, shape):
        self.shape, self.to = x.shape, shape
        return np.broadcast_to(x, shape)

    def formula(self, S, x):
        return np.broadcast_to(S.obj(x), self.to).copy()

    def backward(self, g, F):
        return (F.sum_to(g, self.shape),)

    jvp = linear


def _tensor_type(dt):
    """PyTorch's name of a CPU tensor type in messages: torch.FloatTensor, CPUBoolType."""
    return "CPUBoolType" if dt == np.bool_ else f"torch.{type_word(dt)}Tensor"


@register(
    "expand",
    "expand(input, *sizes)",
    "broadcast to a larger shape (-1 keeps a dim)",
    method=True,
    checks=[((Arg((3, 1)), 3, 4), {}), ((Arg((3,)), 2, 3), {})],
    category="shape",
    batch="expand",
    inplace=None,
    pure=False,
    parser=None,
)
@viewing
def expand(x, *sizes):
    x = tensor_arg(x)
    sizes = size_args(sizes)
    s = x.data.shape
    if len(sizes) < len(s):
        raise ShapeError(
            f"expand({_tensor_type(x.data.dtype)}{{{list(s)}}}, size=[{', '.join(map(str, sizes))}]): the "
            f"number of sizes provided ({len(sizes)}) must be greater or equal to the number of "
            f"dimensions in the tensor ({len(s)})"
        )
    lead = len(sizes) - len(s)
    shape = tuple(s[i - lead] if n == -1 and i >= lead else n for i, n in enumerate(sizes))
    for i in reversed(range(len(s))):  # PyTorch names the last dim that does not fit
        n = s[i]
        if n != 1 and n != shape[i + lead]:
            raise ShapeError(
                f"The expanded size of the tensor ({shape[i + lead]}) must match the existing "
                f"size ({n}) at non-singleton dimension {i + lead}.  Target sizes: "
                f"[{', '.join(map(str, sizes))}].  Tensor sizes: [{', '.join(map(str, s))}]"
            )
    check_alloc(shape)  # a view, but whatever is done with it is this big
    return Expand.apply(x, shape=shape)


@tensor_f("broadcast_to")
def _broadcast_to_t(x, shape):
    if x.data.shape == tuple(shape):
        return x
    return Expand.apply(x, shape=tuple(shape))


@register(
    "expand_as",
    "expand_as(input, other)",
    "expand to other's shape",
    method=True,
    function=False,
    category="shape",
    batch="expand_as",
    inplace=None,
    pure=False,
    checks=none("takes its shape from a second tensor: not sampled yet"),
    parser=None,
)
def expand_as(x, other):
    return expand(x, tensor_arg(other).data.shape)


class Permute(Function):
    __slots__ = ("dims",)
    name = "PermuteBackward0"
    saved_names = ()
    saved_extra = {"dims": saved_shown("dims")}

    def forward(self, x, dims):
        self.dims = dims
        return np.transpose(x, dims)

    def formula(self, S, x):
        return np.transpose(S.obj(x), self.dims)

    def backward(self, g, F):
        return (F.permute_back(g, self.dims),)

    jvp = linear


@register(
    "permute",
    "permute(input, *dims)",
    "reorder dims",
    method=True,
    checks=[((Arg((2, 3, 2)), 2, 0, 1), {})],
    category="shape",
    batch="permute",
    inplace=None,
    pure=True,
    parser=None,
)
@viewing
def permute(x, *dims):
    x = tensor_arg(x)
    dims = size_args(dims, "dims")
    nd = x.data.ndim
    if len(dims) != nd:
        raise GradRuntimeError(
            f"permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {nd} is not equal "
            f"to len(dims) = {len(dims)}"
        )
    dims = tuple(norm_dims(d, nd)[0] if nd else 0 for d in dims)
    if len(set(dims)) != len(dims):
        raise GradRuntimeError("permute(): duplicate dims are not allowed.")
    return Permute.apply(x, dims=dims)


@tensor_f("permute_back")
def _permute_back_t(g, dims):
    return permute(g, *np.argsort(dims).tolist())


@viewing
def numpy_T(x):
    """`.T`: reverse the dims (PermuteBackward0, a view also of a 0-d or 1-d tensor),
    with PyTorch's deprecation warning when x is not a matrix."""
    x = tensor_arg(x)
    nd = x.data.ndim
    if nd != 2:
        context.warn(_T_0D if nd == 0 else _T_ND)
    return Permute.apply(x, dims=tuple(reversed(range(nd))))


_T_0D = "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases."
_T_ND = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
    "deprecated and it will throw an error in a future release. Consider `x.mT` to "
    "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
    "reverse the dimensions of a tensor."
)


# ---------------------------------------------------------------- copies and casts


class ToCopy(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ("dt",)
    name = "ToCopyBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def forward(self, x, dtype):
        self.dt = x.dtype
        return x.astype(dtype)

    def backward(self, g, F):
        return (g.astype(self.dt) if not F.tensor_mode else to(g, self.dt),)

    jvp = linear


class Cast(Untracked):
    """A cast of a tensor that requires grad to an integer or bool dtype: no gradient."""

    __slots__ = ()
    name = "to"  # (never shown: no node is made)

    def forward(self, x, dtype):
        return x.astype(dtype)


@internal("to")
def to(x, dtype, copy=False):
    x = tensor_arg(x)
    dtype = dtypes.as_numpy(dtype)
    if x.data.dtype == dtype and not copy:
        return x
    if x.requires_grad and dtype.kind != "f":
        return Cast.apply(x, dtype=dtype)
    return ToCopy.apply(x, dtype=dtype)


class Clone(Function):
    __slots__ = ()
    name = "CloneBackward0"
    saved_names = ()  # PyTorch saves nothing

    def forward(self, x, memory_format=CONTIGUOUS):
        return copy_array(x, memory_format)

    def formula(self, S, x):
        return x

    def backward(self, g, F):
        return (g,)

    jvp = linear


@register(
    "clone",
    "clone(input, *, memory_format=torch.preserve_format)",
    "a copy (recorded in the graph); by default in input's layout (its strides kept when "
    "it is dense), contiguous with memory_format=torch.contiguous_format",
    method=True,
    checks=[((M,), {})],
    category="shape",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=None,
)
def clone(x, *, memory_format=None):
    fmt = memory_format_arg(memory_format, "clone")
    return Clone.apply(tensor_arg(x), memory_format=fmt)


class Alias(Function):
    __slots__ = ()
    name = "AliasBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def forward(self, x):
        return x

    def formula(self, S, x):
        return x

    def backward(self, g, F):
        return (g,)

    jvp = linear


def alias(x):
    return Alias.apply(tensor_arg(x))
