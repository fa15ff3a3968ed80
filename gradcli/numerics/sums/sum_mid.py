"""Whole sums of mid sizes (one thread's range with one or two full cascade levels:
`MID_MIN` values to `MID_MAX`) in PyTorch's order: `summation._multi_row_sum`'s
additions, one after the other, as a straight-line closure of few NumPy calls per size
and dtype (at these sizes the fixed cost of each NumPy call, ~0.3 us for a
ufunc, ~1 us for a reduce, is the time, not the arithmetic).

The facts used (tests/numerics/test_summation_plans.py checks every size of this range against
the frozen reference, bit for bit):

* a reduce over the first axis of a C-contiguous (rows, width) array adds the rows one
  after the other (NumPy's pairwise summation is only for the innermost axis), so the
  blocks of a level, laid side by side (block b's item s at [s, b]), are summed by one
  reduce with an inner loop over all of them;
* x + -0.0 == x for every x, signed zeros included: the last, partial block of a level
  is padded with -0.0, and the values are copied into the plan's buffer by adding -0.0
  (a SIMD ufunc loop: cheaper than np.positive's, and no memcpy, which glibc makes up
  to 30x slower when the destination starts 8-24 bytes after the source modulo 4096);
* x + y == y + x, so the sum of the levels before is carried as the last item of the
  next level's last block, and a last chain of two rows is one np.add.
"""

from __future__ import annotations

import numpy as np

ILP = 4
#: the sizes these plans take (below: sum_plans' plans; above: its slabbed plans)
MID_MIN = 256
MID_MAX = 32768
#: up to this many values (per dtype char) the values are copied into the plan's
#: buffer first (one ufunc call); above, the pieces are viewed in the input per call
COPY_MAX = {"f": 3600, "d": 3000}

_reduce = np.add.reduce
_accumulate = np.add.accumulate
_add = np.add
_ZERO32 = np.float32(0.0)


