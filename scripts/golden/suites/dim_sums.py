"""Record PyTorch's sums and means over dims (and the same sums as a broadcast
gradient's sum_to) into tests/golden/dim_sums.json (inputs: tests/numerics/dim_sum_cases.py),
as sha256 digests.

    $TORCH_PYTHON scripts/gen_golden.py dim_sums
"""

from __future__ import annotations


import torch

from dim_sum_cases import CASES, DTYPES, case_input, keep_shape

from golden.record import digest, write


def main(argv):
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
    write("dim_sums.json", data, indent=0)
    print(f"torch {torch.__version__}: {len(out)} cases")
