"""gradcli.core.printing.tensor_repr against reprs recorded from real PyTorch.

The golden file is produced by scripts/gen_golden.py printing (run with a
torch install); these tests need only NumPy.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from gradcli.core.printing import tensor_repr

GOLDEN = Path(__file__).parents[1] / "golden" / "printing.json"
CASES = json.loads(GOLDEN.read_text())

_NONFINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def _decode(v):
    if isinstance(v, list):
        return [_decode(x) for x in v]
    if isinstance(v, str):
        return _NONFINITE[v]
    return v


def build_array(case) -> np.ndarray:
    """The case's tensor as a NumPy array of the recorded dtype and shape."""
    return np.array(_decode(case["values"]), dtype=case["dtype"]).reshape(case["shape"])


def test_golden_file_is_broad():
    assert len(CASES) >= 300
    assert len({c["name"] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_torch(case):
    arr = build_array(case)
    got = tensor_repr(
        arr,
        grad_fn=case["grad_fn"],
        requires_grad=case["requires_grad"],
        default_dtype=np.dtype(case["default_dtype"]),
        precision=case["precision"],
        linewidth=case["linewidth"],
    )
    assert got == case["repr"], f"\n--- got ---\n{got}\n--- torch ---\n{case['repr']}"


def test_input_not_modified_and_views_ok():
    base = np.arange(12, dtype=np.float64).reshape(3, 4)
    view = base.T  # non-contiguous
    before = view.copy()
    assert tensor_repr(view) == tensor_repr(np.ascontiguousarray(view))
    assert np.array_equal(view, before)