def _step(k):
    power = max(4, (int(k - 1).bit_length() if k > 1 else 0) // 4)
    return 1 << power


def cascade_power(n, dtype):
    """log2 of the cascade's step for n values of dtype (`geometry`'s step: its groups of
    four vectors), as the compiled sums take it (numerics/native_sums.py)."""
    k = n // (128 // dtype.itemsize)
    return max(4, (k - 1).bit_length() // 4 if k > 1 else 0)


def fits(n, dtype):
    """Whether `MidPlan` takes n values of dtype (one or two full cascade levels)."""
    if not MID_MIN <= n <= MID_MAX:
        return False
    k = n // (128 // dtype.itemsize)
    step = _step(k)
    return step <= k < step * step * step


def _tr(step, m, w, dtype, void):
    """The side-by-side layout of a level of `m` items: (step, cols | 1, w), -0.0 where
    no item goes (an odd number of columns: a power-of-two row stride would put a
    column copy's writes in one cache set); its items as void values of a row's bytes
    (copies move whole items) and its rows (for one reduce)."""
    cols = -(-m // step)
    tr = np.full((step, cols | 1, w), -0.0, dtype)
    items = tr.reshape(-1).view(void).reshape(step, cols | 1)  # item s of block b at [s, b]
    return tr, items, tr[:, :cols].reshape(step, cols * w), cols


def geometry(n, dtype):
    """How n values of dtype are cut: (lanes per vector, w = values per group of ILP
    vectors, nv vectors, k whole groups, nleft vectors after them, ns scalars after the
    vectors, step groups per block, nb whole blocks, rem groups after them, cols0
    blocks in all)."""
    lanes = 32 // dtype.itemsize
    w = ILP * lanes
    nv = n // lanes
    k = nv // ILP
    step = _step(k)
    nb, rem = divmod(k, step)
    return lanes, w, nv, k, nv - k * ILP, n - nv * lanes, step, nb, rem, nb + (rem > 0)


def one_copied_level(n, dtype):
    """Whether MidPlan takes n values of dtype with one level, copying them first (the
    plans sum_rows.RowsPlan makes for several sums at once)."""
    if not fits(n, dtype) or n > COPY_MAX[dtype.char]:
        return False
    geo = geometry(n, dtype)
    return geo[9] <= geo[6]


class MidPlan:
    """The buffers and the closure (`run`) for n values of dtype."""

    __slots__ = ("run", "nbytes")

    def __init__(self, n, dtype):
        isz = dtype.itemsize
        lanes, w, nv, k, nleft, ns, step, nb, rem, cols0 = geometry(n, dtype)
        f32 = dtype.char == "f"
        void = np.dtype((np.void, w * isz))
        nlv = nleft if f32 else 0  # float32: the left-over vectors in the last chain
        two = cols0 > step  # a second level (cols0 items, blocks of step)
        copy = n <= COPY_MAX[dtype.char] and not two
        if two:
            tr1, items1, rows1, cols1 = _tr(step, cols0, w, dtype, void)
            out0 = np.full((cols1 * step, w), -0.0, dtype)  # whole blocks for one copy
            m = cols1
        else:
            m = cols0
        tr0, items0, rows0, _ = _tr(step, k, w, dtype, void)
        extra = lanes if f32 else w  # after the values: float32 the lanes, float64 the parts
        buf = np.full(n + extra, -0.0, dtype) if copy else None
        # the last chain: the items of the last level, then (float32) the left-over vectors
        last = np.full((m + nlv, w), -0.0, dtype)
        if f32:
            parts = np.zeros(w, dtype)
            vec_in = parts.reshape(ILP, lanes)
            acc = buf[n - ns :] if copy else np.zeros(ns + lanes, dtype)
            vec_out = acc[ns:]
            head = None if (copy or not ns) else acc[:ns]
        else:
            vec_in = vec_out = None
            py = buf[k * w :] if copy else np.zeros(nleft * lanes + ns + w, dtype)
            parts = py[nleft * lanes + ns :]
            head = None if (copy or not (nleft or ns)) else py[: nleft * lanes + ns]
        lout = (out0[:cols0] if two else last[:cols0]).reshape(-1)
        self.nbytes = (
            sum(a.nbytes for a in (tr0, last, parts) if a is not None)
            + (buf.nbytes if copy else 0)
            + ((tr1.nbytes + out0.nbytes) if two else 0)
        )
        full0 = items0[:, :nb].T
        part0 = items0[:rem, nb] if rem else None
        lv_dst = last[m:, :lanes] if nlv else None
        l2 = last.shape[0] == 2  # the last chain is one addition
        la, lb = last[0], last[1] if last.shape[0] > 1 else None
        if two:  # level 1: level 0's sums side by side
            dst1 = items1[:, :cols1].T
            src1 = out0.reshape(-1).view(void).reshape(cols1, step)
            out1 = last[:cols1].reshape(-1)
        nd, reduce_, add, accumulate, zero = np.ndarray, _reduce, _add, _accumulate, _ZERO32
        finish = _finish64
        nl4 = nleft * lanes
        if copy:
            mz = np.full((), -0.0, dtype)
            data = buf[:n]
            full_src = buf[: nb * step * w].view(void).reshape(nb, step)
            part_src = buf[nb * step * w : k * w].view(void) if rem else None
            lv_src = buf[k * w : k * w + nleft * lanes].reshape(nleft, lanes) if nlv else None
            self.run = _copy_closure(
                f32,
                data,
                mz,
                full0,
                full_src,
                part0,
                part_src,
                rows0,
                lout,
                lv_dst,
                lv_src,
                last,
                l2,
                la,
                lb,
                parts,
                vec_in,
                vec_out,
                acc if f32 else py,
                nl4,
                ns,
            )
            return
        off_part = nb * step * w * isz
        off_lv = k * w * isz
        off_head = (n - ns) * isz
        nhead = nl4 + ns
        shape_full = (nb, step)
        shape_part = (rem,)
        shape_lv = (nleft, lanes)

        contiguous = np.ascontiguousarray

        def run(x):
            if not x.flags.c_contiguous:
                x = contiguous(x)
            full0[...] = nd(shape_full, void, x)
            if part0 is not None:
                part0[...] = nd(shape_part, void, x, off_part)
            reduce_(rows0, 0, None, lout)
            if two:
                dst1[...] = src1
                reduce_(rows1, 0, None, out1)
            if lv_dst is not None:
                lv_dst[...] = nd(shape_lv, dtype, x, off_lv)
            if l2:
                add(la, lb, parts)
            else:
                reduce_(last, 0, None, parts)
            if f32:
                if head is not None:
                    head[...] = nd((ns,), dtype, x, off_head)
                reduce_(vec_in, 0, None, vec_out)
                total = accumulate(acc, 0)[-1]
                return total if total else zero  # from +0: a zero sum is +0
            if head is not None:
                head[...] = nd((nhead,), dtype, x, off_lv)
            return finish(py.tolist(), nl4, ns)

        self.run = run


def _copy_closure(
    f32,
    data,
    mz,
    full0,
    full_src,
    part0,
    part_src,
    rows0,
    lout,
    lv_dst,
    lv_src,
    last,
    l2,
    la,
    lb,
    parts,
    vec_in,
    vec_out,
    tail,
    nl4,
    ns,
):
    """The closure of a plan with one level that first copies the values into its buffer
    (x + -0.0), then reads only views made once; `tail`: float32 [scalars, lanes],
    float64 [left-over vectors, scalars, parts], both views of the buffer."""
    reduce_, add, accumulate, zero, finish = _reduce, _add, _accumulate, _ZERO32, _finish64

    def run(x):
        add(x, mz, data)
        full0[...] = full_src
        if part0 is not None:
            part0[...] = part_src
        reduce_(rows0, 0, None, lout)
        if lv_dst is not None:
            lv_dst[...] = lv_src
        if l2:
            add(la, lb, parts)
        else:
            reduce_(last, 0, None, parts)
        if f32:
            reduce_(vec_in, 0, None, vec_out)
            total = accumulate(tail, 0)[-1]
            return total if total else zero  # from +0: a zero sum is +0
        return finish(tail.tolist(), nl4, ns)

    return run


def _finish64(v, nlv, ns):
    """float64: part 0 + the left-over vectors + parts 1, 2, 3, lane by lane; then from 0
    the scalars and the lanes.  v = [left-over vectors (nlv values), scalars (ns), parts]."""
    if not (nlv or ns):
        a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3 = v
        return (
            ((0.0 + (((a0 + b0) + c0) + d0)) + (((a1 + b1) + c1) + d1)) + (((a2 + b2) + c2) + d2)
        ) + (((a3 + b3) + c3) + d3)
    o = nlv + ns
    l0, l1, l2, l3 = v[o : o + 4]
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
