"""Indexing: x[key] (select, slice, advanced indices, masks) and unbind, with the
backward that puts a gradient back where the key took it (PadInto)."""

from __future__ import annotations

import math

import numpy as np

from ..engine.declare import none
from ..engine.function import Function
from ..engine.modes import state as modes
from ..engine.forward import linear
from ..engine.versions import viewing
from ..core.convert import tensor_arg
from ..runtime.errors import GradIndexError, GradRuntimeError, GradTypeError
from ..runtime.limits import check_alloc
from ..core.tensor import Tensor
from .registry import Arg, internal, register, tensor_f
from .index_errors import ZERO_DIM_INT, check_index_tensors, check_mask, out_of_bounds
from .dims import norm_dims
from .index_saved import EXTRA as INDEX_SAVED
from .bool_keys import ScalarBoolKey, split_bool_key
from ..runtime.limits import check_objects


M = Arg((2, 3))


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
            k = key[0]
            if len(key) == 1 and type(k) is np.ndarray and k.dtype.kind in "iu" and x.ndim:
                # x[indices]: NumPy's take is the same gather (the same result, its
                # errors IndexError too) without advanced indexing's setup (0.7 -> 0.2 us)
                return x.take(k, 0)
            return x[key]
        # a view of x even for one element (x[0] of a vector), so x[0].zero_() reaches x
        return x[key] if Ellipsis in key else x[key + (Ellipsis,)]

    def backward(self, g, F):
        if F.tensor_mode and self.name == "SliceBackward0":  # narrow, even over a whole dim
            name = _pad_name(self.shape, self.key)  # (after a None: the unsqueeze's squeeze)
            if name == PadInto.name:
                name = "SliceBackwardBackward0"
            return (_pad_class(name).apply(g, shape=self.shape, key=self.key),)
        return (F.pad_into(g, self.shape, self.key),)

    jvp = linear


def _node_class(name, piece=False):
    """The node class of `name`; `piece`: for the pieces split, chunk and unbind make (a
    key of full slices then an index or a slice of step 1: their gradients are gathered
    into one array, engine/piece_grads.py, as PyTorch's one node for all pieces)."""
    cls = _NODE_CLASSES.get((name, piece))
    if cls is None:
        # (IndexBackward0 holds its indices: a second backward fails, as in PyTorch)
        attrs = {"__slots__": (), "name": name, "holds_saved": name == "IndexBackward0"}
        attrs["cut_piece"] = piece
        if name in INDEX_SAVED:  # (their _saved_* as PyTorch's, from the key)
            attrs.update(saved_names=(), saved_extra=INDEX_SAVED[name])
        cls = _NODE_CLASSES[(name, piece)] = type(name, (_IndexNode,), attrs)
    return cls


_NODE_CLASSES: dict = {}


