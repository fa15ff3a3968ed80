"""`torch.cdist(x1, x2, p=2.0, compute_mode=...)`: the p-norm distance of every row of
x1 to every row of x2, as PyTorch's CPU kernels compute it.

PyTorch takes one of two paths. With p=2, when either input has more than 25 rows (or
compute_mode='use_mm_for_euclid_dist'), `_euclidean_dist`: the squared norms and a matrix
product, `x1_ = cat([-2 x1, |x1|^2, 1])`, `x2_ = cat([x2, 1, |x2|^2])`,
`sqrt(clamp_min(x1_ @ x2_.mT, 0))` (EuclideanDistBackward0 under a ViewBackward0; its
gradient `_euclidean_dist_backward`, of products and sums, differentiable again).
Otherwise `_cdist_forward`'s kernel (CdistBackward0): for each pair of rows a running
sum over the columns; compiled, its p=2 loop squares the columns in pairs (float64) or
fours (float32) and adds each square rounded, and the last columns left over
(`m % 2`, `m % 4`) with a fused multiply-add (measured against torch 2.13 on random
shapes in both dtypes: all bits equal). Its gradient is `_cdist_backward`'s kernel:
`grad * diff / dist` (0 where dist is 0) added row after row of the other input, which
PyTorch cannot differentiate again.

What gradcli takes: 2-D inputs of one floating dtype, p=2 (both paths), 1, 0 and inf."""

from __future__ import annotations

import numpy as np

from ..core.convert import tensor_arg
from ..core.tensor import Tensor
from ..engine.declare import none
from ..engine.function import Function
from ..numerics.floats.fma import fma
from ..runtime.errors import GradRuntimeError, GradValueError
from .elementwise import NotDifferentiable
from .registry import FUNCTIONS, register

_MODES = {
    "use_mm_for_euclid_dist_if_necessary": 0,
    "use_mm_for_euclid_dist": 1,
    "donot_use_mm_for_euclid_dist": 2,
}


_SCALAR_NAMES = {"int64": "Long", "int32": "Int", "uint8": "Byte", "bool": "Bool"}


def _kernel(a, b, p):
    """_cdist_forward's values for rows a (r1, m) and b (r2, m) of one dtype."""
    dt = a.dtype
    diff = np.abs(a[:, None, :] - b[None, :, :])
    m = diff.shape[-1]
    agg = np.zeros(diff.shape[:-1], dt)
    if p == 0:
        return np.count_nonzero(diff, axis=-1).astype(dt)
    if p == np.inf:
        return diff.max(axis=-1) if m else agg
    if p == 1:
        for x in range(m):
            agg = agg + diff[..., x]
        return agg
    paired = m - m % (2 if dt == np.float64 else 4)  # squared in vector registers
    for x in range(m):
        d = diff[..., x]
        agg = agg + d * d if x < paired else np.asarray(fma(d, d, agg, dtype=dt), dt)
    return np.sqrt(agg)


def _kernel_grad(g, a, b, dist, p):
    """_cdist_backward's gradient of rows a against rows b (g and dist: (ra, rb))."""
    dt = a.dtype
    out = np.zeros(a.shape, dt)
    for j in range(b.shape[0]):
        diff = a - b[j]
        gj, dj = g[:, j : j + 1], dist[:, j : j + 1]
        if p == 0:
            continue
        if p == 1:
            term = gj * np.sign(diff)
        elif p == np.inf:  # to the columns where |diff| is the distance
            term = gj * np.sign(diff) * (np.abs(diff) == dj).astype(dt)
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                term = np.where(dj == 0, dt.type(0), gj * diff / dj)
        out = out + term
    return out


class CdistGrad(NotDifferentiable):
    """_cdist_backward: a gradient of cdist that PyTorch does not differentiate again."""

    __slots__ = ("p",)
    name = "CdistBackwardBackward0"
    aten = "_cdist_backward"
    formula = none("a kernel's gradient with no derivative in PyTorch")

    def backward(self, g, F):
        raise GradRuntimeError(
            "the derivative for '_cdist_backward' is not implemented.",
            type_name="NotImplementedError",
        )

    def forward(self, g, a, b, dist, p):
        self.p = p
        return _kernel_grad(g, a, b, dist, p)


class Cdist(Function):
    __slots__ = ("p",)
    name = "CdistBackward0"
    saved_names = ("x1", "x2", "result")
    saved_extra = {"p": lambda node: node.p}
    jvp = none("PyTorch 2.13 has no forward-mode derivative for _cdist_forward")
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    def forward(self, a, b, p):
        self.p = p
        out = _kernel(a, b, p)
        self.save(a, b, out)
        return out

    def backward(self, g, F, a, b, out):
        if F.tensor_mode:
            return (
                CdistGrad.apply(g, a, b, out, p=self.p),
                CdistGrad.apply(_f("t")(g), b, a, _f("t")(out), p=self.p),
            )
        g = np.ascontiguousarray(g)
        return (
            _kernel_grad(g, a, b, out, self.p),
            _kernel_grad(np.ascontiguousarray(g.T), b, a, np.ascontiguousarray(out.T), self.p),
        )


