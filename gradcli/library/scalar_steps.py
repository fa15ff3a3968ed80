"""The gradient-descent step on a 0-d parameter, `w -= lr * w.grad` under no_grad, on
Python floats (a training loop makes one per parameter per iteration): the
same IEEE results as the general in-place rule (library/inplace.py), which runs for
every other case (and under a forward-mode level, whose tangents it updates)."""

from __future__ import annotations

import struct
import sys

import numpy as np

from ..runtime import context
from ..numerics.floats.singles import EXACT_INT, F32_MAX, rounded, weak
from ..numerics.native_layers import scaled_pass
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
    if (
        type(y) is Tensor
        and not _forward.visible
        and (not context.current.grad_enabled or not (x.requires_grad or y.requires_grad))
    ):
        d, e = x.data, y.data
        if (
            not d.ndim
            and not e.ndim
            and d.dtype is e.dtype
            and (d.dtype is _F64 or d.dtype is _F32)
            and d.flags.writeable
            and versions.state.mutation_allowed is None
        ):
            d[()] = op(d.item(), e.item())
            versions.bump(x)
            return x
    return None


_F32_BOX = struct.Struct("f")  # native float32: packing is C's (float) cast, as NumPy's
_DBL_MAX = sys.float_info.max


def scaled_step(x, a, b, op):
    """`x op= a * b` (op one of float's + - *) for a 0-d float tensor x under no_grad,
    or in grad mode when none of x, a, b requires grad, where a * b is a 0-d product
    of x's dtype (a tensor times a Python number, or two tensors): the product as Mul's
    forward makes it on Python floats (fused.doubles, singles.singles, then rounded
    to float32 as single() rounds it), then x's update as `scalar_step` makes it,
    without the product's tensor.  Returns x, or None when the case is another (the
    caller then computes `a * b` and the in-place op as usual)."""
    if _forward.visible:
        return None  # (a forward-mode level: the product's tangent is the general path's)
    if context.current.grad_enabled and (x.requires_grad or _requires_grad(a) or _requires_grad(b)):
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
        da, db = b.data, a  # number * tensor: the operator's node takes (tensor, number)
    else:
        return None
    dt = d.dtype
    if (
        type(da) is not np.ndarray
        or da.ndim
        or da.dtype is not dt
        or (dt is not _F64 and dt is not _F32)
    ):
        return None
    # the operands as fused.doubles (float64) and singles.singles (float32) take them
    if type(db) is np.ndarray:
        if db.ndim or db.dtype is not dt:
            return None
        y = db.item()
    else:
        y = number_factor(db, dt)
        if y is None:
            return None
    return x if step_by(x, d, da, y, op) else None


def number_factor(v, dt):
    """The Python number v as the product `tensor * v` on a 0-d tensor of dtype dt takes
    it (fused.doubles, singles.singles), as a Python float; None when that is not a
    case of `step_by` (a dtype other than float32 and float64, a number out of range)."""
    t = type(v)
    if t is not float and t is not int:
        return None
    if dt is _F64:
        return v if t is float or -EXACT_INT <= v <= EXACT_INT else None
    if dt is _F32 and (
        (-F32_MAX <= v <= F32_MAX) if t is float else (-EXACT_INT <= v <= EXACT_INT)
    ):
        return rounded(v)  # a number rounded to float32 first, as NumPy and PyTorch do
    return None


def step_by(x, d, g, y, op):
    """`x op= g * y` on Python floats: x a 0-d float tensor and d its writable array, g a
    0-d array of d's dtype, y a Python float (number_factor's, or a 0-d array's value):
    the product as Mul's forward makes it, then the update as `scalar_step`.  Returns
    False (nothing done) when the product is inf or nan in float32 (left to NumPy)."""
    return step_value(x, d, g.item(), y, op)


def step_value(x, d, g, y, op):
    """step_by of a gradient given as its value, a Python float (exact)."""
    if versions.state.mutation_allowed is not None:  # the general rule clones first
        return False
    p = g * y
    if d.dtype is not _F64:  # float32: exact in a double; rounded once as single() does
        if not -_DBL_MAX <= p <= _DBL_MAX:  # inf or nan: left to NumPy
            return False
        p = _F32_BOX.unpack(_F32_BOX.pack(p))[0]
    d[()] = op(d.item(), p)
    versions.bump(x)
    return True


SCALED_STEPS = {"+=": float.__add__, "-=": float.__sub__, "*=": float.__mul__}

#: the ufunc of each operator's op (Add, Sub, Mul: ops/elementwise.py) on two float
#: arrays of one dtype, for `array_step`; the in-place methods that are those operators
ARRAY_STEPS = {"+=": np.add, "-=": np.subtract, "*=": np.multiply}
METHOD_STEPS = {"add_": "+=", "sub_": "-=", "mul_": "*="}


