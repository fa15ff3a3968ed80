"""Updates of the slices that a 1-D index names along a dim: `index_add` (with `alpha`),
`index_copy` and `index_fill` (a number, or a 0-d tensor), each with its in-place method
(`x.index_add_(...)`), as PyTorch 2.13 computes them: index_add adds the source's slices
in index order (repeated indices add one after the other; with `alpha`, PyTorch's add
kernel's fused `self + alpha * source`), index_copy writes them in index order (the
last of repeated indices wins), index_fill writes the value.

Gradients as derivatives.yaml writes them: index_add's self gets grad, its source
`grad.index_select(dim, index)` (times alpha); index_copy's self `grad.index_fill(dim,
index, 0)`, its source `grad.index_select(dim, index)`; index_fill's self
`grad.index_fill(dim, index, 0)`, a tensor value `grad.index_select(dim, unique
index).sum()`."""

from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor, type_name
from ..engine.function import FUNCTIONS, Function
from ..numerics.floats.scaled_add import scaled_add
from ..runtime.errors import GradIndexError, GradRuntimeError, GradTypeError
from .dims import norm_dims
from .gathering import _index_arg, _order, _places, _scatter_checks, _tensor
from .reduce import _torch_name
from .registry import Arg, register
from .tensor_args import int_arg

M = Arg((3, 4))


def _axis(op, x, dim):
    d = norm_dims(int_arg(op, dim, "dim", 2), x.ndim)
    return d[0] if d else 0


def _slices(a, axis):
    """a viewed with `axis` first (a 0-d a as one slice)."""
    return a.reshape(1) if a.ndim == 0 else np.moveaxis(a, axis, 0)


def _index_add(x, axis, index, src, alpha):
    out = np.array(x)  # (a 0-d gradient may be a NumPy scalar: its copy is not writable)
    o, s = _slices(out, axis), _slices(src, axis)
    if alpha == 1:
        np.add.at(o, index, s)  # in index order, as the kernel's loop
    else:
        for k, j in enumerate(index.tolist()):
            o[j] = scaled_add(o[j], s[k], alpha, out.dtype)
    return out


def _index_copy(x, axis, index, src):
    out = np.array(x)  # (a 0-d gradient may be a NumPy scalar: its copy is not writable)
    o, s = _slices(out, axis), _slices(src, axis)
    for k, j in enumerate(index.tolist()):
        o[j] = s[k]
    return out


def _index_fill(x, axis, index, value):
    out = np.array(x)  # (a 0-d gradient may be a NumPy scalar: its copy is not writable)
    _slices(out, axis)[index] = value
    return out


def _select_grad(g, F, axis, index, src_shape):
    """grad.index_select(dim, index) in the source's shape."""
    if F.tensor_mode:
        if g.data.ndim == 0:
            return g if not src_shape else FUNCTIONS["expand"](g, *src_shape)
        picked = FUNCTIONS["index_select"](g, axis, Tensor(index.astype(np.int64)))
        if not src_shape:
            return FUNCTIONS["reshape"](picked, ())
        return (
            picked
            if picked.data.shape == tuple(src_shape)
            else FUNCTIONS["expand"](picked, *src_shape)
        )
    picked = g.copy() if g.ndim == 0 else np.take(g, index, axis=axis)
    return np.broadcast_to(picked, src_shape).copy() if picked.shape != tuple(src_shape) else picked


def _filled_grad(g, F, axis, index):
    """grad.index_fill(dim, index, 0)."""
    if F.tensor_mode:
        return IndexFill.apply(g, axis=axis, index=index, value=0.0, dim=axis)
    return _index_fill(g, axis, index, 0)


def _saved_index(node):
    return Tensor(node.index.astype(np.int64))


_SAVED = {"dim": lambda node: node.dim, "index": _saved_index}


