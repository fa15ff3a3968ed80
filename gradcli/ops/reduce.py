"""Reductions: sum mean prod max min norm std var logsumexp argmax
argmin, and the running sum cumsum."""

from __future__ import annotations


import numpy as np

from ..engine.declare import none
from ..engine.saved import given, saved_shown, shown_int
from ..core import dtypes
from ..engine.function import FUNCTIONS, Function
from ..engine.vjp_arrays import DENSE_LIMIT, seen
from ..engine.forward import linear, reduction
from ..core.convert import tensor_arg
from ..runtime.errors import GradIndexError, GradRuntimeError
from ..numerics.sums.axes import last_dim_sum, last_dim_sums, sum_axes
from ..numerics.sums.summation import torch_cumsum, torch_sum
from ..runtime import context
from ..runtime.limits import check_reduction
from ..numerics import mkl
from ..numerics.parallel import GRAIN
from ..numerics.floats.singles import weak
from ..core.tensor import Tensor
from .registry import Arg, Parser, register, tensor_f
from .pointwise import maximum, minimum
from .elementwise import DivScalar
from .dims import norm_dims
from .shape import reshape, to

M = Arg((2, 3))
F64 = np.dtype(np.float64)
REDUCE_CHECKS = [
    ((Arg(()),), {}),
    ((Arg((3,)),), {}),
    ((M,), {}),
    ((M,), {"dim": 1}),
    ((M,), {"dim": 0, "keepdim": True}),
    ((Arg((2, 3, 2)),), {"dim": (0, 2)}),
    ((Arg((2, 3, 2)),), {"dim": (-1, 0)}),
]


def expand_back(g, F, shape, axes, keepdim, given=None):
    """The gradient of a reduction over `axes`, broadcast back to `shape`.  Recorded
    (tensor mode), the reduced dims come back as PyTorch's unsqueeze_multiple makes them:
    one dim given, one unsqueeze of it as given (`given`: the dims the call gave); else
    one unsqueeze per dim, in ascending order (a double backward's graph has torch's
    SqueezeBackward1 nodes)."""
    if axes and not keepdim:
        if getattr(F, "tensor_mode", False):  # (F may be NumPy itself)
            unsqueeze = FUNCTIONS["unsqueeze"]
            if given is not None and len(given) == 1:
                g = unsqueeze(g, given[0])
            else:
                for a in sorted(axes):
                    g = unsqueeze(g, a)
        else:
            kshape = tuple(1 if i in axes else n for i, n in enumerate(shape))
            g = F.reshape(g, kshape)
    return F.broadcast_to(g, shape)


def saved_sizes(node):
    """A reduction's `_saved_self_sym_sizes`."""
    return tuple(node.shape)


def saved_numel(node):
    n = 1
    for d in node.shape:
        n *= d
    return n


def saved_dims(node):
    """A reduction's `_saved_dim`: the dims as the call gave them (None when it gave
    none), a negative one shown as PyTorch shows it (an unsigned 64-bit number)."""
    return None if node.dims is None else tuple(shown_int(int(d)) for d in node.dims)


def saved_keepdim(node):
    return node.keepdim


class _Reduce(Function):
    __slots__ = ("shape", "axes", "keepdim", "dims")
    #: its forward saves nothing and sets only fields its arguments' shapes and its
    #: parameters decide, so a replayed loop may make its value later, when the program
    #: can see it (language/replay.py `Deferred`: a loss only `backward` reads)
    deferrable = True

    def setup(self, x, dim, keepdim):
        self.shape, self.keepdim = x.shape, keepdim
        self.dims = None if dim is None else (dim,) if isinstance(dim, int) else tuple(dim)
        dim = None if isinstance(dim, (tuple, list)) and not dim else dim  # []: every dim
        self.axes = None if dim is None else norm_dims(dim, x.ndim)
        return self.axes

    jvp = reduction


