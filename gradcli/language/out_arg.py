"""`out=` on a built-in op (`torch.add(x, y, out=result)`): the op computes its result
as without it, and the result is written into `out` as PyTorch's out= variants write:
cast to out's dtype when the result's kind allows it, out resized (with PyTorch's
deprecation warning when it had elements) when the shapes differ, out returned.  As in
PyTorch, out= takes no part in autograd: a call with an argument that requires grad is
refused."""

from __future__ import annotations

import numpy as np

from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..core.convert import type_name
from ..core.tensor import Tensor
from ..engine import versions

_KIND = {"b": 0, "u": 1, "i": 1, "f": 2}
_NAMES = {np.dtype(np.float32): "Float", np.dtype(np.float64): "Double"}
_NAMES.update({np.dtype(np.float16): "Half", np.dtype(np.int64): "Long"})
_NAMES.update({np.dtype(np.int32): "Int", np.dtype(np.bool_): "Bool"})


def _name(dt):
    return _NAMES.get(np.dtype(dt), str(dt))


def call_with_out(fn, args, kwargs, name):
    """fn(*args, **kwargs) without its `out`, the result written into out."""
    kwargs = dict(kwargs)
    out = kwargs.pop("out")
    if not isinstance(out, Tensor):
        raise GradTypeError(f"{name}(): argument 'out' must be Tensor, not {type_name(out)}")
    inputs = [a for a in (*args, *kwargs.values()) if isinstance(a, Tensor)]
    if context.current.grad_enabled and any(t.requires_grad for t in (*inputs, out)):
        raise GradRuntimeError(
            f"{name}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )
    result = fn(*args, **kwargs)
    if not isinstance(result, Tensor):
        raise GradTypeError(f"{name}() got an unexpected keyword argument 'out'")
    r, o = result.data, out.data
    if _KIND[r.dtype.kind] > _KIND[o.dtype.kind]:
        raise GradRuntimeError(
            f"result type {_name(r.dtype)} can't be cast to the desired output type "
            f"{_name(o.dtype)}"
        )
    if r.shape != o.shape:
        if o.size:
            context.warn(
                f"An output with one or more elements was resized since it had shape "
                f"{list(o.shape)}, which does not match the required output shape "
                f"{list(r.shape)}. This behavior is deprecated, and in a future PyTorch "
                "release outputs will not be resized unless they have zero elements. You "
                "can explicitly reuse an out tensor t by resizing it, inplace, to zero "
                "elements with t.resize_(0)."
            )
        out.data = r.astype(o.dtype, copy=True)
    else:
        np.copyto(o, r, casting="unsafe")
    versions.bump(out)
    return out
