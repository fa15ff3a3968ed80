"""SGD's plain step (no momentum, no weight decay) calls the compiled fused step itself:
the same bits as `add_alpha`'s general path (fma's, which the golden cases check
against torch), on values with infinities, NaNs, signed zeros and subnormals, float64
and float32, maximize too."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core.tensor import Tensor
from gradcli.library.optim import SGD, add_alpha
from gradcli.numerics import native


def _values(rng, shape, dt):
    x = (rng.standard_normal(shape) * np.exp2(rng.integers(-60, 60, shape))).astype(dt)
    flat = x.reshape(-1)
    flat[::11], flat[1::13], flat[2::17] = np.inf, np.nan, -0.0
    flat[3::19] = np.finfo(dt).tiny / 4
    return x


@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("maximize", [False, True])
def test_plain_step_as_the_general_one(dt, maximize):
    if not native.available():
        pytest.skip("llvmlite is not installed")
    rng = np.random.default_rng(7)
    for shape in [(1,), (5,), (3, 7), (64, 33)]:
        for lr in (0.1, 1e-3, 3.0, -0.0):
            p0, g = _values(rng, shape, dt), _values(rng, shape, dt)
            p = Tensor(p0.copy(), requires_grad=True)
            p.grad = Tensor(g.copy())
            with np.errstate(all="ignore"):
                SGD([p], lr=lr, maximize=maximize).step()
                want = add_alpha(p0, -g if maximize else g, -lr, dt)
            assert p.data.dtype == dt and p.data.shape == shape
            assert p.data.tobytes() == np.asarray(want, dt).tobytes()
