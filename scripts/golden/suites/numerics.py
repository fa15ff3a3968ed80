"""Record PyTorch's exact results for sums and ranges into tests/golden/numerics.json.

Run with a Python that has torch (never needed by gradcli or its tests):

    $TORCH_PYTHON scripts/gen_golden.py numerics

* "sums": torch.sum of float64/float32 vectors of many sizes, as float.hex.  The
  inputs are made the same way in the test (`values(n, seed, dtype)`: integers
  from a fixed hash divided by 7.0, which IEEE arithmetic rounds identically
  everywhere), so no input is stored.  Sums over more than 32,768 values depend
  on PyTorch's thread count, recorded as "threads".
  Sums of signed zeros (`zeros_case`) have "zeros" set.
* "pows": `x ** e` of float64/float32 vectors and the gradient of
  `(x ** e).sum()` for several exponents, as sha256 digests (inputs from `values`).
* "ranges": torch.linspace / torch.arange results, as the sha256 of their
  little-endian bytes, with the first values for a readable failure.
"""

from __future__ import annotations


import torch

from numerics_cases import POW_EXPONENTS, RANGES, SUM_SIZES, ZERO_SIZES, values, zeros_case

from golden.record import digest, write


def main(argv):
    sums = []
    for dtype in ("float64", "float32"):
        for n in SUM_SIZES:
            for seed in (1, 2):
                x = values(n, seed, dtype)
                s = torch.from_numpy(x).sum().item()
                sums.append({"dtype": dtype, "n": n, "seed": seed, "sum": float(s).hex()})
    for dtype in ("float64", "float32"):
        for n in ZERO_SIZES:
            for kind in ("neg", "mixed"):
                s = torch.from_numpy(zeros_case(n, kind, dtype)).sum().item()
                sums.append({"dtype": dtype, "n": n, "zeros": kind, "sum": float(s).hex()})
    ranges = []
    for fn, args, dtype in RANGES:
        t = getattr(torch, fn)(*args, dtype=getattr(torch, dtype)).numpy()
        ranges.append(
            {
                "fn": fn,
                "args": list(args),
                "dtype": dtype,
                "n": int(t.size),
                "sha256": digest(t),
                "head": t[:6].tolist(),
            }
        )
    pows = []
    for dtype in ("float64", "float32"):
        for e in POW_EXPONENTS:
            x = torch.from_numpy(values(2000, 3, dtype)).requires_grad_()
            y = x**e
            y.sum().backward()
            pows.append(
                {
                    "dtype": dtype,
                    "e": e,
                    "value": digest(y.detach().numpy()),
                    "grad": digest(x.grad.numpy()),
                }
            )
    data = {
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
        "sums": sums,
        "ranges": ranges,
        "pows": pows,
    }
    write("numerics.json", data, indent=0)
    print(
        f"torch {torch.__version__}, {torch.get_num_threads()} threads: {len(sums)} sums, "
        f"{len(ranges)} ranges"
    )
