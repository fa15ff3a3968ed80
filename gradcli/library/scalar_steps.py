"""The gradient-descent step on a 0-d parameter, `w -= lr * w.grad` under no_grad, on
Python floats (issue 16: a training loop makes one per parameter per iteration): the
same IEEE results as the general in-place rule (library/inplace.py), which runs for
every other case (and under a forward-mode level, whose tangents it updates)."""
from __future__ import annotations

import struct
import sys

import numpy as np

from ..base import context
from ..base.singles import EXACT_INT, F32_MAX, rounded
from ..core.tensor import Tensor
from ..engine import versions
from ..engine.forward import State as _forward


_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)


def scalar_step(x, y, op):
    """`x op= y` for two 0-d tensors of one float dtype under no_grad, or in grad mode
    when neither requires grad (the gradient-descent step `w -= lr * w.grad` on a
    scalar parameter), on Python floats: for + - * the double result is the IEEE
    result (float64), or rounds to it (float32: a double holds 2 * 24 + 2 bits, so
    rounding twice is rounding once).  Returns x, or None when the case is another (the
    general rule then runs; also under a forward-mode level, whose tangents the
    general rule updates)."""
    if type(y) is Tensor and not _forward.visible and (
            not context.current.grad_enabled or not (x.requires_grad or y.requires_grad)):
        d, e = x.data, y.data
        if not d.ndim and not e.ndim and d.dtype is e.dtype and (d.dtype is _F64 or d.dtype is _F32) \
                and d.flags.writeable:
            d[()] = op(d.item(), e.item())
            versions.bump(x)
            return x
    return None


_F32_BOX = struct.Struct("f")   # native float32: packing is C's (float) cast, as NumPy's
_DBL_MAX = sys.float_info.max


def scaled_step(x, a, b, op):
    """`x op= a * b` (op one of float's + - *) for a 0-d float tensor x under no_grad,
    or in grad mode when none of x, a, b requires grad, where a * b is a 0-d product
    of x's dtype (a tensor times a Python number, or two tensors): the product as Mul's
    forward makes it on Python floats (kernels.doubles, singles.singles, then rounded
    to float32 as single() rounds it), then x's update as `scalar_step` makes it,
    without the product's tensor.  Returns x, or None when the case is another (the
    caller then computes `a * b` and the in-place op as usual)."""
    if _forward.visible:
        return None       # (a forward-mode level: the product's tangent is the general path's)
    if context.current.grad_enabled and (x.requires_grad or _requires_grad(a)
                                         or _requires_grad(b)):
        return None
    d = x.data
    if d.ndim or not d.flags.writeable:
        return None
    ta, tb = type(a), type(b)
    if ta is Tensor:
        da = a.data
        if tb is Tensor:
            db = b.data
        elif tb is float or tb is int:
            db = b
        else:
            return None
    elif tb is Tensor and (ta is float or ta is int):
        da, db = b.data, a          # number * tensor: the operator's node takes (tensor, number)
    else:
        return None
    dt = d.dtype
    if type(da) is not np.ndarray or da.ndim or da.dtype is not dt:
        return None
    # the operands as kernels.doubles (float64) and singles.singles (float32) take them
    tb = type(db)
    if tb is np.ndarray:
        if db.ndim or db.dtype is not dt:
            return None
        y = db.item()
    elif dt is _F64:
        if not (tb is float or -EXACT_INT <= db <= EXACT_INT):
            return None
        y = db
    elif (-F32_MAX <= db <= F32_MAX) if tb is float else (-EXACT_INT <= db <= EXACT_INT):
        y = rounded(db)        # a number rounded to float32 first, as NumPy and PyTorch do
    else:
        return None
    if dt is _F64:
        p = da.item() * y
    elif dt is _F32:
        p = da.item() * y       # exact in a double; rounded once to float32 as single() does
        if not -_DBL_MAX <= p <= _DBL_MAX:      # inf or nan: left to NumPy
            return None
        p = _F32_BOX.unpack(_F32_BOX.pack(p))[0]
    else:
        return None
    d[()] = op(d.item(), p)
    versions.bump(x)
    return x


SCALED_STEPS = {"+=": float.__add__, "-=": float.__sub__, "*=": float.__mul__}


def _requires_grad(v):
    return type(v) is Tensor and v.requires_grad
