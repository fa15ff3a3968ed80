"""PyTorch's own numerics for float math and matrix products, through Intel MKL.

PyTorch's CPU build computes, for float32 and float64 tensors,
* `sin cos tan exp log log2 log10 sqrt tanh asin acos atan erf erfc erfinv` with
  MKL's vector math (VML, `vmsSin`/`vmdSin`... in high-accuracy mode,
  ATen/cpu/vml.h) -- not with SLEEF, and not correctly rounded: NumPy's float32
  `sin` differs from torch's in the last bit on 256 of the 2,000 values of
  `linspace(-pi, pi, 2000)`, its `exp` on a third of random values;
* `mm`, `addmm` (`nn.Linear`), `mv` and `dot` with MKL's BLAS (`sgemm` ...), whose
  order of accumulation is its own: NumPy's OpenBLAS differs from it in the last
  bit on most float32 products with more than a few terms.
MKL's code is not published, so these cannot be re-implemented; when the `mkl`
package is installed (the `exact` extra: `pip install gradcli[exact]`, the MKL
release PyTorch 2.13 is built with) gradcli calls the same MKL functions the same
way, and its results equal PyTorch's bit for bit (tests/numerics/test_exact_numerics.py,
checked against goldens recorded from torch).  Without it, NumPy computes them
(within an ulp or so of PyTorch).  GRADCLI_NO_MKL=1 turns it off.

MKL picks its kernels by CPU (AVX2, AVX-512, ...); gradcli keeps it to its AVX2
kernels (MKL_ENABLE_INSTRUCTIONS=AVX2 unless the user set it), as it keeps NumPy
(gradcli/__init__.py) and its own sums and SLEEF paths: PyTorch's results on an AVX2
machine, where the goldens were recorded, on every machine.  The library is loaded on
first use or at a program's `import torch` (`warm`), never at start.
"""

from __future__ import annotations

import ctypes
import functools
import os
import sys

import numpy as np

from .gemm_threads import ALONE as _ALONE, AS_IS as _AS_IS, CHECKED as _CHECKED, plan as _plan
from .parallel import THREADS

_VML_HA = 0x2 | 0x140000 | 0x100  # VML_HA | VML_FTZDAZ_OFF | VML_ERRMODE_IGNORE, as ATen passes
#: gradcli's name -> MKL's VML name, for the functions PyTorch computes with VML
VML = {
    "sin": "Sin",
    "cos": "Cos",
    "tan": "Tan",
    "exp": "Exp",
    "log": "Ln",
    "log2": "Log2",
    "log10": "Log10",
    "sqrt": "Sqrt",
    "tanh": "Tanh",
    "asin": "Asin",
    "acos": "Acos",
    "atan": "Atan",
    "erf": "Erf",
    "erfc": "Erfc",
    "erfinv": "ErfInv",
}

# lib: False: not looked for yet; None: not available.  solo: MKL's calls whose bits are
# the same on one thread made on one; gemm: gemm's two threads computed on one (on_one)
_state = {"lib": False, "solo": False, "gemm": False}
_P, _I, _L = ctypes.c_void_p, ctypes.c_int, ctypes.c_longlong
_NO, _TR = 111, 112  # CblasNoTrans, CblasTrans
_COL = 102  # CblasColMajor
_ALIGN = 64  # PyTorch's CPU allocations are 64-byte aligned


def _candidates():
    import glob  # only when MKL is looked for (start-up time)

    for prefix in dict.fromkeys((sys.prefix, sys.base_prefix, os.environ.get("CONDA_PREFIX", ""))):
        if prefix:
            yield from sorted(glob.glob(os.path.join(prefix, "lib", "libmkl_rt.so*")))
    yield "libmkl_rt.so.2"
    yield "libmkl_rt.so"


def _load():
    if os.environ.get("GRADCLI_NO_MKL", "") not in ("", "0"):
        return None
    # MKL's OpenMP threads otherwise spin for 200 ms after every call (KMP_BLOCKTIME's
    # default), burning a core while gradcli has nothing for them; the threads, and so
    # the results, are the same.  A user's own setting is kept.
    os.environ.setdefault("KMP_BLOCKTIME", "0")
    # PyTorch's kernels as on AVX2 on every machine (gradcli's sums and SLEEF paths are
    # torch's AVX2 ones; its goldens were recorded there): MKL is kept to its AVX2 code
    # on a CPU with AVX-512 too.  A user's own setting is kept.
    os.environ.setdefault("MKL_ENABLE_INSTRUCTIONS", "AVX2")
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        try:
            _declare(lib)
        except AttributeError:
            continue
        FNS["MKL_Set_Num_Threads"](THREADS)  # as PyTorch does (at::set_num_threads)
        # the calls whose bits are the same on one thread run on one; the rules were found
        # for two threads and MKL's AVX2 kernels, and are used there only
        _state["solo"] = THREADS == 2 and os.environ.get("MKL_ENABLE_INSTRUCTIONS") == "AVX2"
        # gemm's sharing between two threads (cut, on_one) was found in the kernels MKL
        # runs on processors it does not dispatch by model (mkl_cbwr_get_auto_branch()
        # answers MKL_CBWR_COMPATIBLE, 2; AMD's), and is used with those only
        _state["gemm"] = _state["solo"] and _auto_branch(lib) == _CBWR_COMPATIBLE
        return lib
    return None


