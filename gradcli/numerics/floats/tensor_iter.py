"""Which values of an element-wise kernel PyTorch computes with its vector code and which
with its scalar code, following how ATen's TensorIterator walks the operands.

TensorIterator orders the dimensions by the inputs' strides (the smallest innermost),
merges dimensions that are contiguous together, and, in each thread's range of the
linear index (numerics/parallel.py), calls the kernel on runs along the innermost
dimension.  `cpu_kernel_vec` vectorises a run only when every operand is contiguous
along it (or one input is a broadcast scalar, stride 0): then whole blocks of two
vectors take the vector code and the values after the last block the scalar code;
any other run is all scalar.  So a contiguous tensor is one run per thread, a
transposed one is walked in memory order, `x[::2]` row by row and `x[:, ::2]` with the
scalar code only.
"""

from __future__ import annotations

import numpy as np

from math import prod

from ..parallel import GRAIN, chunks
from ..per_shape import memo


def _should_swap(arrays, d0, d1):
    """TensorIterator's reorder_dimensions test: 1 when d0 must go inside d1."""
    for a in arrays:
        s0, s1 = a.strides[d0], a.strides[d1]
        if s0 == 0 or s1 == 0:
            continue
        if s0 != s1:
            return 1 if s0 > s1 else -1
    return 0


