"""Batch normalisation as PyTorch's CPU kernels compute it, for last-bit agreement.

Which kernel runs follows ATen (`kernel`): an input with one value per channel and
sample ((N, C), or (N, C, 1, ...)) or laid out channels last (4 or 5 dims) goes through
the kernels for channels-last data, any other C-ordered one ((N, C, L...)) through the
contiguous kernels, and any other layout (a transposed or permuted input, or a gradient
laid out otherwise than the input) through ATen's general path: the mean as `at::mean`,
each channel's values walked in TensorIterator's order with the squares' sum and the
gradient's dot product in float64, the output `((x - mean) * invstd) * w + b` and the
gradients in the dtype, nothing fused, the running statistics in float64 (and in
evaluation the forward's invstd as tensor ops: VML's sqrt, then the reciprocal).

Channels last: the rows are cut between threads as `at::parallel_for` cuts them
(`_row_chunks`; measured: two rows are not cut), each thread sums its rows into a
buffer of C values in the dtype (the variance's `acc + (x - mean)^2` one fused
multiply-add), and the threads' buffers are added in float64 and rounded to the
dtype; with no more rows than threads (measured with two), the rows are summed as one
chunk for up to 16 channels, and for more each channel's values in float64 as the
contiguous kernel sums a row (below); the fused steps run as one compiled chain per sum
where the native loops are loaded (`native_sum_calls.fma_chain`).  The backward sums likewise; its
`(dy - mean(dy) - (x - mean) * k) * invstd * w` is one fused multiply-add on the whole
8-float (4-double) vectors of channels and plain arithmetic on the partial vector after
them.  Where the native loops are loaded, the channels-last forward and backward are each
one compiled call of these same steps (numerics/native_bn.py: `train_forward`,
`_native_forward`, `_native_backward`).

Contiguous: per channel, the mean is a float64 sum of the values in order, the
variance's sum a float64 sum of the squares (float32: squares rounded in float32;
float64: the compiler pairs the values of each row of L positions, so squares of
pairs are rounded and the last of an odd row is one fused multiply-add).  Its backward
sums each row of L positions as `vec::reduce_all` / `vec::map2_reduce_all` do
(8-float or 4-double vectors added one after another, the products (x - mean) * dy
of whole vectors rounded, those of the partial vector fused into the accumulator,
then the lanes as a tree (float32) or in order (float64)), adds the rows' results
into a float64 accumulator, and computes the input's gradient with the same fused
multiply-add on every value.

Then, in float64, `invstd = 1 / sqrt(var + eps)` with `var = var_sum / N` divided in
the dtype, and the output is one fused `x * alpha + beta` with `alpha = invstd * w`
and `beta = b - mean * alpha` (fused) in the dtype.  In evaluation the forward takes
`1 / sqrt(running_var + eps)` in the dtype and the backward in float64 (rounded to the
dtype).  Running statistics: `momentum * new + (1 - momentum) * old` in the dtype (the
float32 variance's fused), the variance unbiased (`var_sum / (N - 1)` in the dtype).
Checked against torch 2.13's AVX2 kernels on (N, C), (N, C, L) and (N, C, H, W)
inputs, permuted and channels-last ones, in both dtypes, training and evaluation, with
and without weight and bias (tests/golden/batch_norm.json)."""

from __future__ import annotations

import numpy as np

from .fma import fma, fma32
from .. import native, native_layers, native_sum_calls
from ..mkl import unary_fn
from ..parallel import THREADS
from ..sums.axes import sum_axes


# PyTorch's AVX2 vector width, in elements of each dtype
_WIDTH = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}


def _fma(a, b, c):
    """a * b + c rounded once, in c's dtype (float32 or float64); operands broadcast
    (the compiled step walks a per-channel operand against the rows itself)."""
    if np.asarray(c).dtype == np.float32:
        b = np.asarray(b, dtype=np.float32)
        r = native.quick("fma32", a, b, c)
        if r is not None:
            return r
        return fma32(np.asarray(a, dtype=np.float64), b, c)
    return fma(a, b, c)


