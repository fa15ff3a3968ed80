"""torch.optim's SGD and Adam.  `step()` updates each parameter as PyTorch's
single-tensor CPU implementation does, with the same arithmetic: `add_(g,
alpha=-lr)`, `lerp_` and `addcmul_` are fused multiply-adds (gradcli/fma.py),
`addcdiv_` is `p + (value * a) / b`.  (Adam's `sqrt` is NumPy's, correctly
rounded; PyTorch's MKL sqrt can differ in the last bit.)"""
from __future__ import annotations

import numpy as np

from ..core.convert import type_name
from ..base.errors import GradTypeError, GradValueError
from ..base.fma import fma
from ..ops.registry import register
from ..core.tensor import Tensor
from .methods import type_method


class Optimizer:
    """The parameters (leaf tensors), the options of their one group, and per-
    parameter state; `update(i, p, g)` gives parameter i's new values."""
    __slots__ = ("params", "group", "state")
    name = "Optimizer"

    def __init__(self, params, group):
        if isinstance(params, Tensor) or not isinstance(params, (list, tuple)):
            got = type_method(params) if isinstance(params, Tensor) else type_name(params)
            raise GradTypeError("params argument given to the optimizer should be an iterable "
                                f"of Tensors or dicts, but got {got}")
        params = list(params)
        if not params:
            raise GradValueError("optimizer got an empty parameter list")
        for p in params:
            if not isinstance(p, Tensor):
                raise GradTypeError("optimizer can only optimize Tensors, but one of the params "
                                    f"is {type_name(p)}")
            if p.grad_fn is not None:
                raise GradValueError("can't optimize a non-leaf Tensor")
        if group["lr"] < 0:
            raise GradValueError(f"Invalid learning rate: {group['lr']}")
        self.params, self.group, self.state = params, group, [None] * len(params)

    def zero_grad(self, set_to_none=True):
        for p in self.params:
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    p.grad = Tensor(np.zeros_like(p.grad.data))

    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is not None:
                new = self.update(i, p.data, p.grad.data.astype(p.data.dtype, copy=False))
                p.data = np.asarray(new, dtype=p.data.dtype)

    def param_groups(self):
        """optimizer.param_groups: one group, 'params' first (a copy: read it, as torch's)."""
        return [{"params": list(self.params), **self.group}]

    language_methods = {"step": step, "zero_grad": zero_grad}
    language_attrs = {"param_groups": param_groups,
                      "defaults": lambda o: dict(o.group)}

    def __repr__(self):
        lines = [f"{self.name} (", "Parameter Group 0"]
        for key in sorted(self.group):
            lines.append(f"    {key}: {self.group[key]}")
        return "\n".join(lines) + "\n)"


class SGD(Optimizer):
    __slots__ = ()
    name = "SGD"

    def update(self, i, p, g):
        o = self.group
        if o["maximize"]:
            g = -g
        if o["weight_decay"]:
            g = fma(o["weight_decay"], p, g)                   # g.add(p, alpha=wd)
        m = o["momentum"]
        if m:
            buf = self.state[i]
            if buf is None:
                buf = g.copy()
            else:
                damp = 1 - o["dampening"]
                buf = buf * m + g if damp == 1 else fma(damp, g, buf * m)
            self.state[i] = buf
            g = fma(m, buf, g) if o["nesterov"] else buf      # g.add(buf, alpha=m)
        return fma(-o["lr"], g, p)                            # p.add_(g, alpha=-lr)


class Adam(Optimizer):
    __slots__ = ()
    name = "Adam"

    def update(self, i, p, g):
        o = self.group
        beta1, beta2 = o["betas"]
        if o["maximize"]:
            g = -g
        if o["weight_decay"]:
            if o["decoupled_weight_decay"]:                   # AdamW: p.mul_(1 - lr * wd)
                p = p * (1 - o["lr"] * o["weight_decay"])
            else:
                g = fma(o["weight_decay"], p, g)
        st = self.state[i]
        if st is None:
            st = self.state[i] = [0.0, np.zeros_like(p), np.zeros_like(p)]
        st[0] += 1
        step, avg, avg_sq = st
        w = 1 - beta1                                          # exp_avg.lerp_(g, w)
        avg = fma(w, g - avg, avg) if w < 0.5 else fma(-(g - avg), 1 - w, g)
        avg_sq = fma((1 - beta2) * g, g, avg_sq * beta2)       # mul_(b2).addcmul_(g, g, 1-b2)
        st[1], st[2] = avg, avg_sq
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        step_size = o["lr"] / bias_correction1
        denom = np.sqrt(avg_sq) / (bias_correction2 ** 0.5) + o["eps"]
        return p + (-step_size * avg) / denom                  # addcdiv_(avg, denom, -step_size)


@register("SGD", "SGD(params, lr=0.001, momentum=0, dampening=0, weight_decay=0, nesterov=False)",
          "torch.optim.SGD: .step() moves each parameter against its .grad; .zero_grad()",
          category="optim")
def sgd(params, lr=0.001, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
        maximize=False, foreach=None, differentiable=False, fused=None):
    if nesterov and (momentum <= 0 or dampening != 0):
        raise GradValueError("Nesterov momentum requires a momentum and zero dampening")
    return SGD(params, {"lr": lr, "momentum": momentum, "dampening": dampening,
                        "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
                        "foreach": foreach, "differentiable": differentiable, "fused": fused})


@register("Adam", "Adam(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0)",
          "torch.optim.Adam: .step() takes an Adam step with each parameter's .grad; "
          ".zero_grad()", category="optim")
def adam(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, amsgrad=False, *,
         foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
         decoupled_weight_decay=False):
    if amsgrad:
        raise GradValueError("Adam: amsgrad is not supported by gradcli")
    betas = tuple(betas)
    for k, b in enumerate(betas):
        if not 0.0 <= b < 1.0:
            raise GradValueError(f"Invalid beta parameter at index {k}: {b}")
    if eps < 0:
        raise GradValueError(f"Invalid epsilon value: {eps}")
    return Adam(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                         "amsgrad": amsgrad, "capturable": capturable,
                         "decoupled_weight_decay": decoupled_weight_decay,
                         "differentiable": differentiable, "foreach": foreach,
                         "maximize": maximize, "fused": fused})
