"""torch.cdist's gradient for a p other than 0, 1, 2 and inf (the kernel's general
p-norm) against central finite differences in float64."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli.session  # noqa: F401  (registers every built-in)
from gradcli.core.tensor import Tensor
from gradcli.engine.autograd import run_backward
from gradcli.ops.distance import cdist

EPS, ATOL, RTOL = 1e-6, 1e-5, 1e-3


@pytest.mark.parametrize("p", [0.5, 1.5, 2.5, 3.0, 4.5])
@pytest.mark.parametrize("shapes", [((3, 4), (2, 4)), ((2, 3, 2), (1, 2, 2))])
def test_general_p_gradient_matches_finite_differences(p, shapes):
    rng = np.random.default_rng(3)
    arrays = [rng.standard_normal(s) for s in shapes]
    head = None

    def value(arrs):
        return cdist(Tensor(arrs[0]), Tensor(arrs[1]), p=p).data

    a, b = (Tensor(x, requires_grad=True) for x in arrays)
    out = cdist(a, b, p=p)
    assert out.grad_fn.name == "CdistBackward0"
    head = rng.standard_normal(out.data.shape)
    run_backward([out], [Tensor(head)])
    for which, t in enumerate((a, b)):
        numeric = np.zeros(arrays[which].shape)
        for idx in np.ndindex(*arrays[which].shape):
            vals = []
            for step in (EPS, -EPS):
                moved = [x.copy() for x in arrays]
                moved[which][idx] += step
                vals.append(float(np.sum(value(moved) * head)))
            numeric[idx] = (vals[0] - vals[1]) / (2 * EPS)
        np.testing.assert_allclose(t.grad.data, numeric, atol=ATOL, rtol=RTOL)
