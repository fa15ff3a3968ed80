"""SLEEF's double pow compiled (numerics/native_pow.py) gives the NumPy emulation's bits
(numerics/floats/sleef_powd.py) on every pair of values: zeros, negative bases, integer
and odd exponents, infinities, NaNs, subnormals, huge exponents, bases next to 1, the
limits of overflow and underflow, and random bit patterns; the emulation's fused step is
correctly rounded where a product ends in half an ulp beside a tiny addend (the
hardware's result there)."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

from gradcli.numerics import native, native_pow
from gradcli.numerics.floats import fma as fm
from gradcli.numerics.floats import sleef_powd, sleef_u10
from gradcli.numerics.floats.tensor_iter import sleef_blocks

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")

N = int(os.environ.get("GRADCLI_NATIVE_VALUES", "100000"))
EDGES = np.array(
    [
        0.0,
        -0.0,
        1.0,
        -1.0,
        np.inf,
        -np.inf,
        np.nan,
        -np.nan,
        2.0,
        -2.0,
        0.5,
        -0.5,
        3.0,
        -3.0,
        4.0,
        5.0,
        -7.0,
        1.5,
        -1.5,
        2.5,
        1.0 / 3.0,
        5e-324,
        -5e-324,
        1e-310,
        2.2250738585072014e-308,
        1.7976931348623157e308,
        -1.7976931348623157e308,
        1e-300,
        1e300,
        0.9999999999999999,
        1.0000000000000002,
        2.0**53,
        2.0**53 + 2,
        -(2.0**53) - 2,
        1e16,
        2.0**990,
        2.0**-900,
        709.782712893384,
        -745.1332191019411,
        1023.0,
        1024.0,
        -1074.0,
        -1075.0,
    ]
)


def _same(got, ref):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    diff = got.view(np.uint64) != ref.view(np.uint64)
    assert not diff.any(), (np.flatnonzero(diff)[:5], got[diff][:5], ref[diff][:5])


def _both(x, y):
    got = sleef_powd.sleef_powd(x, y)
    with native.numpy_only():
        ref = sleef_powd.sleef_powd(x, y)
    return got, ref


def test_the_kernels_constants_are_the_emulations():
    c = sleef_u10._C[np.float64]
    assert native_pow.LN2 == tuple(c["ln2"])
    assert (native_pow.R_LN2, native_pow.L2U, native_pow.L2L) == (c["rln2"], c["l2u"], c["l2l"])
    assert (native_pow.LOG, native_pow.LOG_C) == (sleef_powd._LOG, sleef_powd._LOG_C)
    assert (native_pow.EXP, native_pow._OVER) == (sleef_powd._EXP, sleef_powd._OVER)


def test_every_pair_of_edge_values():
    x, y = (v.ravel() for v in np.meshgrid(EDGES, EDGES))
    _same(*_both(x, y))
    _same(*_both(y, x))


def _spread(rng, n):
    """Values of every size: normal ones over a wide range of exponents, subnormals, the
    edge values, raw bit patterns (NaN payloads among them)."""
    x = rng.standard_normal(n) * np.exp2(rng.integers(-1074, 1023, n)).clip(0, 2.0**1000)
    pick = rng.random(n) < 0.1
    x[pick] = rng.choice(EDGES, int(pick.sum()))
    raw = rng.random(n) < 0.1
    x[raw] = rng.integers(0, 2**64, int(raw.sum()), dtype=np.uint64).view(np.float64)
    return x


def test_random_values_of_every_size():
    rng = np.random.default_rng(21)
    n = max(N, 4096)
    with np.errstate(all="ignore"):
        _same(*_both(_spread(rng, n), _spread(rng, n)))


def test_the_powers_of_a_training_loop():
    """Bases of either sign with integer, odd, fractional and huge exponents, bases next
    to 1, and results near overflow and underflow: nearly all computed by the kernel."""
    rng = np.random.default_rng(22)
    n = max(N, 4096) // 8 * 8
    x = rng.standard_normal(n) * 3
    x[: n // 8] = 1 + rng.standard_normal(n // 8) * 2.0**-40
    x[n // 8 : n // 4] = rng.uniform(-1e-3, 1e-3, n // 8)
    cases = [
        rng.integers(-40, 40, n).astype(np.float64),
        rng.integers(-40, 40, n) + 0.5,
        rng.standard_normal(n) * 10,
        rng.choice([4.0, 5.0, 1.5, -1.7, 1 / 3, 100.0, 1e-5], n),
        rng.uniform(-1e6, 1e6, n),
        rng.standard_normal(n) * np.exp2(rng.integers(-1074, -900, n)),
    ]
    lib = native._state["lib"]
    for y in cases:
        _same(*_both(x, y))
    computed = native.binary(lib, "powd", np.abs(x) + 0.1, rng.standard_normal(n) * 10)
    assert computed is not None  # (no value sent to NumPy)


def test_results_near_overflow_and_underflow():
    rng = np.random.default_rng(23)
    n = max(N // 4, 4096)
    x = np.exp(rng.uniform(0.5, 3.0, n))
    y = rng.uniform(-1100, 760, n) / np.log(x)  # log(x ** y) across -1100 .. 760
    _same(*_both(x, y))
    _same(*_both(-x, np.round(y)))


def test_a_scalar_exponent_as_torch_runs_it():
    """torch_powd (a contiguous array and a number: SLEEF on the whole blocks of 8, pow
    on the rest) is the general blocked kernel's result, either way."""
    rng = np.random.default_rng(24)
    for shape in ((2000,), (13,), (7, 301), (3, 0)):
        a = rng.standard_normal(shape) * 4
        for e in (4, 5, 1.5, -1.7, 100):
            want = sleef_blocks(sleef_powd.sleef_powd, np.power, (a, np.float64(e)))
            sleef_powd._CACHE.clear()
            _same(sleef_powd.torch_powd(a, e), want)
            sleef_powd._CACHE.clear()
            with native.numpy_only():
                _same(sleef_powd.torch_powd(a, e), want)
        t = a.T  # (not contiguous: the general path)
        _same(
            sleef_powd.torch_powd(t, 3.5), sleef_blocks(sleef_powd.sleef_powd, np.power, (t, 3.5))
        )


