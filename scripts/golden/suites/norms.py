"""tests/golden/layer_norm.json and group_norm.json: F.layer_norm's and F.group_norm's
values and the gradients of their input, weight and bias
(tests/numerics/layer_norm_cases.py, as sha256 digests with every NaN written as one
NaN), and tests/golden/norms.json: the normalisation layers' programs
(tests/library/norm_cases.py), each run as record.run_program runs a program.

    $TORCH_PYTHON scripts/gen_golden.py norms

Runs torch's AVX2 kernels (ATEN_CPU_CAPABILITY=avx2, unless set), as gradcli computes
on every machine; records the capability and the number of threads (the backward's
weight and bias gradients are summed per thread)."""

from __future__ import annotations

import os

# before torch is imported: scripts/gen_golden.py imports only the suite it runs
os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from exact_cases import nan_digest  # noqa: E402
from layer_norm_cases import (  # noqa: E402
    GROUP_NORM,
    LAYER_NORM,
    group_norm_input,
    layer_norm_input,
)
import norm_cases  # noqa: E402

from golden.record import run_cases, write  # noqa: E402


def _layer_norm(shape, k, eps, affine, lo, hi, dtype):
    x, g, w, b = (torch.from_numpy(a) for a in layer_norm_input(shape, k, dtype, lo, hi))
    x.requires_grad_()
    w = w.requires_grad_() if affine in ("both", "weight") else None
    b = b.requires_grad_() if affine in ("both", "bias") else None
    y = F.layer_norm(x, shape[len(shape) - k :], w, b, eps)
    y.backward(g)
    return {
        "shape": list(shape),
        "k": k,
        "eps": eps,
        "affine": affine,
        "range": [lo, hi],
        "dtype": dtype,
        "out": nan_digest(y.detach().numpy()),
        "grad": nan_digest(x.grad.numpy()),
        "grad_weight": None if w is None else nan_digest(w.grad.numpy()),
        "grad_bias": None if b is None else nan_digest(b.grad.numpy()),
    }


def _group_norm(shape, groups, eps, affine, lo, hi, dtype):
    x, g, w, b = (torch.from_numpy(a) for a in group_norm_input(shape, dtype, lo, hi))
    x.requires_grad_()
    w = w.requires_grad_() if affine in ("both", "weight") else None
    b = b.requires_grad_() if affine == "both" else None
    y = F.group_norm(x, groups, w, b, eps)
    y.backward(g)
    return {
        "shape": list(shape),
        "groups": groups,
        "eps": eps,
        "affine": affine,
        "range": [lo, hi],
        "dtype": dtype,
        "out": nan_digest(y.detach().numpy()),
        "grad": nan_digest(x.grad.numpy()),
        "grad_weight": None if w is None else nan_digest(w.grad.numpy()),
        "grad_bias": None if b is None else nan_digest(b.grad.numpy()),
    }


def _write(name, cases):
    data = {
        "torch": torch.__version__,
        "capability": torch.backends.cpu.get_cpu_capability(),
        "threads": torch.get_num_threads(),
        "cases": cases,
    }
    write(name, data, end="", indent=0)
    print(f"{len(cases)} cases -> tests/golden/{name}")


def main(argv):
    cases = [
        _layer_norm(shape, k, eps, affine, lo, hi, dtype)
        for dtype in ("float32", "float64")
        for shape, k, eps, affine, (lo, hi) in LAYER_NORM
    ]
    _write("layer_norm.json", cases)
    _write(
        "group_norm.json",
        [
            _group_norm(shape, groups, eps, affine, lo, hi, dtype)
            for dtype in ("float32", "float64")
            for shape, groups, eps, affine, (lo, hi) in GROUP_NORM
        ],
    )
    out = run_cases(norm_cases.CASES)
    write("norms.json", out)
    print("wrote %d cases -> tests/golden/norms.json" % len(out))
