"""The sum and mean of all of a permuted tensor (a transpose, a permute) as torch 2.13
adds them: in memory order (gradcli/numerics/sums/summation.py in_memory_order), digests
recorded from torch by scripts/gen_golden.py kernels (tests/golden/permuted_sums.json)."""

from __future__ import annotations

import io

import numpy as np
import pytest

from conftest import load_golden
from exact_cases import PERMUTED_SUMS, nan_digest, spread
from gradcli.core.tensor import Tensor
from gradcli.output import TextOutput
from gradcli.session import Session

GOLDEN = load_golden("permuted_sums.json")


@pytest.mark.parametrize("shape,perm", PERMUTED_SUMS, ids=[f"{s}-{p}" for s, p in PERMUTED_SUMS])
def test_the_sum_of_a_permuted_tensor_is_pytorchs(shape, perm):
    checked = 0
    for c in GOLDEN["cases"]:
        if (tuple(c["shape"]), tuple(c["perm"])) != (shape, perm):
            continue
        s = Session(TextOutput(io.StringIO(), quiet=True))
        s.scope.vars["x"] = Tensor(
            spread(int(np.prod(shape)), 71, -3.0, 5.0, c["dtype"]).reshape(shape)
        )
        s.run(f"p = x.permute{perm}\na = p.sum()\nb = p.mean()\n")
        assert nan_digest(s.scope.vars["a"].data) == c["sum"], (shape, perm, c["dtype"])
        assert nan_digest(s.scope.vars["b"].data) == c["mean"], (shape, perm, c["dtype"])
        checked += 1
    assert checked == 2