#: the C functions used, by name: filled by _declare from these fixed names only
FNS: dict = {}


def _names():
    for p in "sd":
        for name in VML.values():
            yield f"vm{p}{name}", [_I, _P, _P, _L], None
        real = ctypes.c_float if p == "s" else ctypes.c_double
        yield f"cblas_{p}gemm", [_I, _I, _I, _I, _I, _I, real, _P, _I, _P, _I, real, _P, _I], None
        yield f"cblas_{p}gemv", [_I, _I, _I, _I, real, _P, _I, _P, _I, real, _P, _I], None
        yield f"cblas_{p}dot", [_I, _P, _I, _P, _I], real
        yield f"cblas_{p}gemm_batch", [_I] + [_P] * 13 + [_I, _P], None
        strided = [_I] * 6 + [real, _P, _I, _I, _P, _I, _I, real, _P, _I, _I, _I]
        yield f"cblas_{p}gemm_batch_strided", strided, None
    yield "MKL_Set_Num_Threads", [_I], None
    yield "MKL_Set_Num_Threads_Local", [_I], _I


def _declare(lib):
    """Bind MKL's functions by their fixed names (`lib[name]`); ctypes raises
    AttributeError when one is missing (another library of that name): skipped."""
    fns = {}
    for name, args, res in _names():
        f = lib[name]
        f.argtypes = args
        f.restype = res
        fns[name] = f
    FNS.clear()
    FNS.update(fns)


_CBWR_COMPATIBLE = 2  # MKL_CBWR_COMPATIBLE: the code path of processors not dispatched by model


def _auto_branch(lib):
    """The code path MKL picks for this processor (mkl_cbwr_get_auto_branch), or None."""
    try:
        fn = lib["mkl_cbwr_get_auto_branch"]
    except AttributeError:
        return None
    fn.argtypes = []
    fn.restype = _I
    return fn()


def lib():
    """The loaded MKL runtime, or None (not installed, or turned off)."""
    got = _state["lib"]
    if got is False:
        got = _state["lib"] = _load()
    return got


def available() -> bool:
    return lib() is not None


def warm():
    """MKL loaded, its kernels and threads set up by a product of each dtype, and VML's
    kernels by a first call (9 ms in all, which the first op would otherwise pay)."""
    if _state["lib"] is False and lib() is not None:
        [mm(a, a) for a in (np.ones((8, 8)), np.ones((8, 8), np.float32))]
        unary("sqrt", np.zeros(1))  # (VML's first call loads its kernels)


def _ctypes_address(a):
    return a.ctypes.data


_AT = object.__basicsize__  # PyArrayObject's data pointer follows the object's header
_read = ctypes.c_void_p.from_address


def _address_reader():
    """A function giving the address of an ndarray's data.  `a.ctypes.data` makes a
    Python-level helper object each time (~2.7 us, more than a small product); the
    address is also the `data` field of NumPy's public PyArrayObject struct, right
    after the object header, read here with one ctypes call (~0.2 us).  Checked at
    import on arrays of several kinds against `a.ctypes.data`; where it does not agree
    (another layout), `a.ctypes.data` is used."""
    at = object.__basicsize__  # PyObject_HEAD: PyArrayObject's data follows it
    read = ctypes.c_void_p.from_address

    def address(a):
        return read(id(a) + at).value

    base = np.arange(24.0).reshape(4, 6)
    probes = (
        base,
        base[1:, 2:],
        base.T,
        np.empty(0),
        np.float32(1).reshape(1)[0:1],
        np.zeros((3, 5), np.float32)[::2],
    )
    if all(address(x) == x.ctypes.data for x in probes):
        return address
    return _ctypes_address


address = _address_reader()


def _aligned(a):
    """(a as a C-contiguous array placed as PyTorch would hold it, its address): MKL's
    BLAS results depend on where the data lies (it peels to alignment), so the data
    starts at the same offset from a 64-byte boundary as in PyTorch, whose storages
    are 64-byte aligned: the view's byte offset in the array it views (its storage),
    0 for a fresh array (a itself if it already lies so)."""
    at = address(a)
    root = a.base
    if root is None or not isinstance(root, np.ndarray):
        want = 0
    else:
        while isinstance(root.base, np.ndarray):
            root = root.base
        # a buffer of _empty's holds a storage from its first 64-byte boundary on (an
        # array it made lies where PyTorch's would, a view of it too)
        want = at % _ALIGN if root.dtype is _STORE else (at - address(root)) % _ALIGN
    if at % _ALIGN == want and a.flags.c_contiguous:
        return a, at
    return _copy_aligned(a, want)


def _empty(shape, dtype, skew=0):
    """(an uninitialised array whose data starts `skew` bytes after a 64-byte
    boundary, its address)."""
    if not isinstance(dtype, np.dtype):
        dtype = np.dtype(dtype)
    size = dtype.itemsize
    for n in shape:
        size *= n
    buf = _bytes(size + 2 * _ALIGN, _U8)
    at = address(buf)
    off = (skew - at) % _ALIGN
    return np.ndarray(shape, dtype, buf, off), at + off


#: the bytes of _empty's buffers: a dtype of its own, by which _aligned knows them
_STORE = np.dtype(np.uint8, metadata={"storage": "64-byte aligned"})
_bytes, _U8 = np.empty, _STORE


