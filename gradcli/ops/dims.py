"""Dimension arguments shared by the op families: `dim=` as PyTorch takes it."""

from __future__ import annotations

from ..runtime.errors import GradIndexError, GradRuntimeError
from ..core.tensor import Tensor


def one_dim(dim, ndim):
    """`dim` as one non-negative axis of a tensor of `ndim` dims, where ATen's op does not
    take a 0-d tensor's dim (its maybe_wrap_dim without wrap_scalar): PyTorch's error then."""
    if ndim == 0 and isinstance(dim, int) and not isinstance(dim, bool):
        raise GradIndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return norm_dims(dim, ndim)[0]


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
