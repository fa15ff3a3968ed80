"""NumPy's arrays on 64-byte boundaries, as PyTorch's storages lie: a NumPy memory handler
(NEP 49) whose four functions are compiled with the other native loops (native.py).

MKL's products and vector functions give bits that depend on where their operands lie
(they peel to alignment), so `mkl.py` hands MKL each operand where a PyTorch storage would
hold it: at the same offset from a 64-byte boundary.  glibc's malloc gives 16-byte
boundaries, so without this handler nearly every operand is copied before every product:
a 200 x 200 matrix in every row of a Hessian, a data set in every training step (about a
tenth of such loops' time).  With it every array NumPy makes starts on a 64-byte boundary
and the copies are only of views whose offset differs from their storage's.

The functions take the handler's context, a table of libc's `aligned_alloc`, `free`,
`memcpy`, `memset` and `malloc_usable_size` (their addresses from ctypes), and call them
through it: the object code needs no relocation against an outside symbol.  `realloc`
allocates anew and copies (glibc's realloc keeps no alignment).  Arrays made before the
handler is set keep the handler that made them (NumPy frees each with its own).

Only the arrays' placement changes: NumPy's results do not depend on it, and MKL's are
those of the copies `mkl.py` made before (the goldens check both).  Without llvmlite (or
with GRADCLI_NO_NATIVE=1) nothing is set and the copies are made as before."""

from __future__ import annotations

import ctypes

#: the boundary, PyTorch's CPU allocator's (c10's gAlignment)
ALIGN = 64
#: the functions compiled (native.py adds them to its module and its cache key)
NAMES = ("gc_malloc", "gc_calloc", "gc_realloc", "gc_free")
#: index of PyDataMem_SetHandler in NumPy's C-API table (numpy/__multiarray_api.h, the
#: same from NumPy 1.22 on), checked against PyDataMem_GetHandler's answer before use
_SET_HANDLER, _GET_HANDLER = 304, 305
_NAME = b"gradcli 64-byte aligned"

_state: dict = {"handler": None}


def ir_functions(ir, mod):
    """Add NAMES to the LLVM module: NumPy's allocator signatures, context first."""
    i8, i64 = ir.IntType(8), ir.IntType(64)
    p8 = i8.as_pointer()
    ctx_t = i64.as_pointer()
    alloc_t = ir.FunctionType(p8, [i64, i64]).as_pointer()
    free_t = ir.FunctionType(ir.VoidType(), [p8]).as_pointer()
    copy_t = ir.FunctionType(p8, [p8, p8, i64]).as_pointer()
    set_t = ir.FunctionType(p8, [p8, ir.IntType(32), i64]).as_pointer()
    size_t = ir.FunctionType(i64, [p8]).as_pointer()
    kinds = (alloc_t, free_t, copy_t, set_t, size_t)

    def table(b, ctx):
        return [
            b.inttoptr(b.load(b.gep(ctx, [ir.Constant(i64, k)])), t) for k, t in enumerate(kinds)
        ]

    def aligned(b, fns, size):  # aligned_alloc(64, max(size, 1))
        size = b.select(b.icmp_unsigned("==", size, ir.Constant(i64, 0)), ir.Constant(i64, 1), size)
        return b.call(fns[0], [ir.Constant(i64, ALIGN), size])

    # void *malloc(ctx, size)
    fn = ir.Function(mod, ir.FunctionType(p8, [ctx_t, i64]), name="gc_malloc")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    b.ret(aligned(b, table(b, fn.args[0]), fn.args[1]))

    # void *calloc(ctx, nelem, elsize): NULL when the size overflows
    fn = ir.Function(mod, ir.FunctionType(p8, [ctx_t, i64, i64]), name="gc_calloc")
    entry, ok, fill, fail = (fn.append_basic_block(x) for x in ("entry", "ok", "fill", "fail"))
    b = ir.IRBuilder(entry)
    prod = b.umul_with_overflow(fn.args[1], fn.args[2])
    size, over = b.extract_value(prod, 0), b.extract_value(prod, 1)
    b.cbranch(over, fail, ok)
    b = ir.IRBuilder(ok)
    fns = table(b, fn.args[0])
    p = aligned(b, fns, size)
    b.cbranch(b.icmp_unsigned("==", p, ir.Constant(p8, None)), fail, fill)
    b = ir.IRBuilder(fill)
    b.call(fns[3], [p, ir.Constant(ir.IntType(32), 0), size])
    b.ret(p)
    b = ir.IRBuilder(fail)
    b.ret(ir.Constant(p8, None))

    # void *realloc(ctx, ptr, new_size): a new block, the old one's bytes copied, it freed
    fn = ir.Function(mod, ir.FunctionType(p8, [ctx_t, p8, i64]), name="gc_realloc")
    entry, move, done = (fn.append_basic_block(x) for x in ("entry", "move", "done"))
    b = ir.IRBuilder(entry)
    ctx, old, size = fn.args
    fns = table(b, ctx)
    p = aligned(b, fns, size)
    gone = b.or_(
        b.icmp_unsigned("==", p, ir.Constant(p8, None)),
        b.icmp_unsigned("==", old, ir.Constant(p8, None)),
    )
    b.cbranch(gone, done, move)
    b = ir.IRBuilder(move)
    had = b.call(fns[4], [old])
    n = b.select(b.icmp_unsigned("<", had, size), had, size)
    b.call(fns[2], [p, old, n])
    b.call(fns[1], [old])
    b.branch(done)
    b = ir.IRBuilder(done)
    b.ret(p)

    # void free(ctx, ptr, size)
    fn = ir.Function(mod, ir.FunctionType(ir.VoidType(), [ctx_t, p8, i64]), name="gc_free")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    b.call(table(b, fn.args[0])[1], [fn.args[1]])
    b.ret_void()


