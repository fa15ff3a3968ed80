"""Sums and means over dims other than all, the leading or the last ones, bit for bit
as PyTorch 2.13 computes them on the CPU (gradcli/numerics/sums/sum_dims.py; golden
tests/golden/dim_sums.json from scripts/gen_golden.py dim_sums, inputs in
tests/numerics/dim_sum_cases.py), also as a broadcast gradient summed back (`sum_to`)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dim_sum_cases import CASES, case_input, keep_shape

import gradcli.session  # noqa: F401  (registers the built-ins)
from gradcli.numerics import parallel
from gradcli.numerics.sums.sum_dims import dim_sums, iter_dims
from gradcli.core.tensor import Tensor
from gradcli.library.autograd_api import backward
from gradcli.ops.registry import FUNCTIONS
from conftest import digest as _digest

GOLDEN = json.loads((Path(__file__).parents[1] / "golden" / "dim_sums.json").read_text("utf-8"))


def _cases():
    for case in GOLDEN["cases"]:
        shape = CASES[case["case"]][0]
        if np.prod(shape) >= parallel.GRAIN and parallel.THREADS != GOLDEN["threads"]:
            continue  # the cut between threads depends on their number
        yield case


@pytest.mark.parametrize("case", list(_cases()), ids=lambda c: f"{c['case']}-{c['dtype']}")
def test_sums_means_and_sum_to_over_dims_are_pytorchs(case):
    shape, dims, layout = CASES[case["case"]]
    x = case_input(shape, layout, case["dtype"], case["case"])
    assert _digest(FUNCTIONS["sum"](Tensor(x), dims).data) == case["sum"]
    assert _digest(FUNCTIONS["mean"](Tensor(x), dims, True).data) == case["mean"]
    b = Tensor(np.zeros(keep_shape(shape, dims), x.dtype), requires_grad=True)
    backward(FUNCTIONS["add"](Tensor(np.zeros(shape, x.dtype)), b), Tensor(x))
    assert _digest(b.grad.data) == case["sum_to"]


def test_the_golden_covers_every_case():
    assert len(GOLDEN["cases"]) == 2 * len(CASES)


def test_numpys_order_would_differ():
    """The cases have the power to fail: NumPy's own sums differ from torch's on most."""
    differ = 0
    for case in GOLDEN["cases"]:
        shape, dims, layout = CASES[case["case"]]
        x = case_input(shape, layout, case["dtype"], case["case"])
        differ += _digest(np.sum(x, axis=dims)) != case["sum"]
    assert differ > len(GOLDEN["cases"]) // 2


def test_iteration_dims_follow_tensor_iterator():
    """Reduced dims first (innermost first), kept ones after them; neighbours merged."""
    # (4, 5, 6) summed over dim 1: [reduced 5 (stride 24), kept 6 and 4 not merged]
    assert iter_dims((4, 5, 6), (120, 24, 4), (24, 0, 4)) == [(5, 24, 0), (6, 4, 4), (4, 120, 24)]
    # (2, 3, 4) summed over dims 1 and 2: one reduced dim of 12
    assert iter_dims((2, 3, 4), (48, 16, 4), (4, 0, 0)) == [(12, 4, 0), (2, 48, 4)]


def test_signed_zeros_and_specials():
    x = -np.zeros((3, 4, 40), np.float32)
    assert not np.signbit(dim_sums(x, (1,))).any()  # the output starts from +0
    y = np.ones((2, 3, 9))
    y[0, 1, 2] = np.inf
    y[1, 2, 3] = np.nan
    s = dim_sums(y, (1,))
    assert np.isinf(s[0, 2]) and np.isnan(s[1, 3]) and s[0, 0] == 3.0
    assert dim_sums(np.ones((2, 3), np.int64), (1,)) is None
