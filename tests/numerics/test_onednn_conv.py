"""numerics/onednn_conv.py's fast loops give the bits of their definitions: the forward
and the input gradient (numerics/native.py's compiled chains, and NumPy's one float64
multiply-add per tap, rounded to float32, midpoints redone by fma32) against a
tap-by-tap loop of `fma32` in oneDNN's order, the bias gradient
(`np.add.accumulate` per thread) against a value-by-value float32 loop, and the weight
gradient (numerics/native.py's compiled chains and NumPy's) against a position-by-position
loop of `fma32`, on random shapes, strides, paddings and dilations and on random bit
patterns (subnormals, signed zeros, wide exponents, sums that land on float32
midpoints).  Their agreement with torch is the golden cases
conv/float32_onednn_direct_forward_and_bias and conv/float32_onednn_weight_gradient and
tests/differential/test_conv_onednn.py."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

from gradcli.numerics import native, onednn_conv as oc
from gradcli.numerics.floats.fma import fma32


def _values(rng, shape):
    n = int(np.prod(shape))
    x = rng.standard_normal(n) * np.exp2(rng.integers(-20, 20, n))
    bits = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(np.float32)
    bits = np.where(np.isfinite(bits) & (np.abs(bits) < 1e30), bits, 0)
    x = np.where(rng.random(n) < 0.1, bits, x)
    x = np.where(rng.random(n) < 0.05, rng.choice([0.0, -0.0, 1e-45, -1e-40, 1.0]), x)
    return x.astype(np.float32).reshape(shape)


def _reference_forward(x, w, b, stride, padding, dilation, oshape):
    """Each output's fused steps in oneDNN's order, one output at a time."""
    N, C, H, W = x.shape
    O, _, kh, kw = w.shape
    out = np.empty((N, O) + oshape, np.float32)
    x64, w64 = x.astype(np.float64), w.astype(np.float64)
    for r in range(oshape[0]):
        for q in range(oshape[1]):
            acc = np.zeros((N, O), np.float32) if b is None else np.tile(b, (N, 1))
            for c0 in range(0, C, oc.BLOCK):
                for i in range(kh):
                    ih = r * stride[0] - padding[0] + i * dilation[0]
                    if not 0 <= ih < H:
                        continue
                    for j in range(kw):
                        iw = q * stride[1] - padding[1] + j * dilation[1]
                        if not 0 <= iw < W:
                            continue
                        for c in range(c0, min(C, c0 + oc.BLOCK)):
                            acc = fma32(x64[:, c, ih, iw, None], w64[None, :, c, i, j], acc)
            out[:, :, r, q] = acc
    return out


def _geometry(rng):
    while True:
        N, C, O = rng.integers(1, 5), rng.integers(1, 20), rng.integers(1, 11)
        kh, kw = rng.integers(1, 5, 2)
        H, W = rng.integers(1, 12, 2)
        stride = tuple(int(v) for v in rng.integers(1, 4, 2))
        padding = tuple(int(v) for v in rng.integers(0, 3, 2))
        dilation = tuple(int(v) for v in rng.integers(1, 3, 2))
        ext = ((kh - 1) * dilation[0] + 1, (kw - 1) * dilation[1] + 1)
        oh = (H + 2 * padding[0] - ext[0]) // stride[0] + 1
        ow = (W + 2 * padding[1] - ext[1]) // stride[1] + 1
        if oh > 0 and ow > 0:
            return (N, C, H, W), (O, C, kh, kw), stride, padding, dilation, (oh, ow)


def _path(path):
    """The compiled chains (skipped without llvmlite), or NumPy's steps only."""
    if path == "numpy":
        return native.numpy_only()
    if not native.available():
        pytest.skip("llvmlite is not installed")
    return contextlib.nullcontext()


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("path", ["native", "numpy"])
def test_forward_matches_its_definition(seed, path):
    rng = np.random.default_rng(seed)
    xs, ws, stride, padding, dilation, oshape = _geometry(rng)
    x, w = _values(rng, xs), _values(rng, ws)
    b = None if seed % 3 == 0 else _values(rng, ws[:1])
    if seed % 4 == 1:  # a bias -0 and an infinite weight: the padding's taps skipped
        b = np.where(np.arange(ws[0]) % 2, b, np.float32(-0.0)).astype(np.float32)
        w.reshape(-1)[-1] = np.inf
    with _path(path):
        got = oc.forward(x, w, b, stride, padding, dilation, oshape)
    with np.errstate(over="ignore", invalid="ignore"):
        want = _reference_forward(x, w, b, stride, padding, dilation, oshape)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