def _f(name):
    return FUNCTIONS[name]


def _euclidean(x1, x2):
    """_euclidean_dist's values (tensors that record nothing)."""
    n1 = _f("sum")(_f("pow")(x1, 2), -1, True)
    n2 = _f("sum")(_f("pow")(x2, 2), -1, True)
    a = _f("cat")([_f("mul")(x1, -2), n1, _f("ones_like")(n1)], -1)
    b = _f("cat")([x2, _f("ones_like")(n2), n2], -1)
    return _f("sqrt")(_f("clamp_min")(_f("matmul")(a, _f("transpose")(b, -2, -1)), 0))


def _euclidean_grad(g, x1, x2, res):
    """_euclidean_dist_backward of tensors (differentiable when g records a graph)."""
    ratio = _f("div")(g, res)
    ratio = _f("masked_fill")(ratio, _f("eq")(res, 0), 0)
    g1 = _f("sub")(_f("mul")(x1, _f("sum")(ratio, -1, True)), _f("matmul")(ratio, x2))
    t = _f("transpose")(ratio, -2, -1)
    g2 = _f("sub")(
        _f("mul")(x2, _f("unsqueeze")(_f("sum")(ratio, -2, False), -1)), _f("matmul")(t, x1)
    )
    return g1, g2


class EuclideanDist(Function):
    __slots__ = ()
    name = "EuclideanDistBackward0"
    saved_names = ("x1", "x2", "result")
    jvp = none("PyTorch 2.13 has no forward-mode derivative for _euclidean_dist")
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    def forward(self, a, b):
        out = _euclidean(Tensor(a), Tensor(b)).data
        self.save(a, b, out)
        return out

    def backward(self, g, F, a, b, out):
        if F.tensor_mode:
            return _euclidean_grad(g, a, b, out)
        g1, g2 = _euclidean_grad(Tensor(np.asarray(g)), Tensor(a), Tensor(b), Tensor(out))
        return (g1.data, g2.data)


@register(
    "cdist",
    "cdist(x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary')",
    "the p-norm distance of each row of x1 to each row of x2",
    category="reduce",
    checks=none("two kernels whose gradient PyTorch does not differentiate again; golden cases"),
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    x1, x2 = tensor_arg(x1), tensor_arg(x2)
    if x1.data.ndim < 2 or x2.data.ndim < 2:
        raise GradRuntimeError(
            f"cdist only supports at least 2D tensors, X1 got: {x1.data.ndim}D"
            if x1.data.ndim < 2
            else f"cdist only supports at least 2D tensors, X2 got: {x2.data.ndim}D"
        )
    if x1.data.dtype.kind != "f" or x2.data.dtype.kind != "f":
        which, bad = ("X1", x1) if x1.data.dtype.kind != "f" else ("X2", x2)
        raise GradRuntimeError(
            f"cdist only supports floating-point dtypes, {which} got: "
            f"{_SCALAR_NAMES.get(bad.data.dtype.name, bad.data.dtype.name)}"
        )
    if x1.data.shape[-1] != x2.data.shape[-1]:
        raise GradRuntimeError(
            "X1 and X2 must have the same number of columns. X1: "
            f"{x1.data.shape[-1]} X2: {x2.data.shape[-1]}"
        )
    if x1.data.dtype != x2.data.dtype:
        raise GradRuntimeError(
            "cdist only supports tensors of one dtype here", hint="convert one with .to()"
        )
    if compute_mode not in _MODES:
        raise GradValueError(f"{compute_mode} is not a valid value for compute_mode")
    p = float(p)
    if p < 0:
        raise GradRuntimeError("cdist only supports non-negative p values")
    if x1.data.ndim != 2 or x2.data.ndim != 2 or p not in (0.0, 1.0, 2.0, np.inf):
        raise GradRuntimeError(
            "cdist: gradcli computes 2-D inputs with p=0, 1, 2 or inf only",
            hint="the kernels for batches and other p are not reproduced yet",
        )
    mode = _MODES[compute_mode]
    r1, r2 = x1.data.shape[0], x2.data.shape[0]
    if p == 2 and x1.data.size and x2.data.size and (mode == 1 or (mode == 0 and max(r1, r2) > 25)):
        return _f("view")(EuclideanDist.apply(x1, x2), (r1, r2))
    return Cdist.apply(x1, x2, p=p)
