"""Sums and ranges bit for bit as PyTorch computes them (tests/golden/numerics.json,
recorded by scripts/gen_golden.py numerics from torch)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from numerics_cases import ZERO_SIZES, values, zeros_case

import gradcli.session  # noqa: F401  (registers the built-ins)
from gradcli.core import dtypes
from gradcli.numerics import mkl, parallel
from gradcli.numerics.sums import summation
from gradcli.numerics.floats.fma import fma
from gradcli.ops.registry import FUNCTIONS
from gradcli.core.tensor import Tensor
from conftest import digest as _digest

GOLDEN = json.loads((Path(__file__).parents[1] / "golden" / "numerics.json").read_text("utf-8"))


def _threads_match(n):
    return n <= parallel.GRAIN or parallel.THREADS == GOLDEN["threads"]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_whole_sums_are_pytorchs_to_the_last_bit(dtype):
    checked = 0
    for case in GOLDEN["sums"]:
        n = case["n"]
        if case["dtype"] != dtype or not _threads_match(n):
            continue
        x = (
            zeros_case(n, case["zeros"], dtype)
            if "zeros" in case
            else values(n, case["seed"], dtype)
        )
        got = float(FUNCTIONS["sum"](Tensor(x)).data)
        assert got.hex() == case["sum"], (dtype, n, case["seed"], got, float.fromhex(case["sum"]))
        checked += 1
    assert checked > 500


def test_sums_of_signed_zeros_and_of_ten_million_values():
    """The cascade starts every accumulator at +0 (a sum of -0.0 is +0.0), and above
    2^20 values the order is still PyTorch's (NumPy's pairwise sum differs there)."""
    cases = [c for c in GOLDEN["sums"] if "zeros" in c or c["n"] == 10**7]
    assert len(cases) == 2 * (2 * len(ZERO_SIZES) + 2)
    assert any(c["sum"] == "0x0.0p+0" for c in cases)
    differ = 0
    for c in cases:
        x = (
            zeros_case(c["n"], c["zeros"], c["dtype"])
            if "zeros" in c
            else values(c["n"], c["seed"], c["dtype"])
        )
        if not _threads_match(c["n"]):
            continue
        assert float(summation.torch_sum(x)).hex() == c["sum"], c
        differ += float(np.sum(x)).hex() != c["sum"]
    assert differ >= 1


def test_mean_and_a_scalar_leafs_gradient_use_the_same_order():
    from gradcli.library.autograd_api import backward

    x = values(1000, 1, "float64")
    s = float.fromhex(
        next(
            c["sum"]
            for c in GOLDEN["sums"]
            if (c["dtype"], c["n"], c["seed"]) == ("float64", 1000, 1)
        )
    )
    assert float(FUNCTIONS["mean"](Tensor(x)).data) == s / 1000
    b = Tensor(np.array(0.0), requires_grad=True)
    backward(FUNCTIONS["sum"](FUNCTIONS["mul"](b, Tensor(x))))  # d/db sum(b * x) = sum(x)
    assert float(b.grad.data) == s


def test_numpys_order_would_differ():
    """The golden sums are not simply NumPy's: the test above can fail."""
    differ = sum(
        1
        for c in GOLDEN["sums"]
        if c["n"] <= 4096
        and "zeros" not in c
        and float(np.sum(values(c["n"], c["seed"], c["dtype"]))).hex() != c["sum"]
    )
    assert differ > 100


@pytest.mark.parametrize("fn", ["linspace", "arange"])
def test_ranges_are_pytorchs_to_the_last_bit(fn):
    checked = 0
    for case in GOLDEN["ranges"]:
        if case["fn"] != fn or not _threads_match(case["n"]):
            continue
        t = FUNCTIONS[fn](*case["args"], dtype=dtypes.NAMES[case["dtype"]]).data
        assert t.size == case["n"], case
        assert _digest(t) == case["sha256"], (case, t[:6].tolist())
        checked += 1
    assert checked > 100


def test_fma_is_rounded_once():
    tiny = float.fromhex("0x1p-54")
    # in two roundings each of these is 0: 1/3 * 3 rounds to 1, 0.1 * 10 rounds to 1
    assert float(fma(-(1 / 3), 3, 1.0)) == tiny
    r = fma(np.array([0.1, 1 / 3, 1e300]), np.array([10.0, 3.0, 1e10]), np.array([-1.0, -1.0, 1.0]))
    assert r[0] == tiny and r[1] == -tiny
    assert np.isinf(r[2])
    # float32: rounded once from the exact value
    assert fma(np.float32(1 / 3), 3, np.float32(-1.0), np.float32) == np.float32(
        float(np.float32(1 / 3)) * 3 - 1.0
    )


def _pow_case(dtype, e):
    from gradcli.library.autograd_api import backward

    x = Tensor(values(2000, 3, dtype), requires_grad=True)
    y = FUNCTIONS["pow"](x, e)
    backward(FUNCTIONS["sum"](y))
    return y.data, x.grad.data


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_integer_powers_are_pytorchs_to_the_last_bit(dtype):
    from numerics_cases import POW_EXACT, POW_GRAD_EXACT

    checked = 0
    for case in GOLDEN["pows"]:
        if case["dtype"] != dtype:
            continue
        e = case["e"]
        value, grad = _pow_case(dtype, e)
        assert value.dtype == np.dtype(dtype)
        # float32: every exponent (SLEEF's pow, gradcli/numerics/floats/sleef_pow.py); 0.5 is MKL's sqrt
        every = dtype == "float32" and (e != 0.5 or mkl.available())
        if e in POW_EXACT or every or (e == 0.5 and mkl.available()):
            assert _digest(value) == case["value"], (dtype, e)
            checked += 1
        if e in POW_GRAD_EXACT or every:
            assert _digest(grad) == case["grad"], (dtype, e)
            checked += 1
    assert checked >= 16


def test_numpys_power_would_differ():
    """x ** 3 by NumPy's power is not PyTorch's x * x * x: the test above can fail."""
    case = next(c for c in GOLDEN["pows"] if (c["dtype"], c["e"]) == ("float32", 3))
    assert _digest(np.power(values(2000, 3, "float32"), 3)) != case["value"]


def test_threads_are_capped_at_the_cpu_count(monkeypatch):
    """torch runs at most one thread per CPU whatever OMP_NUM_THREADS asks for (on a 2-CPU
    machine OMP_NUM_THREADS=4 and 8 give torch.get_num_threads() == 2), and a sum's order
    follows the threads, so gradcli's chunks must too."""
    import os

    cpus = os.cpu_count() or 1
    for asked, want in [(str(cpus + 2), cpus), (str(cpus * 4), cpus), ("1", 1), ("", cpus)]:
        monkeypatch.setenv("OMP_NUM_THREADS", asked)
        assert parallel._threads() == want
