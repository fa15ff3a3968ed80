"""Nodes of a 0-d float tensor and a Python number, or of two 0-d float tensors, made
without `Function.apply2`'s general steps (the scalar chain `y = y * 1.00001`, a
calculator's float64 scalars, a network of 0-d tensors).

`number_node(cls, t, k)` makes exactly the node and tensor `cls.apply2(t, k, dtype)`
makes when `t` is a 0-d float64 or float32 Tensor that requires grad, `k` a Python
float (or an int a double holds exactly), grad mode is on and no mode is active
(engine/modes.py): the same fields, saved values, creation numbers (node before tensor)
and version records.  What differs is only the work: the op's
`number_forward(a, k, v)` (beside its `forward`, for this one case: the Python float
operation forward's `doubles` path makes, or for float32 its `singles` path, k rounded
to float32 as `v` and the result rounded once, and the fields forward sets) instead of
forward's general checks, and no look at the operands' kinds.  A float32 tensor and a
number beyond float32's range (an infinity, NaN) take apply2's steps.
tests/language/test_loops.py compares both ways field by field and bit for bit on
special values.

`pair_node(cls, a, b)` is the same for two distinct 0-d Tensors of one dtype, float64 or
float32, at least one of which requires grad: the op's `pair_forward(da, db)` (its
forward's `doubles` / `singles` path: + - * of float32 values computed in double and
rounded once to float32 are float32's own) and apply2's fields, saved values (a `Mul`
by a tensor that needs no gradient keeps no `a`) and version records.
"""

from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor, next_seq
from ..numerics.floats.singles import value32
from . import versions
from .modes import state as _modes

F64 = np.dtype(np.float64)
F32 = np.dtype(np.float32)
_FIRST = (True, False)
_NEEDS = {(True, True): (True, True), (True, False): (True, False), (False, True): (False, True)}


def number_node(cls, t, k):
    """cls.apply2(t, k, dtype) for the case above (the caller checked it: t's array 0-d
    float64 or float32)."""
    da = t.data
    dt = da.dtype
    if dt is F64:
        if _modes.on:
            return cls.apply2(t, k, dt)
        node = cls.__new__(cls)
        node.saved = ()
        out = np.array(node.number_forward(da, k, k))
    else:
        v = value32(k)  # (k as float32 arithmetic takes it; None beyond its range)
        if v is None or _modes.on:
            return cls.apply2(t, k, dt)
        node = cls.__new__(cls)
        node.saved = ()
        out = np.array(node.number_forward(da, k, v), dtype=F32)
    node.seq = next_seq()
    node.needs = _FIRST
    node.parents = (t.grad_fn or t, None)
    node.watch = None
    node.out_dtype = dt
    saved = node.saved
    if saved:  # (Mul: apply2's common case, no `a` kept)
        srcs = node.saved_src = (None if saved[0] is None else t, None)
        if versions.state.bumped:
            versions.record(node, srcs)
    return Tensor(out, True, node)


def pair_node(cls, a, b):
    """cls.apply2(a, b, dtype) for the case of pair_node above (the caller checked it:
    two 0-d float64 or float32 arrays of one dtype, a is not b, one requires grad, grad
    mode on)."""
    if _modes.on:
        return cls.apply2(a, b, a.data.dtype)
    node = cls.__new__(cls)
    node.saved = ()
    da, db = a.data, b.data
    dt = da.dtype
    pa = (a.grad_fn or a) if a.requires_grad else None
    pb = (b.grad_fn or b) if b.requires_grad else None
    r = node.pair_forward(da, db)
    out = np.array(r) if dt is F64 else np.array(r, dt)  # (a float's array: float64)
    node.seq = next_seq()
    node.needs = _NEEDS[pa is not None, pb is not None]
    node.parents = (pa, pb)
    node.watch = None
    node.out_dtype = dt
    if node.saved:  # (Mul: its two operands, as apply2's common case keeps them)
        if pb is None:  # PyTorch keeps no `self` that only other's gradient would use
            node.saved = (None, db)
            srcs = node.saved_src = (None, b)
        else:
            srcs = node.saved_src = (a, b)
        if versions.state.inference is not None:
            versions.check_saved(srcs)
        if versions.state.bumped:
            versions.record(node, srcs)
    return Tensor(out, True, node)
