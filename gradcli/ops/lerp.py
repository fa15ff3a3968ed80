"""torch.lerp: start + weight * (end - start), with PyTorch's grad_fn names (LerpBackward0
for a number weight, LerpBackward1 for a tensor weight) and derivatives.yaml's formulas.

Values: PyTorch's to the last bit.  ATen's lerp is, on whole vectors and in its scalar
code alike, one fused multiply-add: `fma(weight, end - start, start)` when
|weight| < 0.5, else `fma(weight - 1, end - start, end)` (the exact negation of
`end - (end - start) * (1 - weight)`), computed in float32 for float16."""

from __future__ import annotations

import numpy as np

from ..core import dtypes
from ..core.tensor import Tensor
from ..engine.forward import add_terms
from ..engine.function import Function
from ..numerics.floats.fma import exact_scalar, fma, unsplittable
from ..numerics.floats.tensor_iter import laid_out
from ..runtime.errors import GradRuntimeError, GradTypeError, broadcast_error
from ..runtime.limits import check_broadcast
from .binary_math import times_scalar
from .linalg import _tn
from .registry import Arg, register
from .tensor_args import _pytype


def _lerp(a, e, w, dt):
    """a + w * (e - a) in dtype dt as ATen's lerp kernel computes it (arrays broadcast)."""
    if dt == np.float16:  # (computed in float, rounded once to half)
        f32 = np.dtype(np.float32)
        return _lerp(a.astype(f32), e.astype(f32), np.asarray(w).astype(f32), f32).astype(dt)
    w = np.asarray(w, dt)
    d = np.asarray(e - a, dt)
    small = np.abs(w) < 0.5
    coeff = np.where(small, w, (w - dt.type(1)).astype(dt))
    base = np.where(small, a, e)
    out = np.asarray(fma(coeff, d, base, dt)).astype(dt, copy=False)
    if dt == np.float64:
        shape = out.shape
        C, D, B = (np.broadcast_to(v, shape) for v in (coeff, d, base))
        far = unsplittable(C, D) & np.isfinite(D) & np.isfinite(B)
        if far.any():  # products near the ends of the double range
            out = np.array(out)
            out[far] = [
                exact_scalar(c, x, b)
                for c, x, b in zip(C[far].tolist(), D[far].tolist(), B[far].tolist())
            ]
    return out


def _tangents(ta, te, sa, se):
    """The tangents of start and end, zeros (of its shape and the other's dtype) for one
    that is missing, as PyTorch materializes them."""
    if ta is None:
        ta = Tensor(np.zeros(sa, te.data.dtype))
    if te is None:
        te = Tensor(np.zeros(se, ta.data.dtype))
    return ta, te


class _Shapes:
    """The operands' shapes, kept for summing gradients back to them."""

    __slots__ = ()

    def _shapes(self, a, e, w):
        self.sa, self.se = a.shape, e.shape
        self.sw = np.shape(w)


class LerpScalar(_Shapes, Function):
    """lerp.Scalar: the weight a number."""

    __slots__ = ("sa", "se", "sw", "w")
    name = "LerpBackward0"
    saved_names = ()
    saved_extra = {"weight": lambda node: node.w}

    def formula(self, S, a, e, *_):
        raise S.Unsupported("lerp")

    def forward(self, a, e, w):
        self._shapes(a, e, w)
        self.w = w
        out = _lerp(a, e, w, a.dtype)
        return laid_out(out, (a, e))

    def backward(self, g, F):
        # grad * (1 - weight.toDouble()), grad * weight
        n, w = self.needs, self.w
        return (
            F.sum_to(times_scalar(F, g, 1 - float(w)), self.sa) if n[0] else None,
            F.sum_to(times_scalar(F, g, w), self.se) if n[1] else None,
        )

    def jvp(self, ts, F):
        # at::lerp(self_t, end_t, weight), a missing tangent zeros
        ta, te = _tangents(ts[0], ts[1], self.sa, self.se)
        return LerpScalar.apply(ta, te, w=self.w)


