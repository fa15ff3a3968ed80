"""`torch.linalg.slogdet(A)` (and `torch.slogdet`, `A.slogdet()`), `torch.logdet(A)` and
`torch.linalg.solve(A, B)`, as PyTorch 2.13's `_linalg_slogdet` (LinalgSlogdetBackward0)
and `linalg_solve_ex` (LinalgSolveExBackward0), with their errors.

Values: LAPACK's LU factorisation as ops/det.py takes it (MKL's getrf when the `mkl`
package is there: of A's transpose when A is contiguous); slogdet's sign is the product of
the signs of U's diagonal times the permutation's, its logabsdet the sum of the logs of
their absolute values (torch's log and sum); solve factors A itself (getrf) and solves
with getrs, trans='N'.  Checked bit for bit against torch on float32 and float64 matrices of
1 to 64 rows, contiguous and transposed.

Gradients (FunctionsManual's slogdet_backward, linalg_solve_backward): logabsdet's is
grad * A^-H from the forward's LU; the sign has none (real matrices).  solve's: gB =
A^-H gX from the LU, gA = -gB X^H.  Under create_graph they are built from differentiable
ops (as PyTorch recomputes them with linalg_solve).  torch.logdet is
`where(sign == -1, nan, logabsdet)` (WhereBackward0)."""

from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor, type_name
from ..engine.declare import none
from ..engine.function import Function
from ..engine.saved import saved_attr
from ..engine.versions import type_word
from ..numerics.linalg import lapack
from ..runtime.errors import GradRuntimeError, GradTypeError
from .det import _factor, _solved
from .inverse import square_matrices
from .registry import FUNCTIONS, Arg, register
from .return_types import ValuesIndices


class SignLogabsdet(ValuesIndices):
    """torch.return_types.linalg_slogdet(sign, logabsdet) (slogdet for torch.slogdet)."""

    fields = ("sign", "logabsdet")

    @property
    def sign(self):
        return self[0]

    @property
    def logabsdet(self):
        return self[1]


def _slogdet_values(a):
    """(sign, logabsdet, LU, pivots, transposed) of the (..., n, n) float array a."""
    lus, pivs, _det, transposed = _factor(a)
    n = a.shape[-1]
    diag = np.diagonal(lus, 0, -2, -1)
    odd = np.count_nonzero(pivs != np.arange(1, n + 1, dtype=np.intc), axis=-1) % 2
    sign = (np.prod(np.sign(diag), axis=-1) * np.where(odd == 1, -1, 1)).astype(a.dtype)
    with np.errstate(divide="ignore"):
        logs = FUNCTIONS["log"](Tensor(np.abs(diag).copy())).data
    logabsdet = FUNCTIONS["sum"](Tensor(logs), -1).data
    return np.asarray(sign), np.asarray(logabsdet, a.dtype), lus, pivs, transposed


def _twin_attr(name):
    return lambda node: saved_attr(node.twin, "_saved_" + name)


class LinalgSlogdet(Function):
    """slogdet's logabsdet output: its saved values are those of the sign's node (one node
    to PyTorch, whose pack hooks see them once)."""

    __slots__ = ("transposed", "twin")
    name = "LinalgSlogdetBackward0"
    saved_names = (None,)  # A, for forward mode (PyTorch's names: the sign's node's)
    saved_extra = {n: _twin_attr(n) for n in ("A", "LU", "pivots", "sign")}
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    def forward(self, a, logabsdet, transposed, twin):
        self.transposed, self.twin = transposed, twin
        self.save(a)
        return logabsdet

    def backward(self, g, F, a):
        if F.tensor_mode:  # A^-H g, from differentiable ops
            f = FUNCTIONS
            inv_h = f["transpose"](f["inverse"](a), -2, -1)
            return (f["mul"](f["unsqueeze"](f["unsqueeze"](g, -1), -1), inv_h),)
        lus, pivs = (saved_attr(self.twin, "_saved_" + n).data for n in ("LU", "pivots"))
        if lus.size == 0:
            return (np.zeros(a.shape, a.dtype),)
        d = np.zeros(a.shape, a.dtype)
        np.einsum("...ii->...i", d)[...] = np.asarray(g, a.dtype)[..., None]
        return (_solved(lus, pivs, d, not self.transposed),)

    def jvp(self, ts, F, a):
        # trace(A^-1 dA)
        f = FUNCTIONS
        solved = f["matmul"](f["inverse"](a), ts[0])
        return f["sum"](f["diagonal"](solved, 0, -2, -1), -1)


