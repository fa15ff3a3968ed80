"""Norms and moments: norm, var and std (a family after `reduce`, whose reduction
base and helpers they use); var/std of a whole tensor as PyTorch computes them."""

from __future__ import annotations

from typing import Any


import math
import warnings

import numpy as np

from ..runtime import context
from ..runtime.limits import check_reduction
from ..runtime.errors import GradRuntimeError, GradTypeError, broadcast_error
from ..numerics.parallel import chunks
from ..numerics.floats.powers import torch_pow
from ..numerics.sums.summation import torch_sum
from ..numerics.sums.vector_norm import vector_norm
from ..numerics.sums.welford import welford_var
from ..core.convert import tensor_arg, tensor_only
from ..core.tensor import Tensor, type_name
from ..engine.function import FUNCTIONS, TensorF
from .elementwise import times_scalar
from .reduce import (
    M,
    REDUCE_CHECKS,
    _Reduce,
    _torch_name,
    expand_back,
    saved_dims,
    saved_keepdim,
    sum_axes,
)
from .dims import norm_dims
from ..core import dtypes
from ..engine.declare import none
from .registry import Arg, Parser, register


class Norm(_Reduce):
    def formula(self, S, x, *_):
        """(Σ |x|^p)^(1/p) over the dims; max |x| for p = inf (a named function then)."""
        p = self.p
        if p in (np.inf, -np.inf) and self.axes is None and self.saved:
            at = np.argmax(np.abs(self.saved[0])) if p > 0 else np.argmin(np.abs(self.saved[0]))
            return S.named(S.sp.Abs(S.obj(x).flat[at]))
        if p in (np.inf, -np.inf, 0) or not isinstance(p, (int, float)):
            raise S.Unsupported(p)
        k = S.number(p)
        powers = S.map(lambda v: S.sp.Abs(v) ** k if p != 2 else v**2, x)
        return S.map(lambda v: v ** (1 / k), S.sum(powers, self.axes, self.keepdim))

    __slots__ = ("p", "ord")
    name = "LinalgVectorNormBackward0"
    saved_names = ("self", "result")
    saved_extra = {"dim": saved_dims, "keepdim": saved_keepdim, "ord": lambda node: node.ord}

    def forward(self, x, p=2, dim=None, keepdim=False, ord=None):
        ax = self.setup(x, dim, keepdim)
        self.p = p
        self.ord = p if ord is None else ord  # (as given: PyTorch shows 2 and 2.0 apart)
        if x.dtype.char in "fd":  # ATen's kernels, to the last bit
            out = vector_norm(x, p, ax, keepdim)
            self.save(x, out)
            return out
        a = np.abs(x)
        if p == 2:
            out = np.sqrt(np.sum(a * a, axis=ax, keepdims=keepdim))
        elif p == 1:
            out = np.sum(a, axis=ax, keepdims=keepdim)
        elif p == np.inf:
            out = np.max(a, axis=ax, keepdims=keepdim)
        elif p == -np.inf:
            out = np.min(a, axis=ax, keepdims=keepdim)
        elif p == 0:
            out = np.sum(a != 0, axis=ax, keepdims=keepdim).astype(x.dtype)
        else:
            out = np.sum(a**p, axis=ax, keepdims=keepdim) ** (1.0 / p)
        out = np.asarray(out, dtype=x.dtype)
        self.save(x, out)
        return out

    def backward(self, g, F, x, out):
        p, shape, axes, kd = self.p, self.shape, self.axes, self.keepdim
        gx = expand_back(g, F, shape, axes, kd)
        ox = expand_back(out, F, shape, axes, kd)
        # PyTorch's linalg_vector_norm_backward, its operations in its order (float32's
        # last bits show it): a zero norm, and for p < 1 a zero entry, give no gradient
        if p == 2:
            return (gx * F.where(ox == 0, 0.0, x / ox),)
        if p == 1:
            return (gx * F.sign(x),)
        if p == 0:
            return (gx * 0,)
        if p in (np.inf, -np.inf):
            mask = F.where(F.abs(x) == ox, 1.0, 0.0)
            cnt = expand_back(
                F.sum(mask, axes, True) if axes else F.sum(mask), F, shape, axes, True
            )
            return (gx * F.sign(x) * mask / cnt,)
        if p < 1:
            scaled = F.sign(x) * F.where(x == 0, 0.0, _pow(F.abs(x), p - 1, F))
            return (scaled * gx * _pow(ox, 1 - p, F),)
        scaled = F.sign(x) * _pow(F.abs(x), p - 1, F) if p < 2 else x * _pow(F.abs(x), p - 2, F)
        return (scaled * F.where(ox == 0, 0.0, gx / _pow(ox, p - 1, F)),)


