"""torch.distributions' base: the Distribution class (batch and event shapes, the checks
of arguments and values that `validate_args` turns on, the repr), the constraints those
checks use, and the helpers its distributions share (`broadcast_all`, the standard normal
draw).  Each check, message and op is PyTorch's, in PyTorch's order, so a program prints
what torch prints, errors included."""

from __future__ import annotations

import numpy as np

from ...core.parameter import is_parameter
from ...numerics.random import sampling
from ...core.tensor import Tensor
from ...ops.registry import FUNCTIONS
from ...runtime import context
from ...runtime.errors import GradRuntimeError, GradValueError
from ..autograd_api import ENABLE_GRAD, NO_GRAD
from ..values import Size

_NUMBER = (int, float)  # torch.types._Number (a bool is an int)


def shown(v):
    """f"{v}" of torch: a 0-d tensor formats as its item (a Python number), any other
    tensor as its repr."""
    if isinstance(v, Tensor):
        return str(v.item()) if v.data.ndim == 0 else repr(v)
    return str(v)


def all_true(t):
    """torch._is_all_true of a bool tensor."""
    return bool(np.all(t.data))


# ------------------------------------------------------------------ constraints


class Constraint:
    """A region a parameter or a value must lie in: `check(value)` is a bool tensor of
    sample_shape + batch_shape (True: valid)."""

    __slots__ = ()
    event_dim = 0
    is_discrete = False
    dependent = False

    def check(self, value):
        raise NotImplementedError

    def __repr__(self):
        return type(self).__name__ + "()"


class Real(Constraint):
    __slots__ = ()

    def check(self, value):
        return value == value  # (False for NaN)


class Boolean(Constraint):
    __slots__ = ()
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class OneHot(Constraint):
    __slots__ = ()
    is_discrete = True
    event_dim = 1

    def check(self, value):
        is_boolean = (value == 0) | (value == 1)
        is_normalized = FUNCTIONS["eq"](FUNCTIONS["sum"](value, -1), 1)
        return FUNCTIONS["all"](is_boolean, -1) & is_normalized


class Simplex(Constraint):
    __slots__ = ()
    event_dim = 1

    def check(self, value):
        ok = FUNCTIONS["all"](value >= 0, dim=-1)
        return ok & (FUNCTIONS["abs"](FUNCTIONS["sum"](value, -1) - 1) < 1e-6)


class _Bounded(Constraint):
    """A constraint with bounds, shown by name (`GreaterThan(lower_bound=0.0)`)."""

    __slots__ = ("bounds",)
    names: tuple = ()

    def __init__(self, *bounds):
        self.bounds = bounds

    def __repr__(self):
        inner = ", ".join(f"{n}={shown(b)}" for n, b in zip(self.names, self.bounds))
        return f"{type(self).__name__}({inner})"


class GreaterThan(_Bounded):
    __slots__ = ()
    names = ("lower_bound",)

    def check(self, value):
        return _rcompare(self.bounds[0], "lt", value)


class GreaterThanEq(_Bounded):
    __slots__ = ()
    names = ("lower_bound",)

    def check(self, value):
        return _rcompare(self.bounds[0], "le", value)


class LessThan(_Bounded):
    __slots__ = ()
    names = ("upper_bound",)

    def check(self, value):
        return value < self.bounds[0]


class Interval(_Bounded):
    __slots__ = ()
    names = ("lower_bound", "upper_bound")

    def check(self, value):
        low, high = self.bounds
        return _rcompare(low, "le", value) & (value <= high)


class IntegerInterval(Interval):
    __slots__ = ()
    is_discrete = True

    def check(self, value):
        low, high = self.bounds
        return (
            (FUNCTIONS["remainder"](value, 1) == 0) & _rcompare(low, "le", value) & (value <= high)
        )


class Independent(Constraint):
    """A constraint on events of `reinterpreted_batch_ndims` more dims: all of an event's
    entries valid."""

    __slots__ = ("base", "ndims")

    def __init__(self, base, ndims):
        self.base, self.ndims = base, ndims

    @property
    def event_dim(self):  # type: ignore[override]
        return self.base.event_dim + self.ndims

    def check(self, value):
        result = self.base.check(value)
        if result.data.ndim < self.ndims:
            raise GradValueError(
                f"Expected value.dim() >= {self.event_dim} but got {value.data.ndim}"
            )
        shape = result.data.shape[: result.data.ndim - self.ndims] + (-1,)
        return FUNCTIONS["all"](FUNCTIONS["reshape"](result, shape), -1)

    def __repr__(self):
        return f"IndependentConstraint({self.base!r}, {self.ndims})"


