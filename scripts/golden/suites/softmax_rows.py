#!/usr/bin/env python3
"""Record torch's softmax and log_softmax over the last dim with their gradients
(tests/golden/softmax_rows.json, inputs tests/numerics/exact_cases.py SOFTMAX_ROWS: every
row length around the vectors of torch's AVX2 kernels, both dtypes, edge values), as
sha256 digests with every NaN written as one NaN (exact_cases.nan_digest).

    $TORCH_PYTHON scripts/gen_golden.py softmax_rows

Runs torch's AVX2 kernels (ATEN_CPU_CAPABILITY=avx2, unless set), as gradcli computes
on every machine.
"""

from __future__ import annotations

import os

# before torch is imported (scripts/gen_golden.py imports only the suite it runs)
os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")

import torch  # noqa: E402
from exact_cases import SOFTMAX_ROWS, nan_digest, softmax_rows_input  # noqa: E402

from golden.record import write  # noqa: E402


def main(argv):
    cases = []
    for shape in SOFTMAX_ROWS:
        for dtype in ("float32", "float64"):
            x_array, g_array = softmax_rows_input(shape, dtype)
            for op in ("softmax", "log_softmax"):
                x = torch.from_numpy(x_array.copy()).requires_grad_()
                y = getattr(torch, op)(x, dim=-1)
                y.backward(torch.from_numpy(g_array))
                cases.append(
                    {
                        "op": op,
                        "shape": list(shape),
                        "dtype": dtype,
                        "out": nan_digest(y.detach().numpy()),
                        "grad": nan_digest(x.grad.numpy()),
                    }
                )
    data = {
        "torch": torch.__version__,
        "capability": torch.backends.cpu.get_cpu_capability(),
        "cases": cases,
    }
    write("softmax_rows.json", data, end="", indent=0)
    print(f"torch {torch.__version__} ({data['capability']}): {len(cases)} cases")
