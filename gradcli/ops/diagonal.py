"""`torch.diagonal(input, offset=0, dim1=0, dim2=1)` and `x.diagonal(...)`: a view (it
shares x's storage and version counter, so `x.diagonal().zero_()` changes x), the
diagonal's dim last, as PyTorch.  DiagonalBackward0's gradient is derivatives.yaml's
diagonal_backward (zeros with the gradient on the diagonal), itself an op under
create_graph (DiagonalBackwardBackward0, whose gradient is the diagonal again)."""

from __future__ import annotations

import numpy as np

from ..engine.declare import none
from ..engine.saved import given, saved_shape, saved_shown
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..core.tensor import Tensor, type_name
from ..engine.function import Function
from ..engine.forward import linear
from ..engine.versions import viewing
from ..core.layout import CONTIGUOUS
from .dims import norm_dims
from .shape import clone, view
from .tensor_args import int_arg
from .registry import Arg, register

M = Arg((2, 3))


def _diag_view(a, offset, d1, d2):
    """NumPy's diagonal of `a`, writable where `a` is (NumPy makes it read-only)."""
    d = np.diagonal(a, offset, d1, d2)
    if a.flags.writeable:
        d.flags.writeable = True
    return d


def _diag_backward(g, shape, offset, d1, d2):
    out = np.zeros(shape, dtype=g.dtype)
    _diag_view(out, offset, d1, d2)[...] = g
    return out


class Diagonal(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ("shape", "offset", "d1", "d2", "dim1", "dim2")
    name = "DiagonalBackward0"
    saved_names = ()
    saved_extra = {
        "offset": saved_shown("offset"),
        "dim1": saved_shown("dim1"),
        "dim2": saved_shown("dim2"),
        "self_sym_sizes": saved_shape(),
    }

    def forward(self, x, offset, d1, d2, dim1=None, dim2=None):
        self.shape, self.offset, self.d1, self.d2 = x.shape, offset, d1, d2
        self.dim1 = d1 if dim1 is None else dim1  # (the dims as given)
        self.dim2 = d2 if dim2 is None else dim2
        return _diag_view(x, offset, d1, d2)

    def backward(self, g, F):
        if F.tensor_mode:
            return (
                DiagonalBackward.apply(
                    g, shape=self.shape, offset=self.offset, d1=self.d1, d2=self.d2
                ),
            )
        return (_diag_backward(g, self.shape, self.offset, self.d1, self.d2),)

    jvp = linear


class DiagonalBackward(Function):
    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )
    __slots__ = ("offset", "d1", "d2")
    name = "DiagonalBackwardBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def forward(self, g, shape, offset, d1, d2):
        self.offset, self.d1, self.d2 = offset, d1, d2
        return _diag_backward(g, shape, offset, d1, d2)

    def backward(self, gg, F):
        if F.tensor_mode:
            return (_diagonal(gg, self.offset, self.d1, self.d2),)
        return (np.diagonal(gg, self.offset, self.d1, self.d2).copy(),)

    jvp = linear


@viewing
def _diagonal(x, offset, dim1, dim2):
    nd = x.data.ndim
    d1 = norm_dims(dim1, nd)
    d2 = norm_dims(dim2, nd)
    d1, d2 = (d1[0] if d1 else 0), (d2[0] if d2 else 0)
    if d1 == d2:
        raise GradRuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return Diagonal.apply(
        x, offset=offset, d1=d1, d2=d2, dim1=given(dim1, d1), dim2=given(dim2, d2)
    )


