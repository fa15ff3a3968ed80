"""float32 convolutions that PyTorch sends to oneDNN's direct AVX2 kernels (a batch of
two or more, no groups, a kernel larger than 1 x 1 and narrower than 14 columns, no
taller than the input, no padding as wide as the kernel, no dilation): random shapes,
strides and paddings, and the small conv net's layer.  NumPy only: the torch half
(torch_conv.py) and the gradcli half (test_conv_onednn.py) build the same operands from
it.
"""

from __future__ import annotations

import hashlib

import numpy as np

COUNT = 120


def cases(seed=0, count=COUNT):
    """[{n, c, o, h, w, kh, kw, stride, padding, bias, seed}]: the same list on both sides."""
    rng = np.random.default_rng(seed)
    out = [dict(n=32, c=1, o=6, h=12, w=12, kh=3, kw=3, stride=(1, 1), padding=(0, 0))]
    while len(out) < count:
        kh, kw = (int(v) for v in rng.integers(1, 6, 2))
        if kh == kw == 1:
            continue
        c = dict(
            n=int(rng.integers(2, 41)),
            c=int(rng.choice([1, 2, 3, 3, 4, 8, 9, 16, 20])),
            o=int(rng.integers(1, 21)),
            h=int(rng.integers(kh, 15)),
            w=int(rng.integers(kw, 15)),
            kh=kh,
            kw=kw,
            stride=(int(rng.integers(1, 3)), int(rng.integers(1, 3))),
            padding=(int(rng.integers(0, kh)), int(rng.integers(0, kw))),
        )
        ok = True
        for size, k, s, p in zip((c["h"], c["w"]), (kh, kw), c["stride"], c["padding"]):
            n_out = (size + 2 * p - k) // s + 1
            ok = ok and n_out > 0 and (n_out - 1) * s + k - size - p < k  # (the end padding)
        if ok:
            out.append(c)
    for c in out:
        c["bias"] = bool(rng.integers(4))
        c["seed"] = int(rng.integers(2**31))
    return out


def operands(c):
    """The case's float32 arrays: input, weight, bias (or None) and the output's gradient."""
    rng = np.random.default_rng(c["seed"])
    x = rng.standard_normal((c["n"], c["c"], c["h"], c["w"])).astype(np.float32)
    w = rng.standard_normal((c["o"], c["c"], c["kh"], c["kw"])).astype(np.float32)
    b = rng.standard_normal(c["o"]).astype(np.float32) if c["bias"] else None
    oh = (c["h"] + 2 * c["padding"][0] - c["kh"]) // c["stride"][0] + 1
    ow = (c["w"] + 2 * c["padding"][1] - c["kw"]) // c["stride"][1] + 1
    g = rng.standard_normal((c["n"], c["o"], oh, ow)).astype(np.float32)
    return x, w, b, g


def digest(x):
    """An array's bytes (C order) as a sha256, as mm_cases.digest."""
    x = np.ascontiguousarray(x)
    return hashlib.sha256(x.astype(x.dtype.newbyteorder("<")).tobytes()).hexdigest()