class IndexAddOp(Function):
    __slots__ = ("axis", "index", "alpha", "src_shape", "dim", "shape")
    name = "IndexAddBackward0"
    saved_names: tuple = ("source",)
    saved_extra = {
        **_SAVED,
        "alpha": lambda node: node.alpha,
        "source_dim": lambda node: len(node.src_shape),
    }

    def formula(self, S, x, src):
        out = S.obj(x).copy()
        o, s = _slices(out, self.axis), _slices(S.obj(src), self.axis)
        for k, j in enumerate(self.index.tolist()):
            o[j] = o[j] + s[k] * self.alpha
        return out

    def forward(self, x, src, axis, index, alpha, dim):
        self.axis, self.index, self.alpha, self.dim = axis, index, alpha, dim
        self.src_shape, self.shape = src.shape, x.shape
        self.save(src)
        return _index_add(x, axis, index, src, alpha)

    def backward(self, g, F, src):
        gs = _select_grad(g, F, self.axis, self.index, self.src_shape)
        return (g, gs if self.alpha == 1 else gs * self.alpha)

    def jvp(self, ts, F, src):
        # index_add(self_t, dim, index, source_t * alpha)
        tx, tsrc = _tangents(ts, (self.shape, self.src_shape))
        if self.alpha != 1:
            tsrc = tsrc * self.alpha
        return IndexAddOp.apply(tx, tsrc, axis=self.axis, index=self.index, alpha=1, dim=self.dim)


class IndexAddNoSource(IndexAddOp):
    """index_add whose source needs no gradient: PyTorch saves the source only for the
    source's gradient, so here nothing is kept (a second backward runs)."""

    __slots__ = ()
    saved_names = ()

    def forward(self, x, src, axis, index, alpha, dim):
        self.axis, self.index, self.alpha, self.dim = axis, index, alpha, dim
        self.src_shape, self.shape = src.shape, x.shape
        return _index_add(x, axis, index, src, alpha)

    def backward(self, g, F):
        return (g, None)

    def jvp(self, ts, F):
        return IndexAddOp.jvp(self, ts, F, None)


def _tangents(ts, shapes):
    """The tangents, zeros where an input has none."""
    dt = next(t.data.dtype for t in ts if t is not None)
    return [Tensor(np.zeros(sh, dt)) if t is None else t for t, sh in zip(ts, shapes)]


class IndexCopy(Function):
    __slots__ = ("axis", "index", "src_shape", "dim", "shape")
    name = "IndexCopyBackward0"
    saved_names = ("source",)
    saved_extra = {**_SAVED, "source_dim": lambda node: len(node.src_shape)}

    def formula(self, S, x, src):
        return S.obj(_index_copy(S.obj(x), self.axis, self.index, S.obj(src)))

    def forward(self, x, src, axis, index, dim):
        self.axis, self.index, self.dim = axis, index, dim
        self.src_shape, self.shape = src.shape, x.shape
        self.save(src)
        return _index_copy(x, axis, index, src)

    def backward(self, g, F, src):
        return (
            _filled_grad(g, F, self.axis, self.index),
            _select_grad(g, F, self.axis, self.index, self.src_shape),
        )

    def jvp(self, ts, F, src):
        tx, tsrc = _tangents(ts, (self.shape, self.src_shape))  # self_t.index_copy(..., source_t)
        return IndexCopy.apply(tx, tsrc, axis=self.axis, index=self.index, dim=self.dim)


class IndexFill(Function):
    __slots__ = ("axis", "index", "dim", "value")
    name = "IndexFillBackward0"
    holds_saved = True  # (its index: a second backward fails, as in PyTorch)
    saved_names = ()
    saved_extra = _SAVED

    def formula(self, S, x):
        return S.obj(_index_fill(S.obj(x), self.axis, self.index, S.number(self.value)))

    def forward(self, x, axis, index, value, dim):
        self.axis, self.index, self.dim, self.value = axis, index, dim, value
        return _index_fill(x, axis, index, value)

    def backward(self, g, F):
        return (_filled_grad(g, F, self.axis, self.index),)

    def jvp(self, ts, F):
        return IndexFill.apply(ts[0], axis=self.axis, index=self.index, value=0.0, dim=self.dim)


