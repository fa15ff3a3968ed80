"""Calls of the compiled sums of numerics/native_sums.py (PyTorch's cascade sums of
rows, with factors; BatchNorm's chains of fused steps and chunked sums): each takes NumPy
arrays, writes their addresses into parameters kept between calls, and answers None (or
False) where the native loops are not loaded (`native.loaded`), the caller then
computing with NumPy."""

from __future__ import annotations

import weakref

import numpy as np

from . import native
from .mkl import address

D = np.dtype(np.float64)


#: per number of sums: the loop's parameters (numerics/native_sums.py: rows, n, power,
#: the results' address, the values' and factors' addresses), their address and the
#: results' array, kept between calls
_sum_calls: dict = {}
#: the addresses of the factors seen last (id -> (weak reference, address)): a backward's
#: factors are often the same arrays every iteration (a loop's inputs, hoisted values)
_factor_at: dict = {}


def _factor_address(f):
    got = _factor_at.get(id(f))
    if got is not None and got[0]() is f:
        return got[1]
    at = address(f)
    if len(_factor_at) >= 64:
        _factor_at.clear()
    _factor_at[id(f)] = (weakref.ref(f), at)
    return at


#: per (rows, dtype char): the loop's call for sums of one array times each row's factor
#: (`sums_one`): [parameters, their address, the results, the loop, n, power, the factors
#: (held: their addresses and checks stand while they are the same), the array's address]
_one_calls: dict = {}


def sums_one(g, factors, power):
    """`sums([g] * len(factors), factors, power)` for g a 1-D C-contiguous float array in
    the machine's byte order, each factor None or an array that must be of g's shape and
    dtype and C-contiguous (else None is returned, as where the loops are not loaded); the
    parameters kept from the last call where they are the same (a backward's factors
    are often the same arrays every iteration: a loop's inputs, hoisted values)."""
    lib = native.loaded()
    if not lib:
        return None
    dt = g.dtype
    key = (len(factors), dt.char)
    call = _one_calls.get(key)
    if call is None:
        rows = len(factors)
        params, out = np.zeros(4 + 2 * rows, np.int64), np.zeros(rows, dt)
        params[0], params[3] = rows, address(out)
        call = _one_calls[key] = [params, address(params), out, lib.sums[dt.char], -1, -1, (), 0]
    params = call[0]
    n = g.size
    if call[4] != n or call[5] != power:
        params[1] = call[4] = n
        params[2] = call[5] = power
    held = call[6]
    if len(held) != len(factors) or any(f is not h for f, h in zip(factors, held)):
        call[6] = ()
        shape = g.shape
        for f in factors:
            if f is not None and (
                f.dtype is not dt or f.shape != shape or not f.flags.c_contiguous
            ):
                return None
        rows = len(factors)
        params[4 + rows :] = [0 if f is None else address(f) for f in factors]
        call[6] = tuple(factors)
    at = address(g)
    if at != call[7]:
        params[4 : 4 + len(factors)] = at
        call[7] = at
    call[3](call[1])
    return call[2]


def row_sums(x, power):
    """`sums` of the rows of x (a 2-D C-contiguous float array in the machine's byte
    order, each row a whole sum of its values in PyTorch's order for one thread's
    range, the cascade's step 2^power): a fresh array of x's dtype, or None where the
    loops are not loaded.  The rows' addresses are made in one step (no array per
    row)."""
    lib = native.loaded()
    if not lib:
        return None
    rows, n = x.shape
    params = np.empty(4 + 2 * rows, np.int64)
    out = np.empty(rows, x.dtype)
    params[0], params[1], params[2], params[3] = rows, n, power, address(out)
    np.multiply(np.arange(rows, dtype=np.int64), n * x.itemsize, out=params[4 : 4 + rows])
    params[4 : 4 + rows] += address(x)
    params[4 + rows :] = 0  # (no factors)
    lib.sums[x.dtype.char](address(params))
    return out


def sums(arrays, factors, power):
    """The sums of `arrays` (1-D, C-contiguous, of one size and float dtype, in the
    machine's byte order), each of its product with its factor where `factors` (None,
    or per array None or a C-contiguous array of its shape and dtype) gives one, in
    PyTorch's order for one thread's range (numerics/native_sums.py) with the cascade's
    step 2^power: an array of the dtype, valid until the next call (the caller takes its
    values at once), or None where the loops are not loaded."""
    lib = native.loaded()
    if not lib:
        return None
    rows = len(arrays)
    a = arrays[0]
    dt = a.dtype
    key = (rows, dt.char)
    call = _sum_calls.get(key)
    if call is None:
        params, out = np.zeros(4 + 2 * rows, np.int64), np.zeros(rows, dt)
        params[0], params[3] = rows, address(out)
        call = _sum_calls[key] = (params, address(params), out, lib.sums[dt.char])
    params, at, out, fn = call
    params[1] = a.size
    params[2] = power
    seen = None
    i = 4
    for x in arrays:
        if x is not seen:  # (a gradient is often every row's)
            seen, x_at = x, address(x)
        params[i] = x_at
        i += 1
    if factors is None:
        params[i:] = 0
    else:
        for f in factors:
            params[i] = 0 if f is None else _factor_address(f)
            i += 1
    fn(at)
    return out


def fma_chain(a, b, acc):
    """acc (W,) in place: per value j, acc[j] = fma(a[i, j], b[i, j], acc[j]) for the rows
    i of a and b in turn ((L, W) C-contiguous, all of acc's dtype, float32 or float64;
    `fma.fma`'s and `fma.fma32`'s steps): True when done, False where the loops are not
    loaded or a step needs the emulation (acc then holds no meaningful values)."""
    lib = native.loaded()
    if not lib:
        return False
    fn = lib.chains[acc.dtype.char]
    return not fn(a.shape[0], acc.size, address(a), address(b), address(acc))


def chunk_sums(x, chunk, m=None, y=None):
    """Per column of (R, C) `x` (C-contiguous, float32 or float64), the float64 total of
    its rows' chunks of `chunk` rows, each summed in the dtype from +0 (native_sums.
    chunk_sums_ir): of x's values, of fma steps of (x - m) * y (m (C,), y (R, C) of x's
    dtype and layout) or, given m alone, of (x - m) squared.  None where the loops are
    not loaded or a step needs the emulation (the caller sums it itself)."""
    lib = native.loaded()
    if not lib:
        return None
    rows, cols = x.shape
    mode = 0 if m is None else 2 if y is None else 1
    at = address(x)
    total = np.empty(cols, D)
    fn = lib.chunk_sums[x.dtype.char]
    ma = at if m is None else address(m)
    ya = at if y is None else address(y)
    if fn(rows, cols, chunk, at, ma, ya, address(total), mode):
        return None
    return total
