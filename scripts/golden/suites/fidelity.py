"""Record tests/golden/fidelity.json from real PyTorch: the programs of
tests/fidelity/fidelity_cases.py (each run as record.run_program runs a program) and the float16
sweep (sha256 digests of every float16 value through HALF_OPS, gradients of HALF_GRADS).

    $TORCH_PYTHON scripts/gen_golden.py fidelity
"""

import json
import os

import numpy as np
import torch
from fidelity_cases import (
    CASES,
    HALF_GRADS,
    HALF_OPS,
    HALF_SCALARS,
    half_grad_input,
    half_input,
    half_leaf,
)

from golden import record
from golden.record import GOLDEN, record_cases, write


def digest(a):
    a = np.ascontiguousarray(a)
    if a.dtype.kind == "f":  # one nan: payloads and signs of nan are not compared
        a = np.where(np.isnan(a), np.array(np.nan, a.dtype), a)
    return record.digest(a)


def half_sweep():
    out = {}
    for op in HALF_OPS:
        for s in HALF_SCALARS:
            expr = op.replace("S", s)
            x = torch.from_numpy(half_input().copy())
            try:
                r = eval(expr, {"torch": torch, "x": x})
                out[expr] = {"dtype": str(r.dtype).replace("torch.", ""), "out": digest(r.numpy())}
            except RuntimeError as e:
                out[expr] = {"error": str(e)}
                continue
            if op in HALF_GRADS:
                x = torch.from_numpy(half_leaf()).requires_grad_()
                eval(expr, {"torch": torch, "x": x}).backward(torch.from_numpy(half_grad_input()))
                out[expr]["grad"] = digest(x.grad.numpy())
    return out


def main(argv):
    record_cases(CASES, "fidelity.json", drop_warning=lambda w: "torch.jit" in w)
    path = os.path.join(GOLDEN, "fidelity.json")
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    data = {"cases": data, "half": half_sweep()}
    write("fidelity.json", data)
    print(f"{len(data['half'])} float16 sweeps -> {path}")
