"""`torch.rot90` (Rot90Backward0) and `torch.block_diag` (BlockDiagBackward0).

rot90 is ATen's: k taken modulo 4; k = 1 flips dims[1] then transposes (a view of the
flipped copy, so the result is laid out as torch's), k = 2 flips both dims, k = 3 flips
dims[0] then transposes, k = 0 a contiguous copy; its gradient is `grad.rot90(-k, dims)`.
block_diag places each input (a 0-d one as 1 x 1, a 1-d one as one row) on the diagonal
of a zero matrix of their promoted dtype; each gradient is its block of the gradient."""

from __future__ import annotations

import numpy as np

from ..core import dtypes
from ..core.tensor import Tensor, type_name
from ..engine.declare import none
from ..engine.forward import linear
from ..engine.function import Function
from ..engine.saved import shown_int
from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradTypeError
from .registry import FUNCTIONS, Arg, register


def _dim(d, n):
    if not -n <= d < n:
        raise GradRuntimeError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})",
            type_name="IndexError",
        )
    return d % n


def rot90_values(x, k, d0, d1):
    """The rotated array, laid out as ATen's rot90 leaves it."""
    k = (4 + (k % 4)) % 4
    if k == 1:
        return np.swapaxes(np.flip(x, d1).copy(), d0, d1)
    if k == 2:
        return np.flip(x, (d0, d1)).copy()
    if k == 3:
        return np.swapaxes(np.flip(x, d0).copy(), d0, d1)
    return np.ascontiguousarray(x).copy()


class Rot90(Function):
    __slots__ = ("k", "dims")
    name = "Rot90Backward0"
    saved_names = ()
    saved_extra = {"k": lambda node: shown_int(node.k), "dims": lambda node: tuple(node.dims)}
    formula = none("a rearrangement: shown as a named function with its local Jacobian")

    def forward(self, x, k, dims):
        self.k, self.dims = k, dims
        n = x.ndim
        return rot90_values(x, k, _dim(dims[0], n), _dim(dims[1], n))

    def backward(self, g, F):
        if F.tensor_mode:
            return (FUNCTIONS["rot90"](g, -self.k, list(self.dims)),)
        n = g.ndim
        return (rot90_values(g, -self.k, _dim(self.dims[0], n), _dim(self.dims[1], n)),)

    jvp = linear


@register(
    "rot90",
    "rot90(input, k=1, dims=[0, 1])",
    "input rotated by 90 degrees k times, from the first of dims towards the second",
    method=True,
    checks=[
        ((Arg((2, 3)),), {}),
        ((Arg((2, 3)), 2, [1, 0]), {}),
        ((Arg((2, 3, 2)), -1, [0, 2]), {}),
        ((Arg((2, 3)), 4), {}),
    ],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def rot90(input, k=1, dims=(0, 1)):
    if not isinstance(input, Tensor):
        raise GradTypeError(
            f"rot90(): argument 'input' (position 1) must be Tensor, not {type_name(input)}"
        )
    dims = list(dims)
    if len(dims) != 2:
        raise GradRuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    n = input.data.ndim
    if n < 2:
        raise GradRuntimeError(f"expected total dims >= 2, but got total dims = {n}")
    for d in dims:
        _dim(d, n)
    if dims[0] == dims[1] or abs(dims[0] - dims[1]) == n:
        raise GradRuntimeError(
            f"expected rotation dims to be different, but got dim0 = {dims[0]} and dim1 = {dims[1]}"
        )
    return Rot90.apply(input, k=int(k), dims=dims)


# ---------------------------------------------------------------- block_diag


def _as_matrix(shape):
    return (1, 1) if len(shape) == 0 else (1, shape[0]) if len(shape) == 1 else tuple(shape)


class BlockDiag(Function):
    __slots__ = ("shapes",)
    name = "BlockDiagBackward0"
    saved_names = ()
    formula = none("a rearrangement: shown as a named function with its local Jacobian")

    def forward(self, *arrays, dt):
        self.shapes = [a.shape for a in arrays]
        mats = [a.reshape(_as_matrix(a.shape)) for a in arrays]
        rows = sum(m.shape[0] for m in mats)
        cols = sum(m.shape[1] for m in mats)
        out = np.zeros((rows, cols), dt)
        r = c = 0
        for m in mats:
            out[r : r + m.shape[0], c : c + m.shape[1]] = m
            r, c = r + m.shape[0], c + m.shape[1]
        return out

    def backward(self, g, F):
        grads = []
        r = c = 0
        for shape, need in zip(self.shapes, self.needs):
            h, w = _as_matrix(shape)
            if need:
                if F.tensor_mode:
                    narrow = FUNCTIONS["narrow"]
                    block = narrow(narrow(g, 0, r, h), 1, c, w)
                    if len(shape) < 2:
                        block = FUNCTIONS["reshape"](block, shape)
                else:
                    block = g[r : r + h, c : c + w]
                    block = block.reshape(shape) if len(shape) < 2 else block
                grads.append(block)
            else:
                grads.append(None)
            r, c = r + h, c + w
        return tuple(grads)

    jvp = linear


@register(
    "block_diag",
    "block_diag(*tensors)",
    "a matrix with the tensors (0-d, 1-d as one row, or 2-d) on its diagonal, zeros elsewhere",
    checks=[((Arg((2, 3)), Arg((2,)), Arg(())), {}), ((Arg((1, 2)), Arg((3, 1))), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def block_diag(*tensors):
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise GradTypeError(
                f"block_diag(): argument 'tensors' (position 1) must be tuple of Tensors, not "
                f"{type_name(t)}"
            )
        if t.data.ndim > 2:
            raise GradRuntimeError(
                "torch.block_diag: Input tensors must have 2 or fewer dimensions. "
                f"Input {i} has {t.data.ndim} dimensions"
            )
    if not tensors:
        return Tensor(np.zeros((1, 0), context.current.default_float))
    dt = dtypes.result_type(*tensors)
    return BlockDiag.apply(*tensors, dt=dt)
