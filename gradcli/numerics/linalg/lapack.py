"""The matrix inverse and the QR factorisation as PyTorch's CPU build computes them
(the inverse (`linalg_inv_ex`: the identity
solved for with `linalg_solve_ex`, i.e. LAPACK's LU factorisation `?getrf` and solve
`?getrs`), through MKL's LAPACK when the `mkl` package is there (numerics/mkl.py), so the
values are PyTorch's bit for bit; NumPy's `inv` (the same algorithm, another LAPACK,
so the last bits may differ) otherwise.  The reduced QR factorisation is LAPACK's
Householder `?geqrf` then `?orgqr` on a column-major copy, each with the workspace size
LAPACK asks for first, as `linalg_qr` runs them.

Each matrix is copied to column-major, factorised and solved with trans='N' (checked
against torch 2.13 on float32 and float64 matrices of 1 to 70 rows, contiguous or not,
and batches: the same bits).  `info` > 0 (the first zero diagonal
element of U, 1-based) is PyTorch's singular-matrix error; without MKL an unblocked LU
with partial pivoting (LAPACK's ?getf2) finds that element."""

from __future__ import annotations

import ctypes

import numpy as np

from .. import mkl

_FNS: dict = {}
_INT = ctypes.c_int
_P = ctypes.c_void_p


def _lapack():
    """{'d': (getrf, getrs), 's': ...} from MKL, or None."""
    lib = mkl.lib()
    if lib is None:
        return None
    mkl.threads()  # (on PyTorch's threads: LAPACK shares its work)
    if not _FNS:
        for p in "sd":
            getrf, getrs = lib[f"{p}getrf_"], lib[f"{p}getrs_"]
            getrf.argtypes = [_P] * 6
            getrs.argtypes = [_P] * 9 + [ctypes.c_size_t]
            getrf.restype = getrs.restype = None
            _FNS[p] = (getrf, getrs)
    return _FNS


def _ref(v):
    return ctypes.byref(_INT(v))


def _mkl_inverse(fns, a):
    """(X, info) for one n x n matrix, X column-major (None when singular)."""
    getrf, getrs = fns
    n = a.shape[0]
    lu = np.array(a, order="F", copy=True)
    ipiv = np.zeros(max(n, 1), dtype=np.intc)
    info = _INT(0)
    nn = _INT(n)
    getrf(
        ctypes.byref(nn),
        ctypes.byref(nn),
        lu.ctypes.data,
        ctypes.byref(_INT(max(n, 1))),
        ipiv.ctypes.data,
        ctypes.byref(info),
    )
    if info.value > 0:
        return None, info.value
    x = np.asfortranarray(np.eye(n, dtype=a.dtype))
    trans = ctypes.c_char(b"N")
    info2 = _INT(0)
    getrs(
        ctypes.byref(trans),
        ctypes.byref(nn),
        ctypes.byref(nn),
        lu.ctypes.data,
        ctypes.byref(_INT(max(n, 1))),
        ipiv.ctypes.data,
        x.ctypes.data,
        ctypes.byref(_INT(max(n, 1))),
        ctypes.byref(info2),
        1,
    )
    return x, 0


def lu_info(a) -> int:
    """LAPACK's getrf `info` of the square matrix a: 0, or the 1-based index of the first
    zero pivot of an LU factorisation with partial pivoting (getf2's steps)."""
    lu = np.array(a, dtype=np.float64, copy=True)
    n = lu.shape[0]
    info = 0
    for j in range(n):
        p = j + int(np.argmax(np.abs(lu[j:, j])))
        if lu[p, j] != 0:
            if p != j:
                lu[[j, p]] = lu[[p, j]]
            lu[j + 1 :, j] /= lu[j, j]
        elif info == 0:
            info = j + 1
        lu[j + 1 :, j + 1 :] -= np.outer(lu[j + 1 :, j], lu[j, j + 1 :])
    return info


def inverse(a):
    """(inverses, first_bad): a is (..., n, n) float32/float64; the inverses are laid out
    as PyTorch's (each matrix column-major); first_bad None or (batch number, info)."""
    n = a.shape[-1]
    batch = a.shape[:-2]
    mats = a.reshape((int(np.prod(batch)), n, n))
    out = np.empty((mats.shape[0], n, n), dtype=a.dtype)  # each matrix transposed
    fns = _lapack()
    fns = None if fns is None else fns["s" if a.dtype == np.float32 else "d"]
    first_bad = None
    for b, m in enumerate(mats):
        if n == 0:
            break
        if fns is not None:
            x, info = _mkl_inverse(fns, m)
        else:
            info = lu_info(m)
            x = None if info else np.linalg.inv(m)
        if info:
            if first_bad is None:
                first_bad = (b, info)
            continue
        out[b] = x.T
    return np.swapaxes(out.reshape(batch + (n, n)), -1, -2), first_bad


_QR: dict = {}


