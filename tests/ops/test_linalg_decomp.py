"""linalg.cholesky's and linalg.eigvalsh's gradients (first order) against central
finite differences in float64, the matrix moved symmetrically (each op reads one
triangle of it): moving A[i, j] and A[j, i] together changes the result by
gA[i, j] + gA[j, i]; and the gradient of a gradient refused in words."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli.session  # noqa: F401  (registers every built-in)
from gradcli.core.tensor import Tensor
from gradcli.engine.autograd import run_backward
from gradcli.ops.linalg_decomp import linalg_cholesky, linalg_eigvalsh
from gradcli.runtime.errors import GradRuntimeError

EPS, ATOL, RTOL = 1e-6, 1e-6, 1e-5

OPS = {
    "cholesky": lambda a: linalg_cholesky(a),
    "cholesky_upper": lambda a: linalg_cholesky(a, upper=True),
    "eigvalsh": lambda a: linalg_eigvalsh(a),
    "eigvalsh_U": lambda a: linalg_eigvalsh(a, "U"),
}


def _spd(rng, shape):
    m = rng.standard_normal(shape)
    n = shape[-1]
    return m @ np.swapaxes(m, -1, -2) + n * np.eye(n)


@pytest.mark.parametrize("op", list(OPS))
@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (6, 6), (2, 4, 4)])
def test_gradient_matches_finite_differences(op, shape):
    rng = np.random.default_rng(7)
    fn = OPS[op]
    a = _spd(rng, shape)
    t = Tensor(a.copy(), requires_grad=True)
    out = fn(t)
    head = rng.standard_normal(out.data.shape)
    run_backward([out], [Tensor(head)])
    g = t.grad.data
    n = shape[-1]
    for idx in np.ndindex(*shape[:-2]):
        for i in range(n):
            for j in range(i + 1):
                vals = []
                for step in (EPS, -EPS):
                    m = a.copy()
                    m[idx + (i, j)] += step
                    if i != j:
                        m[idx + (j, i)] += step
                    vals.append(float(np.sum(fn(Tensor(m)).data * head)))
                numeric = (vals[0] - vals[1]) / (2 * EPS)
                want = g[idx + (i, j)] + (g[idx + (j, i)] if i != j else 0.0)
                np.testing.assert_allclose(want, numeric, atol=ATOL, rtol=RTOL)


@pytest.mark.parametrize("op", ["cholesky", "eigvalsh"])
def test_gradient_of_gradient_is_refused(op):
    t = Tensor(np.eye(3) * 2.0, requires_grad=True)
    out = OPS[op](t)
    with pytest.raises(GradRuntimeError, match="not the gradient of its gradient"):
        run_backward([out], [Tensor(np.ones(out.data.shape))], create_graph=True, inputs=[t])
