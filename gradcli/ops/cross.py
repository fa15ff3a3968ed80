"""The cross product of 3-vectors along a dim: `torch.linalg.cross(input, other, dim=-1)`
and `torch.cross(input, other, dim=None)` (no dim: the first dim of size 3, with
PyTorch's deprecation warning), `LinalgCrossBackward0`.

Values as PyTorch's CPU kernel computes each component, `a1 * b2 - a2 * b1` compiled to
one fused multiply-add of the first product with the second rounded (measured against
torch 2.13 on 60,000 components per dtype: all equal; the unfused form differs on a
quarter).  The inputs broadcast; the gradients are derivatives.yaml's
`linalg_cross(other, grad)` and `linalg_cross(grad, self)`, summed back to each input's
shape."""

from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor, type_name
from ..engine.function import Function
from ..engine.saved import shown_int
from ..numerics.floats.fma import fma
from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradTypeError, broadcast_error
from .dims import norm_dims, one_dim
from .reduce import _torch_name
from .registry import Arg, register

M = Arg((2, 3))


def cross_values(a, b, axis):
    """a x b along axis (broadcast arrays of one dtype) as PyTorch's kernel rounds it."""
    a, b = np.broadcast_arrays(a, b)
    a0, a1, a2 = (np.take(a, k, axis=axis) for k in range(3))
    b0, b1, b2 = (np.take(b, k, axis=axis) for k in range(3))
    if a.dtype.kind == "f":
        dt = a.dtype

        def part(p, q, r, s):
            return np.asarray(fma(p, q, -(r * s), dtype=dt), dt)
    else:

        def part(p, q, r, s):
            return p * q - r * s

    return np.stack([part(a1, b2, a2, b1), part(a2, b0, a0, b2), part(a0, b1, a1, b0)], axis)


class LinalgCross(Function):
    __slots__ = ("axis", "dim", "sa", "sb")
    name = "LinalgCrossBackward0"
    saved_names = ("self", "other")
    saved_order = (1, 0)  # PyTorch saves other before self
    saved_extra = {"dim": lambda node: shown_int(node.dim)}

    def formula(self, S, a, b):
        a, b = np.broadcast_arrays(S.obj(a), S.obj(b))
        ax = self.axis
        a0, a1, a2 = (np.take(a, k, axis=ax) for k in range(3))
        b0, b1, b2 = (np.take(b, k, axis=ax) for k in range(3))
        return S.obj(np.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], ax))

    def forward(self, a, b, axis, dim):
        self.axis, self.dim, self.sa, self.sb = axis, dim, a.shape, b.shape
        self.save(a, b)
        return cross_values(a, b, axis)

    def backward(self, g, F, a, b):
        ga = _cross(b, g, self.axis, F)
        gb = _cross(g, a, self.axis, F)
        return (F.sum_to(ga, self.sa), F.sum_to(gb, self.sb))

    def jvp(self, ts, F, a, b):
        ta, tb = ts
        out = None
        if ta is not None:
            out = _cross(ta, b, self.axis, F)
        if tb is not None:
            t = _cross(a, tb, self.axis, F)
            out = t if out is None else out + t
        return out


def _cross(a, b, axis, F):
    if F.tensor_mode:
        return LinalgCross.apply(a, b, axis=axis, dim=axis)
    return cross_values(a, b, axis)


def _check(a, b, dim, name):
    for v, what, pos in ((a, "input", 1), (b, "other", 2)):
        if not isinstance(v, Tensor):
            raise GradTypeError(
                f"{name}(): argument '{what}' (position {pos}) must be Tensor, not {type_name(v)}"
            )
    sa, sb = a.data.shape, b.data.shape
    if len(sa) != len(sb):
        raise GradRuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if not sa:
        one_dim(dim, 0)  # a scalar has no dim to take the product along: PyTorch's error
    (axis,) = norm_dims(dim, len(sa)) or (0,)
    if not sa or sa[axis] != 3 or sb[axis] != 3:
        raise GradRuntimeError(
            f"linalg.cross: inputs dimension {dim} must have length 3. Got "
            f"{sa[axis] if sa else 1} and {sb[axis] if sb else 1}"
        )
    try:
        np.broadcast_shapes(sa, sb)
    except ValueError:
        raise broadcast_error(sa, sb) from None
    if a.data.dtype != b.data.dtype:
        raise GradRuntimeError(
            f"expected scalar type {_torch_name(a.data.dtype)} but found "
            f"{_torch_name(b.data.dtype)}"
        )
    return axis


@register(
    "linalg.cross",
    "torch.linalg.cross(input, other, *, dim=-1)",
    "the cross product of 3-vectors along dim (torch.linalg)",
    checks=[((M, M), {}), ((Arg((3, 2)), Arg((3, 1))), {"dim": 0})],
    category="linalg",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def linalg_cross(input, other, *, dim=-1):
    axis = _check(input, other, dim, "linalg_cross")
    return LinalgCross.apply(input, other, axis=axis, dim=dim)


@register(
    "cross",
    "cross(input, other, dim=None)",
    "the cross product of 3-vectors along dim (no dim: the first dim of size 3)",
    method=True,
    checks=[((M, M), {"dim": 1}), ((Arg((3, 2)), Arg((3, 2))), {})],
    category="linalg",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def cross(input, other, dim=None):
    if dim is None:
        if isinstance(input, Tensor) and isinstance(other, Tensor):
            context.warn(
                "Using torch.cross without specifying the dim arg is deprecated.\n"
                "Please either pass the dim explicitly or simply use torch.linalg.cross.\n"
                "The default value of dim will change to agree with that of linalg.cross "
                "in a future release."
            )
            shape = np.broadcast_shapes(input.data.shape, other.data.shape)
            dims = [i for i, n in enumerate(shape) if n == 3]
            if not dims:
                raise GradRuntimeError("no dimension of size 3 in input")
            dim = dims[0]
    axis = _check(input, other, dim, "cross")
    return LinalgCross.apply(input, other, axis=axis, dim=dim)