def _copy_aligned(a, skew=0):
    out, at = _empty(a.shape, a.dtype, skew)
    out[...] = a
    return out, at


def _kind(a):
    return _KINDS.get(a.dtype.char)


_KINDS = {"f": "s", "d": "d"}  # NumPy's type character: BLAS's and VML's prefix
_GEMM = {p: f"cblas_{p}gemm" for p in "sd"}


def unary(name, x):
    """PyTorch's `name` of a float32/float64 array via VML, or None when MKL cannot
    (another dtype, no MKL, too large for a 32-bit count)."""
    if type(x) is np.ndarray and not x.ndim:
        one = _ONE.get((x.dtype, name))
        if one is not None:
            return one(x)
    x = np.asarray(x)
    p = _kind(x)
    if p is None or x.size >= 2**31:
        return None
    fn = _VML_FNS.get((p, name))
    if fn is None:
        if lib() is None:
            return None
        fn = _VML_FNS[p, name] = FNS[f"vm{p}{VML[name]}"]
    n = x.size
    if not x.ndim and x.dtype.isnative:
        _ONE[x.dtype, name] = one = _one_value(p, VML[name], x.dtype)
        return one(x)
    if n <= _SMALL:
        # a few values (a 0-d tensor in a scalar loop): through two fixed buffers whose
        # addresses are known, since asking for an array's address (mkl.address)
        # costs more than the call itself
        buf = _small.get(p)
        if buf is None:
            buf = _small[p] = _small_buffers(x.dtype)
        src, dst, src_at, dst_at = buf
        src[:n] = x.reshape(-1)
        fn(n, src_at, dst_at, _VML_HA)
        return dst[:n].reshape(x.shape).copy()
    if not x.flags.c_contiguous:
        x = np.ascontiguousarray(x)
    # (VML's results do not depend on alignment: checked on unaligned data)
    out = np.empty(x.shape, x.dtype)
    if n >= _VML_THREADED and _state["solo"]:
        # the same bits on one thread (each value is computed alone), without waking
        # MKL's second thread, which VML takes from about 1,500 values
        _alone(fn, (n, address(x), address(out), _VML_HA))
    else:
        if n >= _VML_THREADED:
            threads()
        fn(n, address(x), address(out), _VML_HA)
    return out


def vml_function(name, dtype):
    """(the address of VML's `name` for float32/float64 values, void fn(int n, const T* x,
    T* out, int64 mode), and the mode ATen passes it) for a compiled loop to call (VML
    computes each value alone: the bits `unary` gives; `vml_threads` first), or None
    without MKL."""
    p = _KINDS.get(dtype.char)
    if p is None or lib() is None:
        return None
    fn = FNS.get(f"vm{p}{VML[name]}")
    return None if fn is None else (ctypes.cast(fn, ctypes.c_void_p).value, _VML_HA)


_VML_FNS: dict = {}
_SMALL = 16  # up to this many values go through the fixed buffers
_VML_THREADED = 1024  # VML runs fewer values on one thread whatever the setting
_small: dict = {}


#: (dtype, name) -> VML's function of one 0-d array (_one_value)
_ONE: dict = {}


def _one_value(p, vml_name, dtype):
    """VML's `vm{p}{vml_name}` of a 0-d array (a 0-d tensor in a scalar loop: the
    network of 0-d parameters calls tanh some 40 times per step) with nothing made per
    call but the result: its operand copied (bit for bit) into a fixed 0-d buffer, one
    ctypes call whose arguments are ctypes objects made once (no conversion of
    argument types), the fixed result buffer copied out: 1.9 us a call where `unary`'s
    steps for a few values took 4.8."""
    src, dst = np.empty(1, dtype), np.empty(1, dtype)
    fn = lib()[f"vm{p}{vml_name}"]  # (a function object of its own: no argtypes)
    fn.restype = None
    call = functools.partial(
        fn,
        ctypes.c_int(1),
        ctypes.c_void_p(address(src)),
        ctypes.c_void_p(address(dst)),
        ctypes.c_longlong(_VML_HA),
    )
    src, dst = src.reshape(()), dst.reshape(())
    copy = dst.copy

    def one(x):
        src[()] = x
        call()
        return copy()

    one.buffers = (src, dst)  # (held: the call writes there)
    return one


def _small_buffers(dtype):
    src, dst = np.empty(_SMALL, dtype), np.empty(_SMALL, dtype)
    return src, dst, address(src), address(dst)


def _operand(a):
    """((array as passed, its address), transposed?, leading dimension) for a 2-D operand used as
    PyTorch passes it: a transposed view of a contiguous matrix is passed as
    that matrix with the transpose flag, not copied."""
    flags = a.flags
    if flags.c_contiguous:
        return _aligned(a), False, max(1, a.shape[1])
    if flags.f_contiguous:
        return _aligned(a.T), True, max(1, a.shape[0])  # (its address is a's)
    lies = _with_leading(a)
    if lies is not None:
        return lies
    return _copy_aligned(a), False, max(1, a.shape[1])  # PyTorch copies it too


