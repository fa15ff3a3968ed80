"""`torch.cov` and `torch.corrcoef`, written as ATen's Correlation.cpp writes them so that
the values and the graph are torch's: the observations' mean as `sum(1) / n` (n a 0-d
int64 tensor), the centred rows' `mm` with their transpose divided by `n - correction`
(SqueezeBackward0 last); corrcoef divides by the standard deviations as a column and as a
row and clips to [-1, 1] (ClampBackward1).  Weights (fweights, aweights) are not taken."""

from __future__ import annotations

import numpy as np

from ..core.convert import type_name
from ..core.tensor import Tensor
from ..ops.registry import FUNCTIONS, Arg, register
from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradTypeError

_F = FUNCTIONS


def _cov(name, input, correction, fweights, aweights):
    if not isinstance(input, Tensor):
        raise GradTypeError(
            f"{name}(): argument 'input' (position 1) must be Tensor, not {type_name(input)}"
        )
    if fweights is not None or aweights is not None:
        raise GradRuntimeError("cov(): fweights and aweights are not supported by gradcli")
    x = input
    if x.data.ndim > 2:
        raise GradRuntimeError(
            f"{name}(): expected input to have two or fewer dimensions but got an input with "
            f"{x.data.ndim} dimensions"
        )
    if x.data.dtype == np.bool_:
        raise GradRuntimeError("cov(): bool dtype is not supported for input")
    if x.data.ndim < 2:
        x = _F["view"](x, 1, -1)
    n = x.data.shape[1]
    w_sum = Tensor(np.asarray(n, np.int64))
    avg = _F["div"](_F["sum"](x, 1), w_sum)
    norm = n - correction
    if norm <= 0:
        context.warn(
            "cov(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "number of observations."
        )
        norm = 0
    centred = _F["sub"](x, _F["unsqueeze"](avg, 1))
    c = _F["mm"](centred, _F["t"](centred))
    return _F["squeeze"](_F["div"](c, Tensor(np.asarray(norm, np.int64))))


@register(
    "cov",
    "cov(input, *, correction=1, fweights=None, aweights=None)",
    "the covariance matrix of the rows (variables) over the columns (observations)",
    method=True,
    checks=[((Arg((3, 5)),), {}), ((Arg((4,)),), {"correction": 0})],
    category="reduce",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def cov(input, *, correction=1, fweights=None, aweights=None):
    return _cov("cov", input, correction, fweights, aweights)


@register(
    "corrcoef",
    "corrcoef(input)",
    "Pearson's correlation coefficients of the rows (variables), clipped to [-1, 1]",
    method=True,
    checks=[((Arg((3, 5)),), {})],
    category="reduce",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def corrcoef(input):
    if isinstance(input, Tensor) and input.data.ndim > 2:
        raise GradRuntimeError(
            "corrcoef(): expected input to have two or fewer dimensions but got an input with "
            f"{input.data.ndim} dimensions"
        )
    c = _cov("corrcoef", input, 1, None, None)
    if c.data.ndim == 0:
        return _F["div"](c, c)
    std = _F["sqrt"](_F["diagonal"](c))
    c = _F["div"](c, _F["view"](std, -1, 1))
    c = _F["div"](c, _F["view"](std, 1, -1))
    return _F["clamp"](c, -1, 1)