def _qr_fns(p):
    """MKL's (geqrf, orgqr) for precision p ('s' or 'd'), or None."""
    lib = mkl.lib()
    if lib is None:
        return None
    mkl.threads()  # (on PyTorch's threads: LAPACK shares its work)
    if p not in _QR:
        geqrf, orgqr = lib[f"{p}geqrf_"], lib[f"{p}orgqr_"]
        geqrf.argtypes = [_P] * 8
        orgqr.argtypes = [_P] * 9
        geqrf.restype = orgqr.restype = None
        _QR[p] = (geqrf, orgqr)
    return _QR[p]


def _workspace(call, dtype):
    """Call a LAPACK function twice: a workspace query (lwork -1), then with that size."""
    wk = np.zeros(1, dtype=dtype)
    call(wk, -1)
    lwork = max(1, int(wk[0]))
    call(np.zeros(lwork, dtype=dtype), lwork)


def qr(a):
    """(Q, R) of the reduced QR factorisation of the m x n float matrix a: Q m x k, R
    k x n, k = min(m, n)."""
    m, n = a.shape
    k = min(m, n)
    fns = _qr_fns("s" if a.dtype == np.float32 else "d")
    if fns is None or k == 0:
        q, r = np.linalg.qr(a.astype(np.float64))
        return q.astype(a.dtype), r.astype(a.dtype)
    geqrf, orgqr = fns
    f = np.array(a, order="F", copy=True)
    tau = np.zeros(k, dtype=a.dtype)
    info = _INT(0)
    mm, nn, kk, lda = _INT(m), _INT(n), _INT(k), _INT(max(m, 1))

    def run_geqrf(work, lwork):
        geqrf(
            ctypes.byref(mm), ctypes.byref(nn), f.ctypes.data, ctypes.byref(lda),
            tau.ctypes.data, work.ctypes.data, _ref(lwork), ctypes.byref(info),
        )  # fmt: skip

    _workspace(run_geqrf, a.dtype)
    r = np.triu(f[:k, :])
    q = np.array(f[:, :k], order="F", copy=True)

    def run_orgqr(work, lwork):
        orgqr(
            ctypes.byref(mm), ctypes.byref(kk), ctypes.byref(kk), q.ctypes.data,
            ctypes.byref(lda), tau.ctypes.data, work.ctypes.data, _ref(lwork),
            ctypes.byref(info),
        )  # fmt: skip

    _workspace(run_orgqr, a.dtype)
    return np.ascontiguousarray(q), r


def _getf2(lu):
    """An unblocked LU with partial pivoting in place on the column-major lu (LAPACK's
    ?getf2 steps): its 1-based pivots (the fallback without MKL)."""
    n = lu.shape[0]
    ipiv = np.arange(1, n + 1, dtype=np.intc)
    for j in range(n):
        p = j + int(np.argmax(np.abs(lu[j:, j])))
        ipiv[j] = p + 1
        if lu[p, j] != 0:
            if p != j:
                lu[[j, p]] = lu[[p, j]]
            lu[j + 1 :, j] /= lu[j, j]
        lu[j + 1 :, j + 1 :] -= np.outer(lu[j + 1 :, j], lu[j, j + 1 :])
    return ipiv


def lu_factor(m):
    """(LU, pivots) of the n x n float matrix m as `linalg_lu_factor_ex` computes them:
    LAPACK's getrf on a column-major copy (LU column-major, pivots 1-based int32)."""
    n = m.shape[0]
    lu = np.array(m, order="F", copy=True)
    fns = _lapack()
    if fns is None or n == 0:
        return lu, _getf2(lu)
    getrf = fns["s" if m.dtype == np.float32 else "d"][0]
    ipiv = np.zeros(max(n, 1), dtype=np.intc)
    nn, info = _INT(n), _INT(0)
    getrf(
        ctypes.byref(nn), ctypes.byref(nn), lu.ctypes.data, ctypes.byref(_INT(max(n, 1))),
        ipiv.ctypes.data, ctypes.byref(info),
    )  # fmt: skip
    return lu, ipiv[:n]


def lu_solve(lu, ipiv, b, transpose):
    """X solving A X = b (A^T X = b with `transpose`) from getrf's (lu, ipiv), as
    `linalg_lu_solve` computes it: LAPACK's getrs on a column-major copy of b."""
    n = lu.shape[0]
    lu = np.asfortranarray(lu)
    x = np.array(b, order="F", copy=True)
    fns = _lapack()
    if fns is None:
        p = np.arange(n)
        for j, piv in enumerate(ipiv):  # the rows getrf swapped, in turn
            p[[j, piv - 1]] = p[[piv - 1, j]]
        low = np.tril(lu, -1) + np.eye(n, dtype=lu.dtype)
        a = np.empty_like(lu)
        a[p] = low @ np.triu(lu)
        return np.linalg.solve(a.T if transpose else a, b).astype(lu.dtype)
    getrs = fns["s" if lu.dtype == np.float32 else "d"][1]
    nn, info = _INT(n), _INT(0)
    getrs(
        ctypes.byref(ctypes.c_char(b"T" if transpose else b"N")), ctypes.byref(nn),
        ctypes.byref(_INT(x.shape[1])), lu.ctypes.data, ctypes.byref(_INT(max(n, 1))),
        ipiv.ctypes.data, x.ctypes.data, ctypes.byref(_INT(max(n, 1))), ctypes.byref(info), 1,
    )  # fmt: skip
    return x
