"""PyTorch's words for indexes it refuses where NumPy's differ (or NumPy has none):
an int or a slice into a 0-d tensor, a boolean mask of the wrong shape."""

from __future__ import annotations

import numpy as np

from ..runtime.errors import GradIndexError
from ..core.tensor import Tensor

ZERO_DIM_INT = (
    "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
    "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
)


def check_mask(mshape, shape, dim, n_dims, key, pos):
    """PyTorch's errors for a boolean mask key[pos] over dims dim.. (the index naming
    `n_dims` dims).  PyTorch applies ints, slices and None first, so its message names
    the shape after those and the mask's place in it."""
    if n_dims > len(shape):
        raise GradIndexError(f"too many indices for tensor of dimension {len(shape)}")
    for j, m in enumerate(mshape):
        if m != shape[dim + j]:
            basic, at = [], 0
            for i, k in enumerate(key):
                if isinstance(k, Tensor) and k.data.ndim == 0 and k.data.dtype.kind in "iu":
                    k = k.item()
                if k is None or k is Ellipsis or isinstance(k, (int, slice)):
                    basic.append(k)
                    width = 1 if k is None or isinstance(k, slice) else 0
                    if k is Ellipsis:
                        width = len(shape) - n_dims
                else:
                    nd = np.ndim(k.data if isinstance(k, Tensor) else k)
                    width = (
                        nd
                        if np.asarray(k.data if isinstance(k, Tensor) else k).dtype.kind == "b"
                        else 1
                    )
                    basic.extend([slice(None)] * max(width, 1))
                if i < pos:
                    at += width
            after = np.broadcast_to(np.zeros(()), shape)[tuple(basic)].shape
            raise GradIndexError(
                f"The shape of the mask {list(mshape)} at index {j} does not match the shape of "
                f"the indexed tensor {list(after)} at index {at + j}"
            )
