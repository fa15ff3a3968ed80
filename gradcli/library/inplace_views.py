"""In-place transposes, `x.t_()` and `x.transpose_(dim0, dim1)`: x itself becomes its
transpose (the same storage, its dims swapped), its version counter is bumped, and a
tensor in a graph is rebased on TBackward1 / TransposeBackward1 (the nodes of the
out-of-place t and transpose, under PyTorch's names of their in-place forms)."""

from __future__ import annotations

from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..core.tensor import Tensor, type_name
from ..engine import versions
from ..ops.dims import norm_dims
from ..ops.linalg import T, TSmall, Transpose
from .inplace import _method, check_leaf


class TInplace(T):
    __slots__ = ()
    name = "TBackward1"


class TSmallInplace(TSmall):
    __slots__ = ()
    name = "TBackward1"


class TransposeInplace(Transpose):
    __slots__ = ()
    name = "TransposeBackward1"


def _restride(x, node, **kw):
    """x takes the result of the view op `node` on itself; returns x."""
    check_leaf(x)
    tracked = context.current.grad_enabled and x.requires_grad
    if tracked and getattr(x, "view_of", None) is not None:
        raise GradRuntimeError(
            "an in-place transpose of a view of a tensor in a graph is not supported by gradcli",
            hint="transpose the tensor it is a view of, or use the out-of-place t()/transpose()",
        )
    src = Tensor(x.data, True, x.grad_fn) if tracked else Tensor(x.data)
    r = node.apply(src, **kw)
    if versions.state.mutation_allowed is not None:
        versions.state.mutation_allowed.before_write(x)
    versions.bump(x)  # (before the new grad_fn: the node that saved x watches x's counter)
    x.data = r.data
    if tracked:
        x.grad_fn = r.grad_fn
    return x


def _tensor(x, name):
    if not isinstance(x, Tensor):
        raise GradTypeError(f"{name}(): in-place operation on a {type_name(x)}")
    return x


@_method("t_", "x.t_()", "transpose a tensor of at most 2 dims in place and return it")
def t_(x):
    x = _tensor(x, "t_")
    nd = x.data.ndim
    if nd > 2:
        raise GradRuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {nd}D")
    if nd < 2:
        return _restride(x, TSmallInplace)
    return _restride(x, TInplace, d0=0, d1=1)


@_method("transpose_", "x.transpose_(dim0, dim1)", "swap two dims in place and return x")
def transpose_(x, dim0, dim1):
    x = _tensor(x, "transpose_")
    nd = x.data.ndim
    (d0,) = norm_dims(dim0, nd) or (0,)
    (d1,) = norm_dims(dim1, nd) or (0,)
    if nd == 0:
        return _restride(x, TSmallInplace)
    return _restride(x, TransposeInplace, d0=d0, d1=d1)
