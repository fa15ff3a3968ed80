"""`F.embedding` (EmbeddingBackward0), `F.batch_norm` (NativeBatchNormBackward0, as
PyTorch's CPU kernels compute it: numerics/floats/batch_norm.py), `F.avg_pool2d`
(AvgPool2DBackward0) and `F.adaptive_avg_pool2d` (AdaptiveAvgPool2DBackward0; a 1x1
output is torch's mean over the last two dims, MeanBackward1).

Sums are taken in the order PyTorch's kernels take them: an embedding's gradient row by
row in the order of the indices, a pooling window row-major in the dtype, each window's
share of the gradient added back window after window."""

from __future__ import annotations

import numpy as np

from ..numerics import per_shape
from ..numerics.floats import batch_norm as bn
from ..runtime.errors import GradIndexError, GradRuntimeError, GradValueError
from ..core import dtypes
from ..core.convert import tensor_arg
from ..core.tensor import Tensor
from ..engine import versions
from ..engine.declare import none
from ..engine.forward import linear
from ..engine.function import Function
from .nn import _pair
from .registry import FUNCTIONS, Arg, register
from .shape import squeeze, unsqueeze

# ---------------------------------------------------------------- embedding


def _embedding_grad(g, idx, rows, padding_idx):
    d = g.shape[-1]
    out = np.zeros(rows * d, dtype=g.dtype)
    flat, gf = idx.reshape(-1), g.reshape(-1, d)
    if padding_idx is not None:
        keep = flat != padding_idx
        flat, gf = flat[keep], gf[keep]
    # one row after another, in the indices' order: each value added at its place in
    # the flat result (NumPy's add.at on one dimension takes its quick indexed loop,
    # three times faster than on rows), the places in the values' order
    places = (flat.astype(np.int64, copy=False)[:, None] * d + np.arange(d)).reshape(-1)
    np.add.at(out, places, gf.reshape(-1))
    return out.reshape(rows, d)


class Embedding(Function):
    __slots__ = ("idx", "rows", "padding_idx")
    name = "EmbeddingBackward0"
    holds_saved = True  # (its indices: a second backward fails, as in PyTorch)
    saved_names = none("PyTorch's names of its saved values are not recorded")
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    jvp = linear

    def forward(self, weight, idx, padding_idx):
        rows = weight.shape[0]
        if idx.size and (idx.min() < 0 or idx.max() >= rows):  # (here: a replayed
            raise GradIndexError("index out of range in self")  # loop runs no wrapper)
        self.idx, self.rows, self.padding_idx = idx, rows, padding_idx
        return weight.take(idx, 0)  # (weight[idx]'s gather, without indexing's setup)

    def backward(self, g, F):
        if F.tensor_mode:
            return (
                EmbeddingGrad.apply(g, idx=self.idx, rows=self.rows, padding_idx=self.padding_idx),
            )
        return (_embedding_grad(g, self.idx, self.rows, self.padding_idx),)


class EmbeddingGrad(Function):
    __slots__ = ("idx", "padding_idx")
    name = "EmbeddingDenseBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    jvp = linear

    def forward(self, g, idx, rows, padding_idx):
        self.idx, self.padding_idx = idx, padding_idx
        return _embedding_grad(g, idx, rows, padding_idx)

    def backward(self, gg, F):
        if F.tensor_mode:
            return (Embedding.apply(gg, idx=self.idx, padding_idx=self.padding_idx),)
        out = gg[self.idx]
        if self.padding_idx is not None:
            out[self.idx == self.padding_idx] = 0
        return (out,)


@register(
    "embedding",
    "embedding(input, weight, padding_idx=None)",
    "the rows of weight that the integer tensor input names",
    checks=[
        ((Tensor(np.array([[0, 2], [1, 2]])), Arg((3, 4))), {}),
        ((Tensor(np.array([1, 0, 1, 1])), Arg((2, 3))), {}),
    ],
    category="nn",
    batch=None,
    inplace=None,
    pure=True,
    parser=None,
)
def embedding(
    input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
    sparse=False,
):  # fmt: skip
    idx, w = tensor_arg(input), tensor_arg(weight)
    if idx.data.dtype.kind not in "iu":
        raise GradRuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got {dtypes.legacy_type(idx.data)} instead "
            "(while checking arguments for embedding)"
        )
    if w.data.ndim != 2:
        raise GradRuntimeError("'weight' must be 2-D")
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise GradRuntimeError(
            "embedding: max_norm, scale_grad_by_freq and sparse are not supported by gradcli"
        )
    rows = w.data.shape[0]
    # (the index tensor's own array when it is int64: a replayed loop takes it each
    # iteration, replay_plan._keys; its bounds are checked by the node's forward)
    i = idx.data if idx.data.dtype == np.int64 else idx.data.astype(np.int64)
    if padding_idx is not None:
        if not -rows <= padding_idx < rows:
            raise GradRuntimeError("Padding_idx must be within num_embeddings")
        padding_idx %= rows
    return Embedding.apply(w, idx=i, padding_idx=padding_idx)


