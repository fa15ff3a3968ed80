"""`torch.baddbmm(input, batch1, batch2, *, beta=1, alpha=1)` and `torch.addbmm(...)`
(and their methods and in-place methods): BaddbmmBackward0 and AddbmmBackward0, computed
as ATen computes them (numerics/linalg/baddbmm.py). Gradients as derivatives.yaml's:
`maybe_multiply(grad, beta)` for input (summed to its shape), the batched products of
grad with the other operand times alpha (a MulBackward1 under create_graph) unless it
is 1; addbmm's grad expanded over the batch first."""

from __future__ import annotations

import numpy as np

from ..core import dtypes
from ..core.tensor import Tensor, type_name
from ..engine.declare import none
from ..engine.function import FUNCTIONS, Function
from ..numerics.linalg.baddbmm import torch_addbmm, torch_baddbmm
from ..numerics.linalg.bmm import torch_bmm
from ..runtime.errors import GradRuntimeError, GradTypeError
from .elementwise import times_scalar
from .registry import Arg, Parser, register

_NUMBER = (int, float)


def _bmm(F, a, b):
    if F.tensor_mode:
        return FUNCTIONS["bmm"](a, b)
    return torch_bmm(a, b)


def _t(F, x):
    return F.swapaxes(x, 1, 2)


class _Scaled(Function):
    __slots__ = ("sc", "alpha", "beta")
    saved_names = ("batch1", "batch2")
    saved_extra = {"alpha": lambda node: node.alpha, "beta": lambda node: node.beta}
    saved_uses = ((), (2,), (1,))
    jvp = none("forward mode of baddbmm and addbmm is not written")
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    def scaled(self, F, g, n):
        al, be = self.alpha, self.beta
        gc = F.sum_to(g if be == 1 else times_scalar(F, g, be), self.sc) if n[0] else None
        return gc, (lambda t: t if al == 1 else times_scalar(F, t, al))


class Baddbmm(_Scaled):
    __slots__ = ()
    name = "BaddbmmBackward0"

    def forward(self, c, a, b, alpha, beta):
        self.sc, self.alpha, self.beta = c.shape, alpha, beta
        self.save(a, b)
        return torch_baddbmm(c, a, b, beta, alpha)

    def backward(self, g, F, a, b):
        n = self.needs
        gc, times = self.scaled(F, g, n)
        ga = times(_bmm(F, g, _t(F, b))) if n[1] else None
        gb = times(_bmm(F, _t(F, a), g)) if n[2] else None
        return gc, ga, gb


class Addbmm(_Scaled):
    __slots__ = ("sizes",)
    name = "AddbmmBackward0"
    saved_extra = {
        **_Scaled.saved_extra,
        "batch1_sym_argsize_0": lambda node: node.sizes[0],
        "batch1_sym_argsize_1": lambda node: node.sizes[1],
        "batch2_sym_argsize_2": lambda node: node.sizes[2],
    }

    def forward(self, c, a, b, alpha, beta):
        self.sc, self.alpha, self.beta = c.shape, alpha, beta
        self.sizes = (a.shape[0], a.shape[1], b.shape[2])
        self.save(a, b)
        return torch_addbmm(c, a, b, beta, alpha)

    def backward(self, g, F, a, b):
        n = self.needs
        gc, times = self.scaled(F, g, n)
        if F.tensor_mode:  # grad.unsqueeze(0).expand(...)
            ge = FUNCTIONS["expand"](FUNCTIONS["unsqueeze"](g, 0), *self.sizes)
        else:
            ge = np.ascontiguousarray(np.broadcast_to(g[None], self.sizes))
        ga = times(_bmm(F, ge, _t(F, b))) if n[1] else None
        gb = times(_bmm(F, _t(F, a), ge)) if n[2] else None
        return gc, ga, gb


def _pytype(v):
    return "NoneType" if v is None else type_name(v)


def _expand_error(c, target):
    """input expanded to the result's shape, as ATen does first: its error if it cannot."""
    FUNCTIONS["expand"](Tensor(np.broadcast_to(np.zeros((), c.dtype), c.shape)), *target)


