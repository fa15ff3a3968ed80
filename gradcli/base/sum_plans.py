"""The plans behind `summation.torch_sum` for one thread's range of 8 or more values:
PyTorch's cascade (see gradcli/base/summation.py) made of few NumPy calls on buffers
and views prepared once per size and dtype (issue 16: the per-call cost of NumPy calls
on small arrays, not the arithmetic, was the time).

Every sum is the one `summation._multi_row_sum` and its callers make, addition for
addition (tests/test_summation_plans.py compares with a frozen copy of the code these
plans replaced, tests/sum_reference.py).  What lets a level be one NumPy call:

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

ILP = 4
LEVELS = 4

_reduce = np.add.reduce          # called with a positional axis: a keyword costs ~1 us a call
_accumulate = np.add.accumulate


class _Level:
    """One level of the cascade: its `items` (rows of w values) cut in blocks of `step`,
    the whole blocks laid side by side in `tr` (step, blocks, w) (block b's item s at
    [s, b], copied in whole rows through a void dtype of a row's bytes), the items after
    the last whole block as one more block padded with -0.0 (x + -0.0 == x for every x,
    signed zeros included); one reduce over the first axis of `tr` adds every block
    item after item, from its first, into `out` (the next level's items)."""
    __slots__ = ("full_src", "full_dst", "part_src", "part_dst", "rows", "out")

    def __init__(self, items, m, step, dtype, out, whole=None):
        w = out.shape[1]
        nbl = m // step
        r = m - nbl * step
        cols = nbl + (r > 0)
        self.out = out[:cols].reshape(-1)
        self.part_src = self.part_dst = None
        if cols == 1 and r == 0 and items is not None:     # one whole block: add it in place
            self.full_src = self.full_dst = None
            self.rows = items[:step]
            return
        void = np.dtype((np.void, w * dtype.itemsize))
        # an odd number of columns: rows a power of two bytes apart would fall in one
        # cache set (the copy writes down a column)
        tr = np.full((step, cols | 1, w), -0.0, dtype)
        if whole is None:                          # the padded items are in `items`
            whole = nbl
        self.full_src = None if items is None else \
            items[:whole * step].reshape(-1).view(void).reshape(whole, step)
        self.full_dst = tr.reshape(-1).view(void).reshape(step, cols | 1)[:, :whole].T
        if whole < cols:
            self.part_src = None if items is None else items[nbl * step:m]
            self.part_dst = tr[:r, nbl]
        self.rows = tr[:, :cols].reshape(step, cols * w)


class _Plan:
    """What `_serial` decides once per size and dtype, and the buffers it works in: the
    cascade of `_multi_row_sum` as at most three `_Level`s and a last chain.

    The values are copied into `buf` with one call (`direct`, big sizes: read from the
    input itself) and every view is made here once.  Level 0's items are the groups;
    each level's items are the sums of the previous level's blocks followed by the sum
    of its padded last block, which carries the levels left over from before (each
    added last, by x + y == y + x the same sum as `_multi_row_sum`'s).  A level with no
    whole block, or the fourth, is the last chain: its items (float32: then the vectors
    after the last group, padded with -0.0) added in order -> `parts`."""
    __slots__ = ("lanes", "k", "tail", "nleft", "ns", "f32", "direct", "step", "void",
                 "data", "levels", "last", "lv_src", "lv_dst", "groups_dst", "groups_src",
                 "parts", "vec_in", "vec_out", "acc", "py", "nbytes", "slabs", "part0", "run")

    def __init__(self, n, dtype):
        self.lanes = lanes = 32 // dtype.itemsize
        w = ILP * lanes
        nv = n // lanes
        self.k = k = nv // ILP
        self.tail = tail = nv * lanes
        self.nleft = nleft = nv - k * ILP          # vectors after the last whole group
        self.ns = n - tail                         # scalars after the last whole vector
        power = max(4, (int(k - 1).bit_length() if k > 1 else 0) // LEVELS)
        self.step = step = 1 << power
        self.f32 = f32 = dtype.char == "f"
        self.direct = direct = n > DIRECT
        self.void = np.dtype((np.void, w * dtype.itemsize))
        nlv = nleft if f32 else 0                  # float32 adds the left-over vectors last
        sizes = []                                 # the items of each level
        m = k
        while len(sizes) < 3 and m >= step:
            sizes.append(m)
            m = m // step + (m % step > 0)
        exact = n == k * w and not direct and sizes
        nb0 = k // step
        buf = None if direct else np.full(
            max(n + w, (nb0 + 1) * step * w if exact else 0), -0.0, dtype)
        self.data = None if direct else buf[:n]
        self.nbytes = 0 if direct else buf.nbytes
        # parts, the lanes' sums (float32) or the Python values (float64)
        if f32:
            self.parts = np.zeros(w, dtype)
            self.vec_in = self.parts.reshape(ILP, lanes)
            if exact or direct:
                self.acc = np.zeros(self.ns + lanes, dtype)
                self.vec_out = self.acc[self.ns:]
            else:
                self.vec_out = buf[n:n + lanes]
                self.acc = buf[tail:n + lanes]     # the scalars, then the lanes
            self.py = None
        else:
            self.parts = np.zeros(w, dtype) if exact or direct else buf[n:n + w]
            self.parts[:] = 0.0                    # no group at all: the sums are +0
            self.py = self.parts if exact or direct else buf[k * w:n + w]
            self.vec_in = self.vec_out = self.acc = None
        # the last chain: the items of the last level, then the left-over vectors
        self.last = np.full((m + nlv, w), -0.0, dtype) if (sizes or nlv) else None
        if sizes and m == 1 and not nlv:           # one sum left: it is the parts
            self.last = None
        self.lv_src = self.lv_dst = self.groups_src = self.groups_dst = None
        if nlv:
            self.lv_dst = self.last[m:, :lanes]
            self.lv_src = None if direct else buf[k * w:tail].reshape(nleft, lanes)
        if not sizes:                              # fewer groups than a block: no level
            if k:
                src = buf[:k * w].reshape(k, w)
                if nlv:
                    self.groups_src, self.groups_dst = src, self.last[:k]
                else:
                    self.last = src
        self.levels = []
        self.slabs = None
        items = None if direct else buf[:buf.size // w * w].reshape(-1, w)
        for i, size in enumerate(sizes):
            nxt = sizes[i + 1] if i + 1 < len(sizes) else m
            out = np.full((nxt, w), -0.0, dtype) if i + 1 < len(sizes) else (
                self.parts.reshape(1, w) if self.last is None else self.last)
            self.nbytes += out.nbytes
            if i == 0 and direct:
                self._slabs(size // step, w, dtype, out)
                items = out
                continue
            lev = _Level(items, size, step, dtype, out,
                         whole=size // step + (size % step > 0) if (i == 0 and exact) else None)
            self.levels.append(lev)
            self.nbytes += lev.rows.nbytes
            items = out
        if self.last is not None:
            self.nbytes += self.last.nbytes

    def _slabs(self, nb, w, dtype, out):
        """Level 0 of a big plan: the whole chunks side by side a slab of `SLAB` chunks at
        a time (a slab stays in the cache while it is written and added), each slab's
        sums into its rows of `out`; the partial chunk straight into out[nb]."""
        step = self.step
        width = max(1, SLAB // step)
        tr = np.empty((step, width | 1, w), dtype)      # odd: see _Level
        trv = tr.reshape(-1).view(self.void).reshape(step, width | 1)
        self.slabs = [(c, min(nb, c + width), trv[:, :min(nb, c + width) - c].T,
                       tr[:, :min(nb, c + width) - c].reshape(step, -1),
                       out[c:min(nb, c + width)].reshape(-1)) for c in range(0, nb, width)]
        self.part0 = out[nb] if self.k > nb * step else None
        self.nbytes += tr.nbytes


_PLANS = {}
_ZERO32 = np.float32(0.0)
#: above this many values a plan reads the input itself rather than a copy
DIRECT = 16384
#: groups in one slab of a big plan's level 0 (`_Plan._slabs`)
SLAB = 2048
#: the plans' buffers kept at most (bytes): more and the cache starts again
PLAN_BYTES = 64 << 20
_plan_bytes = [0]


def _plan(n, dtype):
    key = (n, dtype.char)
    p = _PLANS.get(key)
    if p is None:
        p = _Plan(n, dtype)
        p.run = _runner(p)
        if len(_PLANS) > 256 or _plan_bytes[0] + p.nbytes > PLAN_BYTES:
            _PLANS.clear()
            _plan_bytes[0] = 0
        _PLANS[key] = p
        _plan_bytes[0] += p.nbytes
    return p


def _runner(p):
    """The plan's sum as one closure over its views (no attribute look-ups per call):
    copy the values in, then each stage's copies and its reduce, then the lanes."""
    if p.direct:
        return lambda x: _serial_direct(np.ascontiguousarray(x), p)
    stages = []
    for lev in p.levels:
        copies = [] if lev.full_src is None else [(lev.full_dst, lev.full_src)]
        if lev.part_src is not None:
            copies.append((lev.part_dst, lev.part_src))
        stages.append((tuple(copies), lev.rows, lev.out))
    copies = [c for c in ((p.groups_dst, p.groups_src), (p.lv_dst, p.lv_src)) if c[1] is not None]
    if p.last is not None:
        stages.append((tuple(copies), p.last, p.parts))
    stages = tuple(stages)
    data, reduce_ = p.data, _reduce
    # the values are copied by a ufunc loop, not memcpy: glibc's memcpy (rep movsb) is up
    # to 30x slower when the destination starts 8 to 24 bytes after the source modulo
    # 4096 (measured: 44 us instead of 1.6 for 16,384 float64 values), and where the
    # input lies is not ours to choose; +x is x, bit for bit
    copy = np.positive
    if p.f32:
        vec_in, vec_out, acc, accumulate, zero = p.vec_in, p.vec_out, p.acc, _accumulate, _ZERO32

        def run(x):
            copy(x, data)
            for copies, rows, out in stages:
                for dst, src in copies:
                    dst[...] = src
                reduce_(rows, 0, None, out)
            reduce_(vec_in, 0, None, vec_out)
            total = accumulate(acc, 0)[-1]
            return total if total else zero     # from +0: a zero sum is +0
        return run
    py, nlv, ns, finish = p.py, p.nleft * 4, p.ns, _finish64
    if len(stages) == 2 and len(stages[0][0]) == 1 and not stages[1][0] and p.last is not None:
        # one level whose blocks are moved in one copy (the common mid size)
        ((dst, src),), rows, out = stages[0]
        last, parts = stages[1][1:]

        def run1(x):
            copy(x, data)
            dst[...] = src
            reduce_(rows, 0, None, out)
            reduce_(last, 0, None, parts)
            return finish(py.tolist(), nlv, ns)
        return run1

    def run64(x):
        copy(x, data)
        for copies, rows, out in stages:
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


def _serial_direct(x, p):
    """_serial for a plan that reads the (contiguous) input itself."""
    lanes, k, step, tail = p.lanes, p.k, p.step, p.tail
    w = ILP * lanes
    nb = k // step
    src = x[:nb * step * w].view(p.void).reshape(nb, step)
    for b, e, dst, rows, out in p.slabs:
        dst[...] = src[b:e]
        _reduce(rows, 0, None, out)
    if p.part0 is not None:
        _reduce(x[nb * step * w:k * w].reshape(-1, w), 0, None, p.part0)
    for lev in p.levels:
        if lev.full_src is not None:
            lev.full_dst[...] = lev.full_src
        if lev.part_src is not None:
            lev.part_dst[...] = lev.part_src
        _reduce(lev.rows, 0, None, lev.out)
    if p.lv_dst is not None:
        p.lv_dst[...] = x[k * w:tail].reshape(-1, lanes)
    if p.last is not None:
        _reduce(p.last, 0, None, p.parts)
    if p.f32:
        acc = p.acc
        acc[:p.ns] = x[tail:]
        _reduce(p.vec_in, 0, None, p.vec_out)
        total = _accumulate(acc, 0)[-1]
        return total if total else _ZERO32
    return _finish64(x[k * w:].tolist() + p.parts.tolist(), p.nleft * 4, p.ns)


def _finish64(v, nlv, ns):
    """float64: part 0 + the left-over vectors + parts 1, 2, 3, lane by lane; then from 0
    the scalars and the lanes.  v = [left-over vectors (nlv values), scalars (ns), parts]."""
    if not (nlv or ns):
        a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3 = v
        return ((((0.0 + (((a0 + b0) + c0) + d0)) + (((a1 + b1) + c1) + d1))
                 + (((a2 + b2) + c2) + d2)) + (((a3 + b3) + c3) + d3))
    o = nlv + ns
    l0, l1, l2, l3 = v[o:o + 4]
    for i in range(0, nlv, 4):
        l0 += v[i]
        l1 += v[i + 1]
        l2 += v[i + 2]
        l3 += v[i + 3]
    l0 = ((l0 + v[o + 4]) + v[o + 8]) + v[o + 12]
    l1 = ((l1 + v[o + 5]) + v[o + 9]) + v[o + 13]
    l2 = ((l2 + v[o + 6]) + v[o + 10]) + v[o + 14]
    l3 = ((l3 + v[o + 7]) + v[o + 11]) + v[o + 15]
    total = 0.0
    for i in range(nlv, o):
        total += v[i]
    return (((total + l0) + l1) + l2) + l3
