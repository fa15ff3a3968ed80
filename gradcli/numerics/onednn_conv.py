"""PyTorch's float32 convolution on oneDNN's AVX2 direct kernels (jit:avx2), in NumPy and
in numerics/native.py's compiled chains.

PyTorch sends a float32 conv2d to oneDNN (the Mkldnn backend) unless it is one small
sample (`uses_onednn`); on an AVX2 machine oneDNN runs a convolution without groups, of
a kernel larger than 1 x 1 and no padding as wide as the kernel, with its direct
`jit:avx2` kernels, each pass under conditions of its own (`plan`; else its gemm
convolution or its 1 x 1 kernels).  Their order of summation, found by comparing
candidate orders with torch's results (torch run with ONEDNN_MAX_CPU_ISA=AVX2) on random
shapes, strides, paddings and dilations, and read in oneDNN's kernels:

* forward (reproduced): each output starts as its bias (0 without one) and takes one
  fused multiply-add per tap, the input channels in blocks of 8: for each block, for
  each kernel row, for each kernel column, for each channel of the block; a tap that
  falls in the padding is skipped;
* weight and bias gradients (reproduced, without dilation): oneDNN's reduce balancer
  splits the jobs (blocks of 8 outputs by 8 inputs, or by the 3 channels of a 3-channel
  input) and the images between the threads; each thread's sum of a weight is a chain
  of fused multiply-adds over its images, output rows and output columns in turn from
  zero (a tap in the padding skipped), of a bias its values added in the same order
  (the bias's own balancer: jobs of 8 outputs), and the first thread of a group then
  adds the others' sums to its own.  The chains are as long as a thread's outputs and
  run one element at a time: native.py's compiled loop runs them with the hardware's
  FMA (`weight_grad`), NumPy one position at a time for every weight at once;
* input gradient (reproduced for stride 1 without dilation): the forward's chain over
  the output channels.  A strided one (brgconv_strided kernels) is not reproduced;
* a 1 x 1 kernel without padding (jit_avx2_1x1): its forward is the same chain from the
  bias over the input channels in order, in blocks of ONE_BY_ONE channels, each later
  block a chain of its own from zero added to the output in turn (reproduced for stride
  1 or at most ONE_BY_ONE channels); its gradients are not reproduced.

A fused step in NumPy is exact float32 arithmetic (the product exact in float64, one
rounding; `floats.fma.fma32` where the sum lands on a float32 midpoint).  The forward
costs one fused step per tap over the whole output, so a large convolution keeps
NumPy's product (`EXACT_BUDGET`); so does a weight gradient whose NumPy chains would
exceed it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import native, per_shape
from .floats.fma import fma32
from .parallel import THREADS

#: at most this many fused steps (taps x outputs) are emulated per call; a larger
#: convolution is left to NumPy's product, within an ulp or so of PyTorch's
EXACT_BUDGET = 1 << 24
BLOCK = 8  # oneDNN's channel block on AVX2 (8 floats)
ONE_BY_ONE = 128  # the 1 x 1 kernel's input channels per chain (its reduce block)
MAX_BUFFER = 1 << 21  # the reduce balancer's buffer bound (values), as oneDNN sets it
#: CPU seconds NumPy's chains take per position and per fused step, and its forward per
#: fused step (native.ready_for)
_STEP_COST, _VALUE_COST, _TAP_COST = 8e-6, 1.5e-9, 1.2e-8
_ROWS, _LANES = native.CHAIN_ROWS, native.LANES


#: the tables of a shape kept (a loop runs the same layer on the same shapes each step)
_per_shape = per_shape.memo()


def uses_onednn(n, c, h, w, kh, kw, groups, strided, dilated, threads=THREADS):
    """Whether PyTorch sends this float32 convolution to oneDNN (its use_mkldnn)."""
    first = strided or dilated or n >= 16 or kh != 1 or kw != 1 or threads > 1
    second = groups > 1 or (kh > 3 and kw > 3) or n > 1 or n * c * h * w > 20480
    return first and second


class Direct(NamedTuple):
    """A float32 convolution PyTorch sends to oneDNN: its geometry, and which of its
    passes oneDNN's direct jit:avx2 kernels (reproduced here) compute."""

    stride: tuple
    padding: tuple
    dilation: tuple
    forward: bool
    weights: bool  # the weight's gradient, and the bias's with it
    data: bool  # the input's gradient


