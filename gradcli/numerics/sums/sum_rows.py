"""Several whole sums of the same size at once, each in PyTorch's order.

A training loop with scalar parameters sums a vector into each parameter's gradient:
the tutorial's `a + b * x + c * x ** 2 + d * x ** 3` makes four sums of 2,000 values
per backward.  At these sizes a sum is a fixed number of NumPy calls whatever the
length (sum_mid.py: a copy, a few reduces, ~7 us), so R sums of one size cost R times
that.  `RowsPlan` makes the same calls on R rows at once (each buffer of sum_mid's
one-level plan with a leading axis of R, each reduce over the axis after it): R sums
for little more than the cost of one.

Each row gets exactly the additions `MidPlan` makes for it: a reduce over the middle
axis of a C-contiguous (R, step, width) array adds its rows one after the other for
each (R, width) output, as a reduce over the first axis of (step, width) does, and an
accumulate along the last axis is sequential per row.  tests/numerics/test_summation_plans.py
compares every row with `torch_sum`, bit for bit.
"""

from __future__ import annotations

import numpy as np

from .. import native, native_sum_calls
from ..parallel import GRAIN
from .sum_mid import ILP, MID_MIN, _finish64, cascade_power, geometry, one_copied_level
from .summation import torch_sum

_reduce = np.add.reduce
_add = np.add
_accumulate = np.add.accumulate
_ZERO32 = np.float32(0.0)
_KEEP = 16  # plans kept (rows, size, dtype; None: not taken); all forgotten beyond
_plans: dict = {}


def torch_sums(arrays, factors=None):
    """[torch_sum(a) for a in arrays], the flat C-contiguous arrays of one size and
    dtype that sum_mid sums in one copied level summed together.  `factors`, if given:
    per array None or an array of its shape and dtype, which it is multiplied by first
    (the sum of np.multiply(a, f), the product made straight into the plan's buffer)."""
    a = arrays[0]
    n, dtype = a.size, a.dtype
    if MID_MIN <= n <= GRAIN:
        got = compiled(arrays, factors, n, dtype)
        if got is not None:  # (as torch_sum gives them)
            return list(got) if dtype.char == "f" else got.tolist()
    if len(arrays) > 1:
        for x in arrays:
            if x.size != n or x.dtype is not dtype or x.ndim != 1 or not x.flags.c_contiguous:
                break
        else:
            run = _run(len(arrays), n, dtype)
            if run is not None:
                return list(run(arrays, factors))
    if factors is not None:
        arrays = [x if f is None else np.multiply(x, f) for x, f in zip(arrays, factors)]
    groups = {}
    for i, x in enumerate(arrays):
        groups.setdefault((x.size, x.dtype, x.ndim == 1 and x.flags.c_contiguous), []).append(i)
    out = [None] * len(arrays)
    for (n, dtype, flat), idx in groups.items():
        run = _run(len(idx), n, dtype) if len(idx) > 1 and flat else None
        sums = (
            run([arrays[i] for i in idx])
            if run is not None
            else [torch_sum(arrays[i]) for i in idx]
        )
        for i, v in zip(idx, sums):
            out[i] = v
    return out


def compiled(arrays, factors, n, dtype):
    """The sums of torch_sums by the compiled loop (numerics/native_sums.py: one call for
    them all) as an array of dtype, or None (not loaded, or arrays it does not take)."""
    if dtype.char not in "fd" or not dtype.isnative or native.ready(n) is None:
        return None
    seen = None
    for x in arrays:  # (each array once: a gradient is often every row's)
        if x is not seen:
            if x.dtype is not dtype or x.ndim != 1 or x.size != n or not x.flags.c_contiguous:
                return None
            seen = x
    if factors is not None:
        for f in factors:
            if f is not None and (
                f.dtype is not dtype or f.shape != seen.shape or not f.flags.c_contiguous
            ):
                return None
    return native_sum_calls.sums(arrays, factors, cascade_power(n, dtype))


def compiled_one(g, factors):
    """`compiled([g] * len(factors), factors, g.size, g.dtype)` (one gradient summed
    times each factor: a backward's leaves), or None."""
    dtype = g.dtype
    n = g.size
    if (
        dtype.char not in "fd"
        or not dtype.isnative
        or g.ndim != 1
        or not g.flags.c_contiguous
        or native.ready(n) is None
    ):
        return None
    return native_sum_calls.sums_one(g, factors, cascade_power(n, dtype))


def _run(rows, n, dtype):
    """The closure of the plan for rows sums of n values of dtype, or None (sizes
    sum_rows does not take)."""
    key = (rows, n, dtype)
    run = _plans.get(key, False)
    if run is False:
        if len(_plans) >= _KEEP:
            _plans.clear()
        run = _plans[key] = RowsPlan(rows, n, dtype).run if one_copied_level(n, dtype) else None
    return run


