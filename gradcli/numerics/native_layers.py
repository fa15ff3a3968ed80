"""Calls of the compiled loops of `numerics/native_pool.py` (max_pool2d's forward and
backward, relu's backward, a convolution's im2col columns) and `numerics/native_grads.py`
(a bias's gradient, tanh's backward): each takes NumPy arrays, passes their addresses in
one int64 array, and answers None or False where the native
loops are not loaded (`native.loaded`), the caller then computing with NumPy.

The addresses are written into one buffer kept for all the calls (`_call`): a fresh int64
array of them cost a microsecond, most of a small array's call (a layer's ReLU of 64 x 32
values)."""

from __future__ import annotations

import struct

import numpy as np

from . import mkl, native
from .floats.tensor_iter import VEC_BLOCK, all_vector
from .mkl import address

#: the loops' parameters, written by `_call` (at most 27 int64 values: lstm_backward's) and
#: their address; a loop reads them before it returns, and no call is made inside another
_PARAMS = np.zeros(27, np.int64)
_PARAMS_AT = address(_PARAMS)
#: per number of values: the packing of that many int64 values into _PARAMS
_PACK = {n: struct.Struct(f"={n}q").pack_into for n in range(1, 28)}


def _call(fn, *values):
    """fn (a loop taking the address of its int64 parameters) on `values`."""
    _PACK[len(values)](_PARAMS, 0, *values)
    return fn(_PARAMS_AT)


def pool_max(x, geometry, offs, out, local, flat):
    """max_pool2d's windows inside x (numerics/native_pool.py): geometry = (planes, oh, ow,
    a plane's size, the steps between output rows' and columns' window corners), in
    elements; for each output m in order, the window's values at its corner plus offs[k]
    compared in order (a later one taken when greater, or a NaN where the one held is
    not), out[m] the kept value, flat[m] its index in x and local[m] its index in its
    plane; x, out float arrays of one dtype, the rest int64, all C-contiguous in the
    machine's byte order.  False where the loops are not loaded (nothing computed)."""
    lib = native.loaded()
    if lib is None:
        return False
    _call(
        lib.pool_max[x.dtype.char],
        *geometry,
        offs.size,
        address(x),
        address(offs),
        address(out),
        address(local),
        address(flat),
    )
    return True


def pool_scatter(g, flat, size):
    """max_pool2d's backward: zeros of `size` values of g's dtype with each g[m] added at
    flat[m] in order (g float, flat int64, both C-contiguous), or None where the loops are
    not loaded."""
    lib = native.loaded()
    if not lib:
        return None
    out = np.zeros(size, g.dtype)  # (NumPy's memset: faster than the loop's own zeros)
    _call(lib.pool_scatter[g.dtype.char], g.size, 0, address(g), address(flat), address(out))
    return out


def kept(g, x):
    """relu's backward: g where x > 0 or NaN, +0 elsewhere (g, x C-contiguous float arrays
    of one shape and dtype in the machine's byte order), a fresh array; None where the
    loops are not loaded."""
    lib = native.loaded()
    if not lib:
        return None
    out = np.empty(g.shape, g.dtype)
    _call(lib.kept[g.dtype.char], g.size, address(g), address(x), address(out))
    return out


def rows(x, src, length, step, out):
    """out (C-contiguous, x's dtype) filled with rows of `length` elements of x (a
    C-contiguous array of 4- or 8-byte elements), row r from x.flat[src[r]] on every
    `step` elements (src int64, C-contiguous, one per row of out): True, or False where the
    loops are not loaded (nothing copied)."""
    lib = native.loaded()
    if not lib:
        return False
    _call(lib.rows[x.itemsize], src.size, length, step, address(x), address(src), address(out))
    return True


def relu(x):
    """max(0, x) as NumPy's maximum(0, x) gives it (x where x is -0 or NaN) for a
    C-contiguous float32/float64 array in the machine's byte order, a fresh array; None
    where the loops are not loaded."""
    lib = native.loaded()
    if lib is None:
        return None
    out = np.empty(x.shape, x.dtype)
    _call(lib.relu[x.dtype.char], x.size, address(x), address(x), address(out))
    return out


#: the op of a manual step's ufunc, for its compiled loop (native_steps.scaled_step_ir)
_SCALED_OPS = {np.add: "add", np.subtract: "sub", np.multiply: "mul"}
#: the fewest bytes of an array whose step the loop makes: below, NumPy's two passes stay
#: in the cache and cost no more than the call (8,192 floats or 4,096 doubles about even)
SCALED_BYTES = 32 << 10


