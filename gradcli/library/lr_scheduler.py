"""torch.optim.lr_scheduler: the LRScheduler base and PyTorch's schedulers, each giving
the learning rates PyTorch gives bit for bit.  A schedule is arithmetic on Python floats,
so it is torch's formulas in torch's order of operations: `step()` takes the recursive
("chainable") form of `get_lr` (each group's current lr times a factor, so an lr set by
hand in `param_groups` is where the schedule goes on from), `step(epoch)` the closed
form where torch has one (with torch's deprecation warning).

A scheduler's attributes are its instance variables, in the order torch creates them:
`state_dict()` is all of them but the optimizer (and a LambdaLR's functions), as torch's
is, and `load_state_dict` puts them back.  `optimizer.param_groups` gains the keys torch
adds (`initial_lr`; `max_lr`, `min_lr`, `max_momentum`, `base_momentum`), and
CyclicLR/OneCycleLR cycle `momentum` or `betas[0]` as torch does."""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter

from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradTypeError, GradValueError
from .optim import Optimizer
from .values import USER_MARK

STEP_ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and "
    "later, you should call them in the opposite order: `optimizer.step()` before "
    "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first "
    "value of the learning rate schedule. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
)
EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)
GET_LR_WARNING = (
    "To get the last learning rate computed by the scheduler, please use `get_last_lr()`."
)


def _lrs(optimizer, key="lr"):
    return [group[key] for group in optimizer.param_groups]


def _per_group(name, optimizer, value):
    """A value per parameter group: a list or tuple of as many, or one for all."""
    n = len(optimizer.param_groups)
    if isinstance(value, (list, tuple)):
        if len(value) != n:
            raise GradValueError(
                f"{name} must have the same length as optimizer.param_groups. "
                f"{name} has {len(value)} values, param_groups has {n}."
            )
        return list(value)
    return [value] * n


def _library(obj, name):
    """The library's method `name` for obj: of the first library class of its MRO that
    defines it (a program's class deriving from a scheduler reaches the base's methods
    through super(), while the base's own code calls the program's overrides)."""
    for c in type(obj).__mro__:
        if not c.__dict__.get(USER_MARK) and name in c.__dict__:
            return c.__dict__[name]
    raise AttributeError(name)


def _watch_step(optimizer):
    """Have the optimizer note that its step() ran (for the warning of a scheduler stepped
    first): the library's step does when watched; a `step` of the program's own class is
    wrapped in the instance, as torch wraps every optimizer's."""
    optimizer.watched = True
    d = getattr(optimizer, "__dict__", None)
    if d is None or "step" in d:
        return
    for c in type(optimizer).__mro__:
        if c.__dict__.get(USER_MARK) and "step" in c.__dict__:
            own = c.__dict__["step"].__get__(optimizer, type(optimizer))

            def step(*args, **kwargs):
                optimizer.stepped = True
                return own(*args, **kwargs)

            d["step"] = step
            return


def _check_optimizer(optimizer):
    if not isinstance(optimizer, Optimizer):
        raise GradTypeError(f"{type(optimizer).__name__} is not an Optimizer")


