"""The PyTorch half of test_mm_threads.py: run with a Python that has torch.

    python torch_mm.py SEED COUNT

prints, as one JSON list, each case's digests (mm_cases.py): the product and the
gradients of both operands.  Operands are copied into torch's own (64-byte aligned)
storage, a transposed one as the transpose of a contiguous tensor, as gradcli places them.
"""

import json
import sys

import numpy as np
import torch

from mm_cases import cases, digest, operands


def tensor(x, transposed):
    if transposed:
        base = np.ascontiguousarray(np.swapaxes(x, -1, -2))
        return torch.from_numpy(base).clone().transpose(-1, -2).requires_grad_()
    return torch.from_numpy(np.ascontiguousarray(x)).clone().requires_grad_()


def run(c):
    a_, b_, g, bias = operands(c)
    a, b = tensor(a_, c["ta"]), tensor(b_, c["tb"])
    if c["op"] == "mm":
        out = torch.mm(a, b)
    elif c["op"] == "addmm":
        out = torch.addmm(torch.from_numpy(bias).clone(), a, b, beta=c["beta"], alpha=c["alpha"])
    elif c["op"] == "bmm":
        out = torch.bmm(a, b)
    else:
        out = torch.matmul(a, b)
    out.backward(torch.from_numpy(g).clone())
    return {
        "out": digest(out.detach().numpy()),
        "ga": digest(a.grad.numpy()),
        "gb": digest(b.grad.numpy()),
    }


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    results = [run(c) for c in cases(seed, count)]
    info = {"threads": torch.get_num_threads(), "torch": torch.__version__}
    print(json.dumps({"info": info, "results": results}))


if __name__ == "__main__":
    main()
