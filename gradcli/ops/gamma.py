"""digamma (torch.special.digamma, psi): ATen's `calc_digamma` to the last bit
(numerics/floats/digamma.py), its gradient derivatives.yaml's grad * polygamma(1, self)
with ATen's trigamma.  First order only: its gradient is not itself differentiable
here (create_graph and forward mode say so)."""

from __future__ import annotations

from ..core.convert import tensor_arg
from ..engine.declare import none
from ..numerics.floats.digamma import digamma as digamma_values, trigamma
from .registry import Arg, register
from .unary import TENSOR_INPUT, Unary


class Digamma(Unary):
    __slots__ = ()
    name = "DigammaBackward0"
    np_fn = staticmethod(digamma_values)
    saves = "x"
    saved_names = ("self",)
    differentiable_twice = False  # polygamma(1, .) is not a differentiable op here
    jvp = none("forward mode needs polygamma(1, x) as a differentiable op")
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    def backward(self, g, F, x):
        return (g * trigamma(x),)


@register(
    "digamma",
    "digamma(input)",
    "the logarithmic derivative of the gamma function, d/dx log(gamma(input))",
    method=True,
    checks=[((Arg((), 0.5, 3.0),), {}), ((Arg((2, 3), -2.8, -2.2),), {})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=TENSOR_INPUT,
)
def digamma(input):
    return Digamma.apply(tensor_arg(input))


digamma.tensor_input = True  # torch.digamma of a number is PyTorch's TypeError
