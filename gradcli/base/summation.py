"""PyTorch's CPU order of summation, reproduced, so that `sum()` and `mean()` of a
whole float tensor agree with PyTorch to the last bit (`loss.item()` prints all
17 digits; NumPy's pairwise order differs from PyTorch's in the last one).

What PyTorch 2.x does for a full reduction of a contiguous float32/float64 tensor
(ATen/native/cpu/SumKernel.cpp, `cascade_sum`; checked against torch 2.13 bit
for bit for sizes up to 10^7 and sums of signed zeros, tests/golden/numerics.json):

* The values are read as 256-bit vectors (`lanes` = 4 doubles or 8 floats);
  accumulation is in the tensor's own dtype, each lane separately.
* `row_sum`: the vectors are taken four at a time (`ilp` = 4); `multi_row_sum`
  adds those groups with a cascade of 4 levels: level 0 adds `step` groups one
  after the other (`step` = 2^max(4, ceil(log2(groups)) // 4)), then is added
  into level 1; level 1 is added into level 2 every `step` chunks, level 2 into
  level 3 every `step`^2.  Left-over groups go into level 0; then
  level0 + level1 + level2 + level3.  Left-over vectors (fewer than 4) are
  added to the first of the four partial vectors, which are then summed
  0 + 1 + 2 + 3.
* The scalars after the last whole vector are added first, from 0, then the
  lanes in order.  Fewer values than lanes: the same `row_sum` on scalars.
* Over 32,768 values and with more than one thread, the range is cut into one
  chunk per thread (gradcli/parallel.py), each summed as above, and the chunk
  sums added from 0 in thread order.
"""
from __future__ import annotations

import numpy as np

from .parallel import GRAIN as GRAIN_ROW, chunks

ILP = 4
LEVELS = 4


_reduce = np.add.reduce          # called with a positional axis: a keyword costs ~1 us a call
_accumulate = np.add.accumulate


def _seq(a):
    """a[0] + a[1] + ... one after the other, from 0 (over axis 0, lanes apart).
    NumPy reduces an axis that is not the innermost one row after row, in order
    (its pairwise summation is only for the innermost axis), so this is one call.
    NumPy starts from a[0], not from 0: that differs only in the sign of a sum of
    -0.0s, and the sign of a zero partial sum cannot reach the total, which is
    added from +0 (`_serial`), so the cheaper call is used."""
    return _reduce(a, 0)


def _blocks(a, step):
    """Sums of consecutive blocks of `step` rows, each added in order from 0;
    returns (the block sums, the rows after the last whole block)."""
    nb = a.shape[0] // step
    whole = a[:nb * step].reshape((nb, step) + a.shape[1:])
    return _reduce(whole, 1), a[nb * step:]