class IndexFillTensor(Function):
    __slots__ = ("axis", "index", "dim")
    name = "IndexFillBackward1"
    holds_saved = True  # (its index: a second backward fails, as in PyTorch)
    saved_names = ()
    saved_extra = _SAVED

    def formula(self, S, x, v):
        return S.obj(_index_fill(S.obj(x), self.axis, self.index, S.obj(v)[()]))

    def forward(self, x, v, axis, index, dim):
        self.axis, self.index, self.dim = axis, index, dim
        return _index_fill(x, axis, index, v.astype(x.dtype))

    def backward(self, g, F):
        uniq = np.unique(self.index)  # value: grad.index_select(dim, unique index).sum()
        if F.tensor_mode:
            picked = g
            if g.data.ndim:
                picked = FUNCTIONS["index_select"](g, self.axis, Tensor(uniq.astype(np.int64)))
            gv = FUNCTIONS["sum"](picked)
        else:
            gv = np.asarray(np.sum(np.take(g, uniq, axis=self.axis) if g.ndim else g), g.dtype)
        return (_filled_grad(g, F, self.axis, self.index), gv)

    def jvp(self, ts, F):
        tx, tv = ts
        if tx is None:
            raise GradRuntimeError("index_fill: forward mode of the value alone is not supported")
        if tv is None:
            return IndexFill.apply(tx, axis=self.axis, index=self.index, value=0.0, dim=self.dim)
        return IndexFillTensor.apply(tx, tv, axis=self.axis, index=self.index, dim=self.dim)


# ------------------------------------------------------------------ the built-ins


def _index(op, index, x, axis, kinds=(np.int64, np.int32)):
    idx = _tensor(index, op, "index", 3)
    data = idx.data
    if data.dtype not in kinds:
        if op == "index_fill_":
            raise GradIndexError("index_fill_(): Expected dtype int64 for index.")
        if op == "index_copy_":
            raise GradRuntimeError(
                "index_copy_(): Expected a long tensor for index, but got "
                + _torch_name(data.dtype)
            )
        raise GradRuntimeError(
            f"{op}(): Expected dtype int32/int64 for index but got: {_torch_name(data.dtype)}"
        )
    if data.ndim > 1:
        raise GradIndexError(
            f"{op}(): Index is supposed to be a vector, but got dim: {data.ndim} with type: "
            f"{_torch_name(data.dtype)} and size: {list(data.shape)}"
        )
    flat = data.reshape(-1).astype(np.intp)
    n = x.shape[axis] if x.ndim else 1
    bad = flat[(flat < -n if op == "index_fill_" else flat < 0) | (flat >= n)]
    if bad.size:
        what = "index_copy_(): " if op == "index_copy_" else ""
        err = GradIndexError if op != "index_add_" else GradRuntimeError
        raise err(f"{what}index {int(bad[0])} is out of bounds for dimension {axis} with size {n}")
    return np.where(flat < 0, flat + n, flat)


def _source(op, x, src, axis, index, pos):
    s = _tensor(src, op.rstrip("_"), "source", pos)
    xs, ss = x.data.shape, s.data.shape
    if s.data.dtype != x.data.dtype:
        if op == "index_copy_":
            raise GradRuntimeError(
                "index_copy_(): self and source expected to have the same dtype, but got (self) "
                f"{_torch_name(x.data.dtype)} and (source) {_torch_name(s.data.dtype)}"
            )
        raise GradRuntimeError(
            f"{op}(): self ({_torch_name(x.data.dtype)}) and source "
            f"({_torch_name(s.data.dtype)}) must have the same scalar type"
        )
    n_src = ss[axis] if s.data.ndim else 1
    if (
        (xs or op == "index_add_")
        and ss
        and (len(xs) != len(ss) or any(a != b for i, (a, b) in enumerate(zip(xs, ss)) if i != axis))
    ):
        if op == "index_copy_":
            if len(xs) != len(ss):
                raise GradIndexError(
                    "index_copy_(): When source and destination are not scalars, their "
                    f"dimensionality must match. Source dimensionality ({len(ss)}), destination "
                    f"dimensionality ({len(xs)})"
                )
            mine = " ".join(str(n) for i, n in enumerate(xs) if i != axis)
            theirs = " ".join(str(n) for i, n in enumerate(ss) if i != axis)
            raise GradRuntimeError(
                "index_copy_(): Source/destination tensor must have same slice shapes. "
                f"Destination slice shape: {mine} at dimension {axis} and source slice shape: "
                f"{theirs} at dimension 0."
            )
        raise GradRuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = {list(xs)} source.shape = {list(ss)}"
        )
    if index.size != n_src:
        if op == "index_copy_":
            raise GradIndexError(
                f"index_copy_(): Number of indices ({index.size}) should be equal to "
                f"source.size(dim) ({n_src})"
            )
        raise GradRuntimeError(
            f"{op}(): Number of indices ({index.size}) should be equal to source.size(dim): "
            f"({n_src}), for dim: {axis}"
        )
    return s