def _pow(a, e, F):
    """a ** e as PyTorch computes it (the op's forward) on arrays and Tensors alike."""
    return a**e if F.tensor_mode else torch_pow(a, e)


@register(
    "norm",
    "norm(input, p=2, dim=None, keepdim=False)",
    "vector p-norm of all elements, or along dim",
    method=True,
    checks=REDUCE_CHECKS[1:] + [((M,), {"p": 1}), ((M,), {"p": 3, "dim": 0})],
    category="reduce",
    batch="reduction",
    inplace=None,
    pure=True,
    parser=None,
)
def norm(input, p="fro", dim=None, keepdim=False):
    x = tensor_arg(input)
    check_reduction(x.data.shape, dim)
    given = 2 if p == "fro" else 2.0 if p is None else p  # (torch.norm's ord as it saves it)
    if p in ("fro", None):
        p = 2
    elif isinstance(p, str):
        raise GradRuntimeError(f"norm: p={p!r} is not supported (use a number, 'fro' or inf)")
    if x.data.dtype.kind != "f":
        raise GradRuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. "
            f"Got {_torch_name(x.data.dtype)}"
        )
    _empty_inf_check(x, p, dim)
    return Norm.apply(x, p=float(p), dim=dim, keepdim=keepdim, ord=given)


class AtenNorm(Norm):
    """ATen's at::norm(self, p, dim, keepdim), which its own compositions call
    (pairwise_distance): the same kernel and gradient, the node torch names NormBackward1."""

    __slots__ = ()
    name = "NormBackward1"
    saved_extra = {"dim": saved_dims, "keepdim": saved_keepdim, "p": lambda node: node.ord}


def aten_norm(x, p, dim, keepdim):
    """at::norm of a float tensor along dims (NormBackward1)."""
    if x.data.dtype.kind != "f" or not x.data.size:
        return norm(x, p, dim, keepdim)  # (its errors)
    return AtenNorm.apply(x, p=float(p), dim=dim, keepdim=keepdim, ord=p)


def _empty_inf_check(x, p, dim):
    """torch's error for a norm without an identity (ord < 0 or inf) over an empty tensor
    or an empty dim."""
    if not (p < 0 or p == math.inf):
        return
    shape = x.data.shape
    what = f"linalg.vector_norm cannot compute the {float(p):g} norm on "
    if dim is None or (isinstance(dim, (tuple, list)) and not dim):
        if x.data.size == 0:
            raise GradRuntimeError(
                what + "an empty tensor because the operation does not have an identity"
            )
        return
    for d in norm_dims(dim, len(shape)):
        if shape[d] == 0:
            raise GradRuntimeError(
                what + f"the dimension {d}because this dimension is empty "
                "and the operation does not have an identity"
            )


