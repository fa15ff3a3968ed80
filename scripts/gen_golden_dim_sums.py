"""Record PyTorch's sums and means over dims (and the same sums as a broadcast
gradient's sum_to) into tests/golden/dim_sums.json (inputs: tests/dim_sum_cases.py),
as sha256 digests.

    $TORCH_PYTHON scripts/gen_golden_dim_sums.py
"""

from __future__ import annotations

import hashlib
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "golden", "dim_sums.json")
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
from dim_sum_cases import CASES, DTYPES, case_input, keep_shape  # noqa: E402


def digest(a):
    a = np.ascontiguousarray(a)
    return hashlib.sha256(a.astype(a.dtype.newbyteorder("<")).tobytes()).hexdigest()


def main():
    out = []
    for i, (shape, dims, layout) in enumerate(CASES):
        for dtype in DTYPES:
            x = torch.from_numpy(case_input(shape, layout, dtype, i))
            b = torch.zeros(keep_shape(shape, dims), dtype=x.dtype, requires_grad=True)
            (torch.zeros(shape, dtype=x.dtype) + b).backward(x)
            out.append(
                {
                    "case": i,
                    "dtype": dtype,
                    "sum": digest(x.sum(dims).numpy()),
                    "mean": digest(x.mean(dims, keepdim=True).numpy()),
                    "sum_to": digest(b.grad.numpy()),
                }
            )
    data = {
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
        "capability": torch.backends.cpu.get_cpu_capability(),
        "cases": out,
    }
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=0)
        fh.write("\n")
    print(f"torch {torch.__version__}: {len(out)} cases")


if __name__ == "__main__":
    main()
