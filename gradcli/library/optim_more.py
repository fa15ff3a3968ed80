"""torch.optim's RMSprop, Adadelta, Adagrad and AdamW, and lr_scheduler.StepLR, updating as
PyTorch's single-tensor CPU implementations do (the arithmetic conventions of
optim.py: scalars rounded to the parameter's dtype, `addcmul_` a fused multiply-add,
`addcdiv_` as `p + (value * a) / b`)."""

from __future__ import annotations

import numpy as np

from ..engine.declare import none
from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradTypeError, GradValueError
from ..ops.registry import register
from .optim import Adam, Optimizer, _betas, fmadd, lerp, sqrt


def _check(name, value, low=0.0):
    if not low <= value:
        raise GradValueError(f"Invalid {name}: {value}")


class RMSprop(Optimizer):
    __slots__ = ()
    name = "RMSprop"

    def update(self, st, p, g, o, dt):
        alpha, m = o["alpha"], o["momentum"]
        if o["maximize"]:
            g = -g
        if not st:
            st.update(step=0.0, square_avg=np.zeros_like(p))
            if m > 0:
                st["momentum_buffer"] = np.zeros_like(p)
            if o["centered"]:
                st["grad_avg"] = np.zeros_like(p)
        st["step"] += 1
        if o["weight_decay"]:
            g = fmadd(dt(o["weight_decay"]), p, g, dt)
        # square_avg.mul_(alpha).addcmul_(g, g, value=1 - alpha)
        sq = st["square_avg"] = fmadd(dt(1 - alpha) * g, g, st["square_avg"] * dt(alpha), dt)
        if o["centered"]:
            ga = st["grad_avg"] = lerp(st["grad_avg"], g, 1 - alpha, dt)
            avg = sqrt(fmadd(-ga, ga, sq, dt))  # addcmul(ga, ga, value=-1).sqrt_()
        else:
            avg = sqrt(sq)
        avg = avg + dt(o["eps"])
        if m > 0:  # mul_(m).addcdiv_(g, avg)
            buf = st["momentum_buffer"] = st["momentum_buffer"] * dt(m) + g / avg
            return fmadd(dt(-o["lr"]), buf, p, dt)  # add_(buf, alpha=-lr)
        return p + (dt(-o["lr"]) * g) / avg  # addcdiv_(g, avg, value=-lr)


class Adagrad(Optimizer):
    __slots__ = ()
    name = "Adagrad"

    def update(self, st, p, g, o, dt):
        if not st:
            st.update(step=0.0, sum=np.full_like(p, o["initial_accumulator_value"]))
        st["step"] += 1
        if o["maximize"]:
            g = -g
        if o["weight_decay"]:
            g = fmadd(dt(o["weight_decay"]), p, g, dt)
        clr = o["lr"] / (1 + (st["step"] - 1) * o["lr_decay"])
        st["sum"] = fmadd(g, g, st["sum"], dt)  # addcmul_(g, g, value=1)
        std = sqrt(st["sum"]) + dt(o["eps"])
        return p + (dt(-clr) * g) / std  # addcdiv_(g, std, value=-clr)


class Adadelta(Optimizer):
    __slots__ = ()
    name = "Adadelta"

    def update(self, st, p, g, o, dt):
        rho = o["rho"]
        if o["maximize"]:
            g = -g
        if not st:
            st.update(step=0.0, square_avg=np.zeros_like(p), acc_delta=np.zeros_like(p))
        st["step"] += 1
        if o["weight_decay"]:
            g = fmadd(dt(o["weight_decay"]), p, g, dt)
        # square_avg.mul_(rho).addcmul_(g, g, value=1 - rho)
        sq = st["square_avg"] = fmadd(dt(1 - rho) * g, g, st["square_avg"] * dt(rho), dt)
        std = sqrt(sq + dt(o["eps"]))  # square_avg.add(eps).sqrt_()
        delta = sqrt(st["acc_delta"] + dt(o["eps"])) / std * g  # .div_(std).mul_(g)
        # acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        st["acc_delta"] = fmadd(dt(1 - rho) * delta, delta, st["acc_delta"] * dt(rho), dt)
        return fmadd(dt(-o["lr"]), delta, p, dt)  # p.add_(delta, alpha=-lr)


class AdamW(Adam):
    __slots__ = ()
    name = "AdamW"


@register(
    "RMSprop",
    "RMSprop(params, lr=0.01, alpha=0.99, eps=1e-08, weight_decay=0, momentum=0, centered=False)",
    "torch.optim.RMSprop: .step() divides each .grad by a running RMS",
    category="optim",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a tensor op"),
    parser=None,
)
def rmsprop(
    params,
    lr=0.01,
    alpha=0.99,
    eps=1e-08,
    weight_decay=0,
    momentum=0,
    centered=False,
    capturable=False,
    foreach=None,
    maximize=False,
    differentiable=False,
):
    _check("learning rate", lr)
    _check("epsilon value", eps)
    _check("momentum value", momentum)
    _check("weight_decay value", weight_decay)
    _check("alpha value", alpha)
    return RMSprop(
        params,
        {
            "lr": lr,
            "momentum": momentum,
            "alpha": alpha,
            "eps": eps,
            "centered": centered,
            "weight_decay": weight_decay,
            "capturable": capturable,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
        },
    )


