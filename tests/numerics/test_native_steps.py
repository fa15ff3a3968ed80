"""The compiled steps around small arrays give NumPy's bits: Adam's running averages in
one loop (numerics/native_steps.py) against optim.py's `lerp` and `squares_avg` with
the emulation only, and the fused step of a few values (`native.quick`) against
fma.py's emulation, on values across the float range, both forms of the lerp, NaNs
and infinities (which go to NumPy), operands of each kind `quick` takes."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.library import optim
from gradcli.numerics import native, native_optim
from gradcli.numerics.floats import fma as fm

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")


def _same(got, ref):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    diff = np.count_nonzero(got.reshape(-1).view(np.uint8) != ref.reshape(-1).view(np.uint8))
    assert diff == 0, f"{diff} bytes of {got.size} values differ"


def _values(rng, n, dt, spread=30):
    v = rng.standard_normal(n) * 10.0 ** rng.integers(-spread, spread, n)
    with np.errstate(over="ignore"):
        return v.astype(dt)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("w", [0.1, 1e-3, 0.5, 0.75])
def test_running_averages_are_numpys(dt, w):
    rng = np.random.default_rng(int(w * 1000) + (dt is np.float32))
    computed = 0
    for beta2 in (0.999, 0.9, 0.3):
        for n in (1, 3, 20, 257, 5000):
            g, avg = _values(rng, n, dt), _values(rng, n, dt)
            sq = np.abs(_values(rng, n, dt))
            if n > 3:  # cancelling sums: avg near g, squares near zero
                avg[::3] = g[::3] * dt(1 + 1e-6)
                sq[1::4] = dt(0)
            shape = (n // 5, 5) if n % 5 == 0 else (n,)
            g, avg, sq = (x.reshape(shape) for x in (g, avg, sq))
            got = native_optim.moments(avg, sq, g, w, beta2)
            with native.numpy_only(), np.errstate(all="ignore"):
                ref = (optim.lerp(avg, g, w, dt), optim.squares_avg(sq, g, beta2, dt))
            if got is not None:
                computed += 1
                _same(got[0], ref[0])
                _same(got[1], ref[1])
    assert computed >= 10  # (most calls are the loop's: only NaNs and infinities are not)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_nans_go_to_numpy_and_infinities_are_numpys(dt):
    g = np.array([1.0, np.nan, 2.0, 3.0], dt)
    avg, sq = np.ones(4, dt), np.ones(4, dt)
    assert native_optim.moments(avg, sq, g, 0.1, 0.999) is None
    for v in (np.inf, -np.inf):
        g[1] = v
        got = native_optim.moments(avg, sq, g, 0.1, 0.999)
        with native.numpy_only(), np.errstate(all="ignore"):
            ref = (optim.lerp(avg, g, 0.1, dt), optim.squares_avg(sq, g, 0.999, dt))
        if got is not None:
            _same(got[0], ref[0])
            _same(got[1], ref[1])


def test_arrays_it_does_not_take():
    g = np.ones((4, 3))
    assert native_optim.moments(np.ones((4, 3), np.float32), np.ones((4, 3)), g, 0.1, 0.9) is None
    assert native_optim.moments(np.ones((3, 4)).T, np.ones((4, 3)), g, 0.1, 0.9) is None
    assert native_optim.moments(np.ones(12), np.ones(12), g, 0.1, 0.9) is None
    assert native_optim.moments(np.ones((4, 3), int), np.ones((4, 3), int), g, 0.1, 0.9) is None


def _both(fn, *args):
    with np.errstate(all="ignore"):
        got = fn(*args)
        with native.numpy_only():
            ref = fn(*args)
    return got, ref


@pytest.mark.parametrize("n", [1, 2, 7, 20, 300])
def test_small_fused_steps_are_the_emulations(n):
    """(Values within a few decades of each other: the double emulation is not the
    correctly rounded step where the exact value lies within about 2^-100 of a rounding
    boundary, a product on a midpoint with an addend 30 decades below it, where the
    compiled loop, the hardware's, is; tests/numerics/test_native.py's `fma` tests.)"""
    rng = np.random.default_rng(n)
    for dt in (np.float32, np.float64):
        a, b, c = (_values(rng, n, dt, 3) for _ in range(3))
        for args in (
            (a, b, c),
            (dt(0.1), b, c),
            (a, dt(1.5), c),
            (a, b, 0.25),
            (a[:1], b, c),
            (a.reshape(1, n), b.reshape(1, n), c[:1]),
            (np.asarray(dt(3)), np.asarray(dt(-2)), np.asarray(dt(6))),
        ):
            _same(*_both(fm.fma, *args, dt))
        a64 = a.astype(np.float64)
        for args in ((a64, b, c), (a64, np.float32(1.5), c), (a64, b, np.float64(0.1))):
            if dt is np.float32:
                _same(*_both(fm.fma32, *args))
        # a float32 `a` is taken as its doubles (kept alive through the call)
        if dt is np.float32:
            _same(*_both(fm.fma, -np.sign(a), b, c, dt))


def test_many_scalars_and_signed_zeros():
    """More distinct scalar operands than `quick` keeps (its store emptied mid-step:
    the step's own operands held through the call), and -0.0 beside 0.0."""
    b = np.array(-15347.69976769)
    for k in range(600):
        c = np.float64(k * 1.37 - 300.0)
        _same(*_both(fm.fma, np.float64(1.0), b, c))
    z = np.zeros(3)
    for args in ((0.0, z, 0.0), (-0.0, z, -0.0), (0.0, z, -0.0), (-0.0, -z, -0.0)):
        _same(*_both(fm.fma, *args))


def test_the_exp_kernel_on_values_beyond_its_range():
    """expd's fused steps take no flag (native_sleef.expd): values far beyond the range,
    whose steps overflow, come out as the emulation's (inf above 709.78, 0 below -1000)."""
    from gradcli.numerics.floats import torch_exp

    rng = np.random.default_rng(7)
    big = 10.0 ** rng.uniform(3, 308, 4000)
    x = np.concatenate([big, -big, [np.finfo(np.float64).max, -np.finfo(np.float64).max]])
    x = np.concatenate([x, rng.uniform(-1000.5, -999.5, 64), rng.uniform(709, 710.5, 64)])
    got = native.unary(native._state["lib"], "expd", x)
    assert got is not None
    with native.numpy_only(), np.errstate(all="ignore"):
        ref = torch_exp.expd(x)
    _same(got, ref)


def test_the_log_kernel_next_to_one_and_at_the_ends():
    """logd's fused steps take no flag (native_sleef.logd): values a few ulps from 1 (the
    smallest nonzero m - 1), from 0.75 and 1.5 (where the exponent is taken), subnormals
    and the largest doubles come out as the emulation's."""
    from gradcli.numerics.floats import sleef_u10

    k = np.arange(1, 2001, dtype=np.float64)
    x = np.concatenate(
        [
            1.0 + k * 2.0**-52,
            1.0 - k * 2.0**-53,
            0.75 + (k - 1000) * 2.0**-53,
            1.5 + (k - 1000) * 2.0**-52,
            k * 5e-324,
            np.finfo(np.float64).max * (1 - k * 2.0**-53),
        ]
    )
    got = native.unary(native._state["lib"], "logd", x)
    assert got is not None
    with native.numpy_only(), np.errstate(all="ignore"):
        ref = sleef_u10.sleef_log(x)
    _same(got, ref)


def _adam_options(lr, eps, wd, amsgrad, decoupled):
    o = {"betas": (0.9, 0.999), "lr": lr, "eps": eps, "weight_decay": wd, "amsgrad": amsgrad}
    o["decoupled_weight_decay"] = decoupled
    return o


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("lr, eps, wd", [(1e-3, 1e-8, 0), (0.05, 1e-6, 0.01), (3.0, 0.5, 0)])
@pytest.mark.parametrize("amsgrad, decoupled", [(False, False), (True, False), (True, True)])
def test_adams_whole_step_is_numpys(dt, lr, eps, wd, amsgrad, decoupled):
    """Adam.update (AMSGrad's, AdamW's) with the compiled whole step against the same
    update with NumPy's steps only (the emulation's moments, MKL's or NumPy's sqrt), step
    after step, on sizes of one call (MKL's sqrt called from the loop) and of three."""
    rng = np.random.default_rng(int(lr * 1000) + (dt is np.float32))
    adam = optim.Adam.__new__(optim.Adam)
    o = _adam_options(lr, eps, wd, amsgrad, decoupled)
    for n in (1, 20, 257, 1023, 1024, 5000):
        p = _values(rng, n, dt, 4).reshape(-1)
        st_native, st_numpy = {}, {}
        for step in range(6):
            g = _values(rng, n, dt, 6)
            if step == 3:
                g[::7] = dt(0)
            if st_native:  # (the loop takes these, so the update below is its)
                args = (st_native["exp_avg"], st_native["exp_avg_sq"], g, p, 0.1, 0.999)
                assert native_optim.adam(*args, dt(1), dt(eps), dt(-lr), optim.sqrt) is not None
            got = adam.update(st_native, p, g, o, dt)
            with native.numpy_only(), np.errstate(all="ignore"):
                ref = adam.update(st_numpy, p, g, o, dt)
            _same(got, ref)
            _same(st_native["exp_avg"], st_numpy["exp_avg"])
            _same(st_native["exp_avg_sq"], st_numpy["exp_avg_sq"])
            if amsgrad:
                _same(st_native["max_exp_avg_sq"], st_numpy["max_exp_avg_sq"])
            p = got


def _bit_patterns(rng, n, dt):
    """Random bit patterns of dt (NaNs, infinities, subnormals of both signs among them),
    with signed zeros, infinities, NaNs and subnormals put in."""
    it = np.uint32 if dt is np.float32 else np.uint64
    x = rng.integers(0, np.iinfo(it).max, n, dtype=it, endpoint=True).view(dt)
    tiny = np.finfo(dt).smallest_subnormal
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan], dt)
    x[: n // 3 : 5] = rng.choice(special, len(x[: n // 3 : 5]))
    x[1 : n // 2 : 7] = tiny * rng.integers(-1000, 1000, len(x[1 : n // 2 : 7]))
    return x


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("amsgrad", [False, True])
def test_adams_whole_step_on_bit_patterns(dt, amsgrad):
    """Whatever the values (random bit patterns: NaNs, infinities, subnormals, signed
    zeros), the compiled step gives NumPy's bits (or hands the step to NumPy); and on
    ordinary values with a few zeros it is the loop's."""
    rng = np.random.default_rng(11 + amsgrad + 2 * (dt is np.float32))
    adam = optim.Adam.__new__(optim.Adam)
    o = _adam_options(0.01, 1e-8, 0, amsgrad, False)
    taken = 0
    for trial in range(40):
        n = int(rng.integers(1, 600))
        wild = trial % 2 == 0
        p, g, avg, sq, most = (
            _bit_patterns(rng, n, dt) if wild else _values(rng, n, dt, 4) for _ in range(5)
        )
        if not wild:  # (the parameter's values still any bits: no flag looks at them)
            p = _bit_patterns(rng, n, dt)
            sq, most = np.abs(sq), np.abs(most)
            sq[::5], most[::3] = dt(0), dt(0)
        states = []
        for _ in range(2):
            st = {"step": float(trial % 5), "exp_avg": avg.copy(), "exp_avg_sq": sq.copy()}
            if amsgrad:
                st["max_exp_avg_sq"] = most.copy()
            states.append(st)
        step = trial % 5 + 1  # (Adam.update's constants of this step)
        c, value = dt((1 - 0.999**step) ** 0.5), dt(-(0.01 / (1 - 0.9**step)))
        args = (avg, sq, g, p, 1 - 0.9, 0.999, c, dt(1e-8), value, optim.sqrt)
        got_now = native_optim.adam(*args, most if amsgrad else None)
        taken += got_now is not None
        with np.errstate(all="ignore"):
            got = adam.update(states[0], p, g, o, dt)
            with native.numpy_only():
                ref = adam.update(states[1], p, g, o, dt)
        _same(got, ref)
        for key in states[1]:
            if key != "step":
                _same(states[0][key], states[1][key])
        if got_now is not None:
            _same(got_now[2], ref)
    assert taken >= 15


def test_adams_whole_step_takes_only_its_arrays():
    g = np.ones(4)
    args = (0.1, 0.999, 1.0, 1e-8, -0.01, optim.sqrt)
    assert native_optim.adam(np.ones(4), np.ones(4), g, np.ones(4, np.float32), *args) is None
    assert native_optim.adam(np.ones(4), np.ones(4), g, np.ones(5), *args) is None
    assert native_optim.adam(np.ones(4), np.ones(4), g, np.ones(8)[::2], *args) is None
    assert (
        native_optim.adam(np.ones(4), np.ones(4), np.array([1.0, np.nan, 1, 1]), g, *args) is None
    )


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_broadcast_and_strided_operands_are_walked(dt):
    """Operands broadcast from fewer or one-sized dims, and strided views (transposed,
    sliced, reversed, broadcast_to's zero strides), are walked in up to three dims by
    `quick` itself (not declined) and give the emulation's bits; dims that do not fold
    into three are declined (the general step takes them)."""
    rng = np.random.default_rng(11 + (dt is np.float32))
    kind = "fma32" if dt is np.float32 else "fma64"
    x = _values(rng, 6 * 9, dt, 3).reshape(6, 9)
    col = _values(rng, 9, dt, 3)
    row = _values(rng, 6, dt, 3).reshape(6, 1)
    cases = (
        (x, col, col.reshape(1, 9)),  # a per-channel scale and shift (BatchNorm's)
        (x, row, dt(0.5)),
        (col, row, x),  # the result's shape from all three
        (x.T, col.reshape(9, 1), row.T),  # a transposed operand
        (x[:, :8:2], col[:8:2], x[:, 1::2]),  # sliced columns
        (x[::-1], np.broadcast_to(col, (6, 9)), x),  # reversed rows, zero strides
        (x.reshape(2, 3, 9), col, x.reshape(2, 3, 9)),  # leading dims folded
        (x[:1], col, x),  # a one-sized dim of an operand of more than one value
        (x.reshape(2, 3, 9), row[:3].reshape(1, 3, 1), dt(0.25)),  # (N, C, L): per channel
        (x.reshape(2, 3, 9)[:, ::-1], col, row[:3].reshape(1, 3, 1)),
    )
    for a, b, c in cases:
        a64 = a.astype(np.float64) if dt is np.float32 else a
        got = native.quick(kind, a64, b, c)
        assert got is not None
        with native.numpy_only():
            ref = fm.fma(a64, b, c, dt)
        _same(got, ref)
        _same(*_both(fm.fma, a, b, c, dt))
    # four dims that do not fold, and shapes that do not broadcast: declined
    cube = _values(rng, 2 * 3 * 4 * 5, dt, 3).reshape(2, 3, 4, 5)
    assert native.quick(kind, cube, _values(rng, 12, dt, 3).reshape(3, 1, 4, 1), cube) is None
    assert native.quick(kind, x, _values(rng, 6, dt, 3), x) is None
    # an empty step
    e = np.zeros((0, 9), dt)
    got = native.quick(kind, e.astype(np.float64), col, e)
    assert got is not None and got.shape == (0, 9)
