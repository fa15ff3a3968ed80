"""Rearrangements of channels: pixel_shuffle (PixelShuffleBackward0), pixel_unshuffle
(PixelUnshuffleBackward0) and channel_shuffle (ChannelShuffleBackward0; the native form's
gradient is PyTorch's NotImplemented node); each gradient is the inverse rearrangement."""

from __future__ import annotations

import numpy as np

from ..core.convert import tensor_arg
from ..engine.declare import none
from ..engine.function import Function
from ..runtime.errors import GradRuntimeError
from .activation_base import NotImplementedGrad
from .registry import Arg, register

FORMULA = none("a rearrangement: shown as a named function with its local Jacobian")


def _shuffle(x, r):
    *lead, c, h, w = x.shape
    oc = c // (r * r)
    y = x.reshape(*lead, oc, r, r, h, w)
    n = len(lead)
    y = y.transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return np.ascontiguousarray(y).reshape(*lead, oc, h * r, w * r)


def _unshuffle(x, r):
    *lead, c, h, w = x.shape
    oh, ow = h // r, w // r
    y = x.reshape(*lead, c, oh, r, ow, r)
    n = len(lead)
    y = y.transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return np.ascontiguousarray(y).reshape(*lead, c * r * r, oh, ow)


def _channels(x, groups):
    n, c = x.shape[0], x.shape[1]
    y = x.reshape(n, groups, c // groups, *x.shape[2:]).swapaxes(1, 2)
    return np.ascontiguousarray(y).reshape(x.shape)


class PixelShuffle(Function):
    __slots__ = ("factor",)
    name = "PixelShuffleBackward0"
    saved_names = ()
    saved_extra = {"upscale_factor": lambda node: node.factor}
    formula = FORMULA

    def forward(self, x, factor):
        self.factor = factor
        return _shuffle(x, factor)

    def backward(self, g, F):
        if F.tensor_mode:
            return (PixelUnshuffle.apply(g, factor=self.factor),)
        return (_unshuffle(g, self.factor),)

    def jvp(self, ts, F):
        return type(self).apply(ts[0], factor=self.factor)


class PixelUnshuffle(Function):
    __slots__ = ("factor",)
    name = "PixelUnshuffleBackward0"
    saved_names = ()
    saved_extra = {"downscale_factor": lambda node: node.factor}
    formula = FORMULA

    def forward(self, x, factor):
        self.factor = factor
        return _unshuffle(x, factor)

    def backward(self, g, F):
        if F.tensor_mode:
            return (PixelShuffle.apply(g, factor=self.factor),)
        return (_shuffle(g, self.factor),)

    def jvp(self, ts, F):
        return type(self).apply(ts[0], factor=self.factor)


def _check(x, name, factor, what):
    if x.ndim < 3:
        raise GradRuntimeError(
            f"{name} expects input to have at least 3 dimensions, but got input with "
            f"{x.ndim} dimension(s)"
        )
    if factor <= 0:
        raise GradRuntimeError(f"{name} expects a positive {what}, but got {factor}")


@register(
    "pixel_shuffle",
    "pixel_shuffle(input, upscale_factor)",
    "(*, C r^2, H, W) rearranged to (*, C, H r, W r)",
    checks=[((Arg((1, 8, 2, 3)), 2), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def pixel_shuffle(input, upscale_factor):
    x = tensor_arg(input)
    _check(x.data, "pixel_shuffle", upscale_factor, "upscale_factor")
    c = x.data.shape[-3]
    if c % (upscale_factor * upscale_factor):
        raise GradRuntimeError(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the "
            f"square of upscale_factor, but input.size(-3)={c} is not divisible by "
            f"{upscale_factor * upscale_factor}"
        )
    return PixelShuffle.apply(x, factor=upscale_factor)


@register(
    "pixel_unshuffle",
    "pixel_unshuffle(input, downscale_factor)",
    "(*, C, H r, W r) rearranged to (*, C r^2, H, W)",
    checks=[((Arg((1, 2, 4, 6)), 2), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def pixel_unshuffle(input, downscale_factor):
    x = tensor_arg(input)
    _check(x.data, "pixel_unshuffle", downscale_factor, "downscale_factor")
    h, w = x.data.shape[-2:]
    for size, what in ((h, "height"), (w, "width")):
        if size % downscale_factor:
            raise GradRuntimeError(
                f"pixel_unshuffle expects {what} to be divisible by downscale_factor, but "
                f"input.size({-2 if what == 'height' else -1})={size} is not divisible by "
                f"{downscale_factor}"
            )
    return PixelUnshuffle.apply(x, factor=downscale_factor)


class ChannelShuffle(Function):
    __slots__ = ("groups",)
    name = "ChannelShuffleBackward0"
    saved_names = ()
    saved_extra = {"groups": lambda node: node.groups}
    formula = FORMULA

    def forward(self, x, groups):
        self.groups = groups
        return _channels(x, groups)

    def backward(self, g, F):
        back = g.shape[1] // self.groups
        if F.tensor_mode:
            return (ChannelShuffle.apply(g, groups=back),)
        return (_channels(g, back),)

    def jvp(self, ts, F):
        return type(self).apply(ts[0], groups=self.groups)


class NativeChannelShuffle(NotImplementedGrad):
    __slots__ = ()
    aten = "native_channel_shuffle"
    compute = staticmethod(lambda x, groups: _channels(x, groups))


def _channel_groups(x, groups):
    if x.ndim < 3:
        raise GradRuntimeError(
            "channel_shuffle expects input to have at least 3 dimensions, but got input with "
            f"{x.ndim} dimension(s)"
        )
    if groups <= 0:
        raise GradRuntimeError(
            f"Number of groups to divide channels in must be positive. Value of groups:{groups}"
        )
    if x.shape[1] % groups:
        raise GradRuntimeError(
            f"Number of channels must be divisible by groups. Got {x.shape[1]} channels and "
            f"{groups} groups."
        )


@register(
    "channel_shuffle",
    "channel_shuffle(input, groups)",
    "the channels of (N, C, *) input taken group after group, interleaved",
    checks=[((Arg((1, 4, 2, 2)), 2), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def channel_shuffle(input, groups):
    x = tensor_arg(input)
    _channel_groups(x.data, groups)
    return ChannelShuffle.apply(x, groups=groups)


@register(
    "native_channel_shuffle",
    "native_channel_shuffle(input, groups)",
    "channel_shuffle as ATen's native kernel (no derivative of its own)",
    checks=none("PyTorch's native form has no derivative: its gradient is NotImplemented"),
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def native_channel_shuffle(input, groups):
    x = tensor_arg(input)
    _channel_groups(x.data, groups)
    return NativeChannelShuffle.apply(x, groups=groups)
