"""digamma (torch.special.digamma, psi): ATen's `calc_digamma` to the last bit
(numerics/floats/digamma.py), its gradient derivatives.yaml's grad * polygamma(1, self)
with ATen's trigamma.  First order only: its gradient is not itself differentiable
here (create_graph and forward mode say so).

lgamma (torch.special.gammaln): SLEEF's lgamma to the last bit, as ATen's vml kernel runs
it on every value (numerics/floats/sleef_lgamma.py), its gradient derivatives.yaml's
grad * digamma(self).  First order only too: the second derivative would be digamma's
gradient, which is."""

from __future__ import annotations

from ..core.convert import tensor_arg
from ..engine.declare import none
from ..numerics.floats.digamma import digamma as digamma_values, trigamma
from ..numerics.floats.sleef_lgamma import lgamma as lgamma_values
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


class Lgamma(Unary):
    __slots__ = ()
    name = "LgammaBackward0"
    np_fn = staticmethod(lgamma_values)
    saves = "x"
    saved_names = ("self",)
    differentiable_twice = False  # its gradient's digamma is first order only here

    def formula(self, S, x):  # SymPy's loggamma: log(gamma(x)) where gamma(x) > 0
        return S.map(lambda v: S.sp.loggamma(v), x)

    def backward(self, g, F, x):
        return (g * digamma_values(x),)

    def jvp(self, ts, F, x):  # self_t * digamma(self_p)
        return ts[0] * digamma(x)


@register(
    "lgamma",
    "lgamma(input)",
    "the natural logarithm of the absolute value of the gamma function of input",
    method=True,
    checks=[
        ((Arg((), 0.5, 3.0),), {}),
        ((Arg((3,), 2.5, 9.0),), {}),
        ((Arg((2, 3), -2.8, -2.2),), {}),
    ],
    category="math",
    batch="elementwise",
    inplace="lgamma_",
    pure=False,
    parser=TENSOR_INPUT,
)
def lgamma(input):
    return Lgamma.apply(tensor_arg(input))


lgamma.tensor_input = True  # torch.lgamma of a number is PyTorch's TypeError
