"""torch.addcmul and torch.addcdiv: input + value * tensor1 * tensor2 (or / tensor2), the
three tensors broadcast, with PyTorch's grad_fn names (AddcmulBackward0,
AddcdivBackward0), derivatives.yaml's formulas and the in-place forms (`x.addcmul_`,
`x.addcdiv_`) that optimizers written by hand use.

Values: PyTorch's to the last bit.  ATen's pointwise kernel computes addcmul as one fused
multiply-add, `fma(value * tensor1, tensor2, input)` (the value in the tensors' dtype),
and addcdiv as `input + value * tensor1 / tensor2`, three roundings in that order."""

from __future__ import annotations

import numpy as np

from ..core import dtypes
from ..core.tensor import Tensor
from ..engine.forward import add_terms
from ..engine.function import Function
from ..numerics.floats.fma import exact_scalar, fma, unsplittable
from ..numerics.floats.tensor_iter import laid_out, sleef_blocks
from ..runtime.errors import GradRuntimeError, GradTypeError, broadcast_error
from ..runtime.limits import check_broadcast
from .elementwise import times_scalar
from ..engine.declare import none
from .registry import FUNCTIONS, Arg, Parser, register
from .tensor_args import _pytype

_F64 = np.dtype(np.float64)


def _fused(p, t2, a, dt):
    """p * t2 + a rounded once in dtype dt (float64 or float32; float16 through float32)."""
    if dt.itemsize < 4:
        f32 = np.dtype(np.float32)
        return _fused(p.astype(f32), t2.astype(f32), a.astype(f32), f32).astype(dt)
    out = np.asarray(fma(p, t2, a, dt)).astype(dt, copy=False)
    if dt == _F64:
        P, T, A = (np.broadcast_to(v, out.shape) for v in (p, t2, a))
        far = unsplittable(P, T) & np.isfinite(T) & np.isfinite(A)
        if far.any():  # products near the ends of the double range
            out = np.array(out)
            out[far] = [
                exact_scalar(x, y, z)
                for x, y, z in zip(P[far].tolist(), T[far].tolist(), A[far].tolist())
            ]
    return out


class _Pointwise:
    """The two ops' shared shapes and saved values (PyTorch saves tensor1 and tensor2)."""

    __slots__ = ()

    def _keep(self, a, t1, t2, value):
        self.sa, self.s1, self.s2 = a.shape, t1.shape, t2.shape
        self.value = value
        self.save(t1, t2)


class Addcmul(_Pointwise, Function):
    __slots__ = ("sa", "s1", "s2", "value")
    saved_names = ("tensor1", "tensor2")
    saved_extra = {"value": lambda node: node.value}
    name = "AddcmulBackward0"

    def forward(self, a, t1, t2, value=1, dt=_F64):
        self._keep(a, t1, t2, value)
        a, t1, t2 = (v.astype(dt, copy=False) for v in (a, t1, t2))
        if dt.kind != "f":
            out = a + value * t1 * t2
        else:
            out = _fused(np.asarray(t1 * dt.type(value)), t2, a, dt)
        return laid_out(np.asarray(out, dt), (a, t1, t2))

    def backward(self, g, F, t1, t2):
        # self: grad; tensor1: grad * (tensor2 * value); tensor2: grad * (tensor1 * value)
        n, v = self.needs, self.value
        return (
            F.sum_to(g, self.sa) if n[0] else None,
            F.sum_to(g * times_scalar(F, t2, v), self.s1) if n[1] else None,
            F.sum_to(g * times_scalar(F, t1, v), self.s2) if n[2] else None,
        )

    def jvp(self, ts, F, t1, t2):
        # self_t + maybe_multiply(tensor1_t * tensor2_p, value)
        #        + maybe_multiply(tensor2_t * tensor1_p, value)
        v = self.value
        terms = [ts[0]]
        for t, other in ((ts[1], t2), (ts[2], t1)):
            if t is not None:
                p = t * other
                terms.append(p if v == 1 else p * v)
        out = None
        for t in terms:
            out = add_terms(out, t)
        return out

    def formula(self, S, a, t1, t2, *_):
        a = S.unknown(a, self, 0, self.sa)
        b = S.saved_const(t1, self, 0, self.s1)
        c = S.saved_const(t2, self, 1, self.s2)
        return a + S.number(self.value) * b * c


