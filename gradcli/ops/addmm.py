"""`torch.addmm(input, mat1, mat2, *, beta=1, alpha=1)` and `input.addmm(mat1, mat2)`:
AddmmBackward0, the node nn.Linear records (ops/nn.py's Addmm), computed by the same
MKL gemm call as torch (numerics/mkl.py: `beta * input + alpha * (mat1 @ mat2)` in one
sgemm/dgemm, input not read when beta is 0). Gradients as derivatives.yaml's:
`maybe_multiply(grad, beta)` for input (summed to its shape), mm_mat1_backward /
mm_mat2_backward times alpha (a MulBackward1 under create_graph) unless it is 1."""

from __future__ import annotations

from ..runtime.errors import GradRuntimeError, GradTypeError
from ..numerics.mkl import mm_grads, torch_addmm
from ..core.dtypes import scalar_type_name
from ..core.tensor import Tensor, type_name
from ..engine.function import FUNCTIONS
from ..engine.zero_terms import Zero, sum_terms
from .binary_math import times_scalar
from .nn import Addmm
from .registry import Arg, register

_NUMBER = (int, float)


class AddmmScaled(Addmm):
    """addmm with beta or alpha other than 1."""

    __slots__ = ("alpha", "beta")
    saved_names = ("mat1", "mat2")
    saved_extra = {
        **Addmm.saved_extra,
        "alpha": lambda node: node.alpha,
        "beta": lambda node: node.beta,
    }

    def jvp(self, ts, F, *saved):
        bias, a, b = ts.args[:3]
        shape = (a.data.shape[0], b.data.shape[1])
        dt = a.data.dtype
        al, be = self.alpha, self.beta

        def times(t, c):
            return t if type(t) is Zero or c == 1 else times_scalar(F, t, c)

        return sum_terms(
            Zero(None, "", shape, dt) if ts[0] is None else times(ts[0], be),
            Zero(b, "MmBackward0", shape, dt) if ts[1] is None else times(ts[1] @ b, al),
            Zero(a, "MmBackward0", shape, dt) if ts[2] is None else times(a @ ts[2], al),
        )

    def formula(self, S, bias, a, b, *_):
        """beta bias + alpha a b."""
        prod = S.matmul(S.saved_const(a, self, 0, None), S.saved_const(b, self, 1, None))
        return prod * S.number(self.alpha) + S.unknown(bias, self, 0, self.sbias) * S.number(
            self.beta
        )

    def forward(self, bias, a, b, alpha, beta):
        self.sbias, self.alpha, self.beta = bias.shape, alpha, beta
        self.save(a, b)
        return torch_addmm(bias, a, b, alpha, beta)

    def backward(self, g, F, a, b):
        n = self.needs
        al, be = self.alpha, self.beta
        gc = None
        if n[0]:
            gc = F.sum_to(g if be == 1 else times_scalar(F, g, be), self.sbias)
        ga, gb = mm_grads(g, a, b, n[1], n[2], F)
        if al != 1:
            ga = times_scalar(F, ga, al) if ga is not None else None
            gb = times_scalar(F, gb, al) if gb is not None else None
        return gc, ga, gb


def _pytype(v):
    return "NoneType" if v is None else type_name(v)


def _invalid(args, kw):
    got = ", ".join([_pytype(v) for v in args] + [f"{k}={_pytype(v)}" for k, v in kw.items()])
    raise GradTypeError(
        f"addmm() received an invalid combination of arguments - got ({got}), but expected one of:"
    )


def _checked(input, mat1, mat2, extra, beta, alpha, method):
    if extra or type(beta) not in _NUMBER or type(alpha) not in _NUMBER:
        kw = {
            k: v for k, v in (("beta", beta), ("alpha", alpha)) if not (v == 1 and type(v) is int)
        }
        _invalid((input, mat1, mat2, *extra)[1 if method else 0 :], kw)
    for pos, (name, v) in enumerate((("input", input), ("mat1", mat1), ("mat2", mat2))):
        if not isinstance(v, Tensor):  # (x.addmm(...): mat1 is position 1)
            raise GradTypeError(
                f"addmm(): argument '{name}' (position {pos if method else pos + 1}) "
                f"must be Tensor, not {_pytype(v)}"
            )
    c, a, b = input.data, mat1.data, mat2.data
    if c.dtype != b.dtype:
        raise GradRuntimeError(
            f"self and mat2 must have the same dtype, but got "
            f"{scalar_type_name(c.dtype)} and {scalar_type_name(b.dtype)}"
        )
    if a.dtype != b.dtype:
        raise GradRuntimeError(
            f"mat1 and mat2 must have the same dtype, but got "
            f"{scalar_type_name(a.dtype)} and {scalar_type_name(b.dtype)}"
        )
    for name, m in (("mat1", a), ("mat2", b)):
        if m.ndim != 2:
            raise GradRuntimeError(f"{name} must be a matrix, got {m.ndim}-D tensor")
    if a.shape[1] != b.shape[0]:
        raise GradRuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x"
            f"{a.shape[1]} and {b.shape[0]}x{b.shape[1]})"
        )
    shape = (a.shape[0], b.shape[1])
    if c.shape != shape:  # input is expanded to the product's shape: torch's words
        FUNCTIONS["expand"](Tensor(c), *shape)


def _addmm(input, mat1, mat2, extra, beta, alpha, method):
    _checked(input, mat1, mat2, extra, beta, alpha, method)
    if type(beta) is int and beta == 1 and type(alpha) is int and alpha == 1:
        return Addmm.apply(input, mat1, mat2)  # nn.Linear's node and call
    return AddmmScaled.apply(input, mat1, mat2, alpha=alpha, beta=beta)


@register(
    "addmm",
    "addmm(input, mat1, mat2, *, beta=1, alpha=1)",
    "beta * input + alpha * (mat1 @ mat2), input broadcast to the product's shape",
    method=True,
    checks=[
        ((Arg((2, 3)), Arg((2, 4)), Arg((4, 3))), {}),
        ((Arg((3,)), Arg((2, 4)), Arg((4, 3))), {}),
        ((Arg((2, 1)), Arg((2, 4)), Arg((4, 3))), {"beta": 0.5, "alpha": 2}),
        ((Arg(()), Arg((2, 4)), Arg((4, 3))), {"beta": 2.0, "alpha": -0.5}),
    ],
    category="linalg",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def addmm(input, mat1, mat2, *extra, beta=1, alpha=1):
    return _addmm(input, mat1, mat2, extra, beta, alpha, False)


def _addmm_method(input, mat1, mat2, *extra, beta=1, alpha=1):
    return _addmm(input, mat1, mat2, extra, beta, alpha, True)


addmm.method = _addmm_method
