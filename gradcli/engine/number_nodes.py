"""Nodes of a 0-d float64 tensor and a Python number, made without `Function.apply2`'s
general steps (the scalar chain `y = y * 1.00001`, a calculator's float64 scalars).

`number_node(cls, t, k)` makes exactly the node and tensor `cls.apply2(t, k, float64)`
makes when `t` is a 0-d float64 Tensor that requires grad, `k` a Python float (or an
int a double holds exactly), grad mode is on and no mode is active (engine/modes.py):
the same fields, saved values, creation numbers (node before tensor) and version
records.  What differs is only the work: the op's
`number_forward(a, k)` (beside its `forward`, for this one case: the Python float
operation forward's `doubles` path makes, and the fields forward sets) instead of
forward's general checks, and no look at the operands' kinds.  tests/language/test_loops.py
compares both ways field by field and bit for bit on special values.
"""

from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor, next_seq
from . import versions
from .modes import state as _modes

F64 = np.dtype(np.float64)
_FIRST = (True, False)


def number_node(cls, t, k):
    """cls.apply2(t, k, float64) for the case above (the caller checked it)."""
    if _modes.on:
        return cls.apply2(t, k, F64)
    node = cls.__new__(cls)
    node.saved = ()
    da = t.data
    out = np.array(node.number_forward(da, k))
    node.seq = next_seq()
    node.needs = _FIRST
    node.parents = (t.grad_fn or t, None)
    node.watch = None
    node.out_dtype = F64
    saved = node.saved
    if saved:  # (Mul: apply2's common case, no `a` kept)
        srcs = node.saved_src = (None if saved[0] is None else t, None)
        if versions.state.bumped:
            versions.record(node, srcs)
    return Tensor(out, True, node)
