"""torch.distributions' Normal, Uniform, Exponential and Laplace: each method the ops of
PyTorch's, in its order (the same values to the last bit, the same grad_fn), each draw the
draw of PyTorch's (the same numbers from the same seed)."""

from __future__ import annotations

import math

import numpy as np

from ...core.convert import type_name
from ...core.tensor import Tensor
from ...runtime.errors import GradTypeError
from ...ops.registry import FUNCTIONS
from ...runtime import context
from ..autograd_api import NO_GRAD
from ...numerics.random import sampling
from ..values import Size
from .base import (
    Distribution,
    GreaterThan,
    Interval,
    LessThan,
    broadcast_all,
    is_number,
    nonnegative,
    positive,
    real,
    standard_normal,
)

_LOG_SQRT_2PI = math.log(math.sqrt(2 * math.pi))
_SQRT2 = math.sqrt(2)


def _scalar_or_batch(a, b, t):
    """The batch shape of a two-parameter distribution: () when both were numbers."""
    return Size() if is_number(a) and is_number(b) else Size(t.data.shape)


class Normal(Distribution):
    """Normal(loc, scale, validate_args=None)."""

    __slots__ = ()
    name = "Normal"
    module = "normal"
    has_rsample = True
    arg_constraints = {"loc": real, "scale": positive}
    support = real

    def __init__(self, loc, scale, validate_args=None):
        loc_t, scale_t = broadcast_all(loc, scale)
        self.params = {"loc": loc_t, "scale": scale_t}
        super().__init__(_scalar_or_batch(loc, scale, loc_t), validate_args=validate_args)

    def mean(self):
        return self.params["loc"]

    def mode(self):
        return self.params["loc"]

    def stddev(self):
        return self.params["scale"]

    def variance(self):
        return FUNCTIONS["pow"](self.params["scale"], 2)

    def sample(self, sample_shape=Size()):
        shape = self.extended_shape(sample_shape)
        loc, scale = self.params["loc"], self.params["scale"]
        with NO_GRAD:
            expand = FUNCTIONS["expand"]
            return FUNCTIONS["normal"](expand(loc, shape), expand(scale, shape))

    def rsample(self, sample_shape=Size()):
        shape = self.extended_shape(sample_shape)
        loc, scale = self.params["loc"], self.params["scale"]
        eps = standard_normal(shape, loc.data.dtype)
        return loc + eps * scale

    def log_prob(self, value):
        if self._validate_args:
            self.validate_sample(value)
        loc, scale = self.params["loc"], self.params["scale"]
        var = scale**2
        log_scale = FUNCTIONS["log"](scale)
        return -((value - loc) ** 2) / (2 * var) - log_scale - _LOG_SQRT_2PI

    def cdf(self, value):
        if self._validate_args:
            self.validate_sample(value)
        loc, scale = self.params["loc"], self.params["scale"]
        z = (value - loc) * FUNCTIONS["reciprocal"](scale) / _SQRT2
        return 0.5 * (1 + FUNCTIONS["erf"](z))

    def icdf(self, value):
        loc, scale = self.params["loc"], self.params["scale"]
        x = 2 * value - 1
        if not isinstance(x, Tensor):  # (torch.erfinv of a number)
            raise GradTypeError(
                f"erfinv(): argument 'input' (position 1) must be Tensor, not {type_name(x)}"
            )
        return loc + scale * FUNCTIONS["erfinv"](x) * _SQRT2

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + FUNCTIONS["log"](self.params["scale"])


class Uniform(Distribution):
    """Uniform(low, high, validate_args=None): the half-open interval [low, high)."""

    __slots__ = ()
    name = "Uniform"
    module = "uniform"
    has_rsample = True
    arg_constraints = {"low": None, "high": None}

    def __init__(self, low, high, validate_args=None):
        low_t, high_t = broadcast_all(low, high)
        self.params = {"low": low_t, "high": high_t}
        super().__init__(_scalar_or_batch(low, high, low_t), validate_args=validate_args)

    def constraints(self):
        return {"low": LessThan(self.params["high"]), "high": GreaterThan(self.params["low"])}

    def support_of(self):
        return Interval(self.params["low"], self.params["high"])

    def mean(self):
        return (self.params["high"] + self.params["low"]) / 2

    def mode(self):
        return math.nan * self.params["high"]

    def stddev(self):
        return (self.params["high"] - self.params["low"]) / 12**0.5

    def variance(self):
        return FUNCTIONS["pow"](self.params["high"] - self.params["low"], 2) / 12

    def rsample(self, sample_shape=Size()):
        shape = self.extended_shape(sample_shape)
        low, high = self.params["low"], self.params["high"]
        rand = Tensor(context.current.generator.rand(shape, low.data.dtype))
        return low + rand * (high - low)

    def log_prob(self, value):
        if self._validate_args:
            self.validate_sample(value)
        low, high = self.params["low"], self.params["high"]
        lb = FUNCTIONS["type_as"](FUNCTIONS["le"](low, value), low)
        ub = FUNCTIONS["type_as"](FUNCTIONS["gt"](high, value), low)
        return FUNCTIONS["log"](FUNCTIONS["mul"](lb, ub)) - FUNCTIONS["log"](high - low)

    def cdf(self, value):
        if self._validate_args:
            self.validate_sample(value)
        low, high = self.params["low"], self.params["high"]
        result = (value - low) / (high - low)
        return FUNCTIONS["clamp"](result, min=0, max=1)

    def icdf(self, value):
        low, high = self.params["low"], self.params["high"]
        return value * (high - low) + low

    def entropy(self):
        return FUNCTIONS["log"](self.params["high"] - self.params["low"])


