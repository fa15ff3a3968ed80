"""torch.optim's Adamax, NAdam, RAdam, Rprop and ASGD on optim.py's Optimizer base, each
`update` PyTorch's single-tensor implementation with the rounding rules of optim.py's
docstring.  Some state torch keeps in 0-dim tensors of its "scalar dtype" (float64 when
the default dtype is float64, float32 otherwise), so NAdam's running product of the
momentum factors and ASGD's eta and mu are rounded to that dtype as torch's are."""

from __future__ import annotations

import numpy as np

from ..ops.registry import not_a_tensor_op
from ..runtime import context
from ..runtime.errors import GradValueError
from .optim import Optimizer, _betas, _check, fmadd, lerp, sqrt


def _scalar_dtype():
    """torch's _get_scalar_dtype(): the dtype of the optimizers' 0-dim state tensors."""
    return np.float64 if context.current.default_float == np.float64 else np.float32


def _moments(st, g, beta1, beta2, dt):
    """Adam's running averages: exp_avg.lerp_(g, 1 - beta1) and
    exp_avg_sq.mul_(beta2).addcmul_(g, g, value=1 - beta2)."""
    avg = st["exp_avg"] = lerp(st["exp_avg"], g, 1 - beta1, dt)
    sq = st["exp_avg_sq"] = fmadd(dt(1 - beta2) * g, g, st["exp_avg_sq"] * dt(beta2), dt)
    return avg, sq


def _decay(p, g, o, dt):
    """weight_decay: decoupled (p.mul_(1 - lr * wd)) or added to the gradient."""
    wd = o["weight_decay"]
    if wd:
        if o.get("decoupled_weight_decay"):
            return p * dt(1 - o["lr"] * wd), g
        return p, fmadd(dt(wd), p, g, dt)  # g.add(p, alpha=wd)
    return p, g


@not_a_tensor_op(
    "Adamax",
    "Adamax(params, lr=0.002, betas=(0.9, 0.999), eps=1e-08, weight_decay=0)",
    "torch.optim.Adamax: Adam with the infinity norm of the gradients",
    category="optim",
)
class Adamax(Optimizer):
    __slots__ = ()
    name = "Adamax"

    def __init__(
        self,
        params,
        lr=2e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=0,
        foreach=None,
        *,
        maximize=False,
        differentiable=False,
        capturable=False,
    ):
        _check("learning rate", lr)
        _check("epsilon value", eps)
        betas = _betas(betas)
        _check("weight_decay value", weight_decay)
        Optimizer.__init__(
            self,
            params,
            {
                "lr": lr,
                "betas": betas,
                "eps": eps,
                "weight_decay": weight_decay,
                "foreach": foreach,
                "maximize": maximize,
                "differentiable": differentiable,
                "capturable": capturable,
            },
        )

    def update(self, st, p, g, o, dt):
        beta1, beta2 = o["betas"]
        if o["maximize"]:
            g = -g
        if not st:
            st.update(step=0.0, exp_avg=np.zeros_like(p), exp_inf=np.zeros_like(p))
        st["step"] += 1
        if o["weight_decay"]:
            g = fmadd(dt(o["weight_decay"]), p, g, dt)
        avg = st["exp_avg"] = lerp(st["exp_avg"], g, 1 - beta1, dt)
        # torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps))
        inf = st["exp_inf"] = np.maximum(st["exp_inf"] * dt(beta2), np.abs(g) + dt(o["eps"]))
        clr = o["lr"] / (1 - beta1 ** st["step"])
        return p + (dt(-clr) * avg) / inf  # addcdiv_(exp_avg, exp_inf, value=-clr)


