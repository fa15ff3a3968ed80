"""Sums and ranges bit for bit as PyTorch computes them (tests/golden/numerics.json,
recorded by scripts/gen_golden_numerics.py from torch)."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from numerics_cases import values

import gradcli.session  # noqa: F401  (registers the built-ins)
from gradcli.core import dtypes
from gradcli.base import parallel, summation
from gradcli.base.fma import fma
from gradcli.ops.registry import FUNCTIONS
from gradcli.core.tensor import Tensor

GOLDEN = json.loads((Path(__file__).parent / "golden" / "numerics.json").read_text("utf-8"))


def _threads_match(n):
    return n <= parallel.GRAIN or parallel.THREADS == GOLDEN["threads"]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_whole_sums_are_pytorchs_to_the_last_bit(dtype):
    checked = 0
    for case in GOLDEN["sums"]:
        n = case["n"]
        if case["dtype"] != dtype or n > summation.EXACT_LIMIT or not _threads_match(n):
            continue
        x = values(n, case["seed"], dtype)
        got = float(FUNCTIONS["sum"](Tensor(x)).data)
        assert got.hex() == case["sum"], (dtype, n, case["seed"], got, float.fromhex(case["sum"]))
        checked += 1
    assert checked > 500


def test_mean_and_a_scalar_leafs_gradient_use_the_same_order():
    from gradcli.library.autograd_api import backward
    x = values(1000, 1, "float64")
    s = float.fromhex(next(c["sum"] for c in GOLDEN["sums"]
                           if (c["dtype"], c["n"], c["seed"]) == ("float64", 1000, 1)))
    assert float(FUNCTIONS["mean"](Tensor(x)).data) == s / 1000
    b = Tensor(np.array(0.0), requires_grad=True)
    backward(FUNCTIONS["sum"](FUNCTIONS["mul"](b, Tensor(x))))   # d/db sum(b * x) = sum(x)
    assert float(b.grad.data) == s


def test_numpys_order_would_differ():
    """The golden sums are not simply NumPy's: the test above can fail."""
    differ = sum(1 for c in GOLDEN["sums"] if c["n"] <= 4096 and
                 float(np.sum(values(c["n"], c["seed"], c["dtype"]))).hex() != c["sum"])
    assert differ > 100


def _digest(a):
    return hashlib.sha256(np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes()).hexdigest()


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
        float(np.float32(1 / 3)) * 3 - 1.0)
