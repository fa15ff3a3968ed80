"""torch.finfo and torch.iinfo: the numerical properties of a float or integer dtype, as
PyTorch reports them (Python floats and ints; `dtype` the dtype's short name; the repr
with each number as C's %g)."""

from __future__ import annotations

from operator import attrgetter

import numpy as np

from ..core import dtypes
from ..core.convert import type_name
from ..runtime import context
from ..runtime.errors import GradTypeError

# digits10 of each float dtype: its resolution is 10 ** -digits10
_DIGITS = {"float16": 3, "float32": 6, "float64": 15}


class _Info:
    __slots__ = ("dtype", "bits", "min", "max")
    kind = ""
    shown: tuple = ()

    def __repr__(self):
        parts = [f"{k}={getattr(self, k):g}" for k in self.shown]  # (names of its own)
        return f"{self.kind}({', '.join(parts)}, dtype={self.dtype})"

    def __eq__(self, other):
        return type(other) is type(self) and other.dtype == self.dtype

    def __hash__(self):
        return hash((self.kind, self.dtype))


class FInfo(_Info):
    __slots__ = ("eps", "tiny", "smallest_normal", "resolution")
    kind = "finfo"
    shown = ("resolution", "min", "max", "eps", "smallest_normal", "tiny")
    language_attrs = {
        k: attrgetter(k)
        for k in ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype")
    }


class IInfo(_Info):
    __slots__ = ()
    kind = "iinfo"
    shown = ("min", "max")
    language_attrs = {k: attrgetter(k) for k in ("bits", "max", "min", "dtype")}


def _dtype(what, type):
    if not isinstance(type, dtypes.DType):
        raise GradTypeError(
            f"{what}(): argument 'type' (position 1) must be torch.dtype, not {type_name(type)}"
        )
    return type.np


def finfo(type=None):
    dt = context.current.default_float if type is None else _dtype("finfo", type)
    if dt.kind != "f":
        raise GradTypeError(
            "torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
            "'torch.finfo'"
        )
    fi = np.finfo(dt)
    out = FInfo()
    out.dtype, out.bits = dt.name, dt.itemsize * 8
    out.eps, out.max, out.min = float(fi.eps), float(fi.max), float(fi.min)
    out.tiny = out.smallest_normal = float(fi.tiny)
    out.resolution = 10.0 ** -_DIGITS[dt.name]
    return out


def iinfo(type):
    dt = _dtype("iinfo", type)
    if dt.kind == "b":
        raise GradTypeError("torch.bool is not supported by torch.iinfo")
    if dt.kind not in "iu":
        raise GradTypeError(
            "torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'"
        )
    ii = np.iinfo(dt)
    out = IInfo()
    out.dtype, out.bits, out.min, out.max = dt.name, dt.itemsize * 8, int(ii.min), int(ii.max)
    return out
