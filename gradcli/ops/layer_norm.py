"""`F.layer_norm` and `torch.layer_norm` (NativeLayerNormBackward0): each row of the
last len(normalized_shape) dims normalised by its own mean and variance, then scaled by
weight and shifted by bias, as PyTorch's CPU kernel computes it
(numerics/floats/layer_norm.py).  Under create_graph, and in forward mode, the
gradients are the formula of the tensors (the statistics as functions of the input)."""

from __future__ import annotations

import numpy as np

from ..core.convert import tensor_arg
from ..core.dtypes import scalar_type_name
from ..core.tensor import Tensor
from ..engine.declare import none
from ..engine.function import Function
from ..numerics.floats import layer_norm as ln
from ..runtime.errors import GradRuntimeError, GradTypeError
from .elementwise import AddScalar
from .registry import FUNCTIONS, Arg, register


def _rows(a, k):
    """The C-ordered (M, N) rows of `a`, N the product of its last k dims."""
    n = int(np.prod(a.shape[a.ndim - k :], dtype=np.int64))
    m = int(np.prod(a.shape[: a.ndim - k], dtype=np.int64))
    return np.ascontiguousarray(a).reshape(m, n)


def _flat(a):
    return None if a is None else np.ascontiguousarray(a).reshape(-1)


class LayerNorm(Function):
    __slots__ = ("nshape", "eps")
    name = "NativeLayerNormBackward0"
    saved_names = ("input", "weight", "bias", "result1", "result2")  # result1/2: mean, rstd
    saved_order = (2, 0, 1, 3, 4)  # PyTorch packs bias, input, weight, then mean, rstd
    saved_extra = {"normalized_shape": lambda node: node.nshape}
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    def forward(self, x, w, b, nshape, eps):
        self.nshape, self.eps = nshape, eps
        k = len(nshape)
        xs = _rows(x, k)
        dt = x.dtype
        with np.errstate(all="ignore"):
            if xs.shape[1] == 0:
                mean = np.full(xs.shape[0], np.nan, dt)
                rstd = mean.copy()
            else:
                mean, var = ln.moments(xs)
                rstd = (dt.type(1) / np.sqrt(var + dt.type(eps))).astype(dt)
            y = ln.forward(xs, mean, rstd, _flat(w), _flat(b))
        stats = x.shape[: x.ndim - k] + (1,) * k
        self.save(x, w, b, mean.reshape(stats), rstd.reshape(stats))
        return y.astype(dt, copy=False).reshape(x.shape)

    def backward(self, g, F, x, w, b, mean, rstd):
        if not F.tensor_mode:
            return self._kernel(g, x, w, b, mean, rstd)
        # the formula carries the graph; the values are the kernel's, as PyTorch's
        # double-backward node gives the first gradients
        exact = self._kernel(
            g.data,
            x.data,
            None if w is None else w.data,
            None if b is None else b.data,
            mean.data,
            rstd.data,
        )
        return tuple(
            None if t is None else LayerNormGrad.apply(t, value=v)
            for t, v in zip(self._composite(g, F, x, w), exact)
        )

    def _kernel(self, g, x, w, b, mean, rstd):
        k = len(self.nshape)
        need = tuple(bool(n) for n in self.needs)
        dt = x.dtype
        with np.errstate(all="ignore"):
            dx, dw, db = ln.backward(
                _rows(g.astype(dt, copy=False), k),
                _rows(x, k),
                mean.reshape(-1),
                rstd.reshape(-1),
                _flat(w),
                (need[0], w is not None and need[1], b is not None and need[2]),
            )
        return (
            None if dx is None else dx.reshape(x.shape),
            None if dw is None else dw.reshape(w.shape),
            None if db is None else db.reshape(b.shape),
        )

    def _stats(self, F, x):
        """The row statistics as functions of the tensor x: (mean, rstd, N, dims)."""
        k = len(self.nshape)
        dims = tuple(range(x.ndim - k, x.ndim))
        n = int(np.prod(self.nshape))
        mean = F.sum(x, axis=dims, keepdims=True) / n
        var = F.sum((x - mean) * (x - mean), axis=dims, keepdims=True) / n
        return mean, 1 / F.sqrt(var + self.eps), n, dims

    def _lead_sum(self, F, t, x):
        lead = tuple(range(x.ndim - len(self.nshape)))
        return F.sum(t, axis=lead) if lead else t

    def _composite(self, g, F, x, w):
        """The gradients as a formula of the tensors (under create_graph)."""
        mean, rstd, n, dims = self._stats(F, x)
        xhat = (x - mean) * rstd
        gh = g * w if w is not None else g
        gx = rstd * (
            gh
            - F.sum(gh, axis=dims, keepdims=True) / n
            - xhat * F.sum(gh * xhat, axis=dims, keepdims=True) / n
        )
        gw = self._lead_sum(F, g * xhat, x) if w is not None and self.needs[1] else None
        gb = self._lead_sum(F, g, x) if len(self.needs) > 2 and self.needs[2] else None
        return gx, gw, gb

    def jvp(self, ts, F, x, w, b, mean, rstd):
        """dy = dxhat * w + xhat * dw + db, dxhat = rstd * (dx - mean(dx)) - xhat * rstd
        * mean(xhat * dx)."""
        tx, tw, tb = (tuple(ts) + (None, None, None))[:3]
        if ts.args[1] is None:  # (an absent weight is saved as None)
            w = None
        mean, rstd, n, dims = self._stats(F, x)
        xhat = (x - mean) * rstd
        out = None
        if tx is not None:
            dm = F.sum(tx, axis=dims, keepdims=True) / n
            proj = F.sum(xhat * tx, axis=dims, keepdims=True) / n
            dxhat = rstd * (tx - dm) - xhat * rstd * proj
            out = dxhat * w if w is not None else dxhat
        if tw is not None:
            out = xhat * tw if out is None else out + xhat * tw
        if tb is not None:
            term = tb + 0 * xhat
            out = term if out is None else out + term
        return out


