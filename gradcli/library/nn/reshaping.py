"""torch.nn's rearranging layers and instance norms: nn.Unflatten, nn.PixelShuffle,
nn.PixelUnshuffle, nn.ChannelShuffle, nn.InstanceNorm1d/2d/3d and F.instance_norm
(ATen's composition: the input viewed as one batch of N * C channels, batch_norm in
training mode, the parameters and running statistics repeated N times)."""

from __future__ import annotations

import numpy as np

from .init import filled
from ...core.convert import tensor_arg
from ...core.tensor import Tensor
from ...ops import batching
from ...runtime import context
from ...runtime.errors import GradRuntimeError, GradValueError
from .module import Module, new_parameter
from .norms import _float, local_response_norm


class Unflatten(Module):
    """one dim of the input unflattened into a shape (view)."""

    def __init__(self, dim, unflattened_size):
        super().__init__()
        self.dim, self.unflattened_size = dim, unflattened_size

    def forward(self, input):
        x = tensor_arg(input)
        shape = list(x.data.shape)
        d = self.dim + len(shape) if self.dim < 0 else self.dim
        sizes = [int(n) for n in self.unflattened_size]
        return batching.op("view", x, *shape[:d], *sizes, *shape[d + 1 :])

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


class PixelShuffle(Module):
    """(*, C r^2, H, W) rearranged to (*, C, H r, W r)."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return batching.op("pixel_shuffle", input, self.upscale_factor)

    def extra_repr(self):
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """(*, C, H r, W r) rearranged to (*, C r^2, H, W)."""

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return batching.op("pixel_unshuffle", input, self.downscale_factor)

    def extra_repr(self):
        return f"downscale_factor={self.downscale_factor}"


class ChannelShuffle(Module):
    """the channels of (N, C, *) input taken group after group, interleaved."""

    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return batching.op("channel_shuffle", input, self.groups)

    def extra_repr(self):
        return f"groups={self.groups}"


def instance_norm(
    input,
    running_mean=None,
    running_var=None,
    weight=None,
    bias=None,
    use_input_stats=True,
    momentum=0.1,
    eps=1e-5,
):
    """Each sample's channels normalised over their own spatial values."""
    x = tensor_arg(input)
    size = x.data.shape
    if use_input_stats:
        spatial = 1
        for n in size[2:]:
            spatial *= n
        if spatial == 1:
            raise GradValueError(
                "Expected more than 1 spatial element when training, got input size "
                f"torch.Size([{', '.join(map(str, size))}])"
            )
    elif running_mean is None or running_var is None:
        raise GradRuntimeError(
            "Expected running_mean and running_var to be defined when use_input_stats is false"
        )
    b, c = size[0], size[1]

    def repeat(t):
        return None if t is None else batching.op("repeat", t, b)

    w, bi = repeat(weight), repeat(bias)
    rm, rv = repeat(running_mean), repeat(running_var)
    reshaped = batching.op("view", batching.op("contiguous", x), 1, b * c, *size[2:])
    out = batching.op("batch_norm", reshaped, rm, rv, w, bi, use_input_stats, momentum, eps)
    for stat, repeated in ((running_mean, rm), (running_var, rv)):
        if stat is not None:
            stat.data[...] = np.asarray(repeated.data).reshape(b, c).mean(0).astype(stat.data.dtype)
    return batching.op("view", out, *size)


class _InstanceNorm(Module):
    spatial = 1

    def __init__(
        self,
        num_features,
        eps=1e-5,
        momentum=0.1,
        affine=False,
        track_running_stats=False,
        device=None,
        dtype=None,
        bias=True,
    ):
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        dt = _float(dtype)
        if affine:
            self.weight = new_parameter(np.ones(num_features, dtype=dt))
            if bias:
                self.bias = new_parameter(np.zeros(num_features, dtype=dt))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", Tensor(np.zeros(num_features, dtype=dt)))
            self.register_buffer("running_var", Tensor(np.ones(num_features, dtype=dt)))
            self.register_buffer("num_batches_tracked", Tensor(np.zeros((), np.int64)))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        filled(self)  # (torch's reset_parameters: one fill each)

    def _apply(self, x):
        return instance_norm(
            x,
            self.running_mean,
            self.running_var,
            self.weight,
            self.bias,
            self.training or not self.track_running_stats,
            self.momentum if self.momentum is not None else 0.0,
            self.eps,
        )

    def forward(self, input):
        x = tensor_arg(input)
        no_batch = self.spatial + 1
        if x.data.ndim not in (no_batch, no_batch + 1):
            raise GradValueError(
                f"expected {no_batch}D or {no_batch + 1}D input (got {x.data.ndim}D input)"
            )
        feature_dim = x.data.ndim - no_batch
        if x.data.shape[feature_dim] != self.num_features:
            if self.affine:
                raise GradValueError(
                    f"expected input's size at dim={feature_dim} to match num_features "
                    f"({self.num_features}), but got: {x.data.shape[feature_dim]}."
                )
            context.warn(
                f"input's size at dim={feature_dim} does not match num_features. You can "
                "silence this warning by not passing in num_features, which is not used "
                "because affine=False"
            )
        if x.data.ndim == no_batch:
            return batching.op("squeeze", self._apply(batching.op("unsqueeze", x, 0)), 0)
        return self._apply(x)

    def extra_repr(self):
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
            f"affine={self.affine}, bias={self.bias is not None}, "
            f"track_running_stats={self.track_running_stats}"
        )


class InstanceNorm1d(_InstanceNorm):
    """instance normalisation of (N, C, L) or (C, L) input."""

    spatial = 1


class InstanceNorm2d(_InstanceNorm):
    """instance normalisation of (N, C, H, W) or (C, H, W) input."""

    spatial = 2


class InstanceNorm3d(_InstanceNorm):
    """instance normalisation of (N, C, D, H, W) or (C, D, H, W) input."""

    spatial = 3


LAYERS = {
    c.__name__: c
    for c in (
        Unflatten,
        PixelShuffle,
        PixelUnshuffle,
        ChannelShuffle,
        InstanceNorm1d,
        InstanceNorm2d,
        InstanceNorm3d,
    )
}
FUNCTIONAL = {"instance_norm": instance_norm, "local_response_norm": local_response_norm}
