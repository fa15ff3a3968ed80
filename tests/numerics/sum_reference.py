"""A frozen copy of gradcli's whole-sum code (gradcli/numerics/sums/summation.py: `torch_sum`,
`_serial`, `_vectors`, `_Plan`, ...) as it was before the faster plans:
the oracle that tests/numerics/test_summation_plans.py compares the current code with, bit for
bit.  It is this project's own code; keep it unchanged."""

from __future__ import annotations

import numpy as np

from gradcli.numerics.parallel import chunks

ILP = 4
LEVELS = 4


_reduce = np.add.reduce  # called with a positional axis: a keyword costs ~1 us a call
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


class _Plan:
    """What `_serial` decides once per size and dtype: the shape of the cascade, and
    the buffer its partial sums are written into (`out=`) rather than joined after."""

    __slots__ = ("lanes", "k", "tail", "nb", "step", "rem", "nleft", "fold", "levels", "acc")

    def __init__(self, n, dtype):
        self.lanes = lanes = 32 // dtype.itemsize
        nv = n // lanes
        self.k = k = nv // ILP
        self.tail = nv * lanes
        self.nleft = nv - k * ILP  # vectors after the last whole group
        power = max(4, (int(k - 1).bit_length() if k > 1 else 0) // LEVELS)
        self.step = step = 1 << power
        self.nb = nb = k // step
        self.rem = k - nb * step  # groups after the last whole chunk
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
            self.levels = np.zeros(
                (nb + (self.rem > 0) + self.fold * self.nleft, ILP * lanes), dtype
            )
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
            return _reduce(x[: k * w].reshape(k, w), 0)
        parts = _multi_row_sum(x[: k * w].reshape(k, ILP, lanes)).reshape(w)
        if p.fold:
            parts = parts.copy()
            parts[:lanes] = _accumulate(
                np.concatenate((parts[None, :lanes], x[k * w : p.tail].reshape(-1, lanes))), 0
            )[-1]
        return parts
    if nb:
        _reduce(x[: nb * step * w].reshape(nb, step, w), 1, out=buf[:nb])
    if p.rem:
        _reduce(x[nb * step * w : k * w].reshape(p.rem, w), 0, out=buf[nb])
    if p.fold:
        buf[-p.nleft :, :lanes] = x[k * w : p.tail].reshape(p.nleft, lanes)
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
    if p.acc is None:  # float64: part 0 + the left-over vectors + parts 1, 2, 3; the total
        q = parts.tolist()
        vec = q[:lanes]
        rows = x[p.k * ILP * lanes : tail].tolist()
        for i in range(0, len(rows), lanes):
            vec = [a + b for a, b in zip(vec, rows[i : i + lanes])]
        for i in range(lanes, ILP * lanes, lanes):
            vec = [a + b for a, b in zip(vec, q[i : i + lanes])]
        total = 0.0
        for a in x[tail:].tolist():
            total += a
        for a in vec:
            total += a
        return total
    acc = p.acc
    ns = x.size - tail
    if ns:
        acc[1 : 1 + ns] = x[tail:]
    _reduce(parts.reshape(ILP, lanes), 0, out=acc[1 + ns :])
    return _accumulate(acc, 0)[-1]  # strictly in order (a 1-D reduce is pairwise)


_ZERO = {"d": np.zeros(1, np.float64), "f": np.zeros(1, np.float32)}


def _serial_small(x, lanes):
    """_serial for fewer than 16 groups (no cascade level is ever flushed), on Python
    numbers: floats for float64, NumPy float32 scalars for float32 (each sum rounded)."""
    vals = x.tolist() if x.dtype == np.float64 else list(x)
    zero = x.dtype.type(0) if x.dtype != np.float64 else 0.0
    n = len(vals)
    if n < lanes:  # row_sum on scalars
        lanes, nv = 1, n
    else:
        nv = n // lanes
    k = nv // ILP
    parts = [[zero] * lanes for _ in range(ILP)]
    for i in range(k * ILP):  # level 0: the groups one after the other
        row, base = parts[i % ILP], i * lanes
        for j in range(lanes):
            row[j] += vals[base + j]
    first = parts[0]
    for i in range(k * ILP, nv):  # the vectors left over, into the first
        base = i * lanes
        for j in range(lanes):
            first[j] += vals[base + j]
    total = first
    for r in parts[1:]:
        total = [a + b for a, b in zip(total, r)]
    if lanes == 1:
        return total[0]
    out = zero
    for v in vals[nv * lanes :]:
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
    for a in v[nv * 4 :]:
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
