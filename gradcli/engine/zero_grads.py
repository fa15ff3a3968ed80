"""Efficient zero gradients: the zeros some of PyTorch's derivative formulas return
(`sgn`'s of a real tensor, `_efficientzerotensor`), which its engine skips when it adds
a node's gradients and which stay zeros through the nodes they flow into; a leaf that
gets nothing else gets plain zeros.

gradcli's is an array of -0.0 marked by its type: adding it to any gradient leaves
that gradient as it is, bit for bit (x + -0.0 is x, and -0.0 stays -0.0), so the
sums of the engine need no test; a node whose whole gradient is one passes efficient
zeros on to its parents (`through`), and where a gradient is handed over (a leaf's
.grad, autograd.grad's result, a hook) it becomes plain +0 zeros (`plain`)."""

from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor


class EfficientZeros(np.ndarray):
    """-0.0 everywhere; a ufunc's result on it is a plain array (it is not zero), but
    the sum of two efficient zeros is efficient zeros."""

    def __array_wrap__(self, arr, context=None, return_scalar=False):
        if context is not None and context[0] is np.add and not return_scalar:
            a, b = context[1][:2]
            if type(a) is EfficientZeros and type(b) is EfficientZeros:
                return arr.view(EfficientZeros)
        arr = arr.view(np.ndarray)
        return arr[()] if return_scalar else arr


def efficient_zeros(shape, dtype):
    """Efficient zeros of a shape and (float) dtype."""
    return np.full(shape, -0.0, dtype).view(EfficientZeros)


def is_zeros(g):
    """Whether a gradient (an array, or a Tensor in create_graph mode) is efficient zeros."""
    return type(g) is EfficientZeros or (type(g) is Tensor and type(g.data) is EfficientZeros)


def plain(g):
    """A gradient handed over: efficient zeros become plain zeros (+0), else as it is."""
    if type(g) is EfficientZeros:
        return np.zeros(g.shape, g.dtype)
    if type(g) is Tensor and type(g.data) is EfficientZeros:
        return Tensor(np.zeros(g.data.shape, g.data.dtype))
    return g


def through(in_grads):
    """A node's gradients for its parents when its own gradient was efficient zeros:
    efficient zeros of each one's shape and dtype (a whole sum left for later,
    schedule.Later, is 0-d of its values' dtype)."""
    return tuple(None if ig is None else _like(ig) for ig in in_grads)


def spread(node, in_grads):
    """A node's gradients for its parents when its own gradient was efficient zeros, by
    its `zeros_through`: efficient zeros for the inputs that keep them, what its
    backward made of plain zeros for the others."""
    keep = node.zeros_through
    if keep is True:
        return through(in_grads)
    if keep is False:
        return in_grads
    return tuple(None if ig is None else (_like(ig) if k else ig) for ig, k in zip(in_grads, keep))


def _like(ig):
    later = getattr(ig, "g", None)  # (schedule.Later)
    if later is not None:
        return efficient_zeros((), later.dtype)
    return efficient_zeros(np.shape(ig), np.asarray(ig).dtype)
