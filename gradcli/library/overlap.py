"""Writing into a tensor whose elements share memory (an expand()ed one), or that shares
some memory with an input of the op (`x[1:].add_(x[:3])`), as PyTorch's TensorIterator
refuses them (`OVERLAP`, `PARTIAL`), and the array helpers library/inplace.py uses."""

from __future__ import annotations

OVERLAP = (
    "unsupported operation: more than one element of the written-to tensor refers to a "
    "single memory location. Please clone() the tensor before performing the operation."
)
# masked_fill_ and index_put_ (x[mask] = v) still write, with PyTorch's warning
EXPANDED_MASKED = (
    "Use of masked_fill_ on expanded tensors is deprecated. Please clone() the "
    "tensor before performing this operation. This also applies to advanced "
    "indexing e.g. tensor[mask] = scalar"
)
EXPANDED_INDEX_PUT = (
    "Use of index_put_ on expanded tensors is deprecated. Please clone() the "
    "tensor before performing this operation. This also applies to advanced "
    "indexing e.g. tensor[indices] = tensor"
)


def overlaps(d):
    """Whether elements of array d share memory (a dim of stride 0 and size over 1)."""
    return any(s == 0 and n > 1 for s, n in zip(d.strides, d.shape))


def writable(d):
    """A writable view of the read-only view `d` (NumPy marks broadcast views read-only,
    also where no two elements share memory), or None if its memory is read-only."""
    w = d.view()
    try:
        w.flags.writeable = True
    except ValueError:
        return None
    return w


PARTIAL = (
    "unsupported operation: some elements of the input tensor and the written-to tensor "
    "refer to a single memory location. Please clone() the tensor before performing the "
    "operation."
)


def _owner(a):
    return a if a.base is None else a.base  # NumPy keeps the owner as every view's base


def _dense(a):
    """ATen's is_non_overlapping_and_dense: the elements fill their memory, in some order."""
    expected = a.itemsize
    for stride, n in sorted((abs(s), n) for s, n in zip(a.strides, a.shape) if n > 1):
        if stride != expected:
            return False
        expected *= n
    return True


def _bounds(a):
    """The first and one-past-last byte addresses of array a's elements."""
    low = high = a.__array_interface__["data"][0]
    for s, n in zip(a.strides, a.shape):
        if s < 0:
            low += s * (n - 1)
        else:
            high += s * (n - 1)
    return low, high + a.itemsize


def partial_overlap(out, inp):
    """ATen's get_overlap_status(out, inp) == Partial: the two arrays share some memory
    but are not the same elements in the same layout (arrays that are not dense are too
    hard to tell, and pass, as in ATen)."""
    if out is inp or not out.size or not inp.size or _owner(out) is not _owner(inp):
        return False
    if not (_dense(out) and _dense(inp)):
        return False
    (a0, a1), (b0, b1) = _bounds(out), _bounds(inp)
    if a0 == b0 and a1 == b1:
        return out.strides != inp.strides or out.shape != inp.shape
    return a0 < b1 and b0 < a1
