"""`torch.det(A)`, `A.det()` and `torch.linalg.det(A)`: the determinant of a square matrix
or of each in a batch, as PyTorch 2.13's `_linalg_det` (LinalgDetBackward0).

Values: LAPACK's LU factorisation (numerics/linalg/lapack.py: MKL's getrf as in PyTorch
when the `mkl` package is there), of A's transpose when A is contiguous (its memory is then
already column-major: det(A^T) = det(A)), then the product of U's diagonal taken in order
times the permutation's sign (-1 for an odd number of row swaps).

Gradient (FunctionsManual's linalg_det_backward): G solving A^H G = grad * det * I, from
the forward's LU (getrs, transposed when the LU is of A itself) with each zero pivot of U
replaced by the dtype's epsilon, so a singular matrix gets the gradient of a nearby
invertible one, as in PyTorch.  Under create_graph the gradient is built from
differentiable ops, `(grad * det) * inverse(A)^T` (PyTorch solves with A^H there: the same
value up to the last bits), and refused at a singular matrix (PyTorch takes an SVD there).
JVP (linalg_det_jvp): trace(A^-1 dA) * det, A^-1 dA from the same perturbed LU (forward
over forward mode: from differentiable ops, the inverse for the solve)."""

from __future__ import annotations

import numpy as np

from ..core import tangents as tan
from ..core.tensor import Tensor
from ..engine import forward
from ..engine.declare import none
from ..engine.function import Function
from ..numerics.linalg import lapack
from ..runtime.errors import GradRuntimeError
from .inverse import square_matrices
from .registry import FUNCTIONS, Arg, register


def _factor(a):
    """(LU, pivots, det, transposed) of the (..., n, n) float array a: each matrix's
    getrf factors stacked (LU column-major per matrix), its determinant."""
    n = a.shape[-1]
    batch = a.shape[:-2]
    transposed = bool(a.flags.c_contiguous)  # PyTorch: A.mH() of a contiguous A
    mats = a.reshape((-1, n, n)) if a.size else np.zeros((int(np.prod(batch)), n, n), a.dtype)
    lus = np.empty((mats.shape[0], n, n), a.dtype)
    pivs = np.empty((mats.shape[0], n), np.intc)
    for b, m in enumerate(mats):
        lu, piv = lapack.lu_factor(m.T if transposed else m)
        lus[b], pivs[b] = lu, piv
    diag = np.diagonal(lus, 0, -2, -1)
    det = np.ones(mats.shape[0], a.dtype)
    with np.errstate(all="ignore"):
        for k in range(n):  # at::prod of the diagonal: in order
            det = det * diag[:, k]
    odd = np.count_nonzero(pivs != np.arange(1, n + 1, dtype=np.intc), axis=-1) % 2
    det = np.where(odd == 1, -det, det).astype(a.dtype, copy=False)
    return lus.reshape(batch + (n, n)), pivs.reshape(batch + (n,)), det.reshape(batch), transposed


def _solved(lus, pivs, rhs, transpose):
    """Each matrix's LU solve of rhs (..., n, n), the result column-major per matrix (as
    linalg_lu_solve lays it out), with zero pivots of U replaced by epsilon."""
    n = lus.shape[-1]
    eps = np.finfo(lus.dtype).eps
    out = np.empty(lus.shape[:-2] + (n, n), lus.dtype).reshape((-1, n, n))
    flat_lu, flat_piv = lus.reshape((-1, n, n)), pivs.reshape((-1, n))
    flat_rhs = np.broadcast_to(rhs, lus.shape).reshape((-1, n, n))
    for b in range(flat_lu.shape[0]):
        lu = flat_lu[b]
        bump = np.where(np.diagonal(lu) == 0, eps, 0).astype(lu.dtype)
        x = lapack.lu_solve(
            np.asfortranarray(lu + np.diag(bump)), flat_piv[b], flat_rhs[b], transpose
        )
        out[b] = x
    return out.reshape(lus.shape)


class LinalgDet(Function):
    __slots__ = ("transposed",)
    name = "LinalgDetBackward0"
    saved_names = ("A", "LU", "pivots", "result")
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    def forward(self, a):
        lus, pivs, det, self.transposed = _factor(a)
        self.save(a, lus, pivs, det)
        return det

    def backward(self, g, F, a, lus, pivs, det):
        if F.tensor_mode:
            return (_graph_backward(g, a, det),)
        if lus.size == 0:
            return (np.zeros(a.shape, a.dtype),)
        d = np.zeros(a.shape, a.dtype)  # diag_embed: +0 off the diagonal
        np.einsum("...ii->...i", d)[...] = np.asarray(g * det, a.dtype)[..., None]
        return (_solved(lus, pivs, d, not self.transposed),)

    def jvp(self, ts, F, *saved):
        if _dual(ts[0], saved[0], saved[3]):  # forward over forward: differentiable ops
            f = FUNCTIONS
            solved = f["matmul"](f["inverse"](saved[0]), ts[0])
            return f["mul"](f["sum"](f["diagonal"](solved, 0, -2, -1), -1), saved[3])
        a, lus, pivs, det = (v.data if isinstance(v, Tensor) else v for v in saved)
        t = ts[0].data if isinstance(ts[0], Tensor) else ts[0]
        x = _solved(lus, pivs, np.asarray(t, a.dtype), self.transposed)
        trace = FUNCTIONS["sum"](Tensor(np.diagonal(x, 0, -2, -1)), -1).data
        return Tensor(np.asarray(trace * det, a.dtype))


def _dual(*values):
    """Whether a value carries a tangent of a level the jvp runs under (an outer one)."""
    vis = forward.State.visible
    for v in values:
        tg = tan.tangents_of(v) if type(v) is Tensor else None
        if tg and any(level in vis for level in tg):
            return True
    return False


def _graph_backward(g, a, det):
    """The gradient under create_graph, from differentiable ops: (g * det) A^-T."""
    if bool(np.any(det.data == 0)):
        raise GradRuntimeError(
            "linalg.det: the gradient at a singular matrix cannot be differentiated again "
            "by gradcli (create_graph=True)"
        )
    f = FUNCTIONS
    scale = f["unsqueeze"](f["unsqueeze"](f["mul"](g, det), -1), -1)
    return f["mul"](scale, f["transpose"](f["inverse"](a), -2, -1))


def _det(A, what):
    square_matrices(A, what, "linalg.det", "A" if what == "linalg_det" else "input")
    return LinalgDet.apply(A)


@register(
    "det",
    "det(input)",
    "the determinant of a square matrix (or of each in a batch)",
    method=True,
    checks=[((Arg((3, 3), 0.5, 2.0),), {}), ((Arg((2, 2, 2), 0.5, 2.0),), {})],
    category="linalg",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def det(input):
    return _det(input, "det")


def linalg_det(A, *, out=None):
    """torch.linalg.det (the same op)."""
    return _det(A, "linalg_det")