@not_a_tensor_op(
    "NAdam",
    "NAdam(params, lr=0.002, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, "
    "momentum_decay=0.004, decoupled_weight_decay=False)",
    "torch.optim.NAdam: Adam with Nesterov momentum",
    category="optim",
)
class NAdam(Optimizer):
    __slots__ = ()
    name = "NAdam"
    capturable_state = "params, mu_products and state_steps"
    refused = ("fused", "differentiable", "foreach")

    def __init__(
        self,
        params,
        lr=2e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=0,
        momentum_decay=4e-3,
        decoupled_weight_decay=False,
        *,
        foreach=None,
        maximize=False,
        capturable=False,
        differentiable=False,
    ):
        _check("learning rate", lr)
        _check("epsilon value", eps)
        betas = _betas(betas)
        _check("weight_decay value", weight_decay)
        _check("momentum_decay value", momentum_decay)
        Optimizer.__init__(
            self,
            params,
            {
                "lr": lr,
                "betas": betas,
                "eps": eps,
                "weight_decay": weight_decay,
                "momentum_decay": momentum_decay,
                "decoupled_weight_decay": decoupled_weight_decay,
                "maximize": maximize,
                "foreach": foreach,
                "capturable": capturable,
                "differentiable": differentiable,
            },
        )

    def update(self, st, p, g, o, dt):
        beta1, beta2 = o["betas"]
        lr, decay = o["lr"], o["momentum_decay"]
        if o["maximize"]:
            g = -g
        if not st:
            sdt = _scalar_dtype()
            st.update(step=0.0, mu_product=sdt(1.0), sdt=sdt)
            st.update(exp_avg=np.zeros_like(p), exp_avg_sq=np.zeros_like(p))
        st["step"] += 1
        step = st["step"]
        bias_correction2 = 1 - beta2**step
        p, g = _decay(p, g, o, dt)
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * decay)))
        sdt = st["sdt"]
        st["mu_product"] = sdt(st["mu_product"] * sdt(mu))  # a 0-dim tensor's mul_
        mu_product = float(st["mu_product"])
        avg, sq = _moments(st, g, beta1, beta2, dt)
        denom = sqrt(sq / dt(bias_correction2)) + dt(o["eps"])
        p = p + (dt(-lr * (1.0 - mu) / (1.0 - mu_product)) * g) / denom
        mu_product_next = mu_product * mu_next
        return p + (dt((-lr * mu_next) / (1.0 - mu_product_next)) * avg) / denom


