"""Reductions that skip NaN (`nansum`, `nanmean`) and the moments returned together
(`var_mean`, `std_mean`), as PyTorch computes them.

nansum is PyTorch's sum kernel with each NaN read as 0 (cascade_sum's ignore_nan), so
its order of additions is sum's (numerics/sums); NansumBackward0's gradient is
derivatives.yaml's nansum_backward, the expanded gradient times `self.isnan().logical_not()`.
nanmean is ATen's composite: `nansum(self, dim, keepdim).div(count of non-NaN)`
(DivBackward0).

var_mean/std_mean run PyTorch's Welford kernel (`std_var_stub`, WelfordOps in double)
also over every dim: unlike var/std alone they never take std_var_all_cpu; a reduction
of one output with 32,768 values or more is cut between threads as at::parallel_for cuts
it, the threads' accumulators combined in order.  The var (std) and the mean are two
nodes of PyTorch's one VarMeanBackward0 (StdMeanBackward0), each giving its part of
var_mean_backward: var_backward (std_backward) for the first output, mean_backward for
the second."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtypes
from ..core.tensor import Tensor, type_name
from ..engine.forward import reduction
from ..engine.function import FUNCTIONS
from ..numerics.floats.fma import fma
from ..numerics.parallel import chunks
from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..runtime.limits import check_reduction
from .dims import norm_dims
from .moments import Std, Var
from .reduce import (
    M,
    REDUCE_CHECKS,
    Mean,
    _Reduce,
    _acc_dtype,
    _torch_name,
    expand_back,
    saved_dims,
    saved_keepdim,
    sum_axes,
)
from .registry import Arg, register

# ------------------------------------------------------------------ nansum, nanmean


def _zeroed(x):
    """x with each NaN read as 0 (an int or bool x as it is)."""
    if x.dtype.kind != "f":
        return x
    nan = np.isnan(x)
    return np.where(nan, x.dtype.type(0), x) if nan.any() else x


class Nansum(_Reduce):
    __slots__ = ()
    name = "NansumBackward0"
    saved_names = ("self",)
    saved_extra = {"dim": saved_dims, "keepdim": saved_keepdim}

    def formula(self, S, x):
        """The sum of the elements that are not NaN (a NaN contributes 0)."""
        return S.sum(x, self.axes, self.keepdim)

    def forward(self, x, dim=None, keepdim=False, dtype=None):
        ax = self.setup(x, dim, keepdim)
        self.save(x)
        out = sum_axes(_zeroed(x), ax, keepdim, _acc_dtype(x, dtype))
        return out if out.flags.c_contiguous else np.ascontiguousarray(out)

    def backward(self, g, F, x):
        # nansum_backward: sum_backward(grad, sizes, dims, keepdim) * self.isnan().logical_not()
        g = expand_back(g, F, self.shape, self.axes, self.keepdim, self.dims)
        keep = ~np.isnan(x.data if F.tensor_mode else x)
        if F.tensor_mode:
            return (g * Tensor(keep),)
        return (g * keep,)

    jvp = reduction


def _float_input(name, input, what="input"):
    if not isinstance(input, Tensor):
        raise GradTypeError(
            f"{name}(): argument '{what}' (position 1) must be Tensor, not "
            f"{'NoneType' if input is None else type_name(input)}"
        )
    return input


def _dims(dim):
    """A dim argument as the node takes it (an empty list: every dim)."""
    if isinstance(dim, (tuple, list)) and not dim:
        return None
    return dim


@register(
    "nansum",
    "nansum(input, dim=None, keepdim=False, *, dtype=None)",
    "sum of the elements that are not NaN, or along dim",
    method=True,
    checks=REDUCE_CHECKS,
    category="reduce",
    batch="reduction",
    inplace=None,
    pure=False,
    parser=None,
)
def nansum(input, dim=None, keepdim=False, *, dtype=None):
    x = _float_input("nansum", input)
    check_reduction(x.data.shape, dim)
    if dtype is not None:
        want = dtypes.as_numpy(dtype)
        if want != x.data.dtype:
            x = FUNCTIONS["to"](x, dtype)
    dim = _dims(dim)
    if dim is None and not keepdim:
        return Nansum.apply(x)
    return Nansum.apply(x, dim=dim, keepdim=keepdim)


@register(
    "nanmean",
    "nanmean(input, dim=None, keepdim=False, *, dtype=None)",
    "mean of the elements that are not NaN, or along dim",
    method=True,
    checks=REDUCE_CHECKS,
    category="reduce",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def nanmean(input, dim=None, keepdim=False, *, dtype=None):
    x = _float_input("nanmean", input)
    if x.data.dtype.kind != "f":
        raise GradRuntimeError(
            "nanmean(): expected input to have floating point or complex dtype but got "
            f"{_torch_name(x.data.dtype)}"
        )
    check_reduction(x.data.shape, dim)
    dim = _dims(dim)
    axes = None if dim is None else norm_dims(dim, x.data.ndim)
    count = np.sum(~np.isnan(x.data), axis=axes, keepdims=bool(keepdim), dtype=np.int64)
    total = nansum(x, dim, keepdim, dtype=dtype)
    return FUNCTIONS["div"](total, Tensor(np.asarray(count)))


# ------------------------------------------------------------------ var_mean, std_mean


def _welford(values):
    """Welford's (mean, m2, n) of a list of Python floats, as WelfordOps::reduce."""
    mean = m2 = 0.0
    for i, v in enumerate(values, 1):
        delta = v - mean
        mean += delta / i
        m2 += delta * (v - mean)
    return mean, m2, len(values)