@register(
    "linalg.vector_norm",
    "torch.linalg.vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None)",
    "the vector ord-norm of all elements, or over dim (torch.linalg)",
    checks=REDUCE_CHECKS[1:]
    + [
        ((M, 1), {}),
        ((M,), {"ord": 3, "dim": 0}),
        ((M,), {"ord": math.inf, "dim": 1, "keepdim": True}),
        ((M,), {"ord": 0.5, "dim": (0, 1)}),
    ],
    category="linalg",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def linalg_vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    if not isinstance(x, Tensor):
        raise GradTypeError(
            f"linalg_vector_norm(): argument 'input' (position 1) must be Tensor, not {_pytype(x)}"
        )
    if isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise GradTypeError(
            f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, not {_pytype(ord)}"
        )
    if x.data.dtype.kind != "f":
        raise GradRuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. "
            f"Got {_torch_name(x.data.dtype)}"
        )
    if dtype is not None:
        x = FUNCTIONS["to"](x, dtype)
    _empty_inf_check(x, ord, dim)
    return Norm.apply(x, p=float(ord), dim=dim, keepdim=keepdim, ord=ord)


def _pytype(v):
    return "NoneType" if v is None else type_name(v)


class Var(_Reduce):
    def formula(self, S, x, *_):
        """Σ (x - mean)² / (n - correction) over the dims (its square root for std)."""
        x = S.obj(x)
        mean = S.mean(x, self.axes, True)
        sq = S.map(lambda v: v**2, x - mean)
        var = S.map(
            lambda v: v * self.n / S.number(self.n - self.c), S.mean(sq, self.axes, self.keepdim)
        )
        return S.map(S.sp.sqrt, var) if self.root else var

    __slots__ = ("c", "n", "correction")
    name = "VarBackward0"
    saved_names: Any = ("self", None)  # var keeps its result for its own use only
    saved_extra = {
        "correction": lambda node: node.correction,
        "dim": saved_dims,
        "keepdim": saved_keepdim,
    }
    root = False

    def forward(self, x, dim=None, correction=1, keepdim=False, given=1):
        ax = self.setup(x, dim, keepdim)
        self.n = x.size if ax is None else int(np.prod([x.shape[a] for a in ax]))
        self.c = correction
        self.correction = given  # (None when the call gave no dim, unbiased or correction)
        if self.n - correction <= 0:
            context.warn(
                f"{'std' if self.root else 'var'}(): degrees of freedom is <= 0. Correction "
                "should be strictly less than the reduction factor (input numel divided by "
                "output numel)."
            )
            with warnings.catch_warnings():  # NumPy's own RuntimeWarning says the same
                warnings.simplefilter("ignore", RuntimeWarning)
                var = np.asarray(np.var(x, axis=ax, ddof=correction, keepdims=keepdim))
        elif self._whole(x) and x.dtype.char in "fd":
            out = var_all(x, correction, self.root)
            out = out.reshape(self._kept_shape(x) if keepdim else self._kept_shape(x, False))
            self.save(x, out)
            return out
        elif ax is None and x.dtype.char in "fd" and x.size:  # (not contiguous: _whole's
            # std_var_all_cpu takes the elements in memory order, as its iterator does)
            out = var_all(np.ravel(x, order="K"), correction, self.root)
            out = out.reshape(self._kept_shape(x) if keepdim else self._kept_shape(x, False))
            self.save(x, out)
            return out
        elif x.dtype.char in "fd" and x.size and (len(ax) == 1 or x.flags.c_contiguous):
            out = welford_var(x, ax, correction, self.root, keepdim)  # PyTorch's Welford kernel
            self.save(x, out)
            return out
        else:
            var = np.asarray(np.var(x, axis=ax, ddof=correction, keepdims=keepdim))
        out = np.sqrt(var) if self.root else var
        self.save(x, out)
        return out

    def _whole(self, x):
        """A reduction of all of a contiguous x (PyTorch's std_var_all_cpu), also over
        the dims that are not 1 (its iterator drops dims of size 1)."""
        return (
            x.flags.c_contiguous
            and x.size
            and (
                self.axes is None
                or all(x.shape[i] == 1 for i in range(x.ndim) if i not in self.axes)
            )
        )

    def _kept_shape(self, x, keepdim=True):
        """The result's shape (a whole reduction's, `_whole`)."""
        if self.axes is None:
            return (1,) * x.ndim if keepdim else ()
        return (
            tuple(1 if i in self.axes else n for i, n in enumerate(x.shape))
            if keepdim
            else tuple(n for i, n in enumerate(x.shape) if i not in self.axes)
        )

    def backward(self, g, F, x, out):
        shape, axes, kd = self.shape, self.axes, self.keepdim
        denom = self.n - self.c
        if (
            not F.tensor_mode
            and denom > 0
            and x.dtype.char in "fd"
            and (axes is not None or x.size)
        ):
            # derivatives.yaml: var: ((2 / dof) * grad) * (x - x.mean(dim, keepdim)); std
            # first takes grad / (result * 2), 0 where the result is 0
            if self.root:
                g = np.where(out == 0, 0, g / (out * 2)).astype(x.dtype)
            if self._whole(x):  # (g, of one value, broadcasts)
                mean = np.asarray(torch_sum(x) / x.size, dtype=x.dtype)
            elif axes is None:  # (not contiguous: the sum takes them in memory order)
                mean = np.asarray(torch_sum(np.ravel(x, order="K")) / x.size, dtype=x.dtype)
            else:
                mean = np.asarray(sum_axes(x, axes, True, x.dtype) / self.n, dtype=x.dtype)
                g = expand_back(g, F, shape, axes, kd)
            return ((x.dtype.type(2.0 / denom) * g) * (x - mean),)
        if F.tensor_mode and denom > 0:
            return (self._recorded(g, x, out, denom),)
        gx = expand_back(g, F, shape, axes, kd)
        if axes is None:
            mu = F.sum(x) / self.n
        else:
            mu = F.sum(x, axes, True) / self.n
        d = x - mu
        denom = self.n - self.c
        if self.root:  # PyTorch: no gradient where the deviation is 0
            ox = expand_back(out, F, shape, axes, kd)
            return (F.where(ox == 0, 0.0, gx * d / (denom * ox)),)
        if denom <= 0:  # no degrees of freedom: 2 / 0 is inf, as in PyTorch
            if axes is None:  # PyTorch: nan where x is the mean, inf elsewhere
                return (gx * F.where(d == 0, math.nan, math.inf),)
            return (gx * d * math.inf,)
        return (gx * (2.0 / denom) * d,)

    def _recorded(self, g, x, out, denom):
        """The backward under create_graph as derivatives.yaml writes it: std's
        (grad / (result * 2)).masked_fill_(result == 0, 0) into var's
        ((2 / dof) * grad) * (self - self.mean(dim, keepdim=True))."""
        if self.root:
            g = FUNCTIONS["masked_fill"](g / (out * 2), out == 0, 0)
        if self.axes is None or not x.data.ndim:  # every dim: a 0-d grad and self.mean()
            return times_scalar(TensorF, g, 2.0 / denom) * (x - FUNCTIONS["mean"](x))
        g = expand_back(g, TensorF, self.shape, self.axes, self.keepdim)
        mean = FUNCTIONS["mean"](x, self.axes, True) if self.axes else x
        return times_scalar(TensorF, g, 2.0 / denom) * (x - mean)