@register(
    "diagonal",
    "diagonal(input, offset=0, dim1=0, dim2=1)",
    "the diagonal (offset above it, below if negative) of the dims dim1 and dim2, "
    "as the last dim (a view)",
    method=True,
    checks=[
        ((M,), {}),
        ((M,), {"offset": 1}),
        ((Arg((3, 2)),), {"offset": -1}),
        ((Arg((2, 3, 4)),), {"offset": 1, "dim1": 2, "dim2": 0}),
    ],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def diagonal(input, offset=0, dim1=0, dim2=1):
    if not isinstance(input, Tensor):
        raise GradTypeError(
            "diagonal(): argument 'input' (position 1) must be Tensor, not "
            f"{'NoneType' if input is None else type_name(input)}"
        )
    offset = int_arg("diagonal", offset, "offset", 2)
    dim1, dim2 = int_arg("diagonal", dim1, "dim1", 3), int_arg("diagonal", dim2, "dim2", 4)
    return _diagonal(input, offset, dim1, dim2)


def _triangle(x, k, upper):
    """The lower (upper) triangle of x's last two dims, from diagonal k; contiguous, as
    torch's tril/triu make their result."""
    keep = (
        np.triu(np.ones(x.shape[-2:], bool), k)
        if upper
        else np.tril(np.ones(x.shape[-2:], bool), k)
    )
    return np.ascontiguousarray(np.where(keep, x, np.zeros((), x.dtype)))


class Tril(Function):
    __slots__ = ("diagonal",)
    name = "TrilBackward0"
    upper = False
    saved_names = ()
    saved_extra = {"diagonal": saved_shown("diagonal")}
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    def forward(self, x, diagonal):
        self.diagonal = diagonal
        return _triangle(x, diagonal, self.upper)

    def backward(self, g, F):
        if F.tensor_mode:  # grad.tril(diagonal): this op again under create_graph
            return (type(self).apply(g, diagonal=self.diagonal),)
        return (_triangle(g, self.diagonal, self.upper),)

    jvp = linear


class Triu(Tril):
    __slots__ = ()
    name = "TriuBackward0"
    upper = True


def _triangle_op(name, node, x, diagonal):
    if not isinstance(x, Tensor):
        raise GradTypeError(
            f"{name}(): argument 'input' (position 1) must be Tensor, not {type_name(x)}"
        )
    k = int_arg(name, diagonal, "diagonal", 2)
    if x.data.ndim < 2:
        raise GradRuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    return node.apply(x, diagonal=k)


@register(
    "tril",
    "tril(input, diagonal=0)",
    "the lower triangle of the last two dims (elements on and below the diagonal "
    "`diagonal`), zeros above",
    method=True,
    checks=[((M,), {}), ((Arg((3, 3)),), {"diagonal": -1}), ((Arg((2, 3, 4)),), {"diagonal": 1})],
    category="shape",
    batch=None,
    inplace="tril_",
    pure=True,
    parser=None,
)
def tril(input, diagonal=0):
    return _triangle_op("tril", Tril, input, diagonal)


@register(
    "triu",
    "triu(input, diagonal=0)",
    "the upper triangle of the last two dims (elements on and above the diagonal "
    "`diagonal`), zeros below",
    method=True,
    checks=[((M,), {}), ((Arg((3, 3)),), {"diagonal": 1}), ((Arg((2, 3, 4)),), {"diagonal": -1})],
    category="shape",
    batch=None,
    inplace="triu_",
    pure=True,
    parser=None,
)
def triu(input, diagonal=0):
    return _triangle_op("triu", Triu, input, diagonal)


def _embed(x, offset, d1, d2):
    """Zeros with x's last dim on the diagonal `offset` of the dims d1, d2 (the others
    x's leading dims, in order)."""
    n = x.shape[-1] + abs(offset)
    lead = list(x.shape[:-1])
    shape = []
    for d in range(x.ndim + 1):
        shape.append(n if d in (d1, d2) else lead.pop(0))
    out = np.zeros(shape, dtype=x.dtype)
    _diag_view(out, offset, d1, d2)[...] = x
    return out


class DiagEmbed(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ("offset", "d1", "d2", "dim1", "dim2")
    name = "DiagEmbedBackward0"
    saved_names = ()
    saved_extra = {
        "offset": saved_shown("offset"),
        "dim1": saved_shown("dim1"),
        "dim2": saved_shown("dim2"),
    }

    def forward(self, x, offset, d1, d2, dim1, dim2):
        self.offset, self.d1, self.d2, self.dim1, self.dim2 = offset, d1, d2, dim1, dim2
        return _embed(x, offset, d1, d2)

    def backward(self, g, F):
        # derivatives.yaml: grad.diagonal(offset, dim1, dim2)
        if F.tensor_mode:
            return (_diagonal(g, self.offset, self.d1, self.d2),)
        return (np.diagonal(g, self.offset, self.d1, self.d2).copy(),)

    jvp = linear


def _diag_embed(input, offset, dim1, dim2):
    nd = input.data.ndim + 1
    d1, d2 = norm_dims(dim1, nd)[0], norm_dims(dim2, nd)[0]
    if d1 == d2:
        raise GradRuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return DiagEmbed.apply(input, offset=offset, d1=d1, d2=d2, dim1=dim1, dim2=dim2)


@register(
    "diag_embed",
    "diag_embed(input, offset=0, dim1=-2, dim2=-1)",
    "a tensor whose diagonals (of the dims dim1 and dim2) are input's last dim, zeros elsewhere",
    method=True,
    checks=[
        ((M,), {}),
        ((M,), {"offset": 1, "dim1": 0, "dim2": 2}),
        ((Arg((3,)),), {"offset": -1}),
    ],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    if not isinstance(input, Tensor):
        raise GradTypeError(
            "diag_embed(): argument 'input' (position 1) must be Tensor, not "
            f"{'NoneType' if input is None else type_name(input)}"
        )
    offset = int_arg("diag_embed", offset, "offset", 2)
    dim1, dim2 = int_arg("diag_embed", dim1, "dim1", 3), int_arg("diag_embed", dim2, "dim2", 4)
    return _diag_embed(input, offset, dim1, dim2)


@register(
    "diagflat",
    "diagflat(input, offset=0)",
    "a 2-D tensor with input's elements (flattened) on its diagonal `offset`",
    method=True,
    checks=[((M,), {}), ((Arg((3,)),), {"offset": -1})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def diagflat(input, offset=0):
    # ATen: self.contiguous().view(-1), then diag_embed of that
    if not isinstance(input, Tensor):
        raise GradTypeError(
            "diagflat(): argument 'input' (position 1) must be Tensor, not "
            f"{'NoneType' if input is None else type_name(input)}"
        )
    offset = int_arg("diagflat", offset, "offset", 2)
    x = input
    if not x.data.flags.c_contiguous:
        x = clone(x, memory_format=CONTIGUOUS)
    return _diag_embed(view(x, -1), offset, -2, -1)
