"""Shape ops: reshape view flatten squeeze unsqueeze expand permute cat stack, indexing,
split chunk flip masked_fill, casts."""

from __future__ import annotations

import math

import numpy as np

from ..engine.declare import none
from ..engine.saved import given, saved_shape, saved_shown
from ..core import dtypes
from ..engine.function import Function
from ..engine.forward import linear
from ..engine.versions import type_word, viewing
from ..core.convert import tensor_arg
from ..runtime import context
from ..runtime.errors import GradIndexError, GradRuntimeError, GradTypeError, ShapeError
from ..runtime.limits import check_alloc
from ..core.tensor import Tensor
from .registry import Arg, internal, Parser, register, tensor_f
from ..core.layout import CONTIGUOUS, copy_array, memory_format_arg
from .index_errors import ZERO_DIM_INT, check_mask
from .dims import norm_dims
from .index_saved import EXTRA as INDEX_SAVED
from .bool_keys import ScalarBoolKey, split_bool_key
from ..runtime.limits import check_objects

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
    pure=False,
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
    pure=False,
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
    pure=False,
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
    pure=False,
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
    pure=False,
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


# ---------------------------------------------------------------- indexing


class _IndexNode(Function):
    __slots__ = ("shape", "key", "adv", "given")
    zeros_through = False  # (PyTorch's kernel materialises efficient zeros)
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def formula(self, S, x, *_):
        """The elements the key picks: shown as a named function (indexing with data)
        with its local Jacobian."""
        x = S.obj(x)
        return S.named(
            x[self.key] if self.adv or Ellipsis in self.key else x[self.key + (Ellipsis,)]
        )

    def forward(self, x, key, adv, given=None):
        # given: (dim, split size or sizes) as unbind/split were called (_saved_*)
        self.shape, self.key, self.adv, self.given = x.shape, key, adv, given
        if adv:
            return x[key]
        # a view of x even for one element (x[0] of a vector), so x[0].zero_() reaches x
        return x[key] if Ellipsis in key else x[key + (Ellipsis,)]

    def backward(self, g, F):
        if F.tensor_mode and self.name == "SliceBackward0":  # narrow, even over a whole dim
            return (_pad_class("SliceBackwardBackward0").apply(g, shape=self.shape, key=self.key),)
        return (F.pad_into(g, self.shape, self.key),)

    jvp = linear


def _node_class(name):
    cls = _NODE_CLASSES.get(name)
    if cls is None:
        # (IndexBackward0 holds its indices: a second backward fails, as in PyTorch)
        attrs = {"__slots__": (), "name": name, "holds_saved": name == "IndexBackward0"}
        if name in INDEX_SAVED:  # (their _saved_* as PyTorch's, from the key)
            attrs.update(saved_names=(), saved_extra=INDEX_SAVED[name])
        cls = _NODE_CLASSES[name] = type(name, (_IndexNode,), attrs)
    return cls


_NODE_CLASSES: dict = {}


def _tensor_type(dt):
    """PyTorch's name of a CPU tensor type in messages: torch.FloatTensor, CPUBoolType."""
    return "CPUBoolType" if dt == np.bool_ else f"torch.{type_word(dt)}Tensor"