class Addcdiv(_Pointwise, Function):
    __slots__ = ("sa", "s1", "s2", "value")
    saved_names = ("tensor1", "tensor2")
    saved_extra = {"value": lambda node: node.value}
    name = "AddcdivBackward0"

    def forward(self, a, t1, t2, value=1, dt=_F64):
        self._keep(a, t1, t2, value)
        a, t1, t2 = (v.astype(dt, copy=False) for v in (a, t1, t2))
        with np.errstate(all="ignore"):
            out = a + (t1 * dt.type(value)) / t2
        return laid_out(np.asarray(out, dt), (a, t1, t2))

    def backward(self, g, F, t1, t2):
        # self: grad; tensor1: grad * (value / tensor2);
        # tensor2: -grad * (value * tensor1 / (tensor2 * tensor2))
        n, v = self.needs, self.value
        return (
            F.sum_to(g, self.sa) if n[0] else None,
            F.sum_to(g * (v / t2), self.s1) if n[1] else None,
            F.sum_to(-g * (times_scalar(F, t1, v) / (t2 * t2)), self.s2) if n[2] else None,
        )

    def jvp(self, ts, F, t1, t2):
        # self_t + maybe_multiply(tensor1_t / tensor2_p, value)
        #        - maybe_multiply(tensor2_t * (tensor1_p / tensor2_p) / tensor2_p, value)
        v = self.value
        out = ts[0]
        if ts[1] is not None:
            p = ts[1] / t2
            out = add_terms(out, p if v == 1 else p * v)
        if ts[2] is not None:
            p = ts[2] * (t1 / t2) / t2
            p = p if v == 1 else p * v
            out = -p if out is None else out - p
        return out

    def formula(self, S, a, t1, t2, *_):
        a = S.unknown(a, self, 0, self.sa)
        b = S.saved_const(t1, self, 0, self.s1)
        c = S.saved_const(t2, self, 1, self.s2)
        return a + S.number(self.value) * b / c


_INT_DIV = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
    "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can "
    "be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
    "integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
    "addcdiv behavior is just the latter implementation: (input + value * tensor1 / "
    "tensor2), for all dtypes."
)


_EXPECTED = (
    "(Tensor input, Tensor tensor1, Tensor tensor2, *, Number value = 1, Tensor out = None)",
    "(Tensor tensor1, Tensor tensor2, *, Number value = 1)",
)
_PARAMS = ("input", "tensor1", "tensor2")


def check(name, args, kwargs, method):
    """PyTorch's argument checks of `name` (addcmul, addcmul_ ...; `method`: args[0] is
    the tensor it is called on): (input, tensor1, tensor2, value, result dtype)."""
    kwargs = dict(kwargs)
    value = kwargs.pop("value", 1)
    given = args[1:] if method else args
    if len(given) > 3 - method:
        raise GradTypeError(
            f"{name}() takes {3 - method} positional arguments but {len(given)} were given"
        )
    if kwargs or len(args) != 3:
        got = ", ".join(_pytype(v) for v in given)
        got += "".join(f", {k}={_pytype(v)}" for k, v in kwargs.items())
        raise GradTypeError(
            f"{name}() received an invalid combination of arguments - got ({got}), but "
            f"expected {_EXPECTED[method]}"
        )
    for i, v in enumerate(args):
        if not isinstance(v, Tensor):
            raise GradTypeError(
                f"{name}(): argument '{_PARAMS[i]}' (position {i + 1 - method}) must be "
                f"Tensor, not {_pytype(v)}"
            )
    if isinstance(value, Tensor) and value.data.ndim == 0:
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise GradTypeError(f"{name}(): argument 'value' must be Number, not {_pytype(value)}")
    a, t1, t2 = args
    dt = dtypes.result_type(a, t1, t2)
    if name.startswith("addcdiv") and dt.kind in "biu":
        raise GradRuntimeError(_INT_DIV)
    if dt.kind in "biu":
        value = int(value)  # (PyTorch's Scalar taken as the tensors' integer type)
    shapes = [a.data.shape, t1.data.shape, t2.data.shape]
    check_broadcast(*shapes)
    shape = shapes[0]
    for s in shapes[1:]:
        try:
            shape = np.broadcast_shapes(shape, s)
        except ValueError:
            raise broadcast_error(shape, s) from None
    return a, t1, t2, value, dt