def _with_leading(a):
    """_operand's answer for a view whose rows (or columns) are each contiguous, a
    leading dimension apart (`x[::2]`, `x[:, :3]`, a transposed one): passed where it
    lies, as addmm_impl_cpu_ and addmv pass it (rows first: strides (>= cols, 1), then
    (1, >= rows)); None when it is not such a view or does not lie as PyTorch's storage
    would."""
    item = a.itemsize
    s0, s1 = a.strides
    p, q = a.shape
    if s0 < 0 or s1 < 0 or s0 % item or s1 % item:
        return None
    if s1 == item and s0 >= item * max(1, q):
        arr, tr, ld = a, False, s0 // item
    elif s0 == item and s1 >= item * max(1, p):
        arr, tr, ld = a.T, True, s1 // item
    else:
        return None
    at = address(a)
    return ((arr, at), tr, ld) if _placed(a, at) else None


def _gemm_as_two(p, args, c=None):
    """gemm(*args) (cblas's arguments, column-major) with the bits MKL gives it on two
    threads, computed on this one where gradcli knows how (_plan); c: the (n, m) result
    array, when at hand."""
    gemm = FNS[_GEMM[p]]
    plan = _plan(p, *args[3:6], args[1] == _TR, args[11]) if _state["gemm"] else _AS_IS
    if plan is _AS_IS:
        threads()
        gemm(*args)
    elif plan is _ALONE:
        _alone(gemm, args)
    else:
        shared(p, args, plan, c)


_DTYPE = {"s": np.dtype(np.float32), "d": np.dtype(np.float64)}


class _Memory:
    """Memory at an address, as NumPy's array interface describes it."""

    __slots__ = ("__array_interface__",)

    def __init__(self, at, dtype, shape, strides):
        self.__array_interface__ = {
            "data": (at, False),
            "shape": shape,
            "strides": strides,
            "typestr": dtype.str,
            "version": 3,
        }


def _at(at, dtype, shape, strides):
    """A writable ndarray over the memory at address `at` (an operand or the result of a
    call being made)."""
    return np.asarray(_Memory(at, dtype, shape, strides))


def shared(p, args, at, c=None):
    """gemm(*args) (cblas's arguments, column-major) as MKL's two threads compute it when
    they share it at `at` (cut), on this thread: C scaled by beta first (zeroed for beta
    0), as MKL's threads scale their parts before computing, then each thread's part by
    a gemm call on one thread with beta 1 and the pointers and leading dimensions that
    thread passes its kernels: the same kernels, the same bits.  c: the (n, m) result
    array, when at hand."""
    _, t1, t2, m, n = args[:5]
    beta, c_at, ldc = args[11:]
    dtype = _DTYPE[p]
    size = dtype.itemsize
    if beta != 1:
        if c is None:
            c = _at(c_at, dtype, (n, m), (ldc * size, size))
        if beta == 0:
            c[...] = 0
        else:
            c *= dtype.type(beta)
    gemm = FNS[_GEMM[p]]
    one_thread()
    for width, part in thread_parts(args, at, size):
        if width == 1:
            _one_wide(p, at[0], t1, t2, part, ldc)
        else:
            gemm(_COL, t1, t2, *part, ldc)


def thread_parts(args, at, size):
    """The parts of gemm(*args) (cblas's arguments, column-major) that MKL's two threads
    compute when they share it at `at` = (axis, cut): for each thread with work, its width
    (C's columns for axis 1, its rows for axis 0) and the arguments m, n, k, alpha, a, lda,
    b, ldb, beta 1, c of its own gemm call (the pointers moved to its block; `size`: the
    dtype's bytes)."""
    _, t1, t2, m, n, k, alpha, a, lda, b, ldb, _, c_at, ldc = args
    axis, cut_at = at
    end = n if axis else m
    for start, width in ((0, min(cut_at, end)), (cut_at, end - cut_at)):
        if width <= 0:
            continue
        if axis:  # C's columns and op(B)'s from `start`
            b_part = b + start * size * (1 if t2 == _TR else ldb)
            yield width, (m, width, k, alpha, a, lda, b_part, ldb, 1.0, c_at + start * ldc * size)
        else:  # C's rows and op(A)'s
            a_part = a + start * size * (lda if t1 == _TR else 1)
            yield width, (width, n, k, alpha, a_part, lda, b, ldb, 1.0, c_at + start * size)


def _one_wide(p, axis, t1, t2, part, ldc):
    """A thread's part of one column (axis 1) or one row (axis 0) of C: the thread
    computes it with gemm's kernels, but a gemm call of one column or row is a
    matrix-vector product (other kernels, other bits), so it is computed as the first of
    two, in copies of the operand's vector and of C's placed as they lie (MKL's results
    depend on where data lies), the second of zeros."""
    m, n, k, alpha, a, lda, b, ldb, _, c_at = part
    dtype = _DTYPE[p]
    if axis:  # op(B)'s column: a row of the stored (n x k) B when transposed
        _, _, b = _pair(b, dtype, k, t2 != _TR, ldb)
        vec, first, c_at = _pair(c_at, dtype, m, True, ldc)
        n = 2
    else:  # op(A)'s row: a column of the stored (k x m) A when transposed
        _, _, a = _pair(a, dtype, k, t1 == _TR, lda)
        vec, first, c_at = _pair(c_at, dtype, n, False, ldc)
        m = 2
    FNS[_GEMM[p]](_COL, t1, t2, m, n, k, alpha, a, lda, b, ldb, 1.0, c_at, ldc)
    vec[...] = first