class LerpTensor(_Shapes, Function):
    """lerp.Tensor: the weight a tensor."""

    __slots__ = ("sa", "se", "sw")
    name = "LerpBackward1"
    saved_names = ("self", "end", "weight")
    saved_order = (1, 0, 2)  # PyTorch saves end, self, then weight

    def formula(self, S, a, e, w, *_):
        raise S.Unsupported("lerp")

    def forward(self, a, e, w):
        self._shapes(a, e, w)
        self.save(a, e, w)
        out = _lerp(a, e, w.astype(a.dtype, copy=False), a.dtype)
        return laid_out(out, (a, e, w) if w.dtype == a.dtype else (a, e))

    def backward(self, g, F, a, e, w):
        # grad * (1 - weight), grad * weight, grad * (end - self)
        n = self.needs
        if not F.tensor_mode and w.dtype != g.dtype:  # a 0-d weight of another dtype
            w = w.astype(g.dtype)
        return (
            F.sum_to(g * (1 - w), self.sa) if n[0] else None,
            F.sum_to(g * w, self.se) if n[1] else None,
            F.sum_to(g * (e - a), self.sw) if n[2] else None,
        )

    def jvp(self, ts, F, a, e, w):
        # at::lerp(self_t, end_t, weight_p) + weight_t * (end_p - self_p)
        ta, te, tw = ts
        t = None
        if ta is not None or te is not None:
            ta, te = _tangents(ta, te, self.sa, self.se)
            t = LerpTensor.apply(ta, te, w)
        return add_terms(t, tw * (e - a) if tw is not None else None)


def _invalid(args, method):
    got = ", ".join(_pytype(v) for v in args[1 if method else 0 :])
    raise GradTypeError(
        f"lerp() received an invalid combination of arguments - got ({got}), but expected one of:"
    )


def _lerp_call(args, method):
    if len(args) != 3:
        _invalid(args, method)
    input, end, weight = args
    if (
        not isinstance(input, Tensor)
        or not isinstance(end, Tensor)
        or not isinstance(weight, (Tensor, int, float))
    ):
        _invalid(args, method)
    a, e = input.data, end.data
    dt = a.dtype
    if e.dtype != dt:
        raise GradRuntimeError(f"expected dtype {_tn(dt)} for `end` but got dtype {_tn(e.dtype)}")
    tensor_w = isinstance(weight, Tensor)
    if tensor_w and weight.data.ndim and weight.data.dtype != dt:
        raise GradRuntimeError(
            f"expected dtype {_tn(dt)} for `weight` but got dtype {_tn(weight.data.dtype)}"
        )
    if dt.kind != "f":
        kernel = "lerp_kernel_tensor" if tensor_w else "lerp_kernel_scalar"
        raise GradRuntimeError(
            f"\"{kernel}\" not implemented for '{dtypes.scalar_type_name(dt)}'",
            type_name="NotImplementedError",
        )
    shapes = [a.shape, e.shape] + ([weight.data.shape] if tensor_w else [])
    check_broadcast(*shapes)
    shape = shapes[0]
    for s in shapes[1:]:
        try:
            shape = np.broadcast_shapes(shape, s)
        except ValueError:
            raise broadcast_error(shape, s) from None
    if tensor_w:
        return LerpTensor.apply(input, end, weight)
    return LerpScalar.apply(input, end, w=weight)


@register(
    "lerp",
    "lerp(input, end, weight)",
    "input + weight * (end - input): linear interpolation (weight a number or a tensor)",
    method=True,
    checks=[
        ((Arg((2, 3)), Arg((2, 3)), 0.3), {}),
        ((Arg((2, 3)), Arg((3,)), 0.75), {}),
        ((Arg((2, 3)), Arg((2, 3)), Arg((2, 3), 0.0, 1.0)), {}),
        ((Arg((3,)), Arg((2, 3)), Arg((2, 1), -0.5, 1.5)), {}),
    ],
    category="math",
    batch=None,
    inplace="lerp_",
    pure=False,
    parser=None,
)
def lerp(*args):
    return _lerp_call(args, False)


def _lerp_method(*args):
    return _lerp_call(args, True)


lerp.method = _lerp_method