def _view(a, shape):
    """a reshaped without a copy (the plan writes and reads through these views)."""
    v = a.reshape(shape)
    assert np.shares_memory(v, a)
    return v


class RowsPlan:
    """Buffers and closure (`run`: a list of R C-contiguous arrays of n values, and
    optionally of their factors (torch_sums) -> their R sums) of sum_mid's one-level plan
    that copies its values first, for R rows.  The rows are interleaved inside each level
    (item s of block b of row r at [s, b, r]), so that each reduce runs long inner loops
    over all the rows at once."""

    __slots__ = ("run",)

    def __init__(self, rows, n, dtype):
        isz = dtype.itemsize
        lanes, w, nv, k, nleft, ns, step, nb, rem, cols = geometry(n, dtype)
        f32 = dtype.char == "f"
        void = np.dtype((np.void, w * isz))
        nlv = nleft if f32 else 0
        tr = np.full((step, cols, rows, w), -0.0, dtype)
        items = _view(tr, (step, -1)).view(void).reshape(step, cols, rows)
        level = _view(tr, (step, cols * rows * w))
        buf = np.full((rows, n + (lanes if f32 else w)), -0.0, dtype)
        data = [buf[r, :n] for r in range(rows)]
        last = np.full((cols + nlv, rows, w), -0.0, dtype)
        lout = _view(last[:cols], (-1,))
        full_dst = items[:, :nb].transpose(2, 1, 0)
        full_src = buf[:, : nb * step * w].view(void).reshape(rows, nb, step)
        part_dst = items[:rem, nb].T if rem else None
        part_src = buf[:, nb * step * w : k * w].view(void) if rem else None
        lv_dst = last[cols:, :, :lanes].transpose(1, 0, 2) if nlv else None
        lv_src = _view(buf[:, k * w : k * w + nleft * lanes], (rows, nleft, lanes)) if nlv else None
        two = last.shape[0] == 2
        la, lb = last[0], last[1] if two else None
        lrows = _view(last, (cols + nlv, rows * w))
        mz = np.full((), -0.0, dtype)
        fin = None
        if f32:
            parts = np.zeros((rows, w), dtype)
            vec_in = _view(parts, (rows, ILP, lanes))
            tail = buf[:, n - ns :]
            vec_out = tail[:, ns:]
        else:
            tail = buf[:, k * w :]
            parts = tail[:, nleft * lanes + ns :]
            if not nleft:
                # _finish64 for all the rows at once: each lane's parts in order (a reduce
                # over the middle axis), then the scalars and the lanes one after the other
                # (accumulate), then + 0 (as 0.0 first: only a zero sum's sign differs)
                fin = np.zeros((rows, ns + lanes), dtype)
                fin_parts = _view(parts, (rows, ILP, lanes))
                fin_lanes = fin[:, ns:]
                fin_scalars = fin[:, :ns] if ns else None
                tail_scalars = tail[:, :ns] if ns else None
        pflat = parts.reshape(-1) if parts.flags.c_contiguous else None
        nl4 = nleft * lanes
        reduce_, add, accumulate, zero, finish = _reduce, _add, _accumulate, _ZERO32, _finish64
        multiply = np.multiply

        def run(xs, factors=None):
            if factors is None:
                for x, d in zip(xs, data):
                    add(x, mz, d)
            else:  # (x + -0.0 is x, bit for bit: the copy)
                for x, f, d in zip(xs, factors, data):
                    if f is None:
                        add(x, mz, d)
                    else:
                        multiply(x, f, d)
            full_dst[...] = full_src
            if part_dst is not None:
                part_dst[...] = part_src
            reduce_(level, 0, None, lout)
            if lv_dst is not None:
                lv_dst[...] = lv_src
            if two:
                add(la, lb, parts)
            elif pflat is not None:
                reduce_(lrows, 0, None, pflat)
            else:
                reduce_(last, 0, None, parts)
            if f32:
                reduce_(vec_in, 1, None, vec_out)
                # the scalars then the lanes, one after the other from the first
                # (accumulate: never pairwise), then + 0: a zero sum is +0 (as MidPlan)
                return add(accumulate(tail, 1)[:, -1], zero)
            if fin is not None:
                if fin_scalars is not None:
                    fin_scalars[...] = tail_scalars
                reduce_(fin_parts, 1, None, fin_lanes)
                return add(accumulate(fin, 1)[:, -1], 0.0).tolist()
            return [finish(v, nl4, ns) for v in tail.tolist()]

        self.run = run