def _checked(name, input, b1, b2, extra, beta, alpha, method):
    if extra or type(beta) not in _NUMBER or type(alpha) not in _NUMBER:
        kw = {
            k: v for k, v in (("beta", beta), ("alpha", alpha)) if not (v == 1 and type(v) is int)
        }
        args = (input, b1, b2, *extra)[1 if method else 0 :]
        got = ", ".join([_pytype(v) for v in args] + [f"{k}={_pytype(v)}" for k, v in kw.items()])
        raise GradTypeError(
            f"{name}() received an invalid combination of arguments - got ({got}), "
            "but expected one of:"
        )
    for pos, (what, v) in enumerate((("input", input), ("batch1", b1), ("batch2", b2))):
        if not isinstance(v, Tensor):
            raise GradTypeError(
                f"{name}(): argument '{what}' (position {pos if method else pos + 1}) "
                f"must be Tensor, not {_pytype(v)}"
            )
    c, a, b = input.data, b1.data, b2.data
    if name == "baddbmm":
        target = (a.shape[0], a.shape[1], b.shape[2]) if a.ndim > 1 and b.ndim > 2 else None
    else:
        target = (a.shape[1], b.shape[2]) if a.ndim > 1 and b.ndim > 2 else None
    if target is not None and c.shape != target:
        _expand_error(c, target)
    for what, m in (("batch1", a), ("batch2", b)):
        if m.ndim != 3:
            raise GradRuntimeError(f"{what} must be a 3D tensor")
    if name == "baddbmm":
        if b.shape[:2] != (a.shape[0], a.shape[2]):
            raise GradRuntimeError(
                "Expected size for first two dimensions of batch2 tensor to be: "
                f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}]."
            )
    else:
        if a.shape[0] != b.shape[0]:
            raise GradRuntimeError(
                "batch1 and batch2 must have same number of batches, got "
                f"{a.shape[0]} and {b.shape[0]}"
            )
        if a.shape[2] != b.shape[1]:
            raise GradRuntimeError(
                f"Incompatible matrix sizes for bmm ({a.shape[1]}x{a.shape[2]} and "
                f"{b.shape[1]}x{b.shape[2]})"
            )
    for m in (a, b):
        if m.dtype != c.dtype:
            raise GradRuntimeError(
                f"expected scalar type {dtypes.scalar_type_name(c.dtype)} but found "
                f"{dtypes.scalar_type_name(m.dtype)}"
            )
    if c.dtype.kind != "f":
        raise GradRuntimeError(f"{name}: gradcli computes it for floating tensors only")


def _op(name, node):
    def run(input, batch1, batch2, *extra, beta=1, alpha=1, method=False):
        _checked(name, input, batch1, batch2, extra, beta, alpha, method)
        return node.apply(input, batch1, batch2, alpha=alpha, beta=beta)

    def fn(input, batch1, batch2, *extra, beta=1, alpha=1):
        return run(input, batch1, batch2, *extra, beta=beta, alpha=alpha)

    def method(input, batch1, batch2, *extra, beta=1, alpha=1):
        return run(input, batch1, batch2, *extra, beta=beta, alpha=alpha, method=True)

    fn.__name__ = method.__name__ = name
    fn.method = method
    return fn


register(
    "baddbmm",
    "baddbmm(input, batch1, batch2, *, beta=1, alpha=1)",
    "beta * input + alpha * (batch1 @ batch2) for batches of matrices (input broadcast)",
    method=True,
    checks=[
        ((Arg((2, 3, 4)), Arg((2, 3, 5)), Arg((2, 5, 4))), {}),
        ((Arg((3, 1)), Arg((2, 3, 5)), Arg((2, 5, 4))), {"beta": 0.5, "alpha": 2}),
        ((Arg((4,)), Arg((2, 3, 5)), Arg((2, 5, 4))), {"beta": 0, "alpha": -1.5}),
    ],
    category="linalg",
    batch=None,
    inplace="baddbmm_",
    pure=False,
    parser=Parser(overloaded=True),
)(_op("baddbmm", Baddbmm))

register(
    "addbmm",
    "addbmm(input, batch1, batch2, *, beta=1, alpha=1)",
    "beta * input + alpha * the sum of batch1[i] @ batch2[i] (input broadcast)",
    method=True,
    checks=[
        ((Arg((3, 4)), Arg((2, 3, 5)), Arg((2, 5, 4))), {}),
        ((Arg((4,)), Arg((2, 3, 5)), Arg((2, 5, 4))), {"beta": 0.5, "alpha": 2}),
    ],
    category="linalg",
    batch=None,
    inplace="addbmm_",
    pure=False,
    parser=Parser(overloaded=True),
)(_op("addbmm", Addbmm))
