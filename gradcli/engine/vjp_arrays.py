"""NumPy versions of the functions VJPs use (`ArrayF`, the fast path of backward; the
create_graph path uses the differentiable `TensorF` of engine/function.py), and
`sum_to`, the one unbroadcast helper."""

from __future__ import annotations

import math

import numpy as np

from ..runtime import context
from ..numerics import mkl, mkl_vectors
from ..numerics.floats import torch_act, torch_exp
from ..numerics.floats import erf as erf_fns
from ..numerics.floats.fused import scaled
from ..numerics.sums.summation import outer_sum, torch_cumsum, torch_sum
from ..numerics.sums.axes import sum_axes
from ..numerics.sums.sum_dims import dim_sums


def sum_to(g, shape):
    """Sum a broadcast gradient back to `shape` (the one unbroadcast helper)."""
    if g.shape == shape:
        return g
    if (
        len(shape) == 1
        and g.ndim == 2
        and shape[0] == g.shape[1] != 1
        and g.dtype.kind == "f"
        and g.flags.c_contiguous
    ):
        return outer_sum(g)  # a bias's gradient over a batch: the case below, first
    if not shape and g.dtype.kind == "f" and g.flags.c_contiguous:
        return np.asarray(torch_sum(g), g.dtype)  # a 0-d leaf's gradient
    if not shape and g.dtype.kind == "f" and g.flags.f_contiguous:
        return np.asarray(torch_sum(g.T), g.dtype)  # (transposed: in memory order, as torch)
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, n in enumerate(shape) if n == 1 and g.shape[i + lead] != 1
    )
    if (
        g.dtype.kind == "f"
        and g.flags.c_contiguous
        and (len(axes) == g.ndim or all(g.shape[i] == 1 for i in range(g.ndim) if i not in axes))
    ):
        # one value from all of g (a 0-d leaf's or a (1,) bias's gradient): a whole sum,
        # in PyTorch's order
        return np.asarray(torch_sum(g), dtype=g.dtype).reshape(shape)
    if (
        g.dtype.kind == "f"
        and g.flags.c_contiguous
        and axes == tuple(range(len(axes)))
        and g.ndim > len(axes)
    ):
        # the leading dims (a bias's gradient): PyTorch's outer-reduction order
        lead_n = math.prod(g.shape[: len(axes)])
        return outer_sum(g.reshape(lead_n, -1)).reshape(shape)
    if axes and g.dtype.kind == "f":
        out = dim_sums(g, axes)  # other dims: PyTorch's order (numerics/sums/sum_dims)
        if out is not None:
            return out.reshape(shape)
    if axes:
        g = g.sum(axis=axes, keepdims=True)
    return g.reshape(shape)


#: a broadcast gradient of at most this many values is made a dense array (cheaper for
#: the kernels after it); a bigger one stays a view of its one value (no pass over memory)
DENSE_LIMIT = 4096


def seen():
    """Whether the program may see gradients as they flow: a hook or retain_grad on some
    tensor of this run (hooks.watch, hooks.leaf_hooks).  Then gradients keep PyTorch's
    layout, which a hook's in-place op and `is_contiguous()` tell apart: `sum`'s and
    `expand`'s a broadcast view of one value (read-only: PyTorch's error for writing
    into it), `mean`'s a dense tensor (torch divides the expanded gradient), at every
    size; otherwise the cheaper of the two for the kernels after it (DENSE_LIMIT)."""
    ctx = context.current
    return ctx.node_watches or bool(ctx.leaf_hooks)


def _small(shape, limit=DENSE_LIMIT):
    n = 1
    for d in shape:
        n *= d
    return n <= limit


def _sigmoid(x):
    """PyTorch's sigmoid kernel for float32/float64 (torch_exp.sigmoid)."""
    return torch_exp.sigmoid(x) if x.dtype.char in "fd" else 1 / (1 + np.exp(-x))


def _rsqrt(x):
    """PyTorch's rsqrt: 1 / sqrt(x) with the correctly rounded sqrt (not VML's)."""
    return 1 / np.sqrt(x)


def _swapaxes(g, a, b):
    """np.swapaxes; an array's own method where g is one (NumPy's function wraps it in
    Python: 1.06 -> 0.23 us)."""
    return g.swapaxes(a, b) if type(g) is np.ndarray else np.swapaxes(g, a, b)