def scaled_pass(d, g, w, ufunc):
    """d op= g * w in place, `ufunc` the op's (np.add, np.subtract or np.multiply), as
    `ufunc(d, np.multiply(g, w), out=d)` makes it (the product rounded, then the op) in one
    pass: d and g C-contiguous float32/float64 arrays of one dtype and shape in the
    machine's byte order, w a 0-d array of their dtype (the factor as NumPy takes it).
    False (nothing done) where the loops are not loaded, d has fewer than SCALED_BYTES, the
    op is another, or g's values overlap d's in other places (NumPy would read them before
    they are written)."""
    if d.nbytes < SCALED_BYTES:
        return False
    lib = native.loaded()
    op = _SCALED_OPS.get(ufunc)
    if lib is None or op is None:
        return False
    at, g_at = address(d), address(g)
    if at != g_at and abs(at - g_at) < d.nbytes:
        return False
    _call(lib.scaled_step[op, d.dtype.char], d.size, at, g_at, address(w), at)
    return True


def outer_sum(x, w):
    """The sums down the columns of x (M, N), M > 0, C-contiguous float32/float64 in the
    machine's byte order, in `summation.outer_sum`'s order with its first w columns the
    whole blocks (native_grads.py), a fresh array; None where the loops are not loaded."""
    lib = native.loaded()
    if lib is None:
        return None
    out = np.empty(x.shape[1], x.dtype)
    _call(lib.outer_sum[x.dtype.char], x.shape[0], x.shape[1], w, address(x), address(out))
    return out


def tanh_backward(g, y):
    """g * fma(y, -y, 1) (tanh's backward, `fused_grads.tanh_backward_values`) for g, y
    C-contiguous float arrays of one shape and dtype in the machine's byte order, a fresh
    array; None where the loops are not loaded or a value's fused step needs the
    emulation."""
    lib = native.loaded()
    if lib is None:
        return None
    out = np.empty(g.shape, g.dtype)
    flagged = _call(lib.tanh_backward[g.dtype.char], g.size, address(g), address(y), address(out))
    return None if flagged else out


def lane_merge(m1, m2, c, n_old, s1, s2):
    """`layer_norm._merge` of each lane of (rows, lanes) m1, m2 in turn into the rows'
    (s1, s2) (native_norms.py; c and n_old the lanes' factors and counts before, arrays of
    the dtype), all C-contiguous float arrays of one dtype in the machine's byte order:
    fresh (s1, s2); None where the loops are not loaded or a fused step needs the
    emulation."""
    lib = native.loaded()
    if lib is None:
        return None
    rows, lanes = m1.shape
    o1, o2 = np.empty(rows, m1.dtype), np.empty(rows, m1.dtype)
    ats = (m1, m2, c, n_old, s1, s2, o1, o2)
    flagged = _call(lib.lane_merge[m1.dtype.char], rows, lanes, *(address(a) for a in ats))
    return None if flagged else (o1, o2)