def plan(h, w, kh, kw, groups, stride, padding, dilation, oshape):
    """The Direct of a float32 convolution PyTorch sends to oneDNN (`uses_onednn`).

    Its jit:avx2 kernels take a convolution without groups, of a kernel larger than
    1 x 1 (1 x 1 ones have kernels of their own), and no padding as wide as the (dilated)
    kernel on any side (oneDNN then takes its gemm convolution); the forward's also needs
    its unrolled columns to cover the padding (`_unrolls`), the weight's no dilation, a
    kernel narrower than 14 columns and no taller than the input; the input's
    gradient is reproduced for stride 1 without dilation."""
    if groups == 1 and kh == kw == 1 and padding == (0, 0):
        # jit_avx2_1x1: its forward is reproduced (`forward`), its gradients are not
        return Direct(stride, padding, dilation, True, False, False)
    ok = groups == 1 and not (kh == 1 and kw == 1)
    for size, k, s, p, d, out in zip((h, w), (kh, kw), stride, padding, dilation, oshape):
        ext = (k - 1) * d + 1
        if ext <= p or ext <= (out - 1) * s + ext - size - p:
            ok = False
    dilated = dilation != (1, 1)
    return Direct(
        stride,
        padding,
        dilation,
        ok and _unrolls(w, kw, stride, padding, dilation[1], oshape[1]),
        ok and not dilated and kw < 14 and kh <= h,
        ok and not dilated and stride == (1, 1),
    )


