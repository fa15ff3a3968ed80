"""Layer normalisation as PyTorch's CPU kernel computes it, for last-bit agreement.

Each row of N values (the normalised dims, flattened) is reduced by ATen's
`RowwiseMoments`: the row cut into 8-float (4-double) vectors, the vectors taken 16 at
a time ("chunks"), each chunk's lanes run through Welford's update (`delta = x - m1;
m1 += delta * (1 / (j + 1)); m2 += delta * (x - m1)`, both updates one fused
multiply-add, 1 / (j + 1) rounded in the dtype); the chunks' moments merged in a
binary cascade (a stack of ceil(log2(chunks)) levels, at least one: after chunk i the
levels are merged upwards while i + 1 is even there, and the levels left at the end into
level 0), each merge `c = n_add / n; delta = m1_add - m1; m1 + c * delta` (rounded twice)
and `(m2 + m2_add) + (delta * c) * (delta * n_old)` (the last step fused).  The values
after the last whole vector go through the scalar update (`m1 += delta / n`, `m2 +=
delta * (x - m1)`, nothing fused), and the lanes are merged into that one after the other
(`m1 += c * delta` fused, `m2 + (m2_add + delta * delta * c * n_old)` with its last
product fused).  var = m2 / N and rstd = 1 / sqrt(var + eps) in the dtype.

The output is `(x - mean) * rstd * weight + bias`: with both, the last step one fused
multiply-add; with a bias only, `(x - mean) * rstd + bias` fused; otherwise rounded step
by step.  The backward, per row: ds = sum(dy * x * weight) and db = sum(dy * weight) as
`vec::map2_reduce_all`/`map3_reduce_all` reduce them (whole vectors' products rounded
and added one after another, the partial vector's last product fused into the first
lanes, then the lanes as a tree for 8 floats and in order for 4 doubles; fewer values
than a vector: added from the left), `b = (db * mean - ds) * rstd^3 / N` and `c = -b *
mean - db * rstd / N` (the first steps fused), dx = `b * x + rstd * dy * weight` fused,
then `+ c`; the weight's gradient `dy * (rstd * x - rstd * mean) + buffer` (both fused)
and the bias's `dy + buffer`, each thread's rows (as `at::parallel_for` cuts them) into
a buffer in the dtype, the buffers added in order.  Which steps are fused was measured
against torch 2.13's AVX2 kernels (tests/golden/layer_norm.json)."""

from __future__ import annotations

import functools

import numpy as np

from .. import native, native_layers, native_sum_calls
from .fma import fma, fma32
from ..parallel import chunks

# PyTorch's AVX2 vector width, in elements of each dtype
_WIDTH = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}
_CHUNK = 16


def _fma(a, b, c):
    """a * b + c rounded once, in c's dtype (float32 or float64)."""
    c = np.asarray(c)
    if c.dtype == np.float32:
        return fma32(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float32), c)
    return fma(np.asarray(a, dtype=np.float64), b, c)


def _merge(m0_add, m1_add, m2_add, m0, m1, m2, dt):
    """The scalar AddMoments: (n, m1, m2) of two parts (counts as ints), with the fused
    steps of the compiled scalar code."""
    n = m0 + m0_add
    c = dt.type(0) if n == 0 else dt.type(dt.type(m0_add) / dt.type(n))
    delta = m1_add - m1
    return n, _fma(c, delta, m1), m2 + _fma((delta * delta) * c, dt.type(m0), m2_add)


def _merge_vec(m0_add, m1_add, m2_add, m0, m1, m2, dt):
    """AddMomentsVec, as the compiled vector code computes it: m1 + c * delta rounded
    twice, m2 + m2_add first, then (delta * c) * (delta * n_old) added in one fused step."""
    n = m0 + m0_add
    c = dt.type(0) if n == 0 else dt.type(dt.type(m0_add) / dt.type(n))
    delta = m1_add - m1
    return n, m1 + c * delta, _fma(delta * c, delta * dt.type(m0), m2 + m2_add)


