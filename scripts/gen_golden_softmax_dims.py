#!/usr/bin/env python3
"""Record PyTorch's softmax and log_softmax over a dim other than the last, and their
gradients, into tests/golden/softmax_dims.json (inputs: tests/exact_cases.py
SOFTMAX_DIMS), as sha256 digests with every NaN written as one NaN (torch's vector
max leaves all-ones NaNs, which print as any other NaN; gradcli does not copy the
bits of a NaN).

    /work/torchenv/bin/python scripts/gen_golden_softmax_dims.py

Runs torch's AVX2 kernels (ATEN_CPU_CAPABILITY=avx2, unless set), as gradcli
computes on every machine; records the capability and the number of threads (the
kernels' ranges are cut between threads, base/parallel.py).
"""
from __future__ import annotations

import hashlib
import json
import os
import sys

os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")

import numpy as np  # noqa: E402
import torch  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "golden", "softmax_dims.json")
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
from exact_cases import SOFTMAX_DIMS, softmax_input  # noqa: E402


def digest(a):
    a = np.array(a)
    a[np.isnan(a)] = np.nan
    return hashlib.sha256(a.astype(a.dtype.newbyteorder("<")).tobytes()).hexdigest()


def main():
    cases = []
    for shape, dim in SOFTMAX_DIMS:
        for dtype in ("float32", "float64"):
            xa, ga = softmax_input(shape, dtype)
            for op in ("softmax", "log_softmax"):
                x = torch.from_numpy(xa.copy()).requires_grad_()
                y = getattr(torch, op)(x, dim)
                y.backward(torch.from_numpy(ga))
                cases.append({"op": op, "shape": list(shape), "dim": dim, "dtype": dtype,
                              "out": digest(y.detach().numpy()), "grad": digest(x.grad.numpy())})
    data = {"torch": torch.__version__, "capability": torch.backends.cpu.get_cpu_capability(),
            "threads": torch.get_num_threads(), "cases": cases}
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=0)
    print(f"torch {torch.__version__} ({data['capability']}, {data['threads']} threads): "
          f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