def _call(name, node, args, kwargs, method):
    a, t1, t2, value, dt = check(name, args, kwargs, method)
    return node.apply(a, t1, t2, value=value, dt=dt)


_CHECKS = [
    ((Arg((2, 3)), Arg((2, 3)), Arg((2, 3), 0.5, 2.0)), {}),
    ((Arg((2, 3)), Arg((3,)), Arg((2, 1), 0.5, 2.0)), {"value": -0.3}),
    ((Arg((3,)), Arg((2, 3)), Arg((2, 3), 0.5, 2.0)), {"value": 2}),
]


@register(
    "addcmul",
    "addcmul(input, tensor1, tensor2, *, value=1)",
    "input + value * tensor1 * tensor2, broadcast (one fused multiply-add)",
    method=True,
    checks=_CHECKS,
    category="math",
    batch="elementwise",
    inplace="addcmul_",
    pure=False,
    parser=Parser(expected=_EXPECTED),
)
def addcmul(*args, **kwargs):
    return _call("addcmul", Addcmul, args, kwargs, False)


@register(
    "addcdiv",
    "addcdiv(input, tensor1, tensor2, *, value=1)",
    "input + value * tensor1 / tensor2, broadcast",
    method=True,
    checks=_CHECKS,
    category="math",
    batch="elementwise",
    inplace="addcdiv_",
    pure=False,
    parser=Parser(expected=_EXPECTED),
)
def addcdiv(*args, **kwargs):
    return _call("addcdiv", Addcdiv, args, kwargs, False)


addcmul.method = lambda *args, **kwargs: _call("addcmul", Addcmul, args, kwargs, True)
addcdiv.method = lambda *args, **kwargs: _call("addcdiv", Addcdiv, args, kwargs, True)


# ---------------------------------------------------------------- addr


def _addr_values(m, v1, v2, beta, alpha, dt):
    """beta * input + alpha * vec1 * vec2 (outer), as ATen's addr kernel: on whole vector
    blocks `fma(alpha * vec1, vec2, beta * input)`, after them the plain expression; with
    beta 0, `alpha * vec1 * vec2` alone."""
    shape = (v1.shape[0], v2.shape[0])
    x, y = np.broadcast_to(v1[:, None], shape), np.broadcast_to(v2[None, :], shape)
    b, a = dt.type(beta), dt.type(alpha)
    with np.errstate(all="ignore"):
        if beta == 0:
            return np.asarray((a * x) * y, dt)
        if dt.kind != "f":
            return np.asarray(b * m + a * x * y, dt)
        m = np.broadcast_to(m, shape)
        return sleef_blocks(
            lambda s, u, w: np.asarray(fma(a * u, w, b * s, dt)).astype(dt, copy=False),
            lambda s, u, w: b * s + (a * u) * w,
            (m, x, y),
        )


class Addr(Function):
    __slots__ = ("sm", "beta", "alpha")
    name = "AddrBackward0"
    saved_names = (None, "vec1", "vec2")
    saved_extra = {"alpha": lambda node: node.alpha, "beta": lambda node: node.beta}
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    def forward(self, m, v1, v2, beta=1, alpha=1, dt=_F64):
        self.sm, self.beta, self.alpha = m.shape, beta, alpha
        self.save(None, v1, v2)
        m, v1, v2 = (v.astype(dt, copy=False) for v in (m, v1, v2))
        return _addr_values(m, v1, v2, beta, alpha, dt)

    def backward(self, g, F, _m, v1, v2):
        # self: maybe_multiply(grad, beta); vec1: maybe_multiply(grad.mv(vec2), alpha);
        # vec2: maybe_multiply(grad.t().mv(vec1), alpha)
        n = self.needs
        mv = FUNCTIONS["mv"]

        def times(t, c):
            return t if c == 1 else times_scalar(F, t, c)

        if F.tensor_mode:
            gt = FUNCTIONS["transpose"](g, 0, 1)
            d1 = times(mv(g, v2), self.alpha) if n[1] else None
            d2 = times(mv(gt, v1), self.alpha) if n[2] else None
        else:
            G = Tensor(g)
            d1 = times(mv(G, Tensor(v2)).data, self.alpha) if n[1] else None
            d2 = times(mv(Tensor(g.T), Tensor(v1)).data, self.alpha) if n[2] else None
        return (F.sum_to(times(g, self.beta), self.sm) if n[0] else None, d1, d2)

    def jvp(self, ts, F, _m, v1, v2):
        # maybe_multiply(self_t, beta) + maybe_multiply(vec1_t.outer(vec2_p), alpha)
        #   + maybe_multiply(vec1_p.outer(vec2_t), alpha)
        outer = FUNCTIONS["outer"]
        out = None
        if ts[0] is not None:
            out = ts[0] if self.beta == 1 else ts[0] * self.beta
        for t in (
            outer(ts[1], v2) if ts[1] is not None else None,
            outer(v1, ts[2]) if ts[2] is not None else None,
        ):
            if t is not None:
                out = add_terms(out, t if self.alpha == 1 else t * self.alpha)
        return out