def _norm_key(key, shape, get=False):
    """Check an index against `shape`; returns (numpy key, grad_fn name, is_advanced).
    A Python bool: for x[key] raises ScalarBoolKey (ops/bool_keys.py), for x[key] = v
    True is None (a dim of 1) and False NumPy's 0-d mask."""
    single_slice = isinstance(key, slice)
    single = not isinstance(key, tuple)  # (x[k] of a 0-d x has messages of its own)
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    dim = 0
    name = "SliceBackward0" if single_slice else "AliasBackward0"
    advanced = False
    n_real = sum(
        1
        for k in key
        if k is not None and k is not Ellipsis and type(k) is not bool and not _bool_0d(k)
    )
    for pos, k in enumerate(key):
        if k is Ellipsis:
            skip = len(shape) - n_real
            out.append(Ellipsis)
            dim += max(skip, 0)
            continue
        if k is None:
            out.append(None)
            name = "UnsqueezeBackward0"
            continue
        if k is True or k is False:
            if get:
                raise ScalarBoolKey
            out.append(None if k else np.asarray(False))
            advanced = advanced or not k
            continue
        if _bool_0d(k):  # a 0-d mask takes no dim: it adds one, of 1 or 0 (as True/False)
            out.append(k.data)
            advanced = True
            continue
        if dim >= len(shape):
            if not shape and single and type(k) is int:
                raise GradIndexError(
                    ZERO_DIM_INT
                    if k == 0
                    else f"index {k} is out of bounds for dimension 0 with size 0"
                )
            if not shape and single and isinstance(k, slice):
                raise GradIndexError("slice() cannot be applied to a 0-dim tensor.")
            raise GradIndexError(f"too many indices for tensor of dimension {len(shape)}")
        n = shape[dim]
        if isinstance(k, Tensor) and k.data.ndim == 0 and k.data.dtype.kind in "iu":
            k = k.item()
        if isinstance(k, int):
            if not -n <= k < n:
                raise GradIndexError(
                    f"index {k} is out of bounds for dimension {dim} with size {n}"
                )
            out.append(k)
            name = "SelectBackward0"
        elif isinstance(k, slice):
            start, stop, step = (_int_or_none(v) for v in (k.start, k.stop, k.step))
            if step is not None and step <= 0:
                raise GradRuntimeError("step must be greater than zero", type_name="ValueError")
            s = slice(start, stop, step)
            if s.indices(n) != (0, n, 1):
                name = "SliceBackward0"
            out.append(s)
        else:
            arr = k.data if isinstance(k, Tensor) else np.asarray(k)
            if arr.dtype.kind == "f":
                raise GradIndexError(
                    "tensors used as indices must be long, int, byte or bool tensors"
                )
            if arr.dtype.kind in "iu" and arr.size and (arr.max() >= n or arr.min() < -n):
                bad = arr.max() if arr.max() >= n else arr.min()
                raise GradIndexError(
                    f"index {bad} is out of bounds for dimension {dim} with size {n}"
                )
            if arr.dtype.kind == "b" and arr.ndim:
                check_mask(arr.shape, shape, dim, n_real + arr.ndim - 1, key, pos)
            out.append(arr)
            advanced = True
            if arr.dtype.kind == "b":
                dim += arr.ndim - 1
        dim += 1
    if advanced:
        name = "IndexBackward0"
    return tuple(out), name, advanced


def _bool_0d(k):
    return isinstance(k, Tensor) and k.data.ndim == 0 and k.data.dtype == np.bool_


def _int_or_none(v):
    if v is None:
        return None
    if isinstance(v, Tensor):
        v = v.item()
    if isinstance(v, bool) or not isinstance(v, int):
        raise GradTypeError("slice indices must be integers or None")
    return v


@register(
    "index",
    "x[i, j], x[a:b:c], x[:, 1], x[[0, 2]], x[mask]",
    "indexing and slicing, with gradients",
    function=False,
    checks=[
        ((M, (1,)), {}),
        ((M, (slice(None), 1)), {}),
        ((M, (slice(0, None, 2), slice(1, 3))), {}),
        ((M, ([0, 0, 1],)), {}),
    ],
    category="shape",
    batch=None,
    inplace=None,
    pure=True,
    parser=None,
)
@internal("index", batch="index")
@viewing
def index(x, key, given=None):
    """x[key]; `given`: (dim, None) as select() was called (its node's _saved_dim)."""
    x = tensor_arg(x)
    try:
        k, name, adv = _norm_key(key, x.data.shape, True)
    except ScalarBoolKey:  # x[True], x[0, False]: PyTorch's two steps
        basic, advanced = split_bool_key(key, x.data.ndim)
        return index(index(x, basic), advanced)
    if adv:
        _check_index_size(k, x.data.shape, x.data.dtype.itemsize)
    return _node_class(name).apply(x, key=k, adv=adv, given=given)


@viewing
def slice_view(x, key, given=None):
    """x[key] for a key of slices, as PyTorch's slice op makes it (narrow): SliceBackward0
    even where the slices take whole dims (x[:, 0:3] is an AliasBackward0)."""
    k, _, adv = _norm_key(key, x.data.shape, True)
    return _node_class("SliceBackward0").apply(x, key=k, adv=adv, given=given)


