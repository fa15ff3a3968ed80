"""PyTorch's CPU flash attention (ATen's `cpu_flash_attention` and
`cpu_flash_attention_backward`, what `scaled_dot_product_attention` runs on 4-D float32
and float64 inputs), step for step.

The forward cuts the queries into blocks of 32 rows (64 from 192 rows, 256 from 768)
and the keys into blocks of 512; for each block of queries (one task of
`at::parallel_for` over batch x heads x query blocks) and each block of keys:
* `qk = q @ k^T` by MKL's gemm into the thread's buffer;
* with a mask, `qk * scale + mask` (fused); without one, `qk * scale` and the row's max in one pass;
* the running max, `exp(qk - max)` (the fast `exp_u20` on float32's whole vectors,
  SLEEF's exp on float64's, the C library's on the values after them) summed in lanes,
  the lanes reduced in `vec_reduce_all`'s order and the last values added one by one;
* the running sum rescaled by `exp(old max - new max)`, the partial output too;
* `dst (+)= qk @ v` by gemm; at the end `dst * (1 / sum)` and the row's log-sum-exp.
The backward recomputes `exp(scale q @ k^T (+ mask) - lse)` (SLEEF's exp) and runs four
gemms per block (grad_v, grad_attn, grad_q, grad_k), `attn * (grad_attn - dsum)`
between them, dsum the rows' `map2_reduce_all` of grad_out * out.

The gemms are MKL's own calls, with PyTorch's arguments and its operands placed as
PyTorch places them (numerics/mkl.py): one thread each inside the parallel loop, MKL's
two when the loop has one task.  Without MKL, NumPy's products (within an ulp or so)."""

from __future__ import annotations

import math

import numpy as np

from .. import mkl
from ..parallel import THREADS
from .erf_tanh import exp_u20
from .fma import fma
from .sleef_explog import expf
from .torch_exp import expd, libm_expf

_NO, _TR = 111, 112
_KV_SPLIT = 512


def q_split(q_len):
    """The query block of the kernel PyTorch dispatches for q_len rows."""
    return 256 if q_len >= 768 else 64 if q_len >= 192 else 32


def _lanes(dt):
    return 8 if dt == np.float32 else 4


def _reduce_lanes(acc, dt):
    """vec_reduce_all(+) of full vectors (rows, lanes): float32's AVX2 shuffles, float64's
    lanes from the left."""
    if dt == np.float32:
        v = acc[:, :4] + acc[:, 4:]
        v = v[:, :2] + v[:, 2:]
        return v[:, 0] + v[:, 1]
    return ((acc[:, 0] + acc[:, 1]) + acc[:, 2]) + acc[:, 3]


def _std_exp(x):
    x = np.asarray(x)
    if x.dtype == np.float32:
        return libm_expf(x)
    return np.fromiter(map(math.exp, x.ravel().tolist()), np.float64, x.size).reshape(x.shape)


def _std_log(x, dt):
    return dt.type(math.log(float(x))) if x > 0 else dt.type(-np.inf if x == 0 else np.nan)


def _fma(a, b, c, dt):
    """a * b + c rounded once in dt (the compiled scalar loops' fused step)."""
    return np.asarray(fma(a, b, c, dtype=dt), dt)