class Std(Var):
    __slots__ = ()
    name = "StdBackward0"
    saved_names = ("self", "result")
    root = True


def var_all(x, correction, root):
    """var (or std) of all of a contiguous float array as PyTorch's std_var_all_cpu: the
    mean in x's dtype, then in double the squares of x - mean added one after the other
    in each thread's range, the ranges' sums added from 0, divided by n - correction."""
    flat = x.reshape(-1)
    n = flat.size
    mean = float(np.asarray(torch_sum(flat) / n, dtype=x.dtype))
    total = 0.0
    for b, e in chunks(n):
        d = flat[b:e].astype(np.float64) - mean
        total += float(np.add.accumulate(d * d)[-1])
    var = total / max(0.0, n - correction)
    return np.asarray(math.sqrt(var) if root else var, dtype=x.dtype)


def _var_call(cls, input, dim, unbiased, keepdim, correction):
    x = tensor_arg(input)
    check_reduction(x.data.shape, dim)
    if isinstance(dim, bool):  # std(x, False): the legacy `unbiased` positional
        unbiased, dim = dim, None
    told = dim is not None or unbiased is not None or correction is not None
    if correction is None:
        correction = 1 if unbiased in (None, True) else 0
    given = correction if told else None  # (what PyTorch's node shows: None if not told)
    return cls.apply(x, dim=dim, correction=correction, keepdim=keepdim, given=given)


