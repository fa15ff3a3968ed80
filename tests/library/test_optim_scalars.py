"""SGD's step on a 0-d parameter takes Python floats (optim._sgd_number): the same bits
as the arrays' steps a one-element parameter takes (whose arithmetic the golden cases
check against torch), for each option, float64 and float32, non-finite values too."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from gradcli.core.tensor import Tensor
from gradcli.library.optim import SGD


def _value(rnd, dt):
    k = rnd.random()
    if k < 0.05:
        return rnd.choice([math.inf, -math.inf, math.nan, 0.0, -0.0, 1e308, 3e38])
    return float(dt(math.ldexp(rnd.uniform(-1, 1), rnd.randint(-30, 30))))


@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize(
    "options",
    [
        {"lr": 1e-8, "momentum": 0.9},
        {"lr": 0.1},
        {"lr": -0.0, "momentum": 0.5},
        {"lr": 0.0, "weight_decay": -0.0},
        {"lr": 0.01, "momentum": 0.5, "dampening": 0.25, "weight_decay": 1e-3},
        {"lr": 0.3, "momentum": 0.9, "nesterov": True, "weight_decay": 0.1},
        {"lr": 0.3, "momentum": 0.9, "maximize": True},
    ],
)
def test_a_0d_parameter_steps_as_a_one_element_one(dt, options):
    rnd = random.Random(repr((dt, options)))
    for _ in range(40):
        start = _value(rnd, dt)
        scalar = Tensor(np.array(start, dtype=dt), True)
        vector = Tensor(np.array([start], dtype=dt), True)
        opt_s, opt_v = SGD([scalar], **options), SGD([vector], **options)
        for _ in range(4):
            g = _value(rnd, dt)
            scalar.grad = Tensor(np.array(g, dtype=dt))
            vector.grad = Tensor(np.array([g], dtype=dt))
            opt_s.step()
            opt_v.step()
            assert scalar.data.dtype == dt and scalar.data.shape == ()
            assert scalar.data.tobytes() == vector.data.tobytes(), (start, g, options)
            kept_s = opt_s.kept[id(scalar)].get("momentum_buffer")
            kept_v = opt_v.kept[id(vector)].get("momentum_buffer")
            if kept_v is not None:
                assert kept_s.shape == () and kept_s.dtype == dt
                assert kept_s.tobytes() == kept_v.tobytes()
