"""Record golden values of torch's CPU random generator into tests/golden/random.json.

Run with a Python that has torch installed (NOT needed by gradcli or its tests):

    $TORCH_PYTHON scripts/gen_golden.py random

Each case is a list of operations replayed in order on one generator:

* ``{"op": "manual_seed", "seed": s, "initial_seed": torch's initial_seed() after it}``
* ``{"op": "rand"|"randn", "shape": [...], "dtype": "float32"|"float64",
  "values": [...]}``  values are the tensor's elements in C order as exact
  Python floats (float32 elements widened to float64, which is exact);
  very large draws store ``"sha256"`` of the little-endian bytes plus the
  first and last few ``"head"``/``"tail"`` values instead of all of them.
* ``{"op": "randint", "low": l, "high": h, "shape": [...], "dtype": "int64"|"int32",
  "values": [...]}``
* ``{"op": "randn_like"|"rand_like", ...}``  same as randn/rand with the shape and
  dtype of a zero tensor of that shape/dtype.

A case's ``"generator"`` says which torch generator recorded it:
``"fresh"`` = a new ``torch.Generator()`` (seed 67280421310721), passed as
``generator=``; ``"global"`` = torch's default generator through the
``torch.manual_seed``/``torch.randn`` functions (cases start with a
manual_seed op, since the process default generator is randomly seeded).
float64 draws in ``"global"`` cases are made with
``torch.set_default_dtype(torch.float64)`` and no dtype argument, as a
tutorial would; float32 ones with the default float32 default dtype.
"""

from __future__ import annotations

import hashlib
import os
import sys

import torch


from golden.record import write

DTYPES = {
    "float32": torch.float32,
    "float64": torch.float64,
    "int64": torch.int64,
    "int32": torch.int32,
}
HASH_THRESHOLD = 5000  # store a hash instead of all values above this many elements


def _values_entry(t: torch.Tensor) -> dict:
    flat = t.reshape(-1)
    if flat.numel() > HASH_THRESHOLD:
        arr = flat.numpy()
        return {
            "sha256": hashlib.sha256(arr.astype(arr.dtype.newbyteorder("<")).tobytes()).hexdigest(),
            "head": flat[:8].tolist(),
            "tail": flat[-8:].tolist(),
        }
    return {"values": flat.tolist()}


class Recorder:
    def __init__(self, kind: str):
        self.kind = kind
        self.gen = torch.Generator() if kind == "fresh" else None
        self.ops: list[dict] = []

    def _kw(self, dtype: str) -> dict:
        kw = {}
        if self.gen is not None:
            kw["generator"] = self.gen
            kw["dtype"] = DTYPES[dtype]
        return kw

    def _with_default_dtype(self, dtype: str, fn):
        if self.gen is not None:
            return fn()
        old = torch.get_default_dtype()
        torch.set_default_dtype(DTYPES[dtype])
        try:
            return fn()
        finally:
            torch.set_default_dtype(old)

    def manual_seed(self, seed: int):
        if self.gen is not None:
            self.gen.manual_seed(seed)
            init = self.gen.initial_seed()
        else:
            torch.manual_seed(seed)
            init = torch.initial_seed()
        self.ops.append({"op": "manual_seed", "seed": seed, "initial_seed": init})

    def draw(self, op: str, shape, dtype: str = "float32"):
        shape = list(shape)
        kw = self._kw(dtype)
        if op == "rand":
            t = self._with_default_dtype(dtype, lambda: torch.rand(shape, **kw))
        elif op == "randn":
            t = self._with_default_dtype(dtype, lambda: torch.randn(shape, **kw))
        elif op in ("randn_like", "rand_like"):
            assert self.gen is None, "*_like takes no generator"
            x = torch.zeros(shape, dtype=DTYPES[dtype])
            t = torch.randn_like(x) if op == "randn_like" else torch.rand_like(x)
        else:
            raise ValueError(op)
        assert t.dtype == DTYPES[dtype] and list(t.shape) == shape
        self.ops.append({"op": op, "shape": shape, "dtype": dtype, **_values_entry(t)})

    def randint(self, low: int, high: int, shape, dtype: str = "int64"):
        shape = list(shape)
        kw = {"dtype": DTYPES[dtype]}
        if self.gen is not None:
            kw["generator"] = self.gen
        t = torch.randint(low, high, shape, **kw)
        self.ops.append(
            {
                "op": "randint",
                "low": low,
                "high": high,
                "shape": shape,
                "dtype": dtype,
                **_values_entry(t),
            }
        )


SHAPES = [[], [1], [3], [15], [16], [17], [31], [100], [2, 2], [4, 5, 3], [1000]]
SEEDS = [
    0,
    1,
    42,
    2**32 + 5,
    123456789012345678,
    2**63 + 12345,
    2**64 - 1,
    -1,
    -12345,
    67280421310721,
]
TUTORIAL_SEQ = [("randn", [3]), ("randn", [2, 2]), ("randn", [20]), ("rand", [5]), ("randn", [1])]


