"""PyTorch's words for indexes it refuses where NumPy's differ (or NumPy has none):
an int or a slice into a 0-d tensor, a boolean mask of the wrong shape, an index
tensor's index out of bounds."""

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


def index_tensors(entries):
    """The index tensors of a key as ATen sees them: (indices, size of the dim) each, a
    boolean mask (entries hold it as (mask, the sizes of the dims it names)) as its
    nonzero indices, one per dim it names."""
    out = []
    for k, n in entries:
        out.extend(zip(np.nonzero(k), n) if k.dtype.kind == "b" else [(k, n)])
    return out


def check_index_shapes(entries):
    """PyTorch's error when a key's index tensors (`entries`, as `index_tensors` takes
    them) cannot be broadcast together."""
    shapes = [
        s
        for k, _ in entries
        for s in ([(int(np.count_nonzero(k)),)] * k.ndim if k.dtype.kind == "b" else [k.shape])
    ]
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        listed = ", ".join(str(list(s)) for s in shapes)
        raise GradIndexError(
            "shape mismatch: indexing tensors could not be broadcast together with shapes " + listed
        ) from None


def out_of_bounds(entries):
    """PyTorch's error for an index tensor's index out of bounds, or None.  `entries` as
    `index_tensors` takes them, broadcast together (`check_index_shapes`).  ATen moves
    the indexed dims to the front and checks element by element in the broadcast order,
    each index tensor in turn, so it names the first bad index so met, with the index
    tensor's place among them as its dimension."""
    flat = index_tensors(entries)
    arrays = np.broadcast_arrays(*(np.asarray(a) for a, _ in flat))
    bad = np.stack([(a < -n) | (a >= n) for a, (_, n) in zip(arrays, flat)])
    bad = bad.reshape(len(flat), -1)
    hit = bad.any(axis=0)
    if not hit.any():
        return None
    at = int(hit.argmax())
    j = int(bad[:, at].argmax())
    value = int(arrays[j].reshape(-1)[at])
    return GradIndexError(
        f"index {value} is out of bounds for dimension {j} with size {flat[j][1]}"
    )


def check_index_tensors(entries, bounds):
    """PyTorch's errors for a key's index tensors (`entries`, as `index_tensors` takes
    them) in ATen's order: their shapes, then (when `bounds`: an index is out of bounds)
    the first index out of bounds (`out_of_bounds`)."""
    if len(entries) > 1:
        check_index_shapes(entries)
    if bounds:
        err = out_of_bounds(entries)
        if err is not None:
            raise err