def _multi_row_sum(groups):
    """The cascade over `groups` (shape (size, ILP, lanes)) -> (ILP, lanes).
    Levels that never fill are skipped: adding their zeros changes nothing (an
    accumulator that starts from +0 is never -0)."""
    size = groups.shape[0]
    power = max(4, (int(size - 1).bit_length() if size > 1 else 0) // LEVELS)
    step = 1 << power
    acc = _seq(groups[size - size % step:])       # level 0: the groups after the last chunk
    if size < step:
        return acc
    chunk = _blocks(groups, step)[0]              # level 0 of each whole chunk
    # level 1 is added into level 2 after every `step` chunks, level 2 into 3 after
    # every step^2 chunks; what is left in levels 1 and 2 at the end stays there
    if chunk.shape[0] < step:
        return acc + _seq(chunk)
    s1, left1 = _blocks(chunk, step)
    acc = acc + _seq(left1)
    if s1.shape[0]:
        s2, left2 = _blocks(s1, step)
        acc = acc + _seq(left2)
        if s2.shape[0]:
            acc = acc + _seq(s2)
    return acc


def _row_sum(v):
    """row_sum over vectors (or scalars) v of shape (n, lanes) -> (lanes,): the
    left-over vectors added to the first partial sum, then the four partial sums
    in order (np.add.accumulate adds strictly one after the other)."""
    n = v.shape[0]
    k = n // ILP
    parts = _multi_row_sum(v[:k * ILP].reshape((k, ILP) + v.shape[1:]))
    rows = np.concatenate((parts[:1], v[k * ILP:], parts[1:]))
    return _accumulate(rows, 0)[-1]


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
    if p.f32:
        vec_in, vec_out, acc, accumulate, zero = p.vec_in, p.vec_out, p.acc, _accumulate, _ZERO32

        def run(x):
            data[...] = x
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
            data[...] = x
            dst[...] = src
            reduce_(rows, 0, None, out)
            reduce_(last, 0, None, parts)
            return finish(py.tolist(), nlv, ns)
        return run1

    def run64(x):
        data[...] = x
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


_ZERO = {"d": np.zeros(1, np.float64), "f": np.zeros(1, np.float32)}


def _serial_small(x, lanes):
    """_serial for fewer than 16 groups (no cascade level is ever flushed), on Python
    numbers: floats for float64, NumPy float32 scalars for float32 (each sum rounded)."""
    vals = x.tolist() if x.dtype == np.float64 else list(x)
    zero = x.dtype.type(0) if x.dtype != np.float64 else 0.0
    n = len(vals)
    if n < lanes:                          # row_sum on scalars
        lanes, nv = 1, n
    else:
        nv = n // lanes
    k = nv // ILP
    parts = [[zero] * lanes for _ in range(ILP)]
    for i in range(k * ILP):               # level 0: the groups one after the other
        row, base = parts[i % ILP], i * lanes
        for j in range(lanes):
            row[j] += vals[base + j]
    first = parts[0]
    for i in range(k * ILP, nv):           # the vectors left over, into the first
        base = i * lanes
        for j in range(lanes):
            first[j] += vals[base + j]
    total = first
    for r in parts[1:]:
        total = [a + b for a, b in zip(total, r)]
    if lanes == 1:
        return total[0]
    out = zero
    for v in vals[nv * lanes:]:
        out += v
    for v in total:
        out += v
    return out


#: below this many values the sum is cheaper in Python numbers than in NumPy calls
#: (float32: fewer values than lanes, where PyTorch adds scalars, not vectors)
SMALL = {"d": 16, "f": 8}
#: float64 below this many values: `_small64` (Python floats, at most 3 groups)
SMALL64 = 64


def _small64(x):
    """_serial for 16 to 63 float64 values (1 to 3 groups, no whole chunk) on Python
    floats: the four partial vectors, the left-over vectors into the first, then from
    0 the scalars and the lanes."""
    v = x.ravel().tolist()
    n = len(v)
    nv = n >> 2
    k = nv >> 2
    a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3 = v[:16]
    for i in range(16, k * 16, 16):
        a0 += v[i]
        a1 += v[i + 1]
        a2 += v[i + 2]
        a3 += v[i + 3]
        b0 += v[i + 4]
        b1 += v[i + 5]
        b2 += v[i + 6]
        b3 += v[i + 7]
        c0 += v[i + 8]
        c1 += v[i + 9]
        c2 += v[i + 10]
        c3 += v[i + 11]
        d0 += v[i + 12]
        d1 += v[i + 13]
        d2 += v[i + 14]
        d3 += v[i + 15]
    for i in range(k * 16, nv * 4, 4):
        a0 += v[i]
        a1 += v[i + 1]
        a2 += v[i + 2]
        a3 += v[i + 3]
    t = 0.0
    for i in range(nv * 4, n):
        t += v[i]
    return ((((t + (((a0 + b0) + c0) + d0)) + (((a1 + b1) + c1) + d1))
             + (((a2 + b2) + c2) + d2)) + (((a3 + b3) + c3) + d3))


def _tiny64(x):
    """_serial for fewer than 16 float64 values (at most 3 vectors, no group)."""
    v = x.ravel().tolist()
    n = len(v)
    t = 0.0
    if n < 4:
        for a in v:
            t += a
        return t
    nv = n >> 2
    l0, l1, l2, l3 = v[0], v[1], v[2], v[3]
    for b in range(4, nv * 4, 4):
        l0 += v[b]
        l1 += v[b + 1]
        l2 += v[b + 2]
        l3 += v[b + 3]
    for a in v[nv * 4:]:
        t += a
    return (((t + l0) + l1) + l2) + l3


def torch_sum(x: np.ndarray):
    """The sum of all of x (float32 or float64), in PyTorch's CPU order."""
    n = x.size
    char = x.dtype.char
    if n < SMALL[char]:
        if char == "d":
            return _tiny64(x)
        return _serial_small(x.reshape(-1), 8)
    if n < SMALL64 and char == "d":
        return _small64(x)
    if x.ndim != 1:
        x = x.reshape(-1)
    if n <= GRAIN_ROW:                       # one thread's range (parallel.chunks)
        p = _PLANS.get((n, char))
        return p.run(x) if p is not None else _serial(x)
    x = np.ascontiguousarray(x)
    pieces = chunks(n)
    if len(pieces) == 1:
        return _serial(x)
    total = x.dtype.type(0)
    for b, e in pieces:
        total = total + _serial(x[b:e])
    return total


def nll_cascade(losses, weights, keep, weighted):
    """(loss sum, weight sum) of nll_loss's reduction as PyTorch's CPU kernel adds them
    (ATen/native/LossNLL.cpp, nll_loss_out_frame): a cascade of 8 levels of partial
    sums, each level added into the next when the sample index is a multiple of
    step^level (step = 2^max(4, ceil(log2(n)) // 4)), ignored samples skipped; the
    levels are then added in order from 0.  Without weights the weight sum is the
    count of samples kept."""
    n = losses.shape[0]
    zero = losses.dtype.type(0)
    power = max(4, (int(n - 1).bit_length() if n > 1 else 0) // 4)
    mask = (1 << power) - 1
    ls = [zero] * 8
    ws = [zero] * 8
    vals = list(losses)
    wts = list(weights)
    for b in range(n):
        if not keep[b]:
            continue
        ls[0] = ls[0] + vals[b]
        ws[0] = ws[0] + wts[b]
        for j in range(7):
            if b & (mask << (j * power)):
                break
            ls[j + 1] = ls[j + 1] + ls[j]
            ws[j + 1] = ws[j + 1] + ws[j]
            ls[j] = ws[j] = zero
    total = zero
    for v in ls:
        total = total + v
    if not weighted:
        return total, losses.dtype.type(int(np.count_nonzero(keep)))
    wsum = zero
    for v in ws:
        wsum = wsum + v
    return total, wsum


def outer_sum(a):
    """The sums over axis 0 of a C-contiguous 2-D float array (M, N), in the order of
    PyTorch's `vectorized_outer_sum` (ATen/native/cpu/SumKernel.cpp): the columns in
    whole blocks of 32 (4 vectors of 8 floats, 4 of 4 doubles: 4 * lanes) are
    summed down the rows with the cascade (`_multi_row_sum`); the other columns with
    `row_sum` (rows in 4 interleaved partial sums).  Fewer columns than lanes
    (`scalar_outer_sum`): the cascade on whole groups of 4 columns, `row_sum` on the
    rest."""
    lanes = 32 // a.itemsize
    n = a.shape[1]
    # fewer columns than lanes: scalar_outer_sum, the cascade on groups of 4 columns
    block = 4 * lanes if n >= lanes else 4
    w = n // block * block
    if a.shape[0] == 0:
        return np.zeros(n, a.dtype)
    parts = []
    if w:
        parts.append(_multi_row_sum(a[:, :w]))
    if n > w:
        parts.append(_row_sum(a[:, w:]))
    return np.concatenate(parts) if len(parts) > 1 else parts[0]


def torch_sum_rows(x: np.ndarray):
    """x.sum(0) of a C-contiguous 2-D float32/float64 array (n, m) in PyTorch's CPU
    order (an nn.Linear bias's gradient summed over the batch): `outer_sum`, which
    also follows `scalar_outer_sum` for fewer columns than a vector's lanes."""
    return outer_sum(x)


def inner_sums(x):
    """The sums of the rows of a C-contiguous 2-D float array (R, m), each in PyTorch's
    order for a contiguous inner reduction (`vectorized_inner_sum` for rows of at least
    one vector, `scalar_inner_sum` below: the same `row_sum` as a whole sum of the
    row), all rows at once.  Rows longer than one thread's range are summed as whole
    sums, cut between threads (torch_sum)."""
    rows, m = x.shape
    lanes = 32 // x.itemsize
    if m > GRAIN_ROW or not rows or not m:
        return np.array([torch_sum(r) for r in x], dtype=x.dtype).reshape(rows)
    zero = np.zeros((rows, 1), x.dtype)
    if m < lanes:                              # row_sum on scalars, then added to 0
        k = m // ILP
        parts = _reduce(x[:, :k * ILP].reshape(rows, k, ILP), 1) if k else np.zeros((rows, ILP), x.dtype)
        seq = np.concatenate((zero, parts[:, :1], x[:, k * ILP:], parts[:, 1:]), axis=1)
        return _accumulate(seq, 1)[:, -1]
    w = ILP * lanes
    nv = m // lanes
    k = nv // ILP
    tail = nv * lanes
    power = max(4, (int(k - 1).bit_length() if k > 1 else 0) // LEVELS)
    step = 1 << power
    nb = k // step
    if nb >= step:                             # level 1 flushes: one row at a time
        return np.array([_serial(np.ascontiguousarray(r)) for r in x], dtype=x.dtype)
    levels = []
    if nb:
        levels.append(_reduce(x[:, :nb * step * w].reshape(rows, nb, step, w), 2))
    if k > nb * step:
        levels.append(_reduce(x[:, nb * step * w:k * w].reshape(rows, k - nb * step, w), 1)[:, None])
    parts = _reduce(np.concatenate(levels, axis=1), 1) if levels else np.zeros((rows, w), x.dtype)
    seq = np.concatenate((parts[:, None, :lanes], x[:, k * w:tail].reshape(rows, -1, lanes),
                          parts[:, lanes:].reshape(rows, ILP - 1, lanes)), axis=1)
    vec = _reduce(seq, 1)
    return _accumulate(np.concatenate((zero, x[:, tail:], vec), axis=1), 1)[:, -1]


def torch_cumsum(x, axis, dtype):
    """Running sums along `axis` as PyTorch's CPU kernel makes them: from +0, float32 in
    a double accumulator (each sum rounded to float32 as it is stored)."""
    dtype = np.dtype(dtype)
    if dtype.kind != "f":
        return np.cumsum(x, axis=axis, dtype=dtype)
    acc = np.float64 if dtype.itemsize <= 8 else dtype
    return (np.cumsum(x, axis=axis, dtype=acc) + 0.0).astype(dtype, copy=False)
