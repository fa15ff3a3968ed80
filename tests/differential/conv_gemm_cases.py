"""Convolutions whose per-sample gemms PyTorch makes on its threads (slow_conv2d's weight
gradient, slow_conv_dilated2d's every gemm, a single sample's forward and input gradient)
and gradcli on one, as MKL's two threads share them (gradcli/numerics/mkl.py's `cut` and
`shared`): float64 convolutions of random shapes, groups and dilations, and float32 single
small samples (slow_conv2d's too).  NumPy only: the torch half (torch_conv.py) and
the gradcli half (test_conv_gemm_threads.py) build the same operands from it.
"""

from __future__ import annotations

import hashlib

import numpy as np

COUNT = 80


def cases(seed=0, count=COUNT):
    """[{dtype, n, c, o, groups, h, w, k, dilation, bias, seed}]: the same list on both
    sides."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        single = len(out) % 4 == 3  # a float32 single small sample
        groups = 1 if single or rng.random() < 0.7 else 2
        k = int(rng.integers(1, 4))
        dilation = 1 if single or rng.random() < 0.7 else 2
        c = dict(
            dtype="float32" if single else "float64",
            n=1 if single else int(rng.integers(1, 5)),
            c=groups * int(rng.integers(1, 7)),
            o=groups * int(rng.choice([1, 2, 3, 4, 5, 6, 7, 9, 10, 12, 13, 16, 25])),
            groups=groups,
            h=int(rng.integers(4, 13)),
            w=int(rng.integers(4, 13)),
            k=k,
            dilation=dilation,
        )
        if min(c["h"], c["w"]) < dilation * (k - 1) + 1:
            continue
        c["bias"] = bool(rng.integers(4))
        c["seed"] = int(rng.integers(2**31))
        out.append(c)
    return out


def operands(c):
    """The case's arrays: input, weight, bias (or None) and the output's gradient."""
    rng = np.random.default_rng(c["seed"])
    dt = c["dtype"]
    span = c["dilation"] * (c["k"] - 1) + 1
    x = rng.standard_normal((c["n"], c["c"], c["h"], c["w"])).astype(dt)
    w = rng.standard_normal((c["o"], c["c"] // c["groups"], c["k"], c["k"])).astype(dt)
    b = rng.standard_normal(c["o"]).astype(dt) if c["bias"] else None
    g = rng.standard_normal((c["n"], c["o"], c["h"] - span + 1, c["w"] - span + 1)).astype(dt)
    return x, w, b, g


def digest(x):
    """An array's bytes (C order) as a sha256, as the goldens record arrays."""
    x = np.ascontiguousarray(x)
    return hashlib.sha256(x.astype(x.dtype.newbyteorder("<")).tobytes()).hexdigest()
