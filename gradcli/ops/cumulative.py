"""Running sums (cumsum), products (cumprod), maxima and minima (cummax, cummin) along a
dim.

cumprod: PyTorch's grad_fn name and cumprod_backward's formula (FunctionsManual): the reversed running sum of result * grad
over the input where no input is zero; with zeros, its O(n) form (masks around each
slice's first zero) or, when the gradient itself records a graph, its O(n^2) form of
omitted products, as PyTorch chooses.

Values: PyTorch's CPU kernel runs float32 products in a double accumulator, each product
rounded to float32 as it is stored."""

from __future__ import annotations

import math

import numpy as np

from ..core import dtypes
from ..core.convert import tensor_arg
from ..core.tensor import Tensor
from ..engine.declare import none
from ..engine.forward import linear
from ..engine.function import Function
from ..engine.saved import given, saved_shown
from ..numerics.sums.axes import sum_axes
from ..numerics.sums.summation import torch_cumsum
from .combine import cat
from .gathering import Gather, ScatterAdd, _gather, _scatter
from .dims import norm_dims
from .narrowing import narrow
from .clamp_where import where
from .reduce import _acc_dtype, _torch_name, prod
from ..runtime.errors import GradIndexError, GradRuntimeError
from .return_types import ValuesIndices
from .tensor_args import int_arg
from .registry import Arg, Parser, register, tensor_f

M = Arg((2, 3))


class Cumsum(Function):
    __slots__ = ("axis", "dim")
    name = "CumsumBackward0"
    saved_names = ()
    saved_extra = {"dim": saved_shown("dim")}

    def formula(self, S, x, *_):
        return S.obj(np.cumsum(S.obj(x), axis=self.axis))

    def forward(self, x, axis, dt, dim=None):
        self.axis, self.dim = axis, axis if dim is None else dim  # (the dim as given)
        if x.ndim == 0:
            return x.astype(dt)
        return torch_cumsum(x, axis, dt)

    def backward(self, g, F):
        shape = np.shape(g.data if F.tensor_mode else g)
        if int(np.prod(shape)) <= 1 or shape[self.axis] == 1:
            return (g,)  # cumsum_backward's trivial case: grad itself
        a = (self.axis,)
        return (F.flip(F.cumsum(F.flip(g, a), self.axis), a),)

    jvp = linear


@register(
    "cumsum",
    "cumsum(input, dim)",
    "running sums along dim",
    method=True,
    checks=[((M,), {"dim": 1}), ((M,), {"dim": 0}), ((Arg((4,)),), {"dim": -1})],
    category="reduce",
    batch="along_dim",
    inplace=None,
    pure=True,
    parser=Parser(("dim",)),
)
@tensor_f("cumsum")
def cumsum(x, dim, dtype=None):
    x = tensor_arg(x)
    (axis,) = norm_dims(dim, x.data.ndim) or (0,)
    dt = dtypes.as_numpy(dtype) if dtype is not None else _acc_dtype(x.data)
    return Cumsum.apply(x, axis=axis, dt=dt, dim=given(dim, axis))


def torch_cumprod(x, axis, dtype):
    """Running products along `axis` as PyTorch's CPU kernel makes them: from 1, float32 in
    a double accumulator."""
    dtype = np.dtype(dtype)
    if dtype.kind != "f":
        return np.cumprod(x, axis=axis, dtype=dtype)
    acc = np.float64 if dtype.itemsize <= 8 else dtype
    return np.cumprod(x, axis=axis, dtype=acc).astype(dtype, copy=False)


def _reversed_cumsum(w, axis):
    return np.flip(torch_cumsum(np.flip(w, axis), axis, w.dtype), axis)


