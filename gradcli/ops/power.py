"""Powers: `tensor ** number`, `tensor ** tensor`, `number ** tensor` (the `pow`
op and the `**` / `^` operators), in PyTorch's arithmetic (numerics/floats/powers.py)."""

from __future__ import annotations

import numpy as np

from ..runtime.errors import GradRuntimeError
from ..numerics.floats.half import F16
from ..numerics.floats.fused import BLOCKED_BYTES, times_fresh, times_twice
from ..numerics.floats.powers import int_power, torch_pow, torch_pow_tensor
from ..numerics.floats.tensor_iter import laid_out
from ..core.tensor import Tensor
from ..engine.forward import add_terms
from ..engine.function import Function
from ..engine.kept import kept, keeping
from .elementwise import HALF_NUMBER, _cast, _operands, _shapes
from .registry import Arg, Operator, internal, operator_node, Parser, register

_SQUARE = (np.square, 1, True, None)  # x * x: one IEEE product, as np.multiply(x, x)


@operator_node("**", "^", tensor_operand=False, swaps=False)
class PowScalar(Function):
    """tensor ** number"""

    __slots__ = ("e",)
    name = "PowBackward0"
    saved_names = ("self",)
    saved_extra = {"exponent": lambda node: node.e}

    def formula(self, S, a, e):
        return S.map(lambda v: v ** S.number(self.e), a)

    def forward(self, a, e, dt):
        self.e = e
        self.saved = (a,)
        if type(a) is np.ndarray:
            out = torch_pow(a, e)
            if not a.flags.c_contiguous:  # (its own kernels give C order)
                out = laid_out(out, (a,))
        else:
            out = np.power(a, e)
        return out if out.dtype is dt else _cast(out, dt)

    def replay_kernel(self, a, e, dt):
        # x ** 2 of a float32/float64 array (not 0-d) of the result dtype is torch_pow's
        # x * x (not PowHalf's: another forward)
        if (
            type(self) is PowScalar
            and e == 2
            and type(e) is not bool
            and type(a) is np.ndarray
            and a.ndim
            and a.dtype is dt
            and dt.char in "fd"
        ):
            return _SQUARE
        return None

    def backward(self, g, F, a):
        e = self.e
        if e == 0:  # PyTorch: zeros_like(input), whatever g is (inf, nan)
            return (Tensor(np.zeros_like(a.data)) if F.tensor_mode else np.zeros_like(a),)
        if not F.tensor_mode:
            if keeping() and type(a) is np.ndarray and a.ndim and a.nbytes < BLOCKED_BYTES:
                # (the factor, 2 * a as a + a for a square: the same at a Jacobian's rows)
                return (g * (kept(_twice, a) if e == 2 else kept(_pow_factor, a, e)),)
            if e == 2:
                if (
                    type(a) is np.ndarray
                    and a.ndim  # (NumPy gives a 0-d sum as a scalar)
                    and type(g) is np.ndarray
                    and g.shape == a.shape
                    and g.dtype is a.dtype
                    and a.dtype.kind == "f"
                    and a.nbytes < BLOCKED_BYTES
                ):  # (times_twice's product of a fresh a + a, without its steps)
                    t = np.add(a, a)
                    return (np.multiply(g, t, t),)  # (into t: a positional out)
                return (times_twice(g, a),)
            return (times_fresh(g, _pow_factor(a, e)),)
        return (g * (e * a ** (e - 1)),)  # as PyTorch, so higher orders match too

    def jvp(self, ts, F, a):
        if self.e == 0:
            return ts[0] * 0.0
        return ts[0] * (self.e * a ** (self.e - 1))


def _pow_factor(a, e):
    """e * a ** (e - 1), the factor of a ** e's gradient (PyTorch's order)."""
    return e * torch_pow(a, e - 1)


def _twice(a):
    """2 * a, as a + a (the same bits), the factor of a ** 2's gradient."""
    return np.add(a, a)