def _order(arrays):
    """The dimensions innermost first, as reorder_dimensions sorts them."""
    nd = arrays[0].ndim
    perm = list(range(nd - 1, -1, -1))
    for i in range(1, nd):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = _should_swap(arrays, perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    return perm


def laid_out(out, operands):
    """`out` (the kernel's values, C-contiguous) in the memory order TensorIterator gives
    its output: the dims ordered by the operands' strides (reorder_dimensions), so that an
    element-wise op of a transposed tensor is transposed too, as ATen allocates it; `out`
    itself when that order is C's or every operand is C-contiguous.  The order found is
    kept for the operands' shapes, strides and item sizes (`_LAYOUTS`: a loop's gates are
    the same slices every step)."""
    if out.ndim < 2:
        return out
    shape = out.shape  # (an operand of that shape as it is: broadcast_to costs microseconds)
    arrays = [
        a if a.shape == shape else np.broadcast_to(a, shape)
        for a in operands
        if type(a) is np.ndarray and a.ndim
    ]
    key = (shape, *[(a.strides, a.itemsize) for a in arrays])
    outer = _LAYOUTS.get(key)
    if outer is None:
        outer = _outer_order(arrays, out.ndim)
        if len(_LAYOUTS) >= 64:
            _LAYOUTS.clear()
        _LAYOUTS[key] = outer
    if outer is True:  # every operand C-contiguous
        return out
    if outer is False:  # C's order
        return out if out.flags.c_contiguous else np.ascontiguousarray(out)
    res = np.empty([out.shape[d] for d in outer], out.dtype).transpose(np.argsort(outer))
    res[...] = out
    return res


#: laid_out's order for (shape, (strides, item size) of each operand): True (all C-contiguous:
#: out as it is), False (C's order) or the dims outermost first
_LAYOUTS: dict = {}


def _outer_order(arrays, ndim):
    if all(a.flags.c_contiguous for a in arrays):
        return True
    perm = _order(arrays)  # innermost first
    if perm == list(range(ndim - 1, -1, -1)):
        return False
    return tuple(perm[::-1])


def binary_laid_out(out, a, b):
    """A binary ufunc's result in TensorIterator's layout: NumPy lays out the result of
    operands in different memory orders by its own rule (a transposed tensor plus a
    contiguous one is contiguous), ATen by the first operand whose strides decide
    (reorder_dimensions); the same array when both are C-contiguous."""
    if (
        out.ndim < 2
        or type(a) is not np.ndarray
        or type(b) is not np.ndarray
        or (a.flags.c_contiguous and b.flags.c_contiguous)
    ):
        return out
    return laid_out(out, (a, b))


def _inner_run(arrays, perm):
    """(length of the innermost run after merging dimensions, its strides per operand)."""
    shape = arrays[0].shape
    n = shape[perm[0]] if perm else 1
    strides = [a.strides[perm[0]] if perm else a.itemsize for a in arrays]
    for d in perm[1:]:
        m = shape[d]
        if m == 1:
            continue
        if n == 1:
            n, strides = m, [a.strides[d] for a in arrays]
            continue
        if any(a.strides[d] != s * n for a, s in zip(arrays, strides)):
            break
        n *= m
    return n, strides


#: values per step of ATen's vectorized_loop, by scalar type: two AVX2 vectors (2 x 8
#: float32, 2 x 4 float64), the whole blocks a vector kernel (SLEEF's ...) computes
VEC_BLOCK = {np.float32: 16, np.float64: 8}


def sleef_blocks(fn_vector, fn_scalar, arrays):
    """fn over float32/float64 arrays (broadcast to one shape) as torch runs a SLEEF
    kernel: fn_vector on the whole blocks of each run (`split`), fn_scalar (the C
    library's function) on the rest; other dtypes and empty arrays: fn_scalar."""
    arrays = np.broadcast_arrays(*(np.asarray(a) for a in arrays))
    dtype = arrays[0].dtype
    step = VEC_BLOCK.get(dtype.type) if dtype.isnative else None
    if step is None or not arrays[0].size:
        return fn_scalar(*arrays)
    with np.errstate(all="ignore"):
        return split(fn_vector, fn_scalar, arrays, step)


def split(fn_vector, fn_scalar, arrays, step, grain=GRAIN):
    """The kernel's results over `arrays` (one shape and float dtype): fn_vector(*values)
    on the values the vector code computes, fn_scalar(*values) on the others (1-D
    arrays in, 1-D out), put back in the operands' shape; `grain`: the kernel's grain
    size for at::parallel_for."""
    arrays = [np.asarray(a) for a in arrays]
    if all(a.flags.c_contiguous for a in arrays):  # one run per thread's range
        flats = [a.reshape(-1) for a in arrays]
        n = flats[0].size
        if n <= grain and n and not n % step:  # one range of whole blocks: the vector code's
            r = fn_vector(*flats)
            # (an array of its own: never an operand or a view of one)
            if r.dtype == flats[0].dtype and r.shape == flats[0].shape and r.flags.owndata:
                return r.reshape(arrays[0].shape)
            out = np.empty_like(flats[0])
            out[...] = r
            return out.reshape(arrays[0].shape)
        out = np.empty_like(flats[0])
        for b, end in chunks(out.size, grain):
            k = b + (end - b) // step * step
            if k > b:
                out[b:k] = fn_vector(*(f[b:k] for f in flats))
            if end > k:
                out[k:end] = fn_scalar(*(f[k:end] for f in flats))
        return out.reshape(arrays[0].shape)
    values, vector, restore = plan(arrays, step, grain)
    if vector is True or vector is False:  # every run all vector code, or none of it
        r = (fn_vector if vector else fn_scalar)(*values)
        if not (r.dtype == values[0].dtype and r.shape == values[0].shape and r.flags.owndata):
            out = np.empty_like(values[0])
            out[...] = r
            r = out
        return restore(r)
    out = np.empty_like(values[0])
    if vector.any():
        out[vector] = fn_vector(*(v[vector] for v in values))
    scalar = ~vector
    if scalar.any():
        out[scalar] = fn_scalar(*(v[scalar] for v in values))
    return restore(out)


class _Strides:
    """An operand's shape and strides alone: what TensorIterator's walk depends on."""

    __slots__ = ("shape", "strides", "ndim")

    def __init__(self, shape, strides):
        self.shape, self.strides, self.ndim = shape, strides, len(shape)


#: the walk of an element-wise kernel, kept for its operands' shape and strides: a loop
#: runs the same kernels on the same layouts every step
_memo = memo()


@_memo
def _walk(shape, strides, item, step, grain):
    """(dims outermost first, the mask of `plan` or True / False when it is all one
    value, the permutation that restores C order, the shape in walk order)."""
    arrays = [_Strides(shape, s) for s in strides]
    size = prod(shape)
    perm = _order(arrays)
    n, inner = _inner_run(arrays, perm)
    outer_first = tuple(perm[::-1])
    contiguous = all(s == item for s in inner)
    scalar_ok = sum(s == 0 for s in inner) == 1 and all(s in (0, item) for s in inner)
    mask = np.zeros(size, dtype=bool)
    if size and (contiguous or scalar_ok):
        p = np.arange(size)
        row = p // n * n
        for b, end in chunks(size, grain):
            q = p[b:end]
            start = np.maximum(row[b:end], b)
            stop = np.minimum(row[b:end] + n, end)
            mask[b:end] = q - start < (stop - start) // step * step
    vector = mask
    if size and mask.all():
        vector = True
    elif size and not mask.any():
        vector = False
    inverse = tuple(int(i) for i in np.argsort(outer_first))
    return outer_first, vector, inverse, tuple(shape[d] for d in outer_first)


def all_vector(x, step, grain=GRAIN):
    """Whether an element-wise kernel of the one operand x (an array of at least one
    dimension) computes every value with its vector code (whole blocks of `step` in each
    run of each thread's range): then the kernel's values are its vector code's on x's
    values in any order (C's).  Kept per layout (`_walk`)."""
    if x.flags.c_contiguous and x.size <= grain:  # (one run: whole blocks or not)
        return x.size > 0 and not x.size % step
    return _walk(x.shape, (x.strides,), x.itemsize, step, grain)[1] is True


def plan(arrays, step, grain=GRAIN):
    """(values, vector, restore) for an element-wise kernel over `arrays` (one shape):
    each operand's values in the order TensorIterator visits them (1-D), a mask of the
    values the vector code computes (whole blocks of `step` in each run; True or False
    when it would be all one value), and restore(out) -> the 1-D results put back in
    the operands' shape (C order)."""
    a0 = arrays[0]
    outer_first, vector, inverse, permuted = _walk(
        a0.shape, tuple(a.strides for a in arrays), a0.itemsize, step, grain
    )
    values = [np.ascontiguousarray(a.transpose(outer_first)).reshape(-1) for a in arrays]
    return (
        values,
        vector,
        lambda out: np.ascontiguousarray(out.reshape(permuted).transpose(inverse)),
    )
