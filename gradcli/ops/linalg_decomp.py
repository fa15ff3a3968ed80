"""`torch.linalg.cholesky(A, *, upper=False)` and `torch.linalg.eigvalsh(A, UPLO='L')`:
LinalgCholeskyExBackward0 and LinalgEighBackward0, computed by LAPACK's potrf and syevd
as PyTorch's CPU build calls them (numerics/linalg/symmetric.py); gradients as
FunctionsManual.cpp's: cholesky_backward (Murray's formula with two triangular solves,
BLAS's trsm, in PyTorch's layouts) and linalg_eig_backward's Hermitian shortcut
`(V * gL) @ V^T` for the eigenvalues alone. Their gradients are first order only (the
gradient of a gradient is refused, not computed wrongly)."""

from __future__ import annotations

import numpy as np

from ..engine.declare import none
from ..engine.function import Function
from ..numerics.linalg.bmm import torch_bmm
from ..numerics.linalg.symmetric import cholesky, eigh, solve_triangular
from ..numerics.mkl import torch_mm
from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradTypeError
from .inverse import square_matrices
from .registry import register


def _items(a):
    """The matrices of a (..., n, n) array, in order, and the batch's shape."""
    return a.reshape((-1,) + a.shape[-2:]), a.shape[:-2]


def _first_order(F, what):
    if F.tensor_mode:
        raise GradRuntimeError(
            f"{what}: gradcli computes its gradient, not the gradient of its gradient"
        )


class LinalgCholeskyEx(Function):
    __slots__ = ("upper",)
    name = "LinalgCholeskyExBackward0"
    saved_names = ("L",)
    saved_extra = {"upper": lambda node: node.upper}
    jvp = none("forward mode of linalg.cholesky is not written")
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    def forward(self, a, upper):
        self.upper = upper
        items, batch = _items(a)
        out = np.empty_like(items)
        for b, m in enumerate(items):
            L, info = cholesky(m, upper)
            if info:
                where = f"(Batch element {b}): " if a.ndim > 2 else ""
                raise GradRuntimeError(
                    f"linalg.cholesky: {where}The factorization could not be completed "
                    "because the input is not positive-definite (the leading minor of order "
                    f"{info} is not positive-definite).",
                    type_name="torch._C._LinAlgError",
                )
            out[b] = L
        out = out.reshape(a.shape)
        self.save(out)
        return out

    def backward(self, g, F, L):
        _first_order(F, "linalg.cholesky")
        gs, _ = _items(g)
        Ls, _ = _items(L)
        out = np.empty(gs.shape, gs.dtype)
        for b in range(len(gs)):
            out[b] = _cholesky_backward(gs[b], Ls[b], self.upper)
        return (out.reshape(g.shape),)


def _cholesky_backward(gL, L, upper):
    """cholesky_backward for one matrix, L held column-major as LAPACK left it."""
    L = np.asfortranarray(L)
    if upper:
        L, gL = L.T, gL.T
    gA = np.tril(torch_mm(L.T, gL))
    gA = gA.dtype.type(0.5) * (gA + np.tril(gA, -1).T)
    gA = solve_triangular(L.T, gA, True, True)
    return solve_triangular(L, gA, False, False)


class LinalgEigh(Function):
    __slots__ = ()
    name = "LinalgEighBackward0"
    saved_names = ("eigenvalues", "eigenvectors")
    jvp = none("forward mode of linalg.eigvalsh is not written")
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    def forward(self, a, uplo, vectors):
        items, batch = _items(a)
        n = a.shape[-1]
        w = np.empty((len(items), n), a.dtype)
        v = np.empty(items.shape, a.dtype)
        for b, m in enumerate(items):
            w[b], vb = eigh(m, uplo, vectors)
            if vectors:
                v[b] = vb
        w = w.reshape(batch + (n,))
        self.save(w, np.swapaxes(np.swapaxes(v, -1, -2).copy(), -1, -2).reshape(a.shape))
        return w

    def backward(self, g, F, w, V):
        _first_order(F, "linalg.eigvalsh")
        # V column-major, as LAPACK left it; V * gL keeps that layout (TensorIterator's)
        gV = V * g[..., None, :]
        Vt = np.swapaxes(V, -1, -2)
        if V.ndim == 2:
            return (torch_mm(gV, Vt),)
        items, _ = _items(gV)
        return (torch_bmm(items, _items(Vt)[0]).reshape(V.shape),)


@register(
    "linalg.cholesky",
    "torch.linalg.cholesky(A, *, upper=False)",
    "the Cholesky factor L of a symmetric positive-definite A = L L^T (lower; upper=True: "
    "U with A = U^T U), LAPACK's potrf",
    checks=none("its gradient is checked by tests/ops/test_linalg_decomp.py (first order)"),
    category="linalg",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def linalg_cholesky(A, *, upper=False, out=None):
    square_matrices(A, "linalg_cholesky", "linalg.cholesky", "input")
    if not isinstance(upper, bool):
        raise GradTypeError(
            f"linalg_cholesky(): argument 'upper' must be bool, not {type(upper).__name__}"
        )
    return LinalgCholeskyEx.apply(A, upper=upper)


@register(
    "linalg.eigvalsh",
    "torch.linalg.eigvalsh(A, UPLO='L')",
    "the eigenvalues of a symmetric A, ascending (reading its UPLO triangle), LAPACK's syevd",
    checks=none("its gradient is checked by tests/ops/test_linalg_decomp.py (first order)"),
    category="linalg",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def linalg_eigvalsh(A, UPLO="L", *, out=None):
    square_matrices(A, "linalg_eigvalsh", "linalg.eigh", "input")
    if UPLO not in ("L", "U"):
        raise GradRuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    vectors = A.requires_grad and context.current.grad_enabled
    return LinalgEigh.apply(A, uplo=UPLO, vectors=vectors)