def _rcompare(bound, op, value):
    """`bound < value` (`<=`) with a number or a tensor bound, as Python evaluates it:
    a number on the left is the tensor's reflected comparison."""
    if isinstance(bound, Tensor):
        return FUNCTIONS[op](bound, value)
    return value > bound if op == "lt" else value >= bound


real = Real()
real_vector = Independent(real, 1)
positive = GreaterThan(0.0)
nonnegative = GreaterThanEq(0.0)
unit_interval = Interval(0.0, 1.0)
boolean = Boolean()
simplex = Simplex()
one_hot = OneHot()


# ------------------------------------------------------------------ helpers


def broadcast_all(*values):
    """torch.distributions.utils.broadcast_all: numbers become tensors of the first
    tensor's dtype (of the default dtype when there is none), then all are broadcast."""
    for v in values:
        if not isinstance(v, (Tensor, *_NUMBER)):
            raise GradValueError(
                "Input arguments must all be instances of Number, torch.Tensor or objects "
                "implementing __torch_function__."
            )
    if not all(isinstance(v, Tensor) for v in values):
        first = next((v for v in values if isinstance(v, Tensor)), None)
        dt = context.current.default_float if first is None else first.data.dtype
        values = tuple(
            v if isinstance(v, Tensor) else Tensor(np.array(v, dtype=dt)) for v in values
        )
    return FUNCTIONS["broadcast_tensors"](*values)


def standard_normal(shape, dt):
    """torch.empty(shape, dtype=dt).normal_(): a tensor of standard normals."""
    return Tensor(sampling.normal(context.current.generator, shape, 0.0, 1.0, dt))


def is_number(v):
    return isinstance(v, _NUMBER)


def sample_size(sample_shape):
    """The sample shape as torch.Size takes it (its errors for anything else)."""
    return sample_shape if isinstance(sample_shape, Size) else Size(sample_shape)


def with_grad(fn, d):
    """fn(d) under torch.enable_grad() (a lazy property's value, as torch computes it)."""
    with ENABLE_GRAD:
        return fn(d)


# ------------------------------------------------------------------ Distribution


def set_default_validate_args(value):
    """Distribution.set_default_validate_args(value): the default of validate_args."""
    if value not in (True, False):
        raise GradValueError("")
    context.current.validate_args = bool(value)


