"""float32 `tensor ** tensor` and both its gradients, bit for bit as torch 2.13
(gradcli/base/powers.py torch_pow_tensor: SLEEF's powf on whole blocks, the C library's
on the rest; PowTensor's gradients in torch's formulas): digests recorded from torch by
scripts/gen_golden_kernels.py (tests/golden/pow_tensors.json)."""
from __future__ import annotations

import io

import numpy as np
import pytest

from conftest import load_golden
from exact_cases import POW_MIXED, POW_TENSORS, nan_digest, pow_mixed_input, pow_tensor_input
from gradcli.core.tensor import Tensor
from gradcli.output import TextOutput
from gradcli.session import Session

GOLDEN = load_golden("pow_tensors.json")
SAME = [c for c in GOLDEN["cases"] if "b_dtype" not in c]        # float32 ** float32
MIXED = [c for c in GOLDEN["cases"] if "b_dtype" in c]


@pytest.mark.parametrize("sa,sb", POW_TENSORS, ids=[f"{a}-{b}" for a, b in POW_TENSORS])
def test_tensor_to_a_tensor_power_is_pytorchs(sa, sb):
    c = next(c for c in SAME if (tuple(c["a"]), tuple(c["b"])) == (sa, sb))
    a, b, g = pow_tensor_input(sa, sb)
    s = Session(TextOutput(io.StringIO(), quiet=True))
    s.scope.vars.update(a=Tensor(a, requires_grad=True), b=Tensor(b, requires_grad=True),
                        g=Tensor(g))
    s.run("y = a ** b\ny.backward(g)\n")
    assert nan_digest(s.scope.vars["y"].data) == c["out"]
    assert nan_digest(s.scope.vars["a"].grad.data) == c["grad_a"]
    assert nan_digest(s.scope.vars["b"].grad.data) == c["grad_b"]


def test_numpys_power_differs():
    """NumPy's float32 power differs from torch's kernel in the last bit."""
    c = next(c for c in SAME if c["a"] == [2000])
    a, b, _ = pow_tensor_input((2000,), (2000,))
    assert nan_digest(np.power(a, b)) != c["out"]


@pytest.mark.parametrize("dtype,shape", POW_MIXED, ids=[f"{d}{s}" for d, s in POW_MIXED])
def test_an_exponent_of_another_dtype_gives_pytorchs_gradient(dtype, shape):
    """The base's gradient computed in the result's dtype (float32), as torch's: an
    int64 exponent or a 0-d float64 one would otherwise make NumPy compute it in float64."""
    c = next(c for c in MIXED if (c["b_dtype"], tuple(c["b"])) == (dtype, shape))
    a, b, g = pow_mixed_input(dtype, shape)
    s = Session(TextOutput(io.StringIO(), quiet=True))
    s.scope.vars.update(a=Tensor(a, requires_grad=True), b=Tensor(b), g=Tensor(g))
    s.run("y = a ** b\ny.backward(g)\n")
    assert nan_digest(s.scope.vars["y"].data) == c["out"]
    assert nan_digest(s.scope.vars["a"].grad.data) == c["grad_a"]