# ---------------------------------------------------------------- batch_norm


class BatchNorm(Function):
    """Batch normalisation's node.  Its forward takes the batch's statistics (training)
    or the running ones (evaluation) itself, and updates the running statistics in
    place (`stats`: the running mean's and variance's Tensors and the
    num_batches_tracked one nn.BatchNorm's forward bumps first, or None), so a replayed
    loop runs the whole of it in its place each iteration (`writes`)."""

    __slots__ = ("mean", "inv", "back_inv", "train", "shapes", "eps")
    name = "NativeBatchNormBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    writes = ("stats",)

    def forward(self, x, w, b, stats, train, momentum, eps):
        """`momentum` None: the cumulative average (1 / num_batches_tracked)."""
        rm = rv = None
        if stats is not None:
            rm, rv = stats[0].data, stats[1].data
            if train and stats[2] is not None:
                momentum = count(stats[2], momentum)
        if train:
            y, mean, inv, new_rm, new_rv = bn.train_forward(x, eps, momentum, rm, rv, w, b)
            back_inv = inv
            if rm is not None:
                rm[...] = new_rm
                rv[...] = new_rv
        else:
            mean, inv = rm.astype(x.dtype), bn.eval_invstd(rv.astype(x.dtype), eps, x=x)
            back_inv = bn.eval_invstd(rv.astype(x.dtype), eps, backward=True)
            y = bn.transform(x, mean, inv, w, b)
        self.mean, self.inv, self.train, self.eps = mean, inv, train, eps
        self.back_inv = back_inv  # the backward kernels' invstd (float64 math in eval)
        self.shapes = (w is not None, b is not None)
        self.save(x, w)
        return y

    def backward(self, g, F, x, w):
        has_w, has_b = self.shapes
        if not F.tensor_mode:
            gx, gw, gb = bn.backward(g, x, self.mean, self.back_inv, w, self.train)
            return gx, (gw if has_w else None), (gb if has_b else None)
        return self._composite(g, F, x, w, has_w, has_b)

    def jvp(self, ts, F, x, w):
        """dy = dxhat * w + xhat * dw + db, dxhat = inv * (dx - mean(dx)) - xhat * inv *
        mean(xhat * dx) in training (the statistics move with x), inv * dx otherwise."""
        tx, tw, tb = ts
        shape = (1, -1) + (1,) * (x.data.ndim - 2)
        axes = (0,) + tuple(range(2, x.data.ndim))
        n = x.data.size // x.data.shape[1]
        if self.train:  # the statistics as functions of x (for a tangent of this tangent)
            mean = F.sum(x, axis=axes, keepdims=True) / n
            inv = 1 / F.sqrt(
                F.sum((x - mean) * (x - mean), axis=axes, keepdims=True) / n + self.eps
            )
        else:
            mean, inv = Tensor(self.mean.reshape(shape)), Tensor(self.inv.reshape(shape))
        xhat = (x - mean) * inv
        out = None
        if tx is not None:
            if self.train:
                dm = F.sum(tx, axis=axes, keepdims=True) / n
                proj = F.sum(xhat * tx, axis=axes, keepdims=True) / n
                dxhat = inv * (tx - dm) - xhat * inv * proj
            else:
                dxhat = tx * inv
            out = dxhat * F.reshape(w, shape) if w is not None else dxhat
        if tw is not None:
            term = xhat * F.reshape(tw, shape)
            out = term if out is None else out + term
        if tb is not None:
            term = F.reshape(tb, shape) + 0 * xhat
            out = term if out is None else out + term
        return out

    def _composite(self, g, F, x, w, has_w, has_b):
        """The gradients as a formula of the tensors (under create_graph)."""
        axes = (0,) + tuple(range(2, x.ndim))
        shape = (1, -1) + (1,) * (x.ndim - 2)
        xs = x.data.shape if F.tensor_mode else x.shape
        n = int(np.prod(xs)) // xs[1]
        mean, inv = self.mean.reshape(shape), self.inv.reshape(shape)
        if F.tensor_mode and self.train:  # the statistics as functions of x, to go on
            mean = F.sum(x, axis=axes, keepdims=True) / n
            var = F.sum((x - mean) * (x - mean), axis=axes, keepdims=True) / n
            inv = 1 / F.sqrt(var + self.eps)
        elif F.tensor_mode:
            mean, inv = Tensor(mean), Tensor(inv)
        xhat = (x - mean) * inv
        wv = F.reshape(w, shape) if has_w else 1
        if self.train:
            gsum = F.sum(g, axis=axes, keepdims=True)
            dot = F.sum(g * xhat, axis=axes, keepdims=True)
            gx = (g - gsum / n - xhat * dot / n) * inv * wv
        else:
            gx = g * inv * wv
        gw = F.reshape(F.sum(g * xhat, axis=axes, keepdims=True), (-1,)) if has_w else None
        gb = F.reshape(F.sum(g, axis=axes, keepdims=True), (-1,)) if has_b else None
        return gx, gw, gb


