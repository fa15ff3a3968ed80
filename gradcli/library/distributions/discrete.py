"""torch.distributions' Categorical and Bernoulli, given probs or logits: the other
parameter made from it when first read (torch's lazy_property: under enable_grad, then
kept, and shown by the repr from then on), each method PyTorch's ops in PyTorch's order,
each draw PyTorch's (torch.multinomial's, torch.bernoulli's)."""

from __future__ import annotations

import math

import numpy as np

from ...core import dtypes
from ...core.tensor import Tensor
from ...ops.registry import FUNCTIONS
from ...core.convert import type_name
from ...runtime.errors import GradAttributeError, GradValueError
from ..autograd_api import NO_GRAD
from ..counting import FUNCTIONAL as COUNTING
from ..values import Size
from .base import (
    Distribution,
    IntegerInterval,
    boolean,
    broadcast_all,
    is_number,
    one_hot,
    real,
    real_vector,
    sample_size,
    simplex,
    unit_interval,
)


one_hot_of = COUNTING["one_hot"]  # F.one_hot


def _one_of(probs, logits):
    if (probs is None) == (logits is None):
        raise GradValueError("Either `probs` or `logits` must be specified, but not both.")


def _ndim(t):
    """t.dim() of a tensor; Python's AttributeError for anything else."""
    if not isinstance(t, Tensor):
        raise GradAttributeError(f"'{type_name(t)}' object has no attribute 'dim'")
    return t.data.ndim


def _eps(t):
    return float(np.finfo(t.data.dtype).eps)


def _clamped(probs):
    """utils.clamp_probs: probs clamped to [eps, 1 - eps] of their dtype."""
    eps = _eps(probs)
    return FUNCTIONS["clamp"](probs, min=eps, max=1 - eps)