class PowTensor(Function):
    """tensor ** tensor"""

    __slots__ = ("sa", "sb")
    name = "PowBackward1"
    saved_names = ("self", "exponent", "result")
    saved_order = (1, 0, 2)

    def formula(self, S, a, b):
        return S.const(a, self, 0, self.sa) ** S.const(b, self, 1, self.sb)

    def forward(self, a, b, dt):
        self.sa, self.sb = _shapes(a, b)
        out = _cast(int_power(a, b) if dt.kind in "iu" else _pow_arrays(a, b, dt), dt)
        out = laid_out(out, (a, b))
        self.save(a, b, out)
        return out

    def backward(self, g, F, a, b, out):
        # derivatives.yaml: pow_backward_self, grad * (exponent * self.pow(exponent - 1)),
        # 0 where exponent == 0; pow_backward_exponent, grad * (result * self.log()), 0
        # where self == 0 and exponent >= 0
        n = self.needs
        ga = gb = None
        if not F.tensor_mode:
            bm1 = np.asarray(b) - 1  # in the exponent's own dtype, as torch's
            b = np.asarray(b, out.dtype)  # (the product in the result's dtype)
        if n[0]:
            p = a ** (b - 1) if F.tensor_mode else _pow_arrays(a, bm1, out.dtype)
            ga = F.sum_to(F.where(b == 0, 0.0, g * (b * p)), self.sa)
        if n[1]:
            lg = out * F.log(a)
            gb = F.sum_to(g * F.where(a == 0, F.where(b >= 0, 0.0, lg), lg), self.sb)
        return ga, gb

    def jvp(self, ts, F, a, b, out):
        ta, tb = ts
        return add_terms(
            F.where(b == 0, 0.0, ta * b * a ** (b - 1)) if ta is not None else None,
            F.where(a == 0, F.where(b >= 0, 0.0, tb * out * F.log(a)), tb * out * F.log(a))
            if tb is not None
            else None,
        )


def _pow_arrays(a, b, dt):
    """a ** b of two arrays (or numbers) in the floating dtype dt, as PyTorch's kernel
    (numerics/floats/powers.torch_pow_tensor)."""
    return torch_pow_tensor(np.asarray(a, dt), np.asarray(b, dt))


class PowRScalar(Function):
    """number ** tensor"""

    __slots__ = ("base",)
    name = "PowBackward2"
    saved_names = ("exponent", "result")
    saved_extra = {"self": lambda node: node.base}

    def formula(self, S, e, *_):
        return S.map(lambda v: S.number(self.base) ** v, e)

    def forward(self, e, base, dt):
        self.base = base
        out = _cast(np.power(float(base), e) if dt.kind == "f" else int_power(base, e), dt)
        out = np.asarray(out, order="C")  # pow(Scalar, Tensor) is C order, whatever e's layout
        self.save(e, out)
        return out

    def backward(self, g, F, e, out):
        if self.base == 0:  # PyTorch: zero where exponent >= 0
            return (F.where(e >= 0, 0.0, g * out * -np.inf),)
        return (g * out * float(np.log(float(self.base))),)

    def jvp(self, ts, F, e, out):
        return self.backward(ts[0], F, e, out)[0]


@register(
    "pow",
    "pow(input, exponent)",
    "input ** exponent (also ^)",
    method=True,
    checks=[
        ((Arg((2, 3), 0.5, 2.0), 3), {}),
        ((Arg((3,), 0.5, 2.0), Arg((3,))), {}),
        ((2.0, Arg((3,))), {}),
        ((Arg((2,), 0.5, 2), 0.5), {}),
    ],
    category="arith",
    batch="elementwise",
    inplace="pow_",
    # (`x ^= y` rebinds x to x ^ y: `^` is a power only in gradcli, which keeps it apart)
    operators=("**", Operator("^", in_place=False)),
    pure="method",
    parser=Parser(overloaded=True),
)
@internal("pow")
def pow(input, exponent):
    a, b = input, exponent  # (torch's names: x.pow(exponent=2))
    if type(a) is Tensor and (type(b) is int or type(b) is float):
        dt = a.data.dtype
        if dt.char in "fd":  # the common case _operands answers first
            return PowScalar.apply2(a, b, dt)
    if type(b) is int and b < 0 and type(a) is Tensor and a.data.dtype.kind in "iu":
        raise GradRuntimeError("Integers to negative integer powers are not allowed.")
    a, b, dt = _operands(a, b)
    if type(b) is not Tensor:
        if dt is F16 and type(a) is Tensor:
            return HALF_NUMBER["pow"](a, b)
        return PowScalar.apply2(a, b, dt)
    if type(a) is not Tensor:
        return PowRScalar.apply(b, base=a, dt=dt)
    return PowTensor.apply(a, b, dt=dt)
