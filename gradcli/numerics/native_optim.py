"""An optimizer's steps in the compiled loops (numerics/native_steps.py makes their IR,
numerics/native.py compiles and loads them): Adam's running averages of a parameter
(`moments`) and its whole step (`adam`: the averages, AMSGrad's maximum, MKL's square
root called from the loop, the parameter's step), one call where NumPy takes some twenty
operations and two emulated fused steps; None wherever the loops are not loaded or a
value needs NumPy's emulation (library/optim.py then computes the step itself: the same
bits, tests/numerics/test_native_steps.py)."""

from __future__ import annotations

import struct

import numpy as np

from . import mkl, native
from .mkl import address
from .native import ADAM_PARAMS, SGD_PARAMS, D, F

#: the kept calls' parameters and constants are written by struct's packing into their
#: arrays (0.2-0.4 us; a slice's assignment of a tuple, or an item's at a time, cost 1-2 us)
_INTS = {n: struct.Struct(f"={n}q").pack_into for n in (8, 9)}
_REALS = {n: struct.Struct(f"={n}d").pack_into for n in (4, 7)}

# (w, beta2, dtype) -> (the running averages' four constants as an array, its address)
_consts: dict = {}


def moments(avg, sq, g, w, beta2):
    """(avg.lerp(g, w), sq * beta2 + (1 - beta2) * g * g) as library/optim.py's `lerp`
    and `squares_avg` compute them (w, beta2 Python floats; the arrays of one float dtype
    and shape, C-contiguous), by the compiled loop; None where it is not loaded, the
    arrays are not such, or a value needs NumPy's emulation (numerics/native_steps.py)."""
    lib = native.loaded()
    if not lib:
        return None
    dt = g.dtype
    if not _alike(g, avg, sq):
        return None
    key = (w, beta2, dt.char)
    k = _consts.get(key)
    if k is None:
        t = dt.type
        tw = t(w)
        arr = np.array([tw, t(1) - tw, t(1 - beta2), t(beta2)], D)
        if len(_consts) >= 64:
            _consts.clear()
        k = _consts[key] = (arr, address(arr))
    new_avg, new_sq = np.empty_like(avg), np.empty_like(sq)
    fn = lib.steps["moments_f" if dt is F else "moments_d"]
    if fn(g.size, address(g), address(avg), address(sq), address(new_avg), address(new_sq), k[1]):
        return None
    return new_avg, new_sq


#: Adam's (c, eps, value) for the parameter's step and their address, per dtype: they
#: change at every step, written into the array kept
_adam_consts: dict = {}


#: per dtype: adam_step's call (native.ADAM_PARAMS in an array, its address, the
#: constants k, the square roots' array), or None without MKL's sqrt
def _alike(first, *others):
    """Whether the compiled loops take these arrays: first float32 or float64, each other
    (None: not given) of its dtype and shape, all C-contiguous."""
    dt, shape = first.dtype, first.shape
    if (dt is not D and dt is not F) or not first.flags.c_contiguous:
        return False
    for a in others:  # (a loop, not all() of a generator: a step's call costs less)
        if a is not None and (a.dtype is not dt or a.shape != shape or not a.flags.c_contiguous):
            return False
    return True


_adam_calls: dict = {}
_ADAM_AT = {name: j for j, name in enumerate(ADAM_PARAMS)}


def adam(avg, sq, g, p, w, beta2, c, eps, value, sqrt, max_sq=None):
    """(new avg, new sq, new p, new max_sq or None) of Adam's step as library/optim.py's
    Adam.update makes them: `moments`, with AMSGrad (max_sq given) the larger of max_sq
    and the new average of squares, then p + (value * avg) / (sqrt(sq) / c + eps) (c,
    eps and value values of p's dtype; sqrt the caller's, MKL's), by the compiled loops:
    one call (`adam_step`, MKL's square root called from it), or without MKL the
    averages' and the step's loops around `sqrt`; None
    where the loops are not loaded, the arrays are not of one float dtype, shape and
    C layout, or a value needs NumPy's emulation."""
    lib = native.loaded()
    if not lib:
        return None
    dt = g.dtype
    shape = g.shape
    if not _alike(g, p, avg, sq, max_sq):
        return None
    n = g.size
    call = _adam_calls.get(dt.char, False)
    if call is False:
        call = _adam_calls[dt.char] = _adam_call(dt)
    if call is None or n >= 2**31:
        return _adam_apart(avg, sq, g, p, w, beta2, c, eps, value, sqrt, max_sq)
    params, at, k, root = call[0], call[1], call[2], call[3]
    if root.size < n:
        root = call[3] = np.empty(max(n, 2 * root.size), dt)
    t = dt.type
    tw = t(w)
    _REALS[7](k, 0, tw, t(1) - tw, t(1 - beta2), t(beta2), c, eps, value)
    new_avg, new_sq, new_p = np.empty(shape, dt), np.empty(shape, dt), np.empty(shape, dt)
    _INTS[9](
        params,
        0,
        n,
        address(g),
        address(avg),
        address(sq),
        address(p),
        address(new_avg),
        address(new_sq),
        address(new_p),
        address(root),
    )
    new_max = None
    if max_sq is None:
        params[12] = 0
    else:
        new_max = np.empty(shape, dt)
        params[12], params[13] = address(max_sq), address(new_max)
    mkl.vml_threads(n)
    if lib.adam_step[dt.char](at):
        return None
    return new_avg, new_sq, new_p, new_max