class Categorical(Distribution):
    """Categorical(probs=None, logits=None, validate_args=None): indices of the last
    dim's events; probs normalised to sum 1, logits to log-probabilities."""

    __slots__ = ("num_events", "given")
    name = "Categorical"
    module = "categorical"
    has_enumerate_support = True
    arg_constraints = {"probs": simplex, "logits": real_vector}
    lazy = {
        "logits": lambda d: FUNCTIONS["log"](_clamped(d.params["probs"])),
        "probs": lambda d: FUNCTIONS["softmax"](d.params["logits"], -1),
    }

    def __init__(self, probs=None, logits=None, validate_args=None):
        _one_of(probs, logits)
        if probs is not None:
            if _ndim(probs) < 1:
                raise GradValueError("`probs` parameter must be at least one-dimensional.")
            self.given = "probs"
            self.params = {"probs": probs / FUNCTIONS["sum"](probs, -1, keepdim=True)}
        else:
            if _ndim(logits) < 1:
                raise GradValueError("`logits` parameter must be at least one-dimensional.")
            self.given = "logits"
            norm = FUNCTIONS["logsumexp"](logits, dim=-1, keepdim=True)
            self.params = {"logits": logits - norm}
        param = self.params[self.given]
        self.num_events = param.data.shape[-1]
        batch = Size(param.data.shape[:-1]) if param.data.ndim > 1 else Size()
        super().__init__(batch, validate_args=validate_args)

    def support_of(self):
        return IntegerInterval(0, self.num_events - 1)

    def expanded_into(self, new, batch_shape):
        shape = tuple(batch_shape) + (self.num_events,)
        expand = FUNCTIONS["expand"]
        new.params = {k: expand(v, shape) for k, v in self.params.items()}
        new.num_events, new.given = self.num_events, self.given

    def _full_nan(self):
        probs = self.param("probs")
        return FUNCTIONS["full"](self.extended_shape(), math.nan, dtype=_dtype_of(probs))

    def mean(self):
        return self._full_nan()

    def variance(self):
        return self._full_nan()

    def mode(self):
        return FUNCTIONS["argmax"](self.param("probs"), dim=-1)

    def sample(self, sample_shape=Size()):
        sample_shape = sample_size(sample_shape)
        probs_2d = FUNCTIONS["reshape"](self.param("probs"), (-1, self.num_events))
        n = math.prod(sample_shape)
        drawn = FUNCTIONS["multinomial"](probs_2d, n, True)
        return FUNCTIONS["reshape"](FUNCTIONS["t"](drawn), self.extended_shape(sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self.validate_sample(value)
        value = FUNCTIONS["unsqueeze"](FUNCTIONS["long"](value), -1)
        value, log_pmf = FUNCTIONS["broadcast_tensors"](value, self.param("logits"))
        value = FUNCTIONS["index"](value, (Ellipsis, slice(None, 1)))
        return FUNCTIONS["squeeze"](FUNCTIONS["gather"](log_pmf, -1, value), -1)

    def entropy(self):
        logits = self.param("logits")
        min_real = float(np.finfo(logits.data.dtype).min)
        logits = FUNCTIONS["clamp"](logits, min=min_real)
        p_log_p = logits * self.param("probs")
        return -FUNCTIONS["sum"](p_log_p, -1)

    def enumerate_support(self, expand=True):
        values = FUNCTIONS["arange"](self.num_events)
        values = FUNCTIONS["view"](values, (-1,) + (1,) * len(self._batch_shape))
        if expand:
            values = FUNCTIONS["expand"](values, (-1,) + tuple(self._batch_shape))
        return values

    attrs = {
        **Distribution.attrs,
        "param_shape": lambda d: Size(d.params[d.given].data.shape),
        "_num_events": lambda d: d.num_events,
    }


class Bernoulli(Distribution):
    """Bernoulli(probs=None, logits=None, validate_args=None): 1 with probability probs."""

    __slots__ = ("given",)
    name = "Bernoulli"
    module = "bernoulli"
    has_enumerate_support = True
    arg_constraints = {"probs": unit_interval, "logits": real}
    support = boolean
    lazy = {
        "logits": lambda d: _binary_logits(d.params["probs"]),
        "probs": lambda d: FUNCTIONS["sigmoid"](d.params["logits"]),
    }

    def __init__(self, probs=None, logits=None, validate_args=None):
        _one_of(probs, logits)
        self.given = "probs" if probs is not None else "logits"
        given = probs if probs is not None else logits
        (param,) = broadcast_all(given)
        self.params = {self.given: param}
        batch = Size() if is_number(given) else Size(param.data.shape)
        super().__init__(batch, validate_args=validate_args)

    def expanded_into(self, new, batch_shape):
        super().expanded_into(new, batch_shape)
        new.given = self.given

    def mean(self):
        return self.param("probs")

    def variance(self):
        probs = self.param("probs")
        return probs * (1 - probs)

    def mode(self):
        probs = self.param("probs")
        mode = FUNCTIONS["type_as"](probs >= 0.5, probs)
        mode.data[probs.data == 0.5] = math.nan
        return mode

    def sample(self, sample_shape=Size()):
        shape = self.extended_shape(sample_shape)
        probs = self.param("probs")
        with NO_GRAD:
            return FUNCTIONS["bernoulli"](FUNCTIONS["expand"](probs, shape))

    def log_prob(self, value):
        if self._validate_args:
            self.validate_sample(value)
        logits, value = broadcast_all(self.param("logits"), value)
        bce = FUNCTIONS["binary_cross_entropy_with_logits"]
        return -bce(logits, value, reduction="none")

    def entropy(self):
        bce = FUNCTIONS["binary_cross_entropy_with_logits"]
        return bce(self.param("logits"), self.param("probs"), reduction="none")

    def enumerate_support(self, expand=True):
        param = self.params[self.given]
        values = Tensor(np.arange(2, dtype=param.data.dtype))
        values = FUNCTIONS["view"](values, (-1,) + (1,) * len(self._batch_shape))
        if expand:
            values = FUNCTIONS["expand"](values, (-1,) + tuple(self._batch_shape))
        return values

    attrs = {
        **Distribution.attrs,
        "param_shape": lambda d: Size(d.params[d.given].data.shape),
    }


def _binary_logits(probs):
    """utils.probs_to_logits(probs, is_binary=True): log(p) - log1p(-p) of the clamped p."""
    p = _clamped(probs)
    return FUNCTIONS["log"](p) - FUNCTIONS["log1p"](-p)


def _dtype_of(t):
    return dtypes.DType(t.data.dtype)


class OneHotCategorical(Distribution):
    """OneHotCategorical(probs=None, logits=None, validate_args=None): a Categorical's
    draws as one-hot vectors of the last dim."""

    __slots__ = ("categorical",)
    name = "OneHotCategorical"
    module = "one_hot_categorical"
    has_enumerate_support = True
    arg_constraints = {"probs": simplex, "logits": real_vector}
    support = one_hot

    def __init__(self, probs=None, logits=None, validate_args=None):
        cat = self.categorical = Categorical(probs, logits)
        self.params = {}  # (torch's are properties of the Categorical: the repr shows none)
        event = Size(cat.params[cat.given].data.shape[-1:])
        super().__init__(cat._batch_shape, event, validate_args=validate_args)
        if self._validate_args:  # (torch reads both, which makes the other)
            for name, constraint in self.arg_constraints.items():
                self.check_param(name, constraint, cat.param(name))

    def expanded_into(self, new, batch_shape):
        new.categorical, new.params = self.categorical.expand(batch_shape), {}

    def mean(self):
        return self.categorical.param("probs")

    def mode(self):
        probs = self.categorical.param("probs")
        mode = FUNCTIONS["argmax"](probs, dim=-1)
        hot = one_hot_of(mode, num_classes=probs.data.shape[-1])
        return FUNCTIONS["type_as"](hot, probs)

    def variance(self):
        probs = self.categorical.param("probs")
        return probs * (1 - probs)

    def sample(self, sample_shape=Size()):
        sample_shape = sample_size(sample_shape)
        probs = self.categorical.param("probs")
        indices = self.categorical.sample(sample_shape)
        return FUNCTIONS["type_as"](one_hot_of(indices, self.categorical.num_events), probs)

    def log_prob(self, value):
        if self._validate_args:
            self.validate_sample(value)
        indices = FUNCTIONS["max"](value, -1)[1]
        return self.categorical.log_prob(indices)

    def entropy(self):
        return self.categorical.entropy()

    def enumerate_support(self, expand=True):
        n = self._event_shape[0]
        param = self.categorical.params[self.categorical.given]
        values = Tensor(np.eye(n, dtype=param.data.dtype))
        values = FUNCTIONS["view"](values, (n,) + (1,) * len(self._batch_shape) + (n,))
        if expand:
            values = FUNCTIONS["expand"](values, (n,) + tuple(self._batch_shape) + (n,))
        return values

    attrs = {
        **Distribution.attrs,
        "probs": lambda d: d.categorical.param("probs"),
        "logits": lambda d: d.categorical.param("logits"),
        "param_shape": lambda d: d.categorical.attrs["param_shape"](d.categorical),
        "_categorical": lambda d: d.categorical,
    }
