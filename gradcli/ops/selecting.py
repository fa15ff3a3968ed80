"""masked_select, roll, nan_to_num, frac and take: ops of their own in ATen (MaskedSelectBackward0,
RollBackward0, NanToNumBackward0, FracBackward0, TakeBackward0), each with derivatives.yaml's gradient."""

from __future__ import annotations

import numpy as np

from ..core.convert import tensor_arg, type_name
from ..core.tensor import Tensor
from ..engine.declare import none
from ..engine.forward import linear
from ..engine.function import Function
from ..engine.saved import saved_shown
from ..engine.vjp_arrays import sum_to
from ..core import dtypes
from ..runtime.errors import GradIndexError, GradRuntimeError, GradTypeError, broadcast_error
from ..runtime.limits import check_broadcast
from .dims import one_dim
from .registry import Arg, register

M = Arg((2, 3))
_NO_FORMULA = none("no formula rule yet: shown as a named function with its local Jacobian")


class MaskedSelect(Function):
    __slots__ = ("shape", "mask", "given")
    name = "MaskedSelectBackward0"
    saved_names = ("self",)
    saved_extra = {"mask": lambda node: Tensor(node.given)}
    formula = _NO_FORMULA

    def forward(self, x, mask):
        self.shape, self.given = x.shape, mask
        self.save(x)
        xb, mb = np.broadcast_arrays(x, mask)
        self.mask = mb
        return np.ascontiguousarray(xb[mb])

    def backward(self, g, F, x):
        if F.tensor_mode:  # the selected values back in their places (by an index)
            if g.data.size:
                pos = np.maximum(np.cumsum(self.mask.reshape(-1)) - 1, 0)
                g = F.take(g, pos.reshape(self.mask.shape))
            else:  # nothing selected: zeros (a 0-d sum of g, in its graph)
                g = F.sum_to(g, ())
            full = F.where(Tensor(self.mask), g, 0.0)
            return (F.sum_to(full, self.shape),)
        full = np.zeros(self.mask.shape, g.dtype)
        full[self.mask] = g
        return (sum_to(full, self.shape),)

    def jvp(self, ts, F, x):
        return Tensor(np.ascontiguousarray(np.broadcast_to(ts[0].data, self.mask.shape)[self.mask]))