def _acc_dtype(x, dtype=None):
    if dtype is not None:
        return dtype
    return dtypes.int64 if x.dtype.kind in "biu" else x.dtype


class Sum(_Reduce):
    __slots__ = ()
    name = "SumBackward0"
    saved_names = ()
    saved_extra = {"self_sym_sizes": saved_sizes}

    def forward(self, x, dim=None, keepdim=False, dtype=None):
        ax = self.setup(x, dim, keepdim)
        out = sum_axes(x, ax, keepdim, _acc_dtype(x, dtype))
        # dense, as PyTorch's result is (a reshape of it is then a view: ViewBackward0)
        return out if out.flags.c_contiguous else np.ascontiguousarray(out)

    def backward(self, g, F):
        g = expand_back(g, F, self.shape, self.axes, self.keepdim, self.dims)
        if F.tensor_mode and g.data.shape == tuple(self.shape):
            g = FUNCTIONS["expand"](g, *self.shape)  # (PyTorch's sum_backward always expands)
        return (g,)

    def formula(self, S, x):
        return S.sum(x, self.axes, self.keepdim)


class SumDim(Sum):
    __slots__ = ()
    name = "SumBackward1"
    saved_names = ()
    saved_extra = {**Sum.saved_extra, "dim": saved_dims, "keepdim": saved_keepdim}


class Mean(_Reduce):
    zeros_through = False  # (PyTorch's kernel materialises efficient zeros)
    __slots__ = ("n",)
    name = "MeanBackward0"
    saved_names = ()
    saved_extra = {"self_sym_sizes": saved_sizes, "self_sym_numel": saved_numel}

    def formula(self, S, x):
        return S.mean(x, self.axes, self.keepdim)

    def forward(self, x, dim=None, keepdim=False, dtype=None):
        if dtype is None and x.dtype.kind != "f":
            raise GradRuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating "
                f"point or complex dtype. Got: {_torch_name(x.dtype)}"
            )
        if dim is None and not keepdim:  # (setup's result for the whole mean)
            self.shape, self.keepdim, self.axes, self.dims = x.shape, False, None, None
            ax = None
        else:
            ax = self.setup(x, dim, keepdim)
        if ax is None and dtype is None:
            self.n = n = x.size
            out = np.asarray(torch_sum(x) / n if n else np.nan, dtype=x.dtype)
            return out.reshape((1,) * x.ndim) if keepdim else out
        self.n = x.size if ax is None else int(np.prod([x.shape[a] for a in ax]))
        if dtype is None and last_dim_sums(x, ax, x.dtype):
            return last_dim_sum(x, ax, keepdim) / self.n  # PyTorch: sum(dim), then divided by n
        if dtype is None and ax and x.dtype.char in "fd" and x.size:
            # PyTorch: sum(dim) in its order (sum_axes), then divided by n
            return np.asarray(sum_axes(x, ax, keepdim, x.dtype) / self.n)
        return np.asarray(np.mean(x, axis=ax, keepdims=keepdim, dtype=dtype))

    def backward(self, g, F):
        n = self.n
        if F.tensor_mode and n:  # PyTorch's grad.expand(sizes) / numel: DivBackward1
            return (DivScalar.apply(expand_back(g, F, self.shape, self.axes, self.keepdim), c=n),)
        if not n:
            g = g * np.nan
        elif type(g) is np.ndarray and not g.ndim and g.dtype is F64:
            g = np.float64(g.item() / n)  # the same IEEE division, without a NumPy call
        else:
            g = np.true_divide(g, weak(n, g)) if type(g) is np.ndarray else g / n
        if self.axes is None and self.shape and not F.tensor_mode and (n <= DENSE_LIMIT or seen()):
            # the whole mean's, small (or seen by a hook: PyTorch's is dense): a dense
            # array of g (as expand_back's broadcast_to)
            out = np.empty(self.shape, g.dtype)
            out[...] = g
            return (out,)
        g = expand_back(g, F, self.shape, self.axes, self.keepdim)
        if type(g) is np.ndarray and 0 in g.strides and (any(g.strides) or seen()):
            # torch divides the expanded gradient, which makes it a dense tensor: the
            # kernels after it (numerics/floats/tensor_iter.py) see one run, not one per row
            g = np.ascontiguousarray(g)
        return (g,)