def _norm_key(key, shape, get=False, deferred=None):
    """Check an index against `shape`; returns (numpy key, grad_fn name, is_advanced).
    A Python bool: for x[key] raises ScalarBoolKey (ops/bool_keys.py), for x[key] = v
    True is None (a dim of 1) and False NumPy's 0-d mask.  With a list `deferred`, a key
    whose one index array is of integers leaves that array's bounds to the indexing, which
    checks every index: its entry ((indices, size of the dim), as `out_of_bounds` takes
    it) is appended to `deferred` for the caller's error when the indexing fails."""
    single_slice = isinstance(key, slice)
    single = not isinstance(key, tuple)  # (x[k] of a 0-d x has messages of its own)
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    dim = 0
    name = "SliceBackward0" if single_slice else "AliasBackward0"
    advanced = False
    bounds = False  # (an index tensor's index out of bounds: `out_of_bounds`)
    entries: list = []  # (the index tensors, (indices, size) each)
    # (integer index arrays whose bounds are not reduced yet, with their sizes)
    late: list | None = None if deferred is None else []
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
            # (ATen indexes that new dim by the mask's nonzero: [0] or [], one index tensor)
            entries.append((np.zeros(int(k.data), np.int64), 1))
            continue
        if type(k) is float:  # (a key's Python values are read before its index tensors)
            raise GradIndexError(
                "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                "Variables are valid indices (got float)"
            )
        if type(k) is str:
            raise GradTypeError("new(): invalid data type 'str'")
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
                    f"index {k} is out of bounds for dimension {pos} with size {n}"
                )
            out.append(k)
            name = "SelectBackward0"
        elif isinstance(k, slice):
            start, stop, step = slice_bounds(k)
            if step is not None and step < 0:
                raise GradRuntimeError("step must be greater than zero", type_name="ValueError")
            s = slice(start, stop, step)
            # PyTorch's slice is the tensor itself (an alias) when its bounds as written
            # start at 0 and reach the end: x[:, -5:] of 5 columns is a slice, x[:, :9] not
            if start or step not in (None, 1) or (stop is not None and stop < n):
                name = "SliceBackward0"
            out.append(s)
        else:
            arr = k.data if isinstance(k, Tensor) else np.asarray(k)
            if arr.dtype.kind == "f":
                raise GradIndexError(
                    "tensors used as indices must be long, int, byte or bool tensors"
                )
            bounds = _integer_bounds(arr, n, late) or bounds
            if arr.dtype.kind == "b" and arr.ndim:
                check_mask(arr.shape, shape, dim, n_real + arr.ndim - 1, key, pos)
                entries.append((arr, shape[dim : dim + arr.ndim]))
            else:
                entries.append((arr, n))
            out.append(arr)
            advanced = True
            if arr.dtype.kind == "b":
                dim += arr.ndim - 1
        dim += 1
    if entries:  # (checked after the key's other errors, as ATen does)
        out = _check_entries(out, shape, entries, bounds, late, deferred, get)
    if advanced:
        name = "IndexBackward0"
    return tuple(out), name, advanced


def _check_entries(out, shape, entries, bounds, late, deferred, get):
    """PyTorch's errors for a key's index tensors (`_norm_key`'s `entries`; `bounds`: an
    index is known out of bounds; `late`: integer arrays not checked yet, or left to
    NumPy's indexing through `deferred`); returns the key, its indices taken in bounds
    when x[key] reads nothing (ATen's kernel checks each index as it reads it)."""
    if late and deferred is not None:
        if len(entries) == 1 and sum(type(o) is np.ndarray for o in out) == 1:
            deferred.extend(entries)  # (one index array: NumPy checks each of its indices)
        else:  # (several: NumPy checks none of an empty broadcast's indices)
            bounds = bounds or any(_outside(arr, n) for arr, n in late)
    if bounds and get and _result_numel(out, shape) == 0:
        out, bounds = _in_bounds(out, entries), False
    check_index_tensors(entries, bounds)
    return out


def _integer_bounds(arr, n, late):
    """Whether an index of an integer index array is out of [-n, n) (an empty array's or
    another kind's: False), the array appended to `late` instead when it is a list."""
    if arr.dtype.kind not in "iu" or not arr.size:
        return False
    if n == 0:  # (ATen's index kernel checks an empty dim before any index)
        raise GradIndexError("index is out of bounds for dimension with size 0")
    if late is None:
        return _outside(arr, n)
    late.append((arr, n))
    return False


def _outside(arr, n):
    """Whether an index of the integer array is out of [-n, n)."""
    return int(arr.max()) >= n or int(arr.min()) < -n  # (each reduced once)


def _in_bounds(key, entries):
    """`key` with its integer index arrays (listed in `entries` with their dims' sizes)
    taken modulo those sizes: the same (empty) result without an index out of bounds."""
    sizes = {id(a): n for a, n in entries if a.dtype.kind in "iu"}
    return [np.mod(k, sizes[id(k)]) if id(k) in sizes else k for k in key]


def _bool_0d(k):
    return isinstance(k, Tensor) and k.data.ndim == 0 and k.data.dtype == np.bool_


def _slice_bound(v):
    """A slice's bound as Python's slice takes it (an int, a bool, an integer NumPy scalar,
    a one-element integer or bool tensor by its __index__), in Python's and torch's words."""
    if v is None or type(v) is int:
        return v
    if isinstance(v, Tensor):
        d = v.data
        if d.size != 1 or d.dtype.kind not in "iub":
            raise GradTypeError(
                "only integer tensors of a single element can be converted to an index"
            )
        return int(d.reshape(()))
    if isinstance(v, (int, np.integer)):  # (bool too)
        return int(v)
    raise GradTypeError("slice indices must be integers or None or have an __index__ method")


