"""Batch normalisation as PyTorch's CPU kernels compute it, for last-bit agreement.

Which kernel runs follows ATen: an input with one value per channel and sample ((N, C),
or (N, C, 1, ...)) goes through the kernels for channels-last data, any other one
((N, C, L...), contiguous) through the contiguous kernels.

Channels last: the rows are cut between threads as `at::parallel_for` cuts them
(`_row_chunks`; measured: two rows are not cut), each thread sums its rows into a
buffer of C values in the dtype (the variance's `acc + (x - mean)^2` one fused
multiply-add), and the threads' buffers are added in float64 and rounded to the
dtype.  The backward sums likewise; its `(dy - mean(dy) - (x - mean) * k) * invstd * w`
is one fused multiply-add on the whole 8-float (4-double) vectors of channels and
plain arithmetic on the partial vector after them.

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
inputs in both dtypes, training and evaluation, with and without weight and bias
(tests/golden/batch_norm.json)."""

from __future__ import annotations

import numpy as np

from .fma import fma, fma32
from ..parallel import THREADS


def _fma(a, b, c):
    """a * b + c rounded once, in c's dtype (float32 or float64)."""
    if np.asarray(c).dtype == np.float32:
        return fma32(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float32), c)
    return fma(a, b, c)


def _row_chunks(n, cut_two=False):
    if n < 2 or (n == 2 and not cut_two) or THREADS == 1:
        return [(0, n)]
    k = min(THREADS, n)
    size = -(-n // k)
    return [(b, min(n, b + size)) for b in range(0, n, size)]


def _channels_last_sum(rows, step, cut_two=False):
    """sum over the rows of (N, C) `rows` as the channels-last kernels accumulate:
    per chunk `acc = step(acc, i)` in the dtype, the chunks added in float64."""
    n, c = rows.shape
    total = np.zeros(c, np.float64)
    for b, e in _row_chunks(n, cut_two):
        acc = np.zeros(c, rows.dtype)
        for i in range(b, e):
            acc = step(acc, i)
        total = total + acc
    return total


def _is_channels_last(x):
    """Whether ATen takes the channels-last kernels: one value per channel and sample."""
    return x.ndim == 2 or x.size == x.shape[0] * x.shape[1]


def _planes(x):
    """(N, C, L) view of a contiguous (N, C, ...) array."""
    return x.reshape(x.shape[0], x.shape[1], -1)


def _ordered_sum(total, rows):
    """`total` plus the values of each row of (C, K) `rows` one after another, in
    float64 (a sequential sum: NumPy's cumsum adds in order, unlike its sum)."""
    return np.cumsum(np.concatenate([total[:, None], rows], axis=1), axis=1)[:, -1]


def stats(x):
    """(mean, var_sum) per channel (dim 1) of a (N, C, ...) array."""
    dt = x.dtype
    if _is_channels_last(x):
        x = x.reshape(x.shape[0], x.shape[1])
        n = x.shape[0]
        mean = (_channels_last_sum(x, lambda acc, i: acc + x[i]) / n).astype(dt)

        def var_step(acc, i):
            d = x[i] - mean
            return _fma(d, d, acc)

        return mean, _channels_last_sum(x, var_step).astype(dt)
    planes = _planes(x)
    nb, c, plane = planes.shape
    total = np.zeros(c, np.float64)
    for b in range(nb):
        total = _ordered_sum(total, planes[b].astype(np.float64))
    mean = (total / (nb * plane)).astype(dt)
    acc = np.zeros(c, np.float64)
    paired = plane // 2 * 2 if dt == np.float64 else plane
    for b in range(nb):
        d = planes[b] - mean[:, None]
        acc = _ordered_sum(acc, (d[:, :paired] * d[:, :paired]).astype(np.float64))
        if paired < plane:  # an odd row's last square: one fused multiply-add
            acc = fma(d[:, -1], d[:, -1], acc)
    return mean, acc.astype(dt)


def invstd(var_sum, n, eps):
    var = var_sum / var_sum.dtype.type(n)
    return (1.0 / np.sqrt(var.astype(np.float64) + float(eps))).astype(var_sum.dtype)


def eval_invstd(running_var, eps, backward=False):
    """1 / sqrt(running_var + eps): in the dtype for the forward, in float64 and rounded
    to the dtype for the backward (its kernels add eps as a double)."""
    dt = running_var.dtype
    if backward:
        return (1.0 / np.sqrt(running_var.astype(np.float64) + float(eps))).astype(dt)
    return (dt.type(1) / np.sqrt(running_var + dt.type(eps))).astype(dt)


def transform(x, mean, inv, weight, bias):
    """x * alpha + beta per channel (dim 1), as the kernel applies it."""
    dt = x.dtype
    alpha = inv if weight is None else (inv * weight).astype(dt)
    b = np.zeros_like(alpha) if bias is None else bias
    beta = _fma(-mean, alpha, b)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    a = np.broadcast_to(alpha.reshape(shape), x.shape)
    return _fma(x, a, np.broadcast_to(beta.reshape(shape), x.shape).astype(dt))


def running(old, new, momentum, fused=False):
    """momentum * new + (1 - momentum) * old, in old's dtype (`fused`: one fused
    multiply-add, as the float32 kernel updates the running variance)."""
    t = old.dtype.type
    m = t(momentum)
    new = new.astype(old.dtype)
    if fused and old.dtype == np.float32:
        return _fma(np.float64(m), new, (t(1) - m) * old)
    return (m * new + (t(1) - m) * old).astype(old.dtype)


# PyTorch's AVX2 vector width, in elements of each dtype
_WIDTH = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}


def backward(g, x, mean, inv, weight, train):
    """(grad_input, grad_weight, grad_bias) in training (or evaluation) mode, `inv` the
    backward's invstd (`eval_invstd(..., backward=True)` in evaluation)."""
    if not _is_channels_last(x):
        return _contiguous_backward(g, x, mean, inv, weight, train)
    shape = x.shape
    x, g = x.reshape(shape[0], shape[1]), g.reshape(shape[0], shape[1])
    dt = x.dtype
    n = x.shape[0]
    w = np.ones_like(inv) if weight is None else weight
    gsum = _channels_last_sum(g, lambda acc, i: acc + g[i], True).astype(dt)
    dotp = _channels_last_sum(g, lambda acc, i: _fma(x[i] - mean, g[i], acc), True).astype(dt)
    if train:
        k = dotp * inv * inv / dt.type(n)
        grad_mean = gsum / dt.type(n)
        xm = x - mean
        gx = (g - grad_mean - xm * k) * inv * w
        w_ = _WIDTH.get(np.dtype(dt), 1)
        fused = x.shape[1] // w_ * w_  # the kernel's whole vectors: one fma
        if fused:
            kf = np.broadcast_to(k[:fused], (n, fused))
            rest = (g - grad_mean)[:, :fused]
            gx[:, :fused] = _fma(-xm[:, :fused], kf, rest) * inv[:fused] * w[:fused]
    else:
        gx = g * inv * w
    return gx.astype(dt).reshape(shape), (dotp * inv).astype(dt), gsum


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
