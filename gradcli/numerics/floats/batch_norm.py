"""Batch normalisation as PyTorch's CPU kernels compute it, for last-bit agreement.

A (N, C) input (one value per channel and sample) goes through the kernels for
channels-last data: the rows are cut between threads as `at::parallel_for` cuts them
(`_row_chunks`; measured: two rows are not cut), each thread sums its rows into a
buffer of C values in the dtype (the variance's `acc + (x - mean)^2` one fused
multiply-add), and the threads' buffers are added in float64 and rounded to the
dtype.  A (N, C, L) input goes through the contiguous kernel: per channel, a float64
sum over the batch and the positions.  Then, in float64, `invstd = 1 / sqrt(var + eps)`
with `var = var_sum / N` divided in the dtype, and the output is one fused
`x * alpha + beta` with `alpha = invstd * w` and `beta = b - mean * alpha` (fused) in
the dtype.  Running statistics: `momentum * new + (1 - momentum) * old` in the dtype (the
float32 variance's fused), the variance unbiased (`var_sum / (N - 1)` in the dtype).
The backward follows the channels-last kernel too (measured on an AVX-512 CPU: whole
vectors of channels fused, the loop's tail not)."""

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


def stats(x):
    """(mean, var_sum) per channel (dim 1) of a (N, C) or (N, C, L) array."""
    dt = x.dtype
    if x.ndim == 2:
        n = x.shape[0]
        mean = (_channels_last_sum(x, lambda acc, i: acc + x[i]) / n).astype(dt)

        def var_step(acc, i):
            d = x[i] - mean
            return _fma(d, d, acc)

        return mean, _channels_last_sum(x, var_step).astype(dt)
    per_channel = np.moveaxis(x, 1, 0).reshape(x.shape[1], -1)  # (C, N*L) in batch order
    n = per_channel.shape[1]
    mean = np.empty(x.shape[1], dt)
    var_sum = np.empty(x.shape[1], dt)
    for c, row in enumerate(per_channel):
        s = 0.0
        for v in row.tolist():
            s += v
        m = dt.type(s / n)
        d = row - m
        sq = (d * d).tolist()
        acc = 0.0
        for v in sq:
            acc += v
        mean[c], var_sum[c] = m, acc
    return mean, var_sum


def invstd(var_sum, n, eps):
    var = var_sum / var_sum.dtype.type(n)
    return (1.0 / np.sqrt(var.astype(np.float64) + float(eps))).astype(var_sum.dtype)


def eval_invstd(running_var, eps):
    dt = running_var.dtype
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


# PyTorch's vector width on an AVX-512 CPU, in elements of each dtype
_WIDTH = {np.dtype(np.float32): 16, np.dtype(np.float64): 8}


def _vector_columns(c, dt):
    """How many of c channels the backward kernel computes in whole vectors (fused
    there, measured), a half vector included: the rest are the loop's tail."""
    w = _WIDTH.get(np.dtype(dt), 1)
    full = c // w * w
    return full + (w // 2 if c - full >= w // 2 else 0)


def backward(g, x, mean, inv, weight, train):
    """(grad_input, grad_weight, grad_bias) of a (N, C) input in training (or eval) mode."""
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
        fused = _vector_columns(x.shape[1], dt)  # the kernel's whole vectors: one fma
        if fused:
            kf = np.broadcast_to(k[:fused], (n, fused))
            rest = (g - grad_mean)[:, :fused]
            gx[:, :fused] = _fma(-xm[:, :fused], kf, rest) * inv[:fused] * w[:fused]
    else:
        gx = g * inv * w
    return gx.astype(dt), (dotp * inv).astype(dt), gsum