@not_a_tensor_op(
    "RAdam",
    "RAdam(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, "
    "decoupled_weight_decay=False)",
    "torch.optim.RAdam: Adam with the variance of its adaptive rate rectified",
    category="optim",
)
class RAdam(Optimizer):
    __slots__ = ()
    name = "RAdam"
    refused = ("fused", "differentiable", "foreach")

    def __init__(
        self,
        params,
        lr=1e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=0,
        decoupled_weight_decay=False,
        *,
        foreach=None,
        maximize=False,
        capturable=False,
        differentiable=False,
    ):
        _check("learning rate", lr)
        _check("epsilon value", eps)
        betas = _betas(betas)
        _check("weight_decay value", weight_decay)
        Optimizer.__init__(
            self,
            params,
            {
                "lr": lr,
                "betas": betas,
                "eps": eps,
                "weight_decay": weight_decay,
                "maximize": maximize,
                "foreach": foreach,
                "capturable": capturable,
                "decoupled_weight_decay": decoupled_weight_decay,
                "differentiable": differentiable,
            },
        )

    def update(self, st, p, g, o, dt):
        beta1, beta2 = o["betas"]
        lr = o["lr"]
        if o["maximize"]:
            g = -g
        if not st:
            st.update(step=0.0, exp_avg=np.zeros_like(p), exp_avg_sq=np.zeros_like(p))
        st["step"] += 1
        step = st["step"]
        p, g = _decay(p, g, o, dt)
        avg, sq = _moments(st, g, beta1, beta2, dt)
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        corrected = avg / dt(bias_correction1)
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
        if rho_t > 5.0:
            rect = (
                (rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
            ) ** 0.5
            # (bias_correction2 ** 0.5) / t is t.reciprocal() * (bias_correction2 ** 0.5)
            adaptive = (dt(1) / (sqrt(sq) + dt(o["eps"]))) * dt(bias_correction2**0.5)
            update = corrected * dt(lr) * adaptive * dt(rect)
        else:
            update = corrected * dt(lr)
        return p - update  # p.add_(update, alpha=-1.0)


@not_a_tensor_op(
    "Rprop",
    "Rprop(params, lr=0.01, etas=(0.5, 1.2), step_sizes=(1e-06, 50))",
    "torch.optim.Rprop: steps of their own size per element, grown or shrunk by the sign",
    category="optim",
)
class Rprop(Optimizer):
    __slots__ = ()
    name = "Rprop"

    def __init__(
        self,
        params,
        lr=1e-2,
        etas=(0.5, 1.2),
        step_sizes=(1e-6, 50),
        *,
        capturable=False,
        foreach=None,
        maximize=False,
        differentiable=False,
    ):
        _check("learning rate", lr)
        etas, step_sizes = tuple(etas), tuple(step_sizes)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise GradValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        Optimizer.__init__(
            self,
            params,
            {
                "lr": lr,
                "etas": etas,
                "step_sizes": step_sizes,
                "foreach": foreach,
                "maximize": maximize,
                "differentiable": differentiable,
                "capturable": capturable,
            },
        )

    def update(self, st, p, g, o, dt):
        etaminus, etaplus = (dt(e) for e in o["etas"])
        low, high = o["step_sizes"]
        if o["maximize"]:
            g = -g
        if not st:
            st.update(step=0.0, prev=np.zeros_like(p), step_size=np.full_like(g, o["lr"]))
        st["step"] += 1
        sign = np.sign(g * st["prev"])
        factor = np.where(sign > 0, etaplus, np.where(sign < 0, etaminus, sign))
        factor = np.where(factor == 0, dt(1), factor).astype(dt, copy=False)
        size = st["step_size"] * factor  # step_size.mul_(sign).clamp_(min, max)
        size = st["step_size"] = np.minimum(np.maximum(size, dt(low)), dt(high))
        g = np.where(factor == etaminus, dt(0), g).astype(dt, copy=False)
        st["prev"] = g
        return fmadd(-np.sign(g), size, p, dt)  # p.addcmul_(g.sign(), step_size, value=-1)


@not_a_tensor_op(
    "ASGD",
    "ASGD(params, lr=0.01, lambd=0.0001, alpha=0.75, t0=1000000.0, weight_decay=0)",
    "torch.optim.ASGD: averaged stochastic gradient descent",
    category="optim",
)
class ASGD(Optimizer):
    __slots__ = ()
    name = "ASGD"
    capturable_state = "params, mus, etas, and state_steps"
    refused = ("fused", "differentiable", "foreach")

    def __init__(
        self,
        params,
        lr=1e-2,
        lambd=1e-4,
        alpha=0.75,
        t0=1e6,
        weight_decay=0,
        foreach=None,
        maximize=False,
        differentiable=False,
        capturable=False,
    ):
        _check("learning rate", lr)
        _check("weight_decay value", weight_decay)
        Optimizer.__init__(
            self,
            params,
            {
                "lr": lr,
                "lambd": lambd,
                "alpha": alpha,
                "t0": t0,
                "weight_decay": weight_decay,
                "foreach": foreach,
                "maximize": maximize,
                "differentiable": differentiable,
                "capturable": capturable,
            },
        )

    def update(self, st, p, g, o, dt):
        lr, lambd = o["lr"], o["lambd"]
        if o["maximize"]:
            g = -g
        if not st:
            sdt = _scalar_dtype()
            st.update(step=0.0, eta=sdt(lr), mu=sdt(1.0), ax=np.zeros_like(p), sdt=sdt)
        st["step"] += 1
        if o["weight_decay"]:
            g = fmadd(dt(o["weight_decay"]), p, g, dt)
        eta = float(st["eta"])
        p = p * dt(1 - lambd * eta)  # param.mul_(1 - lambd * eta)
        p = fmadd(dt(-eta), g, p, dt)  # param.add_(grad, alpha=-eta)
        if float(st["mu"]) != 1:
            st["ax"] = st["ax"] + (p - st["ax"]) * dt(st["mu"])  # ax.add_(p.sub(ax).mul_(mu))
        else:
            st["ax"] = p.copy()
        step, sdt = st["step"], st["sdt"]
        st["eta"] = sdt(lr / ((1 + lambd * lr * step) ** o["alpha"]))
        st["mu"] = sdt(1 / max(1, step - o["t0"]))
        return p