def build_cases() -> list[dict]:
    cases = []

    def case(name: str, kind: str, fill):
        rec = Recorder(kind)
        fill(rec)
        cases.append({"name": name, "generator": kind, "ops": rec.ops})

    # 1. The tutorial sequence on a fresh generator (default seed) and the global one.
    for dtype in ("float32", "float64"):
        case(
            f"fresh_tutorial_{dtype}",
            "fresh",
            lambda r, dt=dtype: [r.draw(op, sh, dt) for op, sh in TUTORIAL_SEQ],
        )
        for seed in (67280421310721, 0, 42):

            def fill(r, dt=dtype, s=seed):
                r.manual_seed(s)
                for op, sh in TUTORIAL_SEQ:
                    r.draw(op, sh, dt)

            case(f"global_tutorial_seed{seed}_{dtype}", "global", fill)

    # 2. Every shape, randn then rand, for many seeds and both dtypes.
    for seed in SEEDS:
        for dtype in ("float32", "float64"):

            def fill(r, dt=dtype, s=seed):
                r.manual_seed(s)
                for sh in SHAPES:
                    r.draw("randn", sh, dt)
                    r.draw("rand", sh, dt)

            case(f"shapes_seed{seed}_{dtype}", "global", fill)

    # 3. Each shape on its own right after seeding (no carried-over state).
    for dtype in ("float32", "float64"):

        def fill(r, dt=dtype):
            for sh in SHAPES:
                r.manual_seed(3)
                r.draw("randn", sh, dt)
                r.manual_seed(3)
                r.draw("rand", sh, dt)

        case(f"isolated_shapes_{dtype}", "global", fill)

    # 4. Interleaving dtypes and ops: the cached normal is shared by float32/float64
    #    scalar draws and survives rand / large randn / randint calls.
    def fill_mixed(r):
        r.manual_seed(2024)
        r.draw("randn", [3], "float32")
        r.draw("randn", [1], "float64")
        r.draw("randn", [20], "float64")
        r.draw("rand", [5], "float32")
        r.draw("randn", [], "float32")
        r.draw("randn", [], "float32")
        r.randint(0, 10, [5])
        r.draw("randn", [2, 2], "float64")
        r.randint(-3, 2**35, [4])
        r.draw("randn", [17], "float32")
        r.draw("randn", [15], "float64")
        r.draw("rand", [7], "float64")
        r.draw("randn", [5], "float32")
        r.draw("randn", [33], "float32")
        r.draw("randn", [1], "float32")
        r.draw("randn_like", [3, 4], "float32")
        r.draw("rand_like", [2, 3], "float64")
        r.draw("randn_like", [1], "float64")
        r.draw("randn", [48], "float64")
        r.draw("randn", [1], "float64")

    case("mixed_interleaved", "global", fill_mixed)

    def fill_fresh_mixed(r):
        r.draw("randn", [1], "float32")
        r.draw("rand", [3], "float64")
        r.draw("randn", [1], "float64")
        r.draw("randn", [3], "float64")
        r.randint(0, 100, [6])
        r.draw("randn", [16], "float32")
        r.draw("randn", [1], "float32")
        r.draw("randn", [4, 5, 3], "float64")
        r.draw("randn", [7], "float32")

    case("fresh_mixed_interleaved", "fresh", fill_fresh_mixed)

    # 5. manual_seed drops the cached normal sample.
    def fill_cache_reset(r):
        r.manual_seed(5)
        r.draw("randn", [1], "float32")
        r.manual_seed(5)
        r.draw("randn", [1], "float32")
        r.draw("randn", [1], "float32")
        r.manual_seed(5)
        r.draw("randn", [3], "float64")
        r.manual_seed(6)
        r.draw("randn", [2], "float64")
        r.draw("randn", [1], "float64")

    case("cache_reset_by_manual_seed", "global", fill_cache_reset)

    # 6. randint ranges: 32-bit and 64-bit draw paths, negative lows, int32 dtype.
    def fill_randint(r):
        r.manual_seed(99)
        r.randint(0, 10, [20])
        r.randint(-5, 5, [3, 4])
        r.randint(0, 1, [4])
        r.randint(0, 2**28 - 1, [5])
        r.randint(0, 2**28, [5])
        r.randint(7, 7 + 2**28 + 1, [3])
        r.randint(0, 2**32 - 1, [5])
        r.randint(0, 2**32, [5])
        r.randint(-(2**40), 2**40, [5])
        r.randint(-(2**63), 2**63 - 1, [5])
        r.randint(0, 6, [])
        r.randint(10, 20, [6], "int32")
        r.randint(-(2**31), 2**31 - 1, [6], "int32")
        r.randint(-(2**20), 2**20, [4], "int32")
        r.randint(-100, 100, [1000])
        r.draw("randn", [1], "float32")
        r.randint(0, 3, [2])
        r.draw("randn", [1], "float32")

    case("randint", "global", fill_randint)

    def fill_randint_fresh(r):
        r.randint(0, 10, [10])
        r.randint(0, 2**33, [3])

    case("randint_fresh", "fresh", fill_randint_fresh)

    # 7. Large draws (stored as hashes) to cover rare paths of the vectorised kernels.
    def fill_large(r):
        r.manual_seed(7)
        r.draw("randn", [100000], "float32")
        r.draw("randn", [100000], "float64")
        r.draw("rand", [100000], "float32")
        r.draw("rand", [100000], "float64")
        r.draw("randn", [1000003], "float32")
        r.draw("randn", [3], "float64")
        r.draw("randn", [250007], "float64")
        r.draw("randn", [1], "float32")

    case("large", "global", fill_large)

    return cases


def main(argv) -> int:
    torch.set_default_dtype(torch.float32)
    data = {
        "torch_version": torch.__version__,
        "cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "fresh_generator_initial_seed": torch.Generator().initial_seed(),
        "cases": build_cases(),
    }
    if data["cpu_capability"] != "AVX2":
        print(
            f"warning: torch CPU capability is {data['cpu_capability']}, gradcli emulates AVX2 kernels",
            file=sys.stderr,
        )
    path = write("random.json", data, separators=(",", ":"))
    n_ops = sum(len(c["ops"]) for c in data["cases"])
    print(f"wrote {len(data['cases'])} cases, {n_ops} ops to {os.path.normpath(path)}")
    return 0