def _check_index_size(key, shape, itemsize):
    """Refuse an advanced index whose result is over the memory cap
    (`ones(1, 100000)[zeros(100000, dtype=long)]`), before NumPy makes it."""
    adv, rest, dim = [], 1, 0
    n_real = sum(
        1
        if isinstance(k, (int, slice))
        else k.ndim
        if isinstance(k, np.ndarray) and k.dtype.kind == "b"
        else 1
        for k in key
        if k is not None and k is not Ellipsis
    )
    for k in key:
        if k is None:
            continue
        if k is Ellipsis:
            for n in shape[dim : dim + max(len(shape) - n_real, 0)]:
                rest *= n
            dim += max(len(shape) - n_real, 0)
        elif isinstance(k, slice):
            rest *= len(range(*k.indices(shape[dim]))) if dim < len(shape) else 1
            dim += 1
        elif isinstance(k, np.ndarray):
            if k.dtype.kind == "b":
                adv.append((int(np.count_nonzero(k)),))
                dim += max(k.ndim, 1)
            else:
                adv.append(k.shape)
                dim += 1
        else:
            dim += 1
    for n in shape[dim:]:
        rest *= n
    try:
        n_adv = math.prod(np.broadcast_shapes(*adv)) if adv else 1
    except ValueError:
        return  # NumPy reports the mismatch
    check_alloc((n_adv, rest), itemsize)


@register(
    "unbind",
    "unbind(input, dim=0)",
    "the slices along dim, as a tuple (as `for row in x`)",
    method=True,
    checks=[((M,), {}), ((M,), {"dim": 1})],
    category="shape",
    batch="pieces",
    inplace=None,
    pure=False,
    parser=None,
)
def unbind(x, dim=0):
    x = tensor_arg(x)
    nd = x.data.ndim
    if nd == 0:
        raise GradIndexError("Dimension specified as 0 but tensor has no dimensions")
    (axis,) = norm_dims(dim, nd)
    check_objects(x.data.shape[axis], "unbinding this tensor", 300)
    cls = _node_class("UnbindBackward0")
    lead = (slice(None),) * axis
    given = (dim, None)
    return tuple(
        cls.apply(x, key=lead + (i,), adv=False, given=given) for i in range(x.data.shape[axis])
    )


@tensor_f("take")
def _take_t(g, key):
    return index(g, key)


class PadInto(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ("key",)
    name = "IndexPutBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def forward(self, g, shape, key):
        self.key = key
        out = np.zeros(shape, dtype=g.dtype)
        if any(type(k) is np.ndarray for k in key):
            np.add.at(out, key, g)  # index_put_(accumulate=True): repeated indices add
        else:
            out[key] = g  # slice/select_backward: g copied in (-0.0 stays)
        return out

    def backward(self, gg, F):
        return (F.take(gg, self.key),)

    jvp = linear


def _pad_name(shape, key):
    """PyTorch's name of the op that puts a gradient back where x[key] took it, under
    create_graph: the backward of the first indexing op PyTorch applies for the key
    (the basic ones, left to right, skipping slices that take a whole dim; then the
    advanced ones)."""
    dim, advanced = 0, False
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    for k in key:
        if k is Ellipsis:
            dim += max(len(shape) - n_real, 0)
        elif k is None:
            continue
        elif isinstance(k, slice):
            if k.indices(shape[dim]) != (0, shape[dim], 1):
                return "SliceBackwardBackward0"
            dim += 1
        elif type(k) is np.ndarray:
            advanced = True
            dim += max(k.ndim, 1) if k.dtype.kind == "b" else 1
        else:
            return "SelectBackwardBackward0"
    return "IndexPutImplBackward0" if advanced else PadInto.name


def _pad_class(name):
    cls = _PAD_CLASSES.get(name)
    if cls is None:
        cls = _PAD_CLASSES[name] = type(name, (PadInto,), {"__slots__": (), "name": name})
    return cls


_PAD_CLASSES: dict = {}


@tensor_f("pad_into")
def _pad_into_t(g, shape, key):
    return _pad_class(_pad_name(shape, key)).apply(g, shape=shape, key=key)


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


@internal("to")
def to(x, dtype, copy=False):
    x = tensor_arg(x)
    dtype = dtypes.as_numpy(dtype)
    if x.data.dtype == dtype and not copy:
        return x
    if x.requires_grad and dtype.kind != "f":
        return Tensor(x.data.astype(dtype))
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
