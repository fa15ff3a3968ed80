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


class _Plan:
    """What `_serial` decides once per size and dtype: the shape of the cascade, and
    the buffer its partial sums are written into (`out=`) rather than joined after."""
    __slots__ = ("lanes", "k", "tail", "nb", "step", "rem", "nleft", "fold", "levels", "acc")

    def __init__(self, n, dtype):
        self.lanes = lanes = 32 // dtype.itemsize
        nv = n // lanes
        self.k = k = nv // ILP
        self.tail = nv * lanes
        self.nleft = nv - k * ILP                  # vectors after the last whole group
        power = max(4, (int(k - 1).bit_length() if k > 1 else 0) // LEVELS)
        self.step = step = 1 << power
        self.nb = nb = k // step
        self.rem = k - nb * step                   # groups after the last whole chunk
        # fewer whole chunks than `step` (level 1 never flushes): the rows of `levels`
        # are the chunks' level-0 sums, the level-0 sum of the groups after them, and
        # the left-over vectors (the rest of their row zero); added in order they give
        # the four partial sums with the left-over vectors added to the first (x + y ==
        # y + x, and adding +0 changes nothing that can reach the total)
        # (float64 adds the left-over vectors on Python floats, in `_serial`); with no
        # whole chunk and nothing else to add, the groups are summed straight
        self.levels = None
        self.fold = dtype.char == "f" and self.nleft > 0
        if nb < step and (nb or self.fold):
            self.levels = np.zeros((nb + (self.rem > 0) + self.fold * self.nleft, ILP * lanes),
                                   dtype)
        # float32: [0, the scalars after the last vector, the lanes], added in order
        self.acc = np.zeros(1 + n - self.tail + lanes, dtype) if dtype.char == "f" else None


_PLANS = {}


def _vectors(x, p):
    """The four partial sums of the vectors of x (a plan from `_Plan`) -> (ILP * lanes,),
    for float32 with the left-over vectors added to the first."""
    k, step, nb, lanes = p.k, p.step, p.nb, p.lanes
    w = ILP * lanes
    buf = p.levels
    if buf is None:
        if nb == 0:
            return _reduce(x[:k * w].reshape(k, w), 0)
        parts = _multi_row_sum(x[:k * w].reshape(k, ILP, lanes)).reshape(w)
        if p.fold:
            parts = parts.copy()
            parts[:lanes] = _accumulate(np.concatenate(
                (parts[None, :lanes], x[k * w:p.tail].reshape(-1, lanes))), 0)[-1]
        return parts
    if nb:
        _reduce(x[:nb * step * w].reshape(nb, step, w), 1, out=buf[:nb])
    if p.rem:
        _reduce(x[nb * step * w:k * w].reshape(p.rem, w), 0, out=buf[nb])
    if p.fold:
        buf[-p.nleft:, :lanes] = x[k * w:p.tail].reshape(p.nleft, lanes)
    return _reduce(buf, 0)


def _serial(x):
    """One thread's sum of a contiguous 1-D array: the vector part, then from 0 the
    scalars after the last whole vector and the lanes in order.  For float64 the few
    additions after the cascade are made on Python floats (the same IEEE additions,
    cheaper than NumPy calls on arrays of a few values)."""
    key = (x.size, x.dtype.char)
    p = _PLANS.get(key)
    if p is None:
        if len(_PLANS) > 256:
            _PLANS.clear()
        p = _PLANS[key] = _Plan(x.size, x.dtype)
    lanes, tail = p.lanes, p.tail
    parts = _vectors(x, p)
    if p.acc is None:     # float64: part 0 + the left-over vectors + parts 1, 2, 3; the total
        q = parts.tolist()
        vec = q[:lanes]
        rows = x[p.k * ILP * lanes:tail].tolist()
        for i in range(0, len(rows), lanes):
            vec = [a + b for a, b in zip(vec, rows[i:i + lanes])]
        for i in range(lanes, ILP * lanes, lanes):
            vec = [a + b for a, b in zip(vec, q[i:i + lanes])]
        total = 0.0
        for a in x[tail:].tolist():
            total += a
        for a in vec:
            total += a
        return total
    acc = p.acc
    ns = x.size - tail
    if ns:
        acc[1:1 + ns] = x[tail:]
    _reduce(parts.reshape(ILP, lanes), 0, out=acc[1 + ns:])
    return _accumulate(acc, 0)[-1]      # strictly in order (a 1-D reduce is pairwise)


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
SMALL = {"d": 48, "f": 24}


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
    if n < 16 and x.dtype == np.float64:
        return _tiny64(x)
    if n < SMALL[x.dtype.char]:
        return _serial_small(x.reshape(-1), 32 // x.itemsize)
    x = np.ascontiguousarray(x).reshape(-1)
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
