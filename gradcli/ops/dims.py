"""Dimension arguments shared by the op families: `dim=` as PyTorch takes it."""

from __future__ import annotations

from ..runtime.errors import GradIndexError, GradRuntimeError
from ..core.tensor import Tensor


def norm_dims(dim, ndim):
    """`dim` (int, list/tuple or None) as a sorted tuple of non-negative axes, or None."""
    if dim is None:
        return None
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    n = max(ndim, 1)
    out = []
    for d in dims:
        if isinstance(d, Tensor):
            d = d.item()
        if not isinstance(d, int) or isinstance(d, bool):
            raise GradRuntimeError(f"dim must be an integer, got {d!r}", type_name="TypeError")
        if not -n <= d < n:
            raise GradIndexError(
                f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})"
            )
        if d % n in out:
            raise GradRuntimeError(f"dim {d % n} appears multiple times in the list of dims")
        out.append(d % n)
    if ndim == 0:
        return ()
    return tuple(sorted(out))
