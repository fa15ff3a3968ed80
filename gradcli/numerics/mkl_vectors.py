"""PyTorch's `mv` and `dot` of float32/float64 arrays through MKL's BLAS (gemv, dot),
placed and called as PyTorch calls them (numerics/mkl.py: the library, the operands'
places); NumPy where MKL does not apply."""

from __future__ import annotations

import numpy as np

from . import mkl
from .mkl import (
    _AT,
    _COL,
    _GENERAL,
    _I,
    _MAX_PLANS,
    _MISPLACED,
    _NO,
    _REAL,
    _TR,
    FNS,
    _aligned,
    _empty,
    _kind,
    _operand,
    _operand_layout,
    _placed,
    _read,
    _P,
    _state,
    lib,
    raw_function,
    threads,
)


def mv(a, v):
    """a @ v for a 2-D a and 1-D v (torch.mv: gemv), or None.  By the plan kept for the
    operands' shapes, strides and dtypes (gemv's arguments made once: a Jacobian's rows
    make the same product hundreds of times) when both lie where PyTorch's would, else
    step by step (`_mv_general`)."""
    key = (a.shape, a.strides, a.dtype, v.shape, v.strides, v.dtype)
    plan = _MV_PLANS.get(key)
    if plan is None:
        plan = _mv_plan(a, v)
        if plan is None:
            return None
        if len(_MV_PLANS) >= _MAX_PLANS:
            _MV_PLANS.clear()
        _MV_PLANS[key] = plan
    if plan is _GENERAL or _state["lib"] is None:
        return _mv_general(a, v)
    gemv, rows, c_args = plan
    a_ptr = _read(id(a) + _AT)
    v_ptr = _read(id(v) + _AT)
    if (a_ptr.value & _MISPLACED if a.base is None else not _placed(a, a_ptr.value)) or (
        v_ptr.value & _MISPLACED if v.base is None else not _placed(v, v_ptr.value)
    ):
        return _mv_general(a, v)
    out = np.empty((rows,), a.dtype)
    out_ptr = _read(id(out) + _AT)
    if out_ptr.value & _MISPLACED:  # (NumPy's arrays are not placed as PyTorch's storages)
        out, out_at = _empty((rows,), a.dtype)
        out_ptr = _P(out_at)
    col, trans, m, n, lda, inc, one, zero = c_args
    threads()
    gemv(col, trans, m, n, one, a_ptr, lda, v_ptr, inc, zero, out_ptr, inc)
    return out


_MV_PLANS: dict = {}


def _mv_plan(a, v):
    """(gemv, rows, its constant arguments as ctypes objects) for a @ v, _GENERAL where
    mv copies an operand or the product is empty, None when MKL cannot."""
    p = _kind(a)
    if p is None or v.dtype != a.dtype or max(a.shape) >= 2**31 or lib() is None:
        return None
    rows, k = a.shape
    if rows == 0 or k == 0 or mkl.address is mkl._ctypes_address or v.strides != (v.itemsize,):
        return _GENERAL
    lda, ta = _operand_layout(a)
    if lda is None:
        return _GENERAL
    real = _REAL[p]
    ints = (_COL, _NO if ta else _TR, *((rows, k) if ta else (k, rows)), lda, 1)
    # (gemv without argument types: every argument a ctypes object, `raw_function`)
    return raw_function(f"cblas_{p}gemv"), rows, tuple(map(_I, ints)) + (real(1.0), real(0.0))


def _mv_general(a, v):
    """mv's product step by step: the operands copied where PyTorch's would lie."""
    p = _kind(a)
    if p is None or v.dtype != a.dtype or max(a.shape) >= 2**31:
        return None
    m = lib()
    if m is None:
        return None
    rows, k = a.shape
    out, out_at = _empty((rows,), a.dtype)
    if rows == 0:
        return out
    if k == 0:
        out[...] = 0
        return out
    (A, a_at), ta, lda = _operand(a)
    V, v_at = _aligned(v)
    threads()
    # column-major: a row-major matrix is its transpose
    FNS[f"cblas_{p}gemv"](
        _COL,
        _NO if ta else _TR,
        *((rows, k) if ta else (k, rows)),
        1.0,
        a_at,
        lda,
        v_at,
        1,
        0.0,
        out_at,
        1,
    )
    return out


def dot(a, b):
    """The dot product of two 1-D float arrays (torch.dot), as a 0-d array, or None."""
    p = _kind(a)
    if p is None or b.dtype != a.dtype or a.size >= 2**31:
        return None
    m = lib()
    if m is None:
        return None
    pa, pb = _aligned(a), _aligned(b)  # (the arrays are held through the call)
    threads()
    r = FNS[f"cblas_{p}dot"](a.size, pa[1], 1, pb[1], 1)
    return np.asarray(r, dtype=a.dtype)


def torch_mv(a, v):
    if a.dtype.char in "fd" and _state["lib"] is not None:
        r = mv(a, v)
        if r is not None:
            return r
    return a @ v


def torch_dot(a, b):
    if a.dtype.char in "fd" and _state["lib"] is not None:
        r = dot(a, b)
        if r is not None:
            return r
    return np.asarray(np.dot(a, b))