class MeanDim(Mean):
    __slots__ = ()
    name = "MeanBackward1"
    saved_names = ()
    saved_extra = {**Mean.saved_extra, "dim": saved_dims, "keepdim": saved_keepdim}


def _torch_name(dt):
    return dtypes.scalar_type_name(dt)  # c10 ScalarType names: Long, Byte, ...


def _reduce_call(whole, bydim, x, dim, keepdim, dtype=None):
    if type(x) is not Tensor:
        x = tensor_arg(x)
    if not x.data.size:
        check_reduction(x.data.shape, dim)
    if dtype is None:
        if dim is None and not keepdim:
            return whole.apply(x)  # forward's defaults: all of x, no keepdim
        return bydim.apply(x, dim=dim, keepdim=keepdim)
    dtype = dtypes.as_numpy(dtype)  # torch.float32 -> NumPy's (it cannot read ours)
    if whole is Mean and dtype.kind != "f":
        raise GradRuntimeError(
            "mean(): could not infer output dtype. Optional dtype must be either a floating "
            f"point or complex dtype. Got: {_torch_name(dtype)}"
        )
    if dtype != x.data.dtype:  # as ATen: the input cast, then reduced
        if dtype.kind != "f" and x.requires_grad and context.current.grad_enabled:
            raise GradRuntimeError(f"Autograd not support dtype: {_torch_name(dtype)}")
        x = to(x, dtype)
    kw = {} if dtype.kind == "f" else {"dtype": dtype}  # an int sum stays in its dtype
    if dim is None and not keepdim:
        return whole.apply(x, **kw)
    return bydim.apply(x, dim=dim, keepdim=keepdim, **kw)


@register(
    "sum",
    "sum(input, dim=None, keepdim=False)",
    "sum of all elements, or along dim",
    method=True,
    checks=REDUCE_CHECKS,
    category="reduce",
    batch="reduction",
    inplace=None,
    pure=True,
    parser=None,
)
def sum_(input, dim=None, keepdim=False, dtype=None):
    return _reduce_call(Sum, SumDim, input, dim, keepdim, dtype=dtype)


@tensor_f("sum")
def _sum_t(g, axis=None, keepdims=False):
    return sum_(g, axis, keepdims)


def sum_dims(g, axes, keepdim):
    return SumDim.apply(g, dim=axes, keepdim=keepdim)


@tensor_f("sum_to")
def _sum_to_t(g, shape):
    if g.data.shape == tuple(shape):
        return g
    if not shape:  # PyTorch's sum_to: sum() (SumBackward0), else sum(dims, keepdim=True)
        return sum_(g)  # (SumBackward1), viewed to the shape when dims were dropped
    lead = g.data.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, n in enumerate(shape) if n == 1 and g.data.shape[i + lead] != 1
    )
    if axes:
        g = sum_dims(g, axes, True)
    return reshape(g, tuple(shape)) if lead else g


@register(
    "mean",
    "mean(input, dim=None, keepdim=False)",
    "mean of all elements, or along dim",
    method=True,
    checks=REDUCE_CHECKS,
    category="reduce",
    batch="reduction",
    inplace=None,
    pure=True,
    parser=None,
)
def mean(input, dim=None, keepdim=False, dtype=None):
    return _reduce_call(Mean, MeanDim, input, dim, keepdim, dtype=dtype)


