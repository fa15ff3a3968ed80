"""torch.optim's RMSprop, Adagrad and AdamW, and lr_scheduler.StepLR, updating as
PyTorch's single-tensor CPU implementations do (the arithmetic conventions of
optim.py: `addcmul_` a fused multiply-add, `addcdiv_` as `p + (value * a) / b`)."""
from __future__ import annotations

import numpy as np

from ..base.errors import GradRuntimeError, GradTypeError, GradValueError
from ..base.fma import fma
from ..ops.registry import register
from .optim import Adam, Optimizer


def _check(name, value, low=0.0):
    if not low <= value:
        raise GradValueError(f"Invalid {name}: {value}")


class RMSprop(Optimizer):
    __slots__ = ()
    name = "RMSprop"

    def update(self, i, p, g):
        o = self.group
        alpha, eps, lr, m = o["alpha"], o["eps"], o["lr"], o["momentum"]
        if o["maximize"]:
            g = -g
        if o["weight_decay"]:
            g = fma(o["weight_decay"], p, g)
        st = self.state[i]
        if st is None:
            st = self.state[i] = [np.zeros_like(p), np.zeros_like(p), np.zeros_like(p)]
        sq = fma((1 - alpha) * g, g, st[0] * alpha)      # mul_(alpha).addcmul_(g, g, 1-alpha)
        st[0] = sq
        if o["centered"]:
            w = 1 - alpha                                 # grad_avg.lerp_(g, 1-alpha)
            ga = st[2]
            ga = fma(w, g - ga, ga) if w < 0.5 else fma(-(g - ga), 1 - w, g)
            st[2] = ga
            avg = np.sqrt(fma(-ga, ga, sq))               # addcmul(ga, ga, value=-1).sqrt_()
        else:
            avg = np.sqrt(sq)
        avg = avg + eps
        if m > 0:
            buf = st[1] * m + g / avg                     # mul_(m).addcdiv_(g, avg)
            st[1] = buf
            return fma(-lr, buf, p)                       # add_(buf, alpha=-lr)
        return p + (-lr * g) / avg                        # addcdiv_(g, avg, value=-lr)


class Adagrad(Optimizer):
    __slots__ = ()
    name = "Adagrad"

    def update(self, i, p, g):
        o = self.group
        st = self.state[i]
        if st is None:
            st = self.state[i] = [0.0, np.full_like(p, o["initial_accumulator_value"])]
        st[0] += 1
        if o["maximize"]:
            g = -g
        if o["weight_decay"]:
            g = fma(o["weight_decay"], p, g)
        clr = o["lr"] / (1 + (st[0] - 1) * o["lr_decay"])
        st[1] = fma(g, g, st[1])                          # addcmul_(g, g, value=1)
        std = np.sqrt(st[1]) + o["eps"]
        return p + (-clr * g) / std                       # addcdiv_(g, std, value=-clr)


class AdamW(Adam):
    __slots__ = ()
    name = "AdamW"


@register("RMSprop", "RMSprop(params, lr=0.01, alpha=0.99, eps=1e-08, weight_decay=0, momentum=0, "
          "centered=False)", "torch.optim.RMSprop: .step() divides each .grad by a running RMS",
          category="optim")
def rmsprop(params, lr=0.01, alpha=0.99, eps=1e-08, weight_decay=0, momentum=0, centered=False,
            capturable=False, foreach=None, maximize=False, differentiable=False):
    _check("learning rate", lr)
    _check("epsilon value", eps)
    _check("momentum value", momentum)
    _check("weight_decay value", weight_decay)
    _check("alpha value", alpha)
    return RMSprop(params, {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps,
                            "centered": centered, "weight_decay": weight_decay,
                            "capturable": capturable, "foreach": foreach, "maximize": maximize,
                            "differentiable": differentiable})


@register("Adagrad", "Adagrad(params, lr=0.01, lr_decay=0, weight_decay=0, "
          "initial_accumulator_value=0, eps=1e-10)",
          "torch.optim.Adagrad: .step() divides each .grad by the root of its summed squares",
          category="optim")
def adagrad(params, lr=0.01, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
            foreach=None, *, maximize=False, differentiable=False, fused=None):
    _check("learning rate", lr)
    _check("lr_decay value", lr_decay)
    _check("weight_decay value", weight_decay)
    _check("initial_accumulator_value value", initial_accumulator_value)
    _check("epsilon value", eps)
    return Adagrad(params, {"lr": lr, "lr_decay": lr_decay, "eps": eps,
                            "weight_decay": weight_decay,
                            "initial_accumulator_value": initial_accumulator_value,
                            "foreach": foreach, "maximize": maximize,
                            "differentiable": differentiable, "fused": fused})


@register("AdamW", "AdamW(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01)",
          "torch.optim.AdamW: Adam with decoupled weight decay", category="optim")
def adamw(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01, amsgrad=False, *,
          maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
    if amsgrad:
        raise GradValueError("AdamW: amsgrad is not supported by gradcli")
    betas = tuple(betas)
    for k, b in enumerate(betas):
        if not 0.0 <= b < 1.0:
            raise GradValueError(f"Invalid beta parameter at index {k}: {b}")
    _check("learning rate", lr)
    _check("epsilon value", eps)
    _check("weight_decay value", weight_decay)
    return AdamW(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                          "amsgrad": amsgrad, "foreach": foreach, "maximize": maximize,
                          "capturable": capturable, "differentiable": differentiable,
                          "fused": fused, "decoupled_weight_decay": True})


class StepLR:
    """lr_scheduler.StepLR(optimizer, step_size, gamma=0.1): every step_size calls of
    .step(), each group's lr is multiplied by gamma."""
    __slots__ = ("optimizer", "step_size", "gamma", "last_epoch", "base_lrs", "last_lr")
    language_callable = True

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise GradTypeError(f"{type(optimizer).__name__} is not an Optimizer")
        if isinstance(step_size, bool) or not isinstance(step_size, int):
            raise GradTypeError(f"step_size must be an int, got {type(step_size).__name__}")
        self.optimizer, self.step_size, self.gamma = optimizer, step_size, gamma
        group = optimizer.group
        if last_epoch == -1:
            group.setdefault("initial_lr", group["lr"])
        elif "initial_lr" not in group:
            raise GradRuntimeError("param 'initial_lr' is not specified in param_groups[0] when "
                                   "resuming an optimizer", type_name="KeyError")
        self.base_lrs = [group["initial_lr"]]
        self.last_epoch = last_epoch
        self.step()

    def step(self, epoch=None):
        self.last_epoch += 1
        group = self.optimizer.group
        if self.last_epoch != 0 and self.last_epoch % self.step_size == 0:
            group["lr"] = group["lr"] * self.gamma
        self.last_lr = [group["lr"]]

    def get_last_lr(self):
        return list(self.last_lr)

    language_methods = {"step": step, "get_last_lr": get_last_lr}
    language_attrs = {"last_epoch": lambda s: s.last_epoch, "base_lrs": lambda s: list(s.base_lrs),
                      "optimizer": lambda s: s.optimizer}

    def __repr__(self):
        return "<torch.optim.lr_scheduler.StepLR object>"


SCHEDULERS = {"StepLR": StepLR}