@register(
    "var",
    "var(input, dim=None, unbiased=True, keepdim=False)",
    "variance (unbiased unless unbiased=false or correction=0)",
    method=True,
    checks=REDUCE_CHECKS[1:],
    category="reduce",
    batch="reduction",
    inplace=None,
    pure=False,
    parser=None,
)
def var(input, dim=None, unbiased=None, keepdim=False, correction=None):
    return _var_call(Var, input, dim, unbiased, keepdim, correction)


@register(
    "std",
    "std(input, dim=None, unbiased=True, keepdim=False)",
    "standard deviation (unbiased unless unbiased=false or correction=0)",
    method=True,
    checks=REDUCE_CHECKS[1:],
    category="reduce",
    batch="reduction",
    inplace=None,
    pure=False,
    parser=None,
)
def std(input, dim=None, unbiased=None, keepdim=False, correction=None):
    return _var_call(Std, input, dim, unbiased, keepdim, correction)


class Dist(Norm):
    """torch.dist: the p-norm of input - other (broadcast), one node; derivatives.yaml:
    norm_backward of the difference for input, its negation for other."""

    formula: Any = none("a norm of a difference: shown as a named function with its local Jacobian")

    __slots__ = ("sa", "sb")
    name = "DistBackward0"
    saved_names: Any = ("self", "other", "result")
    saved_order = (1, 0, 2)  # PyTorch saves other, self, then the result
    saved_extra = {"p": lambda node: node.ord}

    def forward(self, a, b, p, ord, dt):
        self.sa, self.sb = a.shape, b.shape
        out = Norm.forward(self, np.subtract(a, b, dtype=dt), p=p, ord=ord)
        self.save(a, b, out)
        return out

    def backward(self, g, F, a, b, out):
        (r,) = Norm.backward(self, g, F, a - b, out)
        return (F.sum_to(r, self.sa), F.sum_to(-r, self.sb))

    def jvp(self, ts, F, a, b, out):
        """norm_jvp of the difference: sum((t_self - t_other) * d), d the norm's local
        derivative."""
        ta, tb = ts[0], ts[1]
        t = ta if tb is None else -tb if ta is None else ta - tb
        (d,) = Norm.backward(self, Tensor(np.ones((), out.dtype)), F, a - b, out)
        return F.sum(t * d)


@register(
    "dist",
    "dist(input, other, p=2)",
    "the p-norm of input - other",
    method=True,
    checks=[((M, Arg((3,))), {}), ((M, M), {"p": 1})],
    category="reduce",
    batch=None,
    inplace=None,
    pure=False,
    parser=Parser(("other",)),
)
def dist(input, other, p=2):
    a, b = tensor_only(input), tensor_only(other)
    if a.data.shape != b.data.shape:
        try:
            np.broadcast_shapes(a.data.shape, b.data.shape)
        except ValueError:
            raise broadcast_error(a.data.shape, b.data.shape) from None
    dt = dtypes.result_type(a, b)
    if dt.kind != "f":
        raise GradRuntimeError(
            "norm(): input dtype should be either floating point or complex. "
            f"Got {_torch_name(dt).capitalize()} instead."
        )
    return Dist.apply(a, b, p=float(p), ord=p, dt=dt)