def _backward_arrays(g, x, out, axis):
    """cumprod_backward without a graph: PyTorch's O(n) form."""
    w = out * g
    is_zero = x == 0
    if not is_zero.any():
        return _reversed_cumsum(w, axis) / x
    zero = np.zeros((), g.dtype)
    grad_input = np.zeros(x.shape, g.dtype)
    zeros_so_far = np.cumsum(is_zero, axis=axis)
    mask = zeros_so_far == 0  # before the first zero: [0, z1)
    before = _reversed_cumsum(np.where(mask, w, zero), axis) / x
    grad_input[mask] = before[mask]
    mask = zeros_so_far == 1  # from the first zero to the second: [z1, z2)
    first = np.argmax(mask, axis=axis)  # (0 where a slice has no zero, as max's index)
    first_k = np.expand_dims(first, axis)
    first_mask = np.zeros(x.shape, bool)
    np.put_along_axis(first_mask, first_k, True, axis=axis)
    first_mask &= mask
    mask &= ~first_mask
    one = np.ones((), x.dtype)
    part = torch_cumprod(np.where(mask, x, one), axis, x.dtype) * np.where(
        zeros_so_far != 1, zero, g
    )
    part = sum_axes(part, (axis,), True, part.dtype)
    before_zero = np.take_along_axis(out, np.maximum(first_k - 1, 0), axis=axis)
    part = part * np.where(first_k == 0, one, before_zero)
    grad_input[first_mask] = np.broadcast_to(part, x.shape)[first_mask]
    return grad_input


class SliceCopies(Function):
    """The gradient of a cumprod with zeros, recording a graph: PyTorch copies each slice's
    sum into a zero tensor in place, so its grad_fn is CopySlices."""

    formula = none("a backward's own node (create_graph)")
    __slots__ = ("axis",)
    name = "CopySlices"
    qualified_name = "torch::autograd::CopySlices"  # (grad_fn.name())
    saved_names = ()
    jvp = linear

    def forward(self, *slices, axis):
        self.axis = axis
        return np.concatenate(slices, axis)

    def backward(self, g, F):
        return tuple(F.split(g, [1] * len(self.needs), self.axis))


def _backward_tensors(g, F, x, out, axis):
    """cumprod_backward recording a graph: the reversed running sum where no input is zero,
    else PyTorch's O(n^2) form (each slice k: the products with x_k omitted)."""
    if not (x.data == 0).any():
        return F.flip(F.cumsum(F.flip(out * g, (axis,)), axis), (axis,)) / x
    n = x.data.shape[axis]
    slices = []
    for k in range(n):
        if k == n - 1:
            omitted = prod(narrow(x, axis, 0, k), axis, True)
        else:
            after = cumprod(narrow(x, axis, k + 1, n - k - 1), axis)
            if k == 0:
                shape = list(after.data.shape)
                shape[axis] = 1
                omitted = cat([Tensor(np.ones(shape, x.data.dtype)), after], axis)
            else:
                until = prod(narrow(x, axis, 0, k), axis, True)
                omitted = cat([until, until * after], axis)
        slices.append(F.sum(narrow(g, axis, k, n - k) * omitted, axis, True))
    return SliceCopies.apply(*slices, axis=axis)


class Cumprod(Function):
    __slots__ = ("axis", "dim")
    name = "CumprodBackward0"
    saved_names = ("self", "result")
    saved_extra = {"dim": saved_shown("dim")}

    def formula(self, S, x, *_):
        return S.obj(np.cumprod(S.obj(x), axis=self.axis))

    def forward(self, x, axis, dt, dim=None):
        self.axis, self.dim = axis, axis if dim is None else dim  # (the dim as given)
        out = x.astype(dt) if x.ndim == 0 else torch_cumprod(x, axis, dt)
        self.save(x, out)
        return out

    def backward(self, g, F, x, out):
        shape = np.shape(g.data if F.tensor_mode else g)
        if int(np.prod(shape)) <= 1 or shape[self.axis] == 1:
            return (g,)  # cumprod_backward's trivial case: grad itself
        if F.tensor_mode:
            return (_backward_tensors(g, F, x, out, self.axis),)
        return (_backward_arrays(g, x, out, self.axis),)

    def jvp(self, ts, F, x, out):
        # cumprod_jvp: (t / x).cumsum(dim) * result, and from each slice's first zero on,
        # the running product of the input with the tangent at that zero
        (t,) = ts
        if x.data.ndim == 0:
            return where(x == 0, t, t / x * out)
        axis = self.axis
        general = F.cumsum(t / x, axis) * out
        zeros = x == 0
        first = Tensor(zeros.data & (np.cumsum(zeros.data, axis=axis) == 1))
        new = cumprod(where(first, t, x), axis)
        after = Tensor(np.cumsum(first.data, axis=axis) > 0)
        return where(after, new, general)