@register(
    "Adadelta",
    "Adadelta(params, lr=1.0, rho=0.9, eps=1e-06, weight_decay=0)",
    "torch.optim.Adadelta: .step() scales each .grad by the ratio of two running RMS",
    category="optim",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a tensor op"),
    parser=None,
)
def adadelta(
    params,
    lr=1.0,
    rho=0.9,
    eps=1e-06,
    weight_decay=0,
    foreach=None,
    *,
    capturable=False,
    maximize=False,
    differentiable=False,
):
    _check("learning rate", lr)
    _check("epsilon value", eps)
    _check("weight_decay value", weight_decay)
    if not 0.0 <= rho <= 1.0:
        raise GradValueError(f"Invalid rho value: {rho}")
    return Adadelta(
        params,
        {
            "lr": lr,
            "rho": rho,
            "eps": eps,
            "weight_decay": weight_decay,
            "maximize": maximize,
            "capturable": capturable,
            "foreach": foreach,
            "differentiable": differentiable,
        },
    )


@register(
    "Adagrad",
    "Adagrad(params, lr=0.01, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10)",
    "torch.optim.Adagrad: .step() divides each .grad by the root of its summed squares",
    category="optim",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a tensor op"),
    parser=None,
)
def adagrad(
    params,
    lr=0.01,
    lr_decay=0,
    weight_decay=0,
    initial_accumulator_value=0,
    eps=1e-10,
    foreach=None,
    *,
    maximize=False,
    differentiable=False,
    fused=None,
):
    _check("learning rate", lr)
    _check("lr_decay value", lr_decay)
    _check("weight_decay value", weight_decay)
    _check("initial_accumulator_value value", initial_accumulator_value)
    _check("epsilon value", eps)
    return Adagrad(
        params,
        {
            "lr": lr,
            "lr_decay": lr_decay,
            "eps": eps,
            "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "fused": fused,
        },
    )


@register(
    "AdamW",
    "AdamW(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01)",
    "torch.optim.AdamW: Adam with decoupled weight decay",
    category="optim",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a tensor op"),
    parser=None,
)
def adamw(
    params,
    lr=0.001,
    betas=(0.9, 0.999),
    eps=1e-08,
    weight_decay=0.01,
    amsgrad=False,
    *,
    maximize=False,
    foreach=None,
    capturable=False,
    differentiable=False,
    fused=None,
):
    betas = _betas(betas)
    _check("learning rate", lr)
    _check("epsilon value", eps)
    _check("weight_decay value", weight_decay)
    return AdamW(
        params,
        {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "amsgrad": amsgrad,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
            "fused": fused,
            "decoupled_weight_decay": True,
        },
    )


STEP_ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and "
    "later, you should call them in the opposite order: `optimizer.step()` before "
    "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first "
    "value of the learning rate schedule. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
)


class StepLR:
    """lr_scheduler.StepLR(optimizer, step_size, gamma=0.1): every step_size calls of
    .step(), each group's lr is multiplied by gamma."""

    __slots__ = (
        "optimizer",
        "step_size",
        "gamma",
        "last_epoch",
        "base_lrs",
        "last_lr",
        "step_count",
    )
    language_callable = True

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise GradTypeError(f"{type(optimizer).__name__} is not an Optimizer")
        if isinstance(step_size, bool) or not isinstance(step_size, int):
            raise GradTypeError(f"step_size must be an int, got {type(step_size).__name__}")
        self.optimizer, self.step_size, self.gamma = optimizer, step_size, gamma
        for i, group in enumerate(optimizer.param_groups):
            if last_epoch == -1:
                group.setdefault("initial_lr", group["lr"])
            elif "initial_lr" not in group:
                raise GradRuntimeError(
                    f"param 'initial_lr' is not specified in param_groups[{i}] "
                    "when resuming an optimizer",
                    type_name="KeyError",
                )
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        optimizer.watched = True
        self.step_count = 0
        self.step()

    def step(self, epoch=None):
        """Each group's CURRENT lr times gamma every step_size steps (torch's chainable
        form: an lr set by hand in param_groups is where the schedule goes on from)."""
        if self.step_count == 1 and not self.optimizer.stepped:
            context.warn(STEP_ORDER_WARNING)
        self.step_count += 1
        self.last_epoch += 1
        groups = self.optimizer.param_groups
        if self.last_epoch != 0 and self.last_epoch % self.step_size == 0:
            for group in groups:
                group["lr"] = group["lr"] * self.gamma
        self.last_lr = [group["lr"] for group in groups]

    def get_last_lr(self):
        return list(self.last_lr)

    language_methods = {"step": step, "get_last_lr": get_last_lr}
    language_attrs = {
        "last_epoch": lambda s: s.last_epoch,
        "base_lrs": lambda s: list(s.base_lrs),
        "optimizer": lambda s: s.optimizer,
    }

    def __repr__(self):
        return "<torch.optim.lr_scheduler.StepLR object>"


SCHEDULERS = {"StepLR": StepLR}
