"""The nodes of a float16 tensor and a Python number where PyTorch's arithmetic is
not NumPy's float16 arithmetic (numerics/floats/half.py says how): `*`, `/`, `//` and `**`.
elementwise's `mul`, `div`, `floor_divide` and `pow` call them through
`elementwise.HALF_NUMBER`, on their general path only (the float32/float64 fast
paths never reach it).  The nodes keep PyTorch's names (MulBackward0 ...)."""

from __future__ import annotations

from ..engine.declare import none

import numpy as np

from ..runtime import context
from ..numerics.floats import half
from ..core.tensor import Tensor
from .elementwise import HALF_NUMBER, Div, FloorDivide, Mul, Reciprocal
from .power import PowScalar


class MulHalf(Mul):
    """float16 tensor * number: in float32 with the number as written."""

    __slots__ = ()

    def forward(self, a, b, dt):
        self.sa, self.sb = np.shape(a), ()
        self.saved = (a, b)
        return half.times(a, b)

    def backward(self, g, F, a, b):
        if F.tensor_mode:
            return (g * b, None)
        return (half.times(g, b), None)

    def grad_factor(self):
        return None  # (its backward is float16's)


class DivHalf(Div):
    """float16 tensor / number: in float32 with the number as written."""

    __slots__ = ()

    def forward(self, a, b, dt):
        self.sa, self.sb = np.shape(a), ()
        self.save(a, b)
        return half.divide(a, b)

    def backward(self, g, F, a, b):
        if F.tensor_mode:
            return (g / b, None)
        return (half.divide(g, b), None)


class FloorDivideHalf(FloorDivide):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ()

    def forward(self, a, b, dt):
        return half.floor_divide(a, b)


class PowHalf(PowScalar):
    """float16 tensor ** number: PyTorch's Half pow kernel; its gradient
    g * (e * a ** (e - 1)) with those kernels."""

    __slots__ = ()

    def forward(self, a, e, dt):
        self.e = e
        self.save(a)
        return half.power(a, e)

    def backward(self, g, F, a):
        e = self.e
        if e == 0 or F.tensor_mode:
            return PowScalar.backward(self, g, F, a)
        return (g * half.times(half.power(a, e - 1), e),)


def _operands(a, b, number_second):
    """A 0-d tensor of another dtype meeting a float16 tensor (not requiring grad) as
    PyTorch's kernels take it: rounded to float16, or, as mul's and div's second operand,
    as the number it holds (the kernels read it in float32)."""
    return _cast(a, False), _cast(b, number_second)


def _cast(v, as_number):
    if type(v) is not Tensor:
        return v
    d = v.data
    if d.ndim or d.dtype is half.F16 or (v.requires_grad and context.current.grad_enabled):
        return v
    return d.item() if as_number else Tensor(d.astype(half.F16))


def _mul(a, b):
    return MulHalf.apply2(a, b, half.F16)


def _div(a, b):
    if type(a) is not Tensor:  # number / tensor: tensor.reciprocal() * number
        return MulHalf.apply(Reciprocal.apply(b, dt=half.F16), a, dt=half.F16)
    return DivHalf.apply2(a, b, half.F16)


def _floor_divide(a, b):
    if type(a) is not Tensor:
        a = Tensor(np.asarray(a, dtype=half.F16))
        return FloorDivide.apply(a, b, dt=half.F16)
    return FloorDivideHalf.apply(a, b, dt=half.F16)


def _pow(a, b):
    return PowHalf.apply2(a, b, half.F16)


HALF_NUMBER.update(operands=_operands, mul=_mul, div=_div, floor_divide=_floor_divide, pow=_pow)