@register(
    "cumprod",
    "cumprod(input, dim, *, dtype=None)",
    "running products along dim",
    method=True,
    checks=[
        ((M,), {"dim": 1}),
        ((M,), {"dim": 0}),
        ((Arg((4,)),), {"dim": -1}),
        ((Arg((3, 1)),), {"dim": 1}),
    ],
    category="reduce",
    batch="along_dim",
    inplace="cumprod_",
    pure=False,
    parser=Parser(("dim",)),
)
@tensor_f("cumprod")
def cumprod(input, dim, *, dtype=None):
    x = tensor_arg(input)
    dim = int_arg("cumprod", dim, "dim", 1)
    (axis,) = norm_dims(dim, x.data.ndim) or (0,)
    dt = dtypes.as_numpy(dtype) if dtype is not None else _acc_dtype(x.data)
    return Cumprod.apply(x, axis=axis, dt=dt, dim=given(dim, axis))


def cummaxmin_values(x, axis, largest):
    """(values, int64 indices) of cummax/cummin along `axis` as PyTorch's loop makes them: a
    NaN, or a value at least (cummin: at most) the running one, takes over (so ties take
    the later index), and a NaN stays."""
    n = x.shape[axis]
    xs = np.moveaxis(x, axis, 0)
    values, indices = np.empty_like(xs), np.zeros(xs.shape, np.int64)
    out, idx = xs[0].copy(), np.zeros(xs.shape[1:], np.int64)
    floating = x.dtype.kind == "f"
    for i in range(n):
        cur = xs[i]
        take = cur >= out if largest else cur <= out
        if floating:
            take = np.isnan(cur) | (~np.isnan(out) & take)
        out = np.where(take, cur, out)
        idx = np.where(take, i, idx)
        values[i], indices[i] = out, idx
    return np.moveaxis(values, 0, axis), np.moveaxis(indices, 0, axis)


class _CumMaxMin(Function):
    __slots__ = ("shape", "axis", "index", "dim")
    saved_names = ("self", "indices")
    saved_extra = {"dim": saved_shown("dim")}

    def formula(self, S, x, *_):
        """The elements each place's running max (min) picked: a named function."""
        return S.named(_gather(S.obj(x), self.axis, self.index))

    def forward(self, x, axis, index, values, dim=None):
        self.shape, self.axis, self.index = x.shape, axis, index
        self.dim = axis if dim is None else dim
        self.save(x, index)
        return values

    def backward(self, g, F, *_):
        # cummaxmin_backward: zeros_like(self).scatter_add_(dim, indices, grad)
        if F.tensor_mode:
            return (ScatterAdd.apply(None, g, shape=self.shape, axis=self.axis, index=self.index),)
        return (_scatter(None, self.shape, g.dtype, self.axis, self.index, g, True),)

    def jvp(self, ts, F, *saved):
        return Gather.apply(ts[0], axis=self.axis, index=self.index)  # self_t.gather(...)


class Cummax(_CumMaxMin):
    __slots__ = ()
    name = "CummaxBackward0"


class Cummin(_CumMaxMin):
    __slots__ = ()
    name = "CumminBackward0"


def _cummaxmin(name, node, largest):
    def fn(input, dim):
        x = tensor_arg(input)
        dim = int_arg(name, dim, "dim", 1)
        data = x.data
        if data.ndim == 0 and dim not in (0, -1):
            raise GradIndexError(
                f"{name}(): Expected reduction dim -1 or 0 for scalar but got {dim}"
            )
        (axis,) = norm_dims(dim, data.ndim) or (0,)
        if data.ndim == 0:
            values, index = data.copy(), np.zeros((), np.int64)
        elif data.size == 0:
            values, index = data.copy(), np.zeros(data.shape, np.int64)
        else:
            values, index = cummaxmin_values(data, axis, largest)
        out = node.apply(x, axis=axis, index=index, values=values, dim=given(dim, axis))
        return ValuesIndices(out, Tensor(index.copy(order="C")), name)

    fn.__name__ = name
    return fn


for _name, _node, _largest in (("cummax", Cummax, True), ("cummin", Cummin, False)):
    register(
        _name,
        f"{_name}(input, dim)",
        f"running {'maxima' if _largest else 'minima'} along dim and their indices "
        "(ties: the later index)",
        method=True,
        checks=[((M,), {"dim": 1}), ((M,), {"dim": 0}), ((Arg((4,)),), {"dim": -1})],
        category="reduce",
        batch=None,
        inplace=None,
        pure=False,
        parser=Parser(("dim",)),
    )(_cummaxmin(_name, _node, _largest))
del _name, _node, _largest


