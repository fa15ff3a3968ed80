"""Run-time guards: memory cap for new tensors, recursion depth, step budget."""
from __future__ import annotations

import math

from .errors import LimitError


class Limits:
    max_memory = 1 << 30        # bytes, --max-memory
    max_depth = 200             # user function recursion, --max-depth
    max_steps = None            # loop iterations, --max-steps


limits = Limits()


def _fmt(n):
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024


def check_alloc(shape, itemsize=8):
    """Refuse a tensor over the memory cap before anything is allocated."""
    n = math.prod(shape) * itemsize
    if n > limits.max_memory:
        raise LimitError(f"a tensor of shape {tuple(shape)} needs {_fmt(n)}, more than the "
                         f"memory cap of {_fmt(limits.max_memory)}",
                         hint="raise the cap with --max-memory if you mean it")
