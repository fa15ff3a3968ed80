"""The compiled SLEEF kernels (numerics/native_sleef.py, native_sleef32.py) flag the values
their NumPy emulation might compute differently (NaN, infinities, subnormals, results
the fused step cannot split); native.unary computes those values alone with the
emulation and keeps the kernel's results for the others.  Arrays mixing flagged and
ordinary values, in both dtypes and in lengths that leave values after the last whole
vector, give the pure emulation's bits value by value."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.numerics import native
from gradcli.numerics.floats import sleef_explog, sleef_u10, torch_exp

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")

#: kernel: (public function, its dtype)
KERNELS = {
    "expf": (sleef_explog.expf, np.float32),
    "logf": (sleef_explog.logf, np.float32),
    "log1pf": (sleef_u10.sleef_log1p, np.float32),
    "expd": (torch_exp.expd, np.float64),
    "logd": (sleef_u10.sleef_log, np.float64),
    "log1pd": (sleef_u10.sleef_log1p, np.float64),
}


def _specials(dt):
    fi = np.finfo(dt)  # (the float64 values beyond float32's range become infinities)
    sub = float(fi.smallest_subnormal)
    tiny = float(fi.tiny)
    big = float(fi.max)
    with np.errstate(over="ignore"):
        return np.array(
            [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, sub, -sub, sub * 7, tiny, -tiny,
             tiny * 0.5, big, -big, big * 0.5, 1e38, 1.0000001e38, 1e300, -1.0, -0.9999999,
             -1.0000001, 1e-30, -1e-30, 1e-40, 2.0**-24, 88.72, 100.1, -104.0, 709.8, -745.2,
             -1100.0],
            dtype=dt,
        )  # fmt: skip


def _ordinary(rng, kind, n, dt):
    if kind.startswith("exp"):
        x = rng.standard_normal(n) * 10
    elif kind.startswith("log1p"):
        # log1p(exp(-|z|)): the tiny values of a long training run among ordinary ones
        x = np.exp(-np.abs(rng.standard_normal(n) * 40))
        x[: n // 2] = rng.uniform(-0.9, 5.0, n // 2)
    else:
        x = np.exp2(rng.uniform(-20, 20, n))
    return x.astype(dt)


def _same(got, ref):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    u = np.uint32 if got.dtype == np.float32 else np.uint64
    diff = np.flatnonzero(got.view(u) != ref.view(u))
    assert diff.size == 0, f"{diff.size} of {got.size} values differ, first at {diff[:5]}"


@pytest.mark.parametrize("n", [4099, 64, 13, 3])
@pytest.mark.parametrize("kind", list(KERNELS))
def test_flagged_values_among_ordinary_ones_are_the_emulations(kind, n):
    fn, dt = KERNELS[kind]
    rng = np.random.default_rng(n + len(kind))
    special = _specials(dt)
    x = _ordinary(rng, kind, n, dt)
    at = rng.choice(n, size=min(n, max(1, n // 50)), replace=False)
    x[at] = rng.choice(special, at.size)
    x[at[0]] = np.nan
    if n > 64:  # every special value, some in the values after the last whole vector
        x[-len(special) :] = special[::-1]
        x[100 : 100 + len(special)] = special
    lib = native._state["lib"] if native.ready(n) else None
    assert lib
    assert native.unary(lib, kind, x) is None  # (the kernel flags some of them)
    with np.errstate(all="ignore"):
        got = fn(x)
        with native.numpy_only():
            ref = fn(x)
    _same(got, ref)
    # a 2-d array, and every value alone
    with np.errstate(all="ignore"):
        y = x[: n - n % 2].reshape(2, -1)
        got2 = fn(y)
        with native.numpy_only():
            _same(got2, fn(y))
            ref1 = np.concatenate([fn(x[i : i + 1]) for i in range(min(n, 200))])
            # 0-d arrays (NumPy's fused steps of 0-d operands are exact), NaN and values
            # beyond log1p's core approximation among them
            zero_d = [np.asarray(v) for v in x[:200]]
            ref0 = [fn(v) for v in zero_d]
        got0 = [fn(v) for v in zero_d]
    _same(got[:200], ref1)
    for g, r in zip(got0, ref0):
        _same(g, r)
    if kind[:5] == "log1p":  # no fused step a 0-d operand changes: the same as in an array
        _same(np.array([float(r) for r in ref0], dt), ref1)


@pytest.mark.parametrize("kind", list(KERNELS))
def test_only_the_flagged_values_are_recomputed(kind):
    """native.unary calls the emulation on the flagged values alone."""
    fn, dt = KERNELS[kind]
    x = np.random.default_rng(5).uniform(0.5, 3.0, 1000).astype(dt)
    x[[3, 500, 997]] = np.nan
    seen = []

    def exact(v):
        seen.append(v.copy())
        with native.numpy_only(), np.errstate(all="ignore"):
            return fn(v)

    assert native.ready(x.size)
    got = native.unary(native._state["lib"], kind, x, exact)
    assert len(seen) == 1 and seen[0].size == 3 and np.isnan(seen[0]).all()
    with native.numpy_only(), np.errstate(all="ignore"):
        _same(got, fn(x))