@register(
    "batch_norm",
    "batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, "
    "momentum=0.1, eps=1e-05)",
    "normalise each channel (dim 1) by the batch's mean and variance (training) or the "
    "running ones, then scale by weight and shift by bias",
    checks=[
        ((Arg((4, 3)), None, None, Arg((3,)), Arg((3,)), True), {}),
        ((Arg((3, 2, 4)), None, None, Arg((2,)), Arg((2,)), True), {}),
    ],
    category="nn",
    batch=None,
    inplace=None,
    pure=True,  # (its running statistics written by its node: BatchNorm.writes)
    parser=None,
)
def batch_norm(
    input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
    eps=1e-05,
):  # fmt: skip
    return counted_batch_norm(
        input, running_mean, running_var, weight, bias, training, momentum, eps, None
    )


def counted_batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps,
                       tracked):  # fmt: skip
    """`batch_norm`, with nn.BatchNorm's num_batches_tracked (a 0-d integer Tensor, or
    None) bumped first in training (before any error, as the module bumps it before it
    calls the op) and, for a `momentum` of None, the cumulative average's factor taken
    from it.  (In evaluation it is only held, so that a replayed loop's plan knows no op
    takes its number: replay_plan._numbered.)"""
    x = tensor_arg(input)
    xd = x.data
    counted = training and tracked is not None
    try:
        _check_batch_norm(xd, running_mean, running_var, weight, bias, training)
    except Exception:
        if counted:
            count(tracked, momentum)
        raise
    stats = None
    if running_mean is not None:
        stats = (tensor_arg(running_mean), tensor_arg(running_var), tracked)
    elif counted:
        count(tracked, momentum)
    w = None if weight is None else tensor_arg(weight)
    b = None if bias is None else tensor_arg(bias)
    return BatchNorm.apply(
        x, w, b, stats=stats, train=bool(training), momentum=momentum, eps=float(eps)
    )


def count(tracked, momentum):
    """num_batches_tracked bumped (torch's `add_(1)`): the momentum the running statistics
    are updated with, for None the cumulative average's 1 / num_batches_tracked."""
    tracked.data = tracked.data + 1
    versions.bump(tracked)
    return 1.0 / float(tracked.data) if momentum is None else momentum


def _check_batch_norm(xd, running_mean, running_var, weight, bias, training):
    """PyTorch's refusals of batch_norm's arguments (their shapes and None-ness)."""
    if xd.ndim < 2:
        raise GradValueError(f"expected 2D or 3D input (got {xd.ndim}D input)")
    c = xd.shape[1]
    n = xd.size // c if c else 0
    if (running_mean is None) != (running_var is None):
        raise GradValueError(
            "running_mean and running_var must either both be None or neither be None"
        )
    for what, t in (("running_mean", running_mean), ("weight", weight), ("bias", bias)):
        if t is not None and tensor_arg(t).data.shape != (c,):
            raise GradRuntimeError(
                f"{what} should contain {c} elements not {tensor_arg(t).data.size}"
            )
    if training and n <= 1:
        raise GradValueError(
            "Expected more than 1 value per channel when training, got input size "
            f"torch.Size([{', '.join(map(str, xd.shape))}])"
        )
    if not training and running_mean is None:
        raise GradRuntimeError("running_mean must be defined in evaluation mode")


