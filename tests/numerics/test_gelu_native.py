"""GELU's emulations (numerics/floats/gelu.py: the tanh form in float32 and float64,
oneDNN's erf form in float32) and SLEEF's float32 expm1 give the same bits with the
compiled kernels loaded (numerics/native_act.py: the forward and backward of the vector
code's blocks in one pass each) as with NumPy only: random values of many sizes (odd
ones leaving vector tails and scalar tails), wide and tiny values, signed zeros,
infinities and NaNs, random bit patterns."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.numerics import native, native_act
from gradcli.numerics.floats import erf_tanh, gelu as gelu_mod, sleef_u10, torch_act

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")

_SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 8.66, -8.67, 1e-30, -1e-40, 3e3, -1e20, 1e38]


def _values(rng, n, dt, spread):
    v = rng.standard_normal(n) * 10.0 ** rng.integers(-spread, spread + 1, n)
    return v.astype(dt)


def _same(g, r):
    assert g.dtype == r.dtype and g.shape == r.shape
    same = g.view(np.uint8).reshape(*g.shape, -1) == r.view(np.uint8).reshape(*r.shape, -1)
    return same.all(-1) | (np.isnan(g) & np.isnan(r))  # (a NaN's payload: NumPy's loops)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_gelu_tanh_native_is_numpys(dt):
    if native.ready(1) is None:
        pytest.skip("the compiled loops are not loaded")
    rng = np.random.default_rng(11 + np.dtype(dt).itemsize)
    sizes = [1, 2, 7, 8, 15, 16, 17, 31, 33, 100, 257, 1000, 4099]
    sizes += [int(rng.integers(1, 3000)) for _ in range(30)]
    for k, n in enumerate(sizes):
        x = _values(rng, n, dt, (0, 1, 3)[k % 3])
        if k % 4 == 1:
            at = rng.integers(0, n, min(n, len(_SPECIAL)))
            x[at] = np.array(_SPECIAL[: at.size], dt)
        g = _values(rng, n, dt, 1)
        shape = (n,) if k % 5 else (1, n)
        x, g = x.reshape(shape), g.reshape(shape)
        with np.errstate(all="ignore"):
            got = [gelu_mod.gelu(x, "tanh"), gelu_mod.gelu_backward(g, x, "tanh")]
            with native.numpy_only():
                ref = [gelu_mod.gelu(x, "tanh"), gelu_mod.gelu_backward(g, x, "tanh")]
        for a, b in zip(got, ref):
            assert _same(a, b).all(), (n, k)


def test_gelu_tanh_kernel_runs():
    """The compiled kernels take plain values (so the comparison above compares them),
    and flag a NaN for NumPy."""
    if native.ready(1) is None:
        pytest.skip("the compiled loops are not loaded")
    x = np.linspace(-9, 9, 4096, dtype=np.float32)
    flagged = []

    def exact(v):
        flagged.append(v.size)
        return gelu_mod._forward(gelu_mod._Vector, v, True)

    out = native.act("gelu_tanh", x.dtype, x, exact=exact)
    assert out is not None and not flagged
    x[5] = np.nan
    out = native.act("gelu_tanh", x.dtype, x, exact=exact)
    assert flagged == [1] and np.isnan(out[5])
    x64 = np.linspace(-20, 20, 4096)
    assert native.act("gelu_tanh", x64.dtype, x64, exact=exact) is not None
    assert flagged == [1]


def test_gelu_kernel_constants_are_the_emulations():
    k, c = native_act.K, sleef_u10._C[np.float32]
    assert (k["r_ln2"], k["l2u"], k["l2l"], k["c1"]) == (c["rln2"], c["l2u"], c["l2l"], c["c1"])
    assert k["exp"] == tuple(c["exp"])
    f = np.float32
    assert k["beta"] == f(gelu_mod._BETA_TANH) and k["kappa"] == f(gelu_mod._KAPPA)
    assert k["kappa3"] == f(3) * f(gelu_mod._KAPPA)
    k, c = native_act.K64, sleef_u10._C[np.float64]
    assert (k["r_ln2"], k["l2u"], k["l2l"], k["c1"]) == (c["rln2"], c["l2u"], c["l2l"], c["c1"])
    assert k["exp"] == tuple(c["exp"])
    assert (k["beta"], k["kappa"]) == (gelu_mod._BETA_TANH, gelu_mod._KAPPA)
    assert k["kappa3"] == 3 * gelu_mod._KAPPA


def test_gelu_erf_kernel_constants_are_the_emulations():
    k = native_act.K
    assert (k["ln_flt_min"], k["ln_flt_max"]) == (erf_tanh._LN_FLT_MIN, erf_tanh._LN_FLT_MAX)
    assert (k["log2e"], k["ln2f"]) == (erf_tanh._LOG2E, erf_tanh._LN2F)
    assert k["u20"] == tuple(erf_tanh._U20) and k["erf_a"] == tuple(erf_tanh._AS)
    assert k["sqrt1_2"] == np.float32(gelu_mod._SQRT1_2)
    assert k["inv_sqrt_pi"] == gelu_mod._INV_SQRT_PI


def _erf_pair(x, g):
    with np.errstate(all="ignore"):
        got = [gelu_mod.onednn_gelu_erf(x), gelu_mod.onednn_gelu_erf_backward(g, x)]
        with native.numpy_only():
            ref = [gelu_mod.onednn_gelu_erf(x), gelu_mod.onednn_gelu_erf_backward(g, x)]
    return got, ref


def test_gelu_erf_native_is_numpys():
    """oneDNN's float32 GELU-erf (gelu.onednn_gelu_erf and its backward): the compiled
    kernels' bits are the emulation's on random values of many sizes and spreads, the
    special values, a dense sweep of [-20, 20] (where erf and exp_u20 change branch) and
    random bit patterns (subnormals, NaNs with payloads, infinities)."""
    if native.ready(1) is None:
        pytest.skip("the compiled loops are not loaded")
    rng = np.random.default_rng(23)
    sizes = [1, 2, 7, 8, 9, 16, 17, 33, 257, 4099] + [int(rng.integers(1, 3000)) for _ in range(20)]
    cases = []
    for k, n in enumerate(sizes):
        x = _values(rng, n, np.float32, (0, 1, 3)[k % 3])
        if k % 2:
            at = rng.integers(0, n, min(n, len(_SPECIAL)))
            x[at] = np.array(_SPECIAL[: at.size], np.float32)
        cases.append((x, _values(rng, n, np.float32, 1)))
    x = np.linspace(-20, 20, 200_001, dtype=np.float32)
    cases.append((x, np.ones_like(x)))
    bits = rng.integers(0, 2**32, (2, 200_000), dtype=np.uint64).astype(np.uint32)
    cases.append(tuple(bits.view(np.float32)))
    for x, g in cases:
        got, ref = _erf_pair(x, g)
        for a, b in zip(got, ref):
            assert _same(a, b).all(), x.size


def test_gelu_erf_kernel_runs():
    """The compiled kernels take plain values and flag a NaN for NumPy; float64 has none."""
    if native.ready(1) is None:
        pytest.skip("the compiled loops are not loaded")
    x = np.linspace(-9, 9, 4096, dtype=np.float32)
    flagged = []

    def exact(*v):
        flagged.append(v[0].size)
        return gelu_mod._gelu_erf(v[0]) if len(v) == 1 else gelu_mod._gelu_erf_backward(*v)

    assert native.act("gelu_erf", x.dtype, x, exact=exact) is not None
    assert native.act("gelu_erf_grad", x.dtype, x, x, exact=exact) is not None and not flagged
    x[5] = np.nan
    assert np.isnan(native.act("gelu_erf", x.dtype, x, exact=exact)[5]) and flagged == [1]
    assert native.act("gelu_erf", np.dtype(np.float64), x.astype(np.float64)) is None


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_expm1_native_is_numpys(dt):
    """SLEEF's expm1 (torch.expm1, the ELU kernels' vector function): the compiled
    kernels' bits are the emulation's on a dense sweep across its bounds, the special
    values and random bit patterns, and ELU's with them."""
    if native.ready(1) is None:
        pytest.skip("the compiled loops are not loaded")
    rng = np.random.default_rng(5)
    if dt is np.float32:
        bounds = [88.72283, 88.722832, 88.72284, -16.6355, -16.635532, -16.6356, 1e-45, -1e-45]
        bits = rng.integers(0, 2**32, 300_000, dtype=np.uint64).astype(np.uint32).view(dt)
        sweep = np.linspace(-20, 90, 300_001, dtype=dt)
    else:
        bounds = [709.7827128933839, 709.782712893384, 709.78271289338411, -36.7368005696771]
        bounds += [-36.73680056967711, -36.7368005696772, 5e-324, -5e-324]
        bits = rng.integers(0, 2**63, 300_000, dtype=np.uint64)
        bits = (bits | (rng.integers(0, 2, 300_000, dtype=np.uint64) << np.uint64(63))).view(dt)
        sweep = np.linspace(-40, 712, 300_001, dtype=dt)
    cases = [sweep, bits, np.array(_SPECIAL + bounds, dt)]
    for x in cases:
        with np.errstate(all="ignore"):
            got = [torch_act.expm1(x), torch_act.elu(x, 0.3), torch_act.elu(x, 1.0, 1.05, 1.0)]
            with native.numpy_only():
                ref = [torch_act.expm1(x), torch_act.elu(x, 0.3), torch_act.elu(x, 1.0, 1.05, 1.0)]
        for a, b in zip(got, ref):
            assert _same(a, b).all(), x.size
    assert native.act("expm1", np.dtype(np.float16), np.zeros(9, np.float16)) is None


