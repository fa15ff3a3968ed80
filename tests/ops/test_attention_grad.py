"""scaled_dot_product_attention's gradients (the flash kernel's backward and the math
path's composite graph) against central finite differences in float64, with masks,
is_causal and scale; and the flash kernel's gradient refusing a second derivative."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli.session  # noqa: F401  (registers every built-in)
from gradcli.core.tensor import Tensor
from gradcli.engine.autograd import run_backward
from gradcli.ops.attention import scaled_dot_product_attention as sdpa
from gradcli.runtime.errors import GradError

EPS, ATOL, RTOL = 1e-6, 1e-5, 1e-3

CASES = {
    "flash": ((2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4), {}),
    "flash_causal": ((1, 2, 4, 3), (1, 2, 6, 3), (1, 2, 6, 3), {"is_causal": True}),
    "flash_scale": ((1, 1, 3, 4), (1, 1, 3, 4), (1, 1, 3, 4), {"scale": -0.7}),
    "flash_float_mask": ((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4), {"mask": (1, 1, 3, 5)}),
    "flash_bool_mask": ((2, 1, 3, 4), (2, 1, 5, 4), (2, 1, 5, 4), {"bool_mask": (3, 5)}),
    "math_3d": ((2, 3, 4), (2, 5, 4), (2, 5, 2), {}),
    "math_3d_causal": ((2, 4, 3), (2, 4, 3), (2, 4, 3), {"is_causal": True}),
    "math_2d_mask": ((3, 4), (5, 4), (5, 3), {"bool_mask": (3, 5)}),
}


def _call(arrays, kw, rng_mask):
    q, k, v = (Tensor(a, requires_grad=True) for a in arrays)
    kwargs = {key: val for key, val in kw.items() if key not in ("mask", "bool_mask")}
    if "mask" in kw:
        kwargs["attn_mask"] = Tensor(rng_mask)
    if "bool_mask" in kw:
        kwargs["attn_mask"] = Tensor(rng_mask)
    return (q, k, v), sdpa(q, k, v, **kwargs)


@pytest.mark.parametrize("name", list(CASES))
def test_gradient_matches_finite_differences(name):
    *shapes, kw = CASES[name]
    rng = np.random.default_rng(7)
    arrays = [rng.standard_normal(s) for s in shapes]
    mask = None
    if "mask" in kw:
        mask = rng.standard_normal(kw["mask"])
    if "bool_mask" in kw:
        mask = rng.random(kw["bool_mask"]) > 0.3
        mask[:, 0] = True  # no row left without a key (its gradient is 0 either way)
    inputs, out = _call(arrays, kw, mask)
    head = rng.standard_normal(out.data.shape)
    run_backward([out], [Tensor(head)])
    for which, t in enumerate(inputs):
        numeric = np.zeros(arrays[which].shape)
        for idx in np.ndindex(*arrays[which].shape):
            vals = []
            for step in (EPS, -EPS):
                moved = [a.copy() for a in arrays]
                moved[which][idx] += step
                _, o = _call(moved, kw, mask)
                vals.append(float(np.sum(o.data * head)))
            numeric[idx] = (vals[0] - vals[1]) / (2 * EPS)
        np.testing.assert_allclose(t.grad.data, numeric, atol=ATOL, rtol=RTOL)


def test_flash_gradient_is_not_differentiable_again():
    rng = np.random.default_rng(1)
    q = Tensor(rng.standard_normal((1, 1, 3, 4)), requires_grad=True)
    out = sdpa(q, q, q)
    assert out.grad_fn.name == "ScaledDotProductFlashAttentionForCpuBackward0"
    (g,) = run_backward([out], [Tensor(np.ones(out.data.shape))], create_graph=True, inputs=[q])
    with pytest.raises(GradError):
        run_backward([g], [Tensor(np.ones(g.data.shape))])
