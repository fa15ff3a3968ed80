"""F.avg_pool3d (AvgPool3DBackward0) as ATen's CPU kernel computes it: each window summed
from 0 in the input's type in (depth, height, width) order, then divided once by its
divisor (the window's size with padding, or without, or divisor_override); the gradient
adds g / divisor to each window's inputs in the order of the outputs."""

from __future__ import annotations

import itertools

import numpy as np

from ..core.convert import tensor_arg
from ..engine.declare import none
from ..engine.forward import linear
from ..engine.function import Function
from ..runtime.errors import GradRuntimeError
from .norm_pool import AVG_POOL_SAVED, _pool_out as pool_out_size
from .registry import Arg, register
from .shape import squeeze, unsqueeze


def _triple(v, what):
    if isinstance(v, int) and not isinstance(v, bool):
        return (v, v, v)
    t = tuple(int(a) for a in v)
    if len(t) == 1:
        return t * 3
    if len(t) != 3:
        raise GradRuntimeError(f"avg_pool3d: {what} must be a single int, or a tuple of three ints")
    return t


class Plan:
    """A pool's geometry: kernel k, stride s, padding p, output sizes, the padded input's
    shape and each output's divisor."""

    def __init__(self, shape, k, s, p, ceil_mode, count_include_pad, divisor_override):
        self.k, self.s, self.p = k, s, p
        self.shape = shape
        self.out = tuple(
            pool_out_size(n, kk, ss, pp, ceil_mode) for n, kk, ss, pp in zip(shape[2:], k, s, p)
        )
        # the padded extent each output's window may reach
        self.padded = tuple(
            max(n + 2 * pp, (o - 1) * ss + kk)
            for n, kk, ss, pp, o in zip(shape[2:], k, s, p, self.out)
        )
        axes = []
        for n, kk, ss, pp, o in zip(shape[2:], k, s, p, self.out):
            start = np.arange(o) * ss - pp
            end = np.minimum(start + kk, n + pp)
            pool = end - start
            inside = np.minimum(end, n) - np.maximum(start, 0)
            axes.append((pool, inside))
        if divisor_override is not None:
            self.divide = np.full(self.out, divisor_override, np.int64)
        else:
            pick = 0 if count_include_pad else 1
            a, b, c = (ax[pick] for ax in axes)
            self.divide = a[:, None, None] * b[None, :, None] * c[None, None, :]

    def window(self, offset):
        return tuple(slice(o, o + s * (n - 1) + 1, s) for o, s, n in zip(offset, self.s, self.out))


def _forward(x, plan):
    n, c = x.shape[:2]
    xp = np.zeros((n, c, *plan.padded), x.dtype)
    d, h, w = plan.shape[2:]
    pd, ph, pw = plan.p
    xp[:, :, pd : pd + d, ph : ph + h, pw : pw + w] = x
    acc = np.zeros((n, c, *plan.out), x.dtype)
    for off in itertools.product(*(range(k) for k in plan.k)):
        at = (slice(None), slice(None), *plan.window(off))
        acc = acc + xp[at]
    return acc / plan.divide.astype(x.dtype)


def _backward(g, plan):
    n, c = g.shape[:2]
    delta = g / plan.divide.astype(g.dtype)
    gp = np.zeros((n, c, *plan.padded), g.dtype)
    # for each input, the outputs add in their order: the kernel offsets from the last
    for off in reversed(list(itertools.product(*(range(k) for k in plan.k)))):
        at = (slice(None), slice(None), *plan.window(off))
        gp[at] += delta
    d, h, w = plan.shape[2:]
    pd, ph, pw = plan.p
    return np.ascontiguousarray(gp[:, :, pd : pd + d, ph : ph + h, pw : pw + w])


class AvgPool3d(Function):
    __slots__ = ("plan", "attrs")
    name = "AvgPool3DBackward0"
    saved_names = ("self",)
    saved_extra = AVG_POOL_SAVED
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    jvp = linear

    def forward(self, x, plan, attrs):
        self.plan, self.attrs = plan, attrs
        self.save(x)
        return _forward(x, plan)

    def backward(self, g, F, x):
        if F.tensor_mode:
            return (AvgPool3dGrad.apply(g, x, plan=self.plan, attrs=self.attrs),)
        return (_backward(g, self.plan),)


class AvgPool3dGrad(Function):
    """avg_pool3d's backward as one op (create_graph): linear in g, and as in PyTorch its
    result requires grad when the input does (its derivative there is zero)."""

    __slots__ = ("plan", "attrs")
    name = "AvgPool3DBackwardBackward0"
    saved_names = ()  # (PyTorch's node keeps the pool's arguments only)
    saved_extra = AvgPool3d.saved_extra
    formula = none("a backward's own node: shown as a named function with its local Jacobian")

    def forward(self, g, x, plan, attrs):
        self.plan, self.attrs = plan, attrs
        return _backward(g, plan)

    def backward(self, gg, F):
        if F.tensor_mode:
            return (AvgPool3d.apply(gg, plan=self.plan, attrs=self.attrs), None)
        return (_forward(gg, self.plan), None)

    def jvp(self, ts, F):
        tg = ts[0]
        if tg is None:
            return None
        return type(self).apply(tg, tg * 0.0, plan=self.plan, attrs=self.attrs)


@register(
    "avg_pool3d",
    "avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, "
    "count_include_pad=True, divisor_override=None)",
    "the mean of each kernel_size window of (N, C, D, H, W) input",
    checks=[
        ((Arg((1, 2, 3, 4, 4)), 2), {}),
        ((Arg((2, 3, 3, 3)), (2, 1, 3)), {"padding": (1, 0, 1)}),
    ],
    category="nn",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def avg_pool3d(
    input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
    divisor_override=None,
):  # fmt: skip
    x = tensor_arg(input)
    if x.data.ndim not in (4, 5):
        raise GradRuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    unbatched = x.data.ndim == 4
    if unbatched:
        x = unsqueeze(x, 0)
    k = _triple(kernel_size, "kernel_size")
    s = k if stride is None or stride == [] or stride == () else _triple(stride, "stride")
    p = _triple(padding, "padding")
    if any(pp > kk // 2 for pp, kk in zip(p, k)):
        raise GradRuntimeError("pad should be smaller than or equal to half of kernel size")
    if divisor_override is not None and divisor_override == 0:
        raise GradRuntimeError("divisor must be not zero")
    d, h, w = x.data.shape[2:]
    if d < k[0] or h < k[1] or w < k[2]:
        raise GradRuntimeError(
            f"input image (T: {d} H: {h} W: {w}) smaller than kernel size (kT: {k[0]} kH: "
            f"{k[1]} kW: {k[2]})"
        )
    plan = Plan(x.data.shape, k, s, p, ceil_mode, count_include_pad, divisor_override)
    if min(plan.out) <= 0:
        d, h, w = x.data.shape[2:]
        od, oh, ow = plan.out
        raise GradRuntimeError(
            f"Given input size: ({x.data.shape[1]}x{d}x{h}x{w}). Calculated output size: "
            f"({x.data.shape[1]}x{od}x{oh}x{ow}). Output size is too small"
        )
    attrs = {
        "kernel_size": k,
        "stride": () if stride is None or stride == [] or stride == () else s,
        "padding": p,
        "ceil_mode": bool(ceil_mode),
        "count_include_pad": bool(count_include_pad),
        "divisor_override": divisor_override,
    }
    out = AvgPool3d.apply(x, plan=plan, attrs=attrs)
    return squeeze(out, 0) if unbatched else out
