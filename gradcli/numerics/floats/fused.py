"""Array helpers for VJPs that give the same values as the plain NumPy expression
with less memory traffic (the 1e7-element workload).

* `scaled(g, c)`: `g * c` where `g` is a broadcast view of one value (the gradient of
  a `mean` or `sum` spread back over its input, strides all 0) and `c` a Python
  number or a 0-d array: every element of the product is the same product, so it
  is computed once and broadcast again (no pass over memory, no new array).
* `times_fresh(g, t)`: `g * t` where `t` is a fresh temporary of the VJP: the
  product is written into `t` (one new array instead of two).
* `times_twice(g, a)`: `g * (2 * a)`, the VJP of `a ** 2`: `2 * a` is `a + a` exactly
  (bit for bit, signed zeros, NaNs and overflow included; the add loop is faster
  than the multiply-by-a-scalar one), and where `g` is one value broadcast the two
  passes are made a cache-sized block at a time for big arrays (the block of
  `a + a` is scaled while it is in the cache: one pass over memory instead of two).
"""

from __future__ import annotations

import numpy as np

from .singles import EXACT_INT, weak


def scaled(g, c):
    """g * c, as NumPy computes it, kept a broadcast view when g is one."""
    if (
        type(g) is np.ndarray
        and g.ndim
        and not g.strides[0]
        and not any(g.strides)
        and g.size > 1
        and (type(c) is float or type(c) is int or type(c) is np.ndarray and not c.ndim)
    ):
        first = g[(slice(0, 1),) * g.ndim]
        one = np.multiply(first, weak(c, first))  # the same promotion as g * c
        return np.broadcast_to(one.reshape(()), g.shape)
    return np.multiply(g, weak(c, g)) if type(g) is np.ndarray else g * c


def times_fresh(g, t):
    """g * t for an array t nobody else holds, computed into t when the result fits it."""
    if (
        type(g) is np.ndarray
        and type(t) is np.ndarray
        and g.shape == t.shape
        and g.dtype is t.dtype
        and t.flags.writeable
    ):
        return np.multiply(g, t, out=t)
    return g * t


#: values per block of `times_twice` (512 KiB of float64: the block stays in the cache)
BLOCK = 1 << 16
#: `times_twice` works in blocks from this many bytes (smaller arrays are likely in the
#: cache already, where the blocks' extra calls cost more than they save)
BLOCKED_BYTES = 8 << 20


def times_twice(g, a):
    """g * (2 * a), bit for bit what times_fresh(g, 2.0 * a) gives (g first in each product)."""
    if type(a) is not np.ndarray or a.dtype.kind != "f":
        return times_fresh(g, 2.0 * a)
    n = a.size
    if (
        type(g) is np.ndarray
        and a.nbytes >= BLOCKED_BYTES
        and g.shape == a.shape
        and g.dtype is a.dtype
        and not any(g.strides)
        and a.flags.c_contiguous
    ):
        one = g[(slice(0, 1),) * g.ndim].reshape(())  # g's value, 0-d, g's dtype
        out = np.empty(a.shape, a.dtype)
        flat, res, add, mul = a.reshape(-1), out.reshape(-1), np.add, np.multiply
        for i in range(0, n, BLOCK):
            o = res[i : i + BLOCK]
            v = flat[i : i + BLOCK]
            add(v, v, o)
            mul(one, o, o)
        return out
    return times_fresh(g, np.add(a, a))


F64 = np.dtype(np.float64)


def doubles(a, b, dt):
    """(a, b) as Python floats when the op is on two 0-d float64 operands (0-d float64
    arrays, Python floats, or ints a double holds exactly) and its result is float64:
    `+ - *` on them are then the same IEEE double operations NumPy makes, ~1 us
    cheaper than a NumPy call on 0-d arrays.  None otherwise."""
    if dt is not F64:
        return None
    ta, tb = type(a), type(b)
    if ta is np.ndarray:
        if a.ndim or a.dtype is not F64:
            return None
        a = a.item()
    elif ta is not float and not (ta is int and -EXACT_INT <= a <= EXACT_INT):
        return None
    if tb is np.ndarray:
        if b.ndim or b.dtype is not F64:
            return None
        b = b.item()
    elif tb is not float and not (tb is int and -EXACT_INT <= b <= EXACT_INT):
        return None
    return a, b
