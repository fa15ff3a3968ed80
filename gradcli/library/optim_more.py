"""torch.optim's Adamax, NAdam, RAdam, Rprop and ASGD on optim.py's Optimizer base, each
`update` PyTorch's single-tensor implementation with the rounding rules of optim.py's
docstring.  Some state torch keeps in 0-dim tensors of its "scalar dtype" (float64 when
the default dtype is float64, float32 otherwise), so NAdam's running product of the
momentum factors and ASGD's eta and mu are rounded to that dtype as torch's are."""

from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor
from ..ops.registry import FUNCTIONS as F
from ..ops.registry import not_a_tensor_op
from ..ops.scaled import add as add_scaled
from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradTypeError, GradValueError
from .optim import (
    Optimizer,
    _check,
    adam_checks,
    add_alpha,
    addcdiv,
    decayed,
    fmadd,
    lerp,
    moments,
    sqrt,
)
from .optim_state import scalar_dtype
from .python import float_


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
        betas = adam_checks(lr, eps, betas, weight_decay)
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
        if not st:
            st.update(step=0.0, exp_avg=np.zeros_like(p), exp_inf=np.zeros_like(p))
        st["step"] += 1
        p, g = decayed(p, g, o, dt)
        avg = st["exp_avg"] = lerp(st["exp_avg"], g, 1 - beta1, dt)
        # torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps))
        inf = st["exp_inf"] = np.maximum(st["exp_inf"] * dt(beta2), np.abs(g) + dt(o["eps"]))
        clr = o["lr"] / (1 - beta1 ** st["step"])
        return addcdiv(p, avg, inf, -clr, dt)


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
        betas = adam_checks(lr, eps, betas, weight_decay)
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
        if not st:
            sdt = scalar_dtype()
            st.update(step=0.0, mu_product=sdt(1.0), sdt=sdt)
            st.update(exp_avg=np.zeros_like(p), exp_avg_sq=np.zeros_like(p))
        st["step"] += 1
        step = st["step"]
        bias_correction2 = 1 - beta2**step
        p, g = decayed(p, g, o, dt, o["decoupled_weight_decay"])
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * decay)))
        sdt = st["sdt"]
        st["mu_product"] = sdt(st["mu_product"] * sdt(mu))  # a 0-dim tensor's mul_
        mu_product = float(st["mu_product"])
        avg, sq = moments(st, g, beta1, beta2, dt)
        denom = sqrt(sq / dt(bias_correction2)) + dt(o["eps"])
        p = addcdiv(p, g, denom, -lr * (1.0 - mu) / (1.0 - mu_product), dt)
        mu_product_next = mu_product * mu_next
        return addcdiv(p, avg, denom, (-lr * mu_next) / (1.0 - mu_product_next), dt)


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
        betas = adam_checks(lr, eps, betas, weight_decay)
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
        if not st:
            st.update(step=0.0, exp_avg=np.zeros_like(p), exp_avg_sq=np.zeros_like(p))
        st["step"] += 1
        step = st["step"]
        p, g = decayed(p, g, o, dt, o["decoupled_weight_decay"])
        avg, sq = moments(st, g, beta1, beta2, dt)
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
        if not st:
            sdt = scalar_dtype()
            st.update(step=0.0, eta=sdt(lr), mu=sdt(1.0), ax=np.zeros_like(p), sdt=sdt)
        st["step"] += 1
        p, g = decayed(p, g, o, dt)
        eta = float(st["eta"])
        p = p * dt(1 - lambd * eta)  # param.mul_(1 - lambd * eta)
        p = add_alpha(p, g, -eta, dt)
        if float(st["mu"]) != 1:
            st["ax"] = st["ax"] + (p - st["ax"]) * dt(st["mu"])  # ax.add_(p.sub(ax).mul_(mu))
        else:
            st["ax"] = p.copy()
        step, sdt = st["step"], st["sdt"]
        st["eta"] = sdt(lr / ((1 + lambd * lr * step) ** o["alpha"]))
        st["mu"] = sdt(1 / max(1, step - o["t0"]))
        return p