def _others_product(x, axis):
    """Product of all the other elements along `axis` (exact with zeros)."""
    if x.shape[axis] == 0:
        return x.copy()
    left = np.cumprod(np.concatenate([np.ones_like(np.take(x, [0], axis)), x], axis), axis)
    left = np.delete(left, -1, axis)
    rx = np.flip(x, axis)
    right = np.cumprod(np.concatenate([np.ones_like(np.take(rx, [0], axis)), rx], axis), axis)
    right = np.flip(np.delete(right, -1, axis), axis)
    return left * right


def _others_product_t(x, F, shape, axes):
    """`_others_product` built from differentiable ops (create_graph with zeros in x):
    the product along a new axis of x repeated with ones on the diagonal."""
    if axes == ():
        return F.where(np.ones(shape, dtype=bool), 1.0, x * 0)
    if axes is None:
        n = int(np.prod(shape))
        rows = F.broadcast_to(F.reshape(x, (1, n)), (n, n))
        m = F.where(np.eye(n, dtype=bool), 1.0, rows)
        return F.reshape(ProdDim.apply(m, dim=1, keepdim=False), shape)
    a = axes[0]
    n = shape[a]
    rep = F.broadcast_to(F.expand_dims(x, a), shape[:a] + (n,) + shape[a:])
    eye = np.eye(n, dtype=bool).reshape((1,) * a + (n, n) + (1,) * (len(shape) - a - 1))
    m = F.where(eye, 1.0, rep)
    return ProdDim.apply(m, dim=a + 1, keepdim=False)


def prod_all(flat):
    """The product of a 1-D float array in the order of PyTorch's vectorised inner
    reduction (Reduce.h, reduction128): four vector accumulators over blocks of four
    vectors, combined (a0*a1) * (a2*a3), the lanes one after the other, from 1; then
    the values after the last block one by one."""
    lanes = 32 // flat.itemsize
    n = flat.size
    count = n // (4 * lanes)
    seq = [flat.dtype.type(1)]
    if count:
        acc = np.multiply.reduce(flat[: count * 4 * lanes].reshape(count, 4, lanes), 0)
        v = (acc[0] * acc[1]) * (acc[2] * acc[3])
        seq.append(np.multiply.accumulate(v)[-1])
    return np.multiply.accumulate(np.concatenate((seq, flat[count * 4 * lanes :])))[-1]


class Prod(_Reduce):
    __slots__ = ()
    name = "ProdBackward0"
    saved_names = ("self", "result")

    def formula(self, S, x):
        axes = tuple(range(len(self.shape))) if self.axes is None else tuple(self.axes)
        return S.obj(np.prod(S.obj(x), axis=axes, keepdims=self.keepdim))

    def forward(self, x, dim=None, keepdim=False):
        ax = self.setup(x, dim, keepdim)
        if ax is not None and len(ax) > 1:
            raise GradRuntimeError("prod(): dim must be a single integer")
        if ax is None and x.dtype.char in "fd" and 0 < x.size <= GRAIN and x.flags.c_contiguous:
            out = np.asarray(prod_all(x.reshape(-1)), dtype=x.dtype)  # PyTorch's order
        else:
            out = np.asarray(np.prod(x, axis=ax, keepdims=keepdim, dtype=_acc_dtype(x)))
        self.save(x, out)
        return out

    def backward(self, g, F, x, out):
        shape, axes = self.shape, self.axes
        gx = expand_back(g, F, shape, axes, self.keepdim)
        if F.tensor_mode:
            if np.any(x.data == 0):
                return (gx * _others_product_t(x, F, shape, axes),)
            return (gx * (expand_back(out, F, shape, axes, self.keepdim) / x),)
        if x.size and not np.any(x == 0):  # PyTorch's prod_backward: grad * (result / input)
            return (gx * (expand_back(out, F, shape, axes, self.keepdim) / x),)
        if axes is None:
            flat = x.reshape(-1)
            others = _others_product(flat, 0).reshape(shape) if flat.size else flat.reshape(shape)
        elif not axes:
            others = np.ones_like(x)
        else:
            others = _others_product(x, axes[0])
        return (gx * others,)


