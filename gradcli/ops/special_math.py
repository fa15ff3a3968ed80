"""copysign, logit and sinc, with PyTorch's grad_fn names and derivatives.yaml's formulas.

Values: PyTorch's CPU kernels to the last bit for float32 and float64 (copysign: the sign
bit moved, as NumPy's; logit: x / (1 - x) on the clamped input, then the vector math
library's log over the whole tensor (MKL's vdLn/vsLn, as torch.log); sinc: sin(pi x) /
(pi x) by the C library, 1 at 0), except float32 sinc, whose C-library `sinf` NumPy does
not have (docs/developer/numerics.md)."""

from __future__ import annotations

import math

import numpy as np

from ..core import dtypes
from ..core.convert import tensor_arg
from ..core.tensor import Tensor
from ..engine.declare import none
from ..engine.function import Function
from ..numerics import mkl
from ..numerics.floats.libm_log import libm_log
from ..numerics.floats.tensor_iter import laid_out
from ..runtime.errors import GradTypeError
from ..runtime.limits import check_broadcast
from .combine import MaskedFill
from .elementwise import _float_dt
from .registry import Arg, Parser, register
from .tensor_args import _pytype

_NO_FORMULA = none("no formula rule yet: shown as a named function with its local Jacobian")

# ---------------------------------------------------------------- copysign


def _sign_ratio(g, F, x, out):
    """copysign_tensor_self_backward: grad * (result / self), 0 where self is 0."""
    if F.tensor_mode:
        return g * MaskedFill.apply(out / x, (x == 0).data, 0)
    with np.errstate(all="ignore"):
        ratio = out / x.astype(out.dtype, copy=False)
    return g * np.where(x == 0, np.zeros((), ratio.dtype), ratio)


class _Copysign(Function):
    __slots__ = ("sa", "sb", "b_dtype")
    saved_names = ("self", "result")
    formula = _NO_FORMULA

    def forward(self, a, b, dt):
        self.sa = a.shape
        out = laid_out(np.asarray(np.copysign(a.astype(dt), np.asarray(b).astype(dt))), (a,))
        self.save(a, out)
        return out

    def jvp(self, ts, F, x, out):
        return _sign_ratio(ts[0], F, x, out)


class Copysign(_Copysign):
    """copysign(Tensor, Tensor): other's gradient is zeros_like(other)."""

    __slots__ = ()
    name = "CopysignBackward0"

    def forward(self, a, b, dt):
        self.sb, self.b_dtype = b.shape, b.dtype
        return _Copysign.forward(self, a, b, dt)

    def backward(self, g, F, x, out):
        n = self.needs
        zeros = None
        if n[1]:
            zeros = np.zeros(self.sb, self.b_dtype)
            zeros = Tensor(zeros) if F.tensor_mode else zeros
        return (F.sum_to(_sign_ratio(g, F, x, out), self.sa) if n[0] else None, zeros)


class CopysignScalar(_Copysign):
    __slots__ = ()
    name = "CopysignBackward1"

    def backward(self, g, F, x, out):
        return (_sign_ratio(g, F, x, out),)


@register(
    "copysign",
    "copysign(input, other)",
    "the magnitude of input with the sign of other, element-wise",
    method=True,
    checks=[((Arg((2, 3)), Arg((3,))), {}), ((Arg((2, 3)), -1.5), {})],
    category="math",
    batch=None,
    inplace=None,
    pure=False,
    parser=Parser(("other",)),
)
def copysign(input, other):
    if isinstance(other, Tensor) and isinstance(input, Tensor):
        check_broadcast(input.data.shape, other.data.shape)
        dt = _float_dt(dtypes.result_type(input, other))
        return Copysign.apply(input, other, dt=dt)
    number = not isinstance(other, bool) and isinstance(other, (int, float))
    if not isinstance(input, Tensor) or not number:
        raise GradTypeError(
            "copysign() received an invalid combination of arguments - got "
            f"({_pytype(input)}, {_pytype(other)}), but expected one of:\n"
            " * (Tensor input, Tensor other, *, Tensor out = None)\n"
            " * (Tensor input, Number other, *, Tensor out = None)"
        )
    dt = _float_dt(dtypes.result_type(input, other))
    return CopysignScalar.apply(input, b=float(other), dt=dt)


# ---------------------------------------------------------------- logit


_LOG = mkl.unary_fn("log", libm_log)


def _bounds(eps, t):
    lo = t.type(eps)
    return lo, t.type(1) - lo


def logit_values(x, eps):
    """ATen's logit kernel of a float array: x clamped to [eps, 1 - eps] (eps given),
    then log(x / (1 - x)), the log the vector math library's over the whole array."""
    one = x.dtype.type(1)
    with np.errstate(all="ignore"):
        if eps is not None:
            lo, hi = _bounds(eps, x.dtype)
            x = np.where(x < lo, lo, np.where(x > hi, hi, x))
        q = x / (one - x)
        return _LOG(q) if x.dtype.char in "fd" else np.log(q)


