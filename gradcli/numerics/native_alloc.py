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


#: the blocks kept for reuse: one class per 64 bytes of size up to CLASSES * 64 bytes, at
#: most KEEP blocks of a class and BUDGET bytes in all (the rest go back to libc)
CLASSES, KEEP, BUDGET = 512, 4, 4 << 20


def ir_functions(ir, mod):
    """Add NAMES to the LLVM module: NumPy's allocator signatures, context first.  The
    context is a table of libc's functions and, last, the address of the kept blocks:
    (bytes kept, then a count per class, then KEEP places per class)."""
    i8, i64 = ir.IntType(8), ir.IntType(64)
    p8 = i8.as_pointer()
    ctx_t = i64.as_pointer()
    alloc_t = ir.FunctionType(p8, [i64, i64]).as_pointer()
    free_t = ir.FunctionType(ir.VoidType(), [p8]).as_pointer()
    copy_t = ir.FunctionType(p8, [p8, p8, i64]).as_pointer()
    set_t = ir.FunctionType(p8, [p8, ir.IntType(32), i64]).as_pointer()
    size_t = ir.FunctionType(i64, [p8]).as_pointer()
    kinds = (alloc_t, free_t, copy_t, set_t, size_t)
    null = ir.Constant(p8, None)

    def k(v):
        return ir.Constant(i64, v)

    def table(b, ctx):
        return [
            b.inttoptr(b.load(b.gep(ctx, [ir.Constant(i64, k)])), t) for k, t in enumerate(kinds)
        ]

    def kept(b, ctx):  # the kept blocks' table, as i64s
        return b.inttoptr(b.load(b.gep(ctx, [k(len(kinds))])), ctx_t)

    def sizes(b, size):  # (size, at least 1; its class: 64-byte units, rounded up)
        size = b.select(b.icmp_unsigned("==", size, k(0)), k(1), size)
        return size, b.lshr(b.add(size, k(63)), k(6))

    def take(fn, b, ctx, size):
        """A block of at least `size` bytes on a 64-byte boundary: a kept one of its class,
        else aligned_alloc's (of the class's whole size, to be kept later); the builder
        after, the block and libc's functions (loaded here, for the caller's use too)."""
        fns, cache = table(b, ctx), kept(b, ctx)
        size, cls = sizes(b, size)
        small, pop, fresh, big, done = (
            fn.append_basic_block(x) for x in ("small", "pop", "fresh", "big", "got")
        )
        b.cbranch(b.icmp_unsigned("<=", cls, k(CLASSES)), small, big)
        b = ir.IRBuilder(small)
        counted = b.gep(cache, [cls])
        cnt = b.load(counted)
        b.cbranch(b.icmp_unsigned(">", cnt, k(0)), pop, fresh)
        b = ir.IRBuilder(pop)
        left = b.sub(cnt, k(1))
        b.store(left, counted)
        got = b.inttoptr(b.load(b.gep(cache, [b.add(_slots(ir, b, cls), left)])), p8)
        b.store(b.sub(b.load(cache), b.shl(cls, k(6))), cache)
        b.branch(done)
        b = ir.IRBuilder(fresh)
        whole = b.call(fns[0], [k(ALIGN), b.shl(cls, k(6))])
        b.branch(done)
        b = ir.IRBuilder(big)
        large = b.call(fns[0], [k(ALIGN), size])
        b.branch(done)
        b = ir.IRBuilder(done)
        p = b.phi(p8)
        p.add_incoming(got, pop)
        p.add_incoming(whole, fresh)
        p.add_incoming(large, big)
        return b, p, fns

    # void *malloc(ctx, size)
    fn = ir.Function(mod, ir.FunctionType(p8, [ctx_t, i64]), name="gc_malloc")
    b, p, _ = take(fn, ir.IRBuilder(fn.append_basic_block("entry")), *fn.args)
    b.ret(p)

    # void *calloc(ctx, nelem, elsize): NULL when the size overflows
    fn = ir.Function(mod, ir.FunctionType(p8, [ctx_t, i64, i64]), name="gc_calloc")
    entry, ok, fail = (fn.append_basic_block(x) for x in ("entry", "ok", "fail"))
    b = ir.IRBuilder(entry)
    prod = b.umul_with_overflow(fn.args[1], fn.args[2])
    size, over = b.extract_value(prod, 0), b.extract_value(prod, 1)
    b.cbranch(over, fail, ok)
    b, p, fns = take(fn, ir.IRBuilder(ok), fn.args[0], size)
    fill = fn.append_basic_block("fill")
    b.cbranch(b.icmp_unsigned("==", p, null), fail, fill)
    b = ir.IRBuilder(fill)
    b.call(fns[3], [p, ir.Constant(ir.IntType(32), 0), size])
    b.ret(p)
    b = ir.IRBuilder(fail)
    b.ret(null)

    # void *realloc(ctx, ptr, new_size): a new block, the old one's bytes copied, it freed
    fn = ir.Function(mod, ir.FunctionType(p8, [ctx_t, p8, i64]), name="gc_realloc")
    ctx, old, size = fn.args
    b, p, fns = take(fn, ir.IRBuilder(fn.append_basic_block("entry")), ctx, size)
    move, done = fn.append_basic_block("move"), fn.append_basic_block("done")
    gone = b.or_(b.icmp_unsigned("==", p, null), b.icmp_unsigned("==", old, null))
    b.cbranch(gone, done, move)
    b = ir.IRBuilder(move)
    had = b.call(fns[4], [old])
    n = b.select(b.icmp_unsigned("<", had, size), had, size)
    b.call(fns[2], [p, old, n])
    b.call(fns[1], [old])
    b.branch(done)
    b = ir.IRBuilder(done)
    b.ret(p)

    # void free(ctx, ptr, size): kept for its class while there is room (and the block
    # holds the class's whole size, whatever size NumPy names), else libc's free
    fn = ir.Function(mod, ir.FunctionType(ir.VoidType(), [ctx_t, p8, i64]), name="gc_free")
    entry, small, check, keep, back, out = (
        fn.append_basic_block(x) for x in ("entry", "small", "check", "keep", "back", "out")
    )
    ctx, ptr, size = fn.args
    b = ir.IRBuilder(entry)
    fns, cache = table(b, ctx), kept(b, ctx)
    _, cls = sizes(b, size)
    nonnull = b.icmp_unsigned("!=", ptr, null)
    b.cbranch(b.and_(nonnull, b.icmp_unsigned("<=", cls, k(CLASSES))), small, back)
    b = ir.IRBuilder(small)
    counted = b.gep(cache, [cls])
    cnt = b.load(counted)
    whole = b.shl(cls, k(6))
    total = b.add(b.load(cache), whole)
    room = b.and_(b.icmp_unsigned("<", cnt, k(KEEP)), b.icmp_unsigned("<=", total, k(BUDGET)))
    b.cbranch(room, check, back)
    b = ir.IRBuilder(check)
    b.cbranch(b.icmp_unsigned(">=", b.call(fns[4], [ptr]), whole), keep, back)
    b = ir.IRBuilder(keep)
    b.store(b.ptrtoint(ptr, i64), b.gep(cache, [b.add(_slots(ir, b, cls), cnt)]))
    b.store(b.add(cnt, k(1)), counted)
    b.store(total, cache)
    b.branch(out)
    b = ir.IRBuilder(back)
    b.call(fns[1], [ptr])
    b.branch(out)
    b = ir.IRBuilder(out)
    b.ret_void()


def _slots(ir, b, cls):
    """Where class cls's kept blocks start in the table (after the total and the counts)."""
    i64 = ir.IntType(64)
    return b.add(
        ir.Constant(i64, CLASSES + 1),
        b.mul(b.sub(cls, ir.Constant(i64, 1)), ir.Constant(i64, KEEP)),
    )


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
    # the kept blocks: the bytes kept, a count per class (from 1), KEEP places per class
    cache = (ctypes.c_uint64 * (1 + CLASSES + CLASSES * KEEP))()
    addresses = [ctypes.cast(f, ctypes.c_void_p).value for f in fns] + [ctypes.addressof(cache)]
    ctx = (ctypes.c_uint64 * len(addresses))(*addresses)
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
    kept = (code, ctx, cache, handler, keep, capsule)
    for obj in kept:
        api.Py_IncRef(ctypes.py_object(obj))
    _state["handler"] = kept
    return True
