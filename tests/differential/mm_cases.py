"""Matrix products whose MKL call gradcli makes on one thread with the bits of PyTorch's
two (gradcli/numerics/mkl.py's `cut`, `solo` and `shared`): random shapes drawn near the
rules' edges, on both sides, for torch.mm (and its gradients), torch.addmm with beta and
alpha, 3-D @ 2-D matmul (folded into one product) and torch.bmm.  NumPy only: the torch
half (torch_mm.py) and the gradcli half (test_mm_threads.py) build the same operands from
it.
"""

from __future__ import annotations

import hashlib

import numpy as np

DTYPES = ("float32", "float64")
# near the rules' edges: rows 4/5, 8, 9, 11/12 (a float32 thread's part of 1 to 3 rows);
# columns 12/13, 24/25/26, 35/36 (a float64 thread's part of 1 column, the sharing of rows
# or columns); 100/101 rows or columns with k 4 (shared from 101); k 4/5, 16/17, 256/257
ROWS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 20, 25, 31, 32, 33, 64, 101)
COLS = (1, 2, 3, 11, 12, 13, 16, 17, 24, 25, 26, 32, 35, 36, 37, 48, 100, 101)
KS = (1, 2, 4, 5, 10, 16, 17, 32, 100, 256, 257, 300)
OPS = ("mm", "addmm", "matmul3d", "bmm")
COUNT = 400  # cases per dtype


def cases(seed=0, count=COUNT):
    """[{op, dtype, rows, cols, k, ta, tb, ...}]: the same list on both sides."""
    rng = np.random.default_rng(seed)
    out = []
    for dtype in DTYPES:
        for i in range(count):
            op = OPS[i % len(OPS)]
            c = {
                "op": op,
                "dtype": dtype,
                "rows": int(rng.choice(ROWS)),
                "cols": int(rng.choice(COLS)),
                "k": int(rng.choice(KS)),
                "ta": bool(rng.integers(2)),
                "tb": bool(rng.integers(2)),
                "seed": int(rng.integers(2**31)),
            }
            if op == "addmm":
                c["bias"] = str(rng.choice(["row", "full"]))
                c["beta"] = [1, 0.0, 0.5, 3.0][int(rng.integers(4))]
                c["alpha"] = [1, 0.5, 2.0, -1.5][int(rng.integers(4))]
            if op in ("matmul3d", "bmm"):
                c["batch"] = int(rng.integers(2, 5))
            out.append(c)
    return out


def stored(rng, shape, dtype, transposed):
    """An operand of `shape` with values in [-2, 2): C-contiguous, or (transposed) the
    transpose of a C-contiguous array (a view passed to gemm with its transpose flag)."""
    if transposed:
        shape = shape[:-2] + (shape[-1], shape[-2])
    x = rng.uniform(-2.0, 2.0, shape).astype(dtype)
    return np.swapaxes(x, -1, -2) if transposed else x


def operands(c):
    """The case's arrays: a, b, the output's gradient and addmm's bias (or None)."""
    rng = np.random.default_rng(c["seed"])
    r, n, k, dt = c["rows"], c["cols"], c["k"], c["dtype"]
    if c["op"] == "matmul3d":
        sa, sb, so = (c["batch"], r, k), (k, n), (c["batch"], r, n)
    elif c["op"] == "bmm":
        sa, sb, so = (c["batch"], r, k), (c["batch"], k, n), (c["batch"], r, n)
    else:
        sa, sb, so = (r, k), (k, n), (r, n)
    a = stored(rng, sa, dt, c["ta"])
    b = stored(rng, sb, dt, c["tb"])
    g = rng.uniform(-2.0, 2.0, so).astype(dt)
    bias = None
    if c["op"] == "addmm":
        bias = rng.uniform(-2.0, 2.0, (n,) if c["bias"] == "row" else (r, n)).astype(dt)
    return a, b, g, bias


def digest(x):
    """An array's bytes (C order) as a sha256, as the goldens record arrays."""
    x = np.ascontiguousarray(x)
    return hashlib.sha256(x.astype(x.dtype.newbyteorder("<")).tobytes()).hexdigest()