class Logit(Function):
    __slots__ = ("eps",)
    name = "LogitBackward0"
    saved_names = ("self",)
    saved_extra = {"eps": lambda node: node.eps}
    formula = _NO_FORMULA

    def forward(self, x, eps):
        self.eps = eps
        self.save(x)
        return laid_out(np.asarray(logit_values(x, eps)), (x,))

    def backward(self, g, F, x):
        return (self._grad(g, F, x),)

    def jvp(self, ts, F, x):
        return self._grad(ts[0], F, x)

    def _grad(self, g, F, x):
        """logit_backward: g / (x (1 - x)); g * inf at 0 and 1; outside [0, 1] NaN (no
        eps) or outside [eps, 1 - eps] 0."""
        xa = x.data if F.tensor_mode else x
        t = xa.dtype.type
        if self.eps is None:
            outside, fill = (xa < 0) | (xa > 1), math.nan
        else:
            lo, hi = _bounds(self.eps, xa.dtype)
            outside, fill = (xa < lo) | (xa > hi), 0.0
        edge = (xa == 0) | (xa == 1)
        if F.tensor_mode:  # (ATen's own node, LogitBackwardBackward0, is not made)
            out = g / (x * (1 - x))
            if edge.any():  # (g * inf only where it is taken: 0 * inf is NaN elsewhere)
                out = F.where(edge, g * Tensor(np.where(edge, t(math.inf), t(0))), out)
            return F.where(outside, fill, out) if outside.any() else out
        with np.errstate(all="ignore"):
            out = np.where(edge, g * t(math.inf), g / (x * (t(1) - x)))
        return np.where(outside, t(fill), out)


def _logit(input, eps=None):
    x = tensor_arg(input)
    if eps is not None and (isinstance(eps, bool) or not isinstance(eps, (int, float))):
        raise GradTypeError(f"logit(): argument 'eps' must be float, not {_pytype(eps)}")
    dt = _float_dt(x.data.dtype)
    if x.data.dtype != dt:
        x = Tensor(x.data.astype(dt))
    return Logit.apply(x, eps=None if eps is None else float(eps))


@register(
    "logit",
    "logit(input, eps=None)",
    "log(input / (1 - input)), input first clamped to [eps, 1 - eps] when eps is given",
    method=True,
    checks=[((Arg((2, 3), 0.1, 0.9),), {}), ((Arg((2, 3), 0.1, 0.9),), {"eps": 0.2})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=None,
)
def logit(input, eps=None):
    return _logit(input, eps)


# ---------------------------------------------------------------- sinc


def sinc_values(a):
    """ATen's sinc_kernel: sin(pi a) / (pi a) (pi in a's type), 1 where a is 0."""
    t = a.dtype.type
    with np.errstate(all="ignore"):
        p = t(math.pi) * a
        return np.where(a == 0, t(1), np.sin(p) / p)


class Sinc(Function):
    __slots__ = ()
    name = "SincBackward0"
    saved_names = ("self",)

    def formula(self, S, x):
        return S.map(lambda v: S.sp.sin(S.sp.pi * v) / (S.sp.pi * v), x)

    def forward(self, x):
        self.save(x)
        return laid_out(np.asarray(sinc_values(x)), (x,))

    def backward(self, g, F, x):
        return (self._grad(g, F, x),)

    def jvp(self, ts, F, x):
        return self._grad(ts[0], F, x)

    def _grad(self, g, F, x):
        """sinc_backward: g * (x pi cos(x pi) - sin(x pi)) / (x x pi), 0 where x x pi
        is 0."""
        with np.errstate(all="ignore"):
            self_pi = x * math.pi
            sq_pi = x * x * math.pi
            out = g * (self_pi * F.cos(self_pi) - F.sin(self_pi)) / sq_pi
            zero = (sq_pi.data if F.tensor_mode else sq_pi) == 0
            if F.tensor_mode:
                return F.where(zero, 0.0, out)
            return np.where(zero, np.zeros((), out.dtype), out)


@register(
    "sinc",
    "sinc(input)",
    "sin(pi input) / (pi input), 1 at 0 (the normalized sinc)",
    method=True,
    checks=[((Arg((2, 3)),), {})],
    category="math",
    batch="elementwise",
    inplace=None,
    pure=False,
    parser=None,
)
def sinc(input):
    x = tensor_arg(input)
    dt = _float_dt(x.data.dtype)
    if x.data.dtype != dt:
        x = Tensor(x.data.astype(dt))
    return Sinc.apply(x)