def _pair(at, dtype, count, along, ld):
    """(the vector, its copy, the copy's address): the `count` values from address `at`
    (one after another when `along`, else `ld` apart) and a copy of them at the same
    offset from a 64-byte boundary, with zeros where a second vector would follow (`ld`
    further when `along`, else the next element)."""
    size = dtype.itemsize
    vec = _at(at, dtype, (count,), (size,) if along else (ld * size,))
    copy, copy_at = _empty((2, ld) if along else (count, ld), dtype, at % _ALIGN)
    copy[...] = 0
    first = copy[0, :count] if along else copy[:, 0]
    first[...] = vec
    return vec, first, copy_at


def mm(a, b, c=None, alpha=1.0, beta=1.0, by_rows=False):
    """a @ b (+ c, broadcast to the product, added by gemm as torch.addmm does; with
    torch.addmm's `alpha * (a @ b) + beta * c`) for 2-D float arrays of one dtype, as
    PyTorch computes it; None when MKL cannot.  by_rows: always as the row-major
    C^T = B^T A^T (torch.bmm's one item), else a one-column product as torch.mm's.
    By the plan (`_make_plan`) kept for the operands' shapes, strides and dtypes: their
    addresses, a fresh result, one gemm call; `_mm_general` where it copies an operand."""
    added = -1 if c is None else beta == 1  # (beta 1 or not: how the threads compute it)
    dtype = a.dtype
    if dtype is b.dtype and (dtype is _F64 or dtype is _F32):  # (plan_key's, inlined)
        key = (a.shape, a.strides, b.shape, b.strides, added, by_rows, dtype is _F64)
    else:
        key = (a.shape, a.strides, dtype, b.shape, b.strides, b.dtype, added, by_rows)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _make_plan(a, b, c is not None, beta, by_rows)
        if plan is None:  # (not kept: MKL may be there later)
            return None
        if len(_PLANS) >= _MAX_PLANS:
            _PLANS.clear()
        _PLANS[key] = plan
    if plan is _GENERAL or _state["lib"] is None:
        return _mm_general(a, b, c, alpha, beta, by_rows)
    a_first, shape, p, thread, c_args, ints, parts, raw = plan
    a_ptr = _read(id(a) + _AT)  # (c_void_p's: passed to gemm as they are)
    b_ptr = _read(id(b) + _AT)
    # (a view `x.T` of an array of its own: that array's place, read here; of one of
    # _empty's buffers, as a product is: where PyTorch's storage would be, as _placed says)
    ra = a.base
    if ra is None:
        wrong = a_ptr.value & _MISPLACED
    elif type(ra) is np.ndarray and ra.base is None:
        wrong = ra.dtype is not _STORE and _read(id(ra) + _AT).value & _MISPLACED
    else:
        wrong = not _placed(a, a_ptr.value)
    rb = b.base
    if wrong:
        pass
    elif rb is None:
        wrong = b_ptr.value & _MISPLACED
    elif type(rb) is np.ndarray and rb.base is None:
        wrong = rb.dtype is not _STORE and _read(id(rb) + _AT).value & _MISPLACED
    else:
        wrong = not _placed(b, b_ptr.value)
    if wrong:
        return _mm_general(a, b, c, alpha, beta, by_rows)
    out = np.empty(shape, dtype)
    out_ptr = _read(id(out) + _AT)
    if out_ptr.value & _MISPLACED:  # (NumPy's arrays are not placed as PyTorch's storages)
        out, out_ptr = _empty(shape, dtype)
    if c is None:
        beta = 0.0
    else:
        out[...] = c
    if not a_first:
        a_ptr, b_ptr = b_ptr, a_ptr
    if thread is _AS_IS or thread is _ALONE or not _state["gemm"]:
        # gemm's arguments made once as ctypes objects, passed to a function object
        # without argument types (`raw`): ctypes converts nothing at the call
        col, t1, t2, m, n, k, ld1, ld2, one, zero = c_args
        if alpha != 1:
            alpha = _REAL[p](alpha)
        else:
            alpha = one
        beta = zero if c is None else one if beta == 1 else _REAL[p](beta)
        if type(out_ptr) is int:
            out_ptr = _P(out_ptr)
        if thread is _ALONE and _state["gemm"]:
            if _LOCAL[0] is None:
                one_thread()
        elif _LOCAL[0] is not None:
            threads()
        raw(col, t1, t2, m, n, k, alpha, a_ptr, ld1, b_ptr, ld2, beta, out_ptr, m)
    else:
        out_at = out_ptr if isinstance(out_ptr, int) else out_ptr.value
        if parts is not None and c is None and alpha == 1:  # (shared's steps, made once)
            out.fill(0)  # (gemm's beta 0: C zeroed first, each part then added, beta 1)
            if _LOCAL[0] is None:
                one_thread()
            a_at, b_at, one = a_ptr.value, b_ptr.value, c_args[-2]
            for head, a_off, ld1, b_off, ld2, c_off, ldc in parts:  # (`raw`: c_void_p's)
                a_part, b_part, c_part = _P(a_at + a_off), _P(b_at + b_off), _P(out_at + c_off)
                raw(*head, one, a_part, ld1, b_part, ld2, one, c_part, ldc)
            return out
        t1, t2, m, n, k, ld1, ld2 = ints
        args = (_COL, t1, t2, m, n, k, alpha, a_ptr.value, ld1, b_ptr.value, ld2, beta, out_at, m)
        shared(p, args, thread, out)
    return out