# ---------------------------------------------------------------- average pooling

#: an average pool's windows, from sizes alone, kept per shape
_per_shape = per_shape.memo()


def _window_sums(x, rows, cols):
    """(N, C, OH, OW) sums of x over the windows rows[oh] x cols[ow] (slices), each
    summed row-major in the dtype from +0, as the kernel's loop adds them: every
    window's k-th value added at once (`_windows`: a window shorter than the longest
    adds +0 where it has no value, which leaves a sum that starts at +0 as it is)."""
    n, c, H, W = x.shape
    idx = _windows(H, W, rows, cols)
    flat = np.concatenate([x.reshape(n, c, H * W), np.zeros((n, c, 1), x.dtype)], axis=2)
    acc = np.zeros((n, c, idx.shape[0]), dtype=x.dtype)
    for k in range(idx.shape[1]):
        acc = acc + flat[:, :, idx[:, k]]
    return acc.reshape(n, c, len(rows), len(cols))


#: _windows' tables, per input size and windows (a few shapes a program uses)
_WINDOWS: dict = {}


def _windows(H, W, rows, cols):
    """(OH * OW, K) int64: per output in row-major order, the flat indices into an H x W
    plane of its window's values, row-major, then H * W (a +0 placed after the plane)
    for the places a window shorter than the longest has no value."""
    key = (H, W, tuple((r.start, r.stop) for r in rows), tuple((c.start, c.stop) for c in cols))
    got = _WINDOWS.get(key)
    if got is None:
        r0 = np.array([r.start for r in rows])
        lr = np.array([r.stop for r in rows]) - r0
        c0 = np.array([c.start for c in cols])
        lc = np.array([c.stop for c in cols]) - c0
        u = np.arange(max(int(lr.max()), 1))
        v = np.arange(max(int(lc.max()), 1))
        at = (r0[:, None, None, None] + u[None, None, :, None]) * W + (
            c0[None, :, None, None] + v[None, None, None, :]
        )
        ok = (u[None, None, :, None] < lr[:, None, None, None]) & (
            v[None, None, None, :] < lc[None, :, None, None]
        )
        got = np.where(ok, at, H * W).reshape(len(rows) * len(cols), -1).astype(np.int64)
        if len(_WINDOWS) >= 64:
            _WINDOWS.clear()
        _WINDOWS[key] = got
    return got


#: _divisors' arrays, per windows' divisors (the lists `_avg_windows` keeps per shape)
_DIVISORS: dict = {}


def _divisors(divide, dt):
    """The divisors of each output, row-major, as arrays of dt: (first, second or None);
    an output divided once is divided by 1 the second time (exact) when others are
    divided twice (an adaptive pool's)."""
    got = _DIVISORS.get((id(divide), dt))
    if got is not None and got[0] is divide:
        return got[1]
    flat = [d for row in divide for d in row]
    if all(not isinstance(d, tuple) for d in flat):
        out = np.array([dt.type(d) for d in flat], dt), None
    else:
        pairs = [d if isinstance(d, tuple) else (d, 1) for d in flat]
        out = (
            np.array([dt.type(a) for a, _ in pairs], dt),
            np.array([dt.type(b) for _, b in pairs], dt),
        )
    if len(_DIVISORS) >= 64:
        _DIVISORS.clear()
    _DIVISORS[id(divide), dt] = (divide, out)  # (held: its id is not reused meanwhile)
    return out


class Pool(Function):
    """An average over windows: `rows`/`cols` the windows' slices, `divide` their
    divisors (an average pool's, or an adaptive pool's two successive ones)."""

    __slots__ = ("rows", "cols", "divide", "shape", "attrs")
    saved_names = ("self",)  # (PyTorch saves the input; its backward here does not read it)
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    jvp = linear

    def forward(self, x, rows, cols, divide, attrs=None):
        self.rows, self.cols, self.divide, self.shape = rows, cols, divide, x.shape
        self.attrs = attrs  # the pool's arguments as PyTorch saves them (_saved_<name>)
        self.save(x)
        return _pool_forward(x, rows, cols, divide)

    def backward(self, g, F, *_):
        if F.tensor_mode:
            return (PoolGrad.apply(g, pool=self),)
        return (_pool_backward(g, self),)