def test_forward_midpoints():
    """Sums of a float32 and an exact product that land on a float32 midpoint in
    float64 but not exactly (double rounding): the fast step must redo them."""
    # 1 + 2^-23 plus (1 + 2^-23) * 2^-24 * (1 - 2^-23): in float64 the sum rounds to
    # the float32 midpoint 1 + 2^-23 + 2^-24 (then to even, 1 + 2^-22); exactly it lies
    # below it (1 + 2^-23)
    x = np.array([1.0 + 2.0**-23], np.float32).reshape(1, 1, 1, 1)
    w = np.array([2.0**-24 * (1 - 2.0**-23)], np.float32).reshape(1, 1, 1, 1)
    b = np.array([1.0 + 2.0**-23], np.float32)
    got = oc.forward(x, w, b, (1, 1), (0, 0), (1, 1), (1, 1))
    want = _reference_forward(x, w, b, (1, 1), (0, 0), (1, 1), (1, 1))
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    twice = np.float32(np.float64(x[0, 0, 0, 0]) * np.float64(w[0, 0, 0, 0]) + np.float64(b[0]))
    assert got[0, 0, 0, 0] != twice


@pytest.mark.parametrize("shape", [(32, 6, 10, 10), (5, 17, 3, 4), (1, 3, 2, 2), (7, 24, 1, 5)])
def test_bias_grad_matches_its_definition(shape):
    rng = np.random.default_rng(sum(shape))
    g = _values(rng, shape)
    N, O = shape[:2]
    want = np.zeros(O, np.float32)
    for j0, j1, teams in oc._splits(-(-O // oc.BLOCK), oc.BLOCK, N, oc.THREADS):
        o0, o1 = j0 * oc.BLOCK, min(O, j1 * oc.BLOCK)
        total = None
        for n0, n1 in teams:
            acc = np.zeros(o1 - o0, np.float32)
            for n in range(n0, n1):
                for p in g[n, o0:o1].reshape(o1 - o0, -1).T:
                    acc = acc + p
            total = acc if total is None else total + acc
        want[o0:o1] = total
    np.testing.assert_array_equal(oc.bias_grad(g).view(np.uint32), want.view(np.uint32))


def test_balance211_covers_every_item_once():
    for n in range(0, 40):
        for team in range(1, 5):
            parts = [oc.balance211(n, team, t) for t in range(team)]
            assert parts[0][0] == 0 and parts[-1][1] == n
            assert all(a[1] == b[0] for a, b in zip(parts, parts[1:]))


def _reference_input_grad(g, w, xshape, padding):
    """Each input value's fused steps in oneDNN's order, one input position at a time."""
    N, O, oh, ow = g.shape
    _, C, kh, kw = w.shape
    H, W = xshape[2:]
    out = np.empty(xshape, np.float32)
    g64, w64 = g.astype(np.float64), w.astype(np.float64)
    for h in range(H):
        for v in range(W):
            acc = np.zeros((N, C), np.float32)
            for o0 in range(0, O, oc.BLOCK):
                for i in range(kh):
                    r = h + padding[0] - i
                    if not 0 <= r < oh:
                        continue
                    for j in range(kw):
                        q = v + padding[1] - j
                        if not 0 <= q < ow:
                            continue
                        for o in range(o0, min(O, o0 + oc.BLOCK)):
                            acc = fma32(g64[:, o, r, q, None], w64[None, o, :, i, j], acc)
            out[:, :, h, v] = acc
    return out


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("path", ["native", "numpy"])
def test_input_grad_matches_its_definition(seed, path):
    rng = np.random.default_rng(100 + seed)
    N, C, O = (int(v) for v in rng.integers(1, 5, 3))
    O += 6 * (seed % 2)  # two blocks of output channels
    kh, kw = (int(v) for v in rng.integers(1, 4, 2))
    ph, pw = int(rng.integers(0, kh)), int(rng.integers(0, kw))
    H, W = int(rng.integers(kh, 9)), int(rng.integers(kw, 9))
    oh, ow = H + 2 * ph - kh + 1, W + 2 * pw - kw + 1
    g, w = _values(rng, (N, O, oh, ow)), _values(rng, (O, C, kh, kw))
    if seed % 4 == 1:  # an infinite weight: the padding's taps skipped
        w.reshape(-1)[0] = -np.inf
    with _path(path), np.errstate(over="ignore", invalid="ignore"):
        got = oc.input_grad(g, w, (N, C, H, W), (ph, pw))
    with np.errstate(over="ignore", invalid="ignore"):
        want = _reference_input_grad(g, w, (N, C, H, W), (ph, pw))
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


def _reference_weight_grad(x, g, kshape, stride, padding):
    """Each thread's chain of fused steps over its images, output rows and columns (the
    taps in the padding skipped), every weight at once, then the threads' sums added."""
    N, C, H, W = x.shape
    _, O, oh, ow = g.shape
    kh, kw = kshape
    icb = C if C == 3 else oc.BLOCK
    _, per = oc.balance(oc.THREADS, kh * kw * icb * 8, -(-C // icb) * -(-O // 8), N)
    x64, g64 = x.astype(np.float64), g.astype(np.float64)
    total = None
    for t in range(per):
        n0, n1 = oc.balance211(N, per, t)
        acc = np.zeros((O, C, kh, kw), np.float32)
        for n in range(n0, n1):
            for r in range(oh):
                for q in range(ow):
                    for i in range(kh):
                        ih = r * stride[0] - padding[0] + i
                        for j in range(kw):
                            iw = q * stride[1] - padding[1] + j
                            if 0 <= ih < H and 0 <= iw < W:
                                acc[:, :, i, j] = fma32(
                                    g64[n, :, r, q, None], x64[n, None, :, ih, iw], acc[:, :, i, j]
                                )
        total = acc if total is None else total + acc
    return total


def _weight_case(rng):
    while True:
        N, C, O = int(rng.integers(1, 9)), int(rng.integers(1, 12)), int(rng.integers(1, 19))
        kh, kw = (int(v) for v in rng.integers(1, 5, 2))
        H, W = (int(v) for v in rng.integers(1, 9, 2))
        stride = tuple(int(v) for v in rng.integers(1, 4, 2))
        padding = (int(rng.integers(0, kh)), int(rng.integers(0, kw)))
        oh = (H + 2 * padding[0] - kh) // stride[0] + 1
        ow = (W + 2 * padding[1] - kw) // stride[1] + 1
        if oh > 0 and ow > 0 and kh <= H:
            return (N, C, H, W), (O, C, kh, kw), stride, padding, (oh, ow)


def _finite_values(rng, shape):
    """_values without subnormals: fma32's emulation rounds a result below 2^-126 as a
    normal float32 would (docs/developer/numerics.md), the hardware's FMA to the
    subnormal's bits."""
    x = _values(rng, shape)
    return np.where(np.abs(x) < 2.0**-100, np.float32(0), x)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("path", ["native", "numpy"])
def test_weight_grad_matches_its_definition(seed, path):
    rng = np.random.default_rng(200 + seed)
    xs, ws, stride, padding, oshape = _weight_case(rng)
    x, g = _finite_values(rng, xs), _finite_values(rng, (xs[0], ws[0]) + oshape)
    if seed % 4 == 3 and any(padding):  # infinities times the padding's taps: skipped
        g.reshape(-1)[rng.integers(0, g.size, 2)] = np.inf
    with np.errstate(over="ignore", invalid="ignore"):
        want = _reference_weight_grad(x, g, ws[2:], stride, padding)
        want_b = oc.bias_grad(g)
        with _path(path):
            got, got_b = oc.weight_grad(x, g, ws[2:], stride, padding, bias=True)
    assert got.dtype == np.float32 and got.shape == ws
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    np.testing.assert_array_equal(got_b.view(np.uint32), want_b.view(np.uint32))


def test_weight_grad_midpoints():
    """A chain whose float64 sum lands on a float32 midpoint (the NumPy path redoes that
    step with fma32) gives the hardware's bits on both paths."""
    # one image, two positions: the second step's float64 sum is a midpoint
    x2 = np.array([[1.0 + 2.0**-23, 1.0 + 2.0**-23]], np.float32).reshape(1, 1, 1, 2)
    g2 = np.array([[1.0, 2.0**-24 * (1 - 2.0**-23)]], np.float32).reshape(1, 1, 1, 2)
    with native.numpy_only():
        got, _ = oc.weight_grad(x2, g2, (1, 1), (1, 1), (0, 0))
    want = _reference_weight_grad(x2, g2, (1, 1), (1, 1), (0, 0))
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    twice = np.float32(np.float64(x2[0, 0, 0, 1]) * np.float64(g2[0, 0, 0, 1]) + 1.0 + 2.0**-23)
    assert got[0, 0, 0, 0] != twice
    if native.available():
        got_n, _ = oc.weight_grad(x2, g2, (1, 1), (1, 1), (0, 0))
        np.testing.assert_array_equal(got_n.view(np.uint32), want.view(np.uint32))