class Distribution:
    """The base of torch.distributions' classes.  `params` holds the parameters a
    distribution has (as torch's instance __dict__: a lazy one, such as Categorical's
    logits made from probs, only once it was read), in the order they were made."""

    __slots__ = ("params", "_batch_shape", "_event_shape", "_validate_args")
    name = "Distribution"
    has_rsample = False
    has_enumerate_support = False
    #: the parameter -> its constraint (the dict's order: the repr's)
    arg_constraints: dict = {}
    #: parameters computed from another when first read: name -> fn(d)
    lazy: dict = {}
    support: Constraint | None = None

    def __init__(self, batch_shape=Size(), event_shape=Size(), validate_args=None):
        self._batch_shape = batch_shape
        self._event_shape = event_shape
        if validate_args is None:
            validate_args = context.current.validate_args
        self._validate_args = bool(validate_args)
        if self._validate_args:
            for param, constraint in self.constraints().items():
                if constraint.dependent or param not in self.params:
                    continue  # (not yet computed lazy parameters are not checked)
                self.check_param(param, constraint, self.params[param])

    def check_param(self, param, constraint, value):
        """A parameter against its constraint: PyTorch's ValueError when it is outside."""
        if not all_true(constraint.check(value)):
            raise GradValueError(
                f"Expected parameter {param} ({_tname(value)} of shape "
                f"{tuple(value.data.shape)}) of distribution {self!r} to satisfy the "
                f"constraint {constraint!r}, but found invalid values:\n{shown(value)}"
            )

    def constraints(self):
        return self.arg_constraints

    def param(self, name):
        """A parameter, computed (under enable_grad) and kept when it is a lazy one."""
        v = self.params.get(name)
        if v is None:
            v = self.params[name] = with_grad(self.lazy[name], self)
        return v

    # --- shapes
    def expand(self, batch_shape):
        """A new distribution of this kind whose parameters are expanded (views) to
        batch_shape: not checked again, with this one's validate_args."""
        batch_shape = sample_size(batch_shape)
        new = type(self).__new__(type(self))
        self.expanded_into(new, batch_shape)
        Distribution.__init__(new, batch_shape, self._event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def expanded_into(self, new, batch_shape):
        expand = FUNCTIONS["expand"]
        new.params = {k: expand(v, batch_shape) for k, v in self.params.items()}

    def extended_shape(self, sample_shape=Size()):
        sample_shape = sample_size(sample_shape)
        return Size(tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape))

    def validate_sample(self, value):
        """Distribution._validate_sample: value's shape against the batch and event
        shapes, then the support."""
        if not isinstance(value, Tensor):
            raise GradValueError("The value argument to log_prob must be a Tensor")
        shape = Size(value.data.shape)
        event = self._event_shape
        start = len(shape) - len(event)
        if tuple(shape[start:]) != tuple(event):
            raise GradValueError(
                f"The right-most size of value must match event_shape: {shape!r} vs {event!r}."
            )
        expected = Size(tuple(self._batch_shape) + tuple(event))
        for i, j in zip(reversed(shape), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise GradValueError(
                    "Value is not broadcastable with batch_shape+event_shape: "
                    f"{shape!r} vs {expected!r}."
                )
        support = self.support_of()
        if not all_true(support.check(value)):
            raise GradValueError(
                f"Expected value argument ({_tname(value)} of shape {tuple(value.data.shape)}) "
                f"to be within the support ({support!r}) of the distribution {self!r}, but "
                f"found invalid values:\n{shown(value)}"
            )

    def support_of(self):
        return self.support

    # --- what every distribution has
    def sample(self, sample_shape=Size()):
        with NO_GRAD:
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=Size()):
        raise _not_implemented()

    def log_prob(self, value):
        raise _not_implemented()

    def cdf(self, value):
        raise _not_implemented()

    def icdf(self, value):
        raise _not_implemented()

    def entropy(self):
        raise _not_implemented()

    def enumerate_support(self, expand=True):
        raise _not_implemented()

    def perplexity(self):
        return FUNCTIONS["exp"](self.entropy())

    def mean(self):
        raise _not_implemented()

    def variance(self):
        raise _not_implemented()

    def stddev(self):
        return FUNCTIONS["sqrt"](self.variance())

    def mode(self):
        raise GradRuntimeError(
            f"<class 'torch.distributions.{self.module}.{self.name}'> does not implement mode",
            type_name="NotImplementedError",
        )

    module = "distribution"

    def __repr__(self):
        names = [k for k in self.arg_constraints if k in self.params]
        inner = ", ".join(
            f"{p}: {shown(v) if v.data.size == 1 else repr(Size(v.data.shape))}"
            for p in names
            for v in (self.params[p],)
        )
        return f"{self.name}({inner})"

    # --- the language's view of it
    def language_getattr(self, name):
        getter = self.attrs.get(name)
        if getter is not None:
            return getter(self)
        if name in self.arg_constraints:
            return self.param(name)
        raise AttributeError(name)

    attrs: dict = {
        "batch_shape": lambda d: d._batch_shape,
        "event_shape": lambda d: d._event_shape,
        "has_rsample": lambda d: d.has_rsample,
        "has_enumerate_support": lambda d: d.has_enumerate_support,
        "mean": lambda d: d.mean(),
        "mode": lambda d: d.mode(),
        "variance": lambda d: d.variance(),
        "stddev": lambda d: d.stddev(),
        "support": lambda d: d.support_of(),
        "arg_constraints": lambda d: dict(d.constraints()),
        "_validate_args": lambda d: d._validate_args,
    }
    language_class_attrs = {"set_default_validate_args": set_default_validate_args}
    language_methods = {
        "sample": lambda d, sample_shape=Size(): d.sample(sample_shape),
        "rsample": lambda d, sample_shape=Size(): d.rsample(sample_shape),
        "log_prob": lambda d, value: d.log_prob(value),
        "cdf": lambda d, value: d.cdf(value),
        "icdf": lambda d, value: d.icdf(value),
        "entropy": lambda d: d.entropy(),
        "perplexity": lambda d: d.perplexity(),
        "expand": lambda d, batch_shape: d.expand(batch_shape),
        "enumerate_support": lambda d, expand=True: d.enumerate_support(expand),
    }


def _not_implemented():
    return GradRuntimeError("", type_name="NotImplementedError")


def _tname(value):
    return "Parameter" if is_parameter(value) else "Tensor"
