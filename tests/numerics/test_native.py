"""The compiled fused multiply-add (numerics/native.py) gives the NumPy emulation's bits:
the primitive on random bit patterns and edge values (NaN, infinities, subnormals,
signed zeros, the emulation's split bounds, cancelling sums, float32 midpoints), and
every SLEEF kernel built on it computed both ways.  GRADCLI_NATIVE_VALUES sets the
number of values per case (a million for a thorough run)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from gradcli.numerics import native
from gradcli.numerics.floats import fma as fm
from gradcli.numerics.floats import (
    sleef_exp2,
    sleef_explog,
    sleef_pow,
    sleef_powd,
    sleef_u10,
    softmax64,
    torch_act,
    torch_exp,
)

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")

N = int(os.environ.get("GRADCLI_NATIVE_VALUES", "100000"))
SPECIAL = np.array(
    [
        0.0,
        -0.0,
        np.inf,
        -np.inf,
        np.nan,
        -np.nan,
        5e-324,
        -5e-324,
        2.2250738585072014e-308,
        1.7976931348623157e308,
        -1.7976931348623157e308,
        1.0,
        -1.0,
        2.0**990,
        2.0**991,
        -(2.0**995),
        2.0**-900,
        2.0**-901,
        3.4028234663852886e38,
        1e-310,
        2.0**-537,
        2.0**537,
        1.401298464324817e-45,
        1.1754943508222875e-38,
        88.72283935546875,
        -103.97208404541016,
        709.782712893384,
        -745.1332191019411,
    ]
)


def _values(rng, n, dtype):
    """Normal values over a wide range of exponents, raw bit patterns (NaN payloads,
    subnormals) and the special values, mixed."""
    with np.errstate(all="ignore"):
        x = rng.standard_normal(n) * np.exp2(rng.integers(-80, 80, n))
        if dtype == np.float64:
            bits = rng.integers(0, 2**64, n, dtype=np.uint64).view(np.float64)
        else:
            bits = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(np.float32)
        x = np.where(rng.random(n) < 0.15, bits.astype(np.float64), x)
        pick = rng.random(n) < 0.1
        x[pick] = rng.choice(SPECIAL, int(pick.sum()))
        return x.astype(dtype)


def _same(got, ref):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    u = {8: np.uint64, 4: np.uint32}[got.dtype.itemsize]
    diff = np.count_nonzero(got.view(u) != ref.view(u))
    assert diff == 0, f"{diff} of {got.size} values differ"


def _both(fn, *args):
    """(fn's result with the compiled loops, fn's result with NumPy's emulation only)."""
    with np.errstate(all="ignore"):
        got = fn(*args)
        with native.numpy_only():
            ref = fn(*args)
    return got, ref


@pytest.mark.parametrize("seed", range(3))
def test_fma64_is_the_emulation(seed):
    rng = np.random.default_rng(seed)
    a, b, c = (_values(rng, N, np.float64) for _ in range(3))
    cancel = rng.random(N) < 0.1
    with np.errstate(all="ignore"):
        c[cancel] = -(a[cancel] * b[cancel])  # sums that cancel to 0 or to the product's error
    m = N // 1000 * 1000
    for args in (
        (a, b, c),
        (a, 1.5, c),
        (a, b, 0.25),
        (a, -0.0, -0.0),
        (a[:m].reshape(-1, 1000), b[:1000], c[:m].reshape(-1, 1000)),
        (a[::2], b[1::2], c[::2]),
        (a, fm.Split(b), c),
        (fm.Split(a), fm.Split(b), c),
    ):
        _same(*_both(fm.fma, *args))


@pytest.mark.parametrize("seed", range(3))
def test_fma32_is_the_emulation(seed):
    rng = np.random.default_rng(100 + seed)
    a, b, c = (_values(rng, N, np.float32) for _ in range(3))
    near = rng.random(N) < 0.3
    with np.errstate(all="ignore"):
        c[near] = (-(a[near].astype(np.float64) * b[near])).astype(np.float32)
    a64 = a.astype(np.float64)
    m = N // 1000 * 1000
    for args in (
        (a64, b, c),
        (a64, np.float32(1.5), c),
        (a64, b, np.float32(0.1)),
        (a64, b, c.astype(np.float64) + 1e-9),  # a double addend: the sum's midpoints
        (a64, b.astype(np.float64), c),
        (a64[:m].reshape(-1, 1000), b[:1000], c[:m].reshape(-1, 1000)),
    ):
        _same(*_both(fm.fma32, *args))


def test_midpoints_and_nans_go_to_the_emulation():
    """Sums on a float32 midpoint (corrected by the exact error, in the loop as in the
    emulation) and NaNs from two NaN operands (whose sign and payload NumPy's loops
    choose: the emulation's) come out as NumPy's."""
    a = np.ones(10000)
    a[::2] = -1.0
    c = a * (2.0**-24 + 2.0**-70)
    # 1 + 2^-24 + 2^-70 rounds to the midpoint 1 + 2^-24 in double; its exact error moves
    # it up: 1 + 2^-23 (without the correction: 1, to even); the same below -1
    got, ref = _both(fm.fma32, a, np.float32(1.0), c)
    _same(got, ref)
    assert got[1] == np.float32(1.0 + 2.0**-23) and got[0] == -got[1]
    nans = np.full(10000, np.nan)
    nans[::3] = -np.nan
    _same(*_both(fm.fma32, nans, np.float32(np.inf), -nans.astype(np.float32)))
    _same(*_both(fm.fma, nans, 0.0, -nans))
    _same(*_both(fm.fma, np.full(10000, np.inf), 0.0, nans))


def _kernel_cases():
    yield "expf", sleef_explog.expf, (np.float32,)
    yield "logf", sleef_explog.logf, (np.float32,)
    yield "expd", torch_exp.expd, (np.float64,)
    yield "exp2f", sleef_exp2.exp2f, (np.float32,)
    yield "exp2d", sleef_exp2.exp2d, (np.float64,)
    for t in (np.float32, np.float64):
        yield f"expm1_{t.__name__}", sleef_u10.sleef_expm1, (t,)
        yield f"log1p_{t.__name__}", sleef_u10.sleef_log1p, (t,)
        yield f"sinh_{t.__name__}", sleef_u10.sleef_sinh, (t,)
        yield f"cosh_{t.__name__}", sleef_u10.sleef_cosh, (t,)
        yield f"log_{t.__name__}", sleef_u10.sleef_log, (t,)
        yield f"log_sigmoid_{t.__name__}", torch_act.log_sigmoid, (t,)
        yield f"sigmoid_{t.__name__}", torch_exp.sigmoid, (t,)
    yield "powf", sleef_pow.sleef_powf, (np.float32, np.float32)
    yield "powd", sleef_powd.sleef_powd, (np.float64, np.float64)


@pytest.mark.parametrize("name,fn,dtypes", list(_kernel_cases()), ids=lambda v: str(v))
def test_sleef_kernels_are_the_same_both_ways(name, fn, dtypes):
    rng = np.random.default_rng(abs(hash(name)) % 2**32)
    n = max(N // 4, 4096) // 16 * 16
    args = [_values(rng, n, t) for t in dtypes]
    if len(args) == 1:  # mostly the range where the kernels compute (not their limits)
        small = rng.random(n) < 0.6
        args[0][small] = (rng.standard_normal(int(small.sum())) * 30).astype(dtypes[0])
    _same(*_both(fn, *args))


@pytest.mark.parametrize("dtype", [np.float64])
def test_softmax_kernels_are_the_same_both_ways(dtype):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal((max(N // 100, 64), 100)) * 10).astype(dtype)
    g = rng.standard_normal(x.shape).astype(dtype)
    out = softmax64.log_softmax_lastdim(x)
    _same(*_both(softmax64.log_softmax_lastdim, x))
    _same(*_both(softmax64.log_softmax_backward_lastdim, g, out))
    _same(*_both(softmax64.softmax_lastdim, x))
    _same(*_both(softmax64.softmax_backward_lastdim, g, softmax64.softmax_lastdim(x)))


def test_float32_softmax_kernels_are_the_same_both_ways():
    rng = np.random.default_rng(8)
    x = (rng.standard_normal((max(N // 100, 64), 100)) * 10).astype(np.float32)
    g = rng.standard_normal(x.shape).astype(np.float32)
    out = sleef_explog.log_softmax_lastdim(x)
    _same(*_both(sleef_explog.log_softmax_lastdim, x))
    _same(*_both(sleef_explog.log_softmax_backward_lastdim, g, out))


def _run(code, *args, **env):
    cmd = [sys.executable, *args] if args else [sys.executable, "-c", code]
    r = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **env}, check=True)
    return r.stdout.strip()


def test_small_programs_never_compile():
    """Below the budget the compiled loops are not made (nor llvmlite imported)."""
    code = (
        "import sys, numpy as np\n"
        "from gradcli.numerics.floats import torch_exp\n"
        "torch_exp.expd(np.linspace(-5, 5, 1000))\n"
        "print('llvmlite' in sys.modules)"
    )
    assert _run(code, GRADCLI_NATIVE="", GRADCLI_NO_NATIVE="") == "False"


def test_a_long_run_compiles_and_the_switch_turns_it_off():
    """Once the emulation has cost what compiling costs, the loops are compiled."""
    code = (
        "import sys, numpy as np\n"
        "from gradcli.numerics import native\n"
        "from gradcli.numerics.floats import torch_exp\n"
        "x = np.linspace(-5, 5, 20000)\n"
        "for _ in range(1000):\n"
        "    torch_exp.expd(x)\n"
        "    if native._state['lib'] is not False: break\n"
        "print(bool(native._state['lib']))"
    )
    assert _run(code, GRADCLI_NATIVE="", GRADCLI_NO_NATIVE="") == "True"
    assert _run(code, GRADCLI_NATIVE="", GRADCLI_NO_NATIVE="1") == "False"


def test_gradcli_runs_the_same_both_ways():
    """A program's printed values are the same with the compiled loops and without."""
    for dtype in ("float32", "float64"):
        prog = (
            "import torch\n"
            "import torch.nn.functional as F\n"
            f"torch.set_default_dtype(torch.{dtype})\n"
            "torch.manual_seed(0)\n"
            "x = torch.randn(300, 40)\n"
            "w = torch.randn(40, 10, requires_grad=True)\n"
            "y = torch.randint(0, 10, (300,))\n"
            "z = x @ w\n"
            "loss = F.cross_entropy(z, y) + F.logsigmoid(z).sum() + (z.abs() ** 1.7).sum()\n"
            "loss.backward()\n"
            "print(loss.item(), w.grad.sum().item())\n"
            "print(w.grad[3])\n"
        )
        args = ("-m", "gradcli", "eval", "-e", prog)
        native_out = _run("", *args, GRADCLI_NATIVE="1", GRADCLI_NO_NATIVE="")
        numpy_out = _run("", *args, GRADCLI_NATIVE="", GRADCLI_NO_NATIVE="1")
        assert native_out == numpy_out and "tensor" in native_out


def test_the_object_code_is_cached_and_a_bad_cache_is_compiled_again(tmp_path):
    code = (
        "import numpy as np\n"
        "from gradcli.numerics import native\n"
        "from gradcli.numerics.floats import fma\n"
        "x = np.linspace(-1, 1, 1000)\n"
        "print(native._expected_cost(), native.available(), fma.fma(x, x, 0.5)[-1])"
    )
    env = {"GRADCLI_NATIVE": "", "GRADCLI_NO_NATIVE": "", "XDG_CACHE_HOME": str(tmp_path)}
    first = _run(code, **env)
    cached = list((tmp_path / "gradcli").glob("native-*.o"))
    assert first.startswith(f"{native.COMPILE_COST} True") and len(cached) == 1
    assert _run(code, **env) == first.replace(str(native.COMPILE_COST), str(native.LOAD_COST))
    cached[0].write_bytes(b"another CPU\n" + cached[0].read_bytes())
    assert _run(code, **env).split()[1:] == first.split()[1:]  # compiled again
    assert not cached[0].read_bytes().startswith(b"another")
    blocked = tmp_path / "a_file"
    blocked.write_text("")  # the cache directory cannot be made: compiled, not cached
    env["XDG_CACHE_HOME"] = str(blocked)
    assert _run(code, **env).split()[1:] == first.split()[1:]


@pytest.mark.parametrize("kind", ["expd"])
def test_whole_exp_kernel_is_the_emulation(kind):
    """The compiled expd on finite values (the range they compute, tiny and huge
    ones, zeros, subnormals, overflow and underflow) are the emulations' bits; a NaN or
    an infinity sends the call to NumPy."""
    dt = np.float64 if kind == "expd" else np.float32
    fn = torch_exp.expd if kind == "expd" else sleef_explog.expf
    rng = np.random.default_rng(11 if kind == "expd" else 12)
    n = max(N, 4096)
    x = rng.standard_normal(n) * 30
    x[: n // 4] = rng.uniform(-1100, 800, n // 4)
    x[n // 4 : n // 3] = rng.standard_normal(n // 3 - n // 4) * np.exp2(
        rng.integers(-160, 0, n // 3 - n // 4)
    )
    x[:8] = [0.0, -0.0, 1e-310, -1e-300, 1e-45, 88.7, -103.9, 709.7]
    x = x.astype(dt)
    lib = native._state["lib"]
    got = native.unary(lib, kind, x)
    assert got is not None  # computed by the compiled kernel
    with native.numpy_only(), np.errstate(all="ignore"):
        ref = fn(x)
    _same(got, ref)
    # a NaN or an infinity: NumPy's call
    for v in (np.nan, -np.inf, np.inf):
        x[5] = v
        assert native.unary(lib, kind, x) is None
        _same(*_both(fn, x))


def test_the_kernels_constants_are_the_emulations():
    from gradcli.numerics import native_sleef as ns

    assert (ns._R_LN2, ns._L2U, ns._L2L, ns._C) == (
        torch_exp._R_LN2,
        torch_exp._L2U,
        torch_exp._L2L,
        torch_exp._C,
    )


def test_without_llvmlite_numpy_computes_the_same(tmp_path):
    """Where llvmlite cannot be imported, the loops cannot be compiled and NumPy's
    emulation gives the same values; once their object code is cached (on this CPU), a
    run places it itself, without llvmlite, with the same values again."""
    code = (
        "import sys\n"
        "sys.modules['llvmlite'] = None  # as if it were not installed\n"
        "import numpy as np\n"
        "from gradcli.numerics import native\n"
        "from gradcli.numerics.floats import torch_exp\n"
        "x = np.linspace(-5, 5, 5000)\n"
        "print(native.available(), torch_exp.expd(x).tobytes().hex()[:4000],"
        " 'llvmlite' in sys.modules and sys.modules['llvmlite'] is not None)"
    )
    env = {"GRADCLI_NATIVE": "1", "GRADCLI_NO_NATIVE": "", "XDG_CACHE_HOME": str(tmp_path)}
    plain = _run(code, **env)
    assert plain.startswith("False ")
    with native.numpy_only():
        ref = torch_exp.expd(np.linspace(-5, 5, 5000)).tobytes().hex()[:4000]
    assert (
        plain.split()[1] == ref == torch_exp.expd(np.linspace(-5, 5, 5000)).tobytes().hex()[:4000]
    )
    _run("from gradcli.numerics import native; native.available()", **env)  # (compiled)
    if list((tmp_path / "gradcli").glob("native-*.o")):
        assert _run(code, **env).split() == ["True", ref, "False"]


def test_whole_log1p_kernel_is_the_emulation():
    """The compiled float64 log1p over SLEEF's core range (from -1 to 1e307: log-sigmoid's
    exp(-|x|), tiny and huge values, signed zeros) is the emulation's bits; values
    beyond it, NaN, or steps the emulation cannot split send the call to NumPy."""
    rng = np.random.default_rng(13)
    n = max(N, 10000)
    parts = [
        np.exp(-np.abs(rng.standard_normal(n)) * 20),
        rng.uniform(-1, 10, n // 2),
        rng.standard_normal(n // 4) * 1e-10,
        np.exp2(rng.uniform(-300, 900, n // 4)),
        -np.exp2(rng.uniform(-300, -1e-9, n // 4)),
        [0.0, -0.0, -0.9999999999, 5e-324 * 2**300],
    ]
    x = np.concatenate(parts)
    lib = native._state["lib"]
    got = native.unary(lib, "log1pd", x)
    assert got is not None
    with native.numpy_only(), np.errstate(all="ignore"):
        ref = sleef_u10.sleef_log1p(x)
    _same(got, ref)
    for v in (np.nan, -1.0, -1.5, 1e308, np.inf, 1e-300, 2.0**1000):
        x[7] = v
        assert native.unary(lib, "log1pd", x) is None
        _same(*_both(sleef_u10.sleef_log1p, x))


def test_the_log1p_constants_are_the_emulations():
    from gradcli.numerics import native_sleef as ns

    c = sleef_u10._C[np.float64]
    assert ns._LN2 == c["ln2"] and list(ns._LOG1P) == c["log1p"]
    assert (ns._DBL_MIN, ns._TWO64, 1e307) == (c["tiny"], c["big"], c["bound"])


def test_whole_log_kernel_is_the_emulation():
    """The compiled float64 log (log_softmax's, of its sums) on positive finite doubles
    over the whole range (subnormals, the largest double, near 1) is the emulation's bits;
    zeros, negative values, infinities and NaN send the call to NumPy."""
    rng = np.random.default_rng(14)
    n = max(N, 10000)
    x = np.concatenate(
        [
            np.exp2(rng.uniform(-1074, 1024, n)),
            rng.uniform(0.5, 3.0, n // 2),
            1.0 + rng.standard_normal(n // 4) * 1e-12,
            [5e-324, 1e-310, 2.2250738585072014e-308, 1.7976931348623157e308, 1.0, 2.0],
        ]
    )
    lib = native._state["lib"]
    got = native.unary(lib, "logd", x)
    assert got is not None
    with native.numpy_only(), np.errstate(all="ignore"):
        ref = sleef_u10.sleef_log(x)
    _same(got, ref)
    for v in (0.0, -0.0, -1.0, np.inf, -np.inf, np.nan):
        x[9] = v
        assert native.unary(lib, "logd", x) is None
        _same(*_both(sleef_u10.sleef_log, x))


def test_the_cached_object_is_placed_without_llvm():
    """The cached object code is placed by native_elf.py (its functions all found, their
    results the JIT's); what it does not take (another machine, not an object, a cut
    file) gives None, which sends native.py to llvmlite's JIT."""
    from gradcli.numerics import native_elf

    path = native._cache_path()
    if not os.path.exists(path):
        pytest.skip("no cached object code (an unwritable cache directory)")
    with open(path, "rb") as f:
        obj = f.read().split(b"\n", 1)[1]
    got = native_elf.load(obj, native._buffer_address)
    assert got is not None
    mem, fns = got
    assert set(fns) >= {"expd", "logd", "expf", "log1pf", "fma64_dd", "fma32h"}
    x = np.linspace(-5, 5, 1000)  # (whole vectors: native.unary pads the rest)
    out = np.empty_like(x)
    flags = np.ones(x.size, np.uint8)
    import ctypes

    sig = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, *[ctypes.c_void_p] * 3)
    from gradcli.numerics.mkl import address

    assert sig(fns["expd"])(x.size, address(x), address(out), address(flags)) == 0
    assert not flags.any()
    with native.numpy_only():
        _same(out, torch_exp.expd(x))
    other = bytearray(obj)
    other[18] = 183  # (e_machine: AArch64)
    assert native_elf.load(bytes(other), native._buffer_address) is None
    assert native_elf.load(b"not an object", native._buffer_address) is None
    assert native_elf.load(obj[: len(obj) // 2], native._buffer_address) is None
