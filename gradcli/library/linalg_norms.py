"""`torch.linalg.norm` and `torch.linalg.matrix_norm`, as ATen's LinearAlgebra.cpp composes
them of `linalg.vector_norm` and `amax`/`amin`: the Frobenius norm is the vector 2-norm
over the two dims (`LinalgVectorNormBackward0`), the 1 and inf norms a vector 1-norm over
one dim and the max (min for -1, -inf) over the other (`AmaxBackward0`); `linalg.norm`
with no ord is the vector 2-norm of everything or over dim.  The spectral and nuclear
norms (ord 2, -2, 'nuc') need singular values, which gradcli has not: an error."""

from __future__ import annotations

import math

from ..core.convert import type_name
from ..core.dtypes import scalar_type_name
from ..core.tensor import Tensor
from ..ops.registry import FUNCTIONS, Arg, register
from ..runtime.errors import GradIndexError, GradRuntimeError, GradTypeError

M = Arg((2, 3))


def _dims(dim, ndim):
    """The two dims as a list, wrapped as ATen's maybe_wrap_dims does."""
    dims = list(dim) if isinstance(dim, (list, tuple)) else [dim]
    if len(dims) != 2:
        raise GradRuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {_show(dims)}")
    for d in dims:
        if isinstance(d, bool) or not isinstance(d, int):
            raise GradTypeError(f"dim must be an integer, got {d!r}")
    out = []
    for d in dims:
        if not -ndim <= d < ndim:
            raise GradIndexError(
                f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], "
                f"but got {d})"
            )
        out.append(d % ndim)
    if out[0] == out[1]:
        raise GradRuntimeError(
            f"linalg.matrix_norm: dims must be different. Got ({out[0]}, {out[1]})"
        )
    return out


def _show(dims):
    """A list of dims as c10 prints an IntArrayRef: one alone as its number."""
    return str(dims[0]) if len(dims) == 1 else "[" + ", ".join(map(str, dims)) + "]"


def _matrix_checks(A, ord):
    if not isinstance(A, Tensor):
        raise GradTypeError(
            f"linalg_matrix_norm(): argument 'input' (position 1) must be Tensor, not "
            f"{type_name(A)}"
        )
    if A.data.ndim < 2:
        raise GradRuntimeError(
            "linalg.matrix_norm: The input tensor A must have at least 2 dimensions."
        )
    if A.data.dtype.kind != "f":
        raise GradRuntimeError(
            "linalg.matrix_norm: Expected a floating point or complex tensor as input. Got "
            + scalar_type_name(A.data.dtype)
        )


@register(
    "linalg.matrix_norm",
    "torch.linalg.matrix_norm(A, ord='fro', dim=(-2, -1), keepdim=False, *, dtype=None)",
    "the matrix norm over two dims: 'fro', or ord 1, -1, inf, -inf (torch.linalg)",
    checks=[
        ((M,), {}),
        ((M,), {"ord": 1}),
        ((Arg((2, 2, 3)),), {"ord": -math.inf, "dim": (0, 2), "keepdim": True}),
    ],
    category="linalg",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def linalg_matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise GradRuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
        _matrix_checks(A, ord)
        dims = _dims(dim, A.data.ndim)
        if ord == "nuc":
            raise GradRuntimeError(_NO_SVD.format("'nuc'"))
        return FUNCTIONS["linalg.vector_norm"](A, 2, dims, keepdim, dtype=dtype)
    if isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise GradTypeError(
            "linalg_matrix_norm() received an invalid combination of arguments - got "
            f"(Tensor, ord={type_name(ord)}), but expected one of:"
        )
    o = float(ord)
    if abs(o) not in (1.0, 2.0, math.inf):
        raise GradRuntimeError(f"linalg.matrix_norm: Order {_num(o)} not supported.")
    _matrix_checks(A, o)
    dims = _dims(dim, A.data.ndim)
    if abs(o) == 2.0:
        raise GradRuntimeError(_NO_SVD.format(_num(o)))
    if abs(o) == math.inf:
        dims.reverse()  # the inf norm is the 1 norm of the transpose
    if not keepdim and dims[0] < dims[1]:
        dims[1] -= 1  # (the first reduction removed a dim before it)
    v = FUNCTIONS["linalg.vector_norm"](A, 1.0, [dims[0]], keepdim, dtype=dtype)
    return FUNCTIONS["amax" if o > 0 else "amin"](v, dims[1], keepdim)


_NO_SVD = (
    "linalg.matrix_norm: the order {} norm takes the singular values (linalg.svdvals), "
    "which gradcli does not compute"
)


def _num(o):
    return str(int(o)) if o == int(o) else repr(o) if not math.isinf(o) else str(o)


@register(
    "linalg.norm",
    "torch.linalg.norm(A, ord=None, dim=None, keepdim=False, *, dtype=None)",
    "a vector norm, or a matrix norm over two dims when ord is given (torch.linalg)",
    checks=[((M,), {}), ((M,), {"dim": 1}), ((M,), {"ord": math.inf}), ((M,), {"ord": "fro"})],
    category="linalg",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def linalg_norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    if not isinstance(A, Tensor):
        raise GradTypeError(
            f"linalg_norm(): argument 'input' (position 1) must be Tensor, not {type_name(A)}"
        )
    nd = A.data.ndim
    if dim is not None:
        n = len(dim) if isinstance(dim, (list, tuple)) else 1
        if n not in (1, 2):
            raise GradRuntimeError(
                "linalg.norm: If dim is specified, it must be of length 1 or 2. Got "
                + _show(list(dim))
            )
    elif ord is not None and nd not in (1, 2):
        raise GradRuntimeError(
            f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {nd}D."
        )
    if isinstance(ord, str):
        return linalg_matrix_norm(A, ord, [0, 1] if dim is None else dim, keepdim, dtype=dtype)
    two = dim is None and nd == 2 or isinstance(dim, (list, tuple)) and len(dim) == 2
    if ord is not None and two:
        return linalg_matrix_norm(A, ord, [0, 1] if dim is None else dim, keepdim, dtype=dtype)
    return FUNCTIONS["linalg.vector_norm"](
        A, 2.0 if ord is None else ord, dim, keepdim, dtype=dtype
    )
