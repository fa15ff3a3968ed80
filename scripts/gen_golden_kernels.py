#!/usr/bin/env python3
"""Record PyTorch's results that gradcli computes with torch's own kernels into
tests/golden/: softmax and log_softmax over a dim other than the last
(softmax_dims.json, inputs tests/exact_cases.py SOFTMAX_DIMS), var and std over some
dims (var_dims.json, VAR_DIMS), with their gradients, and the sum and mean of all of a
permuted tensor (permuted_sums.json, PERMUTED_SUMS), and `tensor ** tensor` (float32 and
float64) and float64 `tensor ** number` with their gradients (pow_tensors.json,
POW_TENSORS, POW_SCALARS), as sha256 digests with every NaN written
as one NaN (exact_cases.nan_digest).

    $TORCH_PYTHON scripts/gen_golden_kernels.py

Runs torch's AVX2 kernels (ATEN_CPU_CAPABILITY=avx2, unless set), as gradcli computes
on every machine; records the capability and the number of threads (the softmax
kernels cut their ranges between threads, numerics/parallel.py).
"""

from __future__ import annotations

import json
import os
import sys

os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")

import torch  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "..", "tests", "golden")
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
from exact_cases import (
    PERMUTED_SUMS,
    POW_MIXED,
    POW_SCALAR_SHAPES,
    POW_SCALARS,  # noqa: E402
    POW_TENSORS,
    SOFTMAX_DIMS,
    VAR_DIMS,
    nan_digest,
    pow_mixed_input,
    pow_scalar_input,
    pow_tensor_input,
    softmax_input,
    spread,
    var_input,
)


def _case(op, x_array, g_array, **kwargs):
    """op's value and x's gradient (the gradient given cut to the value's shape)."""
    x = torch.from_numpy(x_array.copy()).requires_grad_()
    y = getattr(torch, op)(x, **kwargs)
    y.backward(torch.from_numpy(g_array).reshape(-1)[: y.numel()].reshape(y.shape))
    return {"out": nan_digest(y.detach().numpy()), "grad": nan_digest(x.grad.numpy())}


def _write(name, cases):
    data = {
        "torch": torch.__version__,
        "capability": torch.backends.cpu.get_cpu_capability(),
        "threads": torch.get_num_threads(),
        "cases": cases,
    }
    with open(os.path.join(GOLDEN, name), "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=0)
    print(
        f"torch {torch.__version__} ({data['capability']}, {data['threads']} threads): "
        f"{len(cases)} cases -> tests/golden/{name}"
    )


def main():
    softmax = []
    for shape, dim in SOFTMAX_DIMS:
        for dtype in ("float32", "float64"):
            x, g = softmax_input(shape, dtype)
            for op in ("softmax", "log_softmax"):
                softmax.append(
                    {
                        "op": op,
                        "shape": list(shape),
                        "dim": dim,
                        "dtype": dtype,
                        **_case(op, x, g, dim=dim),
                    }
                )
    _write("softmax_dims.json", softmax)
    var = []
    for shape, dim, keepdim, correction in VAR_DIMS:
        for dtype in ("float32", "float64"):
            x, g = var_input(shape, dtype)
            for op in ("var", "std"):
                var.append(
                    {
                        "op": op,
                        "shape": list(shape),
                        "dim": dim,
                        "keepdim": keepdim,
                        "correction": correction,
                        "dtype": dtype,
                        **_case(op, x, g, dim=dim, correction=correction, keepdim=keepdim),
                    }
                )
    _write("var_dims.json", var)
    sums = []
    for shape, perm in PERMUTED_SUMS:
        for dtype in ("float32", "float64"):
            x = torch.from_numpy(
                spread(int(torch.tensor(shape).prod()), 71, -3.0, 5.0, dtype).reshape(shape)
            ).permute(*perm)
            sums.append(
                {
                    "shape": list(shape),
                    "perm": list(perm),
                    "dtype": dtype,
                    "sum": nan_digest(x.sum().numpy()),
                    "mean": nan_digest(x.mean().numpy()),
                }
            )
    _write("permuted_sums.json", sums)
    pows = []
    for dtype in ("float32", "float64"):
        for sa, sb in POW_TENSORS:
            a, b, g = (torch.from_numpy(v) for v in pow_tensor_input(sa, sb, dtype))
            a.requires_grad_()
            b.requires_grad_()
            y = a**b
            y.backward(g)
            pows.append(
                {
                    "a": list(sa),
                    "b": list(sb),
                    "dtype": dtype,
                    "out": nan_digest(y.detach().numpy()),
                    "grad_a": nan_digest(a.grad.numpy()),
                    "grad_b": nan_digest(b.grad.numpy()),
                }
            )
    for shape in POW_SCALAR_SHAPES:  # float64 tensor ** number
        for e in POW_SCALARS:
            x, g = (torch.from_numpy(v) for v in pow_scalar_input(shape))
            x.requires_grad_()
            y = x**e
            y.backward(g)
            pows.append(
                {
                    "x": list(shape),
                    "e": e,
                    "out": nan_digest(y.detach().numpy()),
                    "grad": nan_digest(x.grad.numpy()),
                }
            )
    for dtype, shape in POW_MIXED:  # an exponent of another dtype: only the base's gradient
        a, b, g = (torch.from_numpy(v) for v in pow_mixed_input(dtype, shape))
        a.requires_grad_()
        y = a**b
        y.backward(g)
        pows.append(
            {
                "b_dtype": dtype,
                "b": list(shape),
                "out": nan_digest(y.detach().numpy()),
                "grad_a": nan_digest(a.grad.numpy()),
            }
        )
    _write("pow_tensors.json", pows)


if __name__ == "__main__":
    main()