def welford(x, vectors, lanes, c):
    """(m1, m2) of `layer_norm.moments`' Welford steps over each chunk of each row of x
    (rows, N) (native_norms.welford_ir: `vectors` whole vectors of `lanes` values a row,
    chunks of 16, c the steps' factors), each (rows, chunks, lanes), fresh; x and c
    C-contiguous float arrays of one dtype in the machine's byte order.  None where the
    loops are not loaded or a fused step needs the emulation."""
    lib = native.loaded()
    if lib is None:
        return None
    rows, stride = x.shape
    chunks = -(-vectors // 16)
    m1, m2 = np.empty((rows, chunks, lanes), x.dtype), np.empty((rows, chunks, lanes), x.dtype)
    ats = (address(x), address(c), address(m1), address(m2))
    flagged = _call(lib.welford[x.dtype.char], rows, stride, vectors, lanes, chunks, *ats)
    return None if flagged else (m1, m2)


def var_rows(rows):
    """welford.py's m2 of each row of the C-contiguous doubles `rows` (m, n), fresh
    (native_norms.var_rows_ir); None where the loops are not loaded."""
    lib = native.loaded()
    if lib is None:
        return None
    out = np.zeros(rows.shape[0], np.float64)  # (a row of no values: m2 = 0)
    _call(lib.var_rows, rows.shape[0], rows.shape[1], address(rows), address(out))
    return out


def gru_backward(g, carry, kept, gig):
    """A GRU step's backward (`recurrent_layer._gru_step` of g plus the arrays of `carry`
    added in order, on its `kept` arrays r, z, n, hnew, d; native_recurrent.py): fresh (gd,
    ghg), the input gates' gradient written into gig (C-contiguous (rows, 3 size)); None
    where the loops are not loaded, an array is not (rows, size) of g's dtype with
    contiguous columns and ascending rows, or a value is flagged (the caller then computes
    the step with NumPy)."""
    lib = native.loaded()
    if lib is None:
        return None
    dt = g.dtype
    ats = _row_operands((g, *carry, *(g,) * (2 - len(carry)), *kept))
    if ats is None:
        return None
    rows, cols = shape = g.shape
    gd = np.empty(shape, dt)
    ghg = np.empty((rows, 3 * cols), dt)
    ats += (address(gd), cols, address(ghg), 3 * cols, address(gig), 3 * cols)
    if _call(lib.gru_backward[dt.char], rows, cols, len(carry), *ats):
        return None
    return gd, ghg


def _row_operands(arrays):
    """[address, row step (in elements)] of each array in turn, for a step's loop
    (native_recurrent._rows_loop); None unless all have the first's dtype and shape,
    contiguous columns and ascending rows."""
    first = arrays[0]
    dt, shape, size = first.dtype, first.shape, first.itemsize
    ats: list = []
    for a in arrays:
        if a.dtype != dt or a.shape != shape or a.strides[1] != size or a.strides[0] < 0:
            return None
        ats += (address(a), a.strides[0] // size)
    return ats


def lstm_backward(g, carry, gc, kept, gig):
    """An LSTM step's backward (`recurrent_layer._lstm_step` of g plus the arrays of
    `carry` added in order, gc the cell state's gradient, on its `kept` arrays i, f, gg, o,
    tc, cx; native_recurrent.py): fresh (the previous cell state's gradient, the gates'
    gradient), the latter also written into gig (C-contiguous (rows, 4 size)); None as
    `gru_backward`."""
    lib = native.loaded()
    if lib is None or len(carry) > 1:
        return None
    dt = g.dtype
    ats = _row_operands((g, *carry, *(g,) * (1 - len(carry)), gc, *kept))
    if ats is None:
        return None
    rows, cols = shape = g.shape
    gc_out = np.empty(shape, dt)
    gates = np.empty((rows, 4 * cols), dt)
    ats += (address(gc_out), cols, address(gates), 4 * cols, address(gig), 4 * cols)
    if _call(lib.lstm_backward[dt.char], rows, cols, len(carry), *ats):
        return None
    return gc_out, gates


#: per (pieces, dtype, rows, size): a step forward's constants and buffers (the sums, the
#: flags, tanh's operand, written and read within one call)
_SCRATCH: dict = {}


def gru_forward(ig, h, hg, out):
    """A GRU step after its hidden gates' product hg (recurrent.py `_step` on arrays,
    native_recurrent.gru_forward_ir): the new state written into out, and (r, z, n, d) the
    values its backward reads (r and z views of one array, as the sigmoid's pieces); None
    where the loops or MKL's tanh are not loaded, an array is not (rows, 3 size) or (rows,
    size) of one dtype with contiguous columns (hg C-contiguous), the sigmoid of the
    gates' columns is not its vector code's alone (`tensor_iter.all_vector`), or it
    flagged a value (the caller then computes the step with NumPy)."""
    got = _forward(3, ig, h, hg, out)
    if got is None:
        return None
    rz, (n, d) = got
    cols = h.shape[1]
    return rz[:, :cols], rz[:, cols : 2 * cols], n, d


def lstm_forward(ig, cx, hg, out):
    """An LSTM step after its hidden gates' product hg (native_recurrent.lstm_forward_ir):
    the new state h written into out, and (i, f, gt, o, tc, cy) (the sigmoid's pieces
    views of one array, as recurrent.py `_step` makes them on arrays); None as
    `gru_forward`."""
    got = _forward(4, ig, cx, hg, out)
    if got is None:
        return None
    sg, (gt, cy, tc) = got
    cols = cx.shape[1]
    i, f, o = (sg[:, k * cols : (k + 1) * cols] for k in (0, 1, 3))
    return i, f, gt, o, tc, cy


def _forward(pieces, ig, h, hg, out):
    """(the sigmoid's (rows, span) array, the fresh (rows, size) arrays) of a GRU's (3
    pieces) or an LSTM's (4) step forward, or None (gru_forward)."""
    lib = native.loaded()
    if lib is None:
        return None
    dt = hg.dtype
    rows, cols = h.shape
    size = dt.itemsize
    wide = (rows, pieces * cols)
    if (
        not rows
        or not cols
        or not hg.flags.c_contiguous
        or hg.shape != wide
        or ig.shape != wide
        or out.shape != h.shape
    ):
        return None
    for a in (ig, h, out):
        if a.dtype != dt or a.strides[1] != size or a.strides[0] < a.shape[1] * size:
            return None
    key = (pieces, dt, rows, cols)
    scratch = _SCRATCH.get(key)
    if scratch is None:
        scratch = _SCRATCH[key] = _scratch(pieces, hg, dt, rows, cols)
    if not scratch:
        return None
    count, span, tanh_at, mode, s_at, flags_at, pre_at, _ = scratch
    sg = np.empty(count, dt)
    fresh = [np.empty(h.shape, dt) for _ in range(pieces - 1)]
    mkl.vml_threads(rows * cols)
    ats = (address(hg), pieces * cols, address(ig), ig.strides[0] // size, address(h))
    ats += (h.strides[0] // size, address(out), out.strides[0] // size, s_at, address(sg))
    ats += (flags_at, pre_at, *(address(a) for a in fresh))
    fn = lib.gru_forward if pieces == 3 else lib.lstm_forward
    if _call(fn[dt.char], rows, cols, count, tanh_at, mode, *ats):
        return None
    return sg[: rows * span].reshape(rows, span), fresh


def _scratch(pieces, hg, dt, rows, cols):
    """_forward's constants and buffers for its kind, dtype and sizes, or () where it
    does not apply (no MKL's tanh; a sigmoid not the vector code's alone): the sigmoid
    runs over the columns of the first piece to the last it uses (a GRU's 2, an LSTM's
    4), as recurrent.py's `_ARRAYS.sigmoids`."""
    vml = mkl.vml_function("tanh", dt)
    block = VEC_BLOCK[dt.type]
    span = (2 if pieces == 3 else 4) * cols
    if vml is None or not (all_vector(hg[:, :cols], block) and all_vector(hg[:, :span], block)):
        return ()
    count = -(-rows * span // native.LANES) * native.LANES
    bufs = (np.empty(count, dt), np.empty(count, np.uint8), np.empty(rows * cols, dt))
    return (count, span, *vml, *(address(a) for a in bufs), bufs)


def bn_forward(x, chunk, train, w, b, rm, rv, out, k):
    """batch norm's channels-last forward of (rows, cols) x (native_bn.forward_ir: chunks
    of `chunk` rows; train 1: the batch's statistics into out's first two rows and the
    running ones into its last two, 0: out's first two rows given), w, b, rm, rv (cols,),
    out (4, cols) of x's dtype and k (eps, momentum, 1 - momentum) float64, all
    C-contiguous in the machine's byte order: the output, fresh; None where the loops are
    not loaded or a fused step needs the emulation."""
    lib = native.loaded()
    if lib is None:
        return None
    rows, cols = x.shape
    y = np.empty((rows, cols), x.dtype)
    ats = (x, y, w, b, rm, rv, out, k)
    flagged = _call(lib.bn_forward[x.dtype.char], rows, cols, chunk, train, *map(address, ats))
    return None if flagged else y


def bn_backward(g, x, chunk, train, mean, inv, w):
    """batch norm's channels-last backward (native_bn.backward_ir) of (rows, cols) g and x
    (chunks of `chunk` rows; train 1 or 0), mean, inv and w (cols,), all C-contiguous
    arrays of one float dtype in the machine's byte order: (grad_input, grad_weight,
    grad_bias), fresh; None where the loops are not loaded or a fused step needs the
    emulation."""
    lib = native.loaded()
    if lib is None:
        return None
    rows, cols = x.shape
    gx = np.empty((rows, cols), x.dtype)
    out = np.empty((2, cols), x.dtype)
    ats = (x, g, mean, inv, w, gx, out)
    flagged = _call(lib.bn_backward[x.dtype.char], rows, cols, chunk, train, *map(address, ats))
    return None if flagged else (gx, out[0], out[1])


#: the bit generator whose `ctypes` interface was read last, and its next_uint32's address
_DRAW = [None, 0]


def bernoulli_mask(bitgen, n, limit):
    """n bytes, each whether the 53-bit integer of two 32-bit draws of `bitgen` (a NumPy
    MT19937, drawn through its own next_uint32: the stream random_raw gives) is below
    `limit` (native_random.bernoulli_ir); None where the loops are not loaded (nothing
    drawn)."""
    lib = native.loaded()
    if lib is None:
        return None
    c = bitgen.ctypes
    if _DRAW[0] is not c:
        _DRAW[0], _DRAW[1] = c, native.function_address(c.next_uint32)
    out = np.empty(n, np.bool_)
    _call(lib.bernoulli, n, _DRAW[1], c.state_address, limit, address(out))
    return out
