"""The plans behind `summation.torch_sum` for one thread's range of 8 or more values:
PyTorch's cascade (see gradcli/numerics/sums/summation.py) made of few NumPy calls on buffers
and views prepared once per size and dtype (the per-call cost of NumPy calls
on small arrays, not the arithmetic, was the time).  `_plan` gives the sizes with one
or two full cascade levels up to one thread's range (256 to 32,768 values) to
gradcli/numerics/sums/sum_mid.py; the plans here are the others: no level at all (fewer than
16 groups) and the big ranges, whose level 0 is laid out a slab at a time.

Every sum is the one `summation._multi_row_sum` and its callers make, addition for
addition (tests/numerics/test_summation_plans.py compares with a frozen copy of the code these
plans replaced, tests/numerics/sum_reference.py).  What lets a level be one NumPy call:

* a reduce over the first axis of a C-contiguous (rows, width) array adds the rows one
  after the other, each column on its own (NumPy's pairwise summation is only for the
  innermost axis), so the blocks of a level are laid side by side, block b's item s at
  [s, b], and all the blocks are added in one call whose inner loop runs over them all;
* x + -0.0 == x for every x (signed zeros included), so the last, partial block of a
  level is padded with -0.0 and added as a whole one;
* x + y == y + x, so the levels left over from before can be carried as the last item
  of the next level's last block instead of being added at the end.
"""

from __future__ import annotations

import numpy as np

from ..parallel import GRAIN
from .sum_mid import ILP, MidPlan, _finish64, fits

LEVELS = 4

_reduce = np.add.reduce  # called with a positional axis: a keyword costs ~1 us a call
_accumulate = np.add.accumulate


class _Level:
    """One level of the cascade: its `items` (rows of w values) cut in blocks of `step`,
    the whole blocks laid side by side in `tr` (step, blocks, w) (block b's item s at
    [s, b], copied in whole rows through a void dtype of a row's bytes), the items after
    the last whole block as one more block padded with -0.0 (x + -0.0 == x for every x,
    signed zeros included); one reduce over the first axis of `tr` adds every block
    item after item, from its first, into `out` (the next level's items)."""

    __slots__ = ("full_src", "full_dst", "part_src", "part_dst", "rows", "out")

    def __init__(self, items, m, step, dtype, out):
        w = out.shape[1]
        nbl = m // step
        r = m - nbl * step
        cols = nbl + (r > 0)
        self.out = out[:cols].reshape(-1)
        self.part_src = self.part_dst = None
        if cols == 1 and r == 0:  # one whole block: add it in place
            self.full_src = self.full_dst = None
            self.rows = items[:step]
            return
        void = np.dtype((np.void, w * dtype.itemsize))
        # an odd number of columns: rows a power of two bytes apart would fall in one
        # cache set (the copy writes down a column)
        tr = np.full((step, cols | 1, w), -0.0, dtype)
        self.full_src = items[: nbl * step].reshape(-1).view(void).reshape(nbl, step)
        self.full_dst = tr.reshape(-1).view(void).reshape(step, cols | 1)[:, :nbl].T
        if r:
            self.part_src = items[nbl * step : m]
            self.part_dst = tr[:r, nbl]
        self.rows = tr[:, :cols].reshape(step, cols * w)


