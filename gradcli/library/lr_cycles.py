"""torch.optim.lr_scheduler's schedules that set more than a factor of the lr:
ReduceLROnPlateau (steps on a metric), CyclicLR, CosineAnnealingWarmRestarts and
OneCycleLR (their own lr formulas, and the momentum cycled with it), on the base of
lr_scheduler.py, in torch's order of float operations."""

from __future__ import annotations

import math

from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradValueError
from .lr_scheduler import (
    EPOCH_DEPRECATION_WARNING,
    LRScheduler,
    _check_optimizer,
    _lrs,
    _per_group,
)
from .python import float_


class ReduceLROnPlateau(LRScheduler):
    """ReduceLROnPlateau(optimizer, mode='min', factor=0.1, patience=10, threshold=1e-4,
    threshold_mode='rel', cooldown=0, min_lr=0, eps=1e-8): `step(metric)` multiplies the
    lr by factor once the metric has not improved for more than patience epochs."""

    needs_metrics = True

    def __init__(
        self,
        optimizer,
        mode="min",
        factor=0.1,
        patience=10,
        threshold=1e-4,
        threshold_mode="rel",
        cooldown=0,
        min_lr=0,
        eps=1e-8,
    ):
        if factor >= 1.0:
            raise GradValueError("Factor should be < 1.0.")
        self.factor = factor
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        n = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != n:
                raise GradValueError(f"expected {n} min_lrs, got {len(min_lr)}")
            self.default_min_lr = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * n
        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = _lrs(optimizer)
        self._init_is_better(mode, threshold, threshold_mode)
        self._reset()

    def _init_is_better(self, mode, threshold, threshold_mode):
        if mode not in ("min", "max"):
            raise GradValueError(f"mode {mode} is unknown!")
        if threshold_mode not in ("rel", "abs"):
            raise GradValueError(f"threshold mode {threshold_mode} is unknown!")
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    def _reset(self):
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def is_better(self, a, best):
        rel = self.threshold_mode == "rel"
        if self.mode == "min":
            return a < best * (1.0 - self.threshold) if rel else a < best - self.threshold
        return a > best * (self.threshold + 1.0) if rel else a > best + self.threshold

    def step(self, metrics, epoch=None):
        current = float_(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            context.warn(EPOCH_DEPRECATION_WARNING)
        self.last_epoch = epoch
        if self.is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            self._reduce_lr()
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = _lrs(self.optimizer)

    def _reduce_lr(self):
        groups = self.optimizer.param_groups
        if len(groups) != len(self.min_lrs):
            if self.default_min_lr is None:
                raise GradRuntimeError(
                    f"The number of param groups in the `optimizer` ({len(groups)}) differs "
                    f"from when `ReduceLROnPlateau` was initialized ({len(self.min_lrs)}), "
                    "usually due to a new param group being added to the optimizer. Please "
                    "modify the `min_lrs` field to match the length of the `optimizer` param "
                    "groups."
                )
            self.min_lrs = [self.default_min_lr] * len(groups)
        for i, group in enumerate(groups):
            old_lr = float_(group["lr"])
            new_lr = max(old_lr * self.factor, self.min_lrs[i])
            if old_lr - new_lr > self.eps:
                group["lr"] = new_lr

    def load_state_dict(self, state_dict):
        LRScheduler.load_state_dict(self, state_dict)
        self._init_is_better(self.mode, self.threshold, self.threshold_mode)

    language_methods = {
        **LRScheduler.language_methods,
        "step": lambda self, metrics, epoch=None: ReduceLROnPlateau.step(self, metrics, epoch),
    }
    language_attrs = {"in_cooldown": lambda s: s.cooldown_counter > 0}


def _momentum_groups(sched, optimizer, base_momentum, max_momentum, fresh):
    """CyclicLR's and OneCycleLR's momentum options: each group starts at max_momentum
    (in `momentum`, or `betas[0]` for the Adam family) and keeps both bounds."""
    if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
        raise GradValueError(
            "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"
        )
    sched.use_beta1 = "betas" in optimizer.defaults
    bases = _per_group("base_momentum", optimizer, base_momentum)
    maxes = _per_group("max_momentum", optimizer, max_momentum)
    if fresh:
        for m, b, group in zip(maxes, bases, optimizer.param_groups):
            _set_momentum(sched, group, m)
            group["max_momentum"] = m
            group["base_momentum"] = b
    return bases, maxes


def _set_momentum(sched, group, m):
    if sched.use_beta1:
        group["betas"] = (m, *group["betas"][1:])
    else:
        group["momentum"] = m


class CyclicLR(LRScheduler):
    """CyclicLR(optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None,
    mode='triangular', gamma=1.0, scale_fn=None, scale_mode='cycle', cycle_momentum=True,
    base_momentum=0.8, max_momentum=0.9, last_epoch=-1): the lr cycles between base_lr
    and max_lr (and the momentum the other way)."""

    not_state = ("_scale_fn_custom",)
    replay_calls = False  # (scale_fn may be the program's)

    def __init__(
        self,
        optimizer,
        base_lr,
        max_lr,
        step_size_up=2000,
        step_size_down=None,
        mode="triangular",
        gamma=1.0,
        scale_fn=None,
        scale_mode="cycle",
        cycle_momentum=True,
        base_momentum=0.8,
        max_momentum=0.9,
        last_epoch=-1,
    ):
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        base_lrs = _per_group("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                group["lr"] = lr
        self.max_lrs = _per_group("max_lr", optimizer, max_lr)
        up = float_(step_size_up)
        down = float_(step_size_down) if step_size_down is not None else up
        self.total_size = up + down
        self.step_ratio = up / self.total_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise GradValueError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self.base_momentums, self.max_momentums = _momentum_groups(
                self, optimizer, base_momentum, max_momentum, last_epoch == -1
            )
        LRScheduler.__init__(self, optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self):
        if self._scale_fn_custom is None:
            self.scale_mode = "iterations" if self.mode == "exp_range" else "cycle"

    def scale_fn(self, x):
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular":
            return 1.0
        if self.mode == "triangular2":
            return 1 / (2.0 ** (x - 1))
        return self.gamma**x

    def lrs(self):
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        at = cycle if self.scale_mode == "cycle" else self.last_epoch
        lrs = []
        for base_lr, max_lr in zip(self.base_lrs, self.max_lrs):
            lrs.append(base_lr + (max_lr - base_lr) * scale_factor * self.scale_fn(at))
        if self.cycle_momentum:
            momentums = []
            for base_m, max_m in zip(self.base_momentums, self.max_momentums):
                momentums.append(max_m - (max_m - base_m) * scale_factor * self.scale_fn(at))
            for group, m in zip(self.optimizer.param_groups, momentums):
                _set_momentum(self, group, m)
        return lrs

    def state_dict(self):
        sd = LRScheduler.state_dict(self)
        sd["_scale_fn_custom"] = None
        return sd

    def load_state_dict(self, state_dict):
        state_dict = dict(state_dict)
        state_dict.pop("_scale_fn_custom", None)
        LRScheduler.load_state_dict(self, state_dict)
        self._init_scale_fn()

    language_methods = {**LRScheduler.language_methods, "scale_fn": scale_fn}


class CosineAnnealingWarmRestarts(LRScheduler):
    """CosineAnnealingWarmRestarts(optimizer, T_0, T_mult=1, eta_min=0.0, last_epoch=-1):
    cosine annealing from base_lr to eta_min, restarted after T_0 epochs, then T_0*T_mult
    ..."""

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0.0, last_epoch=-1):
        if not _is_int(T_0) or T_0 <= 0:
            raise GradValueError(f"Expected positive integer T_0, but got {T_0}")
        if not _is_int(T_mult) or T_mult < 1:
            raise GradValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise GradValueError(
                f"Expected float or int eta_min, but got {eta_min} of type {type(eta_min)}"
            )
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        LRScheduler.__init__(self, optimizer, last_epoch)

    def lrs(self):
        eta, cos = self.eta_min, math.cos(math.pi * self.T_cur / self.T_i)
        return [eta + (b - eta) * (1 + cos) / 2 for b in self.base_lrs]

    def step(self, epoch=None):
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        elif epoch < 0:
            raise GradValueError(f"Expected non-negative epoch, but got {epoch}")
        elif epoch >= self.T_0:
            t0, k = self.T_0, self.T_mult
            if k == 1:
                self.T_cur = epoch % t0
            else:
                n = int(math.log((epoch / t0 * (k - 1) + 1), k))
                self.T_cur = epoch - t0 * (k**n - 1) / (k - 1)
                self.T_i = t0 * k ** (n)
        else:
            self.T_i = self.T_0
            self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            values = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        self._set_lrs(values)


def _is_int(v):
    return isinstance(v, int)


class OneCycleLR(LRScheduler):
    """OneCycleLR(optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None,
    pct_start=0.3, anneal_strategy='cos', cycle_momentum=True, base_momentum=0.85,
    max_momentum=0.95, div_factor=25.0, final_div_factor=1e4, three_phase=False,
    last_epoch=-1): the 1cycle policy, up from max_lr/div_factor to max_lr and down."""

    def __init__(
        self,
        optimizer,
        max_lr,
        total_steps=None,
        epochs=None,
        steps_per_epoch=None,
        pct_start=0.3,
        anneal_strategy="cos",
        cycle_momentum=True,
        base_momentum=0.85,
        max_momentum=0.95,
        div_factor=25.0,
        final_div_factor=1e4,
        three_phase=False,
        last_epoch=-1,
    ):
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        if total_steps is not None:
            if not _is_int(total_steps) or total_steps <= 0:
                raise GradValueError(
                    f"Expected positive integer total_steps, but got {total_steps}"
                )
            self.total_steps = total_steps
        elif epochs is not None and steps_per_epoch is not None:
            if not _is_int(epochs) or epochs <= 0:
                raise GradValueError(f"Expected positive integer epochs, but got {epochs}")
            if not _is_int(steps_per_epoch) or steps_per_epoch <= 0:
                raise GradValueError(
                    f"Expected positive integer steps_per_epoch, but got {steps_per_epoch}"
                )
            self.total_steps = epochs * steps_per_epoch
        else:
            raise GradValueError(
                "You must define either total_steps OR (epochs AND steps_per_epoch)"
            )
        up = float_(pct_start * self.total_steps) - 1
        if three_phase:
            self._schedule_phases = [
                _phase(up, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                _phase(
                    float_(2 * pct_start * self.total_steps) - 2,
                    "max_lr",
                    "initial_lr",
                    "base_momentum",
                    "max_momentum",
                ),
                _phase(
                    self.total_steps - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum"
                ),
            ]
        else:
            self._schedule_phases = [
                _phase(up, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                _phase(self.total_steps - 1, "max_lr", "min_lr", "base_momentum", "max_momentum"),
            ]
        if not isinstance(pct_start, float) or pct_start < 0 or pct_start > 1:
            raise GradValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ("cos", "linear"):
            raise GradValueError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        self._anneal_func_type = anneal_strategy
        max_lrs = _per_group("max_lr", optimizer, max_lr)
        if last_epoch == -1:
            for idx, group in enumerate(optimizer.param_groups):
                group["initial_lr"] = max_lrs[idx] / div_factor
                group["max_lr"] = max_lrs[idx]
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            _momentum_groups(self, optimizer, base_momentum, max_momentum, last_epoch == -1)
        LRScheduler.__init__(self, optimizer, last_epoch)

    def anneal(self, start, end, pct):
        if self._anneal_func_type == "cos":
            cos_out = math.cos(math.pi * pct) + 1
            return end + (start - end) / 2.0 * cos_out
        return (end - start) * pct + start

    def lrs(self):
        step_num = self.last_epoch
        if step_num > self.total_steps:
            raise GradValueError(
                f"Tried to step {step_num} times. The specified number of total steps is "
                f"{self.total_steps}"
            )
        lrs = []
        phases = self._schedule_phases
        for group in self.optimizer.param_groups:
            start_step = 0.0
            for i, phase in enumerate(phases):
                end_step = phase["end_step"]
                if step_num <= end_step or i == len(phases) - 1:
                    pct = (step_num - start_step) / (end_step - start_step)
                    lr = self.anneal(group[phase["start_lr"]], group[phase["end_lr"]], pct)
                    if self.cycle_momentum:
                        m = self.anneal(
                            group[phase["start_momentum"]], group[phase["end_momentum"]], pct
                        )
                    break
                start_step = phase["end_step"]
            lrs.append(lr)
            if self.cycle_momentum:
                _set_momentum(self, group, m)
        return lrs


def _phase(end_step, start_lr, end_lr, start_momentum, end_momentum):
    return {
        "end_step": end_step,
        "start_lr": start_lr,
        "end_lr": end_lr,
        "start_momentum": start_momentum,
        "end_momentum": end_momentum,
    }


SCHEDULERS = {
    cls.__name__: cls
    for cls in (ReduceLROnPlateau, CyclicLR, CosineAnnealingWarmRestarts, OneCycleLR)
}
