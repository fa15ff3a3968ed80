"""PyTorch's float32 convolution on oneDNN's AVX2 direct kernels (jit:avx2), in NumPy.

PyTorch sends a float32 conv2d to oneDNN (the Mkldnn backend) unless it is one small
sample (`uses_onednn`); on an AVX2 machine oneDNN runs a convolution without groups, of
a kernel larger than 1 x 1 and no padding as wide as the kernel, with its direct
`jit:avx2` kernels (`direct`; else its gemm convolution or its 1 x 1 kernels).  Their
order of summation, found by comparing candidate orders with torch's results (torch run
with ONEDNN_MAX_CPU_ISA=AVX2) on random shapes, strides, paddings and dilations:

* forward (reproduced): each output starts as its bias (0 without one) and takes one
  fused multiply-add per tap, the input channels in blocks of 8: for each block, for
  each kernel row, for each kernel column, for each channel of the block; a tap that
  falls in the padding is skipped;
* bias gradient (reproduced, without dilation; it is computed with the weight's):
  oneDNN's reduce balancer splits the blocks of 8 outputs and the images between the
  threads; each thread sums its images' values in order (image, position) from zero,
  and the first thread of a group then adds the others' sums to its own;
* weight gradient (not reproduced): the same split of the jobs (blocks of 8 outputs by
  8 inputs) and images, each thread's sum a chain of fused multiply-adds over (image,
  output row, output column) from zero.  That chain is as long as the batch's outputs
  and runs one element at a time, which NumPy cannot do at a useful speed; NumPy's
  product computes it (within an ulp or so).  The input's gradient (jit:avx2 or
  brgconv_strided kernels) is not reproduced either.

A fused step is exact float32 arithmetic (the product exact in float64, one rounding;
`floats.fma.fma32` where the sum lands on a float32 midpoint).  The forward costs one
fused step per tap over the whole output, so a large convolution keeps NumPy's product
(`EXACT_BUDGET`).
"""

from __future__ import annotations

import numpy as np

from .floats.fma import fma32
from .parallel import THREADS

#: at most this many fused steps (taps x outputs) are emulated per call; a larger
#: convolution is left to NumPy's product, within an ulp or so of PyTorch's
EXACT_BUDGET = 1 << 24
BLOCK = 8  # oneDNN's channel block on AVX2 (8 floats)
MAX_BUFFER = 1 << 21  # the reduce balancer's buffer bound (values), as oneDNN sets it


def uses_onednn(n, c, h, w, kh, kw, groups, strided, dilated, threads=THREADS):
    """Whether PyTorch sends this float32 convolution to oneDNN (its use_mkldnn)."""
    first = strided or dilated or n >= 16 or kh != 1 or kw != 1 or threads > 1
    second = groups > 1 or (kh > 3 and kw > 3) or n > 1 or n * c * h * w > 20480
    return first and second


def direct(h, w, kh, kw, groups, stride, padding, dilation, oshape):
    """Whether oneDNN's direct jit:avx2 kernels (reproduced here) run it: no groups, a
    kernel larger than 1 x 1 (1 x 1 ones have kernels of their own), and no padding as
    wide as the (dilated) kernel on any side (oneDNN then takes its gemm convolution)."""
    if groups != 1 or (kh == 1 and kw == 1):
        return False
    for size, k, s, p, d, out in zip((h, w), (kh, kw), stride, padding, dilation, oshape):
        ext = (k - 1) * d + 1
        if ext <= p or ext <= (out - 1) * s + ext - size - p:
            return False
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
    """The forward of jit:avx2 (x (N, C, H, W), w (O, C, kh, kw) float32), or None when
    it is larger than the budget."""
    N, C, H, W = x.shape
    O, _, kh, kw = w.shape
    oh, ow = oshape
    if C * kh * kw * N * O * oh * ow > EXACT_BUDGET:
        return None
    acc = np.empty((N, O, oh, ow), np.float32)
    acc[...] = 0 if b is None else b.reshape(1, O, 1, 1)
    rows = _taps(H, kh, stride[0], padding[0], dilation[0], oh)
    cols = _taps(W, kw, stride[1], padding[1], dilation[1], ow)
    x64 = x.astype(np.float64)[:, :, None]  # (N, C, 1, H, W)
    w64 = w.astype(np.float64).transpose(1, 2, 3, 0)[..., None, None]  # (C, kh, kw, O, 1, 1)
    sh, sw = stride
    with np.errstate(over="ignore", invalid="ignore"):  # (inf and nan as the kernel's)
        _taps_loop(acc, x64, w64, C, rows, cols, sh, sw)
    return acc


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
    None when it is larger than the budget."""
    N, O, oh, ow = g.shape
    _, C, kh, kw = w.shape
    H, W = xshape[2:]
    if O * kh * kw * N * C * H * W > EXACT_BUDGET:
        return None
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
