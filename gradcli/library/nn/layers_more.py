"""torch.nn's Embedding, BatchNorm1d/2d/3d, AvgPool2d/3d and AdaptiveAvgPool2d: parameters and
buffers made and initialised as PyTorch's do (Embedding's weight from `normal_`, its
padding row zeroed), each printed as PyTorch prints it."""

from __future__ import annotations

import numpy as np

from .init import filled
from ...runtime import context
from ...runtime.errors import GradValueError
from ...core import dtypes
from ...core.tensor import Tensor
from ...ops import batching, norm_pool
from ...ops.registry import FUNCTIONS
from .init import normal_
from ...ops.nn import _pair
from .layers import Conv2d, _empty, _int
from .module import Module, new_parameter
from ...core.parameter import is_uninitialized, set_uninitialized


def _float(dtype):
    return context.current.default_float if dtype is None else dtypes.as_numpy(dtype)


def embedding_table(module, weight, dtype):
    """An embedding layer's weight (`num_embeddings` x `embedding_dim`): a copy of `weight`'s
    values when given, else drawn by the layer's `reset_parameters`."""
    if weight is None:
        shape = (module.num_embeddings, module.embedding_dim)
        module.weight = new_parameter(np.zeros(shape, dtype=_float(dtype)))
        module.reset_parameters()
    else:
        module.weight = new_parameter(np.array(weight.data))


class Embedding(Module):
    replay_op = "embedding"  # (its indices taken each iteration: replay_plan._keys)

    def __init__(
        self,
        num_embeddings,
        embedding_dim,
        padding_idx=None,
        max_norm=None,
        norm_type=2.0,
        scale_grad_by_freq=False,
        sparse=False,
        _weight=None,
        _freeze=False,
        device=None,
        dtype=None,
    ):
        super().__init__()
        self.num_embeddings = _int(num_embeddings, "size")
        self.embedding_dim = _int(embedding_dim, "size")
        if padding_idx is not None:
            if padding_idx > 0 and padding_idx >= num_embeddings:
                raise AssertionError("Padding_idx must be within num_embeddings")
            if padding_idx < 0:
                if padding_idx < -num_embeddings:
                    raise AssertionError("Padding_idx must be within num_embeddings")
                padding_idx = num_embeddings + padding_idx
        self.padding_idx = padding_idx
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        embedding_table(self, _weight, dtype)
        self.weight.requires_grad = not _freeze

    def reset_parameters(self):
        normal_(self.weight)
        if self.padding_idx is not None:
            self.weight.data[self.padding_idx] = 0

    def forward(self, input):
        return batching.op("embedding", input, self.weight, self.padding_idx)

    def extra_repr(self):
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        return s

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None, **kw):
        rows, cols = embeddings.data.shape
        return cls(rows, cols, padding_idx=padding_idx, _weight=embeddings, _freeze=freeze, **kw)


class BatchNorm1d(Module):
    replay_op = "batch_norm"  # (its running statistics written by its node: BatchNorm.writes)
    replay_training = True  # (training: the batch's statistics; evaluation: the running ones)
    input_dims = ((2, 3), "2D or 3D")  # the dims of an input it takes, as its error says them

    def __init__(
        self,
        num_features,
        eps=1e-05,
        momentum=0.1,
        affine=True,
        track_running_stats=True,
        device=None,
        dtype=None,
        bias=True,
    ):
        super().__init__()
        self.num_features = _int(num_features, "size")
        self.eps, self.momentum = eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        self.use_bias = bool(affine and bias)
        dt = _float(dtype)
        if affine:
            self.weight = new_parameter(np.ones(num_features, dtype=dt))
        else:
            self.register_parameter("weight", None)
        if self.use_bias:
            self.bias = new_parameter(np.zeros(num_features, dtype=dt))
        else:
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", Tensor(np.zeros(num_features, dtype=dt)))
            self.register_buffer("running_var", Tensor(np.ones(num_features, dtype=dt)))
            self.register_buffer("num_batches_tracked", Tensor(np.zeros((), dtype=np.int64)))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)
        filled(self)  # (torch's reset_parameters: one fill each)

    def forward(self, input):
        nd = input.data.ndim if isinstance(input, Tensor) else 0
        dims, said = self.input_dims
        if nd not in dims:
            raise GradValueError(f"expected {said} input (got {nd}D input)")
        use_batch = self.training or self.running_mean is None
        track = not self.training or self.track_running_stats
        return norm_pool.counted_batch_norm(
            input,
            self.running_mean if track else None,
            self.running_var if track else None,
            self.weight,
            self.bias,
            use_batch,
            self.momentum,
            self.eps,
            self.num_batches_tracked if track else None,  # (bumped by the op in training)
        )

    def extra_repr(self):
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
            f"affine={self.affine}, bias={self.use_bias}, "
            f"track_running_stats={self.track_running_stats}"
        )


class BatchNorm2d(BatchNorm1d):
    input_dims = ((4,), "4D")


class BatchNorm3d(BatchNorm1d):
    input_dims = ((5,), "5D")


