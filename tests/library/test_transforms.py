"""Golden tests of the transforms: torch.func, torch.autograd.functional
(vjp, jvp, hvp, vhp, forward-mode jacobian), torch.autograd.forward_ad and
gradgradcheck, recorded from torch by scripts/gen_golden.py transforms."""

import pytest

from conftest import check_result, load_golden, run_cases

CASES = load_golden("transforms.json")


@pytest.mark.parametrize("name", list(CASES))
def test_transform_case(name):
    case = CASES[name]
    result = run_cases({name: case["source"]})[name]
    check_result(
        result, case["stdout"], case["error"], what=name, warnings=case.get("warnings", ())
    )


def test_gradgradcheck_passes_and_catches_a_wrong_second_derivative(session_out):
    import numpy as np

    from gradcli.core.tensor import Tensor
    from gradcli.engine.function import Function
    from gradcli.library.functional import gradgradcheck
    from gradcli.ops.registry import FUNCTIONS

    class Cube(Function):
        """x ** 3 whose backward 3 x^2 g is built so that its own derivative is wrong."""

        __slots__ = ()
        name = "CubeBackward0"

        def forward(self, x):
            self.save(x)
            return x**3

        def backward(self, g, F, x):
            if F.tensor_mode:  # 3 x^2 with a wrong derivative: 3 * x * stop(x)
                return (g * 3.0 * x * Tensor(x.data),)
            return (g * 3.0 * x * x,)

    x = Tensor(np.array([0.5, 1.5]), requires_grad=True)
    assert gradgradcheck(lambda t: FUNCTIONS["sin"](t) * t * t, x) is True
    assert gradgradcheck(lambda t: Cube.apply(t), x) is False
    assert "failed" in session_out.text
