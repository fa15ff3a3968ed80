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

from .parallel import chunks

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


def _serial(x):
    """One thread's sum of a contiguous 1-D array: the vector part, then from 0 the
    scalars after the last whole vector and the lanes in order.  For float64 the few
    additions after the cascade are made on Python floats (the same IEEE additions,
    cheaper than NumPy calls on arrays of a few values)."""
    lanes = 32 // x.itemsize
    n = x.size
    if n < lanes:                          # scalar_inner_sum: row_sum on scalars
        return _ZERO[x.dtype.char][0] + _row_sum(x.reshape(n, 1))[0] if n else x.dtype.type(0)
    nv = n // lanes
    k = nv // ILP
    v = x[:nv * lanes].reshape(nv, lanes)
    parts = _multi_row_sum(v[:k * ILP].reshape(k, ILP, lanes))
    if x.dtype.char == "d":
        p = parts.tolist()
        vec = p[0]
        for row in v[k * ILP:].tolist() + p[1:]:     # the left-over vectors, then parts 1-3
            vec = [a + b for a, b in zip(vec, row)]
        total = 0.0
        for a in x[nv * lanes:].tolist():
            total += a
        for a in vec:
            total += a
        return total
    vec = _accumulate(np.concatenate((parts[:1], v[k * ILP:], parts[1:])), 0)[-1]
    return _accumulate(np.concatenate((_ZERO[x.dtype.char], x[nv * lanes:], vec)), 0)[-1]


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
