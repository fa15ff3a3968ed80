"""Record PyTorch's batched products (torch.bmm, matmul with 3+ dims), their gradients and
grad_fn names into tests/golden/bmm.json (inputs: tests/numerics/bmm_cases.py), as sha256 digests.

    $TORCH_PYTHON scripts/gen_golden.py bmm

Operands are copied into torch's own (64-byte aligned) storage first: MKL's results
depend on where the data lies.
"""

from __future__ import annotations


import numpy as np
import torch

from bmm_cases import CASES, DTYPES, operand, out_grad

from golden.record import digest, write


def tensor(x, transposed, grad):
    if transposed:
        t = torch.from_numpy(np.ascontiguousarray(np.swapaxes(x, -1, -2))).clone().transpose(-1, -2)
    else:
        t = torch.from_numpy(np.ascontiguousarray(x)).clone()
    return t.requires_grad_() if grad else t


def main(argv):
    out = []
    for i, (op, sa, sb, ta, tb, ga, gb) in enumerate(CASES):
        for dtype in DTYPES:
            a = tensor(operand(sa, ta, dtype, 2 * i), ta, ga)
            b = tensor(operand(sb, tb, dtype, 2 * i + 1), tb, gb)
            r = torch.bmm(a, b) if op == "bmm" else a @ b
            r.backward(torch.from_numpy(out_grad(tuple(r.shape), dtype, 100 + i)))
            out.append(
                {
                    "case": i,
                    "dtype": dtype,
                    "out": digest(r.detach().numpy()),
                    "name": r.grad_fn.name(),
                    "ga": digest(a.grad.numpy()) if ga else None,
                    "gb": digest(b.grad.numpy()) if gb else None,
                }
            )
    data = {
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
        "capability": torch.backends.cpu.get_cpu_capability(),
        "cases": out,
    }
    write("bmm.json", data, indent=0)
    print(f"torch {torch.__version__}: {len(out)} cases")