@register(
    "masked_select",
    "masked_select(input, mask)",
    "the elements of input where mask (broadcast with it) is true, as a 1-d tensor",
    method=True,
    checks=[((M, [[True, False, True], [False, False, True]]), {}), ((M, [True, False, True]), {})],
    category="indexing",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def masked_select(input, mask):
    x = tensor_arg(input)
    m = tensor_arg(mask)
    if m.data.dtype != np.bool_:
        raise GradRuntimeError("masked_select: expected BoolTensor for mask")
    try:
        np.broadcast_shapes(x.data.shape, m.data.shape)
    except ValueError:
        raise broadcast_error(x.data.shape, m.data.shape) from None
    check_broadcast(x.data.shape, m.data.shape, itemsize=x.data.dtype.itemsize)
    return MaskedSelect.apply(x, mask=m.data)


class Roll(Function):
    __slots__ = ("shifts", "axes")
    name = "RollBackward0"
    saved_names = ()
    saved_extra = {"shifts": saved_shown("shifts"), "dims": saved_shown("axes")}
    formula = _NO_FORMULA

    def forward(self, x, shifts, axes):
        self.shifts, self.axes = shifts, axes
        if x.ndim == 0:
            return x.copy()  # (np.roll of a scalar gives one dim)
        return np.ascontiguousarray(np.roll(x, shifts, axes if axes else None))

    def backward(self, g, F):
        back = tuple(-s for s in self.shifts)
        if F.tensor_mode:
            return (Roll.apply(g, shifts=back, axes=self.axes),)
        if np.ndim(g) == 0:
            return (g,)
        return (np.ascontiguousarray(np.roll(g, back, self.axes if self.axes else None)),)

    jvp = linear


def _ints(v, name, what):
    vals = tuple(v) if isinstance(v, (list, tuple)) else (v,)
    for s in vals:
        if isinstance(s, bool) or not isinstance(s, int):
            raise GradTypeError(
                f"{name}(): argument '{what}' must be tuple of ints, not {type_name(s)}"
            )
    return vals


@register(
    "roll",
    "roll(input, shifts, dims=None)",
    "the elements shifted by shifts along dims, those past the end coming in at the start "
    "(no dims: over the flattened tensor)",
    method=True,
    checks=[((M, 1), {}), ((M, (1, -2), (0, 1)), {}), ((M, 4), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def roll(input, shifts, dims=None):
    x = tensor_arg(input)
    shifts = _ints(shifts, "roll", "shifts")
    dims = () if dims is None else _ints(dims, "roll", "dims")
    if not dims and len(shifts) != 1:
        raise GradRuntimeError(
            f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}"
        )
    if dims and len(shifts) != len(dims):
        raise GradRuntimeError(
            f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}"
        )
    axes = tuple(one_dim(d, x.data.ndim) for d in dims)
    return Roll.apply(x, shifts=shifts, axes=axes)


class NanToNum(Function):
    __slots__ = ()
    name = "NanToNumBackward0"
    saved_names = ("self",)
    formula = _NO_FORMULA

    def forward(self, x, nan, posinf, neginf):
        self.save(x)
        if x.dtype.kind != "f":
            return x.copy()
        info = np.finfo(x.dtype)
        dt = x.dtype.type
        out = np.where(np.isnan(x), dt(nan), x)
        out = np.where(out == np.inf, info.max if posinf is None else dt(posinf), out)
        return np.where(out == -np.inf, info.min if neginf is None else dt(neginf), out).astype(
            x.dtype
        )

    def backward(self, g, F, x):  # grad * isfinite(self)
        if F.tensor_mode:
            return (g * Tensor(np.isfinite(x.data)),)
        return (g * np.isfinite(x),)

    def jvp(self, ts, F, x):
        return ts[0] * Tensor(np.isfinite(x.data))


@register(
    "nan_to_num",
    "nan_to_num(input, nan=0.0, posinf=None, neginf=None)",
    "NaNs replaced by nan, infinities by posinf and neginf (the dtype's largest and "
    "lowest values by default)",
    method=True,
    checks=[((M,), {}), ((M,), {"nan": 1.0, "posinf": 2.0})],
    category="pointwise",
    batch="elementwise",
    inplace="nan_to_num_",
    pure=False,
    parser=None,
)
def nan_to_num(input, nan=0.0, posinf=None, neginf=None, *, out=None):
    return NanToNum.apply(tensor_arg(input), nan=nan, posinf=posinf, neginf=neginf)


class Frac(Function):
    __slots__ = ()
    name = "FracBackward0"
    saved_names = ()
    formula = _NO_FORMULA

    def forward(self, x):
        if x.dtype.kind != "f":
            raise GradRuntimeError(f"\"frac_cpu\" not implemented for '{_dtype_name(x)}'")
        return x - np.trunc(x)

    def backward(self, g, F):
        return (g,)

    def jvp(self, ts, F):  # (its derivative is 1: the tangent itself)
        return ts[0]


def _dtype_name(x):
    return {"i": "Long", "b": "Bool", "u": "Byte"}.get(x.dtype.kind, str(x.dtype))


@register(
    "frac",
    "frac(input)",
    "the fractional part, input - trunc(input)",
    method=True,
    checks=[((Arg((2, 3), 0.1, 0.9),), {})],  # (away from the integers, where it jumps)
    category="pointwise",
    batch="elementwise",
    inplace="frac_",
    pure=False,
    parser=None,
)
def frac(input):
    return Frac.apply(tensor_arg(input))


def _put_add(shape, dtype, index, g):
    """zeros(shape).put_(index, g, accumulate=True): repeated places add, in index order."""
    out = np.zeros(int(np.prod(shape)), dtype=dtype)
    np.add.at(out, index.reshape(-1) % max(out.size, 1), np.asarray(g).reshape(-1))
    return out.reshape(shape)


class Take(Function):
    __slots__ = ("shape",)
    name = "TakeBackward0"
    saved_names = ("self", "index")
    formula = _NO_FORMULA

    def forward(self, x, index):
        self.shape = x.shape
        self.save(x, index)
        return x.reshape(-1)[index % max(x.size, 1)]

    def backward(self, g, F, x, index):
        # take_backward: zeros_like(self).put_(index, grad, accumulate=True)
        idx = index.data if F.tensor_mode else index
        if F.tensor_mode:
            return (PutAdd.apply(g, shape=self.shape, index=idx), None)
        return (_put_add(self.shape, g.dtype, idx, g), None)

    def jvp(self, ts, F, x, index):
        return Take.apply(ts[0], index)


class PutAdd(Function):
    """take's gradient under create_graph: zeros.put_(index, grad, accumulate=True)."""

    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )
    __slots__ = ("index",)
    name = "PutBackward0"
    saved_names = ()
    saved_extra = {"accumulate": lambda node: True, "index": lambda node: Tensor(node.index)}
    jvp = linear

    def forward(self, g, shape, index):
        self.index = index
        return _put_add(shape, g.dtype, index, g)

    def backward(self, gg, F):
        if F.tensor_mode:
            return (Take.apply(gg, Tensor(self.index)),)
        return (gg.reshape(-1)[self.index % max(gg.size, 1)],)


@register(
    "take",
    "take(input, index)",
    "the elements of input (as if flattened) at the positions of index, in index's shape",
    method=True,
    checks=[((M, Tensor(np.array([[0, 5], [-1, 5]]))), {}), ((M, Tensor(np.array(4))), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def take(input, index):
    for v, what, pos in ((input, "input", 1), (index, "index", 2)):
        if not isinstance(v, Tensor):
            raise GradTypeError(
                f"take(): argument '{what}' (position {pos}) must be Tensor, not {type_name(v)}"
            )
    idx = index.data
    if idx.dtype != np.int64:
        raise GradRuntimeError(
            f"take(): Expected a long tensor for index, but got {dtypes.scalar_type_name(idx.dtype)}"
        )
    n = input.data.size
    bad = idx[(idx >= n) | (idx < -n)]
    if bad.size:
        raise GradIndexError(
            f"out of range: tried to access index {int(bad.reshape(-1)[0])} on a tensor of "
            f"{n} elements."
        )
    return Take.apply(input, index)
