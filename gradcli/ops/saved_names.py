"""PyTorch's names for what the common ops save (`grad_fn._saved_<name>`), the order in
which PyTorch saves them (the order pack hooks see them in), and the nodes' other
saved attributes (engine/saved.py reads these; recorded from torch 2.13).

`saved_names[i]` names the op's i-th saved value (None: PyTorch does not save it);
`saved_order` lists the positions in PyTorch's order; `saved_uses` (on the classes,
also used by the version checks) says which inputs' gradients use each value: PyTorch
saves a value only when one of them is needed.

Known differences: a reduction's `_saved_dim` shows the dims made non-negative (PyTorch
shows a negative dim as given, as an unsigned 64-bit number); mm's `_saved_*_sym_sizes`
and `_sym_strides` are not available once its saved values are freed.
"""

from __future__ import annotations

from ..engine.saved import saved_array
from .activation import LeakyRelu
from .elementwise import Add, Div, Mul, Reciprocal, RemainderScalar, Rsub, Sub
from .linalg import Dot, Mm, Mv
from .loss import MseLoss
from .moments import Norm, Std, Var
from .power import PowRScalar, PowScalar, PowTensor
from .nn import Addmm
from .addmm import AddmmScaled
from .rounding import DivMode, Fmod, FmodScalar
from .pointwise import Clamp, Maximum, Minimum, Unary
from .reduce import LogSumExp, MaxAll, Mean, MeanDim, Prod, Sum, SumDim
from .softmax import Softmax

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _names(cls, names, order=None, **extra):
    cls.saved_names = names
    if order is not None:
        cls.saved_order = order
    if extra:
        cls.saved_extra = {**(cls.saved_extra or {}), **extra}


def _const(v):
    return lambda node: v


def _sizes(node):
    return tuple(node.shape)


def _dims(node):
    return tuple(node.axes) if node.axes is not None else tuple(range(len(node.shape)))


def _numel(node):
    n = 1
    for d in node.shape:
        n *= d
    return n


def _operands(node, names, first_input=0):
    """mm's and addmm's `_saved_<operand>_sym_sizes` (kept always) and `_sym_strides`
    (kept only when the operand's gradient is needed) for their saved operands."""

    def meta(i, strides):
        def get(node):
            if strides and not node.needs[first_input + i]:
                return ()
            arr = saved_array(node, i)
            if not strides:
                return tuple(arr.shape)
            return tuple(s // arr.dtype.itemsize for s in arr.strides)

        return get

    out = {}
    for i, n in enumerate(names):
        out[n + "_sym_sizes"] = meta(i, False)
        out[n + "_sym_strides"] = meta(i, True)
    return out


# arithmetic: PyTorch saves other before self
_names(Add, (), alpha=_const(1))
_names(Sub, (), alpha=_const(1))
_names(Rsub, (), alpha=_const(1))
_names(Mul, ("self", "other"), (1, 0))
_names(Div, ("self", "other"), (1, 0))
_names(Reciprocal, ("result",))
_names(RemainderScalar, (None, None))  # tensor % number: PyTorch saves nothing
_names(PowScalar, ("self",), exponent=lambda node: node.e)
_names(PowTensor, ("self", "exponent", "result"), (1, 0, 2))
_names(PowRScalar, ("exponent", "result"), self=lambda node: node.base)

_ZERO_GRAD = {
    "SignBackward0",
    "FloorBackward0",
    "CeilBackward0",
    "RoundBackward0",
    "TruncBackward0",
}

for _cls in Unary.__subclasses__():
    if _cls.name in _ZERO_GRAD:  # a zero derivative: PyTorch saves nothing
        _names(_cls, ())
        continue
    _names(_cls, {"x": ("self",), "out": ("result",)}.get(_cls.saves, ()))
    if _cls.name == "PowBackward0":  # square: pow(x, 2)
        _names(_cls, ("self",), exponent=_const(2))
_names(Clamp, ("self",), min=lambda node: node.lo, max=lambda node: node.hi)
_names(Maximum, ("self", "other"), (1, 0))
_names(Minimum, ("self", "other"), (1, 0))

_names(Sum, (), self_sym_sizes=_sizes)
_names(SumDim, (), dim=_dims, keepdim=lambda node: node.keepdim)
_names(Mean, (), self_sym_sizes=_sizes, self_sym_numel=_numel)
_names(MeanDim, (), dim=_dims, keepdim=lambda node: node.keepdim)
_names(Prod, ("self", "result"))
_names(Var, ("self", None))  # var keeps its result for its own use only
_names(Std, ("self", "result"))
_names(Norm, ("self", "result"))
_names(MaxAll, ("self", "result"))
_names(LogSumExp, ("self", "result"), dim=_dims, keepdim=lambda node: node.keepdim)

_names(Softmax, ("result",), dim=lambda node: node.axis)

_names(Mm, ("self", "mat2"), (1, 0), **_operands(Mm, ("self", "mat2")))
_names(
    Addmm,
    ("mat1", "mat2"),
    alpha=_const(1),
    beta=_const(1),
    **_operands(Addmm, ("mat1", "mat2"), first_input=1),
)
Addmm.saved_uses = ((2,), (1,))  # (bias, mat1, mat2): each operand for the other's gradient
_names(DivMode, ("self", "other"), (1, 0), rounding_mode=lambda node: node.mode)
_names(Fmod, ("self", "other"), (1, 0))
_names(FmodScalar, ())
_names(AddmmScaled, ("mat1", "mat2"), alpha=lambda node: node.alpha, beta=lambda node: node.beta)
_names(Mv, ("self", "vec"))
_names(Dot, ("self", "tensor"))

_names(LeakyRelu, ("self",), negative_slope=lambda node: node.slope)
_names(MseLoss, ("self", "target"), reduction=lambda node: _REDUCTIONS[node.reduction])
