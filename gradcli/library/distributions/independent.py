"""torch.distributions.Independent: a distribution whose rightmost batch dims are read
as event dims (log_prob and entropy summed over them), as a diagonal Normal stands for a
multivariate one."""

from __future__ import annotations

from ...ops.registry import FUNCTIONS
from ...runtime.errors import GradRuntimeError, GradValueError
from ..values import Size
from .base import Distribution, Independent as IndependentConstraint


def sum_rightmost(value, n):
    """utils._sum_rightmost: value summed over its n rightmost dims."""
    if n == 0:
        return value
    shape = value.data.shape[:-n] + (-1,)
    return FUNCTIONS["sum"](FUNCTIONS["reshape"](value, shape), -1)


class Independent(Distribution):
    """Independent(base_distribution, reinterpreted_batch_ndims, validate_args=None)."""

    __slots__ = ("base_dist", "ndims")
    name = "Independent"
    module = "independent"
    arg_constraints: dict = {}

    def __init__(self, base_distribution, reinterpreted_batch_ndims, validate_args=None):
        base, n = base_distribution, reinterpreted_batch_ndims
        if n > len(base._batch_shape):
            raise GradValueError(
                "Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), "
                f"actual {n} vs {len(base._batch_shape)}"
            )
        shape = tuple(base._batch_shape) + tuple(base._event_shape)
        cut = len(shape) - (n + len(base._event_shape))
        self.base_dist, self.ndims, self.params = base, n, {}
        super().__init__(Size(shape[:cut]), Size(shape[cut:]), validate_args=validate_args)

    def expanded_into(self, new, batch_shape):
        shape = tuple(batch_shape) + tuple(self._event_shape[: self.ndims])
        new.base_dist, new.ndims, new.params = self.base_dist.expand(shape), self.ndims, {}

    @property
    def has_rsample(self):  # type: ignore[override]
        return self.base_dist.has_rsample

    @property
    def has_enumerate_support(self):  # type: ignore[override]
        return False if self.ndims > 0 else self.base_dist.has_enumerate_support

    def support_of(self):
        result = self.base_dist.support_of()
        return IndependentConstraint(result, self.ndims) if self.ndims else result

    def mean(self):
        return self.base_dist.mean()

    def mode(self):
        return self.base_dist.mode()

    def variance(self):
        return self.base_dist.variance()

    def sample(self, sample_shape=Size()):
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape=Size()):
        return self.base_dist.rsample(sample_shape)

    def log_prob(self, value):
        return sum_rightmost(self.base_dist.log_prob(value), self.ndims)

    def entropy(self):
        return sum_rightmost(self.base_dist.entropy(), self.ndims)

    def enumerate_support(self, expand=True):
        if self.ndims > 0:
            raise GradRuntimeError(
                "Enumeration over cartesian product is not implemented",
                type_name="NotImplementedError",
            )
        return self.base_dist.enumerate_support(expand)

    def __repr__(self):
        return f"Independent({self.base_dist!r}, {self.ndims})"

    attrs = {
        **Distribution.attrs,
        "base_dist": lambda d: d.base_dist,
        "reinterpreted_batch_ndims": lambda d: d.ndims,
    }