def _combine(a, b):
    """WelfordOps::combine of two accumulators (mean, m2, n), its multiply-adds fused as
    PyTorch's build compiles them (measured against torch)."""
    if a[2] == 0:
        return b
    if b[2] == 0:
        return a
    delta = b[0] - a[0]
    n = float(a[2] + b[2])
    nb_over_n = b[2] / n
    mean = float(fma(delta, nb_over_n, a[0]))
    m2 = float(fma(delta * delta * a[2], nb_over_n, a[1] + b[1]))
    return (mean, m2, a[2] + b[2])


def _columns(rows):
    """(mean, m2) of each row of a 2-D float64 array, the rows side by side."""
    mean = np.zeros(rows.shape[0])
    m2 = np.zeros(rows.shape[0])
    with np.errstate(invalid="ignore", over="ignore"):
        for i in range(rows.shape[1]):
            v = rows[:, i]
            delta = v - mean
            mean = mean + delta / float(i + 1)
            m2 = m2 + delta * (v - mean)
    return mean, m2


def welford_moments(x, axes, correction, root, keepdim):
    """(var or std, mean) of the float array x over `axes` (None: all) as PyTorch's
    std_var_stub makes them, each rounded once to x's dtype."""
    nd = x.ndim
    axes = tuple(range(nd)) if axes is None else tuple(axes)
    keep = [i for i in range(nd) if i not in axes]
    # each output's values in memory order, as its iterator walks the reduced dims
    walk = sorted(axes, key=lambda a: -abs(x.strides[a]))
    rows = (
        np.transpose(x, keep + walk)
        .reshape(int(np.prod([x.shape[i] for i in keep], dtype=np.int64)), -1)
        .astype(np.float64)
    )
    m, n = rows.shape
    if m == 1:
        flat = rows[0].tolist()
        acc: Any = (0.0, 0.0, 0)
        for b, e in chunks(n):
            acc = _combine(acc, _welford(flat[b:e]))
        mean, m2 = np.array([acc[0]]), np.array([acc[1]])
    elif m <= 64:
        acc = [_welford(r) for r in rows.tolist()]
        mean = np.array([a[0] for a in acc])
        m2 = np.array([a[1] for a in acc])
    else:
        mean, m2 = _columns(rows)
    div = float(n - correction) if n > correction else 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        var = m2 / div
        out = np.sqrt(var) if root else var
    shape = (
        tuple(1 if i in axes else s for i, s in enumerate(x.shape))
        if keepdim
        else tuple(x.shape[i] for i in keep)
    )
    return out.astype(x.dtype).reshape(shape), mean.astype(x.dtype).reshape(shape)


def _no_dof_backward(node, g, F, x, out):
    """var_backward (std_backward) with a dim given and n - correction <= 0: the factor
    2 / (n - correction) as it comes (negative, or inf at 0), or None to take Var's."""
    denom = node.n - node.c
    if denom > 0 or node.axes is None or F.tensor_mode or x.dtype.char not in "fd":
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        if node.root:
            g = np.where(out == 0, 0, g / (out * 2)).astype(x.dtype)
        factor = x.dtype.type(2.0 / denom if denom else np.inf)
        mean = np.asarray(sum_axes(x, node.axes, True, x.dtype) / node.n, dtype=x.dtype)
        g = expand_back(g, F, node.shape, node.axes, node.keepdim)
        return ((factor * g) * (x - mean),)


def _setup_moments(node, x, dim, correction, keepdim, given):
    node.setup(x, dim, keepdim)
    ax = node.axes
    node.n = x.size if ax is None else int(np.prod([x.shape[a] for a in ax]))
    node.c, node.correction = correction, given


