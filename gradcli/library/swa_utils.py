"""torch.optim.swa_utils: weight averaging of a model as PyTorch's, op for op.

`AveragedModel(model)` keeps a deep copy of the model and an `n_averaged` counter
(a long buffer); `update_parameters(model)` copies the model's parameters the first time,
then moves each averaged one towards the model's by `lerp_` (PyTorch's foreach lerp on
CPU: the same kernel per tensor) with weight 1 / (n + 1) (stochastic weight averaging; that
number as the default dtype computes it) or 1 - decay (`get_ema_multi_avg_fn`), or by a
per-tensor `avg_fn` of the program's; the buffers follow the model's unless `use_buffers`.
`SWALR` anneals each group's lr to its `swa_lr` over `anneal_epochs` (cos or linear)."""

from __future__ import annotations

import math

import numpy as np

from ..core.tensor import Tensor
from ..ops.registry import FUNCTIONS
from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradValueError
from .autograd_api import NO_GRAD
from .lr_scheduler import LRScheduler, _per_group
from .nn.module import Module
from .stdlib import _deepcopy


def _lerp_all(averaged, current, weight):
    with NO_GRAD:
        for a, c in zip(averaged, current):
            FUNCTIONS["lerp_"](a, c, weight)


def get_ema_multi_avg_fn(decay=0.999):
    if decay < 0.0 or decay > 1.0:
        raise GradValueError(
            f"Invalid decay value {decay} provided. Please provide a value in [0,1] range."
        )

    def ema_update(ema_param_list, current_param_list, _):
        _lerp_all(ema_param_list, current_param_list, 1 - decay)

    return ema_update


def _swa_weight(num_averaged):
    """1 / (n + 1) as PyTorch's swa_update passes it: a tensor n's division in the
    default dtype, read back as a number."""
    if isinstance(num_averaged, Tensor):
        dt = context.current.default_float.type
        return float(dt(1) / dt(int(num_averaged.data) + 1))
    return 1 / (num_averaged + 1)


def get_swa_multi_avg_fn():
    def swa_update(averaged_param_list, current_param_list, num_averaged):
        _lerp_all(averaged_param_list, current_param_list, _swa_weight(num_averaged))

    return swa_update


def get_ema_avg_fn(decay=0.999):
    if decay < 0.0 or decay > 1.0:
        raise GradValueError(
            f"Invalid decay value {decay} provided. Please provide a value in [0,1] range."
        )

    def ema_update(ema_param, current_param, num_averaged):
        with NO_GRAD:
            return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn():
    def swa_update(averaged_param, current_param, num_averaged):
        with NO_GRAD:
            return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


class AveragedModel(Module):
    """AveragedModel(model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False)."""

    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False):
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise GradRuntimeError(
                "Only one of avg_fn and multi_avg_fn should be provided",
                type_name="AssertionError",
            )
        self.module = _deepcopy(model)
        self.register_buffer("n_averaged", Tensor(np.array(0, dtype=np.int64)))
        self.avg_fn, self.multi_avg_fn, self.use_buffers = avg_fn, multi_avg_fn, use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def update_parameters(self, model):
        if self.use_buffers:
            mine = [*self.module.parameters(), *self.module.buffers()]
            theirs = [*model.parameters(), *model.buffers()]
        else:
            mine, theirs = list(self.parameters()), list(model.parameters())
        mine, theirs = mine[: len(theirs)], theirs[: len(mine)]
        detached = [FUNCTIONS["detach"](p) for p in theirs]
        averaged = [FUNCTIONS["detach"](p) for p in mine]
        n = int(self.n_averaged.data)
        if n == 0:
            with NO_GRAD:
                for a, p in zip(averaged, detached):
                    FUNCTIONS["copy_"](a, p)
        else:
            if self.avg_fn is None:
                fn = self.multi_avg_fn or get_swa_multi_avg_fn()
                groups: dict = {}  # (PyTorch's grouping of the tensors by dtype)
                for a, p in zip(averaged, detached):
                    mine_theirs = groups.setdefault(a.data.dtype, ([], []))
                    mine_theirs[0].append(a)
                    mine_theirs[1].append(p)
                for a_list, p_list in groups.values():
                    fn(a_list, p_list, self.n_averaged)
            else:
                with NO_GRAD:
                    for a, p in zip(averaged, detached):
                        FUNCTIONS["copy_"](a, self.avg_fn(a, p, self.n_averaged))
        if not self.use_buffers:
            with NO_GRAD:
                for b_mine, b_model in zip(self.module.buffers(), model.buffers()):
                    FUNCTIONS["copy_"](FUNCTIONS["detach"](b_mine), FUNCTIONS["detach"](b_model))
        with NO_GRAD:
            FUNCTIONS["add_"](self.n_averaged, 1)


AveragedModel.language_methods = dict(
    Module.language_methods, update_parameters=AveragedModel.update_parameters
)


class SWALR(LRScheduler):
    """SWALR(optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos", last_epoch=-1)."""

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos", last_epoch=-1):
        for lr, group in zip(_per_group("swa_lr", optimizer, swa_lr), optimizer.param_groups):
            group["swa_lr"] = lr
        if anneal_strategy not in ("cos", "linear"):
            raise GradValueError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        self.anneal_strategy = anneal_strategy
        if (
            isinstance(anneal_epochs, bool)
            or not isinstance(anneal_epochs, int)
            or anneal_epochs < 0
        ):
            raise GradValueError(
                f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}"
            )
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    def _anneal(self, t):
        return (1 - math.cos(math.pi * t)) / 2 if self.anneal_strategy == "cos" else t

    def lrs(self):
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_alpha = self._anneal(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        prev = [
            group["swa_lr"]
            if prev_alpha == 1
            else (group["lr"] - prev_alpha * group["swa_lr"]) / (1 - prev_alpha)
            for group in self.optimizer.param_groups
        ]
        alpha = self._anneal(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [
            group["swa_lr"] * alpha + lr * (1 - alpha)
            for group, lr in zip(self.optimizer.param_groups, prev)
        ]


MEMBERS = {
    "AveragedModel": AveragedModel,
    "SWALR": SWALR,
    "get_ema_multi_avg_fn": get_ema_multi_avg_fn,
    "get_swa_multi_avg_fn": get_swa_multi_avg_fn,
    "get_ema_avg_fn": get_ema_avg_fn,
    "get_swa_avg_fn": get_swa_avg_fn,
}
