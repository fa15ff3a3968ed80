"""Writing into a tensor whose elements share memory (an expand()ed one), as PyTorch's
TensorIterator refuses it (`OVERLAP`), and the array helpers library/inplace.py uses."""
from __future__ import annotations

OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a "
           "single memory location. Please clone() the tensor before performing the operation.")
# masked_fill_ and index_put_ (x[mask] = v) still write, with PyTorch's warning
EXPANDED_MASKED = ("Use of masked_fill_ on expanded tensors is deprecated. Please clone() the "
                   "tensor before performing this operation. This also applies to advanced "
                   "indexing e.g. tensor[mask] = scalar")
EXPANDED_INDEX_PUT = ("Use of index_put_ on expanded tensors is deprecated. Please clone() the "
                      "tensor before performing this operation. This also applies to advanced "
                      "indexing e.g. tensor[indices] = tensor")


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