def _exp_reduce_sum(x, mx, dt):
    """_exp_reduce_sum_fusion_kernel on the rows of x (rows, n) with their max mx:
    (exp(x - max), the rows' sums)."""
    rows, n = x.shape
    lanes = _lanes(dt)
    whole = lanes * (n // lanes)
    out = np.empty_like(x)
    d = x - mx[:, None]
    if whole:
        e = exp_u20(d[:, :whole]) if dt == np.float32 else expd(d[:, :whole])
        out[:, :whole] = e
        acc = e[:, :lanes].copy()
        for c in range(lanes, whole, lanes):
            acc = acc + e[:, c : c + lanes]
        total = _reduce_lanes(acc, dt)
    else:
        total = np.zeros(rows, dt)
    if whole < n:
        t = _std_exp(d[:, whole:])
        out[:, whole:] = t
        for c in range(n - whole):
            total = total + t[:, c]
    return out, total


def _scale_mask(a, b, scale, dt):
    """_scale_attn_mask_fusion_kernel: a * scale + b, fused (vector and scalar)."""
    n = a.shape[-1]
    whole = _lanes(dt) * (n // _lanes(dt))
    out = np.empty_like(a)
    s = dt.type(scale)
    out[:, :whole] = _fma(a[:, :whole], s, b[:, :whole], dt)
    if whole < n:
        out[:, whole:] = _fma(a[:, whole:], s, b[:, whole:], dt)
    return out


def _dot_rows(x, y, dt):
    """vec::map2_reduce_all(x * y, +) of each row pair (rows, n)."""
    rows, n = x.shape
    lanes = _lanes(dt)
    p = x * y
    if n < lanes:
        acc = p[:, 0].copy()
        for c in range(1, n):
            acc = acc + p[:, c]
        return acc
    acc = p[:, :lanes].copy()
    d = lanes
    while d < n - n % lanes:
        acc = acc + p[:, d : d + lanes]
        d += lanes
    if n - d > 0:
        acc[:, : n - d] = acc[:, : n - d] + p[:, d:]
    return _reduce_lanes(acc, dt)


class _Placed:
    """An operand as PyTorch holds it: its storage copied to where PyTorch's would lie
    (64-byte aligned), the view at its offset with its strides (in elements)."""

    def __init__(self, x, zeros=False):
        dt = x.dtype
        root = x
        while isinstance(root.base, np.ndarray):
            root = root.base
        size = dt.itemsize
        dense = (
            root.dtype == dt
            and root.flags.c_contiguous
            and all(s % size == 0 for s in x.strides)
            and all(s > 0 or n == 1 for s, n in zip(x.strides, x.shape))
        )
        if dense:
            off = mkl.address(x) - mkl.address(root) if x.size else 0
            if off % size or off < 0 or off >= max(root.nbytes, 1):
                dense = False
        if not dense:
            root, off = np.ascontiguousarray(x), 0
        store, at = mkl._copy_aligned(root.reshape(-1) if root.ndim else root.reshape(1))
        if zeros:
            store[...] = 0
        self.at = at + off
        self.strides = tuple(s // size for s in (x.strides if dense else root.strides))
        self.view = np.lib.stride_tricks.as_strided(
            store[off // size :], x.shape, tuple(s * size for s in self.strides)
        )
        self.size = size


def _gemm(dt, alone, t1, t2, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc):
    """cpublas::gemm (column-major, normalize_last_dims' leading dimensions) by MKL."""
    if n == 1:
        ldc = m
    if t1 != _NO:
        if m == 1:
            lda = k
    elif k == 1:
        lda = m
    if t2 != _NO:
        if k == 1:
            ldb = n
    elif n == 1:
        ldb = k
    p = "s" if dt == np.float32 else "d"
    mkl.lib()
    args = (mkl._COL, t1, t2, m, n, k, alpha, a, max(lda, 1), b, max(ldb, 1), beta, c, ldc)
    if alone:
        mkl._alone(mkl.FNS[mkl._GEMM[p]], args)
    else:
        mkl._gemm_as_two(p, args)


def _thread_of(tasks):
    """task -> the thread at::parallel_for (grain 1) gives it, and whether it runs alone
    (one task: no parallel region, MKL may use its threads)."""
    if tasks <= 1 or THREADS == 1:
        return (lambda z: 0), tasks <= 1
    count = min(THREADS, tasks)
    chunk = -(-tasks // count)
    return (lambda z: z // chunk), False


def _buffers(threads, per_thread, dt):
    buf, at = mkl._empty((threads, per_thread), dt)
    return buf, at


def available():
    return mkl.available()


def forward(q, k, v, mask, scale, causal):
    """(out, lse) of cpu_flash_attention: q (B, H, L, E), k and v (B, H, S, E) float
    arrays of one dtype, mask None or broadcastable to (B, H, L, S) in that dtype."""
    dt = q.dtype
    B, H, L, E = q.shape
    S = k.shape[2]
    out = np.empty((B, L, H, E), dt).transpose(0, 2, 1, 3)
    lse = np.empty((B, L, H), dt).transpose(0, 2, 1)
    if L == 0 or B * H == 0:
        return out, lse
    if S == 0:  # no key: PyTorch's kernel gives zeros (the sums 0 set to 1) and -inf
        out[...] = 0
        lse[...] = -np.inf
        return out, lse
    size = dt.itemsize
    qs, kvs = min(q_split(L), L), min(_KV_SPLIT, S)
    q_slices = -(-L // qs)
    P = {name: _Placed(a) for name, a in (("q", q), ("k", k), ("v", v))}
    per = qs * kvs + 2 * qs + qs * E
    thread, alone = _thread_of(B * H * q_slices)
    buf, buf_at = _buffers(max(THREADS, 1), per, dt)
    m4 = None if mask is None else np.broadcast_to(mask, (B, H, L, S))
    scale = dt.type(scale)
    for z in range(B * H * q_slices):
        i, rest = divmod(z, H * q_slices)
        j, blk = divmod(rest, q_slices)
        tid = thread(z)
        qk_at = buf_at + tid * per * size
        dst_at = qk_at + (qs * kvs + 2 * qs) * size
        m = blk * qs
        rows = min(qs, L - m)
        qmax = np.full(rows, -np.inf, dt)
        qsum = np.zeros(rows, dt)
        dst = buf[tid, qs * kvs + 2 * qs : qs * kvs + 2 * qs + rows * E].reshape(rows, E)
        keys = min(m + rows, S) if causal else S
        qP, kP, vP = P["q"], P["k"], P["v"]
        for n in range(0, keys, kvs):
            cols = min(kvs, S - n)
            _gemm(
                dt,
                alone,
                _TR,
                _NO,
                cols,
                rows,
                E,
                1.0,
                kP.at + (i * kP.strides[0] + j * kP.strides[1] + n * kP.strides[2]) * size,
                kP.strides[2],
                qP.at + (i * qP.strides[0] + j * qP.strides[1] + m * qP.strides[2]) * size,
                qP.strides[2],
                0.0,
                qk_at,
                cols,
            )
            qk = buf[tid, : rows * cols].reshape(rows, cols)
            if causal and keys - n <= kvs:
                for r in range(rows):
                    last = m + r - n
                    qk[r, max(last + 1, 0) :] = -np.inf
            if m4 is not None:
                qk[...] = _scale_mask(qk, m4[i, j, m : m + rows, n : n + cols], scale, dt)
                tmax = qk.max(axis=1)
            else:
                qk[...] = qk * scale
                tmax = qk.max(axis=1)
            tmax = np.where(qmax > tmax, qmax, tmax)
            dead = tmax == -np.inf
            if dead.any():
                qk[dead] = 0
            live = ~dead
            if live.any():
                e, tsum = _exp_reduce_sum(qk[live], tmax[live], dt)
                qk[live] = e
                old = qmax[live]
                with np.errstate(invalid="ignore"):
                    exp_tmp = _std_exp(old - tmax[live])
                qsum[live] = _fma(exp_tmp, qsum[live], tsum, dt)
                qmax[live] = tmax[live]
                if n > 0:
                    dst[live] = dst[live] * exp_tmp[:, None]
            _gemm(
                dt,
                alone,
                _NO,
                _NO,
                E,
                rows,
                cols,
                1.0,
                vP.at + (i * vP.strides[0] + j * vP.strides[1] + n * vP.strides[2]) * size,
                vP.strides[2],
                qk_at,
                cols,
                0.0 if n == 0 else 1.0,
                dst_at,
                E,
            )
        qmax = np.where(qmax == -np.inf, dt.type(0), qmax)
        qsum = np.where(qsum == 0, dt.type(1), qsum)
        recip = dt.type(1) / qsum
        out[i, j, m : m + rows] = dst * recip[:, None]
        lse[i, j, m : m + rows] = [qmax[r] + _std_log(qsum[r], dt) for r in range(rows)]
    return out, lse


def backward(g, q, k, v, out, lse, mask, scale, causal):
    """(grad_q, grad_k, grad_v) of cpu_flash_attention_backward."""
    dt = q.dtype
    B, H, L, E = q.shape
    S = k.shape[2]
    size = dt.itemsize
    P = {
        "q": _Placed(q),
        "k": _Placed(k),
        "v": _Placed(v),
        "g": _Placed(np.asarray(g, dt)),
        # (the gradients in the kernel's own layout, (B, L, H, E) seen as (B, H, L, E))
        "gq": _Placed(np.zeros((B, L, H, E), dt).transpose(0, 2, 1, 3)),
        "gk": _Placed(np.zeros((B, S, H, E), dt).transpose(0, 2, 1, 3)),
        "gv": _Placed(np.zeros((B, S, H, E), dt).transpose(0, 2, 1, 3)),
    }
    if L == 0 or S == 0 or B * H == 0:
        return tuple(np.zeros(a.shape, dt) for a in (q, k, v))
    qs, kvs = min(q_split(L), L), min(_KV_SPLIT, S)
    per = 2 * qs * kvs
    thread, alone = _thread_of(B * H)
    buf, buf_at = _buffers(max(THREADS, 1), per, dt)
    m4 = None if mask is None else np.broadcast_to(mask, (B, H, L, S))
    scale_f = float(dt.type(scale))
    exp = expf if dt == np.float32 else expd

    def at(name, i, j, r):
        p = P[name]
        return p.at + (i * p.strides[0] + j * p.strides[1] + r * p.strides[2]) * size

    def ld(name):
        return P[name].strides[2]

    for z in range(B * H):
        i, j = divmod(z, H)
        tid = thread(z)
        attn_at = buf_at + tid * per * size
        gattn_at = attn_at + qs * kvs * size
        for m in range(0, L, qs):
            rows = min(qs, L - m)
            dsum = _dot_rows(
                np.asarray(P["g"].view[i, j, m : m + rows]), out[i, j, m : m + rows], dt
            )
            keys = min(m + rows, S) if causal else S
            for n in range(0, keys, kvs):
                cols = min(kvs, S - n)
                _gemm(
                    dt, alone, _TR, _NO, cols, rows, E, scale_f,
                    at("k", i, j, n), ld("k"), at("q", i, j, m), ld("q"), 0.0, attn_at, cols,
                )  # fmt: skip
                attn = buf[tid, : rows * cols].reshape(rows, cols)
                if m4 is not None:
                    attn[...] = attn + m4[i, j, m : m + rows, n : n + cols]
                with np.errstate(over="ignore", invalid="ignore"):
                    attn[...] = exp(attn - lse[i, j, m : m + rows, None])
                if causal and keys - n <= kvs:
                    for r in range(rows):
                        attn[r, max(m + r - n + 1, 0) :] = 0
                _gemm(
                    dt, alone, _NO, _TR, E, cols, rows, 1.0,
                    at("g", i, j, m), ld("g"), attn_at, cols, 1.0, at("gv", i, j, n), ld("gv"),
                )  # fmt: skip
                _gemm(
                    dt, alone, _TR, _NO, cols, rows, E, 1.0,
                    at("v", i, j, n), ld("v"), at("g", i, j, m), ld("g"), 0.0, gattn_at, cols,
                )  # fmt: skip
                gattn = buf[tid, qs * kvs : qs * kvs + rows * cols].reshape(rows, cols)
                gattn[...] = attn * (gattn - dsum[:, None])
                _gemm(
                    dt, alone, _NO, _NO, E, rows, cols, scale_f,
                    at("k", i, j, n), ld("k"), gattn_at, cols, 1.0, at("gq", i, j, m), ld("gq"),
                )  # fmt: skip
                _gemm(
                    dt, alone, _NO, _TR, E, cols, rows, scale_f,
                    at("q", i, j, m), ld("q"), gattn_at, cols, 1.0, at("gk", i, j, n), ld("gk"),
                )  # fmt: skip
    return tuple(np.array(P[name].view) for name in ("gq", "gk", "gv"))
