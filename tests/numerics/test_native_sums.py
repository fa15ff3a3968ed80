"""The compiled whole sums (numerics/native_sums.py) give the NumPy plans' bits: every
sum of sum_rows.torch_sums and summation.torch_sum with the loop against the same sums
with NumPy only (sums/sum_rows.py, sums/summation.py), over sizes of one thread's range, several rows
of one size with and without factors, and values across the float range: cancelling
sums, signed zeros, infinities, NaNs and float32 overflow."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.numerics import native, native_sum_calls
from gradcli.numerics.parallel import GRAIN
from gradcli.numerics.sums.sum_mid import MID_MIN
from gradcli.numerics.sums.sum_rows import torch_sums
from gradcli.numerics.sums.summation import torch_sum

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")


def _same(got, ref):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.dtype == ref.dtype
    if np.isnan(ref):  # (which NaN a sum keeps is up to the order of the loop's operands)
        assert np.isnan(got)
        return
    assert got.tobytes() == ref.tobytes(), f"{got!r} != {ref!r}"


def _values(rng, n, dt, spread):
    v = rng.standard_normal(n) * 10.0 ** rng.integers(-spread, spread + 1, n)
    with np.errstate(over="ignore"):
        return v.astype(dt)


def _sizes(rng):
    small = list(range(MID_MIN, MID_MIN + 300)) + [1000, 2000, 2047, 2048, 4095, 4096]
    return small + [int(n) for n in rng.integers(MID_MIN, GRAIN + 1, 60)] + [GRAIN]


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_sums_are_the_plans(dt):
    dt = np.dtype(dt)
    rng = np.random.default_rng(7 + dt.itemsize)
    for n in _sizes(rng):
        rows = [_values(rng, n, dt, 3) for _ in range(3)]
        factors = [None, _values(rng, n, dt, 2), None]
        rows[2] = rows[0]  # (one array in two rows)
        got = torch_sums(rows, factors)
        with native.numpy_only():
            ref = torch_sums(rows, factors)
        for r, (g, e) in enumerate(zip(got, ref)):
            _same(g, e)
            x = rows[r] if factors[r] is None else np.multiply(rows[r], factors[r])
            one = torch_sum(x)  # (the whole sum's path: the loop for one row)
            with native.numpy_only():
                plan = torch_sum(x)
            assert type(one) is type(plan)
            _same(one, plan)
            _same(g, np.asarray(plan, dt))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_edge_values(dt):
    dt = np.dtype(dt)
    rng = np.random.default_rng(11 + dt.itemsize)
    big = np.finfo(dt).max
    for n in (MID_MIN, 777, 2000, 5003):
        cases = [
            np.full(n, -0.0, dt),
            np.zeros(n, dt),
            np.where(rng.random(n) < 0.5, -0.0, 0.0).astype(dt),
            _values(rng, n, dt, 30),
            np.full(n, big / 4, dt),  # overflows to inf part way
            np.concatenate([np.full(n // 2, big, dt), np.full(n - n // 2, -big, dt)]),
        ]
        cancel = _values(rng, n, dt, 5)
        cancel[1::2] = -cancel[::2][: n // 2]
        cases.append(cancel)
        for k, special in enumerate((np.inf, -np.inf, np.nan)):
            v = _values(rng, n, dt, 3)
            v[rng.integers(0, n, 1 + k)] = special
            cases.append(v)
        got = torch_sums(cases)
        with native.numpy_only():
            ref = torch_sums(cases)
        for g, e, x in zip(got, ref, cases):
            _same(g, e)
            with native.numpy_only():
                plan = torch_sum(x)
            _same(torch_sum(x), plan)
            _same(g, np.asarray(plan, dt))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_one_gradient_times_each_factor_is_the_plans(dt):
    """sum_rows.compiled_one (a backward's leaves: one gradient times each leaf's factor,
    its call's parameters kept while the factors are the same arrays) gives torch_sums'
    bits with NumPy only; other factors, sizes or gradients in between change nothing,
    and a factor it does not take (not C-contiguous) gives None."""
    from gradcli.numerics.sums.sum_rows import compiled_one

    dt = np.dtype(dt)
    rng = np.random.default_rng(11 + dt.itemsize)
    if native.ready(MID_MIN) is None:
        pytest.skip("the compiled loops are not loaded")
    for n in [MID_MIN, 1000, 2000, 2001, 4096, GRAIN] * 2:
        factors = [_values(rng, n, dt, 2), None, _values(rng, n, dt, 2), _values(rng, n, dt, 1)]
        for g in (_values(rng, n, dt, 3), _values(rng, n, dt, 3)):
            for fs in (factors, factors[:2], factors):
                got = list(compiled_one(g, fs))
                with native.numpy_only():
                    ref = torch_sums([g] * len(fs), fs)
                assert len(got) == len(ref)
                for a, b in zip(got, ref):
                    _same(np.asarray(a, dt), np.asarray(b, dt))
    wide = _values(rng, 2 * 600, dt, 1)[::2]
    assert compiled_one(_values(rng, 600, dt, 1), [None, wide]) is None


def _chained(a, b, acc):
    """fma's (fma32's) steps of a's and b's rows into acc, one after another, in NumPy."""
    from gradcli.numerics.floats.fma import fma, fma32

    with native.numpy_only(), np.errstate(all="ignore"):
        for x, y in zip(a, b):
            acc = fma32(x.astype(np.float64), y, acc) if acc.dtype == F32 else fma(x, y, acc)
    return np.asarray(acc, a.dtype)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_fma_chains_are_the_fused_steps(dt):
    """native_sum_calls.fma_chain (chains of fused steps into accumulators, BatchNorm's
    channels-last sums) gives fma's and fma32's steps one after another, bit for bit,
    infinities and float32 overflow too; a chain with a value the emulation must decide
    (a NaN; for doubles an infinity or overflow too) makes it decline."""
    dt = np.dtype(dt)
    rng = np.random.default_rng(11 + dt.itemsize)
    spread = 6 if dt == F32 else 30
    for steps, width in ((1, 1), (3, 5), (16, 64), (17, 9), (100, 37), (2, 300)):
        a, b = (_values(rng, steps * width, dt, spread).reshape(steps, width) for _ in "ab")
        a[0, 0], b[-1, -1] = -0.0, 0.0  # (signed zeros)
        acc = np.zeros(width, dt)
        assert native_sum_calls.fma_chain(a, b, acc)
        assert acc.tobytes() == _chained(a, b, np.zeros(width, dt)).tobytes()
        for bad in (np.inf, np.nan, 1e30 if dt == F32 else 1e300):
            a2, b2 = a.copy(), b.copy()
            a2[steps // 2, width // 2] = b2[steps // 2, width // 2] = bad
            acc = np.zeros(width, dt)
            if native_sum_calls.fma_chain(a2, b2, acc):
                assert dt == F32 and not np.isnan(bad)
                assert acc.tobytes() == _chained(a2, b2, np.zeros(width, dt)).tobytes()


F32 = np.dtype(np.float32)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_chunk_sums_are_the_channels_last_sums(dt):
    """native_sum_calls.chunk_sums (BatchNorm's channels-last sums in one pass: the plain sum, the
    fused squares of x - mean, the fused (x - mean) * g) gives batch_norm's NumPy steps
    (its chunks' rows stacked, fma_chain or the emulation, the chunks added in float64)
    bit for bit, for chunks of every size (one row, uneven last ones, whole), signed
    zeros and infinities; a step the emulation must decide makes it decline."""
    from gradcli.numerics.floats import batch_norm as bn

    dt = np.dtype(dt)
    rng = np.random.default_rng(5 + dt.itemsize)
    spread = 6 if dt == F32 else 30
    fused = 0
    for rows, cols in ((1, 1), (2, 3), (3, 17), (16, 64), (33, 9), (100, 5)):
        x, g = (_values(rng, rows * cols, dt, spread).reshape(rows, cols) for _ in "xg")
        x[0, 0], g[-1, -1] = -0.0, 0.0
        if rows > 2 and cols > 10:  # (for doubles a step the emulation decides)
            x[1, -1] = np.inf
        m = x.mean(0).astype(dt) if rows < 3 else x[2].copy()  # (some d exactly 0)
        for chunk in sorted({1, 2, (rows + 1) // 2, rows}):
            chunks = [(b, min(rows, b + chunk)) for b in range(0, rows, chunk)]
            for args in ((x,), (x, m), (x, m, g)):
                got = native_sum_calls.chunk_sums(args[0], chunk, *args[1:])
                d = x if len(args) == 1 else x - m
                f = None if len(args) == 1 else d if len(args) == 2 else g
                with native.numpy_only(), np.errstate(all="ignore"):
                    ref = np.zeros(cols)
                    for b, e in chunks:
                        ref = ref + bn._channels_last_sum(
                            d[b:e], None if f is None else f[b:e], whole=True
                        )
                if got is None:
                    assert len(args) > 1  # (the plain sum has no step to decide)
                    continue
                assert got.tobytes() == ref.tobytes() or np.isnan(ref).any()
                fused += len(args) > 1
    assert fused >= 20
    x = np.ones((4, 3), dt)
    x[1, 1] = np.nan
    assert native_sum_calls.chunk_sums(x, 2, x[0], x) is None