def _adam_call(dt):
    """adam_step's kept call for dtype dt (see _adam_calls), or None without MKL."""
    got = mkl.vml_function("sqrt", dt)
    if got is None:
        return None
    params, k = np.zeros(len(ADAM_PARAMS), np.int64), np.zeros(7, D)
    params[_ADAM_AT["sqrt"]], params[_ADAM_AT["mode"]] = got
    params[_ADAM_AT["k"]] = address(k)
    assert (_ADAM_AT["max_sq"], _ADAM_AT["max_out"]) == (12, 13)
    return [params, address(params), k, np.empty(64, dt)]


def _adam_apart(avg, sq, g, p, w, beta2, c, eps, value, sqrt, max_sq):
    """adam's step in three calls: the averages' loop, `sqrt`, the step's loop."""
    got = moments(avg, sq, g, w, beta2)
    if got is None:
        return None
    new_avg, new_sq = got
    new_max = None
    if max_sq is not None:
        new_max = np.maximum(max_sq, new_sq)
    root = sqrt(new_sq if new_max is None else new_max)
    if root.dtype is not p.dtype or not root.flags.c_contiguous:
        return None
    dt = p.dtype
    kept = _adam_consts.get(dt.char)
    if kept is None:
        arr = np.zeros(3, D)
        kept = _adam_consts[dt.char] = (arr, address(arr))
    k, at = kept
    k[0], k[1], k[2] = c, eps, value
    new_p = np.empty_like(p)
    fn = native.loaded().steps["adam_f" if dt is F else "adam_d"]
    fn(p.size, address(root), address(new_avg), address(p), address(new_p), at)
    return new_avg, new_sq, new_p, new_max


#: per dtype char: sgd_step's kept call (native.SGD_PARAMS in an array, its address, the
#: constants k, the tuple k4 whose values k holds, k's address)
_sgd_calls: dict = {}
# (sgd packs its call's parameters in this order, in one go)
assert SGD_PARAMS == ("n", "g", "p", "buf", "p_out", "buf_out", "k", "mode")


def sgd(p, g, buf, k4, decay, momentum, nesterov):
    """(new p, new momentum buffer or None) of SGD's step with weight decay (`decay`) or
    momentum as library/optim.py's SGD.update makes them (k4: weight_decay, momentum,
    1 - dampening and -lr as values of p's dtype; buf the kept buffer, None before the
    first step with momentum), by one compiled call; None where the loops are not loaded,
    the arrays are not of one float dtype, shape and C layout, or a value needs NumPy's
    emulation."""
    lib = native.loaded()
    if not lib:
        return None
    dt = p.dtype
    shape = p.shape
    # (_alike's test, spelled out: a step's call costs less)
    if (dt is not D and dt is not F) or g.dtype is not dt or g.shape != shape:
        return None
    if not p.flags.c_contiguous or not g.flags.c_contiguous:
        return None
    if buf is not None:
        if buf.dtype is not dt or buf.shape != shape or not buf.flags.c_contiguous:
            return None
    call = _sgd_calls.get(dt.char)
    if call is None:
        params, k = np.zeros(len(SGD_PARAMS), np.int64), np.zeros(4, D)
        call = _sgd_calls[dt.char] = [params, address(params), k, None, address(k)]
    params, at, k, packed, k_at = call
    if packed is not k4:  # (the same tuple as the call before: its values are there)
        _REALS[4](k, 0, *k4)
        call[3] = k4
    new_p = np.empty(shape, dt)
    p_at = address(new_p)
    mode = 1 if decay else 0
    if momentum:
        new_buf = np.empty(shape, dt)
        buf_out = address(new_buf)
        mode |= 4 if buf is None else 2
        if nesterov:
            mode |= 8
    else:
        new_buf, buf_out = None, p_at  # (stored before p_out: overwritten)
    g_at = address(g)
    b_at = g_at if buf is None else address(buf)
    _INTS[8](params, 0, p.size, g_at, address(p), b_at, p_at, buf_out, k_at, mode)
    if lib.sgd_step[dt.char](at):
        return None
    return new_p, new_buf
