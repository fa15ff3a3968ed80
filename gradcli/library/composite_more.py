"""More torch functions that ATen composes of other ops, each written as torch writes it
so that its values and graph are torch's: `torch.diff` (narrows and a subtraction,
`SubBackward0`; `x.diff()` too, while the language's own `diff(f)` stays the derivative of
a function), `torch.inner` and `torch.tensordot` (permutes, reshapes and one `mm`,
`ViewBackward0`), `torch.logspace` (ATen's loop: `pow(base, start + step * i)` in double
for the first half, from the end for the second), `torch.histc` (ATen's linear binning
in the input's dtype) and `torch.quantile`/`nanquantile` (sort, ranks, gathers and an
in-place lerp, as quantile_compute writes them), `torch.combinations` (a meshgrid of r
copies, masked_select of each grid by the mask of increasing indices, stacked:
`StackBackward0`)."""

from __future__ import annotations

import math

import numpy as np

from ..core.convert import type_name
from ..core.tensor import Tensor
from ..engine.declare import none
from ..ops.creation import _check_sizes, _dt, _num, _numbers, leaf
from ..ops.dims import norm_dims, one_dim
from ..ops.linalg import Transpose
from ..ops.reduce import _torch_name
from ..ops.shape import SqueezeDim, Unsqueeze
from ..ops.registry import FUNCTIONS, Arg, register
from ..runtime.errors import GradRuntimeError, GradTypeError
from .values import METHODS

M = Arg((2, 3))


def _f(name):
    return FUNCTIONS[name]


def _tensor(name, v, what, pos):
    if not isinstance(v, Tensor):
        raise GradTypeError(
            f"{name}(): argument '{what}' (position {pos}) must be Tensor, not {type_name(v)}"
        )
    return v


# ------------------------------------------------------------------ combinations