def slice_bounds(key):
    """(start, stop, step) of a slice of a tensor, in the order and words of torch's
    slicing: each bound converted, then a zero step refused as Python refuses it (a
    negative one is the caller's: torch's own ValueError)."""
    start, stop, step = _slice_bound(key.start), _slice_bound(key.stop), _slice_bound(key.step)
    if step == 0:
        raise GradRuntimeError("slice step cannot be zero", type_name="ValueError")
    return start, stop, step


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
    if type(key) is slice and x.data.ndim:  # x[a:b] (a, b numbers or 0-d index tensors)
        ends = slice_bounds(key)
        if ends[2] is None or ends[2] > 0:  # (else _norm_key's error)
            k = (slice(*ends),)  # (_norm_key's key and node for it)
            if not x.requires_grad and not modes.on:  # (what apply gives: no node)
                return Tensor(x.data[k + (Ellipsis,)])
            return _node_class("SliceBackward0").apply(x, key=k, adv=False, given=given)
    deferred: list = []
    try:
        k, name, adv = _norm_key(key, x.data.shape, True, deferred)
    except ScalarBoolKey:  # x[True], x[0, False]: PyTorch's two steps
        basic, advanced = split_bool_key(key, x.data.ndim)
        return index(index(x, basic), advanced)
    if not deferred:
        if adv:
            _check_index_size(k, x.data.shape, x.data.dtype.itemsize)
        return _node_class(name).apply(x, key=k, adv=adv, given=given)
    # one index array, its bounds left to NumPy's indexing: when it (or the memory cap's
    # check) fails, an index out of bounds is PyTorch's error
    try:
        _check_index_size(k, x.data.shape, x.data.dtype.itemsize)
        return _node_class(name).apply(x, key=k, adv=adv, given=given)
    except Exception:
        err = out_of_bounds(deferred)
        if err is None:
            raise
        if _result_numel(k, x.data.shape) != 0:
            raise err from None
    # an empty result (x[tensor([5])] of a 3 x 0 x): no index is read, none is checked
    k = tuple(_in_bounds(k, deferred))
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
    if len(key) == 1 and type(key[0]) is np.ndarray and key[0].dtype.kind != "b":
        check_alloc((key[0].size, math.prod(shape[1:])), itemsize)  # x[indices]
        return
    sizes = _result_sizes(key, shape)
    if sizes is not None:  # (None: NumPy reports the mismatch)
        check_alloc(sizes, itemsize)


def _result_numel(key, shape):
    """The number of elements of x[key] for a normalized advanced key (None when its
    index arrays do not broadcast together)."""
    sizes = _result_sizes(key, shape)
    return None if sizes is None else sizes[0] * sizes[1]


def _result_sizes(key, shape):
    """(elements the index arrays pick, elements of the other dims) of x[key] for a
    normalized advanced key, or None when its index arrays do not broadcast together."""
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
        return None
    return n_adv, rest


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
        # ATen wraps the dim as a scalar's first (its range error), then sizes dim 0
        norm_dims(dim, nd)
        raise GradIndexError("Dimension specified as 0 but tensor has no dimensions")
    (axis,) = norm_dims(dim, nd)
    check_objects(x.data.shape[axis], "unbinding this tensor", 300)
    lead = (slice(None),) * axis
    if not x.requires_grad and not modes.on:  # (what apply gives: no node)
        d = x.data
        return tuple(Tensor(d[lead + (i, Ellipsis)]) for i in range(d.shape[axis]))
    cls = _node_class("UnbindBackward0", True)
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
    (the basic ones, left to right, skipping slices that take a whole dim, a None an
    unsqueeze; then the advanced ones)."""
    dim, advanced = 0, False
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    for k in key:
        if k is Ellipsis:
            dim += max(len(shape) - n_real, 0)
        elif k is None:  # (an unsqueeze: its gradient squeezes the dim back)
            return "SqueezeBackward1"
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
