"""The compiled float32 SLEEF kernels (numerics/native_sleef32.py: expf, logf, log1pf in
8-float vectors with the hardware FMA) give the NumPy emulation's bits: their fused step
against fma32's emulation on random bit patterns wherever it does not send the call to
NumPy, each kernel on wide ranges of finite values (every value computed compiled) and
on edge values (NaN payloads, infinities, subnormals, signed zeros, the limits), in
lengths that leave values after the last whole vector.  GRADCLI_NATIVE_VALUES sets the
number of values per case."""

from __future__ import annotations

import os

import numpy as np
import pytest

from gradcli.numerics import native
from gradcli.numerics.floats import fma as fm
from gradcli.numerics.floats import sleef_explog, sleef_pow, sleef_u10, torch_act, torch_exp
from gradcli.numerics.mkl import address

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")

N = int(os.environ.get("GRADCLI_NATIVE_VALUES", "100000"))
F = np.float32
EDGE = np.array(
    [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1e-45, -1e-45, 1.1754943508222875e-38,
     1.1754942e-38, 3.4028234663852886e38, -3.4028234663852886e38, 1.0, -1.0, 2.0, 0.5,
     88.72283935546875, 88.7229, -103.97208404541016, -104.0, -87.3, 100.0, 100.1, 1e38,
     1.0000001e38, -0.9999999, -1.0000001, 2.0**-24, -(2.0**-25), 1e-30],
    dtype=F,
)  # fmt: skip


def _bits(rng, n):
    return rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(F)


def _same(got, ref):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    diff = np.count_nonzero(got.view(np.uint32) != ref.view(np.uint32))
    assert diff == 0, f"{diff} of {got.size} values differ"


def _lib():
    return native._state["lib"]


def _fma32h(a, b, c):
    """The compiled step on float32 arrays: (result, whether any value was flagged)."""
    out = np.empty_like(a)
    bad = _lib().fma32h(a.size, address(a), address(b), address(c), address(out))
    return out, bool(bad)


@pytest.mark.parametrize("seed", range(2))
def test_the_fused_step_is_fma32s_emulation(seed):
    """Random bit patterns, products near the addend's negative (cancelling to 0 or to a
    tiny rest), addends far below the product: in chunks of one vector, every chunk not
    flagged has the emulation's bits, and most chunks of ordinary values are not
    flagged."""
    rng = np.random.default_rng(20 + seed)
    n = max(N // 5, 4096) // 8 * 8
    a, b, c = _bits(rng, n), _bits(rng, n), _bits(rng, n)
    normal = rng.random(n) < 0.5
    a[normal] = (rng.standard_normal(normal.sum()) * 4).astype(F)
    b[normal] = (rng.standard_normal(normal.sum()) * 4).astype(F)
    c[normal] = (rng.standard_normal(normal.sum()) * 4).astype(F)
    near = rng.random(n) < 0.3
    with np.errstate(all="ignore"):
        c[near] = (-(a[near].astype(np.float64) * b[near])).astype(F)
        pick = rng.random(n) < 0.05
        c[pick] = rng.choice(EDGE, pick.sum())
        ref = fm._fma32(a.astype(np.float64), b, c)
    taken = 0
    for i in range(0, n, native.LANES):
        s = slice(i, i + native.LANES)
        got, bad = _fma32h(a[s], b[s], c[s])
        if not bad:
            _same(got, ref[s])
            taken += 1
    assert taken > n // native.LANES // 20


def _wide(rng, kind, n):
    """Finite values over the range each kernel computes (every one compiled)."""
    if kind == "expf":
        x = np.concatenate(
            [
                rng.standard_normal(n // 2) * 10,
                rng.uniform(-120, 110, n // 4),
                rng.standard_normal(n // 4) * np.exp2(rng.integers(-100, 0, n // 4)),
            ]
        )
    elif kind == "logf":
        x = np.exp2(rng.uniform(-149, 128, n)) * rng.uniform(0.5, 1.0, n)
        x[: n // 4] = rng.uniform(0.5, 2.0, n // 4)
    else:
        x = np.concatenate(
            [
                # (down to 1e-26: a fused step of a smaller one may cancel to a zero
                # the compiled code cannot tell exact, and sends the call to NumPy)
                np.exp(-np.minimum(np.abs(rng.standard_normal(n // 2)) * 20, 60)),
                rng.uniform(-0.999, 10, n // 4),
                np.exp2(rng.uniform(-60, 126, n // 4)),
            ]
        )
    with np.errstate(all="ignore"):
        return x.astype(F)[: n // 8 * 8 + 5]  # (5 values after the last whole vector)


KINDS = {
    "expf": sleef_explog.expf,
    "logf": sleef_explog.logf,
    "log1pf": sleef_u10.sleef_log1p,
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_whole_kernels_are_the_emulation(kind):
    fn = KINDS[kind]
    rng = np.random.default_rng(len(kind))
    x = _wide(rng, kind, max(N, 4096))
    got = native.unary(_lib(), kind, x)
    assert got is not None  # computed by the compiled kernel
    with native.numpy_only(), np.errstate(all="ignore"):
        _same(got, fn(x))
    # the edge values and raw bit patterns, alone and among others: the same bits,
    # compiled or sent to NumPy
    for v in EDGE:
        y = x[:21].copy()
        y[13] = v
        _same(*_both(fn, y))
        _same(*_both(fn, np.array([v], F)))
    _same(*_both(fn, _bits(rng, 4099)))


def _both(fn, *args):
    with np.errstate(all="ignore"):
        got = fn(*args)
        with native.numpy_only():
            ref = fn(*args)
    return got, ref


def test_kernels_built_on_them_are_the_same_both_ways():
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(10_003) * 12).astype(F)
    _same(*_both(torch_act.log_sigmoid, x))
    _same(*_both(torch_exp.sigmoid, x))
    rows = x[:10_000].reshape(100, 100)
    _same(*_both(sleef_explog.log_softmax_lastdim, rows))
    _same(*_both(sleef_explog.softmax_lastdim, rows))


def test_the_loops_take_vectors_of_native_lanes():
    from gradcli.numerics import native_sleef, native_sleef32

    assert native.LANES == native_sleef.LANES64 == native_sleef32.LANES


def test_the_kernels_constants_are_the_emulations():
    from gradcli.numerics import native_sleef32 as ns

    k, u = ns.K, sleef_u10._C[F]
    assert (k["r_ln2"], k["l2u"], k["l2l"]) == (sleef_pow._R_LN2, sleef_pow._L2U, sleef_pow._L2L)
    assert list(k["exp"]) == sleef_explog._EXP and list(k["log"]) == sleef_explog._LOG
    assert k["ln2"] == sleef_pow._LN2 == u["ln2"]
    assert (k["flt_min"], k["two64"], k["r75"]) == (
        sleef_pow._FLT_MIN,
        sleef_pow._TWO64,
        sleef_pow._R75,
    )
    assert (k["tiny"], k["big"], k["r75"], k["bound"]) == (
        u["tiny"],
        u["big"],
        u["r75"],
        u["bound"],
    )
    assert list(k["log1p"]) == u["log1p"]
