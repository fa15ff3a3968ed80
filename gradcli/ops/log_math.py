"""logaddexp, with PyTorch's grad_fn name and derivatives.yaml's formulas; its operands
are tensors only, as in PyTorch (ops/tensor_args.py).

Values: PyTorch's logaddexp_kernel to the last bit: max(a, b) + log1p(exp(-|a - b|)) (a
itself where a == b is infinite), with SLEEF's exp and log1p on the whole blocks of two
vectors and the C library's after them (numerics/floats/torch_act.py)."""

from __future__ import annotations

import numpy as np

from ..core import dtypes
from ..engine.forward import add_terms
from ..engine.function import Function
from ..numerics.floats.tensor_iter import laid_out, sleef_blocks
from ..numerics.floats.torch_act import _Scalar, _Vector
from ..runtime.errors import GradRuntimeError
from .binary_math import _in_dtype, _operands
from .registry import Arg, Parser, register
from .tensor_args import tensors_only, with_method_positions


def _logaddexp(lib, a, b):
    # the vector code takes maximum(a, b) (NaN if either is), the scalar code std::max
    m = np.maximum(a, b) if lib.vector else np.where(a < b, b, a)
    out = m + lib.log1p(lib.exp(-np.abs(a - b)))
    return np.where((a == b) & (np.abs(a) == np.inf), a, out)


def logaddexp_values(a, b):
    """torch.logaddexp of two float32/float64 arrays."""
    return sleef_blocks(
        lambda x, y: _logaddexp(_Vector, x, y), lambda x, y: _logaddexp(_Scalar, x, y), (a, b)
    )


class Logaddexp(Function):
    __slots__ = ("sa", "sb")
    name = "LogaddexpBackward0"
    saved_names = ("self", "other")
    saved_order = (1, 0)  # PyTorch saves other before self

    def formula(self, S, a, b, *_):
        a, b = S.saved_const(a, self, 0, self.sa), S.saved_const(b, self, 1, self.sb)
        return S.map2(lambda u, v: S.sp.log(S.sp.exp(u) + S.sp.exp(v)), a, b)

    def forward(self, a, b, dt):
        self.save(a, b)
        a, b = _operands(self, a, b, dt)
        return laid_out(np.asarray(logaddexp_values(a, b)), (a, b))

    def backward(self, g, F, a, b):
        # grad / (1 + exp(other - self)) and grad / (1 + exp(self - other))
        dt = self.out_dtype
        a, b = _in_dtype(F, a, dt), _in_dtype(F, b, dt)
        n = self.needs
        return (
            F.sum_to(g / (F.exp(b - a) + 1), self.sa) if n[0] else None,
            F.sum_to(g / (F.exp(a - b) + 1), self.sb) if n[1] else None,
        )

    def jvp(self, ts, F, a, b):
        ta, tb = ts
        return add_terms(
            ta / (F.exp(b - a) + 1) if ta is not None else None,
            tb / (F.exp(a - b) + 1) if tb is not None else None,
        )


@register(
    "logaddexp",
    "logaddexp(input, other)",
    "log(exp(input) + exp(other)), element-wise, without overflow",
    method=True,
    checks=[((Arg((2, 3)), Arg((3,), -1.0, 2.0)), {}), ((Arg(()), Arg((2,))), {})],
    category="math",
    batch=None,
    inplace=None,
    pure=False,
    parser=Parser(("other",)),
)
def logaddexp(input, other):
    a, b = tensors_only("logaddexp", input, other)
    dt = dtypes.result_type(a, b)
    if dt.kind != "f":
        raise GradRuntimeError(
            f"\"logaddexp_cpu\" not implemented for '{dtypes.scalar_type_name(dt)}'",
            type_name="NotImplementedError",
        )
    return Logaddexp.apply(a, b, dt=dt)


with_method_positions(logaddexp, "logaddexp")
