"""Sums over any dims of a float32/float64 array in PyTorch's CPU order (`x.sum(1)` of a
(B, N, M) tensor, `x.sum((0, 2))`, a broadcast gradient summed back by `sum_to`), for
any layout with positive strides.

What PyTorch 2.13 does (ATen/native/cpu/SumKernel.cpp `cascade_sum`, TensorIterator's
reorder_dimensions/coalesce_dimensions, TensorIteratorReduce.cpp):

* The output (contiguous, reduced dims of stride 0) is filled with +0; every partial
  result is then *added* into it (`CastStoreAccumulate`).
* TensorIterator orders the dims fastest first: reduced dims before kept ones (the
  output's zero strides decide), kept dims by the output's strides, reduced dims by
  the input's; size-1 dims vanish and neighbours contiguous in every operand merge.
* The kernel is called on planes (dim 0, dim 1) and chooses by the plane's input
  strides: dim 0 contiguous with at least a vector's lanes -> `vectorized_inner_sum`
  (each row as a whole sum's row: `summation.inner_sums`); else dim 1 contiguous with
  at least `lanes` columns -> `vectorized_outer_sum` (whole blocks of 4 vectors of
  columns summed down the rows with the cascade, the other columns with `row_sum`);
  else dim 0's stride the smaller -> `scalar_inner_sum` (each row `row_sum`); else
  `scalar_outer_sum` (groups of 4 columns with the cascade, the rest `row_sum`).
* Two or more reduced dims: the plane is (reduced 0, reduced 1), every row's sum is
  added into the same output value, row after row, the outer reduced dims in order.
* With more than one thread and at least 32,768 values (output of more than one
  value) the kept dim chosen by `find_split_dim` is cut with `at::parallel_for(0, n,
  1)`, column ranges rounded down to 128 bytes when that dim is contiguous: only a
  cut of the plane's column dim changes an order (which columns are whole blocks).
"""

from __future__ import annotations

import numpy as np

from ..parallel import GRAIN, THREADS
from .summation import _multi_row_sum, _row_sum, inner_sums, torch_sum
from .sum_plans import ILP, _reduce


def iter_dims(shape, in_strides, out_strides):
    """TensorIterator's dims for a reduction, fastest first: [(size, in_stride,
    out_stride)] after reordering and coalescing (size-1 dims dropped)."""
    dims = [
        d for d in zip(reversed(shape), reversed(in_strides), reversed(out_strides)) if d[0] != 1
    ]

    def swap(a, b):  # reorder_dimensions' should_swap (output first)
        if (a[2] == 0) != (b[2] == 0):
            return 1 if b[2] == 0 else -1
        for k in (2, 1):
            s0, s1 = a[k], b[k]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if a[0] > b[0]:
                return 1
        return 0

    for i in range(1, len(dims)):  # insertion sort with ambiguous comparisons
        j = i
        for d0 in range(i - 1, -1, -1):
            c = swap(dims[d0], dims[j])
            if c > 0:
                dims[d0], dims[j] = dims[j], dims[d0]
                j = d0
            elif c < 0:
                break
    out = []
    for d in dims:  # coalesce_dimensions
        if out and all(p * out[-1][0] == q for p, q in zip(out[-1][1:], d[1:])):
            out[-1] = (out[-1][0] * d[0], out[-1][1], out[-1][2])
        else:
            out.append(d)
    return out