class ProdDim(Prod):
    __slots__ = ()
    saved_extra = {"dim": lambda node: node.axes[0], "keepdim": saved_keepdim}
    name = "ProdBackward1"


@register(
    "prod",
    "prod(input, dim=None, keepdim=False)",
    "product of elements, or along dim",
    method=True,
    checks=REDUCE_CHECKS[:5],
    category="reduce",
    batch="reduction_one_dim",
    inplace=None,
    pure=False,
    parser=None,
)
def prod(input, dim=None, keepdim=False):
    return _reduce_call(Prod, ProdDim, input, dim, keepdim)


class ValuesIndices(tuple):
    """`(values, indices)` with `.values` / `.indices`, as torch.return_types."""

    kind = "max"
    fields = ("values", "indices")  # the names of the two, as printed and as attributes

    def __new__(cls, values, indices, kind):
        self = super().__new__(cls, (values, indices))
        self.kind = kind
        return self

    @property
    def values(self):
        return self[0]

    @property
    def indices(self):
        return self[1]


class MaxAll(_Reduce):
    """max/min of all elements: ties share the gradient evenly."""

    def formula(self, S, x):
        """The mean of the elements equal to the result (one, but for ties): a named
        function with its local Jacobian, while the graph holds x."""
        if not self.saved:
            raise S.Unsupported("x was freed")
        xd, od = self.saved
        mask = np.isnan(xd) if np.isnan(od) else xd == od
        picked = S.obj(x)[mask]
        return S.named(S.obj(sum(picked.tolist(), S.number(0)) / int(mask.sum())))

    __slots__ = ()
    name = "MaxBackward1"
    saved_names = ("self", "result")
    pick = staticmethod(np.max)

    def forward(self, x):
        if x.size == 0:
            raise GradRuntimeError(
                f"{self.name[:3].lower()}(): Expected reduction dim to be specified for "
                "input.numel() == 0. Specify the reduction dim with the 'dim' argument."
            )
        self.setup(x, None, False)
        out = np.asarray(self.pick(x))
        self.save(x, out)
        return out

    def backward(self, g, F, x, out):
        xd, od = (x.data, out.data) if F.tensor_mode else (x, out)
        mask = np.isnan(xd) if np.isnan(od) else xd == od  # a nan result: the nans share
        if F.tensor_mode:  # PyTorch's evenly_distribute_backward: zeros.masked_fill_(mask,
            # grad / mask.sum()), a gradient of MaskedFillBackward1
            share = g / Tensor(np.asarray(mask.sum(), dtype=np.int64))
            zeros = Tensor(np.zeros(self.shape, dtype=g.data.dtype))
            return (FUNCTIONS["masked_fill"](zeros, Tensor(mask), share),)
        return (F.where(mask, F.broadcast_to(g / mask.sum(), self.shape), 0.0),)


class MinAll(MaxAll):
    __slots__ = ()
    name = "MinBackward1"
    pick = staticmethod(np.min)


