"""Draws of PyTorch's CPU kernels beyond rand/randn/randint, on a `random.Generator`
(passed in: this module does not import the generator's, kept out of start-up):
`uniform_`, `normal_`, `bernoulli_`, `bernoulli`, `randperm` and an int64 `random_()`, each consuming
the generator's stream as the kernel does (verified against torch 2.13)."""

from __future__ import annotations

import math

import numpy as np

from .. import native_layers
from ..floats.fma import fma, fma32


def _normalize_shape(shape):
    return tuple(int(n) for n in shape)


def _numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _float_dtype(dtype):
    return np.dtype(dtype)


def uniform(gen, shape, low: float, high: float, dtype=np.float32) -> np.ndarray:
    """``torch.empty(shape).uniform_(low, high)``: float32 takes 24 bits of one draw and
    scales in double; float64 53 bits of random64() and one fused multiply-add."""
    shape = _normalize_shape(shape)
    n = _numel(shape)
    if _float_dtype(dtype) == np.float32:
        lo, hi = np.float32(low), np.float32(high)
        x = (gen._raw32(n) & np.uint64(0xFFFFFF)).astype(np.float64) * 2.0**-24
        out = (x * np.float64(hi - lo) + np.float64(lo)).astype(np.float32)
    else:
        x = (gen._raw64(n) & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0**-53
        out = fma(x, float(high) - float(low), float(low))
    return out.reshape(shape)


def normal(gen, shape, mean: float = 0.0, std: float = 1.0, dtype=np.float32) -> np.ndarray:
    """``torch.empty(shape).normal_(mean, std)``: the normals of ``randn`` (same
    stream, same paths), each fused-multiply-added as ``n * std + mean``."""
    shape = _normalize_shape(shape)
    dt = _float_dtype(dtype)
    n = _numel(shape)
    if n < 16:
        x = np.array([gen._normal_scalar() for _ in range(n)], dtype=np.float64)
        return fma(x, float(std), float(mean)).astype(dt).reshape(shape)
    x = gen.randn(shape, dt)
    if dt == np.float32:
        return fma32(x.astype(np.float64), np.float32(std), np.float32(mean)).reshape(shape)
    return fma(x, float(std), float(mean))


def randperm(gen, n: int) -> np.ndarray:
    """``torch.randperm(n, generator=...)`` on the CPU: swaps driven by 32-bit draws
    (64-bit ones from n = 2**32 / 20 on)."""
    out = np.arange(n, dtype=np.int64)
    if n < 2:
        return out
    small = n < (1 << 32) // 20
    raw = gen._raw32(n - 1) if small else gen._raw64(n - 1)
    # (the draw i, a uint64, modulo n - i, plus i: where position i swaps with, made by
    # NumPy for all of them; the swaps themselves in order)
    to = (raw % np.arange(n, 1, -1, dtype=np.uint64) + np.arange(n - 1, dtype=np.uint64)).tolist()
    perm = out.tolist()
    for i, j in enumerate(to):
        perm[i], perm[j] = perm[j], perm[i]
    return np.array(perm, dtype=np.int64)


def bernoulli(gen, shape, p: float) -> np.ndarray:
    """``torch.empty(shape).bernoulli_(p)`` (PyTorch's serial CPU kernel: a float64
    uniform each, below p).  On Intel CPUs PyTorch uses MKL's stream instead."""
    shape = _normalize_shape(shape)
    n = _numel(shape)
    if n and 0.0 <= p <= 1.0:
        # u = m * 2^-53 for m the 53-bit integer of the two draws, so u < p is
        # m < ceil(p * 2^53) (exact: a power of two): one compiled loop of the draws and
        # the integer compares where the loops are loaded (numerics/native_random.py)
        got = native_layers.bernoulli_mask(gen._mt, n, math.ceil(float(p) * 2.0**53))
        if got is not None:
            return got.reshape(shape)
    return (gen._uniform64(n) < p).reshape(shape)


def bernoulli_each(gen, probs: np.ndarray) -> np.ndarray:
    """``torch.bernoulli(probs)`` on the CPU (the serial kernel, in C order): per
    element a uniform below its p; float64 probabilities take 53 bits of random64(),
    the others 24 bits of one 32-bit draw.  The result has probs' dtype."""
    p = np.ascontiguousarray(probs)
    n = p.size
    if p.dtype == np.float64:
        u = gen._uniform64(n)
    else:
        u = (gen._raw32(n) & np.uint64(0xFFFFFF)).astype(np.float64) * 2.0**-24
    return (u < p.reshape(-1).astype(np.float64)).astype(p.dtype).reshape(p.shape)


def random64_int(gen) -> int:
    """``torch.empty((), dtype=torch.int64).random_()``: random64() mod 2**63."""
    return int(gen._raw64(1)[0]) % (1 << 63)


def exponential(gen, shape, lambd: float = 1.0, dtype=np.float64) -> np.ndarray:
    """``torch.empty(shape).exponential_(lambd)`` on the CPU: a float64 uniform each
    (53 bits of random64()), ``(-1 / lambd) * log1p(-u)`` with the C library's log1p,
    rounded to the dtype."""
    shape = _normalize_shape(shape)
    u = gen._uniform64(_numel(shape)).tolist()
    scale = -1.0 / float(lambd)
    out = np.array([scale * math.log1p(-x) for x in u], dtype=np.float64)
    return out.astype(_float_dtype(dtype)).reshape(shape)


def multinomial(gen, probs: np.ndarray, n: int, replacement: bool, top) -> np.ndarray:
    """``torch.multinomial(probs, n, replacement)`` on the CPU, for a 1-D or 2-D float
    array whose entries torch has checked.  One sample, or none put back: the weights
    divided by exponential draws (one per entry, in C order), the arg-max or the n
    largest (``top(rows, n)``: their indices, largest first, ties as torch's topk).
    Several put back: per row, the running sum in the dtype divided by the
    total, its last entry set to 1, and per sample the first slot whose sum is not
    below a float64 uniform."""
    p = np.ascontiguousarray(probs)
    rows = p.reshape(-1, p.shape[-1])
    if not replacement or n == 1:
        q = exponential(gen, rows.shape, 1.0, p.dtype)
        ratio = rows / q
        if n == 1:
            out = np.argmax(ratio, axis=-1)[:, None]
        else:
            out = top(ratio, n)
    else:
        out = np.empty((rows.shape[0], n), dtype=np.int64)
        for i, row in enumerate(rows):
            cum = np.cumsum(row, dtype=row.dtype)
            cum = cum / cum[-1]
            cum[-1] = 1
            u = gen._uniform64(n)
            out[i] = np.searchsorted(cum.astype(np.float64), u, side="left")
    return out.astype(np.int64).reshape(p.shape[:-1] + (n,))
