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

What gradcli takes: inputs of one floating dtype with any batch dims (broadcast; the
kernel runs batch by batch, the matrix path on the expanded inputs as ATen's cdist_impl
does), p=2 (both paths), 1, 0, inf and any other p: the C library's pow of each
column's difference summed column after column, `pow(sum, 1.0 / p)` in double (float32
too), and the gradient's powers SLEEF's vector pow (all bits equal to torch 2.13's on
random shapes, both dtypes, p below and above 2)."""

from __future__ import annotations

import numpy as np

from ..core.convert import tensor_arg
from ..core.tensor import Tensor
from ..engine.declare import none
from ..engine.function import Function
from ..numerics.floats.fma import fma
from ..numerics.floats.sleef_pow import sleef_powf
from ..numerics.floats.sleef_powd import sleef_powd
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
    if p != 2:  # pdist_calc: the C library's pow of each column, pow(sum, 1.0 / p) in double
        pp = dt.type(p)
        with np.errstate(all="ignore"):
            for x in range(m):
                agg = agg + np.power(diff[..., x], pp)
            return np.power(agg.astype(np.float64), 1.0 / float(pp)).astype(dt)
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
        elif p != 2:
            term = _general_term(diff, gj, dj, p)
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                term = np.where(dj == 0, dt.type(0), gj * diff / dj)
        out = out + term
    return out


def _pow(x, y):
    """Vectorized<T>::pow: SLEEF's pow of the vector kernel."""
    y = np.full(x.shape, y, x.dtype)
    return sleef_powf(x, y) if x.dtype == np.float32 else sleef_powd(x, y)


def _sign(v):
    """The kernel's sign: min(max(0, ceil(v)), 1) + min(max(-1, floor(v)), 0)."""
    t = v.dtype.type
    return np.minimum(np.maximum(t(0), np.ceil(v)), t(1)) + np.minimum(
        np.maximum(t(-1), np.floor(v)), t(0)
    )


def _general_term(diff, gj, dj, p):
    """The general p's gradient term (0 where the distance is 0): below 2,
    sign(diff) |diff|^(p-1) grad / dist^(p-1); above, diff |diff|^(p-2) grad /
    dist^(p-1), left to right, the powers SLEEF's."""
    t = diff.dtype.type
    pv = t(p)
    dist = np.broadcast_to(dj, diff.shape)
    with np.errstate(all="ignore"):
        if p < 2:
            head = _sign(diff) * _pow(np.abs(diff), pv - t(1))
        else:
            head = diff * _pow(np.abs(diff), pv - t(2))
        term = head * gj / _pow(np.ascontiguousarray(dist), pv - t(1))
    return np.where(dj == 0, t(0), term)


def _batches(a, b):
    """a and b expanded to their common batch dims, as (B, r, c) arrays, and that batch
    shape."""
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    ae = np.ascontiguousarray(np.broadcast_to(a, batch + a.shape[-2:])).reshape(-1, *a.shape[-2:])
    be = np.ascontiguousarray(np.broadcast_to(b, batch + b.shape[-2:])).reshape(-1, *b.shape[-2:])
    return ae, be, batch


def _batched_kernel(a, b, p):
    if a.ndim == 2 and b.ndim == 2:
        return _kernel(a, b, p)
    ae, be, batch = _batches(a, b)
    out = np.stack([_kernel(x, y, p) for x, y in zip(ae, be)]) if len(ae) else None
    if out is None:
        return np.zeros(batch + (a.shape[-2], b.shape[-2]), a.dtype)
    return out.reshape(batch + out.shape[1:])


def _batched_grad(g, a, b, dist, p):
    """_cdist_backward: the gradient of a's rows, of a's shape expanded to the batch."""
    if a.ndim == 2 and b.ndim == 2:
        return _kernel_grad(np.ascontiguousarray(g), a, b, np.ascontiguousarray(dist), p)
    ae, be, batch = _batches(a, b)
    gs = np.ascontiguousarray(g).reshape(-1, *g.shape[-2:])
    ds = np.ascontiguousarray(dist).reshape(-1, *dist.shape[-2:])
    out = [_kernel_grad(gi, x, y, di, p) for gi, x, y, di in zip(gs, ae, be, ds)]
    return (
        np.stack(out).reshape(batch + a.shape[-2:])
        if out
        else np.zeros(batch + a.shape[-2:], a.dtype)
    )


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
        return _batched_grad(g, a, b, dist, p)


class Cdist(Function):
    __slots__ = ("p",)
    name = "CdistBackward0"
    saved_names = ("x1", "x2", "result")
    saved_extra = {"p": lambda node: node.p}
    jvp = none("PyTorch 2.13 has no forward-mode derivative for _cdist_forward")
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    def forward(self, a, b, p):
        self.p = p
        out = _batched_kernel(a, b, p)
        self.save(a, b, out)
        return out

    def backward(self, g, F, a, b, out):
        # (a broadcast batch's gradient summed back to the input's shape, as autograd does)
        if F.tensor_mode:
            mt = _f("transpose")
            return (
                F.sum_to(CdistGrad.apply(g, a, b, out, p=self.p), a.shape),
                F.sum_to(CdistGrad.apply(mt(g, -2, -1), b, a, mt(out, -2, -1), p=self.p), b.shape),
            )
        gt, ot = np.swapaxes(g, -2, -1), np.swapaxes(out, -2, -1)
        return (
            F.sum_to(_batched_grad(g, a, b, out, self.p), a.shape),
            F.sum_to(_batched_grad(gt, b, a, ot, self.p), b.shape),
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
        # (inputs of other batch dims get their gradients summed back, as autograd does)
        if F.tensor_mode:
            g1, g2 = _euclidean_grad(g, a, b, out)
            return (F.sum_to(g1, a.shape), F.sum_to(g2, b.shape))
        g1, g2 = _euclidean_grad(Tensor(np.asarray(g)), Tensor(a), Tensor(b), Tensor(out))
        return (F.sum_to(g1.data, a.shape), F.sum_to(g2.data, b.shape))


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
    try:
        batch = np.broadcast_shapes(x1.data.shape[:-2], x2.data.shape[:-2])
    except ValueError:
        raise GradRuntimeError(
            f"The size of tensor a ({x1.data.shape[-3]}) must match the size of tensor b "
            f"({x2.data.shape[-3]}) at non-singleton dimension 0"
        ) from None
    mode = _MODES[compute_mode]
    r1, r2 = x1.data.shape[-2], x2.data.shape[-2]
    if p == 2 and x1.data.size and x2.data.size and (mode == 1 or (mode == 0 and max(r1, r2) > 25)):
        c = x1.data.shape[-1]
        count = int(np.prod(batch)) if batch else 1
        if count == 1:  # _euclidean_dist of the inputs themselves
            return _f("view")(EuclideanDist.apply(x1, x2), (*batch, r1, r2))
        e1, e2 = (
            _f("view")(_f("contiguous")(_f("expand")(x, *batch, r, c)), (count, r, c))
            for x, r in ((x1, r1), (x2, r2))
        )
        return _f("view")(EuclideanDist.apply(e1, e2), (*batch, r1, r2))
    return Cdist.apply(x1, x2, p=p)