_ONE_THREAD = ctypes.c_int(1)
_REAL = {"s": ctypes.c_float, "d": ctypes.c_double}  # BLAS's prefix: its C real type
_PLANS: dict = {}
_F64, _F32 = np.dtype(np.float64), np.dtype(np.float32)
_MAX_PLANS = 1024  # plans kept (a program's products have few signatures)
_GENERAL = "general"  # the plan of a product _mm_general makes
_MISPLACED = _ALIGN - 1  # an address's bits off a 64-byte boundary


def plan_key(a, b, added, by_rows):
    """The key of mm's plan for operands a and b (`added`: -1 without c, else whether
    beta is 1).  NumPy's own float64 and float32 descriptors are named by identity:
    hashing a dtype costs more than the rest of the key (about 1,500 of a small
    product's 34,000 instructions); a key of another length matches no other kind."""
    dtype = a.dtype
    if dtype is b.dtype and (dtype is _F64 or dtype is _F32):
        return (a.shape, a.strides, b.shape, b.strides, added, by_rows, dtype is _F64)
    return (a.shape, a.strides, dtype, b.shape, b.strides, b.dtype, added, by_rows)


def _placed(x, at):
    """Whether a view x (at address `at`) lies as PyTorch's storage would hold it (as
    `_aligned` sees it): its storage (the array it views) on a 64-byte boundary, or one
    of `_empty`'s buffers."""
    root = x.base
    if not isinstance(root, np.ndarray):
        return not at & _MISPLACED
    while isinstance(root.base, np.ndarray):
        root = root.base
    return root.dtype is _STORE or not address(root) & _MISPLACED


def _make_plan(a, b, has_c, beta, by_rows):
    """`mm`'s plan for operands of these shapes, strides and dtypes (a c or not, beta 1
    or not, by_rows): (a first in gemm's arguments?, gemm's transposes, m, n, k, its
    first and second operand's leading dimensions, the result's shape, BLAS's prefix, how
    the two threads are computed), as `_mm_general` decides for operands placed as
    PyTorch's; None when MKL cannot; _GENERAL where `_mm_general` copies (or is empty)."""
    dtype = a.dtype
    p = _KINDS.get(dtype.char)
    if p is None or b.dtype != dtype:
        return None
    rows, k = a.shape
    cols = b.shape[1]
    if max(rows, k, b.shape[0], cols) >= 2**31 or lib() is None:
        return None
    if rows == 0 or cols == 0 or k == 0 or address is _ctypes_address:
        return _GENERAL
    if cols == 1 and not by_rows:  # _one_column's decisions
        a_ld, ta = _strides_layout(a)
        b_ld, tb = _strides_layout(b)
        if a_ld is None or b_ld is None:
            return _GENERAL
        a_ld = (k if rows == 1 else a_ld) if ta else rows if k == 1 else a_ld
        b_ld = (1 if k == 1 else b_ld) if tb else k
        t1, t2, m, n = (_TR if ta else _NO), (_TR if tb else _NO), rows, 1
        a_first, lds = True, (a_ld, b_ld)
    else:  # _rows_args's: the column-major C^T = B^T A^T
        a_ld, ta = _operand_layout(a)
        b_ld, tb = _operand_layout(b)
        if a_ld is None or b_ld is None:
            return _GENERAL
        t1, t2, m, n = (_TR if tb else _NO), (_TR if ta else _NO), cols, rows
        a_first, lds = False, (b_ld, a_ld)
    # (ldc is m in both: max(1, cols) and rows, neither 0 here)
    thread = _plan(p, m, n, k, t1 == _TR, beta if has_c else 0.0)
    if thread is _AS_IS and max(m, n, k) <= _CHECKED:  # one row or column: never shared
        thread = _ALONE
    real = ctypes.c_float if p == "s" else ctypes.c_double
    ints = (t1, t2, m, n, k) + lds
    c_args = tuple(map(_I, (_COL,) + ints)) + (real(1.0), real(0.0))
    parts = _shared_parts(p, thread, ints) if type(thread) is tuple else None
    return a_first, (rows, cols), p, thread, c_args, ints, parts, raw_function(_GEMM[p])


def raw_function(name):
    """MKL's function `name` as a function object of its own without argument types, for
    calls whose every argument is a ctypes object of the C type it takes (numbers made
    once with a plan, addresses as c_void_p): ctypes then converts no argument through
    `from_param` (a small gemm call: 16,900 -> 14,100 instructions)."""
    fn = _RAW.get(name)
    if fn is None:
        fn = _RAW[name] = lib()[name]
        fn.restype = None
    return fn


_RAW: dict = {}


