"""softmax and log_softmax over a dim other than the last, and their gradients, bit
for bit as torch 2.13's CPU kernels (gradcli/numerics/floats/softmax_dim.py): digests recorded
from torch by scripts/gen_golden.py kernels (tests/golden/softmax_dims.json)."""

from __future__ import annotations

import io

import numpy as np
import pytest

from conftest import load_golden
from exact_cases import SOFTMAX_DIMS, nan_digest, softmax_input
from gradcli.numerics import parallel
from gradcli.core.tensor import Tensor
from gradcli.output import TextOutput
from gradcli.session import Session

GOLDEN = load_golden("softmax_dims.json")


@pytest.fixture
def torch_threads(monkeypatch):
    """The kernels cut their ranges between threads as torch did when recording."""
    monkeypatch.setattr(parallel, "THREADS", GOLDEN["threads"])


@pytest.mark.parametrize("shape,dim", SOFTMAX_DIMS, ids=[f"{s}-{d}" for s, d in SOFTMAX_DIMS])
def test_softmax_over_a_dim_is_pytorchs(shape, dim, torch_threads):
    checked = 0
    for c in GOLDEN["cases"]:
        if (tuple(c["shape"]), c["dim"]) != (shape, dim):
            continue
        x, g = softmax_input(shape, c["dtype"])
        s = Session(TextOutput(io.StringIO(), quiet=True))
        s.scope.vars.update(x=Tensor(x, requires_grad=True), g=Tensor(g))
        s.run(f"y = {c['op']}(x, dim={dim})\ny.backward(g)\n")
        where = (c["op"], c["dtype"], shape, dim)
        assert nan_digest(s.scope.vars["y"].data) == c["out"], where
        assert nan_digest(s.scope.vars["x"].grad.data) == c["grad"], where
        checked += 1
    assert checked == 4


def test_the_textbook_formulas_differ():
    """exp / sum and NumPy's own sums differ from torch's kernels in the last bit (what
    these tests would catch going back)."""
    shape, dim = (300, 200), 0
    c = next(
        c
        for c in GOLDEN["cases"]
        if (c["op"], c["dtype"], tuple(c["shape"])) == ("softmax", "float32", shape)
    )
    x, _ = softmax_input(shape, "float32")
    e = np.exp(x - x.max(axis=dim, keepdims=True))
    assert nan_digest(e / e.sum(axis=dim, keepdims=True)) != c["out"]
