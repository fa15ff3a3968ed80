"""Memory formats (torch.contiguous_format, torch.preserve_format) and the layout of a copy.

PyTorch's `clone` keeps its input's layout by default (preserve_format): a non-overlapping,
dense input's strides are kept as they are; any other input gets the dense strides that
keep its dims' order in memory (the dims sorted by stride, as PyTorch infers them). A
layout matters to what a program sees: `stride()`, `is_contiguous()`, and whether `view`
can reshape without a copy."""

from __future__ import annotations

import numpy as np

from ..runtime.errors import GradTypeError
from .tensor import type_name


class MemoryFormat:
    """torch.memory_format: prints as PyTorch prints its members."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self):
        return "torch." + self.name


CONTIGUOUS = MemoryFormat("contiguous_format")
PRESERVE = MemoryFormat("preserve_format")
FORMATS = {f.name: f for f in (CONTIGUOUS, PRESERVE)}


def memory_format_arg(fmt, fname: str, none: MemoryFormat | None = PRESERVE) -> MemoryFormat:
    """A memory_format argument (None means `none`, where fname takes None), or PyTorch's
    error for anything else."""
    if fmt is None and none is not None:
        return none
    if not isinstance(fmt, MemoryFormat):
        raise GradTypeError(
            f"{fname}(): argument 'memory_format' must be torch.memory_format, "
            f"not {'NoneType' if fmt is None else type_name(fmt)}"
        )
    return fmt


def _elem_strides(arr):
    return [s // arr.itemsize for s in arr.strides]


def non_overlapping_and_dense(shape, strides) -> bool:
    """PyTorch's is_non_overlapping_and_dense for these sizes and (element) strides."""
    if len(shape) == 1:
        return shape[0] < 2 or strides[0] == 1
    perm = sorted(
        range(len(shape)), key=lambda d: (shape[d] < 2, strides[d] if shape[d] >= 2 else 0)
    )
    need = 1
    for d in perm:
        if shape[d] == 1:
            continue
        if strides[d] != need:
            return False
        need *= shape[d]
    return True


def infer_dense_strides(shape, strides) -> list[int]:
    """PyTorch's dense strides keeping the order of the dims in memory: an insertion sort
    of the dims (fastest first) by stride, a smaller size first on equal strides, a dim
    of stride 0 left where a contiguous tensor has it."""
    ndim = len(shape)
    perm = list(range(ndim - 1, -1, -1))

    def should_swap(d0, d1):
        s0, s1 = strides[d0], strides[d1]
        if s0 == 0 or s1 == 0:
            return 0
        if s0 != s1:
            return -1 if s0 < s1 else 1
        return 1 if shape[d0] > shape[d1] else 0

    for i in range(1, ndim):
        d1 = i
        for j in range(1, i + 1):
            d0 = i - j
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    out = [0] * ndim
    cur = 1
    for d in perm:
        out[d] = cur
        if shape[d] > 1:
            cur *= shape[d]
    return out


def copy_array(arr: np.ndarray, fmt: MemoryFormat = CONTIGUOUS) -> np.ndarray:
    """A copy of arr in the layout PyTorch's clone(memory_format=fmt) gives."""
    if fmt is CONTIGUOUS or arr.ndim < 2 or arr.size == 0 or arr.flags.c_contiguous:
        return arr.copy()
    strides = _elem_strides(arr)
    if min(strides) < 0:  # (no PyTorch tensor has one)
        return arr.copy()
    if not non_overlapping_and_dense(arr.shape, strides):
        strides = infer_dense_strides(arr.shape, strides)
    # slowest dim first; a C-ordered block of the dims in that order, seen in arr's order
    order = sorted(range(arr.ndim), key=lambda d: (-strides[d], -d))
    out = np.empty([arr.shape[d] for d in order], arr.dtype).transpose(np.argsort(order))
    want = tuple(s * arr.itemsize for s in strides)
    if out.strides != want:  # a size-1 dim keeps the stride it had
        out = np.lib.stride_tricks.as_strided(out, arr.shape, want, writeable=True)
    out[...] = arr
    return out


def _dense_like(like: np.ndarray) -> bool:
    """Whether a gradient of `like` keeps like's strides (else it is contiguous)."""
    if like.flags.c_contiguous or like.ndim < 2 or like.size == 0:
        return False
    strides = _elem_strides(like)
    return min(strides) >= 0 and non_overlapping_and_dense(like.shape, strides)


def obeys_grad_layout(g: np.ndarray, like: np.ndarray) -> bool:
    """Whether g may be a .grad of `like` as it is (PyTorch's layout contract)."""
    if not _dense_like(like):
        return bool(g.flags.c_contiguous)
    steps = zip(_elem_strides(g), _elem_strides(like), like.shape, strict=True)
    return all(a == b or n < 2 for a, b, n in steps)


def grad_array(g: np.ndarray, like: np.ndarray, dtype) -> np.ndarray:
    """A fresh .grad from g in PyTorch's layout contract: the strides of the tensor it is
    the gradient of when that is non-overlapping and dense, else contiguous."""
    if not _dense_like(like):
        return np.array(g, dtype=dtype, copy=True, order="C")
    out = copy_array(np.empty_like(like, dtype=dtype), PRESERVE)
    out[...] = g
    return out
