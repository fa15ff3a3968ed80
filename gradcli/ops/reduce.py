"""Reductions: sum mean prod logsumexp, and what the reductions share (`_Reduce`, the
gradient broadcast back: `expand_back`, the saved sizes and dims).  (max min argmax argmin
are in `maxmin`; norm var std in `moments`; cumsum in `cumulative`.)"""

from __future__ import annotations


import math

import numpy as np

from ..engine.saved import shown_int
from ..core import dtypes
from ..engine.function import FUNCTIONS, Function
from ..engine.vjp_arrays import DENSE_LIMIT, seen, spread
from ..engine.forward import reduction
from ..core.convert import tensor_arg
from ..runtime.errors import GradRuntimeError
from ..numerics.sums.axes import last_dim_sum, last_dim_sums, sum_axes
from ..numerics.sums.summation import torch_sum
from ..runtime import context
from ..runtime.limits import check_reduction
from ..numerics import mkl
from ..numerics.parallel import GRAIN
from ..numerics.floats.singles import weak
from ..core.tensor import Tensor
from .registry import Arg, Parser, register, tensor_f
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
        if not F.tensor_mode and self.axes is None and not self.keepdim:
            # the whole sum's gradient: PyTorch's expand, a view whose values all share one
            # element (kernels that choose by layout, batch_norm's backward, see it as torch
            # does), never a dense copy
            return (spread(g, self.shape),)
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
        self.n = x.size if ax is None else math.prod([x.shape[a] for a in ax])
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
            if type(g) is np.ndarray and g.ndim:  # (keepdim's: broadcast in)
                out[...] = g
            else:
                out.fill(g)  # (one value: as `out[...] = g`, without its indexing)
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
    pure=True,
    parser=Parser(("dim",)),
)
def logsumexp(input, dim, keepdim=False):
    x = tensor_arg(input)
    check_reduction(x.data.shape, dim)
    if dim is None:
        dim = tuple(range(x.data.ndim))
    return LogSumExp.apply(x, dim=dim, keepdim=keepdim)
