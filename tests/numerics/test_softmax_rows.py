"""softmax and log_softmax over the last dim and their gradients, bit for bit as torch
2.13's AVX2 kernels, on every row length around their vectors, in both dtypes and with
edge values (NaN, infinities, signed zeros, huge values): digests recorded from torch by
scripts/gen_golden.py softmax_rows (tests/golden/softmax_rows.json), checked through the
compiled row loops (numerics/native_softmax.py) and through the NumPy emulation
(floats/softmax64.py, floats/sleef_explog.py)."""

from __future__ import annotations

import io

import numpy as np
import pytest

from conftest import load_golden
from exact_cases import SOFTMAX_ROWS, nan_digest, softmax_rows_input
from gradcli.core.tensor import Tensor
from gradcli.numerics import native
from gradcli.output import TextOutput
from gradcli.session import Session

GOLDEN = load_golden("softmax_rows.json")
PATHS = ["compiled", "numpy"]


def _run(op, x, g):
    s = Session(TextOutput(io.StringIO(), quiet=True))
    s.scope.vars.update(x=Tensor(x, requires_grad=True), g=Tensor(g))
    s.run(f"y = {op}(x, dim=-1)\ny.backward(g)\n")
    return s.scope.vars["y"].data, s.scope.vars["x"].grad.data


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("shape", SOFTMAX_ROWS, ids=[f"{r}x{d}" for r, d in SOFTMAX_ROWS])
def test_softmax_over_the_last_dim_is_pytorchs(shape, path):
    if path == "compiled" and not native.available():
        pytest.skip("llvmlite is not installed")
    checked = 0
    for c in GOLDEN["cases"]:
        if tuple(c["shape"]) != shape:
            continue
        x, g = softmax_rows_input(shape, c["dtype"])
        with np.errstate(all="ignore"):
            if path == "numpy":
                with native.numpy_only():
                    out, grad = _run(c["op"], x, g)
            else:
                out, grad = _run(c["op"], x, g)
        where = (c["op"], c["dtype"], shape, path)
        assert nan_digest(out) == c["out"], where
        assert nan_digest(grad) == c["grad"], where
        checked += 1
    assert checked == 4


def test_every_case_is_recorded():
    assert {tuple(c["shape"]) for c in GOLDEN["cases"]} == set(SOFTMAX_ROWS)