def _shared_parts(p, at, ints):
    """`shared`'s gemm calls for a product without c and with alpha 1, as arguments made
    once: per thread's part, (gemm's first six arguments, then a's offset in bytes and
    leading dimension, b's, c's), or None where a part is one wide (`_one_wide`)."""
    t1, t2, m, n, k, lda, ldb = ints
    axis, cut_at = at
    size = _DTYPE[p].itemsize
    end = n if axis else m
    parts = []
    for start, width in ((0, min(cut_at, end)), (cut_at, end - cut_at)):
        if width <= 0:
            continue
        if width == 1:
            return None
        if axis:  # C's columns and op(B)'s from `start`
            shape, offs = (
                (m, width),
                (0, start * size * (1 if t2 == _TR else ldb), start * m * size),
            )
        else:  # C's rows and op(A)'s
            shape, offs = (width, n), (start * size * (lda if t1 == _TR else 1), 0, start * size)
        head = tuple(map(_I, (_COL, t1, t2) + shape + (k,)))
        parts.append((head, offs[0], _I(lda), offs[1], _I(ldb), offs[2], _I(m)))
    return tuple(parts)


def _operand_layout(x):
    """(leading dimension, transposed?) of `_operand`'s for x, or (None, None) where it
    copies x (or `_aligned` would, whatever its place)."""
    flags = x.flags
    if flags.c_contiguous:
        return max(1, x.shape[1]), False
    if flags.f_contiguous:
        return max(1, x.shape[0]), True
    return None, None


def _strides_layout(x):
    """(leading dimension, transposed?) of `_by_strides`'s for x, or (None, None) where
    it copies x (or `_aligned` would, whatever its place)."""
    p, q = x.shape
    s0, s1 = x.strides[0] // x.itemsize, x.strides[1] // x.itemsize
    if s0 == 1 and s1 >= max(1, p):
        if not x.T.flags.c_contiguous:
            return None, None
        return x.T.strides[0] // x.itemsize if q > 1 else s1, False
    if s1 == 1 and s0 >= max(1, q):
        if not x.flags.c_contiguous:
            return None, None
        return x.strides[0] // x.itemsize if p > 1 else s0, True
    return None, None


def _mm_general(a, b, c=None, alpha=1.0, beta=1.0, by_rows=False):
    """mm's product (or None) made step by step: the operands copied where PyTorch's
    would lie otherwise, empty products."""
    dtype = a.dtype
    p = _KINDS.get(dtype.char)
    if p is None or b.dtype != dtype:
        return None
    rows, k = a.shape
    cols = b.shape[1]
    if max(rows, k, b.shape[0], cols) >= 2**31:
        return None
    if lib() is None:
        return None
    out, out_at = _empty((rows, cols), a.dtype)
    if c is None:
        beta = 0.0
        if rows * cols and not k:
            out[...] = 0
    else:
        out[...] = c
        if not k and beta != 1:  # addmm_impl_cpu_: zero_() or mul_(beta), no gemm
            out *= a.dtype.type(beta)
            if beta == 0:
                out[...] = 0
    if rows == 0 or cols == 0 or k == 0:
        return out
    # (A and B hold the operands, copies among them, through the call)
    if cols == 1 and not by_rows:
        A, B, args = _one_column(a, b, rows, k, alpha, beta, out_at)
    else:
        A, B, args = _rows_args(a, b, rows, cols, k, alpha, beta, out_at)
    _gemm_as_two(p, args, out)
    return out


def _rows_args(a, b, rows, cols, k, alpha, beta, out_at):
    """(operand arrays, gemm's arguments) for a product of more than one column, whose
    row-major result PyTorch's addmm_impl_cpu_ computes as the column-major C^T = B^T A^T."""
    (A, a_at), ta, lda = _operand(a)
    (B, b_at), tb, ldb = _operand(b)
    return (
        A,
        B,
        (
            _COL,
            _TR if tb else _NO,
            _TR if ta else _NO,
            cols,
            rows,
            k,
            alpha,
            b_at,
            ldb,
            a_at,
            lda,
            beta,
            out_at,
            max(1, cols),
        ),
    )


def _one_column(a, b, rows, k, alpha, beta, out_at):
    """(operand arrays, gemm's arguments) for a product of one column: its result's strides make PyTorch's
    addmm_impl_cpu_ take it as a column-major (rows x 1) matrix C = A B, each operand
    passed by its strides (`_by_strides`), the leading dimensions then set as
    cpublas::gemm's normalize_last_dims sets them (a 1 x 1 product's bits differ from
    the other way round's)."""
    (A, a_at), ta, lda = _by_strides(a)
    (B, b_at), tb, ldb = _by_strides(b)
    if ta:
        lda = k if rows == 1 else lda
    elif k == 1:
        lda = rows
    if tb:
        ldb = 1 if k == 1 else ldb
    else:
        ldb = k
    first, second = (_TR if ta else _NO), (_TR if tb else _NO)
    return A, B, (_COL, first, second, rows, 1, k, alpha, a_at, lda, b_at, ldb, beta, out_at, rows)


def _by_strides(x):
    """((array as passed, its address), transposed?, leading dimension) of a (p, q)
    operand as addmm_impl_cpu_ takes it for a column-major result: column-major when its
    strides are (1, >= p), else row-major when (>= q, 1), else copied row-major."""
    p, q = x.shape
    s0, s1 = x.strides[0] // x.itemsize, x.strides[1] // x.itemsize
    if s0 == 1 and s1 >= max(1, p):
        (arr, at) = _rows_in_place(x.T)
        return (arr, at), False, arr.strides[0] // x.itemsize if q > 1 else s1
    if s1 == 1 and s0 >= max(1, q):
        (arr, at) = _rows_in_place(x)
        return (arr, at), True, arr.strides[0] // x.itemsize if p > 1 else s0
    return _copy_aligned(x), True, max(1, q)