def moments(x):
    """(mean, var) of each row of the C-ordered (M, N) float32/float64 array x."""
    dt = x.dtype
    rows, N = x.shape
    W = _WIDTH[np.dtype(dt)]
    n = N // W
    m = -(-n // _CHUNK)
    depth = 1 if m <= 2 else int(m - 1).bit_length()  # utils::CeilLog2
    zero = np.zeros((rows, W), dt)
    stack = [[0, zero, zero] for _ in range(depth)]
    c_vecs = _steps(dt)
    got = _compiled_chunks(x, n, W, c_vecs, dt) if n else None
    if got is not None:
        m1, m2 = got
    elif n:
        # all chunks side by side: (rows, chunks, W) per step j
        full = x[:, : n * W].reshape(rows, n, W)
        pad = m * _CHUNK - n
        m1 = np.zeros((rows, m, W), dt)
        m2 = np.zeros((rows, m, W), dt)
        blocks = full
        if pad:
            blocks = np.concatenate([full, np.zeros((rows, pad, W), dt)], axis=1)
        blocks = blocks.reshape(rows, m, _CHUNK, W)
        last = n - (m - 1) * _CHUNK  # vectors in the last chunk
        # (one chunk: the steps after its last vector would be undone, so none are made)
        for j in range(_CHUNK if m > 1 else last):
            xv = blocks[:, :, j]
            delta = xv - m1
            n1 = _fma(delta, c_vecs[j], m1)
            n2 = _fma(delta, xv - n1, m2)
            if j >= last:  # the last chunk stops early
                n1[:, -1], n2[:, -1] = m1[:, -1], m2[:, -1]
            m1, m2 = n1, n2
    if n:
        for i in range(m):
            cnt = min(_CHUNK, n - i * _CHUNK)
            stack[0] = list(_merge_vec(cnt, m1[:, i], m2[:, i], *stack[0], dt))
            mask = i + 1
            j = 1
            while j < depth and (mask & 1) == 0:
                stack[j] = list(_merge_vec(*stack[j - 1], *stack[j], dt))
                stack[j - 1] = [0, zero, zero]
                mask >>= 1
                j += 1
        for i in range(1, depth):
            stack[0] = list(_merge_vec(*stack[i], *stack[0], dt))
    lane1, lane2 = stack[0][1], stack[0][2]
    cnt = 0
    s1 = np.zeros(rows, dt)
    s2 = np.zeros(rows, dt)
    for i in range(n * W, N):
        v = x[:, i]
        delta = v - s1
        cnt += 1
        s1 = s1 + delta / dt.type(cnt)
        s2 = s2 + delta * (v - s1)
    got = _compiled_lanes(n, lane1, lane2, cnt, s1, s2, dt)
    if got is not None:
        s1, s2 = got
    else:
        for lane in range(W):
            cnt, s1, s2 = _merge(n, lane1[:, lane], lane2[:, lane], cnt, s1, s2, dt)
    return s1, (s2 / dt.type(N)).astype(dt)


@functools.cache
def _steps(dt):
    """The Welford steps' factors 1 / (j + 1) of a chunk's vectors, rounded in dt."""
    return [dt.type(dt.type(1) / dt.type(j + 1)) for j in range(_CHUNK)]


@functools.lru_cache(maxsize=256)
def _lane_factors(n, cnt, W, dt):
    """The lanes' merge factors and old counts (`_compiled_lanes`), as arrays of dt."""
    olds = [cnt + lane * n for lane in range(W)]
    c = [0 if m0 + n == 0 else dt.type(dt.type(n) / dt.type(m0 + n)) for m0 in olds]
    return np.array(c, dt), np.array(olds, dt)


def _compiled_chunks(x, n, W, c_vecs, dt):
    """The chunks' Welford moments (m1, m2), each (rows, chunks, W), in one compiled call
    (`native_layers.welford`, the same steps), or None (the loops not loaded, a step the
    emulation's)."""
    if native.loaded() is None or x.dtype != dt or not x.flags.c_contiguous:
        return None
    return native_layers.welford(x, n, W, np.array(c_vecs, dt))


def _compiled_lanes(n, lane1, lane2, cnt, s1, s2, dt):
    """The lanes' `_merge` into (s1, s2) in one compiled call (`native_layers.
    lane_merge`, the same steps), or None (the loops not loaded, a step the emulation's)."""
    if native.loaded() is None or s1.dtype != dt or s2.dtype != dt:
        return None
    c, olds = _lane_factors(n, cnt, lane1.shape[1], dt)
    lane1, lane2 = np.ascontiguousarray(lane1, dt), np.ascontiguousarray(lane2, dt)
    return native_layers.lane_merge(lane1, lane2, c, olds, s1, s2)


def forward(x, mean, rstd, gamma, beta):
    """The normalised (M, N) rows: (x - mean) * rstd * gamma + beta as the kernel's
    loops round it (its vector loop with both gamma and beta, its scalar loop without)."""
    d = x - mean[:, None]
    r = rstd[:, None]
    if gamma is None:
        return d * r if beta is None else _fma(d, r, np.broadcast_to(beta, x.shape))
    if beta is None:
        return (d * r) * gamma
    return _fma(d * r, gamma, np.broadcast_to(beta, x.shape))


def _lanes(acc):
    """The lanes of (R, W) vector accumulators added as `vec_reduce_all` adds them: a
    tree of shuffles for 8 floats, in order for 4 doubles."""
    if acc.shape[1] == 8:
        v = acc[:, :4] + acc[:, 4:]
        v = v[:, :2] + v[:, 2:]
        return v[:, 0] + v[:, 1]
    return ((acc[:, 0] + acc[:, 1]) + acc[:, 2]) + acc[:, 3]


def _reduce(mapped, tail, W):
    """`vec::map*_reduce_all` of each row of (R, N) `mapped` (the mapped values, as the
    whole vectors round them); `tail(cols, acc)` the partial vector's values added into
    the first lanes of acc as its compiled step adds them."""
    rows, N = mapped.shape
    if N < W:  # one partial vector: its values added from the left
        acc = mapped[:, 0].copy()
        for i in range(1, N):
            acc = acc + mapped[:, i]
        return acc
    whole = N // W * W
    blocks = mapped[:, :whole].reshape(rows, whole // W, W)
    acc = blocks[:, 0].copy()
    for j in range(1, blocks.shape[1]):
        acc = acc + blocks[:, j]
    if whole < N:
        r = N - whole
        acc[:, :r] = tail(slice(whole, N), acc[:, :r])
    return _lanes(acc)


def backward(dy, x, mean, rstd, gamma, need=(True, True, True)):
    """(dx, dgamma, dbeta) of the C-ordered (M, N) rows (None for those not in `need`)."""
    dt = x.dtype
    M, N = x.shape
    W = _WIDTH[np.dtype(dt)]
    dx = dgamma = dbeta = None
    if need[1] or need[2]:
        # each thread's rows into a buffer of N values, the buffers added in order
        a = rstd[:, None]
        h = _fma(a, x, np.broadcast_to(-a * mean[:, None], x.shape))
        sg = np.zeros(N, dt)
        sb = np.zeros(N, dt)
        for lo, hi in _thread_rows(M):
            bg = _chain(dy[lo:hi], h[lo:hi], dt)
            rows = dy[lo:hi]
            bb = np.cumsum(rows, axis=0)[-1] if hi > lo else np.zeros(N, dt)  # in order
            sg = sg + bg
            sb = sb + bb
        dgamma = sg if need[1] else None
        dbeta = sb if need[2] else None
    if need[0]:
        if gamma is None:
            prod = dy * x
            ds = _reduce(prod, lambda sl, acc: _fma(dy[:, sl], x[:, sl], acc), W)
            db = _reduce(dy, lambda sl, acc: acc + dy[:, sl], W)
        else:
            g = np.broadcast_to(gamma, x.shape)
            p1 = dy * x
            ds = _reduce(p1 * g, lambda sl, acc: _fma(p1[:, sl], g[:, sl], acc), W)
            db = _reduce(dy * g, lambda sl, acc: _fma(dy[:, sl], g[:, sl], acc), W)
        scale = dt.type(dt.type(1) / dt.type(N))
        bc = _fma(db, mean, -ds) * rstd * rstd * rstd * scale
        cc = _fma(-bc, mean, -((db * rstd) * scale))
        first = rstd[:, None] * dy if gamma is None else (rstd[:, None] * dy) * gamma
        dx = _fma(bc[:, None], x, first) + cc[:, None]
    return dx, dgamma, dbeta


def _chain(a, b, dt):
    """acc = fma(a[i], b[i], acc) from +0 for the rows i of (R, N) a and b in turn: one
    compiled call where the loops are loaded (`native_sum_calls.fma_chain`, the same
    steps), else a fused step per row."""
    acc = np.zeros(a.shape[1], dt)
    if (
        len(a)
        and a.dtype == dt
        and b.dtype == dt
        and a.flags.c_contiguous
        and b.flags.c_contiguous
        and native_sum_calls.fma_chain(a, b, acc)
    ):
        return acc
    acc = np.zeros(a.shape[1], dt)
    for i in range(len(a)):
        acc = _fma(a[i], b[i], acc)
    return acc


def _thread_rows(M):
    """The rows each thread of `at::parallel_for(0, M, 1)` takes."""
    return chunks(M, grain=1)