class _Plan:
    """What `_serial` decides once per size and dtype, and the buffers it works in: the
    cascade of `_multi_row_sum` as at most three `_Level`s and a last chain.

    The values are read where they are (views of the input made per call with one
    constructor each; a copy of all of them first would cost more).  Level 0's items
    are the groups; each level's items are the sums of the previous level's blocks
    followed by the sum of its padded last block, which carries the levels left over
    from before (each added last, by x + y == y + x the same sum as
    `_multi_row_sum`'s).  A level with no whole block, or the fourth, is the last
    chain: its items (float32: then the vectors after the last group, padded with
    -0.0) added in order -> `parts`.  Level 0 is laid out in slabs (`_slabs`)."""

    __slots__ = (
        "lanes",
        "k",
        "tail",
        "nleft",
        "ns",
        "f32",
        "step",
        "void",
        "nb",
        "levels",
        "last",
        "lv_dst",
        "groups_dst",
        "parts",
        "vec_in",
        "vec_out",
        "acc",
        "py",
        "head",
        "nbytes",
        "slabs",
        "part0",
        "run",
        "buf",
        "srcs",
        "stage_at",
    )

    def __init__(self, n, dtype):
        self.lanes = lanes = 32 // dtype.itemsize
        w = ILP * lanes
        nv = n // lanes
        self.k = k = nv // ILP
        self.tail = nv * lanes
        self.nleft = nleft = nv - k * ILP  # vectors after the last whole group
        self.ns = ns = n - nv * lanes  # scalars after the last whole vector
        power = max(4, (int(k - 1).bit_length() if k > 1 else 0) // LEVELS)
        self.step = step = 1 << power
        self.nb = k // step
        self.f32 = f32 = dtype.char == "f"
        self.void = np.dtype((np.void, w * dtype.itemsize))
        nlv = nleft if f32 else 0  # float32 adds the left-over vectors last
        sizes = []  # the items of each level
        m = k
        while len(sizes) < 3 and m >= step:
            sizes.append(m)
            m = m // step + (m % step > 0)
        # small sizes (no cascade level: the sizes with levels up to one thread's range
        # are sum_mid's): one copy of the values into `buf` and views of it made once;
        # after the values float32's lanes, so [scalars, lanes] is one view, float64's
        # parts, so [left-over vectors, scalars, parts] is one view
        copy = n <= COPY_MAX and not sizes
        self.buf = buf = None
        if copy:
            self.buf = buf = np.full(n + (lanes if f32 else w), -0.0, dtype)
        self.parts = np.zeros(w, dtype)  # no group at all: the sums are +0
        self.py = self.head = self.vec_in = self.vec_out = self.acc = None
        if f32:  # [the scalars, the lanes' sums]
            self.vec_in = self.parts.reshape(ILP, lanes)
            self.acc = buf[n - ns :] if copy else np.zeros(ns + lanes, dtype)
            self.vec_out = self.acc[ns:]
            self.head = self.acc[:ns] if (ns and not copy) else None
        elif copy:
            self.parts = buf[n : n + w]
            self.parts[:] = 0.0
            self.py = buf[k * w : n + w]
        else:  # [left-over vectors, scalars, parts]
            self.py = np.zeros(nleft * lanes + ns + w, dtype)
            self.parts = self.py[nleft * lanes + ns :]
            self.head = self.py[: nleft * lanes + ns] if nleft or ns else None
        # the last chain: the items of the last level, then the left-over vectors
        self.last = np.full((m + nlv, w), -0.0, dtype) if (sizes or nlv) else None
        if sizes and m == 1 and not nlv:  # one sum left: it is the parts
            self.last = None
        self.lv_dst = self.last[m:, :lanes] if nlv else None
        self.groups_dst = self.last[:k] if (not sizes and k and nlv) else None
        self.levels = []
        self.slabs = self.part0 = self.stage_at = None
        self.nbytes = self.parts.nbytes * 2
        self.srcs = None
        if copy:
            self.nbytes += buf.nbytes
            self.srcs = (
                buf[: k * w].reshape(k, w) if k else None,
                buf[k * w : self.tail].reshape(nleft, lanes),
            )
        items = None
        for i, size in enumerate(sizes):
            nxt = sizes[i + 1] if i + 1 < len(sizes) else m
            out = (
                np.full((nxt, w), -0.0, dtype)
                if i + 1 < len(sizes)
                else (self.parts.reshape(1, w) if self.last is None else self.last)
            )
            self.nbytes += out.nbytes
            if i == 0:
                self._slabs(size // step, w, dtype, out)
            else:
                lev = _Level(items, size, step, dtype, out)
                self.levels.append(lev)
                self.nbytes += lev.rows.nbytes
            items = out
        if self.last is not None:
            self.nbytes += self.last.nbytes

    def _slabs(self, nb, w, dtype, out):
        """Level 0 of a big plan: the whole chunks side by side a slab of `SLAB` chunks at
        a time (a slab stays in the cache while it is written and added), each slab's
        sums into its rows of `out`; the partial chunk straight into out[nb].  A slab is
        first copied as it lies into a staging buffer (a plain copy, reading memory in
        order), then laid side by side from there (the scattered copy then reads the
        cache: at 1e7 float64 values the sum takes ~30% less time than laying it out
        straight from memory; below `STAGE_BYTES` the input is likely in the cache and
        the extra copy costs more than it saves).  Two staging buffers, 2 KiB apart
        modulo 4 KiB: `run` takes the one that does not start just after the input
        modulo 4 KiB (memcpy's slow case, see `_copy_runner`)."""
        step = self.step
        width = max(1, SLAB // step)
        tr = np.empty((step, width | 1, w), dtype)  # odd: see _Level
        trv = tr.reshape(-1).view(self.void).reshape(step, width | 1)
        size = width * step * self.void.itemsize
        stages = ()
        if (self.tail + self.ns) * dtype.itemsize >= STAGE_BYTES:
            raw = np.empty(size + 4096, np.uint8)
            at = -raw.ctypes.data % 64
            stages = [
                raw[o : o + size].view(self.void).reshape(width, step) for o in (at, at + 2048)
            ]
            self.stage_at = raw.ctypes.data + at
            self.nbytes += raw.nbytes
        self.slabs = [
            (
                c,
                min(nb, c + width),
                trv[:, : min(nb, c + width) - c].T,
                tr[:, : min(nb, c + width) - c].reshape(step, -1),
                out[c : min(nb, c + width)].reshape(-1),
                tuple(st[: min(nb, c + width) - c] for st in stages),
            )
            for c in range(0, nb, width)
        ]
        self.part0 = out[nb] if self.k > nb * step else None
        self.nbytes += tr.nbytes


def _stage(plan_stage, x):
    """Which staging buffer a slab of x is copied into (see `_Plan._slabs`): the first,
    unless it starts within 256 bytes after or before x modulo 4096."""
    rel = (plan_stage - x.__array_interface__["data"][0]) % 4096
    return 0 if 256 <= rel <= 3840 else 1


_PLANS: dict = {}
#: the plans' closures by dtype, then size, for one thread's range from `RUN_MIN` values
#: (summation.torch_sum looks here first: two look-ups, no tuple key)
_RUNS: dict = {}
RUN_MIN = 64
_ZERO32 = np.float32(0.0)
#: up to this many values a plan copies the values into its buffer first
COPY_MAX = 3000
#: from this many bytes in one thread's range a big plan stages each slab (`_Plan._slabs`)
STAGE_BYTES = 6 << 20
#: groups in one slab of a big plan's level 0 (`_Plan._slabs`)
SLAB = 2048
#: the plans' buffers kept at most (bytes): more and the cache starts again
PLAN_BYTES = 64 << 20
_plan_bytes = [0]


def _plan(n, dtype):
    key = (n, dtype.char)
    p = _PLANS.get(key)
    if p is None:
        if fits(n, dtype):  # one or two full levels: sum_mid
            p = MidPlan(n, dtype)
        else:
            p = _Plan(n, dtype)
            p.run = _runner(p, n, dtype)
        if len(_PLANS) > 256 or _plan_bytes[0] + p.nbytes > PLAN_BYTES:
            _PLANS.clear()
            _RUNS.clear()
            _plan_bytes[0] = 0
        _PLANS[key] = p
        if RUN_MIN <= n <= GRAIN and dtype.isnative:
            _RUNS.setdefault(dtype, {})[n] = p.run
        _plan_bytes[0] += p.nbytes
    return p


def _runner(p, n, dtype):
    """The plan's sum as one closure over its views (no attribute look-ups per call).
    The input's pieces are viewed with np.ndarray(shape, dtype, buffer, offset): one
    call each (a slice and a reshape are two), on a C-contiguous input."""
    nd, reduce_, void, isz = np.ndarray, _reduce, p.void, dtype.itemsize
    k, step, lanes, nb = p.k, p.step, p.lanes, p.nb
    w = ILP * lanes
    rem = k - nb * step
    upper = []  # the levels after level 0: (copies, rows, out)
    for lev in p.levels:
        copies = [] if lev.full_src is None else [(lev.full_dst, lev.full_src)]
        if lev.part_src is not None:
            copies.append((lev.part_dst, lev.part_src))
        upper.append((tuple(copies), lev.rows, lev.out))
    upper = tuple(upper)
    slabs, part0, stage, stage_at = p.slabs, p.part0, _stage, p.stage_at
    groups_dst = p.groups_dst
    no_level = not p.levels and not slabs and k > 0
    last, parts, lv_dst, head = p.last, p.parts, p.lv_dst, p.head
    nleft, ns = p.nleft, p.ns
    kw = k * w
    nhead = 0 if head is None else head.size
    f32, vec_in, vec_out, acc, py = p.f32, p.vec_in, p.vec_out, p.acc, p.py
    accumulate, zero, finish, nlv4 = _accumulate, _ZERO32, _finish64, nleft * lanes
    contiguous = np.ascontiguousarray

    if p.buf is not None:  # no level at all
        return _copy_runner(p, no_level)

    def run(x):
        if not x.flags.c_contiguous:
            x = contiguous(x)
        if slabs is not None:
            src = nd((nb, step), void, x)
            if stage_at is None:
                for b, e, dst, rows, out, _ in slabs:
                    dst[...] = src[b:e]
                    reduce_(rows, 0, None, out)
            else:
                which = stage(stage_at, x)
                for b, e, dst, rows, out, stages in slabs:
                    st = stages[which]
                    st[...] = src[b:e]
                    dst[...] = st
                    reduce_(rows, 0, None, out)
            if part0 is not None:
                reduce_(nd((rem, w), dtype, x, nb * step * w * isz), 0, None, part0)
        elif no_level:
            if groups_dst is not None:
                groups_dst[...] = nd((k, w), dtype, x)
            else:
                reduce_(nd((k, w), dtype, x), 0, None, parts)
        for copies, rows, out in upper:
            for dst, src in copies:
                dst[...] = src
            reduce_(rows, 0, None, out)
        if lv_dst is not None:
            lv_dst[...] = nd((nleft, lanes), dtype, x, kw * isz)
        if last is not None:
            reduce_(last, 0, None, parts)
        if f32:
            if head is not None:
                head[...] = nd((ns,), dtype, x, (n - ns) * isz)
            reduce_(vec_in, 0, None, vec_out)
            total = accumulate(acc, 0)[-1]
            return total if total else zero  # from +0: a zero sum is +0
        if head is not None:
            head[...] = nd((nhead,), dtype, x, kw * isz)
        return finish(py.tolist(), nlv4, ns)

    return run


def _copy_runner(p, no_level):
    """The closure of a plan that copies the values into its buffer first (a ufunc loop,
    not memcpy: glibc's memcpy is up to 30x slower when the destination starts 8 to 24
    bytes after the source modulo 4096, and where the input lies is not ours to choose;
    x + -0.0 is x, bit for bit: np.add's loop is SIMD, np.positive's is not), then reads
    only views made once."""
    reduce_, add, buf, mz = _reduce, np.add, p.buf, np.full((), -0.0, p.buf.dtype)
    data = buf[: p.tail + p.ns]
    groups, lv = p.srcs  # the scalars are read where the copy puts them
    groups_dst, last, parts, lv_dst = p.groups_dst, p.last, p.parts, p.lv_dst
    stages = []
    if no_level and groups_dst is None:
        stages.append(((), groups, parts))  # the groups added straight into parts
    pre = []  # copies before the last chain
    if no_level and groups_dst is not None:
        pre.append((groups_dst, groups))
    if lv_dst is not None:
        pre.append((lv_dst, lv))
    if last is not None:
        stages.append((tuple(pre), last, parts))
    upper = tuple(stages)
    if p.f32:
        vec_in, vec_out, acc, accumulate, zero = p.vec_in, p.vec_out, p.acc, _accumulate, _ZERO32

        def run32(x):
            add(x, mz, data)
            for copies, rows, out in upper:
                for dst, src in copies:
                    dst[...] = src
                reduce_(rows, 0, None, out)
            reduce_(vec_in, 0, None, vec_out)
            total = accumulate(acc, 0)[-1]
            return total if total else zero  # from +0: a zero sum is +0

        return run32
    py, nlv, ns, finish = p.py, p.nleft * 4, p.ns, _finish64

    def run64(x):
        add(x, mz, data)
        for copies, rows, out in upper:
            for dst, src in copies:
                dst[...] = src
            reduce_(rows, 0, None, out)
        return finish(py.tolist(), nlv, ns)

    return run64


def _serial(x, p=None):
    """One thread's sum of a 1-D array (p: its plan): the vector part, then from 0 the
    scalars after the last whole vector and the lanes in order.  For float64 the few
    additions after the cascade are made on Python floats (the same IEEE additions,
    cheaper than NumPy calls on arrays of a few values)."""
    if p is None:
        p = _plan(x.size, x.dtype)
    return p.run(x)
