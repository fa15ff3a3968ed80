"""How PyTorch's `at::parallel_for` cuts a range between threads (its OpenMP
backend): results that depend on the cut, such as the order of a sum, follow it.

PyTorch uses as many threads as CPUs (or OMP_NUM_THREADS, at most that many) and cuts a range of n
into min(threads, ceil(n / GRAIN)) chunks of ceil(n / chunks) (the last shorter);
a range of at most GRAIN is not cut.
"""

from __future__ import annotations

import os

GRAIN = 32768


def _threads():
    try:
        n = int(os.environ.get("OMP_NUM_THREADS", "0"))
    except ValueError:
        n = 0
    cpus = os.cpu_count() or 1
    return min(n, cpus) if n > 0 else cpus  # torch runs no more threads than CPUs


THREADS = _threads()


def chunks(n, grain=GRAIN):
    """[(begin, end), ...]: the pieces of range(n) as at::parallel_for makes them (with
    the kernel's grain size)."""
    if n <= grain or THREADS == 1:
        return [(0, n)]
    k = min(THREADS, -(-n // grain))
    size = -(-n // k)
    return [(b, min(n, b + size)) for b in range(0, n, size)]