class LinalgSlogdetSign(Function):
    """slogdet's sign output: the same node to PyTorch (saving what it saves, the sign its
    own output); no gradient for real matrices."""

    __slots__ = ()
    name = "LinalgSlogdetBackward0"
    saved_names = ("A", "LU", "pivots", "sign")
    formula = none("the sign is piecewise constant: no formula")

    def forward(self, a, sign, lus, pivs):
        self.save(a, lus, pivs, sign)
        return sign

    def backward(self, g, F, *saved):
        return (None,)

    def jvp(self, ts, F, *saved):
        return None


def _slogdet(A, what, kind):
    a = square_matrices(A, what, "linalg.slogdet" if kind != "logdet" else "logdet")
    sign, logabsdet, lus, pivs, transposed = _slogdet_values(a)
    s = LinalgSlogdetSign.apply(A, sign=sign, lus=lus, pivs=pivs)
    out = LinalgSlogdet.apply(A, logabsdet=logabsdet, transposed=transposed, twin=s.grad_fn)
    return SignLogabsdet(s, out, kind)


@register(
    "slogdet",
    "slogdet(input)",
    "(sign, logabsdet) of the determinant of a square matrix (or of each in a batch)",
    method=True,
    checks=[((Arg((3, 3), 0.5, 2.0),), {}), ((Arg((2, 2, 2), 0.5, 2.0),), {})],
    category="linalg",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def slogdet(input):
    return _slogdet(input, "slogdet", "slogdet")


def linalg_slogdet(A, *, out=None):
    """torch.linalg.slogdet (the same op, its own return type's name)."""
    return _slogdet(A, "linalg_slogdet", "linalg_slogdet")


@register(
    "logdet",
    "logdet(input)",
    "the log of the determinant of a square matrix (nan where it is negative)",
    method=True,
    # (1 x 1 samples: a positive determinant, where logdet has a gradient)
    checks=[((Arg((1, 1), 0.5, 2.0),), {}), ((Arg((2, 1, 1), 0.5, 2.0),), {})],
    category="linalg",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def logdet(input):
    sign, logabsdet = _slogdet(input, "logdet", "logdet")
    nan = Tensor(np.asarray(np.nan, logabsdet.data.dtype))
    return FUNCTIONS["where"](FUNCTIONS["eq"](sign, -1.0), nan, logabsdet)


# ---------------------------------------------------------------- solve


def _lu_solve(lus, pivs, rhs, transpose):
    """Each matrix's getrs of rhs (..., n, k), broadcast to lus's batch."""
    n = lus.shape[-1]
    batch = lus.shape[:-2]
    k = rhs.shape[-1]
    flat_lu, flat_piv = lus.reshape((-1, n, n)), pivs.reshape((-1, n))
    flat_rhs = np.broadcast_to(rhs, batch + (n, k)).reshape((-1, n, k))
    out = np.empty((flat_lu.shape[0], k, n), lus.dtype)  # each matrix column-major
    for b in range(flat_lu.shape[0]):
        out[b] = lapack.lu_solve(flat_lu[b], flat_piv[b], flat_rhs[b], transpose).T
    return np.swapaxes(out.reshape(batch + (k, n)), -1, -2)


class LinalgSolveEx(Function):
    __slots__ = ("transposed", "vector", "sa", "sb")
    name = "LinalgSolveExBackward0"
    saved_names = ("A", "LU", "pivots", "result")
    saved_extra = {"left": lambda node: True}
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    def forward(self, a, b, vector):
        self.vector, self.sa, self.sb = vector, a.shape, b.shape
        # the LU of A itself (torch 2.13's solve takes no transpose), solved with trans='N'
        self.transposed = False
        n = a.shape[-1]
        mats = a.reshape((-1, n, n))
        lus = np.empty(mats.shape, a.dtype)
        pivs = np.empty(mats.shape[:-1], np.intc)
        for i, m in enumerate(mats):
            lus[i], pivs[i] = lapack.lu_factor(m)
        lus, pivs = lus.reshape(a.shape), pivs.reshape(a.shape[:-1])
        bad = np.nonzero(np.diagonal(lus, 0, -2, -1) == 0)
        if bad[0].size:
            where = f"(Batch element {int(bad[0][0])}): " if a.ndim > 2 else ""
            raise GradRuntimeError(
                f"torch.linalg.solve: {where}The solver failed because the input matrix is "
                "singular.",
                type_name="torch._C._LinAlgError",
            )
        rhs = b[..., None] if vector else b
        batch = np.broadcast_shapes(a.shape[:-2], rhs.shape[:-2])
        if batch != a.shape[:-2]:
            lus = np.broadcast_to(lus, batch + lus.shape[-2:])
            pivs = np.broadcast_to(pivs, batch + pivs.shape[-1:])
        x = _lu_solve(lus, pivs, rhs, self.transposed)
        out = x[..., 0] if vector else x
        self.save(a, lus, pivs, out)
        return out

    def backward(self, g, F, a, lus, pivs, x):
        n = self.needs
        f = FUNCTIONS
        if self.vector:
            x = f["unsqueeze"](x, -1) if F.tensor_mode else x[..., None]
        if F.tensor_mode:
            gm = f["unsqueeze"](g, -1) if self.vector else g
            gb = f["linalg.solve"](f["transpose"](a, -2, -1), gm)
            ga = f["neg"](f["matmul"](gb, f["transpose"](x, -2, -1))) if n[0] else None
        else:
            gm = g[..., None] if self.vector else g
            gb = _lu_solve(lus, pivs, np.asarray(gm, a.dtype), not self.transposed)
            ga = None
            if n[0]:
                prod = f["matmul"](Tensor(gb), Tensor(np.swapaxes(x, -1, -2))).data
                ga = -prod
        if ga is not None:
            ga = F.sum_to(ga, self.sa)
        if n[1]:
            if self.vector:
                gb = f["squeeze"](gb, -1) if F.tensor_mode else gb[..., 0]
            gb = F.sum_to(gb, self.sb)
        return (ga, gb if n[1] else None)

    def jvp(self, ts, F, a, lus, pivs, x):
        # solve(A, dB - dA X)
        f = FUNCTIONS
        ta, tb = ts
        xm = f["unsqueeze"](x, -1) if self.vector else x
        rhs = None
        if tb is not None:
            rhs = f["unsqueeze"](tb, -1) if self.vector else tb
        if ta is not None:
            t = f["matmul"](ta, xm)
            rhs = f["neg"](t) if rhs is None else f["sub"](rhs, t)
        out = f["linalg.solve"](a, rhs)
        return f["squeeze"](out, -1) if self.vector else out


@register(
    "linalg.solve",
    "torch.linalg.solve(A, B, *, left=True)",
    "X solving A X = B (LU with partial pivoting, as LAPACK's getrf and getrs)",
    checks=[
        ((Arg((3, 3), 0.5, 2.0), Arg((3,))), {}),
        ((Arg((3, 3), 0.5, 2.0), Arg((3, 2))), {}),
    ],
    category="linalg",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def linalg_solve(A, B, *, left=True, out=None):
    """torch.linalg.solve: X with A X = B (B a vector or matrices, batches broadcast)."""
    for i, (name, v) in enumerate((("A", A), ("B", B))):
        if not isinstance(v, Tensor):
            raise GradTypeError(
                f"linalg_solve(): argument '{name}' (position {i + 1}) must be Tensor, not "
                f"{'NoneType' if v is None else type_name(v)}"
            )
    if left is not True:
        raise GradRuntimeError("linalg.solve: left=False is not supported by gradcli")
    a, b = A.data, B.data
    if a.ndim < 2:
        raise GradRuntimeError("linalg.solve: The input tensor A must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise GradRuntimeError(
            f"linalg.solve: A must be batches of square matrices, but they are "
            f"{a.shape[-2]} by {a.shape[-1]} matrices"
        )
    if a.dtype not in (np.float32, np.float64):
        raise GradRuntimeError(
            f"linalg.solve: Expected a floating point or complex tensor as input. Got "
            f"{type_word(a.dtype)}"
        )
    if b.dtype != a.dtype:
        raise GradRuntimeError(
            f"linalg.solve: Expected A and B to have the same dtype, but found A of type "
            f"{type_word(a.dtype)} and B of type {type_word(b.dtype)} instead"
        )
    n = a.shape[-1]
    vector = b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])
    rows = b.shape[-1] if vector else (b.shape[-2] if b.ndim >= 2 else b.shape[-1])
    cols = 1 if vector else b.shape[-1]
    if rows != n or (b.ndim < 2 and not vector):
        raise GradRuntimeError(
            "linalg.solve: Incompatible shapes of A and B for the equation AX = B "
            f"({n}x{n} and {rows}x{cols})"
        )
    return LinalgSolveEx.apply(A, B, vector=vector)
