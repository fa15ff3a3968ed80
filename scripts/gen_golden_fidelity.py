"""Record tests/golden/fidelity.json from real PyTorch: the programs of
tests/fidelity_cases.py (as scripts/gen_golden.py runs its cases) and the float16
sweep (sha256 digests of every float16 value through HALF_OPS, gradients of HALF_GRADS).

    $TORCH_PYTHON scripts/gen_golden_fidelity.py
"""

import hashlib
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

from gen_golden import GOLDEN, record_cases  # noqa: E402
from fidelity_cases import (
    CASES,
    HALF_GRADS,
    HALF_OPS,
    HALF_SCALARS,
    half_grad_input,  # noqa: E402
    half_input,
    half_leaf,
)


def digest(a):
    a = np.ascontiguousarray(a)
    if a.dtype.kind == "f":  # one nan: payloads and signs of nan are not compared
        a = np.where(np.isnan(a), np.array(np.nan, a.dtype), a)
    return hashlib.sha256(a.astype(a.dtype.newbyteorder("<")).tobytes()).hexdigest()


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


def main():
    record_cases(CASES, "fidelity.json", drop_warning=lambda w: "torch.jit" in w)
    path = os.path.join(GOLDEN, "fidelity.json")
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    data = {"cases": data, "half": half_sweep()}
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    print(f"{len(data['half'])} float16 sweeps -> {path}")


if __name__ == "__main__":
    main()