_ADDR_EXPECTED = (
    "(Tensor input, Tensor vec1, Tensor vec2, *, Number beta = 1, Number alpha = 1, "
    "Tensor out = None)",
    "(Tensor vec1, Tensor vec2, *, Number beta = 1, Number alpha = 1)",
)


def _addr(args, kwargs, method):
    kwargs = dict(kwargs)
    beta, alpha = kwargs.pop("beta", 1), kwargs.pop("alpha", 1)
    given = args[1:] if method else args
    if kwargs or len(args) != 3:
        got = ", ".join(_pytype(v) for v in given)
        raise GradTypeError(
            "addr() received an invalid combination of arguments - got "
            f"({got}), but expected {_ADDR_EXPECTED[method]}"
        )
    names = ("input", "vec1", "vec2")
    for i, v in enumerate(args):
        if not isinstance(v, Tensor):
            raise GradTypeError(
                f"addr(): argument '{names[i]}' (position {i + 1 - method}) must be Tensor, "
                f"not {_pytype(v)}"
            )
    m, v1, v2 = args
    for name, v in (("vec1", v1), ("vec2", v2)):
        if v.data.ndim != 1:
            raise GradRuntimeError(f"addr: Expected 1-D argument {name}, but got {v.data.ndim}-D")
    dt = dtypes.result_type(m, v1, v2)
    if dt.kind in "biu" and (isinstance(alpha, float) or isinstance(beta, float)):
        what = "alpha" if isinstance(alpha, float) else "beta"
        raise GradRuntimeError(
            f"For integral input tensors, argument {what} must not be a floating point number."
        )
    shape = (v1.data.shape[0], v2.data.shape[0])
    try:
        np.broadcast_to(np.empty(m.data.shape, np.bool_), shape)
    except ValueError:
        raise GradRuntimeError(
            "The expanded size of the tensor "
            f"({shape[-1] if m.data.ndim and m.data.shape[-1] != shape[-1] else shape[0]}) "
            "must match the existing size "
            f"({m.data.shape[-1] if m.data.ndim and m.data.shape[-1] != shape[-1] else m.data.shape[-2]}) "
            f"at non-singleton dimension "
            f"{1 if m.data.ndim and m.data.shape[-1] != shape[-1] else 0}.  Target sizes: "
            f"[{shape[0]}, {shape[1]}].  Tensor sizes: [{', '.join(map(str, m.data.shape))}]"
        ) from None
    return Addr.apply(m, v1, v2, beta=beta, alpha=alpha, dt=dt)


@register(
    "addr",
    "addr(input, vec1, vec2, *, beta=1, alpha=1)",
    "beta * input + alpha * outer(vec1, vec2)",
    method=True,
    checks=[
        ((Arg((2, 3)), Arg((2,)), Arg((3,))), {}),
        ((Arg((3,)), Arg((2,)), Arg((3,))), {"beta": 0.5, "alpha": -2.0}),
    ],
    category="linalg",
    batch=None,
    inplace="addr_",
    pure=False,
    parser=Parser(expected=_ADDR_EXPECTED),
)
def addr(*args, **kwargs):
    return _addr(args, kwargs, False)


addr.method = lambda *args, **kwargs: _addr(args, kwargs, True)