def _unrolls(w, kw, stride, padding, dw, ow):
    """The forward kernel's own conditions on its unrolling of the output columns (3 at a
    time, fewer for a narrower output; more where the right padding needs them): the
    left padding within one unrolled block, a kernel wider than 7 columns only without
    top and left padding or with stride 1, and the right padding within the block."""
    sh, sw = stride
    pt, pl = padding
    ext = (kw - 1) * dw + 1
    ur = min(3, ow)
    tail = ow % ur
    if pl > ur or kw > 7 and not (pt == pl == 0 or sh == sw == 1):
        return False
    right = max(0, (ow - tail - 1) * sw + ext - w - pl)  # (the right padding's columns)
    if right > ur * sw and ow // ur > 1:
        ur = min(right // sw + tail, min(ow, 7))
        tail = ow % ur
        right = max(0, (ow - tail - 1) * sw + ext - w - pl)
        return ur >= max(pl, right)
    return True


def _taps(size, k, stride, pad, dil, out):
    """For each kernel offset along one axis: (first output, last output + 1, first
    input) of the outputs whose tap lies inside the input."""
    taps = []
    for i in range(k):
        off = i * dil - pad
        lo = (stride - 1 - off) // stride if off < 0 else 0  # (the first r with r*s + off >= 0)
        hi = min(out, (size - 1 - off) // stride + 1) if size - 1 - off >= 0 else 0
        taps.append((lo, max(lo, hi), lo * stride + off))
    return taps


def forward(x, w, b, stride, padding, dilation, oshape):
    """The forward of jit:avx2 (x (N, C, H, W), w (O, C, kh, kw) float32): in
    numerics/native.py's compiled chains when they pay, else in NumPy, or None when
    NumPy's steps would exceed the budget.  A 1 x 1 kernel's (jit_avx2_1x1) is the same
    chain over the first ONE_BY_ONE input channels, from the bias; each later block of
    ONE_BY_ONE channels is a chain of its own from zero, added to the output in turn (for
    stride 1; a strided one of more channels is left to NumPy: None)."""
    N, C, H, W = x.shape
    O, _, kh, kw = w.shape
    if kh == kw == 1 and C > ONE_BY_ONE:
        if stride != (1, 1):  # (its chains depend on the input's shape: not reproduced)
            return None
        out = None
        for c0 in range(0, C, ONE_BY_ONE):
            c1 = min(C, c0 + ONE_BY_ONE)
            part = forward(
                x[:, c0:c1],
                w[:, c0:c1],
                b if out is None else None,
                stride,
                padding,
                dilation,
                oshape,
            )
            if part is None:
                return None
            if out is None:
                out = part
            else:
                with np.errstate(over="ignore", invalid="ignore"):
                    out = out + part
        return out
    oh, ow = oshape
    steps = C * kh * kw * N * O * oh * ow
    lib = native.ready_for(steps * _TAP_COST, steps)
    if lib is not None and (not any(padding) or _plain(w, b)):
        return _forward_native(lib, x, w, b, stride, padding, dilation, oshape)
    if steps > EXACT_BUDGET:
        return None
    t0 = native.start(steps)
    try:
        acc = np.empty((N, O, oh, ow), np.float32)
        acc[...] = 0 if b is None else b.reshape(1, O, 1, 1)
        rows = _taps(H, kh, stride[0], padding[0], dilation[0], oh)
        cols = _taps(W, kw, stride[1], padding[1], dilation[1], ow)
        x64 = x.astype(np.float64)[:, :, None]  # (N, C, 1, H, W)
        w64 = w.astype(np.float64).transpose(1, 2, 3, 0)[..., None, None]  # (C, kh, kw, O, 1, 1)
        sh, sw = stride
        with np.errstate(over="ignore", invalid="ignore"):  # (inf and nan as the kernel's)
            _taps_loop(acc, x64, w64, C, rows, cols, sh, sw)
    finally:
        native.spent(t0)
    return acc


def _plain(w, b):
    """Whether a tap in the padding may be taken as a product of 0 (the compiled chains
    read zeros there) where the kernel skips it: every weight finite (0 * inf is NaN) and
    no bias -0 (to which +0 adds +0)."""
    if not np.isfinite(w).all():
        return False
    return b is None or not (np.signbit(b) & (b == 0)).any()


def _padded(x, ph, pw):
    """x with ph rows and pw columns of zeros on each side (x itself, contiguous, without)."""
    if not (ph or pw):
        return np.ascontiguousarray(x, np.float32)
    N, C, H, W = x.shape
    xp = np.zeros((N, C, H + 2 * ph, W + 2 * pw), np.float32)
    xp[:, :, ph : ph + H, pw : pw + W] = x
    return xp


def _forward_native(lib, x, w, b, stride, padding, dilation, oshape):
    """The forward's chains in the compiled loop: a row per output position (where its
    window starts in the padded input), a lane per output channel, each chain one block
    of 8 input channels' taps (kernel row, column, channel) after another."""
    N, C = x.shape[:2]
    O, _, kh, kw = w.shape
    oh, ow = oshape
    (sh, sw), (dh, dw) = stride, dilation
    xp = _padded(x, *padding)
    hp, wp = xp.shape[2:]
    P = N * oh * ow
    R, V = -(-P // _ROWS) * _ROWS, -(-O // _LANES) * _LANES
    (offsets,) = _window_offsets(N, C * hp * wp, oh, ow, sh * wp, sw, R)
    acc = np.zeros((R, V), np.float32)
    if b is not None:
        acc[:, :O] = b
    taps = np.zeros((kh, kw, C, V), np.float32)  # the weights, tap by tap, the outputs as lanes
    taps[..., :O] = w.transpose(2, 3, 1, 0)
    for c0 in range(0, C, BLOCK):
        cb = min(BLOCK, C - c0)
        lanes = np.ascontiguousarray(taps[:, :, c0 : c0 + cb]).reshape(-1, V)
        chain = (dh * wp, dw, hp * wp)  # (a kernel row, a kernel column, a channel)
        native.chain32(lib, xp[:, c0:], offsets, chain, (kh, kw, cb), lanes, acc)
    return np.ascontiguousarray(acc[:P, :O].reshape(N, oh * ow, O).transpose(0, 2, 1)).reshape(
        N, O, oh, ow
    )


@_per_shape
def _window_offsets(N, image, oh, ow, row, col, R):
    """(the offset of each output position's window in the padded input, R values: the
    positions' N * oh * ow, then zeros): `image`, `row` and `col` the steps between
    images, output rows and output columns."""
    offsets = np.zeros(R, np.int64)
    at = np.arange(N)[:, None] * image + np.arange(oh) * row  # (N, oh)
    offsets[: N * oh * ow] = (at[:, :, None] + np.arange(ow) * col).reshape(-1)
    return (offsets,)


@_per_shape
def _tap_offsets(C, kh, kw, hp, wp, R):
    """(the offset of each weight's tap in an image of the padded input, R values: the
    weights' C * kh * kw, then zeros)."""
    offsets = np.zeros(R, np.int64)
    tap = np.arange(kh)[:, None] * wp + np.arange(kw)  # (a tap's place in the input)
    offsets[: C * kh * kw] = (np.arange(C)[:, None] * (hp * wp) + tap.reshape(-1)).reshape(-1)
    return (offsets,)


@_per_shape
def _weight_teams(N, C, kh, kw, V):
    """(the threads' (first image, end image) for the weight gradient's chains, as the
    reduce balancer splits them, the bias's)."""
    icb = C if C == 3 else BLOCK
    _, per = balance(THREADS, kh * kw * icb * BLOCK, -(-C // icb) * (V // BLOCK), N)
    teams = tuple(balance211(N, per, t) for t in range(per))
    return teams, tuple(_teams(V // BLOCK, BLOCK, N))


def _taps_loop(acc, x64, w64, C, rows, cols, sh, sw):
    for c0 in range(0, C, BLOCK):
        for i, (r0, r1, ir) in enumerate(rows):
            if r0 == r1:
                continue
            for j, (q0, q1, iq) in enumerate(cols):
                if q0 == q1:
                    continue
                part = acc[:, :, r0:r1, q0:q1]
                for c in range(c0, min(C, c0 + BLOCK)):
                    v = x64[:, c, :, ir : ir + sh * (r1 - r0 - 1) + 1 : sh]
                    _step(part, v[..., iq : iq + sw * (q1 - q0 - 1) + 1 : sw], w64[c, i, j])


_LOW29, _HALF29 = np.uint64(0x1FFFFFFF), np.uint64(0x10000000)


def _step(acc, v, w):
    """acc = fma(v, w, acc) in float32, in place (v and w float64): the product is
    exact in float64 and the sum rounded once to float64, which rounds to float32 as
    the fused step does except where it lands on a float32 midpoint (then fma32)."""
    s = v * w
    s += acc
    mid = (s.view(np.uint64) & _LOW29) == _HALF29
    if np.count_nonzero(mid):
        acc[...] = fma32(np.broadcast_to(v, s.shape), w, acc)
        return
    acc[...] = s


def input_grad(g, w, xshape, padding):
    """jit:avx2's input gradient of a convolution of stride 1 and dilation 1 (g (N, O,
    oh, ow), w (O, C, kh, kw) float32): each input value from zero, one fused
    multiply-add per tap, the output channels in blocks of 8 by kernel row, kernel
    column, channel (the forward's order with the roles of input and output swapped);
    in numerics/native.py's compiled chains when they pay, else in NumPy, or None when
    NumPy's steps would exceed the budget."""
    N, O, oh, ow = g.shape
    _, C, kh, kw = w.shape
    H, W = xshape[2:]
    steps = O * kh * kw * N * C * H * W
    lib = native.ready_for(steps * _TAP_COST, steps)
    if lib is not None and _plain(w, None):
        return _input_grad_native(lib, g, w, xshape, padding)
    if steps > EXACT_BUDGET:
        return None
    t0 = native.start(steps)
    try:
        return _input_grad_numpy(g, w, xshape, padding)
    finally:
        native.spent(t0)


def _input_grad_native(lib, g, w, xshape, padding):
    """The input gradient's chains in the compiled loop: a row per input position (where
    its last tap reads the gradient, padded with zeros so that every tap reads inside),
    a lane per input channel, each chain one block of 8 output channels' taps (kernel
    row, column, channel) after another, the kernel read backwards."""
    N, O, oh, ow = g.shape
    _, C, kh, kw = w.shape
    H, W = xshape[2:]
    ph, pw = padding
    top, left = kh - 1 - ph, kw - 1 - pw  # (zeros before the gradient's first row, column)
    hg, wg = top + max(oh, H + ph), left + max(ow, W + pw)
    gp = np.zeros((N, O, hg, wg), np.float32)
    gp[:, :, top : top + oh, left : left + ow] = g
    P = N * H * W
    R, V = -(-P // _ROWS) * _ROWS, -(-C // _LANES) * _LANES
    offsets = np.zeros(R, np.int64)
    at = np.arange(N)[:, None] * (O * hg * wg) + (np.arange(H) + ph + top) * wg  # (N, H)
    offsets[:P] = (at[:, :, None] + np.arange(W) + pw + left).reshape(-1)
    acc = np.zeros((R, V), np.float32)
    taps = np.zeros((kh, kw, O, V), np.float32)
    taps[..., :C] = w.transpose(2, 3, 0, 1)
    for o0 in range(0, O, BLOCK):
        ob = min(BLOCK, O - o0)
        lanes = np.ascontiguousarray(taps[:, :, o0 : o0 + ob]).reshape(-1, V)
        chain = (-wg, -1, hg * wg)  # (a kernel row, a kernel column, a channel)
        native.chain32(lib, gp[:, o0:], offsets, chain, (kh, kw, ob), lanes, acc)
    return np.ascontiguousarray(acc[:P, :C].reshape(N, H * W, C).transpose(0, 2, 1)).reshape(
        N, C, H, W
    )


def _input_grad_numpy(g, w, xshape, padding):
    N, O, oh, ow = g.shape
    _, C, kh, kw = w.shape
    H, W = xshape[2:]
    acc = np.zeros((N, C, H, W), np.float32)
    g64 = g.astype(np.float64)[:, :, None]  # (N, O, 1, oh, ow)
    w64 = w.astype(np.float64)[..., None, None]  # (O, C, kh, kw, 1, 1)
    ph, pw = padding
    with np.errstate(over="ignore", invalid="ignore"):
        for o0 in range(0, O, BLOCK):
            for i in range(kh):
                h0, h1 = max(0, i - ph), min(H, oh + i - ph)  # inputs with a row r = h + ph - i
                for j in range(kw):
                    v0, v1 = max(0, j - pw), min(W, ow + j - pw)
                    if h0 >= h1 or v0 >= v1:
                        continue
                    part = acc[:, :, h0:h1, v0:v1]
                    r0, q0 = h0 + ph - i, v0 + pw - j
                    for o in range(o0, min(O, o0 + BLOCK)):
                        v = g64[:, o, :, r0 : r0 + h1 - h0, q0 : q0 + v1 - v0]
                        _step(part, v, w64[o, :, i, j])
    return acc


def bias_grad(g):
    """jit:avx2's bias gradient (g (N, O, oh, ow) float32), computed with its weight
    gradient: per block of 8 outputs, the images split between the threads by oneDNN's
    reduce balancer, each thread's sum taken in order (image, position) from zero,
    then the first thread's sum plus the others'."""
    N, O = g.shape[:2]
    nb = -(-O // BLOCK)
    flat = g.reshape(N, O, -1).transpose(0, 2, 1)  # (N, positions, O)
    out = np.zeros(O, np.float32)
    for j0, j1, teams in _splits(nb, BLOCK, N, THREADS):
        o0, o1 = j0 * BLOCK, min(O, j1 * BLOCK)
        total = None
        for n0, n1 in teams:
            seq = np.zeros(((n1 - n0) * flat.shape[1] + 1, o1 - o0), np.float32)
            seq[1:] = flat[n0:n1, :, o0:o1].reshape(-1, o1 - o0)
            part = np.add.accumulate(seq, axis=0, dtype=np.float32)[-1]  # one after another
            total = part if total is None else total + part
        out[o0:o1] = total
    return out


def balance211(n, team, tid):
    """oneDNN's split of n items between team threads: (start, end) of thread tid."""
    if team <= 1 or n == 0:
        return 0, n
    n1 = -(-n // team)
    n2 = n1 - 1
    t1 = n - n2 * team
    count = n1 if tid < t1 else n2
    start = tid * n1 if tid <= t1 else t1 * n1 + (tid - t1) * n2
    return start, start + count


def balance(nthr, job_size, njobs, reduction):
    """oneDNN's reduce_balancer_t: (groups of jobs, threads per group) for njobs jobs of
    job_size values, each a sum over `reduction` items."""
    min_per_group = max(1, njobs // nthr)
    max_per_group = max(1, MAX_BUFFER // (nthr * job_size))
    groups = min(njobs // min_per_group, nthr)
    per_group = min(nthr // groups, reduction)
    best = njobs * job_size * reduction
    for c in range(min_per_group, njobs):
        c_groups = min(njobs // c, nthr)
        c_per_group = min(nthr // c_groups, reduction)
        c_ub = -(-njobs // c_groups)
        if c_per_group > 1 and c_ub > max_per_group:
            continue
        cost = job_size * c_ub * (-(-reduction // c_per_group) + (c_per_group != 1))
        if cost < best:
            groups, per_group, best = c_groups, c_per_group, cost
    return groups, per_group


def _splits(njobs, job_size, reduction, nthr):
    """[(first job, end job, [(first image, end image) per thread of its group])]."""
    groups, per_group = balance(nthr, job_size, njobs, reduction)
    out = []
    for g in range(groups):
        j0, j1 = balance211(njobs, groups, g)
        if j0 < j1:
            out.append((j0, j1, [balance211(reduction, per_group, t) for t in range(per_group)]))
    return out


def weight_grad(x, g, kshape, stride, padding, weight=True, bias=False):
    """jit:avx2's weight and bias gradients (x (N, C, H, W), g (N, O, oh, ow) float32;
    kshape (kh, kw)): (weight's (O, C, kh, kw) or None, bias's (O,) or None).

    The weight's: the images split between the threads as the reduce balancer splits
    them for jobs of 8 outputs by 8 inputs (or by the 3 channels of a 3-channel input),
    each thread's sum of every weight a chain of fused multiply-adds over its images,
    output rows and columns in turn from zero (a tap in the padding skipped), then the
    first thread's sum plus the others'.  The chains run in numerics/native.py's compiled
    loop (the hardware's FMA) when it pays, else in NumPy (each step exact in float64,
    one rounding; None where that would exceed the budget).  The bias's is `bias_grad`'s
    sums, as the same loop's chains of fused steps by 1."""
    N, C, H, W = x.shape
    _, O, oh, ow = g.shape
    kh, kw = kshape
    K, L = C * kh * kw, oh * ow
    R, V = -(-K // _ROWS) * _ROWS, -(-O // _LANES) * _LANES
    teams, bias_teams = _weight_teams(N, C, kh, kw, V)
    per = len(teams)
    padded = any(padding)
    finite = not padded or bool(np.isfinite(g).all())
    steps = N * L * R * V if weight else N * L * V
    estimate = N * L * (_STEP_COST / per + _VALUE_COST * R * V)  # (NumPy's chains' CPU time)
    lib = native.ready_for(estimate if weight else 0.0, steps)
    gw = gb = None
    lanes = None
    if lib is not None and (bias or weight and finite):  # the gradient position by position
        lanes = np.zeros((N, L, V), np.float32)
        lanes[:, :, :O] = g.reshape(N, O, L).transpose(0, 2, 1)
        lanes = lanes.reshape(N * L, V)
    if weight and lanes is not None and finite:  # (else NumPy's: a tap in the padding
        ph, pw = padding  # times an infinity is skipped, not 0 * inf)
        xp = np.ascontiguousarray(x, np.float32)
        if padded:
            xp = np.zeros((N, C, H + 2 * ph, W + 2 * pw), np.float32)
            xp[:, :, ph : ph + H, pw : pw + W] = x
        _, hp, wp = xp.shape[1:]
        (offsets,) = _tap_offsets(C, kh, kw, hp, wp, R)
        strides = (C * hp * wp, stride[0] * wp, stride[1])
        sums = []
        for n0, n1 in teams:
            acc = np.zeros((R, V), np.float32)
            part = lanes[n0 * L : n1 * L]
            native.chain32(lib, xp[n0:n1], offsets, strides, (n1 - n0, oh, ow), part, acc)
            sums.append(acc)
        gw = np.ascontiguousarray(_total(sums)[:K, :O].T).reshape(O, C, kh, kw)
    elif weight and N * L * (1024 + per * K * O) // per <= EXACT_BUDGET:
        t0 = native.start(steps)
        try:
            gw = _weight_chains(x, g, kshape, stride, padding, teams, finite)
        finally:
            native.spent(t0)
    if bias and lanes is None:
        gb = bias_grad(g)
    elif bias:
        one = np.ones(1, np.float32)
        zeros = np.zeros(_ROWS, np.int64)
        sums = []
        for n0, n1 in bias_teams:
            acc = np.zeros((_ROWS, V), np.float32)
            native.chain32(
                lib, one, zeros, (0, 0, 0), (n1 - n0, oh, ow), lanes[n0 * L : n1 * L], acc
            )
            sums.append(acc)
        gb = _total(sums)[0, :O].copy()
    return gw, gb


def _teams(njobs, job_size, N):
    """The (first image, end image) of each thread of a group, as the reduce balancer
    splits N images for njobs jobs of job_size values."""
    _, per = balance(THREADS, job_size, njobs, N)
    return [balance211(N, per, t) for t in range(per)]


def _total(sums):
    """The first thread's sums plus the others', one after another."""
    total = sums[0]
    with np.errstate(over="ignore", invalid="ignore"):
        for part in sums[1:]:
            total = total + part
    return total


def _tap_columns(x, kh, kw, stride, padding, oshape):
    """(N * oh * ow, C * kh * kw) float32: for each output position in order (image,
    row, column), the input values its taps read (0 in the padding)."""
    N, C, H, W = x.shape
    (sh, sw), (ph, pw), (oh, ow) = stride, padding, oshape
    xp = np.zeros((N, C, H + 2 * ph, W + 2 * pw), np.float32)
    xp[:, :, ph : ph + H, pw : pw + W] = x
    s0, s1, s2, s3 = xp.strides
    view = np.lib.stride_tricks.as_strided(
        xp, (N, oh, ow, C, kh, kw), (s0, s2 * sh, s3 * sw, s1, s2, s3), writeable=False
    )
    return view.reshape(N * oh * ow, C * kh * kw)


def _weight_chains(x, g, kshape, stride, padding, teams, finite):
    """The weight's chains in NumPy (every thread's together, one fused step a position,
    exact in float64 and rounded once) and their sum: (O, C, kh, kw) float32."""
    N, C = x.shape[:2]
    _, O, oh, ow = g.shape
    kh, kw = kshape
    L, K = oh * ow, C * kh * kw
    taps = _tap_columns(x, kh, kw, stride, padding, (oh, ow))  # (N * L, K)
    grad = g.reshape(N, O, L).transpose(0, 2, 1).reshape(N * L, O)
    valid = None
    if not finite:  # (the taps in the padding, skipped)
        ones = np.ones((1,) + x.shape[1:], np.float32)
        valid = _tap_columns(ones, kh, kw, stride, padding, (oh, ow)) != 0  # (L, K)
    T = len(teams)
    most = max(n1 - n0 for n0, n1 in teams) * L
    A = np.zeros((T, most, K))
    B = np.zeros((T, most, O))
    M = None if valid is None else np.ones((T, most, K), bool)
    for t, (n0, n1) in enumerate(teams):
        A[t, : (n1 - n0) * L] = taps[n0 * L : n1 * L]
        B[t, : (n1 - n0) * L] = grad[n0 * L : n1 * L]
        if M is not None:
            M[t, : (n1 - n0) * L] = np.tile(valid, (n1 - n0, 1))
    A4, B4 = A[:, :, :, None], B[:, :, None, :]
    acc = np.zeros((T, K, O), np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(most):
            u, v = A4[:, k], B4[:, k]
            p = u * v
            if M is not None:
                m = M[:, k, :, None]
                p = np.where(m, p, 0.0)
            s = p + acc
            if np.count_nonzero((s.view(np.uint64) & _LOW29) == _HALF29):
                acc = fma32(u, v, acc) if M is None else np.where(m, fma32(u, v, acc), acc)
            else:
                acc = s.astype(np.float32)
    return np.ascontiguousarray(_total(list(acc)).T).reshape(O, C, kh, kw)
