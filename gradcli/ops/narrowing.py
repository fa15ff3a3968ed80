"""Views named by PyTorch's methods on top of indexing and `view`: `x.narrow(dim, start,
length)` (a slice: SliceBackward0), `x.select(dim, index)` (an int index:
SelectBackward0), `x.view_as(other)` (ViewBackward0) and `x.reshape_as(other)` (as
`x.reshape`), with PyTorch's errors.
Being the same ops as `x[..., a:b]`, `x[..., i]` and `x.view(...)`, they share the
storage and the version counter of x as those do."""

from __future__ import annotations

from ..engine.declare import none
from ..runtime.errors import GradIndexError, GradRuntimeError, GradTypeError
from ..core.convert import tensor_arg
from ..core.tensor import Tensor
from .dims import norm_dims
from .registry import Arg, Parser, register
from .indexing import index as index_op, slice_view
from .shape import reshape, view

M = Arg((3, 4))


def _int(v, what):
    if isinstance(v, bool) or not isinstance(v, int):
        raise GradTypeError(f"{what} must be an integer, got {type(v).__name__}")
    return v


@register(
    "narrow",
    "narrow(input, dim, start, length)",
    "the slice start:start+length of dim (a view)",
    method=True,
    checks=[((M, 1, 1, 2), {}), ((M, 0, -2, 2), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=Parser(overloaded=True),
)
def narrow(x, dim, start, length):
    x = tensor_arg(x)
    shape = x.data.shape
    if not shape:
        raise GradRuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    dim = _int(dim, "dim")
    (d,) = norm_dims(dim, len(shape))
    if isinstance(start, Tensor):  # narrow(Tensor input, int dim, Tensor start, SymInt length)
        if start.data.ndim != 0 or start.data.dtype.kind not in "iu":
            raise GradRuntimeError("start must be an 0-dim integral Tensor.")
        start = int(start.data)
    start, length = _int(start, "start"), _int(length, "length")
    size = shape[d]
    if not -size <= start <= size:
        raise GradIndexError(
            f"start out of range (expected to be in range of [{-size}, {size}], but got {start})"
        )
    if start < 0:
        start += size
    if length < 0:
        raise GradRuntimeError("narrow(): length must be non-negative.")
    if start + length > size:
        raise GradRuntimeError(
            f"start ({start}) + length ({length}) exceeds dimension size ({size})."
        )
    # (the dim as given: PyTorch's node shows it so, a negative one too)
    return slice_view(x, (slice(None),) * d + (slice(start, start + length),), (dim, None))


@register(
    "select",
    "select(input, dim, index)",
    "the slice at index of dim, dim removed (a view)",
    method=True,
    checks=[((M, 1, 2), {}), ((M, 0, -1), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=Parser(("dim", "index")),
)
def select(x, dim, index):
    x = tensor_arg(x)
    shape = x.data.shape
    if not shape:
        raise GradIndexError("select() cannot be applied to a 0-dim tensor.")
    dim = _int(dim, "dim")
    (d,) = norm_dims(dim, len(shape))
    i = _int(index, "index")
    if not -shape[d] <= i < shape[d]:
        raise GradIndexError(
            f"select(): index {i} out of range for tensor of size "
            f"[{', '.join(map(str, shape))}] at dimension {d}"
        )
    return index_op(x, (slice(None),) * d + (i,), (dim, None))


@register(
    "view_as",
    "view_as(input, other)",
    "x.view(other.shape)",
    method=True,
    function=False,
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("takes its shape from a second tensor: not sampled yet"),
    parser=None,
)
def view_as(x, other):
    return view(x, *tensor_arg(other).data.shape)


@register(
    "reshape_as",
    "reshape_as(input, other)",
    "x.reshape(other.shape)",
    method=True,
    function=False,
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("takes its shape from a second tensor: not sampled yet"),
    parser=None,
)
def reshape_as(x, other):
    return reshape(x, *tensor_arg(other).data.shape)
