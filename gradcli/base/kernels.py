"""Array helpers for VJPs that give the same values as the plain NumPy expression
with less memory traffic (issue 16: the 1e7-element workload).

* `scaled(g, c)`: `g * c` where `g` is a broadcast view of one value (the gradient of
  a `mean` or `sum` spread back over its input, strides all 0) and `c` a Python
  number or a 0-d array: every element of the product is the same product, so it
  is computed once and broadcast again (no pass over memory, no new array).
* `times_fresh(g, t)`: `g * t` where `t` is a fresh temporary of the VJP: the
  product is written into `t` (one new array instead of two).
"""
from __future__ import annotations

import numpy as np


def scaled(g, c):
    """g * c, as NumPy computes it, kept a broadcast view when g is one."""
    if type(g) is np.ndarray and g.ndim and not any(g.strides) and g.size > 1 and \
            (type(c) is float or type(c) is int or type(c) is np.ndarray and not c.ndim):
        one = np.multiply(g[(slice(0, 1),) * g.ndim], c)     # the same promotion as g * c
        return np.broadcast_to(one.reshape(()), g.shape)
    return g * c


def times_fresh(g, t):
    """g * t for an array t nobody else holds, computed into t when the result fits it."""
    if type(g) is np.ndarray and type(t) is np.ndarray and g.shape == t.shape and \
            g.dtype is t.dtype and t.flags.writeable:
        return np.multiply(g, t, out=t)
    return g * t
