"""`x.repeat(*sizes)` (RepeatBackward0) and `x.ravel()` / `torch.ravel(x)`, as PyTorch
2.13 has them.

repeat's gradient is FunctionsManual's repeat_backward: the new leading dims summed
one at a time (`sum(0)`), then the gradient viewed as [repeat, size] pairs and summed
over the repeats at once, through gradcli's own sum and reshape ops, so create_graph
gives PyTorch's graph (SumBackward1 over ViewBackward0).  ravel is PyTorch's
`contiguous().view(-1)`: a view (ViewBackward0) of a contiguous tensor, of a copy
(CloneBackward0) otherwise."""

from __future__ import annotations

import numpy as np

from ..engine.declare import none
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..runtime.limits import check_alloc
from ..core.tensor import Tensor, type_name
from ..engine.function import Function
from ..engine.forward import linear
from .registry import FUNCTIONS, Arg, register
from .shape import view
from ..core.layout import CONTIGUOUS

M = Arg((2, 3))


class Repeat(Function):
    __slots__ = ("shape", "repeats")
    name = "RepeatBackward0"
    saved_names = ()
    saved_extra = {
        "repeats": lambda node: tuple(node.repeats),
        "self_sym_sizes": lambda node: tuple(node.shape),
    }

    def formula(self, S, x):
        lead = len(self.repeats) - len(self.shape)
        return np.tile(S.obj(x).reshape((1,) * lead + tuple(self.shape)), self.repeats)

    def forward(self, x, repeats):
        self.shape, self.repeats = x.shape, repeats
        lead = len(repeats) - x.ndim
        return np.tile(x.reshape((1,) * lead + x.shape), repeats)

    def backward(self, g, F):
        return (_repeat_backward(g, F, self.repeats, self.shape),)

    jvp = linear


def _repeat_backward(g, F, repeats, shape):
    if 0 in repeats:
        zeros = np.zeros(shape, dtype=g.dtype)
        return Tensor(zeros) if F.tensor_mode else zeros
    lead = len(repeats) - len(shape)
    for _ in range(lead):
        g = F.sum(g, 0)
    sizes, dims = [], []
    for r, n in zip(repeats[lead:], shape):
        if r != 1:
            sizes.append(r)
            dims.append(len(sizes) - 1)
        sizes.append(n)
    if dims:
        g = F.sum(F.reshape(g, tuple(sizes)), tuple(dims))
    return g


def _repeats(sizes):
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    elif len(sizes) == 1 and isinstance(sizes[0], Tensor):
        raise GradTypeError(
            "repeat(): argument 'repeats' (position 1) must be tuple of ints, not Tensor"
        )
    out = []
    for pos, s in enumerate(sizes, 1):
        if isinstance(s, Tensor) and s.data.ndim == 0 and s.data.dtype.kind in "iu":
            s = s.item()
        if isinstance(s, bool) or not isinstance(s, int):
            raise GradTypeError(
                f"repeat(): argument 'repeats' failed to unpack the object at pos "
                f'{pos} with error "type must be tuple of ints,but got '
                f'{type_name(s)}"'
            )
        out.append(s)
    return tuple(out)


@register(
    "repeat",
    "x.repeat(*sizes)",
    "x tiled sizes[i] times along dim i (more sizes than dims: new leading dims)",
    method=True,
    function=False,
    checks=[((M, 2, 1), {}), ((M, (2, 1, 3)), {}), ((Arg((3,)), 2), {}), ((M, 0, 1), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def repeat(x, *sizes):
    if not isinstance(x, Tensor):
        raise GradTypeError(
            f"descriptor 'repeat' for 'torch._C.TensorBase' objects doesn't "
            f"apply to a '{type_name(x)}' object"
        )
    if not sizes:
        raise GradTypeError('repeat() missing 1 required positional arguments: "repeats"')
    reps = _repeats(sizes)
    shape = x.data.shape
    if len(reps) < len(shape):
        raise GradRuntimeError(
            "Number of dimensions of repeat dims can not be smaller than "
            "number of dimensions of tensor"
        )
    padded = (1,) * (len(reps) - len(shape)) + shape
    target = [n * r for n, r in zip(padded, reps)]
    bad = [t for t in target if t < 0]
    if bad:
        raise GradRuntimeError(
            f"Trying to create tensor with negative dimension {bad[0]}: {target}"
        )
    check_alloc(target, x.data.dtype.itemsize)
    return Repeat.apply(x, repeats=reps)


@register(
    "ravel",
    "ravel(input)",
    "the elements as a 1-D tensor (a view when input is contiguous)",
    method=True,
    checks=[((M,), {}), ((Arg(()),), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def ravel(input):
    if not isinstance(input, Tensor):
        raise GradTypeError(
            f"ravel(): argument 'input' (position 1) must be Tensor, not {type_name(input)}"
        )
    x = (
        input
        if input.data.flags.c_contiguous
        else FUNCTIONS["clone"](input, memory_format=CONTIGUOUS)
    )
    return view(x, -1)


@register(
    "is_contiguous",
    "x.is_contiguous()",
    "whether x's elements lie in memory in row-major "
    "order (inverse's result does not; x.contiguous() makes a copy that does)",
    method=True,
    function=False,
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a differentiable op"),
    parser=None,
)
def is_contiguous(x, memory_format=None):
    return bool(x.data.flags.c_contiguous)