_CHECKS_ADD = [
    ((M, 0, Tensor(np.array([2, 0, 2])), Arg((3, 4))), {}),
    ((M, 1, Tensor(np.array([1])), Arg((3, 1))), {"alpha": 2.5}),
]


@register(
    "index_add",
    "index_add(input, dim, index, source, *, alpha=1)",
    "input with alpha * source's slices added at the positions index names along dim",
    method=True,
    checks=_CHECKS_ADD,
    category="shape",
    batch=None,
    inplace="index_add_",
    pure=False,
    parser=None,
)
def index_add(input, dim, index, source, *, alpha=1):
    x = _tensor(input, "index_add", "input", 1)
    axis = _axis("index_add", x.data, dim)
    idx = _index("index_add_", index, x.data, axis)
    s = _source("index_add_", x, source, axis, idx, 4)
    node = IndexAddOp if s.requires_grad else IndexAddNoSource
    return node.apply(x, s, axis=axis, index=idx, alpha=alpha, dim=dim)


@register(
    "index_copy",
    "index_copy(input, dim, index, source)",
    "input with source's slices copied to the positions index names along dim",
    method=True,
    checks=[
        ((M, 0, Tensor(np.array([2, 0])), Arg((2, 4))), {}),
        ((M, 1, Tensor(np.array([3])), Arg((3, 1))), {}),
    ],
    category="shape",
    batch=None,
    inplace="index_copy_",
    pure=False,
    parser=None,
)
def index_copy(input, dim, index, source):
    x = _tensor(input, "index_copy", "input", 1)
    axis = _axis("index_copy", x.data, dim)
    idx = _index("index_copy_", index, x.data, axis, (np.int64,))
    s = _source("index_copy_", x, source, axis, idx, 4)
    return IndexCopy.apply(x, s, axis=axis, index=idx, dim=dim)


@register(
    "index_fill",
    "index_fill(input, dim, index, value)",
    "input with value written in the slices index names along dim",
    method=True,
    checks=[
        ((M, 1, Tensor(np.array([0, 2])), -1.5), {}),
        ((M, 0, Tensor(np.array([1])), Arg(())), {}),
    ],
    category="shape",
    batch=None,
    inplace="index_fill_",
    pure=False,
    parser=None,
)
def index_fill(input, dim, index, value):
    x = _tensor(input, "index_fill", "input", 1)
    axis = _axis("index_fill", x.data, dim)
    idx = _index("index_fill_", index, x.data, axis, (np.int64,))
    if isinstance(value, Tensor):
        if value.data.ndim:
            raise GradRuntimeError(
                "index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                f"{value.data.ndim} dimension(s)."
            )
        return IndexFillTensor.apply(x, value, axis=axis, index=idx, dim=dim)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise GradTypeError(
            f"index_fill(): argument 'value' (position 4) must be Number, not {type_name(value)}"
        )
    return IndexFill.apply(x, axis=axis, index=idx, value=value, dim=dim)


# ------------------------------------------------------------------ scatter_reduce

_IDENTITY = {"sum": 0.0, "prod": 1.0, "mean": 0.0, "amax": -np.inf, "amin": np.inf}


