#!/usr/bin/env python3
"""Record PyTorch's results that gradcli computes with torch's own kernels into
tests/golden/: softmax and log_softmax over a dim other than the last
(softmax_dims.json, inputs tests/numerics/exact_cases.py SOFTMAX_DIMS), var and std over some
dims (var_dims.json, VAR_DIMS), with their gradients, and the sum and mean of all of a
permuted tensor (permuted_sums.json, PERMUTED_SUMS), and `tensor ** tensor` (float32 and
float64) and float64 `tensor ** number` with their gradients (pow_tensors.json,
POW_TENSORS, POW_SCALARS), and F.batch_norm's value, gradients and running statistics
(batch_norm.json, BATCH_NORM, BATCH_NORM_LAYOUTS), as sha256 digests with every NaN written
as one NaN (exact_cases.nan_digest).

    $TORCH_PYTHON scripts/gen_golden.py kernels

Runs torch's AVX2 kernels (ATEN_CPU_CAPABILITY=avx2, unless set), as gradcli computes
on every machine; records the capability and the number of threads (the softmax
kernels cut their ranges between threads, numerics/parallel.py).
"""

from __future__ import annotations

import os

# before torch is imported (by this module or record.py): scripts/gen_golden.py imports
# only the suite it runs
os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")

import torch  # noqa: E402
from exact_cases import (  # noqa: E402
    BATCH_NORM,
    BATCH_NORM_LAYOUTS,
    PERMUTED_SUMS,
    POW_MIXED,
    POW_SCALAR_SHAPES,
    POW_SCALARS,
    POW_TENSORS,
    SOFTMAX_DIMS,
    VAR_DIMS,
    nan_digest,
    pow_mixed_input,
    pow_scalar_input,
    pow_tensor_input,
    batch_norm_input,
    softmax_input,
    spread,
    var_input,
)

from golden.record import write  # noqa: E402


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
    write(name, data, end="", indent=0)  # (no newline at the end)
    print(
        f"torch {torch.__version__} ({data['capability']}, {data['threads']} threads): "
        f"{len(cases)} cases -> tests/golden/{name}"
    )


def main(argv):
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
    norms = []
    for dtype in ("float32", "float64"):
        for shape in BATCH_NORM:
            for training in (True, False):
                for affine in (True, False):
                    norms.append(_batch_norm(shape, dtype, training, affine))
        for shape, perm in BATCH_NORM_LAYOUTS:
            for training in (True, False):
                for grad_t in (False, True):
                    norms.append(_batch_norm(shape, dtype, training, True, perm, grad_t))
    _write("batch_norm.json", norms)


def _batch_norm(shape, dtype, training, affine, perm=None, grad_t=False):
    """F.batch_norm of x (of `shape`, permuted by `perm`), backward from g (as the result
    is laid out, or given to the result with dims 0 and 1 swapped: `grad_t`)."""
    x, g, w, b, rm, rv = (torch.from_numpy(v) for v in batch_norm_input(shape, dtype, perm))
    x.requires_grad_()
    w, b = (w.requires_grad_(), b.requires_grad_()) if affine else (None, None)
    xp = x if perm is None else x.permute(*perm)
    y = torch.nn.functional.batch_norm(xp, rm, rv, w, b, training=training)
    if grad_t:
        y.transpose(0, 1).backward(g.reshape(-1).reshape(y.transpose(0, 1).shape))
    else:
        y.backward(g.reshape(-1).reshape(y.shape))
    return {
        "shape": list(shape),
        "perm": None if perm is None else list(perm),
        "grad_transposed": grad_t,
        "dtype": dtype,
        "training": training,
        "affine": affine,
        "out": nan_digest(y.detach().numpy()),
        "grad": nan_digest(x.grad.numpy()),
        "grad_weight": nan_digest(w.grad.numpy()) if affine else None,
        "grad_bias": nan_digest(b.grad.numpy()) if affine else None,
        "running_mean": nan_digest(rm.numpy()),
        "running_var": nan_digest(rv.numpy()),
    }
