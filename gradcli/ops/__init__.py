"""The op families, each differentiable op a `Function` subclass (forward, backward
and PyTorch's grad_fn name side by side) next to the function that the language
calls; importing this package fills the table in `registry`.

Order: a family imports only the registry, the layers below `ops`, and the
families listed before it.
"""

from . import (
    dims,
    shape,
    narrowing,
    diagonal,
    combine,
    elementwise,
    power,
    half_nodes,
    scaled,
    pointwise,
    binary_math,
    bitwise,
    reduce,
    moments,
    softmax,
    linalg,
    creation,
    activation,
    loss,
    nn,
    padding,
)  # noqa: F401
from . import gathering, repeating, topk, inverse  # noqa: F401,E402  (index_select gather scatter repeat ravel topk inverse)
from . import sorting  # noqa: F401,E402  (sort argsort diag)
from . import rounding, addmm  # noqa: F401,E402  (div's rounding_mode, fmod; torch.addmm)
from . import batch_rules  # noqa: F401,E402  (vmap: the batching rules of the ops above)
from .registry import FUNCTIONS
from ..core.tensor import Tensor


def _install_operators():
    """Tensor's Python operators, from the table (used by gradcli itself and by the
    VJPs in create_graph mode: `a * b` on tensors records a graph)."""

    def binary(name):
        fn = FUNCTIONS[name]
        return (lambda self, o: fn(self, o)), (lambda self, o: fn(o, self))

    for dunder, name in (
        ("add", "add"),
        ("sub", "sub"),
        ("mul", "mul"),
        ("truediv", "div"),
        ("pow", "pow"),
        ("matmul", "matmul"),
    ):
        forward, reflected = binary(name)
        setattr(Tensor, f"__{dunder}__", forward)
        setattr(Tensor, f"__r{dunder}__", reflected)
    for dunder in ("gt", "lt", "ge", "le", "eq", "ne"):
        setattr(Tensor, f"__{dunder}__", binary(dunder)[0])
    for dunder, name in (
        ("and", "bitwise_and"),
        ("or", "bitwise_or"),
        ("lshift", "bitwise_left_shift"),
        ("rshift", "bitwise_right_shift"),
    ):
        forward, reflected = binary(name)
        setattr(Tensor, f"__{dunder}__", forward)
        setattr(Tensor, f"__r{dunder}__", reflected)
    Tensor.__invert__ = bitwise.invert
    neg = FUNCTIONS["neg"]
    Tensor.__neg__ = lambda self: neg(self)
    Tensor.__hash__ = object.__hash__  # __eq__ above would otherwise unset it


_install_operators()
