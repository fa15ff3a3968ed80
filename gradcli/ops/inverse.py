"""`torch.inverse(A)`, `A.inverse()` and `torch.linalg.inv(A)`: the inverse of a square
matrix or of each in a batch, as PyTorch 2.13's `linalg_inv_ex` (LinalgInvExBackward0),
with its errors.  Values: numerics/linalg/lapack.py (MKL's LAPACK as in PyTorch when the `mkl`
package is there; NumPy's otherwise).  The result is laid out as PyTorch's, each
matrix column-major, so `reshape` of it copies (UnsafeViewBackward0) as in PyTorch.

derivatives.yaml: the gradient is -inv^H @ (g @ inv^H), the JVP -(inv @ t) @ inv,
both through gradcli's differentiable matmul, so higher orders follow."""

from __future__ import annotations

from ..engine.declare import none

import numpy as np

from ..numerics.linalg import lapack
from ..numerics import mkl
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..core.tensor import Tensor, type_name
from ..engine.function import Function
from ..engine.versions import type_word
from .registry import FUNCTIONS, Arg, register


def _mh(a):
    return np.swapaxes(a, -1, -2)


def _matmul(a, b):
    if a.ndim == 2 and b.ndim == 2:
        return mkl.torch_mm(a, b)
    return np.matmul(a, b)


class LinalgInvEx(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ()
    name = "LinalgInvExBackward0"
    saved_names = ("inverse",)

    def forward(self, a):
        out, bad = lapack.inverse(a)
        if bad is not None:
            b, info = bad
            where = f"(Batch element {b}): " if a.ndim > 2 else ""
            raise GradRuntimeError(
                f"linalg.inv: {where}The diagonal element {info} is zero, the inversion could "
                "not be completed because the input matrix is singular.",
                type_name="torch._C._LinAlgError",
            )
        self.save(out)
        return out

    def backward(self, g, F, out):
        if F.tensor_mode:
            mm, t = FUNCTIONS["matmul"], FUNCTIONS["transpose"]
            inv_h = t(out, -2, -1)
            return (FUNCTIONS["neg"](mm(inv_h, mm(g, inv_h))),)
        inv_h = _mh(out)
        return (-_matmul(inv_h, _matmul(g, inv_h)),)

    def jvp(self, ts, F, out):
        mm = FUNCTIONS["matmul"]
        return FUNCTIONS["neg"](mm(mm(out, ts[0]), out))


def square_matrices(A, what, op, arg="A"):
    """A checked as PyTorch's linalg ops check their input (`op`: linalg.inv, linalg.det):
    a Tensor (`what`, `arg`: the call's name and the argument's, for the TypeError) of
    square float32/float64 matrices; its array."""
    if not isinstance(A, Tensor):
        raise GradTypeError(
            f"{what}(): argument '{arg}' (position 1) must be Tensor, not "
            f"{'NoneType' if A is None else type_name(A)}"
        )
    a = A.data
    if a.ndim < 2:
        raise GradRuntimeError(f"{op}: The input tensor A must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise GradRuntimeError(
            f"{op}: A must be batches of square matrices, but they are "
            f"{a.shape[-2]} by {a.shape[-1]} matrices"
        )
    if a.dtype not in (np.float32, np.float64):
        raise GradRuntimeError(
            f"{op}: Expected a floating point or complex tensor as input. Got {type_word(a.dtype)}"
        )
    return a


def _inverse(A, what):
    square_matrices(A, what, "linalg.inv")
    return LinalgInvEx.apply(A)


@register(
    "inverse",
    "inverse(input)",
    "the inverse of a square matrix (or of each in a batch)",
    method=True,
    checks=[((Arg((3, 3), 0.5, 2.0),), {}), ((Arg((2, 2, 2), 0.5, 2.0),), {})],
    category="linalg",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def inverse(input, *, out=None):
    return _inverse(input, "inverse")


def linalg_inv(A, *, out=None):
    """torch.linalg.inv (the same op)."""
    return _inverse(A, "linalg_inv")