class LRScheduler:
    """The base: `step()` counts an epoch and sets each group's lr to `get_lr()`."""

    language_callable = True
    language_subclassable = True
    #: its methods, called with numbers or nothing, run no code of the program (a
    #: replayed loop may run `sched.step()` as compiled); not so for the schedulers
    #: that call the program's functions (LambdaLR's, CyclicLR's scale_fn, those inside)
    replay_calls = True
    _is_initial = False
    _get_lr_called_within_step = False
    #: the instance variables state_dict() leaves out (besides `optimizer`)
    not_state = ()

    def __init__(self, optimizer, last_epoch=-1):
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        groups = optimizer.param_groups
        if last_epoch == -1:
            for group in groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(groups):
                if "initial_lr" not in group:
                    message = (
                        f"param 'initial_lr' is not specified in param_groups[{i}] when "
                        "resuming scheduler with last_epoch >= 0.\nThis typically happens "
                        "when:\n1. You're trying to resume training from a checkpoint but "
                        "haven't properly loaded the optimizer state\n2. You're using "
                        "last_epoch >= 0 for a fresh training run (not recommended)"
                    )  # (a KeyError shows the repr of its argument)
                    raise GradRuntimeError(repr(message), type_name="KeyError")
        self.base_lrs = _lrs(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        _watch_step(optimizer)
        self._initial_step()

    def _initial_step(self):
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def step(self, epoch=None):
        if self._step_count == 1 and not self.optimizer.stepped:
            context.warn(STEP_ORDER_WARNING)
        self._step_count += 1
        if epoch is not None:
            context.warn(EPOCH_DEPRECATION_WARNING)
        self._update_lr(epoch)

    def _update_lr(self, epoch=None):
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed = getattr(self, "closed_form_lr", None)
                values = closed() if closed is not None else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        self._set_lrs(values)

    def _set_lrs(self, values):
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = _lrs(self.optimizer)

    def get_lr(self):
        if not self._get_lr_called_within_step:
            context.warn(GET_LR_WARNING)
        return self.lrs()

    def lrs(self):
        raise NotImplementedError

    def get_last_lr(self):
        return self._last_lr

    def state_dict(self):
        skip = ("optimizer", *self.not_state)
        return {k: v for k, v in self.__dict__.items() if k not in skip}

    def load_state_dict(self, state_dict):
        if not isinstance(state_dict, dict):
            raise GradTypeError(f"'{type(state_dict).__name__}' object is not a mapping")
        self.__dict__.update(state_dict)

    def language_getattr(self, name):
        if name.startswith("__") or name not in self.__dict__:
            raise AttributeError(name)
        return self.__dict__[name]

    def language_setattr(self, name, value):
        self.__dict__[name] = value

    language_methods = {
        "step": lambda self, *a, **k: _library(self, "step")(self, *a, **k),
        "get_last_lr": lambda self: _library(self, "get_last_lr")(self),
        "get_lr": lambda self: _library(self, "get_lr")(self),
        "state_dict": lambda self: _library(self, "state_dict")(self),
        "load_state_dict": lambda self, sd: _library(self, "load_state_dict")(self, sd),
    }

    def __repr__(self):
        cls = type(self)
        if cls.__dict__.get(USER_MARK):  # a class of the program's
            return f"<{cls.__module__}.{cls.__qualname__} object>"
        return f"<torch.optim.lr_scheduler.{cls.__name__} object>"


class _LRScheduler(LRScheduler):
    """The base under its old name (torch keeps it for code written before 2.0)."""


class _Lambdas(LRScheduler):
    """LambdaLR and MultiplicativeLR: a function of the epoch per group."""

    not_state = ("lr_lambdas",)
    replay_calls = False

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        n = len(optimizer.param_groups)
        if isinstance(lr_lambda, (list, tuple)):
            if len(lr_lambda) != n:
                raise GradValueError(f"Expected {n} lr_lambdas, but got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        else:
            self.lr_lambdas = [lr_lambda] * n
        self.check_lambdas()
        LRScheduler.__init__(self, optimizer, last_epoch)

    def check_lambdas(self):
        pass

    def state_dict(self):
        sd = LRScheduler.state_dict(self)
        sd["lr_lambdas"] = [None] * len(self.lr_lambdas)
        return sd

    def load_state_dict(self, state_dict):
        state_dict = dict(state_dict)
        state_dict.pop("lr_lambdas", None)
        LRScheduler.load_state_dict(self, state_dict)


class LambdaLR(_Lambdas):
    """LambdaLR(optimizer, lr_lambda, last_epoch=-1): lr = base_lr * lr_lambda(epoch)."""

    def lrs(self):
        return [
            base_lr * fn(self.last_epoch) for fn, base_lr in zip(self.lr_lambdas, self.base_lrs)
        ]


class MultiplicativeLR(_Lambdas):
    """MultiplicativeLR(optimizer, lr_lambda, last_epoch=-1): each step multiplies the
    lr by lr_lambda(epoch)."""

    def check_lambdas(self):
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise GradTypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")

    def lrs(self):
        if self._is_initial:
            return _lrs(self.optimizer)
        groups = self.optimizer.param_groups
        return [group["lr"] * fn(self.last_epoch) for fn, group in zip(self.lr_lambdas, groups)]


class StepLR(LRScheduler):
    """StepLR(optimizer, step_size, gamma=0.1, last_epoch=-1): the lr times gamma every
    step_size epochs."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size = step_size
        self.gamma = gamma
        LRScheduler.__init__(self, optimizer, last_epoch)

    def lrs(self):
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return _lrs(self.optimizer)
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def closed_form_lr(self):
        return [
            base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs
        ]


class MultiStepLR(LRScheduler):
    """MultiStepLR(optimizer, milestones, gamma=0.1, last_epoch=-1): the lr times gamma at
    each milestone."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones = Counter(milestones)
        self.gamma = gamma
        LRScheduler.__init__(self, optimizer, last_epoch)

    def lrs(self):
        if self.last_epoch not in self.milestones:
            return _lrs(self.optimizer)
        times = self.milestones[self.last_epoch]
        return [group["lr"] * self.gamma**times for group in self.optimizer.param_groups]

    def closed_form_lr(self):
        milestones = sorted(self.milestones.elements())
        return [
            base_lr * self.gamma ** bisect_right(milestones, self.last_epoch)
            for base_lr in self.base_lrs
        ]


class ConstantLR(LRScheduler):
    """ConstantLR(optimizer, factor=1/3, total_iters=5, last_epoch=-1): the lr times
    factor until total_iters epochs."""

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise GradValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        LRScheduler.__init__(self, optimizer, last_epoch)

    def lrs(self):
        groups = self.optimizer.param_groups
        if self.last_epoch == 0:
            return [group["lr"] * self.factor for group in groups]
        if self.last_epoch != self.total_iters:
            return _lrs(self.optimizer)
        return [group["lr"] * (1.0 / self.factor) for group in groups]

    def closed_form_lr(self):
        reached = self.last_epoch >= self.total_iters
        return [base_lr * (self.factor + reached * (1 - self.factor)) for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    """LinearLR(optimizer, start_factor=1/3, end_factor=1.0, total_iters=5, last_epoch=-1):
    the lr's factor goes linearly from start_factor to end_factor in total_iters epochs."""

    def __init__(
        self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1
    ):
        if start_factor > 1.0 or start_factor <= 0:
            raise GradValueError(
                "Starting multiplicative factor expected to be greater than 0 and less or "
                "equal to 1."
            )
        if end_factor > 1.0 or end_factor < 0:
            raise GradValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        LRScheduler.__init__(self, optimizer, last_epoch)

    def lrs(self):
        groups = self.optimizer.param_groups
        if self.last_epoch == 0:
            return [group["lr"] * self.start_factor for group in groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return _lrs(self.optimizer)
        span = self.end_factor - self.start_factor
        factor = 1.0 + span / (self.total_iters * self.start_factor + (self.last_epoch - 1) * span)
        return [group["lr"] * factor for group in groups]

    def closed_form_lr(self):
        span = self.end_factor - self.start_factor
        done = min(self.total_iters, self.last_epoch)
        return [
            base_lr * (self.start_factor + span * done / self.total_iters)
            for base_lr in self.base_lrs
        ]


class ExponentialLR(LRScheduler):
    """ExponentialLR(optimizer, gamma, last_epoch=-1): the lr times gamma every epoch."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        LRScheduler.__init__(self, optimizer, last_epoch)

    def lrs(self):
        if self._is_initial:
            return _lrs(self.optimizer)
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def closed_form_lr(self):
        return [base_lr * self.gamma**self.last_epoch for base_lr in self.base_lrs]


class PolynomialLR(LRScheduler):
    """PolynomialLR(optimizer, total_iters=5, power=1.0, last_epoch=-1): the lr decays as
    (1 - epoch/total_iters)**power."""

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1):
        self.total_iters = total_iters
        self.power = power
        LRScheduler.__init__(self, optimizer, last_epoch)

    def lrs(self):
        if self._is_initial or self.last_epoch > self.total_iters:
            return _lrs(self.optimizer)
        n, e = self.total_iters, self.last_epoch
        decay = ((1.0 - e / n) / (1.0 - (e - 1) / n)) ** self.power
        return [group["lr"] * decay for group in self.optimizer.param_groups]

    def closed_form_lr(self):
        n = self.total_iters
        return [
            base_lr * (1.0 - min(n, self.last_epoch) / n) ** self.power for base_lr in self.base_lrs
        ]


class CosineAnnealingLR(LRScheduler):
    """CosineAnnealingLR(optimizer, T_max, eta_min=0.0, last_epoch=-1): the lr follows a
    cosine from base_lr down to eta_min in T_max epochs (and back up after)."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        self.T_max = T_max
        self.eta_min = eta_min
        LRScheduler.__init__(self, optimizer, last_epoch)

    def lrs(self):
        groups, eta, t = self.optimizer.param_groups, self.eta_min, self.T_max
        e = self.last_epoch
        if self._is_initial:
            return _lrs(self.optimizer)
        if self._step_count == 1 and e > 0:
            return [eta + (b - eta) * (1 + math.cos(e * math.pi / t)) / 2 for b in self.base_lrs]
        if (e - 1 - t) % (2 * t) == 0:
            return [
                group["lr"] + (b - eta) * (1 - math.cos(math.pi / t)) / 2
                for b, group in zip(self.base_lrs, groups)
            ]
        ratio = (1 + math.cos(math.pi * e / t)) / (1 + math.cos(math.pi * (e - 1) / t))
        return [ratio * (group["lr"] - eta) + eta for group in groups]

    def closed_form_lr(self):
        eta, cos = self.eta_min, math.cos(math.pi * self.last_epoch / self.T_max)
        return [eta + (b - eta) * (1 + cos) / 2 for b in self.base_lrs]


class _Composite(LRScheduler):
    """SequentialLR and ChainedScheduler: schedulers inside, saved with their states."""

    not_state = ("_schedulers",)
    replay_calls = False

    def state_dict(self):
        sd = LRScheduler.state_dict(self)
        sd["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return sd

    def load_state_dict(self, state_dict):
        state_dict = dict(state_dict)
        inner = state_dict.pop("_schedulers")
        LRScheduler.load_state_dict(self, state_dict)
        for s, sd in zip(self._schedulers, inner):
            s.load_state_dict(sd)


class SequentialLR(_Composite):
    """SequentialLR(optimizer, schedulers, milestones, last_epoch=-1): one scheduler after
    another, each from its milestone on."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        name = type(self).__name__
        schedulers = list(schedulers)
        if len(schedulers) < 1:
            raise GradValueError(f"{name} expects at least one scheduler, but got no scheduler.")
        _check_members(name, optimizer, schedulers)
        milestones = list(milestones)
        if len(milestones) != len(schedulers) - 1:
            raise GradValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more "
                "than the number of milestone points, but got number of schedulers "
                f"{len(schedulers)} and the number of milestones to be equal to {len(milestones)}"
            )
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:
            group["lr"] = group["initial_lr"]
        self._undo(self)
        idx = bisect_right(self._milestones, 0)
        self._schedulers[idx]._initial_step()
        self._last_lr = schedulers[idx].get_last_lr()

    def _undo(self, sched):
        """Take back the initial step of every scheduler inside (recursively)."""
        inner = sched.__dict__.get("_schedulers")
        if inner is not None:
            for s in inner:
                self._undo(s)
        elif "last_epoch" in sched.__dict__:
            sched.last_epoch -= 1

    def step(self):
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


def _check_members(name, optimizer, schedulers):
    for i, s in enumerate(schedulers):
        if not isinstance(s, LRScheduler) or "optimizer" not in s.__dict__:
            raise GradTypeError(f"{name} at index {i} should have `optimizer` as its attribute.")
        if getattr(s, "needs_metrics", False):
            raise GradValueError(
                f"{name} does not support `ReduceLROnPlateau` scheduler as it requires "
                "additional kwargs to be specified when calling `step`, but got one at index "
                f"{i} in the given schedulers sequence."
            )
        if optimizer is not s.optimizer:
            raise GradValueError(
                f"{name} expects all schedulers to belong to the same optimizer, but got "
                f"scheduler {type(s).__name__} at index {i} has {s.optimizer!r}, which is "
                f"different from {type(optimizer).__name__}."
            )


class ChainedScheduler(_Composite):
    """ChainedScheduler(schedulers, optimizer=None): every step steps each scheduler in
    turn (their factors multiply)."""

    def __init__(self, schedulers, optimizer=None):
        name = type(self).__name__
        schedulers = list(schedulers)
        if len(schedulers) < 1:
            raise GradValueError(
                f"{name} expects at least one scheduler to be chained, but got no scheduler."
            )
        optimizer = optimizer or schedulers[0].optimizer
        _check_members(name, optimizer, schedulers)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = _lrs(schedulers[-1].optimizer)

    def step(self):
        for s in self._schedulers:
            s.step()
        self._last_lr = _lrs(self._schedulers[-1].optimizer)


SCHEDULERS = {
    cls.__name__: cls
    for cls in (
        LRScheduler,
        _LRScheduler,
        LambdaLR,
        MultiplicativeLR,
        StepLR,
        MultiStepLR,
        ConstantLR,
        LinearLR,
        ExponentialLR,
        SequentialLR,
        PolynomialLR,
        CosineAnnealingLR,
        ChainedScheduler,
    )
}