def _row_chunks(n, cut_two=False):
    if n < 2 or (n == 2 and not cut_two) or THREADS == 1:
        return [(0, n)]
    k = min(THREADS, n)
    size = -(-n // k)
    return [(b, min(n, b + size)) for b in range(0, n, size)]


def _by_step(rows, chunks):
    """(L, K, C) C-ordered: row i of chunk k of the (N, C) `rows` at [i, k], the shorter
    chunks' missing rows zeros."""
    n, c = rows.shape
    k, longest = len(chunks), max(e - b for b, e in chunks)
    if k * longest == n:  # (equal chunks, one after another)
        return np.ascontiguousarray(rows.reshape(k, longest, c).transpose(1, 0, 2))
    out = np.zeros((longest, k, c), rows.dtype)
    for j, (b, e) in enumerate(chunks):
        out[: e - b, j] = rows[b:e]
    return out


def _channels_last_sum(rows, fma_with=None, cut_two=False, whole=False):
    """sum over the rows of (N, C) `rows` as the channels-last kernels accumulate: per
    chunk `acc = acc + row` in the dtype (`fma_with`: an (N, C) array of factors, `acc =
    fma(row, factor, acc)`), the chunks added in float64 (`whole`: one chunk).

    Each step is one operation on the chunks' rows together (each value's arithmetic is
    its own); a chunk's missing rows at the end add zeros, which can change only the sign
    of a zero sum, and the float64 total (from +0) drops that."""
    n, c = rows.shape
    chunks = [(0, n)] if whole else _row_chunks(n, cut_two)
    steps = _by_step(rows, chunks)
    if fma_with is None:
        acc = np.add.accumulate(steps, axis=0)[-1] if len(steps) else steps.sum(0)
    else:
        factors = _by_step(fma_with, chunks)
        acc = np.zeros(steps.shape[1:], rows.dtype)
        if factors.dtype != acc.dtype or not native_sum_calls.fma_chain(steps, factors, acc):
            acc = np.zeros(steps.shape[1:], rows.dtype)
            for i in range(len(steps)):
                acc = _fma(steps[i], factors[i], acc)
    total = np.zeros(c, np.float64)
    for a in acc:
        total = total + a
    return total


def _sums(x, mean=None, factor=None, cut_two=False, whole=False):
    """`_channels_last_sum` of (N, C) `x` (given `mean`, of x - mean, fused with
    `factor`, or with x - mean itself where no factor is given), as one compiled pass
    where the loops are loaded (`native_sum_calls.chunk_sums`: each chunk's rows in turn, the
    chunks' accumulators added in float64, the same steps)."""
    n = x.shape[0]
    dt = x.dtype
    if n and (mean is None or mean.dtype == dt) and (factor is None or factor.dtype == dt):
        chunk = n if whole else _row_chunks(n, cut_two)[0][1]
        if factor is not None and not factor.flags.c_contiguous:
            factor = np.ascontiguousarray(factor)
        xs = x if x.flags.c_contiguous else np.ascontiguousarray(x)
        got = native_sum_calls.chunk_sums(xs, chunk, mean, factor)
        if got is not None:
            return got
    d = x if mean is None else x - mean
    return _channels_last_sum(
        d, d if factor is None and mean is not None else factor, cut_two, whole
    )


def _memory_format(a):
    """'c' for a C-ordered array, 'cl' for a (N, C, ...) one laid out channels last (4 or
    5 dims, the channels innermost), None for any other layout."""
    if a.flags.c_contiguous:
        return "c"
    if a.ndim in (4, 5) and np.moveaxis(a, 1, -1).flags.c_contiguous:
        return "cl"
    return None


def kernel(x, g=None):
    """ATen's choice of kernel for x (and the gradient g): 'rows' (channels last: one
    value per channel and sample, or a channels-last layout), 'planes' (contiguous with
    L > 1 values per sample and channel) or 'general' (any other layout, or g laid out
    otherwise than x)."""
    fmt = _memory_format(x)
    if fmt is None or (g is not None and _memory_format(g) != fmt) or x.dtype not in _WIDTH:
        return "general"  # (float16 too: not torch's reduced-precision kernels)
    return "rows" if fmt == "cl" or x.size == x.shape[0] * x.shape[1] else "planes"


def _rows(a):
    """(M, C) rows of an array the channels-last kernels take, in memory order."""
    if a.ndim == 2:
        return a
    return np.moveaxis(a, 1, -1).reshape(-1, a.shape[1])


def _from_rows(rows, like):
    """The (N, C, ...) array of `like`'s shape whose channels-last rows are `rows`."""
    if like.ndim == 2:
        return rows
    shape = (like.shape[0],) + like.shape[2:] + (like.shape[1],)
    return np.moveaxis(rows.reshape(shape), -1, 1)


def _planes(x):
    """(N, C, L) view of a contiguous (N, C, ...) array."""
    return x.reshape(x.shape[0], x.shape[1], -1)


def _ordered_sum(total, rows):
    """`total` plus the values of each row of (C, K) `rows` one after another, in
    float64 (a sequential sum: NumPy's cumsum adds in order, unlike its sum)."""
    return np.cumsum(np.concatenate([total[:, None], rows], axis=1), axis=1)[:, -1]


def _squares_sum(total, d):
    """`total` plus the squares of each row of (C, K) `d`, added in order in float64 as
    the compiled loops add them: float32's squares rounded in float32, float64's in
    pairs (rounded, added one after the other) and an odd row's last one fused."""
    k = d.shape[1]
    paired = k // 2 * 2 if d.dtype == np.float64 else k
    acc = _ordered_sum(total, (d[:, :paired] * d[:, :paired]).astype(np.float64))
    if paired < k:
        acc = fma(d[:, -1], d[:, -1], acc)
    return acc


def stats(x):
    """(mean, var_sum) per channel (dim 1) of a (N, C, ...) array."""
    dt = x.dtype
    if kernel(x) == "rows":
        x = _rows(x)
        n, c = x.shape
        if n <= THREADS and c > 16:  # each channel's loop in float64 (measured: 2 rows)
            mean = (_ordered_sum(np.zeros(c), x.T.astype(np.float64)) / n).astype(dt)
            return mean, _squares_sum(np.zeros(c), (x - mean).T).astype(dt)
        whole = n <= THREADS  # (measured: 2 rows of up to 16 channels, summed uncut)
        mean = (_sums(x, whole=whole) / n).astype(dt)
        return mean, _sums(x, mean, whole=whole).astype(dt)
    planes = _planes(x)
    nb, c, plane = planes.shape
    total = np.zeros(c, np.float64)
    for b in range(nb):
        total = _ordered_sum(total, planes[b].astype(np.float64))
    mean = (total / (nb * plane)).astype(dt)
    acc = np.zeros(c, np.float64)
    for b in range(nb):
        acc = _squares_sum(acc, planes[b] - mean[:, None])
    return mean, acc.astype(dt)


def invstd(var_sum, n, eps, dtype=None):
    """1 / sqrt(var_sum / n + eps) in float64 (0 where that is 1 / sqrt(0)), rounded to
    the dtype; var_sum / n divided in var_sum's dtype."""
    var = (var_sum / var_sum.dtype.type(n)).astype(np.float64)
    if float(eps) > 0:  # (var + eps > 0: no 1 / sqrt(0))
        return (1.0 / np.sqrt(var + float(eps))).astype(dtype or var_sum.dtype)
    with np.errstate(divide="ignore"):
        inv = np.where((var == 0) & (float(eps) == 0), 0.0, 1.0 / np.sqrt(var + float(eps)))
    return inv.astype(dtype or var_sum.dtype)


def training(x, eps, momentum, running_mean, running_var):
    """(mean, invstd) of a training batch, and the running mean and variance updated
    (None for those not kept), as the kernel ATen chooses for x computes them."""
    dt = x.dtype
    c = x.shape[1]
    n = x.size // c
    rm = rv = None
    if kernel(x) != "general":
        mean, var_sum = stats(x)
        inv = invstd(var_sum, n, eps)
        if running_mean is not None:
            rm = running(running_mean, mean, momentum)
            rv = running(running_var, var_sum / var_sum.dtype.type(n - 1), momentum, fused=True)
        return mean, inv, rm, rv
    # any other layout: at::mean, then per channel the squares' sum in float64, in
    # TensorIterator's order, nothing fused; the running statistics in float64
    axes = (0,) + tuple(range(2, x.ndim))
    mean = (sum_axes(x, axes, False, dt) / dt.type(n)).astype(dt)
    (xs,) = _serial(x)
    d = xs.astype(np.float64) - mean.astype(np.float64)[:, None]
    var_sum = _ordered_sum(np.zeros(c), d * d)
    inv = invstd(var_sum, n, eps, dt)
    if running_mean is not None:
        m = float(momentum)
        old_m, old_v = running_mean.astype(np.float64), running_var.astype(np.float64)
        rm = (m * mean.astype(np.float64) + (1 - m) * old_m).astype(running_mean.dtype)
        rv = (m * (var_sum / (n - 1)) + (1 - m) * old_v).astype(running_var.dtype)
    return mean, inv, rm, rv


def train_forward(x, eps, momentum, running_mean, running_var, weight, bias):
    """(output, mean, invstd, running mean, running variance) of a training batch:
    `training`, then `transform`; the channels-last kernels' whole forward in one
    compiled call where the loops are loaded (`_native_forward`, the same steps)."""
    got = _native_forward(x, eps, momentum, running_mean, running_var, weight, bias)
    if got is not None:
        return got
    mean, inv, rm, rv = training(x, eps, momentum, running_mean, running_var)
    return transform(x, mean, inv, weight, bias), mean, inv, rm, rv


#: per (channels, dtype): ones and zeros standing for an absent weight and bias (never
#: written: the compiled loops only read them)
_filler: dict = {}


def _fill(c, dt):
    got = _filler.get((c, dt))
    if got is None:
        if len(_filler) >= 32:
            _filler.clear()
        got = _filler[c, dt] = (np.ones(c, dt), np.zeros(c, dt))
    return got


def _operand(a, c, dt):
    """a (C,) array the compiled loops can read for a per-channel operand, else None."""
    if a is None or type(a) is not np.ndarray or a.dtype is not dt or a.shape != (c,):
        return None
    return a if a.flags.c_contiguous else None


def _native_rows(x):
    """x's channels-last rows for the compiled loops (a C-contiguous (M, C) float32 or
    float64 array in the machine's byte order), else None."""
    if native.loaded() is None or x.dtype not in _WIDTH or not x.dtype.isnative:
        return None
    if kernel(x) != "rows":
        return None
    rows = _rows(x)
    return rows if rows.flags.c_contiguous and rows.shape[0] else None


def _native_forward(x, eps, momentum, running_mean, running_var, weight, bias, mean=None,
                    inv=None):  # fmt: skip
    """`train_forward` (or, given mean and inv, `transform`) as one compiled call
    (native_bn.forward_ir), or None where it does not apply."""
    rows = _native_rows(x)
    if rows is None:
        return None
    dt = x.dtype
    n, c = rows.shape
    train = mean is None
    if train and (n <= THREADS and c > 16 or not float(eps) > 0):
        return None
    ones, zeros = _fill(c, dt)
    w = ones if weight is None else _operand(weight, c, dt)
    b = zeros if bias is None else _operand(bias, c, dt)
    if w is None or b is None:
        return None
    out = np.empty((4, c), dt)
    kept = train and running_mean is not None
    if kept:
        rm, rv = _operand(running_mean, c, dt), _operand(running_var, c, dt)
        if rm is None or rv is None:
            return None
        t = dt.type
        m = t(momentum)
        k = np.array((float(eps), float(m), float(t(1) - m)))
    else:
        rm = rv = zeros
        k = np.array((float(eps), 0.0, 1.0))
    if not train:
        out[0], out[1] = mean, inv
    chunk = n if n <= THREADS else _row_chunks(n)[0][1]
    y = native_layers.bn_forward(rows, chunk, int(train), w, b, rm, rv, out, k)
    if y is None:
        return None
    y = _from_rows(y, x)
    if not train:
        return y
    return y, out[0], out[1], (out[2] if kept else None), (out[3] if kept else None)


def _serial(*arrays):
    """Each (N, C, ...) array as (C, K) rows: a channel's values in the order
    TensorIterator walks them (dim 1 squashed; the others sorted by the arrays'
    strides, the first array's first, reorder_dimensions' insertion sort)."""
    shape = arrays[0].shape
    sizes = [1 if d == 1 else n for d, n in enumerate(shape)]
    strides = [a.strides for a in arrays]

    def should_swap(d0, d1):
        for st in strides:
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if sizes[d0] > sizes[d1]:
                return 1
        return 0

    perm = list(range(len(shape) - 1, -1, -1))  # fastest first
    for i in range(1, len(perm)):
        j = i
        for k in range(i - 1, -1, -1):
            c = should_swap(perm[k], perm[j])
            if c > 0:
                perm[k], perm[j] = perm[j], perm[k]
                j = k
            elif c < 0:
                break
    order = [1] + [d for d in reversed(perm) if d != 1]  # the channel, then outermost first
    return [np.transpose(a, order).reshape(shape[1], -1) for a in arrays]


_sqrt = unary_fn("sqrt", np.sqrt)


def eval_invstd(running_var, eps, backward=False, x=None):
    """1 / sqrt(running_var + eps) in evaluation: in the dtype for the forward (of an
    input `x` in another layout, as tensor ops: VML's sqrt, then the reciprocal), in
    float64 and rounded to the dtype for the backward (its kernels add eps as a double)."""
    dt = running_var.dtype
    if backward:
        return (1.0 / np.sqrt(running_var.astype(np.float64) + float(eps))).astype(dt)
    if x is not None and kernel(x) == "general":
        return (dt.type(1) / _sqrt(running_var + dt.type(eps))).astype(dt)
    return (dt.type(1) / np.sqrt(running_var + dt.type(eps))).astype(dt)


def transform(x, mean, inv, weight, bias):
    """x * alpha + beta per channel (dim 1), as the kernel applies it (any other layout:
    ((x - mean) * invstd) * weight + bias, nothing fused)."""
    dt = x.dtype
    if mean.dtype is dt and inv.dtype is dt and mean.shape == inv.shape == (x.shape[1],):
        got = _native_forward(x, 0.0, None, None, None, weight, bias, mean, inv)
        if got is not None:
            return got
    if kernel(x) == "general":
        shape = (1, -1) + (1,) * (x.ndim - 2)
        w = dt.type(1) if weight is None else weight.reshape(shape)
        b = dt.type(0) if bias is None else bias.reshape(shape)
        return ((((x - mean.reshape(shape)) * inv.reshape(shape)) * w) + b).astype(dt)
    alpha = inv if weight is None else (inv * weight).astype(dt)
    b = np.zeros_like(alpha) if bias is None else bias
    beta = _fma(-mean, alpha, b)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return _fma(x, alpha.reshape(shape), beta.astype(dt).reshape(shape))


def running(old, new, momentum, fused=False):
    """momentum * new + (1 - momentum) * old, in old's dtype (`fused`: one fused
    multiply-add, as the float32 kernel updates the running variance)."""
    t = old.dtype.type
    m = t(momentum)
    new = new.astype(old.dtype)
    if fused and old.dtype == np.float32:
        return _fma(np.float64(m), new, (t(1) - m) * old)
    return (m * new + (t(1) - m) * old).astype(old.dtype)


def backward(g, x, mean, inv, weight, train):
    """(grad_input, grad_weight, grad_bias) in training (or evaluation) mode, `inv` the
    backward's invstd (`eval_invstd(..., backward=True)` in evaluation)."""
    which = kernel(x, g)
    if which == "planes":
        return _contiguous_backward(g, x, mean, inv, weight, train)
    if which == "general":
        return _general_backward(g, x, mean, inv, weight, train)
    like = x
    x, g = _rows(x), _rows(g)
    dt = x.dtype
    n = x.shape[0]
    got = _native_backward(g, x, mean, inv, weight, train)
    if got is not None:
        return _from_rows(got[0], like), got[1], got[2]
    w = np.ones_like(inv) if weight is None else weight
    gsum = _sums(g, cut_two=True).astype(dt)
    dotp = _sums(x, mean, g, cut_two=True).astype(dt)
    if train:
        k = dotp * inv * inv / dt.type(n)
        grad_mean = gsum / dt.type(n)
        xm = x - mean
        rest = g - grad_mean
        c = x.shape[1]
        w_ = _WIDTH.get(np.dtype(dt), 1)
        fused = c // w_ * w_  # the kernel's whole vectors: one fma (of -xm, k: xm's, -k)
        if fused == c:
            gx = _fma(xm, -k, rest) * inv * w
        else:
            gx = (rest - xm * k) * inv * w
            if fused:
                part = _fma(xm[:, :fused], -k[:fused], rest[:, :fused])
                gx[:, :fused] = part * inv[:fused] * w[:fused]
    else:
        gx = g * inv * w
    return _from_rows(gx.astype(dt), like), (dotp * inv).astype(dt), gsum


def _native_backward(g, x, mean, inv, weight, train):
    """`backward`'s channels-last kernel on (M, C) rows as one compiled call
    (native_bn.backward_ir), or None where it does not apply."""
    dt = x.dtype
    if native.loaded() is None or dt not in _WIDTH or not dt.isnative or g.dtype is not dt:
        return None
    if not (x.flags.c_contiguous and g.flags.c_contiguous and x.shape[0]):
        return None
    n, c = x.shape
    w = _fill(c, dt)[0] if weight is None else _operand(weight, c, dt)
    m, i = _operand(mean, c, dt), _operand(inv, c, dt)
    if w is None or m is None or i is None:
        return None
    chunk = _row_chunks(n, cut_two=True)[0][1]
    return native_layers.bn_backward(g, x, chunk, int(bool(train)), m, i, w)


def _lanes(acc, dt):
    """The lanes of (R, W) vector accumulators added as `vec_reduce_all` adds them: a
    tree of shuffles for 8 floats, in order for 4 doubles."""
    if acc.shape[1] == 8:
        v = acc[:, :4] + acc[:, 4:]
        v = v[:, :2] + v[:, 2:]
        return v[:, 0] + v[:, 1]
    return ((acc[:, 0] + acc[:, 1]) + acc[:, 2]) + acc[:, 3]


def _reduce_rows(a, b=None, mean=None):
    """Per row of (R, L) `a`: `vec::reduce_all` of its sum, or (given `b` and `mean`,
    (R, 1)) `vec::map2_reduce_all` of the sum of (a - mean) * b, in the dtype."""
    dt = a.dtype
    rows, length = a.shape
    width = _WIDTH[np.dtype(dt)]
    d = a if b is None else a - mean
    if length < width:  # one partial vector: its values from the left
        p = d if b is None else d * b
        acc = p[:, 0].copy()
        for i in range(1, length):
            acc = acc + p[:, i]
        return acc
    whole = length // width * width
    p = d[:, :whole] if b is None else d[:, :whole] * b[:, :whole]
    blocks = p.reshape(rows, whole // width, width)
    acc = blocks[:, 0].copy()
    for j in range(1, blocks.shape[1]):
        acc = acc + blocks[:, j]
    if whole < length:  # the partial vector into the first lanes (its product fused)
        r = length - whole
        tail = d[:, whole:]
        acc[:, :r] = acc[:, :r] + tail if b is None else _fma(tail, b[:, whole:], acc[:, :r])
    return _lanes(acc, dt)


def _contiguous_backward(g, x, mean, inv, weight, train):
    """The contiguous kernel's backward of a (N, C, L...) input, per channel: each
    sample's row of L values reduced in the dtype and added into float64."""
    dt = x.dtype
    xs, gs = _planes(x), _planes(g)
    nb, c, plane = xs.shape
    n = nb * plane
    w = np.ones(c, dt) if weight is None else weight
    gsum = np.zeros(c, np.float64)
    dotp = np.zeros(c, np.float64)
    m = np.repeat(mean, nb).reshape(c, nb)  # (channel, sample) rows
    xr = np.ascontiguousarray(xs.transpose(1, 0, 2)).reshape(c * nb, plane)
    gr = np.ascontiguousarray(gs.transpose(1, 0, 2)).reshape(c * nb, plane)
    sums = _reduce_rows(gr).reshape(c, nb).astype(np.float64)
    dots = _reduce_rows(xr, gr, m.reshape(-1, 1)).reshape(c, nb).astype(np.float64)
    for b in range(nb):
        gsum = gsum + sums[:, b]
        dotp = dotp + dots[:, b]
    col = (1, -1, 1)
    if train:
        k = ((dotp.astype(dt) * inv) * inv) / dt.type(n)
        grad_mean = (gsum / n).astype(dt)
        xm = xs - mean.reshape(col)
        kk = np.broadcast_to(k.reshape(col), xs.shape)
        gx = _fma(-xm, kk, gs - grad_mean.reshape(col)) * inv.reshape(col) * w.reshape(col)
    else:
        gx = gs * inv.reshape(col) * w.reshape(col)
    return gx.astype(dt).reshape(x.shape), (dotp * inv).astype(dt), gsum.astype(dt)


def _general_backward(g, x, mean, inv, weight, train):
    """ATen's backward for any other layout: at::sum of the gradient, per channel the
    dot product in TensorIterator's order (products in the dtype added in float64), the
    input's gradient in the dtype, nothing fused."""
    dt = x.dtype
    c = x.shape[1]
    n = x.size // c
    axes = (0,) + tuple(range(2, x.ndim))
    gsum = np.asarray(sum_axes(g, axes, False, dt), dtype=dt)
    xs, gs = _serial(x, g)
    dotp = _ordered_sum(np.zeros(c), ((xs - mean[:, None]) * gs).astype(np.float64))
    col = (1, -1) + (1,) * (x.ndim - 2)
    w = np.ones(c, dt) if weight is None else weight
    if train:
        k = ((dotp.astype(dt) * inv) * inv) / dt.type(n)
        gi = (x - mean.reshape(col)) * k.reshape(col)
        grad_mean = gsum / dt.type(n)
        gx = (((g - grad_mean.reshape(col)) - gi) * inv.reshape(col)) * w.reshape(col)
    else:
        gx = (g * inv.reshape(col)) * w.reshape(col)
    return gx.astype(dt), (dotp * inv).astype(dt), gsum
