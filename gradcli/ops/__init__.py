"""The op families, each differentiable op a `Function` subclass (forward, backward
and PyTorch's grad_fn name side by side) next to the function that the language
calls; importing this package fills the table in `registry`.

Order: a family imports only the registry, the layers below `ops`, and the
families listed before it.
"""
from . import elementwise, reduce, linalg, shape, creation, loss, activation, nn  # noqa: F401
