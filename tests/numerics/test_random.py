"""gradcli.numerics.random.generator must reproduce torch's CPU generator bit for bit.

Golden values come from tests/golden/random.json, recorded with real torch by
scripts/gen_golden.py random (torch is not needed to run these tests).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random as pyrandom
from fractions import Fraction

import numpy as np
import pytest

from gradcli.numerics.random import generator as grandom
from gradcli.runtime import context
from gradcli.numerics.random.generator import DEFAULT_SEED, Generator

GOLDEN = os.path.join(os.path.dirname(os.path.dirname(__file__)), "golden", "random.json")

with open(GOLDEN) as _f:
    _DATA = json.load(_f)
_CASES = _DATA["cases"]


def _bits(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def _check_values(got: np.ndarray, op: dict, where: str) -> None:
    dtype = np.dtype(op["dtype"])
    assert got.dtype == dtype, f"{where}: dtype {got.dtype} != {dtype}"
    assert list(got.shape) == op["shape"], f"{where}: shape {got.shape} != {op['shape']}"
    flat = got.reshape(-1)
    if "values" in op:
        want = np.array(op["values"], dtype=dtype).reshape(-1)
        mism = np.nonzero(_bits(flat) != _bits(want))[0]
        assert mism.size == 0, (
            f"{where}: {mism.size} of {flat.size} elements differ; first at {mism[0]}: "
            f"got {flat[mism[0]]!r}, want {want[mism[0]]!r}"
        )
    else:
        head = np.array(op["head"], dtype=dtype)
        tail = np.array(op["tail"], dtype=dtype)
        assert np.array_equal(_bits(flat[:8]), _bits(head)), f"{where}: head differs"
        assert np.array_equal(_bits(flat[-8:]), _bits(tail)), f"{where}: tail differs"
        digest = hashlib.sha256(flat.astype(dtype.newbyteorder("<")).tobytes()).hexdigest()
        assert digest == op["sha256"], f"{where}: sha256 of {flat.size} values differs"


def _replay(gen: Generator, ops: list, name: str) -> None:
    for i, op in enumerate(ops):
        where = f"{name}[{i}] {op['op']}{tuple(op.get('shape', ()))} {op.get('dtype', '')}"
        kind = op["op"]
        if kind == "manual_seed":
            ret = gen.manual_seed(op["seed"])
            assert ret is gen
            assert gen.initial_seed() == op["initial_seed"], where
            continue
        if kind == "rand":
            got = gen.rand(tuple(op["shape"]), np.dtype(op["dtype"]))
        elif kind == "randn":
            got = gen.randn(tuple(op["shape"]), np.dtype(op["dtype"]))
        elif kind == "randn_like":
            got = gen.randn_like(np.zeros(op["shape"], dtype=op["dtype"]))
        elif kind == "rand_like":
            got = gen.rand_like(np.zeros(op["shape"], dtype=op["dtype"]))
        elif kind == "randint":
            got = gen.randint(op["low"], op["high"], tuple(op["shape"]), np.dtype(op["dtype"]))
        else:
            raise AssertionError(f"unknown op {kind}")
        _check_values(got, op, where)


@pytest.mark.parametrize("case", _CASES, ids=[c["name"] for c in _CASES])
def test_golden_sequence(case):
    gen = Generator()
    if case["generator"] == "fresh":
        assert gen.initial_seed() == _DATA["fresh_generator_initial_seed"]
    _replay(gen, case["ops"], case["name"])


def test_golden_through_the_run_context():
    """The generator a run uses (context.current.generator, made on first use from the
    run's seed) follows the same stream."""
    ctx = context.Context()
    case = next(c for c in _CASES if c["name"] == "global_tutorial_seed42_float32")
    for op in case["ops"]:
        if op["op"] == "manual_seed":
            ctx.generator.manual_seed(op["seed"])
            assert ctx.generator.initial_seed() == op["initial_seed"]
        elif op["op"] == "randn":
            _check_values(ctx.generator.randn(tuple(op["shape"]), np.float32), op, "context randn")
        else:
            _check_values(ctx.generator.rand(tuple(op["shape"]), np.float32), op, "context rand")


def test_default_generator_uses_torch_fresh_seed():
    assert DEFAULT_SEED == 67280421310721 == _DATA["fresh_generator_initial_seed"]
    assert Generator().initial_seed() == DEFAULT_SEED
    assert isinstance(context.Context().generator, Generator)
    assert context.Context().generator.initial_seed() == DEFAULT_SEED
    # a fresh default generator replays the recorded fresh-generator tutorial sequence
    fresh = Generator()
    case = next(c for c in _CASES if c["name"] == "fresh_tutorial_float32")
    _replay(fresh, case["ops"], "fresh")


def test_state_roundtrip_includes_cached_normal():
    g = Generator(11)
    g.randn(3)  # leaves a cached normal sample
    state = g.get_state()
    a = [g.randn(1, np.float64), g.rand(4), g.randn(20), g.randint(0, 9, (3,))]
    clone_src = Generator(0).set_state(state)
    b = [
        clone_src.randn(1, np.float64),
        clone_src.rand(4),
        clone_src.randn(20),
        clone_src.randint(0, 9, (3,)),
    ]
    for x, y in zip(a, b):
        assert np.array_equal(_bits(x), _bits(y))
    g2 = Generator(11)
    g2.randn(3)
    c = g2.clone()
    assert np.array_equal(_bits(g2.randn(5)), _bits(c.randn(5)))


def test_seed_validation_and_wrapping():
    g = Generator()
    assert g.manual_seed(-1).initial_seed() == 2**64 - 1
    assert g.manual_seed(np.int64(5)).initial_seed() == 5
    with pytest.raises(OverflowError):
        g.manual_seed(2**64)
    with pytest.raises(OverflowError):
        g.manual_seed(-(2**63) - 1)
    # only the low 32 bits feed mt19937
    a = Generator(5).rand(4, np.float64)
    b = Generator(2**32 + 5).rand(4, np.float64)
    assert np.array_equal(a, b)


def test_shapes_and_errors():
    g = Generator(0)
    assert g.randn(3).shape == (3,)
    assert g.randn(()).shape == ()
    assert g.rand((0, 3)).shape == (0, 3)
    assert g.randn((2, 0), np.float64).dtype == np.float64
    assert g.randint(5, shape=(2,)).dtype == np.int64
    with pytest.raises(TypeError):
        g.rand(3, np.int32)
    with pytest.raises(ValueError):
        g.randint(3, 3, (1,))
    with pytest.raises(ValueError):
        g.randn((-1,))


def _exact_fma32(a: np.float32, b: np.float32, c: np.float32) -> np.float32:
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    # round the exact value to float32, ties to even
    if exact == 0:
        return np.float32(0.0)
    lo = np.float32(float(exact))  # a nearby float32; search neighbours exactly
    cands = [np.nextafter(lo, np.float32(-np.inf)), lo, np.nextafter(lo, np.float32(np.inf))]
    cands = (
        [np.nextafter(cands[0], np.float32(-np.inf))]
        + cands
        + [np.nextafter(cands[-1], np.float32(np.inf))]
    )
    best = min(
        cands, key=lambda v: (abs(Fraction(float(v)) - exact), int(np.array(v).view(np.uint32)) & 1)
    )
    return np.float32(best)


def test_fma32_emulation_is_correctly_rounded():
    rng = pyrandom.Random(1234)
    a_list, b_list, c_list = [], [], []
    for _ in range(3000):
        a_list.append(np.float32(rng.uniform(-2, 2)))
        b_list.append(np.float32(rng.uniform(-2, 2)))
        c_list.append(np.float32(rng.uniform(-2, 2) * 2.0 ** rng.randint(-30, 5)))
    # hard cases: the float64 sum lands exactly on a float32 rounding midpoint
    # (1 + 2**-24 is a midpoint; a tiny product pushes the exact value off it)
    for sign in (1.0, -1.0):
        for tiny in (2.0**-60, 2.0**-70, 3.0 * 2.0**-75):
            a_list.append(np.float32(sign * tiny))
            b_list.append(np.float32(1.0))
            c_list.append(np.float32(1.0))
            a_list.append(np.float32(1.0 + 2.0**-23))
            b_list.append(np.float32(1.0 + 2.0**-23))  # product 1 + 2**-22 + 2**-46
            c_list.append(np.float32(sign * 2.0**-24 + 0.0))
    a = np.array(a_list, dtype=np.float32)
    b = np.array(b_list, dtype=np.float32)
    c = np.array(c_list, dtype=np.float32)
    got = grandom._fma32(a.astype(np.float64), b, c)
    want = np.array([_exact_fma32(x, y, z) for x, y, z in zip(a, b, c)], dtype=np.float32)
    assert np.array_equal(_bits(got), _bits(want))


def test_float64_libm_fallback_matches_golden(monkeypatch):
    """If NumPy's float64 log/sin/cos ever disagreed with the C library, the
    pure-``math`` fallback must still reproduce torch exactly."""
    monkeypatch.setattr(grandom, "_np_f64_ok", False)
    for name in ("shapes_seed42_float64", "isolated_shapes_float64", "mixed_interleaved"):
        case = next(c for c in _CASES if c["name"] == name)
        _replay(Generator(), case["ops"], name)


def test_numpy_float64_transcendentals_agree_with_libm():
    # informational guard: the fast path is in use on supported machines
    assert grandom._numpy_f64_matches_libm() in (True, False)
    x = np.linspace(1e-12, 1.0, 1001)
    assert np.array_equal(_bits(grandom._vlog(x)), _bits(np.array([math.log(v) for v in x])))


@pytest.mark.parametrize("n", [2, 3, 17, 800, 5001])
def test_randperm_is_the_kernels_swaps_in_order(n):
    """randperm's swap targets made by NumPy at once are the kernel's, one at a time:
    position i swaps with i + (draw i mod (n - i)), in order (the goldens hold n of 7,
    10 and 40)."""
    from gradcli.numerics.random.sampling import randperm

    g, ref = Generator(), Generator()
    g.manual_seed(n)
    ref.manual_seed(n)
    raw = ref._raw32(n - 1).tolist()
    perm = list(range(n))
    for i in range(n - 1):
        j = i + raw[i] % (n - i)
        perm[i], perm[j] = perm[j], perm[i]
    got = randperm(g, n)
    assert got.dtype == np.int64 and got.tolist() == perm
    assert g._raw32(1).tolist() == ref._raw32(1).tolist()  # (as many draws taken)