class MaxDim(_Reduce):
    """max/min along a dim: the gradient goes to the index returned."""

    def formula(self, S, x, *_):
        """The element at the index returned: a named function with its local Jacobian."""
        x = S.obj(x)
        if x.ndim == 0:
            return S.named(x)
        (axis,) = self.axes
        idx = np.expand_dims(np.argmax(self.onehot, axis=axis), axis)
        out = np.take_along_axis(x, idx, axis)
        return S.named(out if self.keepdim else np.squeeze(out, axis))

    __slots__ = ("onehot", "dim")
    name = "MaxBackward0"
    holds_saved = True  # (its indices: a second backward fails, as in PyTorch)
    # its indices are its saved value (packed by saved-tensor hooks); dim as given
    saved_names = ("indices",)
    saved_extra = {
        "dim": saved_shown("dim"),
        "keepdim": saved_keepdim,
        "self_sym_sizes": saved_sizes,
    }
    arg = staticmethod(np.argmax)

    def forward(self, x, dim, keepdim):
        (axis,) = self.setup(x, dim, keepdim) or (None,)
        self.dim = dim
        if x.ndim == 0:
            self.onehot = np.ones((), dtype=bool)
            self.save(np.zeros((), np.int64))
            return x.copy()
        idx = np.expand_dims(self.arg(x, axis=axis), axis)
        self.save((idx if keepdim else np.squeeze(idx, axis)).astype(np.int64))
        shp = [1] * x.ndim
        shp[axis] = x.shape[axis]
        self.onehot = np.arange(x.shape[axis]).reshape(shp) == idx
        out = np.take_along_axis(x, idx, axis)
        return out if keepdim else np.squeeze(out, axis)

    def backward(self, g, F, *_):
        if F.tensor_mode and self.axes:
            # PyTorch's value_selecting_reduction_backward: zeros.scatter(dim, indices, grad)
            (axis,) = self.axes
            idx = Tensor(np.expand_dims(np.argmax(self.onehot, axis=axis), axis).astype(np.int64))
            if not self.keepdim:
                g = FUNCTIONS["unsqueeze"](g, axis)
            zeros = Tensor(np.zeros(self.shape, g.data.dtype))
            return (FUNCTIONS["scatter"](zeros, axis, idx, g),)
        return (F.where(self.onehot, expand_back(g, F, self.shape, self.axes, self.keepdim), 0.0),)


class MinDim(MaxDim):
    __slots__ = ()
    name = "MinBackward0"
    arg = staticmethod(np.argmin)


def _maxmin(kind, whole, bydim, pairwise, input, dim=None, keepdim=False):
    if dim is not None and isinstance(dim, Tensor):
        return pairwise(input, dim)
    x = tensor_arg(input)
    if not x.data.size:
        check_reduction(x.data.shape, dim)
    if dim is None:
        return whole.apply(x)
    node_cls = bydim
    vals = node_cls.apply(x, dim=dim, keepdim=keepdim)
    # indices come from the same forward; recompute cheaply for the result
    axis = norm_dims(dim, x.data.ndim)
    if x.data.ndim == 0:
        idx = np.zeros((), dtype=np.int64)
    else:
        idx = (np.argmax if kind == "max" else np.argmin)(x.data, axis=axis[0], keepdims=keepdim)
    return ValuesIndices(vals, Tensor(np.asarray(idx, dtype=np.int64)), kind)


@register(
    "max",
    "max(input, dim=None, keepdim=False)",
    "largest element; with dim, (values, indices); max(a, b) of two tensors is maximum",
    method=True,
    checks=[((M,), {}), ((M,), {"dim": 1})],
    category="reduce",
    batch="max",
    inplace=None,
    pure=False,
    parser=None,
)
def max_(input, dim=None, keepdim=False):
    return _maxmin("max", MaxAll, MaxDim, maximum, input, dim, keepdim)


@register(
    "min",
    "min(input, dim=None, keepdim=False)",
    "smallest element; with dim, (values, indices); min(a, b) of two tensors is minimum",
    method=True,
    checks=[((M,), {}), ((M,), {"dim": 0})],
    category="reduce",
    batch="min",
    inplace=None,
    pure=False,
    parser=None,
)
def min_(input, dim=None, keepdim=False):
    return _maxmin("min", MinAll, MinDim, minimum, input, dim, keepdim)


def _arg(np_fn, input, dim=None, keepdim=False):
    x = tensor_arg(input).data
    axis = None if dim is None else (norm_dims(dim, x.ndim) or (0,))[0]
    if x.size == 0 and (axis is None or x.ndim and x.shape[axis] == 0):
        raise GradIndexError(
            f"{np_fn.__name__}(): Expected reduction dim "
            + (
                "to be specified for input.numel() == 0."
                if axis is None
                else f"{axis} to have non-zero size."
            )
        )
    if dim is None:
        r = np.asarray(np_fn(x.reshape(-1)), dtype=np.int64)
        return Tensor(r.reshape((1,) * x.ndim) if keepdim else r)
    if x.ndim == 0:
        return Tensor(np.zeros((), dtype=np.int64))
    return Tensor(np.asarray(np_fn(x, axis=axis, keepdims=keepdim), dtype=np.int64))


