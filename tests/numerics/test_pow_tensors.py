"""`tensor ** tensor` (float32 and float64) and both its gradients, and float64
`tensor ** number` and its gradient, bit for bit as torch 2.13 (gradcli/numerics/floats/powers.py:
SLEEF's powf / pow on whole blocks, the C library's on the rest, numerics/floats/sleef_pow.py and
sleef_powd.py; PowTensor's gradients in torch's formulas): digests recorded from torch
by scripts/gen_golden.py kernels (tests/golden/pow_tensors.json)."""

from __future__ import annotations

import io

import numpy as np
import pytest

from conftest import load_golden
from exact_cases import (
    POW_MIXED,
    POW_SCALAR_SHAPES,
    POW_SCALARS,
    POW_TENSORS,
    nan_digest,
    pow_mixed_input,
    pow_scalar_input,
    pow_tensor_input,
)
from gradcli.core.tensor import Tensor
from gradcli.output import TextOutput
from gradcli.session import Session

GOLDEN = load_golden("pow_tensors.json")
SAME = [c for c in GOLDEN["cases"] if "dtype" in c]  # float32 ** float32, float64 ** float64
MIXED = [c for c in GOLDEN["cases"] if "b_dtype" in c]
SCALAR = [c for c in GOLDEN["cases"] if "e" in c]  # float64 ** a number
TENSOR_CASES = [(dt, sa, sb) for dt in ("float32", "float64") for sa, sb in POW_TENSORS]


@pytest.mark.parametrize(
    "dtype,sa,sb", TENSOR_CASES, ids=[f"{d}-{a}-{b}" for d, a, b in TENSOR_CASES]
)
def test_tensor_to_a_tensor_power_is_pytorchs(dtype, sa, sb):
    c = next(c for c in SAME if (c["dtype"], tuple(c["a"]), tuple(c["b"])) == (dtype, sa, sb))
    a, b, g = pow_tensor_input(sa, sb, dtype)
    s = Session(TextOutput(io.StringIO(), quiet=True))
    s.scope.vars.update(
        a=Tensor(a, requires_grad=True), b=Tensor(b, requires_grad=True), g=Tensor(g)
    )
    s.run("y = a ** b\ny.backward(g)\n")
    assert nan_digest(s.scope.vars["y"].data) == c["out"]
    assert nan_digest(s.scope.vars["a"].grad.data) == c["grad_a"]
    assert nan_digest(s.scope.vars["b"].grad.data) == c["grad_b"]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_numpys_power_differs(dtype):
    """NumPy's power differs from torch's kernel in the last bit."""
    c = next(c for c in SAME if c["a"] == [2000] and c["dtype"] == dtype)
    a, b, _ = pow_tensor_input((2000,), (2000,), dtype)
    assert nan_digest(np.power(a, b)) != c["out"]


SCALAR_CASES = [(shape, e) for shape in POW_SCALAR_SHAPES for e in POW_SCALARS]


@pytest.mark.parametrize("shape,e", SCALAR_CASES, ids=[f"{s}**{e:.3g}" for s, e in SCALAR_CASES])
def test_float64_tensor_to_a_number_is_pytorchs(shape, e):
    """x ** e and x's gradient (whose `e - 1` power is SLEEF's too), edge values and a
    transposed base included."""
    c = next(c for c in SCALAR if (tuple(c["x"]), c["e"]) == (shape, e))
    x, g = pow_scalar_input(shape)
    s = Session(TextOutput(io.StringIO(), quiet=True))
    s.scope.vars.update(x=Tensor(x, requires_grad=True), g=Tensor(g), e=e)
    s.run("y = x ** e\ny.backward(g)\n")
    assert nan_digest(s.scope.vars["y"].data) == c["out"]
    assert nan_digest(s.scope.vars["x"].grad.data) == c["grad"]


def test_float64_numpy_power_differs_from_torchs():
    """The goldens tell SLEEF's double pow from the C library's (which the scalar path
    keeps for the values after the last whole block)."""
    c = next(c for c in SCALAR if (tuple(c["x"]), c["e"]) == ((2000,), 1.5))
    x, _ = pow_scalar_input((2000,))
    with np.errstate(all="ignore"):
        assert nan_digest(np.power(x, 1.5)) != c["out"]


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
