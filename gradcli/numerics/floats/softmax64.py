"""float64 softmax and log_softmax over the last dim as PyTorch's vectorised CPU
kernels compute them (ATen/native/cpu/SoftMaxKernel.cpp, `_vec_softmax_lastdim`,
`_vec_log_softmax_lastdim` and their backward): SLEEF's exp and log on every value
(`Vectorized<double>`, the last partial vector included), and sums as
`vec::reduce_all` adds them: 4-lane vectors one after the other, the values after
the last whole vector into the first lanes, then the 4 lanes in order (double has
no shuffle tree, unlike float32's in sleef_explog.py).  Checked bit for bit against
torch 2.13 (tests/golden/exact_numerics.json)."""

from __future__ import annotations

import numpy as np

from .fma import fma
from .rows import by_columns, compiled, lanes, row_max
from .sleef_u10 import sleef_log
from .torch_exp import expd

LANES = 4


def row_sums(a):
    """reduce_all(+) of each row of a 2-D float64 array."""
    rows, d = a.shape
    if d < LANES:  # a partial vector: its lanes from the left
        acc = a[:, 0] + a[:, 1] if d > 1 else a[:, 0].copy()
        for i in range(2, d):
            acc = acc + a[:, i]
        return acc
    if d == LANES:  # one vector: its lanes in order (no copy of it first)
        return ((a[:, 0] + a[:, 1]) + a[:, 2]) + a[:, 3]
    if by_columns(a):
        a0, a1, a2, a3 = lanes(a, LANES)
        return ((a0 + a1) + a2) + a3
    nv = d // LANES
    if nv == 1:
        acc = a[:, :LANES].copy()
    elif nv <= 32 and rows >= 64:
        # the vectors one after the other as whole columns of lanes: the same additions
        # in the same order as the reduce below, which on short rows pays its inner loop
        # once per row (3x the time on 2,000 rows of 10)
        acc = a[:, :LANES] + a[:, LANES : 2 * LANES]
        for v in range(2, nv):
            acc += a[:, v * LANES : (v + 1) * LANES]
    else:
        acc = np.add.reduce(a[:, : nv * LANES].reshape(rows, nv, LANES), axis=1)
    r = d - nv * LANES
    if r:
        acc[:, :r] = acc[:, :r] + a[:, nv * LANES :]
    return ((acc[:, 0] + acc[:, 1]) + acc[:, 2]) + acc[:, 3]


def _rows(x):
    return x.reshape(-1, x.shape[-1])


def log_softmax_lastdim(x):
    """(x - max) - log(sum(exp(x - max)))."""
    got = compiled("log_softmax", x)  # (one compiled pass, the same bits)
    if got is not None:
        return got
    rows = _rows(x)
    s = rows - row_max(rows)
    return (s - sleef_log(row_sums(expd(s)))[:, None]).reshape(x.shape)


def log_softmax_backward_lastdim(g, out):
    """g - exp(out) * sum(g), the product and difference one fused multiply-add."""
    got = compiled("log_softmax_bwd", g, out)  # (one compiled pass, the same bits)
    if got is not None:
        return got
    g2, o2 = _rows(np.asarray(g, np.float64)), _rows(out)
    e = expd(o2)
    s = row_sums(np.ascontiguousarray(g2))
    # each row's sum repeated along it: operands of one shape, which the compiled fused
    # step takes without broadcasting them itself (a copy as large, made slower)
    s = np.repeat(s, o2.shape[1]).reshape(o2.shape)
    return fma(-e, s, np.ascontiguousarray(g2)).reshape(out.shape)


def softmax_lastdim(x):
    """exp(x - max) times 1 / its sum."""
    got = compiled("softmax", x)  # (one compiled pass, the same bits)
    if got is not None:
        return got
    rows = _rows(x)
    e = expd(rows - row_max(rows))
    return (e * (1.0 / row_sums(e))[:, None]).reshape(x.shape)


def softmax_backward_lastdim(g, out):
    """out * (g - sum(g * out))."""
    got = compiled("softmax_bwd", g, out)  # (one compiled pass, the same bits)
    if got is not None:
        return got
    g2, o2 = _rows(np.asarray(g, np.float64)), _rows(out)
    return (o2 * (g2 - row_sums(np.ascontiguousarray(g2 * o2))[:, None])).reshape(out.shape)