@register(
    "argmax",
    "argmax(input, dim=None, keepdim=False)",
    "index of the largest element",
    method=True,
    category="reduce",
    batch="reduction_one_dim",
    inplace=None,
    pure=False,
    checks=none("not differentiable (indices)"),
    parser=None,
)
def argmax(input, dim=None, keepdim=False):
    return _arg(np.argmax, input, dim, keepdim)


@register(
    "argmin",
    "argmin(input, dim=None, keepdim=False)",
    "index of the smallest element",
    method=True,
    category="reduce",
    batch="reduction_one_dim",
    inplace=None,
    pure=False,
    checks=none("not differentiable (indices)"),
    parser=None,
)
def argmin(input, dim=None, keepdim=False):
    return _arg(np.argmin, input, dim, keepdim)


_EXP = mkl.unary_fn("exp", np.exp)
_LOG = mkl.unary_fn("log", np.log)


class LogSumExp(_Reduce):
    __slots__ = ()
    name = "LogsumexpBackward0"
    saved_names = ("self", "result")
    saved_extra = {"dim": saved_dims, "keepdim": saved_keepdim}

    def formula(self, S, x):
        return S.log(S.sum(S.exp(x), self.axes, self.keepdim))

    def forward(self, x, dim, keepdim=False):
        # PyTorch: m = amax (an infinite one taken as 0), log(sum(exp(x - m))) + m, with
        # its exp and log (MKL's) and its order of summation
        ax = self.setup(x, dim, keepdim)
        x = dtypes.floating(x)
        m = np.max(x, axis=ax, keepdims=True) if x.size else np.zeros((1,) * x.ndim, x.dtype)
        m = np.where(np.abs(m) == np.inf, x.dtype.type(0), m)
        c = x.flags.c_contiguous
        e = np.ascontiguousarray(_EXP(x - m)) if c else _EXP(x - m)
        out = _LOG(sum_axes(e, ax if ax else None, True, e.dtype)) + m
        out = np.asarray(out if keepdim else np.squeeze(out, axis=ax) if ax else out.reshape(()))
        self.save(x, out)
        return out

    def backward(self, g, F, x, out):
        shape, axes, kd = self.shape, self.axes, self.keepdim
        return (
            expand_back(g, F, shape, axes, kd) * F.exp(x - expand_back(out, F, shape, axes, kd)),
        )


@register(
    "logsumexp",
    "logsumexp(input, dim, keepdim=False)",
    "log(sum(exp(input), dim)), stably",
    method=True,
    checks=[((M,), {"dim": 1}), ((M,), {"dim": (0, 1)}), ((Arg((3,)),), {"dim": 0})],
    category="reduce",
    batch="reduction",
    inplace=None,
    pure=False,
    parser=Parser(("dim",)),
)
def logsumexp(input, dim, keepdim=False):
    x = tensor_arg(input)
    check_reduction(x.data.shape, dim)
    if dim is None:
        dim = tuple(range(x.data.ndim))
    return LogSumExp.apply(x, dim=dim, keepdim=keepdim)


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
    pure=False,
    parser=Parser(("dim",)),
)
@tensor_f("cumsum")
def cumsum(x, dim, dtype=None):
    x = tensor_arg(x)
    (axis,) = norm_dims(dim, x.data.ndim) or (0,)
    dt = dtypes.as_numpy(dtype) if dtype is not None else _acc_dtype(x.data)
    return Cumsum.apply(x, axis=axis, dt=dt, dim=given(dim, axis))
