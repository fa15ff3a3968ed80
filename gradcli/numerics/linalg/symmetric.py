"""The symmetric eigenvalue problem and the Cholesky factorisation as PyTorch's CPU build
computes them: LAPACK's divide-and-conquer `?syevd` (`linalg_eigh`: a column-major copy
of the matrix, the workspace sizes LAPACK asks for first, eigenvectors computed only when
a gradient needs them, as PyTorch's `_linalg_eigh(compute_v=...)`: the eigenvalues'
bits depend on it) and `?potrf` (`linalg_cholesky_ex`, lower or upper), through MKL's
LAPACK when the `mkl` package is there (numerics/mkl.py); NumPy's LAPACK otherwise (the
same algorithms, another build: the last bits may differ)."""

from __future__ import annotations

import ctypes

import numpy as np

from .. import mkl

_INT = ctypes.c_int
_P = ctypes.c_void_p
_FNS: dict = {}


def _fn(name, pointers, lengths):
    """MKL's LAPACK function `name` taking `pointers` pointers then `lengths` hidden
    string lengths, or None."""
    lib = mkl.lib()
    if lib is None:
        return None
    mkl.threads()  # (on PyTorch's threads: LAPACK shares its work)
    f = _FNS.get(name)
    if f is None:
        f = _FNS[name] = lib[name]
        f.argtypes = [_P] * pointers + [ctypes.c_size_t] * lengths
        f.restype = None
    return f


def _ref(v):
    return ctypes.byref(_INT(v)) if isinstance(v, int) else ctypes.byref(v)


def _char(c):
    return ctypes.c_char_p(c.encode())  # (a char* as a void*: ctypes passes its address)


def eigh(a, uplo="L", vectors=True):
    """(eigenvalues ascending, eigenvectors as columns or None) of the symmetric n x n
    float matrix a, reading its `uplo` triangle."""
    n = a.shape[0]
    p = "s" if a.dtype == np.float32 else "d"
    f = _fn(f"{p}syevd_", 11, 2)
    if f is None or n == 0:
        w, v = np.linalg.eigh(a.astype(np.float64), UPLO=uplo)
        return w.astype(a.dtype), (v.astype(a.dtype) if vectors else None)
    m = np.array(a, order="F", copy=True)
    w = np.zeros(n, a.dtype)
    info = _INT(0)
    jobz = "V" if vectors else "N"
    wk, iwk = np.zeros(1, a.dtype), np.zeros(1, np.intc)
    args = (_char(jobz), _char(uplo), _ref(n), m.ctypes.data, _ref(max(n, 1)), w.ctypes.data)
    f(*args, wk.ctypes.data, _ref(-1), iwk.ctypes.data, _ref(-1), ctypes.byref(info), 1, 1)
    lwork, liwork = max(1, int(wk[0])), max(1, int(iwk[0]))
    work, iwork = np.zeros(lwork, a.dtype), np.zeros(liwork, np.intc)
    f(
        *args,
        work.ctypes.data,
        _ref(lwork),
        iwork.ctypes.data,
        _ref(liwork),
        ctypes.byref(info),
        1,
        1,
    )
    return w, (m if vectors else None)  # (column-major, as PyTorch keeps them)


def cholesky(a, upper=False):
    """(the Cholesky factor of the n x n float matrix a, info: 0, or the order of the first
    leading minor that is not positive-definite)."""
    n = a.shape[0]
    p = "s" if a.dtype == np.float32 else "d"
    f = _fn(f"{p}potrf_", 5, 1)
    uplo = "U" if upper else "L"
    if f is None or n == 0:
        try:
            L = np.linalg.cholesky(a.astype(np.float64)).astype(a.dtype)
        except np.linalg.LinAlgError:
            return None, _first_bad(a)
        return (L.T.copy() if upper else L), 0
    m = np.array(a, order="F", copy=True)
    info = _INT(0)
    f(_char(uplo), _ref(n), m.ctypes.data, _ref(max(n, 1)), ctypes.byref(info), 1)
    out = np.triu(m) if upper else np.tril(m)
    return np.ascontiguousarray(out), info.value


def _first_bad(a):
    """The order of the first leading minor of a that is not positive-definite."""
    for k in range(1, a.shape[0] + 1):
        try:
            np.linalg.cholesky(a[:k, :k].astype(np.float64))
        except np.linalg.LinAlgError:
            return k
    return 0


def solve_triangular(a, b, upper, left):
    """X with a X = b (left) or X a = b, a triangular (n x n), as torch's
    linalg_solve_triangular computes it: BLAS's ?trsm on the result in column-major
    order, a read in its own layout (a row-major a as the transpose of a column-major
    one, its triangle the other)."""
    p = "s" if a.dtype == np.float32 else "d"
    f = _fn(f"{p}trsm_", 11, 4)
    if f is None:
        # (NumPy's general solve: another order of operations)
        return np.linalg.solve(a, b) if left else np.linalg.solve(a.T, b.T).T
    out = np.array(b, order="F", copy=True)
    m, n = out.shape
    if a.flags.f_contiguous:
        A, trans, uplo = a, "N", upper
    elif a.flags.c_contiguous:
        A, trans, uplo = a.T, "T", not upper
    else:
        A, trans, uplo = np.asfortranarray(a), "N", upper
    alpha = (ctypes.c_float if p == "s" else ctypes.c_double)(1.0)
    k = a.shape[0]
    f(
        _char("L" if left else "R"), _char("U" if uplo else "L"), _char(trans), _char("N"),
        _ref(m), _ref(n), ctypes.byref(alpha), A.ctypes.data, _ref(max(k, 1)),
        out.ctypes.data, _ref(max(m, 1)), 1, 1, 1, 1,
    )  # fmt: skip
    return out