def _transpose(g, axes=None):
    """np.transpose, an array's own method where g is one (0.77 -> 0.08 us)."""
    return g.transpose(axes) if type(g) is np.ndarray else np.transpose(g, axes)


def spread(g, shape):
    """np.broadcast_to(g, shape): a read-only view whose elements all share one; for a
    0-d array made directly (its strides 0, its base g), without broadcast_to's layers
    of Python (~1.9 -> 0.5 us: a loss's gradient, every step of a loop)."""
    if type(g) is np.ndarray and not g.ndim:
        out = _ndarray(shape, g.dtype, g, 0, (0,) * len(shape))
        out.setflags(write=False)
        return out
    return np.broadcast_to(g, shape)


_ndarray = np.ndarray


class ArrayF:
    """NumPy versions of the functions VJPs use (the fast path)."""

    sum_to = staticmethod(sum_to)
    exp = staticmethod(mkl.unary_fn("exp", np.exp))
    log = staticmethod(mkl.unary_fn("log", np.log))
    sin = staticmethod(mkl.unary_fn("sin", np.sin))
    cos = staticmethod(mkl.unary_fn("cos", np.cos))
    sigmoid = staticmethod(_sigmoid)
    rsqrt = staticmethod(_rsqrt)
    sinh = staticmethod(torch_act.sinh)
    cosh = staticmethod(torch_act.cosh)
    sqrt = staticmethod(mkl.unary_fn("sqrt", np.sqrt))
    erfinv = staticmethod(mkl.unary_fn("erfinv", erf_fns.erfinv))
    mm = staticmethod(mkl.torch_mm)
    mv = staticmethod(mkl_vectors.torch_mv)
    sign = staticmethod(torch_act.sign)  # NaN gives 0, as in PyTorch
    floor = staticmethod(np.floor)
    abs = staticmethod(np.abs)
    where = staticmethod(np.where)
    reshape = staticmethod(np.reshape)
    swapaxes = staticmethod(_swapaxes)
    expand_dims = staticmethod(np.expand_dims)
    transpose = staticmethod(_transpose)
    outer = staticmethod(np.outer)
    tensor_mode = False

    @staticmethod
    def sum_scaled(g, c, shape):
        """sum_to(g * c, shape): a tensor-times-constant VJP's (`fused.scaled`; a
        dense product, as PyTorch's, where a hook may see it: `seen`)."""
        return sum_to(g * c if seen() else scaled(g, c), shape)

    @staticmethod
    def broadcast_to(g, shape):
        if g.shape == shape:
            return g
        if g.ndim == 0 and len(shape) and _small(shape) and not seen():
            out = np.empty(shape, dtype=g.dtype)  # np.full, without its Python overhead
            out[...] = g
            return out
        return spread(g, shape)

    @staticmethod
    def sum(g, axis=None, keepdims=False):
        """In the sum op's order (numerics/sums/axes.py), so that a gradient is the same
        number with and without create_graph (softmax's second derivative in float32
        was not)."""
        g = np.asarray(g)
        if g.dtype.kind != "f":
            return np.sum(g, axis=axis, keepdims=keepdims)
        if axis is not None:
            axis = tuple(sorted(a % g.ndim for a in (axis if isinstance(axis, tuple) else (axis,))))
        return sum_axes(g, axis, keepdims, g.dtype)

    @staticmethod
    def const(a):
        return a

    @staticmethod
    def pad_into(g, shape, index):
        """Scatter `g` into zeros of `shape` at `index` (adding repeated indices of an
        advanced index; a basic one is copied in, so -0.0 stays as in PyTorch)."""
        out = np.zeros(shape, dtype=g.dtype)
        if any(type(k) is np.ndarray for k in index):
            np.add.at(out, index, g)
        else:
            out[index] = g
        return out

    @staticmethod
    def flip(g, axes):
        return np.flip(g, axes)

    @staticmethod
    def cumsum(g, axis):
        return torch_cumsum(g, axis, g.dtype)  # PyTorch's kernel (float32 in double)

    @staticmethod
    def permute_back(g, dims):
        return np.transpose(g, np.argsort(dims))

    @staticmethod
    def take(g, index):
        return g[index]

    @staticmethod
    def split(g, sizes, axis):
        return np.split(g, np.cumsum(sizes)[:-1], axis=axis)