@register(
    "combinations",
    "combinations(input, r=2, with_replacement=False)",
    "the r-element combinations of a 1-D tensor's elements, one a row (as itertools')",
    checks=[((Arg((4,)),), {}), ((Arg((3,)),), {"r": 3, "with_replacement": True})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def combinations(input, r=2, with_replacement=False):
    """ATen's Itertools.cpp: r grids of meshgrid(input, ..., indexing='ij'), each
    masked_select-ed by _triu_mask (indices i < j < ..., or <= with replacement), stacked
    as columns; r = 0 gives an empty tensor."""
    x = _tensor("combinations", input, "input", 1)
    if x.data.ndim != 1:
        raise GradRuntimeError(
            f"Expect a 1D vector, but got shape [{', '.join(map(str, x.data.shape))}]"
        )
    if r < 0:
        raise GradRuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return Tensor(np.empty((0,), x.data.dtype))
    n = x.data.shape[0]
    index = np.meshgrid(*([np.arange(n)] * r), indexing="ij")
    mask = np.ones((n,) * r, bool)
    for a, b in zip(index, index[1:]):
        mask &= (a <= b) if with_replacement else (a < b)
    grids = _f("meshgrid")(*([x] * r), indexing="ij")
    m = Tensor(mask)
    return _f("stack")([_f("masked_select")(g, m) for g in grids], 1)


# ------------------------------------------------------------------ diff


def _diff_shape_check(x, other, axis):
    if other is None:
        return
    _tensor("diff", other, "prepend", 4)
    xs, os_ = x.data.shape, other.data.shape
    if len(os_) != len(xs):
        raise GradRuntimeError("diff expects prepend or append to be the same dimension as input")
    for i, (a, b) in enumerate(zip(xs, os_)):
        if i != axis and a != b:
            raise GradRuntimeError(
                "diff expects the shape of tensor to prepend or append to match that of input "
                "except along the differencing dimension; "
                f"input.size({i}) = {a}, but got tensor.size({i}) = {b}"
            )


@register(
    "diff",
    "x.diff(n=1, dim=-1, prepend=None, append=None)",
    "the n-th forward difference along dim (torch.diff; the language's diff(f) is a derivative)",
    method=True,
    function=False,
    checks=[
        ((M,), {}),
        ((Arg((4, 3)),), {"dim": 0, "n": 2}),
        ((Arg((2, 3)),), {"prepend": Arg((2, 1)), "append": Arg((2, 2))}),
    ],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def torch_diff(input, n=1, dim=-1, prepend=None, append=None):
    x = _tensor("diff", input, "input", 1)
    for v, what, pos in ((n, "n", 2), (dim, "dim", 3)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise GradTypeError(
                f"diff(): argument '{what}' (position {pos}) must be int, not {type_name(v)}"
            )
    if x.data.ndim < 1:
        raise GradRuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise GradRuntimeError(f"order must be non-negative but got {n}")
    (axis,) = norm_dims(dim, x.data.ndim)
    _diff_shape_check(x, prepend, axis)
    _diff_shape_check(x, append, axis)
    if n == 0:  # ATen: zeros_like(self).copy_(self) (CopyBackwards)
        out = _f("zeros_like")(x)
        METHODS["copy_"](out, x)
        return out
    if prepend is not None or append is not None:
        parts = [t for t in (prepend, x, append) if t is not None]
        x = _f("cat")(parts, axis)
    size = x.data.shape[axis]
    out_len = size - 1
    narrow, boolean = _f("narrow"), x.data.dtype == np.bool_
    for _ in range(min(n, size)):
        hi, lo = narrow(x, axis, 1, out_len), narrow(x, axis, 0, out_len)
        x = _f("logical_xor")(hi, lo) if boolean else _f("sub")(hi, lo)
        out_len -= 1
    return x


# ------------------------------------------------------------------ tensordot, inner


def _tensordot(a, b, dims_a, dims_b):
    """ATen's tensordot: contracted size-1 dims summed first, then permute, reshape, mm and
    reshape to the result's sizes."""
    if len(dims_a) != len(dims_b):
        raise GradRuntimeError("both dimension lists should have same length")
    if a.data.dtype != b.data.dtype:
        raise GradRuntimeError("both inputs should have same dtype")
    na, nb = a.data.ndim, b.data.ndim
    da = [norm_dims(d, na)[0] if na else 0 for d in dims_a]
    db = [norm_dims(d, nb)[0] if nb else 0 for d in dims_b]
    t1, t2, csize = a, b, 1
    for d1, d2 in zip(da, db):
        s1, s2 = a.data.shape[d1], b.data.shape[d2]
        if s2 == 1:
            t1 = _f("sum")(t1, d1, True)
        elif s1 == 1:
            t2 = _f("sum")(t2, d2, True)
        else:
            if s1 != s2:
                raise GradRuntimeError(
                    f"contracted dimensions need to match, but first has size {s1} in dim "
                    f"{dims_a[da.index(d1)]} and second has size {s2} in dim {dims_b[db.index(d2)]}"
                )
            csize *= s1
    p1 = [i for i in range(na) if i not in da] + da
    p2 = db + [i for i in range(nb) if i not in db]
    rsizes = [t1.data.shape[i] for i in range(na) if i not in da]
    rsizes += [t2.data.shape[i] for i in range(nb) if i not in db]
    size1 = math.prod(t1.data.shape[i] for i in range(na) if i not in da)
    size2 = math.prod(t2.data.shape[i] for i in range(nb) if i not in db)
    if not rsizes:  # a number: the dot product of the two flattened
        t1, t2 = _f("permute")(t1, p1), _f("permute")(t2, p2)
        t1 = t1 if t1.data.shape == (csize,) else _f("reshape")(t1, (csize,))
        t2 = t2 if t2.data.shape == (csize,) else _f("reshape")(t2, (csize,))
        return _f("reshape")(_f("dot")(t1, t2), ())
    t1 = _f("reshape")(_f("permute")(t1, p1), (size1, csize))
    t2 = _f("reshape")(_f("permute")(t2, p2), (csize, size2))
    return _f("reshape")(_f("mm")(t1, t2), tuple(rsizes))


@register(
    "tensordot",
    "tensordot(a, b, dims=2)",
    "sum of products over the last dims of a and the first of b (or the listed dims)",
    checks=[
        ((M, Arg((3, 2))), {"dims": 1}),
        ((Arg((2, 3, 2)), Arg((3, 2))), {"dims": ([1, 2], [0, 1])}),
    ],
    category="linalg",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def tensordot(a, b, dims=2, out=None):
    _tensor("tensordot", a, "a", 1)
    _tensor("tensordot", b, "b", 2)
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, (list, tuple)):
        if len(dims) != 2:
            raise GradRuntimeError("tensordot expects dims to be a pair of dimension lists")
        dims_a, dims_b = dims
        dims_a = [dims_a] if isinstance(dims_a, int) else list(dims_a)
        dims_b = [dims_b] if isinstance(dims_b, int) else list(dims_b)
    elif isinstance(dims, int) and not isinstance(dims, bool):
        if dims < 0:
            raise GradRuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.data.ndim, b.data.ndim):
            raise GradRuntimeError(
                f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}"
            )
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    else:
        raise GradRuntimeError(f"tensordot expects dims to be int or tuple, not {type_name(dims)}")
    for t, ds in ((a, dims_a), (b, dims_b)):
        for d in ds:
            one_dim(d, t.data.ndim)  # a scalar has no dim to contract: PyTorch's error
    return _tensordot(a, b, dims_a, dims_b)


@register(
    "inner",
    "inner(input, other)",
    "sum of products over the last dim of both (the dot product of 1-D tensors)",
    method=True,
    checks=[((M, Arg((4, 3))), {}), ((Arg((3,)), Arg((3,))), {}), ((M, Arg(())), {})],
    category="linalg",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def inner(input, other):
    a = _tensor("inner", input, "input", 1)
    b = _tensor("inner", other, "other", 2)
    if a.data.ndim == 0 or b.data.ndim == 0:
        return _f("mul")(a, b)
    if a.data.shape[-1] != b.data.shape[-1]:
        raise GradRuntimeError(
            "inner() the last dimension must match on both input tensors but got shapes "
            f"{list(a.data.shape)} and {list(b.data.shape)}"
        )
    return _tensordot(a, b, [-1], [-1])


# ------------------------------------------------------------------ logspace


@register(
    "logspace",
    "logspace(start, end, steps, base=10.0, dtype=None, requires_grad=False)",
    "steps values from base**start to base**end, evenly spaced in the exponent",
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
    parser=None,
)
def logspace(start, end, steps, base=10.0, dtype=None, requires_grad=False, device=None):
    start, end, steps, base = _num(start), _num(end), _num(steps), _num(base)
    _numbers("logspace", (start, end, steps, base), ((int, float),) * 2 + ((int,), (int, float)))
    if steps < 0:
        raise GradRuntimeError("number of steps must be non-negative")
    dt = _dt(dtype)
    _check_sizes((steps,))
    if steps == 1:
        return leaf(np.array([math.pow(base, float(start))]).astype(dt), requires_grad)
    if dt.kind == "f":
        # ATen: start and end in the dtype, the step in double, pow(double base, ...)
        a, b = float(dt.type(start)), float(dt.type(end))
        b_ = float(base)
    else:
        a, b = float(int(start)), float(int(end))
        b_ = float(np.float32(base))  # (integers: a float base)
    step = (b - a) / (steps - 1) if steps > 1 else 0.0
    half = steps // 2
    idx = np.arange(steps, dtype=np.float64)
    e = np.where(idx < half, a + step * idx, b - step * (steps - 1 - idx))  # (not fused)
    with np.errstate(all="ignore"):
        v = np.power(b_, e)  # the C library's pow, as std::pow
    if dt.kind != "f":
        v = np.where(np.isfinite(v), v, 0).astype(np.int64)
    out = v.astype(dt)
    return leaf(out, requires_grad)


# ------------------------------------------------------------------ histc


def _g(v):
    """A double as C++'s stream prints it (6 significant digits; the NaN aminmax's vector
    code makes has its sign bit set: -nan)."""
    return "-nan" if math.isnan(v) else f"{v:g}"


@register(
    "histc",
    "histc(input, bins=100, min=0, max=0)",
    "counts of input's values in bins equal-width bins over [min, max] (both 0: the data's range)",
    method=True,
    checks=none("counts: nothing to differentiate"),
    category="reduce",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def histc(input, bins=100, min=0, max=0):
    x = _tensor("histc", input, "input", 1)
    data = x.data
    if data.dtype.kind != "f":
        raise GradRuntimeError(
            f"\"histogram_cpu\" not implemented for '{_torch_name(data.dtype)}'",
            type_name="NotImplementedError",
        )
    if isinstance(bins, bool) or not isinstance(bins, int):
        raise GradTypeError(
            f"histc(): argument 'bins' (position 2) must be int, not {type_name(bins)}"
        )
    lo, hi = float(min), float(max)
    if lo == hi and data.size:  # the data's range (ATen's aminmax)
        lo, hi = float(np.min(data)), float(np.max(data))
        if np.isnan(data).any():
            lo = hi = math.nan
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise GradRuntimeError(f"torch.histc: range of [{_g(lo)}, {_g(hi)}] is not finite")
    if not lo < hi:
        raise GradRuntimeError("torch.histc: max must be larger than min")
    if bins <= 0:
        raise GradRuntimeError(
            f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0"
        )
    dt = data.dtype.type
    left, right = dt(lo), dt(hi)  # the first and last of linspace's edges, in the dtype
    flat = data.reshape(-1)
    with np.errstate(invalid="ignore"):
        inside = (flat >= left) & (flat <= right)  # (NaN is never inside)
    vals = flat[inside]
    # ATen: (elt - leftmost) * (bins) / (rightmost - leftmost) in the dtype, truncated
    pos = ((vals - left) * dt(bins) / (right - left)).astype(np.int64)
    pos[pos == bins] = bins - 1
    counts = np.bincount(pos, minlength=bins)[:bins]
    return Tensor(counts.astype(data.dtype))


# ------------------------------------------------------------------ quantile


class _SqueezeInplace(SqueezeDim):
    """x.squeeze_(dim), as quantile ends: the in-place form's node."""

    __slots__ = ()
    name = "SqueezeBackward4"


class _UnsqueezeInplace(Unsqueeze):
    __slots__ = ()
    name = "UnsqueezeBackward1"


class _TransposeInplace(Transpose):
    __slots__ = ()
    name = "TransposeBackward1"


_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(name, input, q, dim, keepdim, interpolation, ignore_nan):
    x = _tensor(name, input, "input", 1)
    data = x.data
    if isinstance(q, (int, float)) and not isinstance(q, bool):
        if not 0 <= q <= 1:
            raise GradRuntimeError(f"quantile() q must be in the range [0, 1] but got {q}")
        qt = np.asarray(q, data.dtype)  # (at::scalar_tensor(q, self.options()))
    else:
        qt = _tensor(name, q, "q", 2).data
    if data.size == 0:
        raise GradRuntimeError("quantile() input tensor must be non-empty")
    if qt.ndim > 1:
        raise GradRuntimeError("quantile() q must be a scalar or 1D tensor")
    if data.dtype not in (np.float32, np.float64):
        raise GradRuntimeError("quantile() input tensor must be either float or double dtype")
    if qt.dtype != data.dtype:
        raise GradRuntimeError("quantile() q tensor must be same dtype as the input tensor")
    if interpolation not in _MODES:
        raise GradRuntimeError(
            "quantile() interpolation must be one of linear, lower, higher, midpoint or "
            f"nearest, but got {interpolation}"
        )
    nd = data.ndim
    axis = None if dim is None else (norm_dims(dim, nd) or (0,))[0]
    # the output's shape: q's size, then the reduced input's
    if dim is not None and nd:
        out_shape = list(data.shape)
        if keepdim:
            out_shape[axis] = 1
        else:
            del out_shape[axis]
    else:
        out_shape = [1] * nd if keepdim else []
    if qt.ndim:
        out_shape.insert(0, qt.size)
    if not ((qt >= 0) & (qt <= 1)).all():
        raise GradRuntimeError("quantile() q values must be in the range [0, 1]")
    f = _f
    if dim is None:
        ordered = f("sort")(f("flatten")(x))[0]
    elif axis == nd - 1 or nd == 0:
        ordered = f("sort")(x)[0]
    else:
        ordered = f("sort")(f("transpose")(f("unsqueeze")(x, -1), axis, -1))[0]
    if qt.ndim == 0:
        out_shape.insert(0, 1)
    in_shape = out_shape[1:] + [ordered.data.shape[-1] if ordered.data.ndim else 1]
    ordered = f("view")(ordered, tuple(in_shape))
    s = ordered.data
    q1 = qt.reshape(-1)
    last = s.shape[-1] - 1
    nan = np.isnan(s)
    if ignore_nan:
        count = np.sum(~nan, axis=-1, keepdims=True, dtype=np.int64) - 1
        ranks = q1 * count.astype(s.dtype)
        ranks = np.where(ranks < 0, s.dtype.type(0), ranks)
    else:
        ranks = q1 * s.dtype.type(last)
        ranks, any_nan = np.broadcast_arrays(ranks, nan.any(axis=-1, keepdims=True))
        ranks = np.where(any_nan, s.dtype.type(last), ranks)
    ranks = np.asarray(ranks, s.dtype)
    if interpolation == "lower":
        ranks = np.floor(ranks)
    elif interpolation == "higher":
        ranks = np.ceil(ranks)
    elif interpolation == "nearest":
        ranks = np.round(ranks)  # (half to even, as nearbyint)
    below = ranks.astype(np.int64)
    values = f("gather")(ordered, -1, Tensor(below))
    if interpolation in ("linear", "midpoint"):
        weights = (
            np.full_like(ranks, 0.5)
            if interpolation == "midpoint"
            else ranks - below.astype(s.dtype)
        )
        above = np.ceil(ranks).astype(np.int64)
        values = METHODS["lerp_"](values, f("gather")(ordered, -1, Tensor(above)), Tensor(weights))
    nv = values.data.ndim
    if qt.ndim == 0:
        return _SqueezeInplace.apply(values, axes=(nv - 1,), dim=-1)
    values = _UnsqueezeInplace.apply(values, axis=0, dim=0)
    values = _TransposeInplace.apply(values, d0=0, d1=nv, dim0=0, dim1=-1)
    return _SqueezeInplace.apply(values, axes=(nv,), dim=-1)


for _name, _nan in (("quantile", False), ("nanquantile", True)):

    def _fn(input, q, dim=None, keepdim=False, *, interpolation="linear", _name=_name, _nan=_nan):
        return _quantile(_name, input, q, dim, keepdim, interpolation, _nan)

    _fn.__name__ = _name
    register(
        _name,
        f"{_name}(input, q, dim=None, keepdim=False, *, interpolation='linear')",
        "the q-th quantiles of all elements or along dim"
        + (", NaN ignored" if _nan else "")
        + " (interpolation: linear, lower, higher, midpoint, nearest)",
        method=True,
        checks=[
            ((Arg((2, 5)), 0.3), {}),
            ((Arg((3, 4)), 0.75), {"dim": 0, "keepdim": True}),
            ((Arg((2, 5)), 0.5), {"dim": 1, "interpolation": "midpoint"}),
        ],
        category="reduce",
        batch=None,
        inplace=None,
        pure=False,
        parser=None,
    )(_fn)
del _name, _nan