def test_mish_native_is_numpys():
    """mish's float32 kernels (ops/activation_smooth.py: x * tanh(log1p(exp(x))) and its
    gradient on the vector blocks): the compiled ones' bits are the emulation's on a
    dense sweep, the special values (exp's overflow, log1p's flagged lanes) and random bit
    patterns."""
    from gradcli.ops import activation_smooth

    if native.ready(1) is None:
        pytest.skip("the compiled loops are not loaded")
    rng = np.random.default_rng(9)
    cases = [
        np.linspace(-100, 100, 200_001, dtype=np.float32),
        rng.integers(0, 2**32, 200_000, dtype=np.uint64).astype(np.uint32).view(np.float32),
        np.array(_SPECIAL + [88.7, 88.8, -88.0, -104.0, 9.0, 20.0] * 3, np.float32),
    ]
    for x in cases:
        g = _values(rng, x.size, np.float32, 1)
        with np.errstate(all="ignore"):
            got = [activation_smooth._mish(x), activation_smooth.mish_backward(g, x)]
            with native.numpy_only():
                ref = [activation_smooth._mish(x), activation_smooth.mish_backward(g, x)]
        for a, b in zip(got, ref):
            assert _same(a, b).all(), x.size


def test_gelu_erf_float64_native_is_numpys():
    """GELU's erf form in float64 (GeluKernelImpl's vector code with SLEEF's erf_u10 and
    exp, gelu._forward and _backward): the compiled kernels' bits are the emulation's on
    a dense sweep (erf's branch at 2.5, its bound at 6, the tiny values' slope), normal
    values, special values and random bit patterns."""
    if native.ready(1) is None:
        pytest.skip("the compiled loops are not loaded")
    rng = np.random.default_rng(17)
    bits = rng.integers(0, 2**63, 200_000, dtype=np.uint64)
    bits = (bits | (rng.integers(0, 2, 200_000, dtype=np.uint64) << np.uint64(63))).view(np.float64)
    edges = [3.5355339059327378, 3.535533905932738, 8.48528137423857, 1.4e-8, 1.5e-8, 40.0]
    cases = [
        np.linspace(-12, 12, 300_001),
        rng.standard_normal(20_003) * 3,
        bits,
        np.array(_SPECIAL + edges + [-v for v in edges], np.float64),
    ]
    for x in cases:
        g = rng.standard_normal(x.size)
        with np.errstate(all="ignore"):
            got = [gelu_mod.gelu(x, "none"), gelu_mod.gelu_backward(g, x, "none")]
            with native.numpy_only():
                ref = [gelu_mod.gelu(x, "none"), gelu_mod.gelu_backward(g, x, "none")]
        for a, b in zip(got, ref):
            assert _same(a, b).all(), x.size
    k = native_act.K64
    assert k["erf_small"] == tuple(erf_tanh._ERF_SMALL)
    assert k["erf_large"] == tuple(erf_tanh._ERF_LARGE)
    assert k["erf_dd_small"] == tuple(erf_tanh._ERF_DD_SMALL)
    assert k["erf_dd_large"] == tuple(erf_tanh._ERF_DD_LARGE)
    assert (k["sqrt1_2"], k["beta_erf"]) == (gelu_mod._SQRT1_2, gelu_mod._BETA_ERF)
