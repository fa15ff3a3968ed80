"""Counting: `F.one_hot` (class indices to int64 rows of zeros and ones) and
`torch.histogram` (counts in equal bins, or in the bins that given edges bound), with
PyTorch's results and errors; neither records a graph."""

from __future__ import annotations

import numpy as np

from ..engine.declare import none
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..core import dtypes
from ..core.convert import type_name
from ..core.tensor import Tensor
from ..ops.return_types import ValuesIndices
from ..ops.registry import FUNCTIONS, register


def one_hot(tensor, num_classes=-1):
    """torch.nn.functional.one_hot(tensor, num_classes=-1)."""
    if type(tensor) is not Tensor:
        raise GradTypeError(
            f"one_hot(): argument 'self' (position 1) must be Tensor, not {type_name(tensor)}"
        )
    if isinstance(num_classes, bool) or not isinstance(num_classes, int):
        raise GradTypeError(
            "one_hot(): argument 'num_classes' (position 2) must be int, not "
            f"{type_name(num_classes)}"
        )
    x = tensor.data
    if x.dtype != np.int64:
        raise GradRuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if x.size == 0 and num_classes == -1:
        raise GradRuntimeError("Can not infer total number of classes from empty tensor.")
    if x.size and x.min() < 0:
        raise GradRuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(x.max()) + 1
    elif x.size and x.max() >= num_classes:
        raise GradRuntimeError("Class values must be smaller than num_classes.")
    out = np.zeros(x.shape + (num_classes,), dtype=np.int64)
    np.put_along_axis(out, x[..., None], 1, axis=-1)
    return Tensor(out)


class Histogram(ValuesIndices):
    """torch.return_types.histogram(hist, bin_edges)."""

    fields = ("hist", "bin_edges")

    @property
    def hist(self):
        return self[0]

    @property
    def bin_edges(self):
        return self[1]


@register(
    "histogram",
    "histogram(input, bins=100, *, range=None, weight=None, density=False)",
    "counts of input's values in bins equal bins (an int) or between given edges (a tensor)",
    method=True,
    category="reduce",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not differentiable (counts)"),
    parser=None,
)
def histogram(input, bins=100, *, range=None, weight=None, density=False, out=None):  # noqa: A002
    if type(input) is not Tensor:
        raise GradTypeError(
            f"histogram(): argument 'input' (position 1) must be Tensor, not {type_name(input)}"
        )
    x = input.data
    if x.dtype.kind != "f":
        raise GradRuntimeError(
            f"\"histogramdd\" not implemented for '{dtypes.scalar_type_name(x.dtype)}'"
        )
    flat = x.reshape(-1)
    if type(bins) is Tensor:
        edges = bins.data.astype(x.dtype)
        if edges.ndim != 1 or edges.size < 1:
            raise GradRuntimeError("torch.histogramdd(): bins tensor should have one dimension")
    else:
        if isinstance(bins, bool) or not isinstance(bins, int):
            raise GradTypeError(
                f"histogram(): argument 'bins' must be int or Tensor, not {type_name(bins)}"
            )
        if bins <= 0:
            raise GradRuntimeError(
                "torch.histogramdd(): expected each bin count to be positive, but got "
                f"bins[0] = {bins}"
            )
        if range is not None:
            lo, hi = float(range[0]), float(range[1])
        elif flat.size:
            lo, hi = float(flat.min()), float(flat.max())
        else:
            lo, hi = 0.0, 0.0
        if lo > hi:
            raise GradRuntimeError(
                "torch.histogramdd(): min should not exceed max, but got "
                f"min {lo} max {hi} for dimension 0"
            )
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges = FUNCTIONS["linspace"](lo, hi, bins + 1, dtype=dtypes.DType(x.dtype)).data
    n_bins = edges.size - 1
    w = None if weight is None else weight.data.reshape(-1).astype(x.dtype)
    inside = (flat >= edges[0]) & (flat <= edges[-1])
    pos = np.searchsorted(edges, flat[inside], side="right") - 1
    pos[pos == n_bins] = n_bins - 1
    hist = np.zeros(n_bins, dtype=x.dtype)
    if w is None:
        np.add.at(hist, pos, 1)
    else:
        np.add.at(hist, pos, w[inside])
    if density:
        hist = hist / hist.sum(dtype=x.dtype)
        hist = (hist / np.diff(edges)).astype(x.dtype)
    return Histogram(Tensor(hist), Tensor(edges.copy()), "histogram")


FUNCTIONAL = {"one_hot": one_hot}