def _rows_in_place(x):
    """(x, its address) for a matrix whose rows are each contiguous, a leading dimension
    apart, where it lies as PyTorch's storage would (PyTorch passes such a view with
    its leading dimension, no copy); else `_aligned`'s."""
    if not x.flags.c_contiguous and x.strides[0] >= 0:
        at = address(x)
        if _placed(x, at):
            return x, at
    return _aligned(x)


def _alone(fn, args):
    """fn(*args) with MKL on one thread (left so: `threads`)."""
    one_thread()
    return fn(*args)


#: [MKL's thread setting for this thread before gradcli set it to one, or None while it is
#: PyTorch's]: a call gradcli computes on one thread leaves it so until a call MKL may share
#: between PyTorch's threads sets it back (`threads`), as setting it (a ctypes call) costs
#: more than a small product outside MKL.  (gradcli calls MKL from one thread.)
_LOCAL: list = [None]


def one_thread():
    """MKL on one thread on this thread, until `threads`."""
    if _LOCAL[0] is None:
        _LOCAL[0] = FNS["MKL_Set_Num_Threads_Local"](_ONE_THREAD)


def vml_threads(n):
    """MKL's threads set as `unary` sets them for a VML call on n values."""
    if n >= _VML_THREADED:
        if _state["solo"]:
            one_thread()
        else:
            threads()


def threads():
    """MKL's threads as PyTorch's again, before a call it may share between them."""
    before = _LOCAL[0]
    if before is not None:
        _LOCAL[0] = None
        FNS["MKL_Set_Num_Threads_Local"](before)


# ------------------------------------------------ with NumPy where MKL does not apply


def unary_fn(name, np_fn):
    """`np_fn` made to compute float32/float64 arrays as PyTorch does (VML)."""

    def fn(x):
        if type(x) is np.ndarray and not x.ndim:  # (unary's first step, taken here)
            one = _ONE.get((x.dtype, name))
            if one is not None and _state["lib"] is not None:
                return one(x)
        if x.dtype.char in "fd" and _state["lib"] is not None:
            r = unary(name, x)
            if r is not None:
                return r
        return np_fn(x)

    fn.__name__ = name
    return fn


def torch_mm(a, b, c=None):
    """a @ b (+ c) for 2-D arrays: MKL's gemm for floats, else NumPy."""
    if a.dtype.char in "fd" and _state["lib"] is not None:
        r = mm(a, b, c)
        if r is not None:
            return r
    return a @ b if c is None else c + a @ b


def torch_addmm(c, a, b, alpha, beta):
    """torch.addmm: beta * c + alpha * (a @ b) (c broadcast) as gemm computes it for
    floats (c not read when beta is 0), else with NumPy."""
    if a.dtype.char in "fd" and _state["lib"] is not None:
        r = mm(a, b, c, alpha, beta)
        if r is not None:
            return r
    p = a @ b
    if alpha != 1:
        p = p * alpha
    if beta == 0:
        return np.broadcast_to(p, p.shape).astype(a.dtype)
    return (c * beta + p if beta != 1 else c + p).astype(a.dtype, copy=False)


def col_major(x):
    """PyTorch's test for a column-major matrix (strides (1, rows), in elements)."""
    s = x.itemsize
    return x.strides[0] == s and x.strides[1] == x.shape[0] * s


def mm_grads(g, a, b, need_a, need_b, F):
    """The gradients of a @ b as PyTorch's mm_mat1_backward / mm_mat2_backward
    compute them: the product is taken in the layout of the operand it is for."""
    ga = gb = None
    if not F.tensor_mode:  # arrays: the same products, without F's layers
        fast = _state["lib"] and g.dtype.char in "fd"  # (then mm, else torch_mm's way)
        if need_a:
            s = a.strides
            back = s[0] == a.itemsize and s[1] == a.shape[0] * s[0]  # (col_major)
            x, y = (b, g.T) if back else (g, b.T)
            r = mm(x, y) if fast else None
            ga = torch_mm(x, y) if r is None else r
            if back:
                ga = ga.T
        if need_b:
            s = b.strides
            back = s[0] == b.itemsize and s[1] == b.shape[0] * s[0]
            x, y = (g.T, a) if back else (a.T, g)
            r = mm(x, y) if fast else None
            gb = torch_mm(x, y) if r is None else r
            if back:
                gb = gb.T
        return ga, gb
    mmf, t = F.mm, F.transpose
    if need_a:
        ga = t(mmf(b, t(g))) if col_major(_arr(a)) else mmf(g, t(b))
    if need_b:
        gb = t(mmf(t(g), a)) if col_major(_arr(b)) else mmf(t(a), g)
    return ga, gb


def _arr(x):
    return x if isinstance(x, np.ndarray) else x.data


def aligned(a):
    """A C-contiguous copy of a whose data starts on a 64-byte boundary (a fresh
    PyTorch buffer)."""
    return _copy_aligned(a)[0]


def aligned_empty(shape, dtype):
    return _empty(shape, dtype)[0]