class LayerNormGrad(Function):
    """A first gradient of layer_norm under create_graph: the kernel's value, differentiated
    as the formula it stands for (its input)."""

    __slots__ = ()
    name = "NativeLayerNormBackwardBackward0"
    saved_names = none("the node stands for the formula; PyTorch's saved values are not kept")
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    def forward(self, formula, value):
        return value

    def backward(self, g, F):
        return (g,)

    def jvp(self, ts, F, *saved):
        return ts[0]

    def passes_through(self):
        return True


def _shape(normalized_shape, what="layer_norm"):
    if isinstance(normalized_shape, Tensor) or not isinstance(normalized_shape, (tuple, list)):
        raise GradTypeError(
            f"{what}(): argument 'normalized_shape' (position 2) must be tuple of ints, "
            f"not {type(normalized_shape).__name__}"
        )
    return tuple(int(d) for d in normalized_shape)


@register(
    "layer_norm",
    "layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05)",
    "normalise each row of the last len(normalized_shape) dims by its mean and variance, "
    "then scale by weight and shift by bias",
    checks=[
        ((Arg((3, 4)), (4,), Arg((4,)), Arg((4,))), {}),
        ((Arg((2, 2, 3)), (2, 3)), {"eps": 1e-3}),
    ],
    category="nn",
    batch=None,
    inplace=None,
    pure=True,
    parser=None,
)
def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    x = tensor_arg(input)
    shape = _shape(normalized_shape)
    xd = x.data
    dims = list(shape)
    if not shape:
        raise GradRuntimeError(
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
            f"least one element, but got normalized_shape = {dims}"
        )
    w = None if weight is None else tensor_arg(weight)
    b = None if bias is None else tensor_arg(bias)
    for what, t in (("weight", w), ("bias", b)):
        if t is not None and t.data.shape != shape:
            raise GradRuntimeError(
                f"Expected {what} to be of same shape as normalized_shape, but got {what} of "
                f"shape {list(t.data.shape)} and normalized_shape = {dims}"
            )
    k = len(shape)
    if xd.ndim < k or xd.shape[xd.ndim - k :] != shape:
        raise GradRuntimeError(
            f"Given normalized_shape={dims}, expected input with shape "
            f"[*, {', '.join(map(str, dims))}], but got input of size{list(xd.shape)}"
        )
    if xd.dtype.kind != "f":
        raise GradRuntimeError(
            f"\"LayerNormKernelImpl\" not implemented for '{scalar_type_name(xd.dtype)}'"
        )
    if xd.dtype == np.float16:
        raise GradRuntimeError("layer_norm: float16 input is not supported by gradcli")
    for t in (w, b):
        if t is not None and t.data.dtype != xd.dtype:
            raise GradRuntimeError(
                "mixed dtype (CPU): expect parameter to have scalar type of "
                f"{scalar_type_name(xd.dtype)}"
            )
    return LayerNorm.apply(x, w, b, nshape=shape, eps=float(eps))


# ---------------------------------------------------------------- rms_norm


@register(
    "rms_norm",
    "rms_norm(input, normalized_shape, weight=None, eps=None)",
    "input * rsqrt(mean(input ** 2) + eps) over the last len(normalized_shape) dims, times "
    "weight (eps: the dtype's machine epsilon when None)",
    checks=[
        ((Arg((3, 4)), (4,), Arg((4,))), {}),
        ((Arg((2, 2, 3)), (2, 3)), {"eps": 1e-3}),
    ],
    category="nn",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def rms_norm(input, normalized_shape, weight=None, eps=None):
    """PyTorch's CPU composite: pow(x, 2).mean(dims, keepdim=True).add_(eps), rsqrt,
    x times that, then times weight (dims the normalised ones, last first)."""
    x = tensor_arg(input)
    shape = _shape(normalized_shape, "rms_norm")
    xd = x.data
    dims = list(shape)
    if not shape:
        raise GradRuntimeError(
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
            f"least one element, but got normalized_shape = {dims}"
        )
    w = None if weight is None else tensor_arg(weight)
    if w is not None and w.data.shape != shape:
        raise GradRuntimeError(
            "Expected weight to be of same shape as normalized_shape, but got weight of "
            f"shape {list(w.data.shape)} and normalized_shape = {dims}"
        )
    k = len(shape)
    if xd.ndim < k or xd.shape[xd.ndim - k :] != shape:
        raise GradRuntimeError(
            f"Given normalized_shape={dims}, expected input with shape "
            f"[*{', '.join(map(str, dims))}], but got input of size{list(xd.shape)}"
        )
    if xd.dtype.kind != "f":
        raise GradRuntimeError(f"\"rms_norm\" not implemented for '{scalar_type_name(xd.dtype)}'")
    if eps is None:
        eps = float(np.finfo(xd.dtype).eps)
    reduce = tuple(xd.ndim - 1 - i for i in range(k))
    ms = FUNCTIONS["mean"](FUNCTIONS["pow"](x, 2), reduce, True)
    out = FUNCTIONS["mul"](x, FUNCTIONS["rsqrt"](AddScalar.apply(ms, float(eps), dt=ms.data.dtype)))
    return out if w is None else FUNCTIONS["mul"](out, w)
