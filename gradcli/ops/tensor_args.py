"""PyTorch's argument parser for ops whose operands must be tensors: `torch.maximum(x, 3)`,
`torch.atan2(x, 2.0)` and `x.hypot([1, 2])` are TypeErrors (where `x + 3` is not); and
for int arguments (`x.topk(2.0)`)."""

from __future__ import annotations

from ..runtime.errors import GradTypeError
from ..runtime.limits import check_broadcast
from ..core.tensor import Tensor, type_name


def _pytype(v):
    return "NoneType" if v is None else type_name(v)


def int_arg(op, v, what, pos):
    """An int argument of `op` (a 0-d integer tensor taken as its value), or PyTorch's
    TypeError naming the argument `what` at position `pos`."""
    if isinstance(v, Tensor) and v.data.ndim == 0 and v.data.dtype.kind in "iu":
        v = v.item()
    if isinstance(v, bool) or not isinstance(v, int):
        raise GradTypeError(
            f"{op}(): argument '{what}' (position {pos}) must be int, not {_pytype(v)}"
        )
    return v


def tensors_only(name, input, other, *, method=False, names=("input", "other"), broadcast=True):
    """Both operands as Tensors, or PyTorch's TypeError naming the one that is not
    (positions counted as in `torch.name(input, other)`, or `input.name(other)`;
    `names`: PyTorch's names of the two parameters)."""
    if not isinstance(input, Tensor):
        raise GradTypeError(
            f"{name}(): argument '{names[0]}' (position 1) must be Tensor, not {_pytype(input)}"
        )
    if not isinstance(other, Tensor):
        raise GradTypeError(
            f"{name}(): argument '{names[1]}' (position {1 if method else 2}) "
            f"must be Tensor, not {_pytype(other)}"
        )
    if broadcast:
        check_broadcast(input.data.shape, other.data.shape)
    return input, other


def with_method_positions(fn, name, names=("input", "other")):
    """fn(input, other), a built-in whose method form x.name(other) counts `other` as
    position 1 in its TypeError (library/methods.py takes `fn.method` as the method)."""

    def method(input, other):
        tensors_only(name, input, other, method=True, names=names, broadcast=False)
        return fn(input, other)

    method.__name__ = fn.__name__
    fn.method = method
    return fn
