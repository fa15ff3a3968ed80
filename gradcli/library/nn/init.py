"""torch.nn.init: fill a tensor in place (without recording a graph), drawing from
the generator exactly as PyTorch's CPU kernels do (`Generator.uniform/normal`),
so that parameters initialised after the same `manual_seed` are equal bit for bit.
Each fill writes into the tensor's own memory (a view's base sees it) and counts as
the in-place ops PyTorch's function runs (`_fill`: a fresh nn.Linear's weight is at
version 1, as torch's)."""

from __future__ import annotations

import math

import numpy as np

from ...runtime import context
from ...numerics.linalg import lapack
from ...numerics.random import sampling
from ...runtime.errors import GradRuntimeError, GradTypeError, GradValueError
from ...core.convert import type_name
from ...core.tensor import Tensor
from ...ops.creation import TorchGenerator, draws_from
from ...engine import versions
from ...ops.registry import FUNCTIONS as OPS


def _tensor(t, fn):
    if type(t) is not Tensor:
        raise GradTypeError(f"{fn}(): argument 'tensor' must be Tensor, not {type_name(t)}")
    return t


def _gen(generator):
    """The default generator, a torch.Generator's, or one of gradcli's given as is."""
    if generator is None or type(generator) is TorchGenerator:
        return draws_from(generator, "init")
    return generator


def _fill(t, values, ops=1):
    """Write values into t's memory, as `ops` in-place ops of PyTorch's (each bumps
    t's version counter, shared with its views)."""
    if t.data.flags.writeable and t.data.shape == values.shape:
        np.copyto(t.data, values, casting="unsafe")
    else:
        t.data = values
    for _ in range(ops):
        versions.bump(t)
    return t


def filled(module):
    """Count the fills of a module's parameters and buffers made by its constructor (a
    norm's ones and zeros, its running statistics) as the one in-place op each that
    PyTorch's `reset_parameters` runs on them."""
    for t in (*module._parameters.values(), *module._buffers.values()):
        if t is not None:
            versions.bump(t)


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    t = _tensor(tensor, "uniform_")
    if a > b:
        raise GradRuntimeError(
            f"uniform_ expects to return a [from, to) range, but found from={a} > to={b}"
        )
    return _fill(t, sampling.uniform(_gen(generator), t.data.shape, a, b, t.data.dtype))


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    t = _tensor(tensor, "normal_")
    if std < 0:
        raise GradRuntimeError(f"normal expects std >= 0.0, but found std {std}")
    return _fill(t, sampling.normal(_gen(generator), t.data.shape, mean, std, t.data.dtype))


def constant_(tensor, val):
    t = _tensor(tensor, "constant_")
    return _fill(t, np.full_like(t.data, val))


def zeros_(tensor):
    return constant_(tensor, 0)


def ones_(tensor):
    return constant_(tensor, 1)


def calculate_gain(nonlinearity, param=None):
    linear = (
        "linear",
        "conv1d",
        "conv2d",
        "conv3d",
        "conv_transpose1d",
        "conv_transpose2d",
        "conv_transpose3d",
    )
    if nonlinearity in linear or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            slope = param
        else:
            raise GradValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise GradValueError(f"Unsupported nonlinearity {nonlinearity}")


def fan_in_and_fan_out(t):
    shape = t.data.shape
    if len(shape) < 2:
        raise GradValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive = 1
    for s in shape[2:]:
        receptive *= s
    return shape[1] * receptive, shape[0] * receptive


