"""The inputs of tests/golden/bmm.json (shared by scripts/gen_golden.py bmm, which
records torch's results, and tests/numerics/test_bmm.py): torch.bmm and matmul with an operand
of 3 or more dims (gradcli/numerics/linalg/bmm.py), sizes on both sides of bmm's own loop
(k * n * p < 400) and MKL's batch gemm, row-major and transposed operands, folded
products (one operand of at most 2 dims) and broadcast batches, with their gradients."""

from __future__ import annotations

import numpy as np

#: (op, shape of a, shape of b, a transposed?, b transposed?, a needs grad?, b needs grad?)
CASES = [
    ("bmm", (2, 3, 4), (2, 4, 5), False, False, True, True),
    ("bmm", (3, 7, 7), (3, 7, 8), False, False, True, True),  # 392: bmm's loop
    ("bmm", (3, 7, 8), (3, 8, 8), False, False, True, True),  # 448: MKL
    ("bmm", (1, 20, 30), (1, 30, 10), False, False, True, True),  # one item: gemm
    ("bmm", (5, 20, 30), (5, 30, 10), True, False, True, True),
    ("bmm", (5, 20, 30), (5, 30, 10), False, True, True, True),
    ("bmm", (4, 33, 17), (4, 17, 40), True, True, True, True),
    ("bmm", (8, 1, 64), (8, 64, 1), False, False, True, True),
    ("matmul", (4, 16, 32), (4, 32, 16), False, False, True, True),
    ("matmul", (2, 3, 10, 20), (2, 3, 20, 30), False, False, True, True),
    ("matmul", (6, 10, 20), (20, 30), False, False, True, True),  # folded into mm
    ("matmul", (6, 10, 20), (20, 30), False, True, True, False),
    ("matmul", (6, 10, 20), (20,), False, False, True, True),  # folded into mv
    ("matmul", (10, 20), (6, 20, 30), False, False, True, True),  # folded, transposed
    ("matmul", (10, 20), (6, 20, 30), False, False, False, True),  # expanded: bmm
    ("matmul", (20,), (6, 20, 30), False, False, True, True),
    ("matmul", (1, 10, 20), (5, 20, 30), False, False, True, True),  # batch of one dropped
    ("matmul", (1, 10, 20), (5, 20, 30), False, False, False, True),  # broadcast batch
    ("matmul", (5, 10, 20), (1, 20, 30), False, False, True, False),
    ("matmul", (3, 1, 10, 20), (4, 20, 30), False, False, True, True),
]
DTYPES = ("float32", "float64")


def operand(shape, transposed, dtype, seed):
    """Values in [-2, 2) laid out row-major, or transposed (a view of the swapped array)."""
    x = np.random.default_rng(seed).uniform(-2, 2, shape).astype(dtype)
    if not transposed:
        return x
    return np.swapaxes(np.ascontiguousarray(np.swapaxes(x, -1, -2)), -1, -2)


def out_grad(shape, dtype, seed):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype)
