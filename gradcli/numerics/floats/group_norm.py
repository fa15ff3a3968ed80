"""Group normalisation as PyTorch's CPU kernel computes it for a C-ordered (N, C, *)
input, for last-bit agreement.

Each (sample, group) row of D * HxW values (D = C / groups channels of HxW values)
takes layer_norm's `RowwiseMoments` (numerics/floats/layer_norm.py); rstd = 1 /
sqrt(max(var, 0) + eps) in float64 (eps a double), rounded to the dtype.  Without
weight and bias the output is (x - mean) * rstd; otherwise per channel scale = rstd *
weight, shift = -scale * mean + bias and y = scale * x + shift (both fused).

The backward: per (sample, channel) row of HxW values, ds = sum(dy * x) and db = sum(dy)
as `vec::map2_reduce_all`/`reduce_all` reduce a row (layer_norm's `_reduce`; the
partial vector's product fused into the first lanes for float64, rounded for float32);
per (sample, group), the channels' ds * weight and db * weight summed in whole vectors
(one fused step each) whose lanes are added in order from 0, then the channels after
them (fused); c2 = (db * mean - ds) * rstd * rstd * rstd / (D * HxW) (the first step
fused), c3 = -(db * rstd) / (D * HxW) - c2 * mean (fused) and dx = (rstd * weight) * dy +
c2 * x (fused), then + c3; the weight's gradient the samples' (ds - db * mean) * rstd
added in order (both steps fused), the bias's their db.  Which steps are fused was
measured against torch 2.13's AVX2 kernels (tests/golden/group_norm.json)."""

from __future__ import annotations

import numpy as np

from .layer_norm import _WIDTH, _fma, _reduce, moments


def forward(x, groups, eps, gamma, beta):
    """(y, mean, rstd) of the C-ordered (N, C, HxW) array x; mean and rstd (N, groups)."""
    dt = x.dtype
    n, c, hw = x.shape
    d = c // groups
    mean, var = moments(x.reshape(n * groups, d * hw))
    var64 = np.maximum(var, dt.type(0)).astype(np.float64)
    rstd = (1.0 / np.sqrt(var64 + float(eps))).astype(dt)
    mg = np.repeat(mean.reshape(n, groups), d, axis=1)[:, :, None]  # (N, C, 1)
    rg = np.repeat(rstd.reshape(n, groups), d, axis=1)[:, :, None]
    if gamma is None and beta is None:
        y = (x - mg) * rg
    else:
        g = np.ones(c, dt) if gamma is None else gamma
        b = np.zeros(c, dt) if beta is None else beta
        scale = rg * g[None, :, None]
        shift = _fma(-scale, mg, np.broadcast_to(b[None, :, None], scale.shape))
        y = _fma(scale, x, np.broadcast_to(shift, x.shape))
    return y, mean.reshape(n, groups), rstd.reshape(n, groups)


def _channel_sums(dy, x, W):
    """(ds, db) of each (sample, channel) row of the (N, C, HxW) arrays."""
    n, c, hw = x.shape
    rdy, rx = dy.reshape(n * c, hw), x.reshape(n * c, hw)
    prod = rdy * rx
    if x.dtype == np.float64:
        ds = _reduce(prod, lambda sl, acc: _fma(rdy[:, sl], rx[:, sl], acc), W)
    else:
        ds = _reduce(prod, lambda sl, acc: acc + prod[:, sl], W)
    db = _reduce(rdy, lambda sl, acc: acc + rdy[:, sl], W)
    return ds.reshape(n, c), db.reshape(n, c)


def _group_sums(m, gw, groups, W):
    """Per (sample, group): the sum over its channels of m * weight (m: (N, C))."""
    n, c = m.shape
    d = c // groups
    a = m.reshape(n, groups, d)
    g = np.broadcast_to(gw.reshape(groups, d)[None], a.shape)
    whole = d // W * W
    lanes = np.zeros((n, groups, W), m.dtype)
    for j in range(0, whole, W):
        lanes = _fma(a[:, :, j : j + W], g[:, :, j : j + W], lanes)
    out = np.zeros((n, groups), m.dtype)
    for k in range(W):
        out = out + lanes[:, :, k]
    for j in range(whole, d):
        out = _fma(a[:, :, j], g[:, :, j], out)
    return out


def backward(dy, x, mean, rstd, groups, gamma, need=(True, True, True)):
    """(dx, dgamma, dbeta) of the C-ordered (N, C, HxW) arrays (None where not needed)."""
    dt = x.dtype
    n, c, hw = x.shape
    d = c // groups
    W = _WIDTH[np.dtype(dt)]
    ds, db = _channel_sums(dy, x, W)
    dx = dgamma = dbeta = None
    if need[0]:
        g = np.ones(c, dt) if gamma is None else gamma
        sv = _group_sums(ds, g, groups, W)
        bv = _group_sums(db, g, groups, W)
        s = dt.type(dt.type(1) / dt.type(d * hw))
        c2 = _fma(bv, mean, -sv) * rstd * rstd * rstd * s
        c3 = _fma(-bv * rstd, s, -c2 * mean)
        c1 = (np.repeat(rstd, d, axis=1) * g[None, :])[:, :, None]
        c2c = np.repeat(c2, d, axis=1)[:, :, None]
        c3c = np.repeat(c3, d, axis=1)[:, :, None]
        dx = _fma(c1, dy, c2c * x) + c3c
    if need[1]:
        mc, rc = np.repeat(mean, d, axis=1), np.repeat(rstd, d, axis=1)
        acc = np.zeros(c, dt)
        for i in range(n):
            acc = _fma(_fma(-db[i], mc[i], ds[i]), rc[i], acc)
        dgamma = acc
    if need[2]:
        acc = np.zeros(c, dt)
        for i in range(n):
            acc = acc + db[i]
        dbeta = acc
    return dx, dgamma, dbeta