def _scatter_reduce(x, axis, index, src, reduce, include_self):
    """x.scatter_reduce(dim, index, src, reduce, include_self) as ATen's CPU kernel: the
    places index names reset to the reduction's identity without include_self, then each
    src value combined in the kernel's visiting order (gathering's _order), a mean divided
    by its count (include_self: one more) after."""
    out = np.array(x)  # (a NumPy scalar's copy could not be written through o1)
    o1 = out.reshape(1) if out.ndim == 0 else out
    i1 = index.reshape(1) if index.ndim == 0 else index
    s1 = src.reshape(1) if src.ndim == 0 else src
    order = _order(i1.shape, axis, [o1.shape, i1.shape, s1.shape])
    places = _places(i1, axis, order)
    grids = np.indices(i1.shape).reshape(i1.ndim, -1)[:, order]  # (src's own positions)
    srcs = tuple(grids)
    vals = s1[srcs]
    if not include_self:
        o1[places] = out.dtype.type(_IDENTITY[reduce])
    flat_places = np.ravel_multi_index(places, o1.shape)
    view = o1.reshape(-1)
    for p, v in zip(flat_places.tolist(), vals.tolist()):
        cur = view[p]
        if reduce in ("sum", "mean"):
            view[p] = cur + v
        elif reduce == "prod":
            view[p] = cur * v
        elif v != v:
            view[p] = v
        elif reduce == "amax":
            view[p] = v if cur < v else cur
        else:
            view[p] = v if v < cur else cur
    if reduce == "mean":
        count = np.ones(o1.shape) if include_self else np.zeros(o1.shape)
        np.add.at(count, places, 1)
        count[count == 0] = 1
        o1[...] = o1 / count.astype(out.dtype)
    return out


class ScatterReduce(Function):
    __slots__ = ("axis", "index", "reduce", "include_self", "dim")
    name = "ScatterReduceBackward0"
    saved_names = ("self", "src", "result")
    saved_extra = {
        **_SAVED,
        "reduce": lambda node: node.reduce,
        "include_self": lambda node: node.include_self,
    }

    def formula(self, S, x, src):
        raise S.Unsupported("scatter_reduce")

    def forward(self, x, src, axis, index, reduce, include_self, dim):
        self.axis, self.index, self.reduce = axis, index, reduce
        self.include_self, self.dim = include_self, dim
        out = _scatter_reduce(x, axis, index, src, reduce, include_self)
        self.save(x, src, out)
        return out

    def backward(self, g, F, x, src, out):
        # scatter_reduce_backward (FunctionsManual)
        axis, idx = self.axis, Tensor(self.index.astype(np.int64))
        T = F.tensor_mode
        gather, scatter_add = FUNCTIONS["gather"], FUNCTIONS["scatter_add"]
        gt = g if T else Tensor(g)
        xt, st, ot = (x, src, out) if T else (Tensor(x), Tensor(src), Tensor(out))
        if self.reduce == "sum":
            gself, gsrc = gt, gather(gt, axis, idx)
        elif self.reduce == "mean":
            base = np.ones if self.include_self else np.zeros
            n = scatter_add(
                Tensor(base(gt.data.shape, gt.data.dtype)),
                axis,
                idx,
                Tensor(np.ones(st.data.shape, gt.data.dtype)),
            )
            n = Tensor(np.where(n.data == 0, gt.data.dtype.type(1), n.data))
            gself, gsrc = gt / n, gather(gt, axis, idx) / gather(n, axis, idx)
        elif self.reduce == "prod":
            gself, gsrc = self._prod_grads(gt, xt, st, ot, idx)
        else:
            value = gather(ot, axis, idx)
            # (np.asarray: a 0-d comparison is a NumPy scalar, which scatter_add cannot fill)
            self_is = Tensor(np.asarray(xt.data == ot.data, gt.data.dtype))
            src_is = Tensor(np.asarray(st.data == value.data, gt.data.dtype))
            spread = gt / scatter_add(self_is, axis, idx, src_is)
            gself = self_is * spread
            gsrc = src_is * gather(spread, axis, idx)
        if not self.include_self:
            gself = FUNCTIONS["scatter"](gself, axis, idx, 0.0)
        if T:
            return (gself, gsrc)
        return (gself.data, gsrc.data)

    def _prod_grads(self, g, x, src, out, idx):
        """scatter_reduce_backward's prod: exclusive products where self or src has zeros
        (one zero of src at a place: the product of the others)."""
        axis, f = self.axis, FUNCTIONS
        gather, scatter_add = f["gather"], f["scatter_add"]
        one = x.data.dtype.type(1)

        def again(base, source):
            return ScatterReduce.apply(
                base,
                source,
                axis=axis,
                index=self.index,
                reduce="prod",
                include_self=self.include_self,
                dim=self.dim,
            )

        masked_self = f["masked_fill"](x, Tensor(np.asarray(x.data == 0)), one)
        gself = g * again(masked_self, src) / masked_self
        src_zero = np.asarray(src.data == 0)  # (a 0-d comparison is a NumPy scalar)
        zeros = scatter_add(
            Tensor(np.zeros(x.data.shape, x.data.dtype)),
            axis,
            idx,
            Tensor(src_zero.astype(x.data.dtype)),
        )
        single = Tensor(np.asarray(src_zero & (gather(zeros, axis, idx).data == 1)))
        masked_src = f["masked_fill"](src, single, one)
        gsrc = f["where"](
            single,
            gather(g * again(x, masked_src), axis, idx),
            gather(g * out, axis, idx) / f["masked_fill"](src, Tensor(src_zero), one),
        )
        return gself, gsrc

    def jvp(self, ts, F, x, src, out):
        # scatter_reduce_jvp: linear for sum and mean; amax/amin spread the tangents of
        # the values equal to the result evenly
        tx, tsrc = _tangents(ts, (x.data.shape, src.data.shape))
        axis, idx = self.axis, Tensor(self.index.astype(np.int64))
        if self.reduce == "prod":
            # PyTorch 2.13's forward mode gives prod a zero tangent (measured); so does this
            return Tensor(np.zeros(out.data.shape, out.data.dtype))
        if self.reduce in ("sum", "mean"):
            return ScatterReduce.apply(
                tx,
                tsrc,
                axis=axis,
                index=self.index,
                reduce=self.reduce,
                include_self=self.include_self,
                dim=self.dim,
            )
        gather, scatter_add = FUNCTIONS["gather"], FUNCTIONS["scatter_add"]
        value = gather(out, axis, idx)
        dt = x.data.dtype
        self_is = Tensor(np.asarray(x.data == out.data, dt))
        src_is = Tensor(np.asarray(src.data == value.data, dt))
        n = scatter_add(self_is, axis, idx, src_is)
        return scatter_add(tx * self_is, axis, idx, tsrc * src_is) / n