class _Allocator(ctypes.Structure):
    _fields_ = [("ctx", ctypes.c_void_p)] + [(n, ctypes.c_void_p) for n in NAMES]


class _Handler(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * 127),
        ("version", ctypes.c_uint8),
        ("allocator", _Allocator),
    ]


def install(addrs, code):
    """Make NumPy allocate with the compiled functions (addrs: their addresses, in the
    memory `code`) from now on in this context; False where NumPy's or libc's interface
    is not the one expected."""
    if _state["handler"] is not None:
        return True
    try:
        return _install(addrs, code)
    except (AttributeError, OSError, ValueError, TypeError, ImportError):
        return False


def _install(addrs, code):
    import numpy as np

    libc = ctypes.CDLL(None)
    fns = (libc.aligned_alloc, libc.free, libc.memcpy, libc.memset, libc.malloc_usable_size)
    ctx = (ctypes.c_uint64 * len(fns))(*(ctypes.cast(f, ctypes.c_void_p).value for f in fns))
    handler = _Handler(_NAME, 1, _Allocator(ctypes.addressof(ctx), *(addrs[n] for n in NAMES)))
    api = ctypes.pythonapi
    api.PyCapsule_New.restype = ctypes.py_object
    api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    api.PyCapsule_GetName.restype = ctypes.c_char_p
    api.PyCapsule_GetName.argtypes = [ctypes.py_object]
    api.PyCapsule_GetPointer.restype = ctypes.c_void_p
    api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    table = np._core._multiarray_umath._ARRAY_API
    base = api.PyCapsule_GetPointer(table, api.PyCapsule_GetName(table))
    slots = ctypes.cast(base, ctypes.POINTER(ctypes.c_void_p))
    get = ctypes.PYFUNCTYPE(ctypes.py_object)(slots[_GET_HANDLER])
    current = get()
    # the slot is PyDataMem_GetHandler when it answers the handler NumPy names
    if api.PyCapsule_GetName(current) != b"mem_handler":
        return False
    name = np._core.multiarray.get_handler_name()
    if ctypes.cast(api.PyCapsule_GetPointer(current, b"mem_handler"), ctypes.c_char_p).value != (
        name.encode()
    ):
        return False
    keep = ctypes.c_char_p(b"mem_handler")  # the capsule keeps a pointer to its name
    capsule = api.PyCapsule_New(ctypes.addressof(handler), keep, None)
    set_handler = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.py_object)(slots[_SET_HANDLER])
    set_handler(capsule)
    if np._core.multiarray.get_handler_name() != _NAME.decode():
        set_handler(current)
        return False
    # Arrays it made may be freed at the interpreter's very end, after modules are torn
    # down: the code, the table and the handler are never let go (a reference of their own)
    kept = (code, ctx, handler, keep, capsule)
    for obj in kept:
        api.Py_IncRef(ctypes.py_object(obj))
    _state["handler"] = kept
    return True