def _pool_forward(x, rows, cols, divide):
    sums = _window_sums(x, rows, cols)
    d1, d2 = _divisors(divide, x.dtype)
    out = sums / d1.reshape(len(rows), len(cols))
    return out if d2 is None else out / d2.reshape(len(rows), len(cols))


def _pool_backward(g, pool):
    """Each output's gradient divided as its forward divided, added into zeros at its
    window's places, the outputs in row-major order (each place's additions in that
    order, as the kernel's loop makes them)."""
    n, c, H, W = pool.shape
    idx = _windows(H, W, pool.rows, pool.cols)
    d1, d2 = _divisors(pool.divide, g.dtype)
    v = g.reshape(n * c, -1) / d1
    if d2 is not None:
        v = v / d2
    plane = H * W + 1
    out = np.zeros(n * c * plane, dtype=g.dtype)
    places = np.arange(n * c)[:, None] * plane + idx.reshape(-1)[None, :]
    np.add.at(out, places.reshape(-1), np.repeat(v, idx.shape[1], axis=1).reshape(-1))
    return out.reshape(n * c, plane)[:, : H * W].reshape(pool.shape)


#: the _saved_ attributes of AvgPool2DBackward0 and AvgPool3DBackward0 besides self
AVG_POOL_SAVED = {
    k: (lambda node, k=k: node.attrs[k])
    for k in (
        "kernel_size",
        "stride",
        "padding",
        "ceil_mode",
        "count_include_pad",
        "divisor_override",
    )
}


class AvgPool(Pool):
    __slots__ = ()
    name = "AvgPool2DBackward0"
    saved_extra = AVG_POOL_SAVED

    def forward(
        self, x, rows=None, cols=None, divide=None, attrs=None, kernel_size=None, stride=(),
        padding=(0, 0), ceil_mode=False, count_include_pad=True, divisor_override=None,
    ):  # fmt: skip
        # avg_pool2d's arguments (numbers): the windows made from them and the shape here
        # (_avg_windows, kept per shape), so a replayed loop runs the node again with
        # them; or the windows themselves (rows, cols, divide: PoolGrad's backward)
        if kernel_size is not None:
            rows, cols, divide, attrs = _avg_windows(
                *x.shape[2:], kernel_size, stride, padding, ceil_mode, count_include_pad,
                divisor_override,
            )  # fmt: skip
        return Pool.forward(self, x, rows, cols, divide, attrs)


class AdaptiveAvgPool(Pool):
    __slots__ = ()
    name = "AdaptiveAvgPool2DBackward0"


class PoolGrad(Function):
    __slots__ = ("pool",)
    name = "AvgPool2DBackwardBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    jvp = linear

    def forward(self, g, pool):
        self.pool = pool
        return _pool_backward(g, pool)

    def backward(self, gg, F):
        p = self.pool
        if F.tensor_mode:
            return (type(p).apply(gg, rows=p.rows, cols=p.cols, divide=p.divide),)
        return (_pool_forward(gg, p.rows, p.cols, p.divide),)


def _image(input, what):
    x = tensor_arg(input)
    if x.data.ndim not in (3, 4):
        raise GradRuntimeError(
            f"{what}: Expected 3D or 4D tensor, but got {list(x.data.shape)}"
            if what.startswith("adaptive")
            else "non-empty 3D or 4D (batch mode) tensor expected for input"
        )
    return x, x.data.ndim == 3


def _pool_out(n, k, s, p, ceil):
    out = (n + 2 * p - k + ((s - 1) if ceil else 0)) // s + 1
    if ceil and (out - 1) * s >= n + p:
        out -= 1
    return out