class Exponential(Distribution):
    """Exponential(rate, validate_args=None)."""

    __slots__ = ()
    name = "Exponential"
    module = "exponential"
    has_rsample = True
    arg_constraints = {"rate": positive}
    support = nonnegative

    def __init__(self, rate, validate_args=None):
        (rate_t,) = broadcast_all(rate)
        self.params = {"rate": rate_t}
        batch = Size() if is_number(rate) else Size(rate_t.data.shape)
        super().__init__(batch, validate_args=validate_args)

    def mean(self):
        return FUNCTIONS["reciprocal"](self.params["rate"])

    def mode(self):
        return FUNCTIONS["zeros_like"](self.params["rate"])

    def stddev(self):
        return FUNCTIONS["reciprocal"](self.params["rate"])

    def variance(self):
        return FUNCTIONS["pow"](self.params["rate"], -2)

    def rsample(self, sample_shape=Size()):
        shape = self.extended_shape(sample_shape)
        rate = self.params["rate"]
        gen = context.current.generator
        return Tensor(sampling.exponential(gen, shape, 1.0, rate.data.dtype)) / rate

    def log_prob(self, value):
        if self._validate_args:
            self.validate_sample(value)
        rate = self.params["rate"]
        return FUNCTIONS["log"](rate) - rate * value

    def cdf(self, value):
        if self._validate_args:
            self.validate_sample(value)
        return 1 - FUNCTIONS["exp"](-self.params["rate"] * value)

    def icdf(self, value):
        return -FUNCTIONS["log1p"](-value) / self.params["rate"]

    def entropy(self):
        return 1.0 - FUNCTIONS["log"](self.params["rate"])


class Laplace(Distribution):
    """Laplace(loc, scale, validate_args=None)."""

    __slots__ = ()
    name = "Laplace"
    module = "laplace"
    has_rsample = True
    arg_constraints = {"loc": real, "scale": positive}
    support = real

    def __init__(self, loc, scale, validate_args=None):
        loc_t, scale_t = broadcast_all(loc, scale)
        self.params = {"loc": loc_t, "scale": scale_t}
        super().__init__(_scalar_or_batch(loc, scale, loc_t), validate_args=validate_args)

    def mean(self):
        return self.params["loc"]

    def mode(self):
        return self.params["loc"]

    def variance(self):
        return 2 * FUNCTIONS["pow"](self.params["scale"], 2)

    def stddev(self):
        return (2**0.5) * self.params["scale"]

    def rsample(self, sample_shape=Size()):
        shape = self.extended_shape(sample_shape)
        loc, scale = self.params["loc"], self.params["scale"]
        dt = loc.data.dtype
        eps = float(np.finfo(dt).eps)
        u = Tensor(sampling.uniform(context.current.generator, shape, eps - 1, 1.0, dt))
        sign, log1p, absolute = FUNCTIONS["sign"], FUNCTIONS["log1p"], FUNCTIONS["abs"]
        return loc - scale * sign(u) * log1p(-absolute(u))

    def log_prob(self, value):
        if self._validate_args:
            self.validate_sample(value)
        loc, scale = self.params["loc"], self.params["scale"]
        return -FUNCTIONS["log"](2 * scale) - FUNCTIONS["abs"](value - loc) / scale

    def cdf(self, value):
        if self._validate_args:
            self.validate_sample(value)
        loc, scale = self.params["loc"], self.params["scale"]
        d = value - loc
        return 0.5 - 0.5 * FUNCTIONS["sign"](d) * FUNCTIONS["expm1"](-FUNCTIONS["abs"](d) / scale)

    def icdf(self, value):
        loc, scale = self.params["loc"], self.params["scale"]
        term = value - 0.5
        sign, log1p, absolute = FUNCTIONS["sign"], FUNCTIONS["log1p"], FUNCTIONS["abs"]
        return loc - scale * sign(term) * log1p(-2 * absolute(term))

    def entropy(self):
        return 1 + FUNCTIONS["log"](2 * self.params["scale"])