def torch_logcumsumexp(x, axis):
    """Running log(sum(exp)) along `axis` as PyTorch's CPU kernel makes them: from -inf, in
    double (its accumulate type, also for float32), each step _log_add_exp_helper's
    log1p(exp(min - max)) + max with the C library's functions (an equal pair of infinities
    kept as they are), rounded to the dtype as stored."""
    xs = np.moveaxis(x, axis, -1)
    rows = xs.reshape(-1, xs.shape[-1]).astype(np.float64).tolist() if xs.size else []
    out = np.empty(xs.shape, x.dtype)
    flat = out.reshape(-1, xs.shape[-1]) if xs.size else out
    exp, log1p, isnan, isfinite = math.exp, math.log1p, math.isnan, math.isfinite
    for r, row in enumerate(rows):
        acc = -math.inf
        vals = []
        for v in row:
            if isnan(acc):
                lo = hi = acc
            else:
                lo, hi = (v, acc) if v < acc or isnan(v) else (acc, v)
                if isnan(v):
                    lo = hi = v
            if lo != hi or isfinite(lo):
                try:
                    acc = log1p(exp(lo - hi)) + hi
                except (OverflowError, ValueError):
                    acc = math.nan
            else:
                acc = v
            vals.append(acc)
        flat[r] = vals
    return np.moveaxis(out, -1, axis)


class Logcumsumexp(Function):
    __slots__ = ("axis", "dim")
    name = "LogcumsumexpBackward0"
    saved_names = ("self", "result")
    saved_extra = {"dim": saved_shown("dim")}

    def formula(self, S, x, *_):
        """log(cumsum(exp(x))) along the dim."""
        return S.log(S.obj(np.cumsum(S.obj(S.exp(x)), axis=self.axis)))

    def forward(self, x, axis, dim=None):
        self.axis, self.dim = axis, axis if dim is None else dim
        out = x.copy() if x.ndim == 0 else torch_logcumsumexp(x, axis)
        self.save(x, out)
        return out

    def backward(self, g, F, x, out):
        # logcumsumexp_backward: the positive and negative parts of grad, each through a
        # reversed logcumsumexp in log space
        shape = np.shape(g.data if F.tensor_mode else g)
        if not shape or 0 in shape:
            return (g,)
        axis = self.axis
        dt = (g.data if F.tensor_mode else g).dtype
        lowest = float(np.finfo(dt).min)

        def reverse(v):
            v = F.flip(v, (axis,))
            v = logcumsumexp(v, axis) if F.tensor_mode else torch_logcumsumexp(v, axis)
            return F.flip(v, (axis,))

        log_abs = F.log(F.abs(g))
        pos = F.where(g > 0, log_abs, lowest)
        neg = F.where(g < 0, log_abs, lowest)
        return (F.exp(reverse(pos - out) + x) - F.exp(reverse(neg - out) + x),)

    def jvp(self, ts, F, x, out):
        # logcumsumexp_jvp: e = exp(self - self.max(dim, keepdim)) (exp-normalize), then
        # (e * self_t).cumsum(dim) / (e.cumsum(dim) + 1e-13) (its eps, measured)
        (t,) = ts
        if x.data.ndim == 0:
            return t
        axis = self.axis
        top = Tensor(np.max(x.data, axis=axis, keepdims=True))
        e = F.exp(x - top)
        return F.cumsum(e * t, axis) / (F.cumsum(e, axis) + 1e-13)


@register(
    "logcumsumexp",
    "logcumsumexp(input, dim)",
    "running log(sum(exp(input))) along dim, stably",
    method=True,
    checks=[((M,), {"dim": 1}), ((M,), {"dim": 0}), ((Arg((4,)),), {"dim": -1})],
    category="reduce",
    batch="along_dim",
    inplace=None,
    pure=False,
    parser=Parser(("dim",)),
)
def logcumsumexp(input, dim):
    x = tensor_arg(input)
    dim = int_arg("logcumsumexp", dim, "dim", 2)
    (axis,) = norm_dims(dim, x.data.ndim) or (0,)
    if x.data.dtype.kind != "f":
        raise GradRuntimeError(
            f"\"logcumsumexp_out_cpu\" not implemented for '{_torch_name(x.data.dtype)}'",
            type_name="NotImplementedError",
        )
    return Logcumsumexp.apply(x, axis=axis, dim=given(dim, axis))