@register(
    "scatter_reduce",
    "scatter_reduce(input, dim, index, src, reduce, *, include_self=True)",
    "input with src's values reduced (sum, prod, mean, amax, amin) into the places index names along dim",
    method=True,
    checks=[
        (
            (
                Arg((3, 4)),
                1,
                Tensor(np.array([[0, 0, 2], [1, 3, 1], [2, 2, 2]])),
                Arg((3, 3)),
                "sum",
            ),
            {},
        ),
        (
            (Arg((3, 4)), 0, Tensor(np.array([[2, 0, 1, 0], [2, 1, 1, 0]])), Arg((2, 4)), "mean"),
            {"include_self": False},
        ),
        ((Arg((3, 4)), 1, Tensor(np.array([[0, 3], [1, 1], [2, 0]])), Arg((3, 2)), "amax"), {}),
        (
            (Arg((3, 4)), 1, Tensor(np.array([[0, 3], [1, 1], [2, 0]])), Arg((3, 2)), "amin"),
            {"include_self": False},
        ),
    ],
    category="shape",
    batch=None,
    inplace="scatter_reduce_",
    pure=False,
    parser=None,
)
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    x = _tensor(input, "scatter_reduce", "input", 1)
    d = norm_dims(int_arg("scatter_reduce", dim, "dim", 2), x.data.ndim)
    d = d[0] if d else 0
    idx = _index_arg(index, "scatter_reduce", "scatter")
    s = _tensor(src, "scatter_reduce", "src", 4)
    if not isinstance(reduce, str):
        raise GradTypeError(
            f"scatter_reduce(): argument 'reduce' (position 5) must be str, not {type_name(reduce)}"
        )
    reduce = {"max": "amax", "min": "amin"}.get(reduce, reduce)  # (ATen's aliases)
    if reduce not in _IDENTITY:
        raise GradRuntimeError(
            "reduce argument must be either sum, prod, mean, amax or amin, got " + reduce
        )
    _scatter_checks(x, d, idx, s, "scatter")
    return ScatterReduce.apply(
        x, s, axis=d, index=idx, reduce=reduce, include_self=bool(include_self), dim=dim
    )