#: the _saved_ attributes of VarMeanBackward0/StdMeanBackward0 besides its tensors
MOMENT_SAVED = {
    "correction": lambda node: node.correction,
    "dim": saved_dims,
    "keepdim": saved_keepdim,
}


class VarMean(Var):
    """var_mean's first output (var_backward); the node PyTorch calls VarMeanBackward0.
    StdMean takes its steps before Std's."""

    __slots__ = ()
    deferrable = False
    name = "VarMeanBackward0"
    saved_names: Any = ("self", None)
    saved_extra = MOMENT_SAVED

    def forward(self, x, out, dim=None, correction=1, keepdim=False, given=1):
        _setup_moments(self, x, dim, correction, keepdim, given)
        self.save(x, out)
        return out

    def backward(self, g, F, x, out):
        return _no_dof_backward(self, g, F, x, out) or super().backward(g, F, x, out)


class StdMean(VarMean, Std):
    """std_mean's first output (std_backward, reached from VarMean's backward when a dim
    has degrees of freedom left); PyTorch's StdMeanBackward0."""

    __slots__ = ()
    name = "StdMeanBackward0"
    saved_names: Any = ("self", "result0")


class _MomentsMean(Mean):
    """The mean output of var_mean/std_mean: mean_backward (the expanded gradient
    divided by the number of values reduced)."""

    __slots__ = ("correction",)
    deferrable = False
    saved_names: Any = ()
    saved_extra = MOMENT_SAVED
    holds_saved = True  # (PyTorch's one node saves self: a second backward fails)

    def formula(self, S, x):
        return S.mean(x, self.axes, self.keepdim)

    def forward(self, x, out, dim=None, correction=1, keepdim=False, given=1):
        self.setup(x, dim, keepdim)
        ax = self.axes
        self.n = x.size if ax is None else int(np.prod([x.shape[a] for a in ax]))
        self.correction = given
        return out


class VarMeanMean(_MomentsMean):
    __slots__ = ()
    name = "VarMeanBackward0"


class StdMeanMean(_MomentsMean):
    __slots__ = ()
    name = "StdMeanBackward0"


def _moments(name, first, second, root, input, dim, unbiased, keepdim, correction):
    x = _float_input(name, input)
    if x.data.dtype.kind != "f":
        raise GradRuntimeError(
            f"{name.split('_')[0]}_mean only support floating point and complex dtypes"
        )
    check_reduction(x.data.shape, dim)
    if isinstance(dim, bool):  # var_mean(x, False): the legacy `unbiased` positional
        unbiased, dim = dim, None
    told = dim is not None or unbiased is not None or correction is not None
    if correction is None:
        correction = 1 if unbiased in (None, True) else 0
    given = correction if told else None
    dim = _dims(dim)
    data = x.data
    axes = None if dim is None else norm_dims(dim, data.ndim)
    keepdim = bool(keepdim)
    n = data.size if axes is None else int(np.prod([data.shape[a] for a in axes]))
    if n - correction <= 0:
        context.warn(
            f"{name.split('_')[0]}_mean(): degrees of freedom is <= 0. Correction should be "
            "strictly less than the reduction factor (input numel divided by output numel)."
        )
    if data.size == 0 or n == 0:
        shape = np.sum(data, axis=axes, keepdims=keepdim).shape
        out = np.full(shape, np.nan, data.dtype)
        mean = out.copy()
    else:
        out, mean = welford_moments(data, axes, correction, root, keepdim)
    kw = {"dim": dim, "correction": correction, "keepdim": keepdim, "given": given}
    return (first.apply(x, out=out, **kw), second.apply(x, out=mean, **kw))


@register(
    "var_mean",
    "var_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None)",
    "(variance, mean), in one pass (unbiased unless unbiased=false or correction=0)",
    method=False,
    checks=REDUCE_CHECKS[1:] + [((M,), {"dim": 1, "correction": 0})],
    category="reduce",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _moments(
        "var_mean", VarMean, VarMeanMean, False, input, dim, unbiased, keepdim, correction
    )


@register(
    "std_mean",
    "std_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None)",
    "(standard deviation, mean), in one pass (unbiased unless unbiased=false or correction=0)",
    method=False,
    checks=REDUCE_CHECKS[1:] + [((Arg((3, 4)),), {"dim": 0, "keepdim": True})],
    category="reduce",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _moments(
        "std_mean", StdMean, StdMeanMean, True, input, dim, unbiased, keepdim, correction
    )
