"""torch.optim.Adafactor: torch's single-tensor step written with the tensor ops it is
written with (norm, lerp, the outer product of the row and column variances, rsqrt), so
its values are the ops' and torch's; its Python-float factors (the step's decay, the
relative step size, the clipping denominator) in torch's order."""

from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor
from ..ops.registry import FUNCTIONS as F
from ..ops.registry import not_a_tensor_op
from ..ops.scaled import add as add_scaled
from ..runtime.errors import GradValueError
from .optim import Optimizer


@not_a_tensor_op(
    "Adafactor",
    "Adafactor(params, lr=0.01, beta2_decay=-0.8, eps=(None, 0.001), d=1.0, weight_decay=0.0)",
    "torch.optim.Adafactor: Adam-like steps with factored second moments",
    category="optim",
)
class Adafactor(Optimizer):
    __slots__ = ()
    name = "Adafactor"
    refused = ("fused", "differentiable", "foreach")

    def __init__(
        self,
        params,
        lr=1e-2,
        beta2_decay=-0.8,
        eps=(None, 1e-3),
        d=1.0,
        weight_decay=0.0,
        *,
        foreach=None,
        maximize=False,
    ):
        checks = [
            (0.0 <= lr, f"Learning rate should be >= 0 but is: {lr}"),
            (0.0 >= beta2_decay, f"beta2_decay should be <= 0 but is: {beta2_decay}"),
            (eps[0] is None or 0.0 <= eps[0], f"epsilon1 should be >= 0 but is: {eps[0]}"),
            (0.0 <= eps[1], f"epsilon2 should be >= 0 but is: {eps[1]}"),
            (1.0 <= d, f"Clipping threshold d should be >= 1 but is: {d}"),
            (0.0 <= weight_decay, f"weight_decay should be >= 0 but is: {weight_decay}"),
        ]
        for ok, message in checks:
            if not ok:
                raise GradValueError(message)
        Optimizer.__init__(
            self,
            params,
            {
                "lr": lr,
                "beta2_decay": beta2_decay,
                "eps": eps,
                "d": d,
                "weight_decay": weight_decay,
                "foreach": foreach,
                "maximize": maximize,
            },
        )

    def update(self, st, p, g, o, dt):
        lr, wd = o["lr"], o["weight_decay"]
        eps1, eps2 = o["eps"]
        P, G = Tensor(p), Tensor(g)
        if not st:
            st["step"] = 0.0
            if g.ndim > 1:
                st["row_var"] = np.zeros(g.shape[:-1] + (1,), dtype=dt)
                st["col_var"] = np.zeros(g.shape[:-2] + (1,) + g.shape[-1:], dtype=dt)
            else:
                st["variance"] = np.zeros_like(g)
        if eps1 is None:
            eps1 = float(np.finfo(dt).eps)
        st["step"] += 1
        step = st["step"]
        one_minus_beta2_t = step ** o["beta2_decay"]
        rho_t = min(lr, 1 / (step**0.5))
        alpha = max(eps2, F["norm"](P, 2).data.item() / (p.size**0.5)) * rho_t
        if wd != 0:
            P = F["mul"](P, 1 - lr * wd)
        if g.ndim > 1:
            row_mean = F["div"](F["square"](F["norm"](G, 2, -1, True)), g.shape[-1])
            row_var = F["lerp"](Tensor(st["row_var"]), row_mean, one_minus_beta2_t)
            col_mean = F["div"](F["square"](F["norm"](G, 2, -2, True)), g.shape[-2])
            col_var = F["lerp"](Tensor(st["col_var"]), col_mean, one_minus_beta2_t)
            st["row_var"], st["col_var"] = row_var.data, col_var.data
            var_estimate = F["matmul"](row_var, col_var)
            row_mean_var = F["clamp"](F["mean"](row_var, -2, True), eps1)
            var_estimate = F["div"](var_estimate, row_mean_var)
        else:
            variance = F["lerp"](Tensor(st["variance"]), F["mul"](G, G), one_minus_beta2_t)
            st["variance"] = variance.data
            var_estimate = variance
        update = F["mul"](F["rsqrt"](F["clamp"](var_estimate, eps1 * eps1)), G)
        denom = max(1.0, F["norm"](update, 2).data.item() / ((update.data.size**0.5) * o["d"]))
        return add_scaled(P, update, alpha=-alpha / denom).data