class _LazyBatchNorm:
    """nn.LazyBatchNorm1d/2d/3d: num_features is taken from the first input (its dim 1),
    when the parameters and running statistics are made and initialised (as BatchNorm's)
    and the module becomes the BatchNorm it stands for (torch's cls_to_become)."""

    becomes: type = BatchNorm1d

    def __init__(
        self,
        eps=1e-05,
        momentum=0.1,
        affine=True,
        track_running_stats=True,
        device=None,
        dtype=None,
        bias=True,
    ):
        self.becomes.__init__(self, 0, eps, momentum, False, False, dtype=dtype, bias=False)
        self.affine, self.track_running_stats = affine, track_running_stats
        self.use_bias = bool(affine and bias)
        dt = _float(dtype)
        if affine:
            self.weight = set_uninitialized(new_parameter(np.zeros(0, dtype=dt)))
            if bias:
                self.bias = set_uninitialized(new_parameter(np.zeros(0, dtype=dt)))
        if track_running_stats:
            self.running_mean = set_uninitialized(Tensor(np.zeros(0, dtype=dt)))
            self.running_var = set_uninitialized(Tensor(np.ones(0, dtype=dt)))
            self.num_batches_tracked = Tensor(np.zeros((), dtype=np.int64))

    def forward(self, input):
        becomes = self.becomes
        made = [getattr(self, n) for n in ("weight", "bias", "running_mean", "running_var")]
        if any(t is not None and is_uninitialized(t) for t in made):
            shape = input.data.shape if isinstance(input, Tensor) else ()
            n = self.num_features = _int(int(shape[1]) if len(shape) > 1 else 0, "size")
            for t, fill in zip(made, (1, 0, 0, 1)):
                if t is not None:
                    t.data = np.full(n, fill, dtype=t.data.dtype)
                    set_uninitialized(t, False)
        object.__setattr__(self, "__class__", becomes)  # torch: cls_to_become (also when
        return becomes.forward(self, input)  # load_state_dict made the parameters)


class LazyBatchNorm1d(_LazyBatchNorm, BatchNorm1d):
    becomes = BatchNorm1d


class LazyBatchNorm2d(_LazyBatchNorm, BatchNorm2d):
    becomes = BatchNorm2d


class LazyBatchNorm3d(_LazyBatchNorm, BatchNorm3d):
    becomes = BatchNorm3d


class AvgPool2d(Module):
    replay_op = "avg_pool2d"

    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        ceil_mode=False,
        count_include_pad=True,
        divisor_override=None,
    ):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    pool = "avg_pool2d"

    def forward(self, input):
        return batching.op(
            self.pool,
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
        )

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool3d(AvgPool2d):
    pool = "avg_pool3d"
    replay_op = None


class AdaptiveAvgPoolNd(Module):
    """The adaptive average pools' module (PyTorch's _AdaptiveAvgPoolNd): `pool`, its op."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    pool = "adaptive_avg_pool2d"

    def forward(self, input):
        return batching.op(self.pool, input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool2d(AdaptiveAvgPoolNd):
    pool = "adaptive_avg_pool2d"


class ConvTranspose2d(Conv2d):
    """nn.ConvTranspose2d: a weight of (in, out / groups, kH, kW), initialised as
    Conv2d's (kaiming_uniform_ with a = sqrt(5); its fan-in is out / groups * kH * kW)."""

    replay_op = "conv_transpose2d"

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        output_padding=0,
        groups=1,
        bias=True,
        dilation=1,
        padding_mode="zeros",
        device=None,
        dtype=None,
    ):
        if padding_mode != "zeros":
            raise GradValueError(
                f'Only "zeros" padding mode is supported for {type(self).__name__}'
            )
        Module.__init__(self)
        if isinstance(groups, bool) or not isinstance(groups, int) or groups <= 0:
            raise GradValueError("groups must be a positive integer")
        if in_channels % groups:
            raise GradValueError("in_channels must be divisible by groups")
        if out_channels % groups:
            raise GradValueError("out_channels must be divisible by groups")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = _pair(kernel_size, "kernel_size")
        self.stride, self.padding = _pair(stride, "stride"), _pair(padding, "padding")
        self.dilation = _pair(dilation, "dilation")
        self.output_padding = _pair(output_padding, "output_padding")
        self.groups, self.padding_mode = groups, padding_mode
        self.weight = _empty(in_channels, out_channels // groups, *self.kernel_size, dtype=dtype)
        if bias:
            self.bias = _empty(out_channels, dtype=dtype)
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def forward(self, input, output_size=None):
        if output_size is not None:
            raise GradValueError("ConvTranspose2d: output_size is not supported by gradcli")
        return batching.op(
            "conv_transpose2d",
            input,
            self.weight,
            self.bias,
            self.stride,
            self.padding,
            self.output_padding,
            self.groups,
            self.dilation,
        )

    def extra_repr(self):
        s = (
            f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}"
        )
        if self.padding != (0, 0):
            s += f", padding={self.padding}"
        if self.dilation != (1, 1):
            s += f", dilation={self.dilation}"
        if self.output_padding != (0, 0):
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


class Upsample(Module):
    """nn.Upsample: F.interpolate of its input with its size or scale factor and mode."""

    def __init__(
        self, size=None, scale_factor=None, mode="nearest", align_corners=None,
        recompute_scale_factor=None,
    ):  # fmt: skip
        super().__init__()
        self.size = size
        if isinstance(scale_factor, (tuple, list)):
            self.scale_factor = tuple(float(f) for f in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode, self.align_corners = mode, align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return FUNCTIONS["interpolate"](
            input,
            self.size,
            self.scale_factor,
            self.mode,
            self.align_corners,
            recompute_scale_factor=self.recompute_scale_factor,
        )

    def extra_repr(self):
        if self.scale_factor is not None:
            info = f"scale_factor={self.scale_factor!r}"
        else:
            info = f"size={self.size!r}"
        return info + f", mode={self.mode!r}"


LAYERS_MORE = {
    c.__name__: c
    for c in (
        Embedding,
        BatchNorm1d,
        BatchNorm2d,
        BatchNorm3d,
        LazyBatchNorm1d,
        LazyBatchNorm2d,
        LazyBatchNorm3d,
        AvgPool2d,
        AvgPool3d,
        AdaptiveAvgPool2d,
        ConvTranspose2d,
        Upsample,
    )
}