@not_a_tensor_op(
    "LBFGS",
    "LBFGS(params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-07, "
    "tolerance_change=1e-09, history_size=100, line_search_fn=None)",
    "torch.optim.LBFGS: quasi-Newton steps; .step(closure) evaluates the loss",
    category="optim",
)
class LBFGS(Optimizer):
    """torch's L-BFGS, written with the tensor ops torch's is written with (cat, dot,
    add with a tensor alpha ...) so every value is what torch computes, and its
    strong-Wolfe line search (lbfgs_search.py)."""

    __slots__ = ()
    name = "LBFGS"

    def __init__(
        self,
        params,
        lr=1,
        max_iter=20,
        max_eval=None,
        tolerance_grad=1e-7,
        tolerance_change=1e-9,
        history_size=100,
        line_search_fn=None,
    ):
        _check("learning rate", lr)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        Optimizer.__init__(
            self,
            params,
            {
                "lr": lr,
                "max_iter": max_iter,
                "max_eval": max_eval,
                "tolerance_grad": tolerance_grad,
                "tolerance_change": tolerance_change,
                "history_size": history_size,
                "line_search_fn": line_search_fn,
            },
        )
        if len(self.param_groups) != 1:
            raise GradValueError("LBFGS doesn't support per-parameter options (parameter groups)")

    def _flat_grad(self):
        views = []
        for p in self.param_groups[0]["params"]:
            if p.grad is None:
                views.append(Tensor(np.zeros(p.data.size, dtype=p.data.dtype)))
            else:
                views.append(F["reshape"](p.grad, (-1,)))
        return F["cat"](views, 0)

    def _add_grad(self, step_size, update):
        offset = 0
        for p in self.param_groups[0]["params"]:
            n = p.data.size
            piece = F["view_as"](F["narrow"](update, 0, offset, n), p)
            p.data = add_scaled(Tensor(p.data), piece, alpha=_number(step_size)).data
            offset += n

    def _directional_evaluate(self, closure, x, t, d):
        self._add_grad(t, d)
        loss = _float(self._closure(closure))
        flat_grad = self._flat_grad()
        for p, v in zip(self.param_groups[0]["params"], x):
            p.data = v.data.copy()
        return loss, flat_grad

    def _closure(self, closure):
        ctx = context.current
        mode, ctx.grad_enabled = ctx.grad_enabled, True
        try:
            return closure()
        finally:
            ctx.grad_enabled = mode

    def step(self, closure=None):
        if closure is None:
            raise GradTypeError("LBFGS.step() missing 1 required positional argument: 'closure'")
        if self.watched:
            self.stepped = True
        ctx = context.current
        mode, ctx.grad_enabled = ctx.grad_enabled, False
        try:
            return self._step(closure)
        finally:
            ctx.grad_enabled = mode

    def _step(self, closure):
        group = self.param_groups[0]
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tol_grad, tol_change = group["tolerance_grad"], group["tolerance_change"]
        history_size = group["history_size"]
        state = self.state[group["params"][0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        orig_loss = self._closure(closure)
        loss = _float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if _true(F["le"](F["max"](F["abs"](flat_grad)), tol_grad)):
            return orig_loss
        d, t = state.get("d"), state.get("t")
        old_dirs, old_stps, ro = state.get("old_dirs"), state.get("old_stps"), state.get("ro")
        H_diag, prev_flat_grad = state.get("H_diag"), state.get("prev_flat_grad")
        prev_loss = state.get("prev_loss")
        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = F["neg"](flat_grad)
                old_dirs, old_stps, ro = [], [], []
                H_diag = 1
            else:
                y = F["sub"](flat_grad, prev_flat_grad)
                s = F["mul"](d, t)
                ys = F["dot"](y, s)
                if _true(F["gt"](ys, 1e-10)):
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(F["mul"](F["reciprocal"](ys), 1.0))  # 1.0 / ys
                    H_diag = F["div"](ys, F["dot"](y, y))
                num_old = len(old_dirs)
                if "al" not in state:
                    state["al"] = [None] * history_size
                al = state["al"]
                q = F["neg"](flat_grad)
                for i in range(num_old - 1, -1, -1):
                    al[i] = F["mul"](F["dot"](old_stps[i], q), ro[i])
                    q = add_scaled(q, old_dirs[i], alpha=-_number(al[i]))
                d = r = F["mul"](q, H_diag)
                for i in range(num_old):
                    be_i = F["mul"](F["dot"](old_dirs[i], r), ro[i])
                    r = add_scaled(r, old_stps[i], alpha=_number(F["sub"](al[i], be_i)))
                d = r
            prev_flat_grad = F["clone"](flat_grad)
            prev_loss = loss
            if state["n_iter"] == 1:  # min(1.0, 1.0 / flat_grad.abs().sum()) * lr
                inv = F["mul"](F["reciprocal"](F["sum"](F["abs"](flat_grad))), 1.0)
                t = F["mul"](inv, lr) if _true(F["lt"](inv, 1.0)) else 1.0 * lr
            else:
                t = lr
            gtd = F["dot"](flat_grad, d)
            if _true(F["gt"](gtd, -tol_change)):
                break
            ls_func_evals = 0
            if group["line_search_fn"] is not None:
                if group["line_search_fn"] != "strong_wolfe":
                    raise GradRuntimeError("only 'strong_wolfe' is supported")
                x_init = [F["clone"](p) for p in group["params"]]

                def obj_func(x, t, d):
                    return self._directional_evaluate(closure, x, t, d)

                from .lbfgs_search import strong_wolfe  # (with the first search: start-up)

                loss, flat_grad, t, ls_func_evals = strong_wolfe(
                    obj_func, x_init, t, d, loss, flat_grad, gtd, max_ls=max_eval - current_evals
                )
                self._add_grad(t, d)
                opt_cond = _true(F["le"](F["max"](F["abs"](flat_grad)), tol_grad))
            else:
                self._add_grad(t, d)
                opt_cond = False
            if group["line_search_fn"] is None and n_iter != max_iter:
                loss = _float(self._closure(closure))
                flat_grad = self._flat_grad()
                opt_cond = _true(F["le"](F["max"](F["abs"](flat_grad)), tol_grad))
                ls_func_evals = 1
            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals
            if n_iter == max_iter or current_evals >= max_eval or opt_cond:
                break
            if _true(F["le"](F["max"](F["abs"](F["mul"](d, t))), tol_change)):
                break
            if abs(loss - prev_loss) < tol_change:
                break
        state.update(d=d, t=t, old_dirs=old_dirs, old_stps=old_stps, ro=ro)
        state.update(H_diag=H_diag, prev_flat_grad=prev_flat_grad, prev_loss=prev_loss)
        return orig_loss

    language_methods = {**Optimizer.language_methods, "step": step}


def _float(loss):
    """float(loss) (torch's, under no_grad: no warning for a tensor requiring grad)."""
    return float(loss.data) if isinstance(loss, Tensor) else float_(loss)


def _true(t):
    return bool(t.data) if isinstance(t, Tensor) else bool(t)


def _number(v):
    """A Scalar argument given as a 0-dim tensor (torch takes its item())."""
    return v.data.item() if isinstance(v, Tensor) else v