def _fan(t, mode):
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise GradValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = fan_in_and_fan_out(t)
    return fan_in if mode == "fan_in" else fan_out


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    t = _tensor(tensor, "kaiming_uniform_")
    if 0 in t.data.shape:
        context.warn("Initializing zero-element tensors is a no-op")
        return t
    std = calculate_gain(nonlinearity, a) / math.sqrt(_fan(t, mode))
    bound = math.sqrt(3.0) * std
    return uniform_(t, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    t = _tensor(tensor, "kaiming_normal_")
    if 0 in t.data.shape:
        context.warn("Initializing zero-element tensors is a no-op")
        return t
    std = calculate_gain(nonlinearity, a) / math.sqrt(_fan(t, mode))
    return normal_(t, 0, std, generator)


def xavier_uniform_(tensor, gain=1.0, generator=None):
    t = _tensor(tensor, "xavier_uniform_")
    fan_in, fan_out = fan_in_and_fan_out(t)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(t, -a, a, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    t = _tensor(tensor, "xavier_normal_")
    fan_in, fan_out = fan_in_and_fan_out(t)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(t, 0.0, std, generator)


def _norm_cdf(x):
    return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Normal draws kept inside [a, b], by PyTorch's rejection: when the window holds
    more than 0.3 of the mass, whole fresh normal draws replace the values outside it
    until none is; otherwise uniform draws in [a, b], each accepted when the log of a
    uniform draw is at most its log density below the peak, redrawn until all are."""
    t = _tensor(tensor, "trunc_normal_")
    if mean < a - 2 * std or mean > b + 2 * std:
        context.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
            "The distribution of values may be incorrect."
        )
    gen, shape, dtype = _gen(generator), t.data.shape, t.data.dtype
    if _norm_cdf((b - mean) / std) - _norm_cdf((a - mean) / std) > 0.3:
        lo, hi = dtype.type(a), dtype.type(b)
        result = sampling.normal(gen, shape, mean, std, dtype)
        drawn = result
        while True:
            outside = (result < lo) | (result > hi)
            if not outside.any():
                break
            result = np.where(outside, sampling.normal(gen, shape, mean, std, dtype), result)
        return _fill(t, result, ops=1 if result is drawn else 2)  # (normal_, copy_)
    log_peak = -0.5 * ((max(a, min(mean, b)) - mean) / std) ** 2

    def log_density(values):
        c = OPS["sub"](Tensor(values), mean)
        return OPS["sub"](OPS["mul"](OPS["pow"](OPS["div"](c, std), 2), -0.5), log_peak).data

    def rejected(log_pdf):
        u = Tensor(sampling.uniform(gen, shape, 0.0, 1.0, dtype))
        return OPS["log"](u).data > log_pdf

    result = drawn = sampling.uniform(gen, shape, a, b, dtype)
    pending = rejected(log_density(result))
    while pending.any():
        candidates = sampling.uniform(gen, shape, a, b, dtype)
        result = np.where(pending, candidates, result)
        pending = np.where(pending, rejected(log_density(candidates)), pending)
    return _fill(t, result, ops=1 if result is drawn else 2)  # (uniform_, copy_)


def eye_(tensor):
    t = _tensor(tensor, "eye_")
    if t.data.ndim != 2:
        raise GradValueError("Only tensors with 2 dimensions are supported")
    return _fill(t, np.eye(*t.data.shape, dtype=t.data.dtype))


def dirac_(tensor, groups=1):
    """The identity of a convolution: a one at each kernel's centre, in as many input
    channels as each group's output channels keep."""
    t = _tensor(tensor, "dirac_")
    shape = t.data.shape
    if len(shape) not in (3, 4, 5):
        raise GradValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    if shape[0] % groups != 0:
        raise GradValueError("dim 0 must be divisible by groups")
    per_group = shape[0] // groups
    values = np.zeros(shape, dtype=t.data.dtype)
    centre = tuple(s // 2 for s in shape[2:])
    for g in range(groups):
        for d in range(min(per_group, shape[1])):
            values[(g * per_group + d, d, *centre)] = 1
    return _fill(t, values, ops=1 + groups * min(per_group, shape[1]))  # (zero_, each one)


def calculate_correct_fan(tensor, mode):
    return _fan(_tensor(tensor, "_calculate_correct_fan"), mode)


def orthogonal_(tensor, gain=1, generator=None):
    """A (semi-)orthogonal matrix from the QR factorisation of normal draws, as
    PyTorch's: the draws (rows x the rest) transposed when wider than tall, Q's columns
    signed by R's diagonal, scaled by gain."""
    t = _tensor(tensor, "orthogonal_")
    if t.data.ndim < 2:
        raise GradValueError("Only tensors with 2 or more dimensions are supported")
    if t.data.size == 0:
        return t
    rows = t.data.shape[0]
    cols = t.data.size // rows
    flat = sampling.normal(_gen(generator), (rows, cols), 0.0, 1.0, t.data.dtype)
    wide = rows < cols
    q, r = lapack.qr(flat.T if wide else flat)
    q = q * np.sign(np.diagonal(r))
    if wide:
        q = q.T
    return _fill(t, q.reshape(t.data.shape) * t.data.dtype.type(gain), ops=2)  # (copy_, mul_)


FUNCTIONS = {
    f.__name__: f
    for f in (
        orthogonal_,
        uniform_,
        normal_,
        constant_,
        zeros_,
        ones_,
        calculate_gain,
        kaiming_uniform_,
        kaiming_normal_,
        xavier_uniform_,
        xavier_normal_,
        trunc_normal_,
        eye_,
        dirac_,
    )
}
# private helpers of PyTorch's that custom layers' reset_parameters call
FUNCTIONS["_calculate_fan_in_and_fan_out"] = fan_in_and_fan_out
FUNCTIONS["_calculate_correct_fan"] = calculate_correct_fan