@register(
    "avg_pool2d",
    "avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, "
    "count_include_pad=True, divisor_override=None)",
    "the mean of each kernel_size window of (N, C, H, W) input",
    checks=[((Arg((2, 2, 4, 4)), 2), {}), ((Arg((1, 5, 5)), 3), {"stride": 2, "padding": 1})],
    category="nn",
    batch="image",
    inplace=None,
    pure=True,
    parser=None,
)
def avg_pool2d(
    input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
    divisor_override=None,
):  # fmt: skip
    x, unbatched = _image(input, "avg_pool2d")
    if unbatched:
        x = unsqueeze(x, 0)
    kh, kw = _pair(kernel_size, "kernel_size")
    sh, sw = (kh, kw) if stride is None or stride == [] or stride == () else _pair(stride, "stride")
    ph, pw = _pair(padding, "padding")
    if ph > kh // 2 or pw > kw // 2:
        raise GradRuntimeError("pad should be at most half of effective kernel size")
    if divisor_override is not None and divisor_override == 0:
        raise GradRuntimeError("divisor must be not zero")
    H, W = x.data.shape[2:]
    oh, ow = _pool_out(H, kh, sh, ph, ceil_mode), _pool_out(W, kw, sw, pw, ceil_mode)
    if oh <= 0 or ow <= 0:
        raise GradRuntimeError(
            f"Given input size: ({x.data.shape[1]}x{H}x{W}). Calculated output size: "
            f"({x.data.shape[1]}x{oh}x{ow}). Output size is too small"
        )
    pool = dict(
        kernel_size=(kh, kw),
        stride=() if stride is None or stride == [] or stride == () else (sh, sw),
        padding=(ph, pw),
        ceil_mode=bool(ceil_mode),
        count_include_pad=bool(count_include_pad),
        divisor_override=divisor_override,
    )
    out = AvgPool.apply(x, **pool)
    return squeeze(out, 0) if unbatched else out


@_per_shape
def _avg_windows(H, W, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor):
    """(rows, cols, divide, attrs) of avg_pool2d on an H x W input: each output's window
    as slices of rows and columns of the input, its divisor, and the arguments as
    PyTorch saves them (stride () when the call gave none: the kernel's)."""
    (kh, kw), (ph, pw) = kernel_size, padding
    sh, sw = stride or kernel_size
    oh, ow = _pool_out(H, kh, sh, ph, ceil_mode), _pool_out(W, kw, sw, pw, ceil_mode)

    def windows(o, k, s, p, n):
        spans = []
        for i in range(o):
            start = i * s - p
            end = min(start + k, n + p)
            pool = end - start
            spans.append((max(start, 0), min(end, n), pool))
        return spans

    hs, ws = windows(oh, kh, sh, ph, H), windows(ow, kw, sw, pw, W)
    divide = [
        [
            divisor
            if divisor is not None
            else (hp * wp if count_include_pad else (h1 - h0) * (w1 - w0))
            for (w0, w1, wp) in ws
        ]
        for (h0, h1, hp) in hs
    ]
    rows = [slice(a, b) for a, b, _ in hs]
    cols = [slice(a, b) for a, b, _ in ws]
    attrs = {
        "kernel_size": kernel_size,
        "stride": stride,
        "padding": padding,
        "ceil_mode": ceil_mode,
        "count_include_pad": count_include_pad,
        "divisor_override": divisor,
    }
    return rows, cols, divide, attrs


def _adaptive_sizes(output_size, h, w):
    if isinstance(output_size, int) and not isinstance(output_size, bool):
        output_size = (output_size, output_size)
    size = list(output_size)
    if len(size) != 2:
        raise GradRuntimeError(
            "adaptive_avg_pool2d: output_size must be 2, but got " + str(len(size))
        )
    return (h if size[0] is None else int(size[0])), (w if size[1] is None else int(size[1]))


@register(
    "adaptive_avg_pool2d",
    "adaptive_avg_pool2d(input, output_size)",
    "the mean over output_size windows that tile (N, C, H, W) input",
    checks=[((Arg((2, 2, 5, 4)), (2, 3)), {}), ((Arg((1, 3, 3)), 1), {})],
    category="nn",
    batch="image",
    inplace=None,
    pure=False,
    parser=None,
)
def adaptive_avg_pool2d(input, output_size):
    x, unbatched = _image(input, "adaptive_avg_pool2d()")
    H, W = x.data.shape[-2:]
    oh, ow = _adaptive_sizes(output_size, H, W)
    if oh == 1 and ow == 1:  # torch: the mean over the last two dims
        return FUNCTIONS["mean"](x, (-1, -2), True)
    if unbatched:
        x = unsqueeze(x, 0)
    rows = [slice(i * H // oh, -(-(i + 1) * H // oh)) for i in range(oh)]
    cols = [slice(j * W // ow, -(-(j + 1) * W // ow)) for j in range(ow)]
    divide = [[(r.stop - r.start, c.stop - c.start) for c in cols] for r in rows]
    out = AdaptiveAvgPool.apply(x, rows=rows, cols=cols, divide=divide)
    return squeeze(out, 0) if unbatched else out


FUNCTIONAL_ONLY = ("embedding", "batch_norm", "avg_pool2d", "adaptive_avg_pool2d")
