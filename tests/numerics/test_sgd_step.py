"""SGD's step with weight decay or momentum in one compiled call (native_optim.sgd,
numerics/native_steps.py's sgd_step_ir) gives the bits of SGD.update's NumPy steps (each
`add_` a fused step of the dtype, the emulation's): on ordinary values step after step
with every option, and on random bit patterns (NaNs, infinities, subnormals, signed
zeros: the step hands such values to NumPy)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.library import optim
from gradcli.numerics import native, native_optim

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")

OPTIONS = [
    {"weight_decay": 1e-3},
    {"momentum": 0.9},
    {"momentum": 0.9, "weight_decay": 0.01},
    {"momentum": 0.8, "nesterov": True, "weight_decay": 5e-4},
    {"momentum": 0.7, "dampening": 0.3},
    {"momentum": 0.9, "nesterov": True},
    {"momentum": 1e-50, "weight_decay": 1e-50},  # (zero in float32: still the steps)
]


def _same(got, ref):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    diff = np.count_nonzero(got.reshape(-1).view(np.uint8) != ref.reshape(-1).view(np.uint8))
    assert diff == 0, f"{diff} bytes of {got.size} values differ"


def _group(**opts):
    o = {"lr": 0.05, "momentum": 0, "dampening": 0, "weight_decay": 0, "nesterov": False}
    o.update(opts)
    return o


def _values(rng, n, dt, spread):
    v = rng.standard_normal(n) * 10.0 ** rng.integers(-spread, spread, n)
    with np.errstate(over="ignore"):
        return v.astype(dt)


def _bit_patterns(rng, n, dt):
    it = np.uint32 if dt is np.float32 else np.uint64
    x = rng.integers(0, np.iinfo(it).max, n, dtype=it, endpoint=True).view(dt)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan], dt)
    x[::5] = rng.choice(special, len(x[::5]))
    x[1::7] = np.finfo(dt).smallest_subnormal * rng.integers(-1000, 1000, len(x[1::7]))
    return x


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_sgd_step_is_numpys(dt, opts):
    """SGD.update with the compiled step against the same update with NumPy's steps only,
    six steps (the momentum buffer's first and later ones), sizes 1 to 5000 (2-D too)."""
    rng = np.random.default_rng(len(str(opts)) + (dt is np.float32))
    sgd = optim.SGD.__new__(optim.SGD)
    o = _group(**opts)
    taken = 0
    for n in (1, 3, 20, 257, 5000):
        shape = (n // 5, 5) if n % 5 == 0 else (n,)
        p = _values(rng, n, dt, 4).reshape(shape)
        st_native, st_numpy = {}, {}
        for step in range(6):
            g = _values(rng, n, dt, 6).reshape(shape)
            if step == 3:
                g.reshape(-1)[::7] = dt(0)
                g.reshape(-1)[1::7] = dt(-0.0)
            buf = st_native.get("momentum_buffer")
            k4 = (dt(o["weight_decay"]), dt(o["momentum"]), dt(1 - o["dampening"]), dt(-o["lr"]))
            now = native_optim.sgd(p, g, buf, k4, o["weight_decay"], o["momentum"], o["nesterov"])
            taken += now is not None
            got = sgd.update(st_native, p, g, o, dt)
            with native.numpy_only(), np.errstate(all="ignore"):
                ref = sgd.update(st_numpy, p, g, o, dt)
            _same(got, ref)
            assert st_native.keys() == st_numpy.keys()
            if "momentum_buffer" in st_numpy:
                _same(st_native["momentum_buffer"], st_numpy["momentum_buffer"])
            p = got
    assert taken >= 25  # (the compiled call's, not NumPy's, but where a value is flagged)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("opts", OPTIONS[:4], ids=["wd", "m", "m_wd", "nesterov_wd"])
def test_sgd_step_on_bit_patterns(dt, opts):
    """Whatever the values, the compiled step gives NumPy's bits or hands the step over."""
    rng = np.random.default_rng(7 + len(opts) + (dt is np.float32))
    sgd = optim.SGD.__new__(optim.SGD)
    o = _group(**opts)
    for trial in range(30):
        n = int(rng.integers(1, 400))
        p, g, buf = (_bit_patterns(rng, n, dt) for _ in range(3))
        if trial % 2:  # (ordinary gradients and buffers: most steps the loop's)
            g, buf = _values(rng, n, dt, 4), _values(rng, n, dt, 4)
        states = [{"momentum_buffer": buf.copy()} if o["momentum"] else {} for _ in range(2)]
        with np.errstate(all="ignore"):
            got = sgd.update(states[0], p, g, o, dt)
            with native.numpy_only():
                ref = sgd.update(states[1], p, g, o, dt)
        _same(got, ref)
        for key in states[1]:
            _same(states[0][key], states[1][key])


def test_sgd_step_takes_only_its_arrays():
    k4 = (0.01, 0.9, 1.0, -0.1)
    one = np.ones(4)
    assert native_optim.sgd(one, np.ones(4, np.float32), None, k4, 1, 0.9, False) is None
    assert native_optim.sgd(one, np.ones(5), None, k4, 1, 0.9, False) is None
    assert native_optim.sgd(one, np.ones(8)[::2], None, k4, 1, 0.9, False) is None
    assert native_optim.sgd(one, one, np.ones(3), k4, 1, 0.9, False) is None
    assert native_optim.sgd(one, np.array([1.0, np.nan, 1, 1]), None, k4, 1, 0, False) is None
    got = native_optim.sgd(one, one, None, k4, 1, 0.9, False)
    assert got is not None and got[1] is not None
