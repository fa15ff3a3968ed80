#!/usr/bin/env python3
"""Record PyTorch's var and std over some dims (not all), and their gradients, into
tests/golden/var_dims.json (inputs: tests/exact_cases.py VAR_DIMS), as sha256 digests
with every NaN written as one NaN.

    /work/torchenv/bin/python scripts/gen_golden_var_dims.py

Runs torch's AVX2 kernels (ATEN_CPU_CAPABILITY=avx2, unless set), as gradcli computes
on every machine.
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
OUT = os.path.join(HERE, "..", "tests", "golden", "var_dims.json")
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
from exact_cases import VAR_DIMS, var_input  # noqa: E402


def digest(a):
    a = np.array(a)
    a[np.isnan(a)] = np.nan
    return hashlib.sha256(a.astype(a.dtype.newbyteorder("<")).tobytes()).hexdigest()


def main():
    cases = []
    for shape, dim, keepdim, correction in VAR_DIMS:
        for dtype in ("float32", "float64"):
            xa, ga = var_input(shape, dtype)
            for op in ("var", "std"):
                x = torch.from_numpy(xa.copy()).requires_grad_()
                y = getattr(torch, op)(x, dim, correction=correction, keepdim=keepdim)
                y.backward(torch.from_numpy(ga).reshape(-1)[:y.numel()].reshape(y.shape))
                cases.append({"op": op, "shape": list(shape), "dim": dim, "keepdim": keepdim,
                              "correction": correction, "dtype": dtype,
                              "out": digest(y.detach().numpy()), "grad": digest(x.grad.numpy())})
    data = {"torch": torch.__version__, "capability": torch.backends.cpu.get_cpu_capability(),
            "threads": torch.get_num_threads(), "cases": cases}
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=0)
    print(f"torch {torch.__version__} ({data['capability']}): {len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
