"""A Python bool in an index, as PyTorch's indexing takes it (TensorIndexing's
applySlicing): `x[True]` adds a dim of size 1 and `x[False]` one of size 0 -- an
unsqueeze (a view) followed by an advanced index of that dim with [0] or [] (a copy:
IndexBackward0 over UnsqueezeBackward0).  The rest of the key keeps PyTorch's order:
ints, slices and None are applied first (basic indexing), then the tensors and lists,
each at the dim it was written for, as one advanced index."""

from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor


class ScalarBoolKey(Exception):
    """Raised by shape._norm_key for x[key] when key holds a Python bool."""


def _array(k):
    return k.data if isinstance(k, Tensor) else np.asarray(k)


def _is_int(k):
    if isinstance(k, bool):
        return False
    if isinstance(k, int):
        return True
    return isinstance(k, Tensor) and k.data.ndim == 0 and k.data.dtype.kind in "iu"


def _dims_of(k):
    """How many dims of the tensor k indexes (None, ... and a Python bool: none)."""
    if k is None or k is Ellipsis or type(k) is bool:
        return 0
    if _is_int(k) or isinstance(k, slice):
        return 1
    a = _array(k)
    return a.ndim if a.dtype == np.bool_ else 1


def split_bool_key(key, ndim):
    """(basic key, advanced key): x[key] == x[basic][advanced] in PyTorch's meaning."""
    key = key if type(key) is tuple else (key,)
    n_real = sum(_dims_of(k) for k in key)
    basic, recorded, rdim = [], {}, 0
    for k in key:
        if k is None:
            basic.append(None)
            rdim += 1
        elif k is Ellipsis:
            basic.append(Ellipsis)
            rdim += max(ndim - n_real, 0)
        elif type(k) is bool:
            basic.append(None)
            recorded[rdim] = (np.zeros(1 if k else 0, dtype=np.int64), 1)
            rdim += 1
        elif _is_int(k):
            basic.append(k)
        elif isinstance(k, slice):
            basic.append(k)
            rdim += 1
        else:
            m = _dims_of(k)
            basic.extend([slice(None)] * m)
            recorded[rdim] = (k, m)
            rdim += m
    advanced, r = [], 0
    for pos in sorted(recorded):
        advanced.extend([slice(None)] * (pos - r))
        k, m = recorded[pos]
        advanced.append(k)
        r = pos + m
    return tuple(basic), tuple(advanced)
