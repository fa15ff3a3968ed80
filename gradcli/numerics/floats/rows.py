"""Reductions of each row of a 2-D array of many short rows (softmax's and log_softmax's
last dim: 2,000 rows of 10 classes), computed down its columns: NumPy's reduction along
a short axis pays its inner loop once per row (a max over 2,000 rows of 10 costs 60 us),
where one operation per column (or, for the maximum, one on the array's transpose)
costs 1-2 us.  The same operations in the same order as the row-by-row reductions they
replace, so the same bits."""

from __future__ import annotations

import numpy as np

from .. import native
from ..mkl import address

#: rows at most this long are reduced down their columns (beyond, one operation per
#: column costs more than NumPy's reduction along the rows)
MAX_COLUMNS = 32
#: and only when there are at least this many rows
MIN_ROWS = 64


def by_columns(a) -> bool:
    """Whether the 2-D array a is reduced down its columns."""
    rows, d = a.shape
    return 0 < d <= MAX_COLUMNS and rows >= MIN_ROWS


def row_max(a):
    """The largest value of each row of the 2-D array a (a NaN where a row has one), as
    a (rows, 1) array."""
    if not by_columns(a):
        return a.max(axis=1, keepdims=True)
    return np.maximum.reduce(np.ascontiguousarray(a.T), 0)[:, None]


def lanes(a, width):
    """vec::reduce_all's `width` lane sums of each row of a (by_columns, at least
    `width` long): lane l is the sum, one after the other, of the row's values l,
    l + width, l + 2 width, ... of its whole vectors, then the value after the last
    whole vector in that lane's place, if any; a list of `width` (rows,) arrays."""
    d = a.shape[1]
    nv = d // width
    if nv >= 2:
        acc = [a[:, lane] + a[:, width + lane] for lane in range(width)]
    else:
        acc = [a[:, lane].copy() for lane in range(width)]
    for v in range(2, nv):
        for lane in range(width):
            acc[lane] += a[:, v * width + lane]
    for lane in range(d - nv * width):
        acc[lane] = acc[lane] + a[:, nv * width + lane]
    return acc


def compiled(kind, a, b=None):
    """The compiled loop KIND of numerics/native_softmax.py (softmax or log_softmax over the
    last dim, or their backward of the gradient a and the output b) of the float32 or
    float64 array a, as a fresh array of its shape, or None where the loops are not loaded
    (or should not be yet) or a value needs the emulation (the caller's, the same bits)."""
    dt = a.dtype
    if dt.char not in "fd" or not a.size or b is not None and (b.dtype != dt or b.shape != a.shape):
        return None
    lib = native.ready(a.size)
    if lib is None:
        return None
    a = np.ascontiguousarray(a)
    d = a.shape[-1]
    if b is not None:
        b = np.ascontiguousarray(b)
    elif kind == "log_softmax":  # its scratch: the rows' sums (whole vectors) and maxima
        b = np.empty(2 * (a.size // d + 7), dt)
    else:
        b = a
    out = np.empty(a.shape, dt)
    if lib.softmax[kind, dt.char](a.size // d, d, address(a), address(b), address(out)):
        return None
    return out