def _plain_target(x, d):
    """Whether an in-place change of the tensor x (array d) under no_grad is the array's
    change and a version bump alone (library/inplace.py's rule then does nothing else):
    a writable C-contiguous float array, no view of or views of another tensor, no
    mutation watch, no forward-mode level, not an inference tensor outside inference mode
    (whose bump raises: the statement as compiled raises it in its place)."""
    if type(d) is not np.ndarray:
        return False
    flags = d.flags
    vs = versions.state
    return (
        flags.writeable
        and flags.c_contiguous
        and getattr(x, "view_of", None) is None
        and (not getattr(x, "views", None) or versions.no_live_views(x))
        and vs.mutation_allowed is None
        and (vs.inference is None or not vs.inference.updated(x))
        and not _forward.visible
    )


def array_step(x, g, y, ufunc):
    """`x op= y * g` (`ufunc` the op's, ARRAY_STEPS) under no_grad for a float tensor x
    of one or more dims, g a gradient's array of x's dtype and shape and y a Python
    number: the product as Mul's forward makes it (its ufunc with the number as `weak`
    gives it), then the op's ufunc written into x's array, and x's version bumped, as
    the general in-place rule does when nothing else is to be done (`_plain_target`).
    Returns False (nothing done) in every other case."""
    if context.current.grad_enabled or not _scaled_into(x, g, y, ufunc):
        return False
    versions.bump(x)
    return True


def data_step(x, g, y, ufunc):
    """`x.data op= y * g` (`p.data += -lr * p.grad`), in any grad mode, for a float tensor
    x of one or more dims, g a gradient's array of x's dtype and shape and y a Python
    number: `array_step`'s product and op written into x's array, and no version changed
    (`.data`'s tensor has a counter of its own and records no graph), as the statement
    does when x is a plain target (`_plain_target`).  False (nothing done) in every
    other case."""
    return _scaled_into(x, g, y, ufunc)


def divided_step(x, g, y, z, ufunc):
    """`x op= y * g / z` (d2l's `param -= lr * param.grad / batch_size`) under no_grad,
    as `array_step` for its product, then the quotient as Div's forward makes it of a
    number (`weak`), then the op; x's version bumped.  False (nothing done) in every
    other case."""
    if context.current.grad_enabled or not _scaled_into(x, g, y, ufunc, z):
        return False
    versions.bump(x)
    return True


def _scaled_into(x, g, y, ufunc, z=None):
    """`array_step`'s product and op written into x's array, its version as it is, where
    they apply (else False, nothing done)."""
    d = x.data
    if (
        type(g) is not np.ndarray
        or g.dtype is not d.dtype
        or g.shape != d.shape
        or not d.ndim
        or not g.flags.c_contiguous
        or (d.dtype is not _F64 and d.dtype is not _F32)
        or not _plain_target(x, d)
    ):
        return False
    w = weak(y, g)
    if z is not None:  # (the product, then its quotient in place: a fresh array)
        t = np.multiply(g, w)
        ufunc(d, np.true_divide(t, weak(z, t), out=t), out=d)
    elif type(w) is not np.ndarray or not scaled_pass(d, g, w, ufunc):
        ufunc(d, np.multiply(g, w), out=d)
    return True


def array_update(x, y, ufunc):
    """`x op= y` (`ufunc` the op's, ARRAY_STEPS) for a float tensor x of one or more dims
    and a tensor y of its dtype and shape whose array shares no memory with x's, under
    no_grad or in grad mode when neither requires grad (the manual step `w -= lr *
    w.grad` of a loop run as compiled): the op's ufunc written into x's array and x's
    version bumped, as the general in-place rule does when nothing else is to be done
    (`_plain_target`; the op's forward on two C-contiguous arrays of one dtype and shape
    is its ufunc).  Returns False (nothing done) in every other case."""
    if type(y) is not Tensor:
        return False
    d, e = x.data, y.data
    if (
        type(e) is not np.ndarray
        or e.dtype is not d.dtype
        or e.shape != d.shape
        or not d.ndim
        or (d.dtype is not _F64 and d.dtype is not _F32)
        or not e.flags.c_contiguous
        or (context.current.grad_enabled and (x.requires_grad or y.requires_grad))
        or not _plain_target(x, d)
        or np.may_share_memory(d, e)
    ):
        return False
    ufunc(d, e, out=d)
    versions.bump(x)
    return True


def zero_grad_array(g):
    """`w.grad.zero_()` under no_grad for a gradient tensor g of floats that is no view
    and needs no gradient: its array filled with +0.0 and its version bumped, as the
    general in-place rule does then.  Returns False (nothing done) in every other case."""
    return not context.current.grad_enabled and zeroed(g)


def zeroed(g):
    """`g.zero_()` in either grad mode for a tensor g of floats that needs no gradient and
    is a plain target (no view, no views, ...: `_plain_target`): its array filled with
    +0.0 and its version bumped, all the in-place rule does then (the op's result needs
    no gradient, so no node is made and no view's grad_fn is made again).  Returns False
    (nothing done) in every other case."""
    if type(g) is not Tensor or g.requires_grad or g.grad_fn is not None:
        return False
    d = g.data
    if not _plain_target(g, d) or d.dtype.char not in "fd":
        return False
    d.fill(0)
    versions.bump(g)
    return True


def _requires_grad(v):
    return type(v) is Tensor and v.requires_grad
