"""0-d float32 arithmetic on Python floats, bit for bit NumPy's (and PyTorch's).

`singles(a, b, dt)` is the float32 sibling of `fused.doubles`: when an op's two
operands are 0-d float32 arrays or Python numbers and its result is float32, it
gives them as Python floats (a Python number first rounded to float32, as NumPy
and PyTorch convert a number operand to the tensor's type).  `+ - *` of two
float32 values computed in double and rounded to float32 (`single`) are the
float32 operations themselves: a product of two 24-bit significands is exact in
53 bits, and for a sum rounding to double and then to float32 is rounding once,
since 53 >= 2 * 24 + 2.  A NumPy call on 0-d arrays costs about 1 us more.
"""

from __future__ import annotations

import numpy as np

F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)
F32_MAX = float(np.finfo(np.float32).max)
EXACT_INT = 1 << 53
_ROUNDED: dict = {}  # Python number -> its float32 value, as a Python float
_KEEP = 256


def rounded(x):
    if not x:
        return float(x)  # (kept apart: -0.0 == 0.0 as a key)
    v = _ROUNDED.get(x)
    if v is None:
        v = float(np.float32(x))
        if len(_ROUNDED) >= _KEEP:
            _ROUNDED.clear()
        _ROUNDED[x] = v
    return v


_W32: dict = {}  # Python number -> its 0-d float32 array (weak)
_W64: dict = {}  # ... float64


def weak(v, a):
    """`v`, the other operand of an op on the float32 or float64 array `a`: when it is
    a Python number, as NumPy converts it (NEP 50: a number takes the array's dtype),
    a cached 0-d read-only array of a's dtype, with which NumPy's call is about 1 us
    shorter (the number is not inspected on each call) and gives the same result.
    Anything else is given back as it is, and so are zeros (-0.0 == 0.0 as a key),
    NaN and ints beyond 2**53."""
    t = type(v)
    if (t is not float and t is not int) or type(a) is not np.ndarray:
        return v
    dt = a.dtype
    if dt is F32:
        table = _W32
    elif dt is F64:
        table = _W64
    else:
        return v
    w = table.get(v)
    if w is None:
        if not v or v != v or (t is int and not -EXACT_INT <= v <= EXACT_INT):
            return v
        w = np.array(v, dtype=dt)
        w.flags.writeable = False
        if len(table) >= _KEEP:
            table.clear()
        table[v] = w
    return w


def value32(x):
    """A Python float or int (one a double holds) as float32 arithmetic takes it: rounded
    to float32, as a Python float; None beyond float32's range, for NaN and infinities
    (NumPy's general path then)."""
    t = type(x)
    if t is float:
        if -F32_MAX <= x <= F32_MAX:
            return rounded(x)
        return None
    if t is int and -EXACT_INT <= x <= EXACT_INT:
        return rounded(x)
    return None


def _value(x):
    t = type(x)
    if t is np.ndarray:
        if x.ndim or x.dtype is not F32:
            return None
        return x.item()
    if t is float:
        if -F32_MAX <= x <= F32_MAX:  # (not nan, inf or out of float32's range)
            return rounded(x)
        return None
    if t is int and -EXACT_INT <= x <= EXACT_INT:
        return rounded(x)
    return None


def singles(a, b, dt):
    """(a, b) as Python floats holding float32 values when the op is on two 0-d
    float32 operands (or Python numbers) with a float32 result; None otherwise."""
    if dt is not F32:
        return None
    a = _value(a)
    if a is None:
        return None
    b = _value(b)
    if b is None:
        return None
    return a, b


def single(x):
    """A 0-d float32 array of the double `x` rounded to float32."""
    return np.array(x, dtype=F32)


_NP_F64 = np.float64


def scalar_times(g, c):
    """`g * c` as NumPy gives it (a NumPy scalar), for a 0-d float64 or float32 `g` (an
    array or a NumPy scalar: a gradient) and `c` a Python number or a 0-d array of g's
    dtype, on Python floats (the product of two doubles is the IEEE product; of two
    float32 values it is exact in a double, then rounded once).  None otherwise."""
    tg = type(g)
    if tg is _NP_F64 and type(c) is float:  # a float64 chain's gradient (the common case)
        return _NP_F64(float(g) * c)
    if tg is np.ndarray:
        if g.ndim:
            return None
        dt = g.dtype
        g = g.item()
    elif tg is np.float64:
        dt = F64
    elif tg is np.float32:
        dt = F32
    else:
        return None
    tc = type(c)
    if dt is F64:
        if tc is float or (tc is int and -EXACT_INT <= c <= EXACT_INT):
            return np.float64(float(g) * c)
        if tc is np.ndarray and not c.ndim and c.dtype is F64:
            return np.float64(float(g) * c.item())
        return None
    if dt is F32:
        c = _value(c)
        if c is not None:
            return np.float32(float(g) * c)
    return None
