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

from functools import reduce
from operator import add

import numpy as np

from .. import native, native_layers, native_sum_calls
from ..parallel import GRAIN as GRAIN_ROW, chunks
from .sum_mid import MID_MIN, cascade_power
from .sum_plans import ILP, LEVELS, _PLANS, _RUNS, _accumulate, _reduce, _serial


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
    whole = a[: nb * step].reshape((nb, step) + a.shape[1:])
    return _reduce(whole, 1), a[nb * step :]


def _multi_row_sum(groups):
    """The cascade over `groups` (shape (size, ILP, lanes)) -> (ILP, lanes).
    Levels that never fill are skipped: adding their zeros changes nothing (an
    accumulator that starts from +0 is never -0)."""
    size = groups.shape[0]
    power = max(4, (int(size - 1).bit_length() if size > 1 else 0) // LEVELS)
    step = 1 << power
    acc = _seq(groups[size - size % step :])  # level 0: the groups after the last chunk
    if size < step:
        return acc
    chunk = _blocks(groups, step)[0]  # level 0 of each whole chunk
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
    parts = _multi_row_sum(v[: k * ILP].reshape((k, ILP) + v.shape[1:]))
    rows = np.concatenate((parts[:1], v[k * ILP :], parts[1:]))
    return _accumulate(rows, 0)[-1]


_Z32 = np.float32(0.0)


def _tiny32(x):
    """_serial for fewer than 8 float32 values (fewer than a vector's lanes: row_sum on
    scalars, 4 partial sums) on NumPy float32 scalars: a Python float added to one is
    converted to float32 (exact: the values are float32's) and each sum rounded to
    float32, as PyTorch's (about 1 us; NumPy calls on the array cost several)."""
    v = x.ravel().tolist()
    z = _Z32
    if len(v) < 4:  # no group: the values into part 0, from +0
        t = z
        for a in v:
            t = t + a
        return t + z  # + parts 1, 2, 3 (zeros)
    p0, p1, p2, p3 = z + v[0], z + v[1], z + v[2], z + v[3]
    for a in v[4:]:  # the left-over values, into part 0
        p0 = p0 + a
    return ((p0 + p1) + p2) + p3


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
    return (((t + (((a0 + b0) + c0) + d0)) + (((a1 + b1) + c1) + d1)) + (((a2 + b2) + c2) + d2)) + (
        ((a3 + b3) + c3) + d3
    )


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
    for a in v[nv * 4 :]:
        t += a
    return (((t + l0) + l1) + l2) + l3


def in_memory_order(x: np.ndarray):
    """x's values in the order they lie in memory, as one row: what PyTorch's iterator
    walks for a reduction of all of x (it sorts the dims by stride and merges them) when
    x is a permutation of a contiguous array (a transpose, a permute); C order for any
    other x."""
    if x.ndim < 2:
        return x.reshape(-1)
    y = x.transpose(sorted(range(x.ndim), key=lambda d: -x.strides[d]))
    return y.reshape(-1) if y.flags.c_contiguous else x.reshape(-1)


def torch_sum(x: np.ndarray):
    """The sum of all of x (float32 or float64), in PyTorch's CPU order (a permuted x's
    in memory order: `in_memory_order`)."""
    if not x.flags.c_contiguous:
        x = in_memory_order(x)
    dtype = x.dtype
    n = x.size
    if MID_MIN <= n <= GRAIN_ROW and dtype.char in "fd" and dtype.isnative:
        # the compiled loop (numerics/native_sums.py), on the values as they lie (a 1-D
        # view that in_memory_order leaves strided goes to the plans, which copy it)
        if x.flags.c_contiguous and native.ready(n) is not None:
            out = native_sum_calls.sums((x.reshape(-1),), None, cascade_power(n, dtype))
            return out[0] if dtype.char == "f" else float(out[0])  # (as the plans give it)
    runs = _RUNS.get(dtype)  # a size of one thread's range seen before
    if runs is not None:
        run = runs.get(x.size)
        if run is not None and x.ndim == 1:
            return run(x)
    n = x.size
    if not dtype.isnative:  # the plans read the bytes in the machine's order
        x = x.astype(dtype.newbyteorder("="))
    char = x.dtype.char
    if char not in SMALL:  # float16: PyTorch adds in float32 (its opmath type)
        return torch_sum(x.astype(np.float32))
    if n < SMALL[char]:
        if char == "d":
            return _tiny64(x)
        return _tiny32(x)
    if n < SMALL64 and char == "d":
        return _small64(x)
    if x.ndim != 1:
        x = x.reshape(-1)
    if n <= GRAIN_ROW:  # one thread's range (parallel.chunks)
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


def nll_cascade(losses, weights, keep, weighted, whole=None):
    """(loss sum, weight sum) of nll_loss's reduction as PyTorch's CPU kernel adds them
    (ATen/native/LossNLL.cpp, nll_loss_out_frame): a cascade of 8 levels of partial
    sums, each level added into the next when the sample index is a multiple of
    step^level (step = 2^max(4, ceil(log2(n)) // 4)), ignored samples skipped; the
    levels are then added in order from 0.  Without weights the weight sum is the
    count of samples kept.  With every sample kept, each level is a few NumPy calls
    (`_nll_levels`); an ignored sample at a multiple of step adds nothing to the next
    level, so then the samples are walked one by one (`nll_cascade_walk`).  `whole`:
    whether every sample is kept, when the caller knows (else keep tells)."""
    n = losses.shape[0]
    if n and not (keep.all() if whole is None else whole):
        return nll_cascade_walk(losses, weights, keep, weighted)
    power = max(4, (int(n - 1).bit_length() if n > 1 else 0) // 4)
    if not weighted and n <= SMALL_NLL and (losses.dtype == _F64 or losses.dtype == _F32):
        # (float32: its NumPy scalars, whose additions are float32's, in the same order)
        seq = losses.tolist() if losses.dtype == _F64 else list(losses)
        total = _nll_levels_floats(seq, 1 << power)
        if total == total:
            return losses.dtype.type(total), losses.dtype.type(n)
    zero = losses.dtype.type(0)
    with np.errstate(invalid="ignore", over="ignore"):
        total = _nll_levels(losses, 1 << power, zero)
        wsum = _nll_levels(np.asarray(weights, losses.dtype), 1 << power, zero) if weighted else 0
    if total != total or wsum != wsum:
        # (NaNs: which of two a sum keeps, sign and payload, is up to the loop's code)
        return nll_cascade_walk(losses, weights, keep, weighted)
    return total, (wsum if weighted else losses.dtype.type(n))


def _nll_levels(seq, step, zero):
    """The cascade's total over seq, every sample kept: level j receives the sums that
    level j - 1 passes on (the samples at level 0) and passes on its first item alone,
    then every `step` items after it, each sum from +0; what it holds at the end stays;
    the last level (7) passes nothing on.  Then the levels' rests from 0, in order."""
    total = zero
    for _ in range(7):
        m = seq.shape[0]
        if m <= 1:
            # (one item left: each level would pass it on plus +0, and add +0 to the
            # total, which is never -0: the same as adding it once below)
            break
        full = (m - 1) // step
        out = np.empty(full + 1, seq.dtype)
        out[0] = seq[0] + zero
        if full:
            # each block's items one after the other (accumulate adds strictly one
            # after the other; or, for many blocks, down the rows of the blocks'
            # transpose: NumPy reduces an axis that is not the innermost one row after
            # row, in order, `_seq`, in one call, where an accumulation along 16-item
            # rows pays its inner loop per row; a single block's transpose is one
            # contiguous column, which NumPy would sum pairwise).  A sum from its first
            # item is the sum from +0 once +0 is added: they differ only for all -0.0s
            body = seq[1 : 1 + full * step].reshape(full, step)
            if full < 8:
                out[1:] = _accumulate(body, 1)[:, -1] + zero
            else:
                out[1:] = _reduce(np.ascontiguousarray(body.T), 0) + zero
        total = total + _seq_from_zero(seq[1 + full * step :], zero)
        seq = out
    return total + _seq_from_zero(seq, zero)


#: float64 losses of at most this many samples are added as Python floats (the same
#: IEEE additions in the same order, without a NumPy call per level), float32 ones as
#: NumPy's float32 scalars
SMALL_NLL = 96
_F64 = np.dtype(np.float64)
_F32 = np.dtype(np.float32)


def _nll_levels_floats(seq, step):
    """_nll_levels on a list of Python floats (doubles), or of NumPy float32 scalars (to
    which a Python float adds as a float32: NumPy's weak scalars): each block's sum from
    its first item, then +0, as `_accumulate`'s last item plus +0; the rests from their first item
    plus +0 (`_seq_from_zero`)."""
    total = 0.0
    for _ in range(7):
        m = len(seq)
        if m <= 1:
            break
        full = (m - 1) // step
        out = [seq[0] + 0.0]
        for j in range(full):
            out.append(reduce(add, seq[1 + j * step : 1 + (j + 1) * step]) + 0.0)
        rest = seq[1 + full * step :]
        if rest:
            total = total + (reduce(add, rest) + 0.0)
        seq = out
    if seq:
        total = total + (reduce(add, seq) + 0.0)
    return total


def _seq_from_zero(v, zero):
    return np.add.accumulate(v)[-1] + zero if v.shape[0] else zero


def nll_cascade_walk(losses, weights, keep, weighted):
    """nll_cascade, sample by sample (any samples ignored)."""
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
    if a.dtype.char in "fd" and a.dtype.isnative and a.flags.c_contiguous:
        out = native_layers.outer_sum(a, w)  # (the same additions, one compiled call)
        if out is not None:
            return out
    parts = []
    if w:
        parts.append(_multi_row_sum(a[:, :w]))
    if n > w:
        parts.append(_row_sum(a[:, w:]))
    return np.concatenate(parts) if len(parts) > 1 else parts[0]


def _chunk_sums(x, rows, m, nb, step, w):
    """Level 0 of every row's whole chunks, (rows, nb, w): the chunks' groups laid side
    by side, item s of every chunk in row s of one (step, rows * nb * w) array (one
    copy of whole groups through a void dtype of a group's bytes), so that one reduce
    over the first axis adds each chunk's groups in order with an inner loop over all
    the chunks (a reduce over the middle axis of (rows, nb, step, w) runs an inner loop
    of w values per group)."""
    x = np.ascontiguousarray(x)  # the view below reads x's buffer
    isz = x.itemsize
    void = np.dtype((np.void, w * isz))
    tr = np.empty((step, rows * nb, w), x.dtype)
    src = np.ndarray((rows, nb, step), void, x, 0, (m * isz, step * w * isz, w * isz))
    tr.reshape(step, rows * nb * w).view(void).reshape(step, rows, nb).transpose(1, 2, 0)[...] = src
    return _reduce(tr.reshape(step, rows * nb * w), 0).reshape(rows, nb, w)


def inner_sums(x):
    """The sums of the rows of a C-contiguous 2-D float array (R, m), each in PyTorch's
    order for a contiguous inner reduction (`vectorized_inner_sum` for rows of at least
    one vector, `scalar_inner_sum` below: the same `row_sum` as a whole sum of the
    row), all rows at once.  Rows longer than one thread's range: one row is a whole
    sum, cut between threads (torch_sum); several are each summed by one thread
    (PyTorch cuts the kept dim between threads, never a row)."""
    rows, m = x.shape
    lanes = 32 // x.itemsize
    if (
        lanes <= m <= GRAIN_ROW
        and x.dtype.char in "fd"
        and x.dtype.isnative
        and x.flags.c_contiguous
        and native.ready(rows * m) is not None
    ):
        # each row a whole sum (its values within one thread's range): the compiled
        # loop's sums (numerics/native_sums.py), the cascade's step as below
        k = m // (ILP * lanes)
        out = native_sum_calls.row_sums(x, max(4, (k - 1).bit_length() // LEVELS if k > 1 else 0))
        if out is not None:
            return out
    if m > GRAIN_ROW or not rows or not m:
        if rows == 1 or not m:
            return np.array([torch_sum(r) for r in x], dtype=x.dtype).reshape(rows)
        return np.array([_serial(np.ascontiguousarray(r)) for r in x], dtype=x.dtype)
    zero = np.zeros((rows, 1), x.dtype)
    if m < lanes:  # row_sum on scalars, then added to 0
        k = m // ILP
        parts = (
            _reduce(x[:, : k * ILP].reshape(rows, k, ILP), 1)
            if k
            else np.zeros((rows, ILP), x.dtype)
        )
        seq = np.concatenate((zero, parts[:, :1], x[:, k * ILP :], parts[:, 1:]), axis=1)
        return _accumulate(seq, 1)[:, -1]
    w = ILP * lanes
    nv = m // lanes
    k = nv // ILP
    tail = nv * lanes
    power = max(4, (int(k - 1).bit_length() if k > 1 else 0) // LEVELS)
    step = 1 << power
    nb = k // step
    if nb >= step:  # level 1 flushes: one row at a time
        return np.array([_serial(np.ascontiguousarray(r)) for r in x], dtype=x.dtype)
    if nb:
        levels = [_chunk_sums(x, rows, m, nb, step, w)]
        if k > nb * step:
            levels.append(
                _reduce(x[:, nb * step * w : k * w].reshape(rows, k - nb * step, w), 1)[:, None]
            )
        parts = _reduce(np.concatenate(levels, axis=1), 1)
    elif k:  # (one level: each accumulator's vectors added in turn, k rows of all of them)
        parts = _reduce(_rows_first(x[:, : k * w].reshape(rows, k, w)), 0)
    else:
        parts = np.zeros((rows, w), x.dtype)
    # the accumulators' first vector, the row's other whole vectors, the 3 other
    # accumulators, added in turn; then from 0 the scalar tail and the vector's lanes
    more = nv - k * ILP
    seq = np.empty((1 + more + ILP - 1, rows, lanes), x.dtype)
    seq[0] = parts[:, :lanes]
    seq[1 : 1 + more] = x[:, k * w : tail].reshape(rows, more, lanes).transpose(1, 0, 2)
    seq[1 + more :] = parts[:, lanes:].reshape(rows, ILP - 1, lanes).transpose(1, 0, 2)
    vec = _reduce(seq, 0)
    last = np.empty((1 + m - tail + lanes, rows), x.dtype)
    last[0] = 0
    last[1 : 1 + m - tail] = x[:, tail:].T
    last[1 + m - tail :] = vec.T
    return _accumulate(last, 0)[-1]  # (a reduce of one row would be NumPy's pairwise sum)


def _rows_first(a):
    """a (rows, n, w) as a C-contiguous (n, rows, w): a reduce over its first axis adds
    whole arrays in turn, n - 1 long additions, where one over a's middle axis runs an
    inner loop of w values per step."""
    return np.ascontiguousarray(a.transpose(1, 0, 2))


def torch_cumsum(x, axis, dtype):
    """Running sums along `axis` as PyTorch's CPU kernel makes them: from +0, float32 in
    a double accumulator (each sum rounded to float32 as it is stored)."""
    dtype = np.dtype(dtype)
    if dtype.kind != "f":
        return np.cumsum(x, axis=axis, dtype=dtype)
    acc = np.float64 if dtype.itemsize <= 8 else dtype
    return (np.cumsum(x, axis=axis, dtype=acc) + 0.0).astype(dtype, copy=False)