def test_a_result_kept_is_for_the_same_bits_only():
    """torch_powd's kept results: the same input bits and exponent give a copy of the
    result; another exponent, a -0.0 for a 0.0 or another NaN is computed again."""
    sleef_powd._CACHE.clear()
    a = np.linspace(-2, 2, 2001)
    a[1000] = 0.0
    a[7] = np.nan
    first = sleef_powd.torch_powd(a, 5)
    again = sleef_powd.torch_powd(a.copy(), 5)
    _same(again, first)
    again[0] = 42.0  # (a copy: the kept result is not changed)
    _same(sleef_powd.torch_powd(a, 5), first)
    b = a.copy()
    b[1000] = -0.0
    assert np.signbit(sleef_powd.torch_powd(b, 5)[1000])
    assert not np.signbit(first[1000])
    b[1000] = 0.0
    b[7] = -np.nan
    _same(sleef_powd.torch_powd(b, 5), sleef_blocks(sleef_powd.sleef_powd, np.power, (b, 5.0)))
    _same(sleef_powd.torch_powd(a, 5.5), sleef_blocks(sleef_powd.sleef_powd, np.power, (a, 5.5)))


def _midpoint_cases(rng, n):
    """a, b whose exact product has 54 significant bits, its last one set (a midpoint of
    the double's last bit), and a tiny addend of either sign."""
    a = (rng.integers(2**26, 2**27, n) * 2 + 1).astype(np.float64)  # 28 bits, odd
    b = (rng.integers(2**25, 2**26, n) * 2 + 1).astype(np.float64)  # 27 bits, odd
    p = a.astype(object) * b.astype(object)
    keep = np.array([int(v).bit_length() == 54 for v in p])
    a, b = a[keep], b[keep]
    scale = np.exp2(rng.integers(-60, 60, a.size))
    c = rng.choice([-1.0, 1.0], a.size) * np.exp2(rng.integers(-400, -150, a.size))
    return a * scale, b * rng.choice([-1.0, 1.0], a.size), c * scale


def test_the_emulated_fused_step_is_correctly_rounded_at_midpoints():
    """a * b on a midpoint of its last bit, plus an addend far below it: rounded once, the
    tie is broken by the addend's sign; the emulation (its small terms' sum rounded to
    odd) and the hardware both give the exact value rounded once."""
    rng = np.random.default_rng(25)
    a, b, c = _midpoint_cases(rng, 4000)
    assert a.size > 1000
    exact = np.array([fm.exact_scalar(*v) for v in zip(a, b, c)])
    _same(fm._fma64(a, b, c), exact)
    lib = native._state["lib"]
    got, flags = native.fused(lib, "fma64", a, b, c)
    assert flags is None
    _same(got, exact)
    # without the addend the tie goes to even, both ways
    exact0 = np.array([fm.exact_scalar(x, y, 0.0) for x, y in zip(a, b)])
    _same(fm._fma64(a, b, np.zeros_like(a)), exact0)
    assert (exact != exact0).any()
    assert math.isclose(float(fm._fma64(a[:1], b[:1], c[:1])[0]), float(a[0] * b[0]))