def _col_ranges(n, contiguous, isz):
    """The column ranges of at::parallel_for(0, n, 1) with the reduction's rounding."""
    k = min(THREADS, n)
    size = -(-n // k)
    per = 128 // isz
    ranges = []
    for b in range(0, n, size):
        e = min(n, b + size)
        if contiguous:
            b -= b % per
            if e != n:
                e -= e % per
        if b != e:
            ranges.append((b, e))
    return ranges


def _outer(a, ranges, vec, lanes):
    """Column sums of a (rows, batch, cols): per column range, whole blocks (4 vectors
    of columns when the kernel is the vectorised one, else 4 columns) with the cascade,
    the other columns with row_sum."""
    rows, batch, cols = a.shape
    out = np.empty((batch, cols), a.dtype)
    for b, e in ranges:
        n = e - b
        block = ILP * lanes if vec and n >= lanes else ILP
        w = n // block * block
        if w:
            part = np.ascontiguousarray(a[:, :, b : b + w]).reshape(rows, batch * w)
            out[:, b : b + w] = _multi_row_sum(part).reshape(batch, w)
        if n > w:
            part = np.ascontiguousarray(a[:, :, b + w : e]).reshape(rows, batch * (n - w))
            out[:, b + w : e] = _row_sum(part).reshape(batch, n - w)
    return out


def _rows(v, n0, lanes, contiguous):
    """The sums of the rows of v (..., n0) as the inner kernels make them: whole-sum
    rows (`vectorized_inner_sum`, from 0) or `row_sum` (`scalar_inner_sum`)."""
    rows = v.reshape(-1, n0)
    if contiguous and n0 >= lanes:
        return inner_sums(np.ascontiguousarray(rows))
    return _row_sum(np.ascontiguousarray(rows.T))


def dim_sums(x, axes):
    """x summed over `axes` (a tuple of dims) in PyTorch's CPU order, shaped as
    x.sum(axes) (keepdim=False); None where this does not apply (not float32/float64,
    a zero or negative stride, empty, one value out of a non-contiguous array)."""
    dt = x.dtype
    if dt.char not in "fd" or not dt.isnative or not x.size:
        return None
    isz = dt.itemsize
    lanes = 32 // isz
    shape = x.shape
    axes = set(axes)
    kept = [n for i, n in enumerate(shape) if i not in axes]
    oshape = tuple(kept)
    ostr, acc = [], isz
    for i in range(len(shape) - 1, -1, -1):
        if i in axes:
            ostr.append(0)
        else:
            ostr.append(acc)
            acc *= shape[i]
    ostr.reverse()
    if any(s <= 0 for s, n in zip(x.strides, shape) if n != 1):
        return None
    dims = iter_dims(shape, x.strides, ostr)
    red = [d for d in dims if d[2] == 0]
    keep = [d for d in dims if d[2] != 0]
    out_n = int(np.prod(oshape)) if oshape else 1
    if not red:  # no true reduction: 0 + x
        return np.add(x, 0).reshape(oshape) if x.ndim else x + 0
    if out_n == 1:
        if not x.flags.c_contiguous:
            return None
        return np.asarray(torch_sum(x), dt).reshape(oshape)
    order = keep[::-1] + red[::-1]  # slowest first
    v = np.lib.stride_tricks.as_strided(
        x, tuple(d[0] for d in order), tuple(d[1] for d in order), writeable=False
    )
    n0, s0 = red[0][0], red[0][1]
    if len(red) >= 2:  # every row into one output value
        terms = _rows(v, n0, lanes, s0 == isz).reshape(out_n, -1)
        out = _reduce(np.ascontiguousarray(terms.T), 0) + dt.type(0)
        return out.reshape(oshape)
    n1, s1 = keep[0][0], keep[0][1]
    if s0 == isz and n0 >= lanes or not (s1 == isz and n1 >= lanes) and s0 < s1:
        out = _rows(v, n0, lanes, s0 == isz)  # inner kernels: rows are independent
    else:
        ranges = [(0, n1)]
        if THREADS > 1 and x.size >= GRAIN:
            split = len(keep) - 1  # find_split_dim, outermost first
            for i in range(len(keep) - 1, -1, -1):
                if keep[i][0] >= THREADS:
                    split = i
                    break
                if keep[i][0] > keep[split][0]:
                    split = i
            if split == 0:
                ranges = _col_ranges(n1, s1 == isz, isz)
        a = v.reshape(-1, n1, n0).transpose(2, 0, 1)
        out = _outer(a, ranges, s1 == isz, lanes)
    return (out.reshape(-1) + dt.type(0)).reshape(oshape)
