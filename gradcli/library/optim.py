"""torch.optim: the Optimizer base, SGD, Adam, AdamW, RMSprop, Adagrad and Adadelta
(the schedulers are lr_scheduler.py's).  `step()` updates each parameter as
PyTorch's single-tensor implementation does (the default on the CPU: torch uses
the foreach kernels only for CUDA/XPU tensors), in the parameter's dtype with
PyTorch's CPU arithmetic: every Python-float option is first rounded to that
dtype (torch casts a scalar to the kernel's scalar_t), `add_(g, alpha=a)`,
`addcmul_`, `lerp_` are fused multiply-adds rounded once (gradcli/fma.py),
`addcdiv_(a, b, value=v)` is `p + (v * a) / b`; bias corrections are Python floats
as in torch; `sqrt` is torch's (MKL's vsSqrt/vdSqrt, which is not correctly rounded:
one ulp off for about 17% of float32 and 1.5% of float64 values) when the mkl package
is installed (gradcli/numerics/mkl.py); without it NumPy's, and RMSprop, Adagrad and Adam
can then drift from torch in the last bit.  The steps the optimizers share (weight decay,
Adam's running averages, `add_`, `addcdiv_`, the Adam family's checks) are functions here,
which optim_more.py's optimizers call too; `step()` negates the gradient for maximize=True.

`optimizer.param_groups` is the optimizer's own list of dicts, as in torch:
`optimizer.param_groups[0]['lr'] = x` changes the learning rate of the next step."""

from __future__ import annotations

import math
import struct
from collections import defaultdict

import numpy as np

from ..core.convert import type_name
from ..runtime import context
from ..runtime.errors import (
    GradAssertionError,
    GradRuntimeError,
    GradTypeError,
    GradValueError,
)
from ..numerics import mkl, native, native_optim
from ..numerics.floats.fma import fma, one_rounding
from ..ops.registry import not_a_tensor_op
from ..core.tensor import Tensor
from .methods import type_method
from . import optim_state


# torch's CPU Tensor.sqrt is MKL's vsSqrt/vdSqrt (not correctly rounded): the same
# function when the mkl package is installed (gradcli/numerics/mkl.py), NumPy's otherwise
sqrt = mkl.unary_fn("sqrt", np.sqrt)


def fmadd(a, b, c, dt):
    """a * b + c rounded once to dt (a, b, c already values of dt)."""
    if dt == np.float32:
        return fma(a, b, c, dtype=np.float32)
    return fma(a, b, c)


def lerp(start, end, w, dt):
    """start.lerp_(end, w) with a scalar weight, as torch's CPU kernel."""
    w = dt(w)
    diff = end - start
    if abs(w) < 0.5:
        return fmadd(w, diff, start, dt)
    return fmadd(-diff, dt(1) - w, end, dt)


def add_alpha(p, x, alpha, dt):
    """p.add_(x, alpha=alpha): a fused multiply-add, rounded once."""
    return fmadd(dt(alpha), x, p, dt)


def addcdiv(p, a, b, value, dt):
    """p.addcdiv_(a, b, value=value), as torch's CPU kernel: p + (value * a) / b."""
    return p + (dt(value) * a) / b


def squares_avg(avg, x, beta, dt):
    """A running average of squares: avg.mul_(beta).addcmul_(x, x, value=1 - beta)."""
    return fmadd(dt(1 - beta) * x, x, avg * dt(beta), dt)


def decayed(p, g, o, dt, decoupled=False):
    """weight_decay, the new (p, g): added to the gradient (g.add(p, alpha=wd)) or, when
    `decoupled` (AdamW's), taken from the parameter (p.mul_(1 - lr * wd))."""
    wd = o["weight_decay"]
    if not wd:
        return p, g
    if decoupled:
        return p * dt(1 - o["lr"] * wd), g
    return p, fmadd(dt(wd), p, g, dt)


def moments(st, g, beta1, beta2, dt):
    """Adam's running averages: exp_avg.lerp_(g, 1 - beta1) and exp_avg_sq's of squares
    (both in one compiled loop when it is loaded: numerics/native_steps.py)."""
    got = native_optim.moments(st["exp_avg"], st["exp_avg_sq"], g, 1 - beta1, beta2)
    if got is not None:
        st["exp_avg"], st["exp_avg_sq"] = got
        return got
    avg = st["exp_avg"] = lerp(st["exp_avg"], g, 1 - beta1, dt)
    sq = st["exp_avg_sq"] = squares_avg(st["exp_avg_sq"], g, beta2, dt)
    return avg, sq


def adam_checks(lr, eps, betas, weight_decay):
    """The Adam family's checks of its options, in torch's order; the betas as a tuple."""
    _check("learning rate", lr)
    _check("epsilon value", eps)
    betas = tuple(betas)
    for k, b in enumerate(betas):
        if not 0.0 <= b < 1.0:
            raise GradValueError(f"Invalid beta parameter at index {k}: {b}")
    _check("weight_decay value", weight_decay)
    return betas


def _check(name, value, low=0.0):
    if not low <= value:
        raise GradValueError(f"Invalid {name}: {value}")


def _typename(p):
    return type_method(p) if isinstance(p, Tensor) else type_name(p)


class Optimizer:
    """The parameter groups (lists of leaf tensors and their options, torch's
    `param_groups`), the defaults, and per-parameter state (by the tensor's id);
    a subclass's `update(state, p, g, group, dt)` gives a parameter's new values.  A
    class of the program may derive from it (or from SGD, Adam ...) and write its own
    `step` over `self.param_groups`, keeping what it likes in `self.state[p]` (torch's
    defaultdict(dict) keyed by the tensor; the library's own steps keep theirs apart)."""

    __slots__ = ("param_groups", "defaults", "state", "kept", "watched", "stepped")
    name = "Optimizer"
    #: its methods, called with numbers or nothing, run no code of the program (a
    #: replayed loop may run `opt.step()` as compiled between replayed statements)
    replay_calls = True
    #: of them, those that change nothing a replayed plan checks (each parameter's
    #: values in place, the optimizer's own state): language/replay_checks.py `keeps`
    replay_keeps = ("step", "zero_grad")
    language_subclassable = True

    def __init__(self, params, defaults):
        if type(self).update is not Optimizer.update and defaults["lr"] < 0:  # (torch's own)
            raise GradValueError(f"Invalid learning rate: {defaults['lr']}")
        if (
            isinstance(params, Tensor)
            or isinstance(params, (str, dict))
            or not hasattr(params, "__iter__")
        ):
            raise GradTypeError(
                "params argument given to the optimizer should be an iterable "
                f"of Tensors or dicts, but got {_typename(params)}"
            )
        self.defaults, self.param_groups, self.kept = defaults, [], {}
        self.state = defaultdict(dict)
        self.watched = self.stepped = False  # a scheduler watches for step() (its warning)
        groups = list(params)
        if not groups:
            raise GradValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)
        if type(self).update is not Optimizer.update:
            for option in self.refused:
                if defaults.get(option):
                    raise GradValueError(
                        f"{type(self).__name__}({option}=True) is not supported by gradcli: "
                        "torch's implementation for it rounds differently"
                    )

    def add_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise GradTypeError(f"param_group must be a dict, but got {type_name(param_group)}")
        if "params" not in param_group:
            raise GradValueError(
                "parameter group didn't specify a value of required optimization parameter params",
                type_name="KeyError",
            )
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, (set, frozenset)):
            raise GradTypeError(
                "optimizer parameters need to be organized in ordered "
                "collections, but the ordering of tensors in sets will change "
                "between runs. Please use a list instead."
            )
        else:
            params = list(params)
        param_group["params"] = params
        for p in params:
            if not isinstance(p, Tensor):
                raise GradTypeError(
                    f"optimizer can only optimize Tensors, but one of the params is {_typename(p)}"
                )
            if p.grad_fn is not None:
                raise GradValueError("can't optimize a non-leaf Tensor")
        for key, value in self.defaults.items():
            param_group.setdefault(key, value)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in params):
            raise GradValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def replay_groups(self):
        """What a replayed loop's check compares of the optimizer (`replay_groups_same`)
        when the plan clears its parameters' gradients itself (`zero_grad()`): its groups
        list and each group's params list, by identity, and their lengths and items."""
        groups = self.param_groups
        return (
            groups,
            len(groups),
            tuple((g, g.get("params"), tuple(g.get("params") or ())) for g in groups),
        )

    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        p.grad = Tensor(np.zeros_like(p.grad.data))

    def step(self, closure=None):
        if type(self).update is Optimizer.update:  # torch.optim.Optimizer's own step
            raise GradRuntimeError("", type_name="NotImplementedError")
        if self.watched:
            self.stepped = True
        loss = None
        if closure is not None:  # the closure recomputes the loss, with grad enabled
            ctx = context.current
            mode, ctx.grad_enabled = ctx.grad_enabled, True
            try:
                loss = closure()
            finally:
                ctx.grad_enabled = mode
        for group in self.param_groups:
            if group.get("capturable"):
                raise GradAssertionError(
                    f"If capturable=True, {self.capturable_state} must be on supported "
                    f"devices: {self.capturable_devices}."
                )
            maximize, kept, update = group.get("maximize"), self.kept, self.update
            for p in group["params"]:
                grad = p.grad
                if grad is None:
                    continue
                data = p.data
                dt = data.dtype.type
                st = kept.get(id(p))
                if st is None:
                    st = kept[id(p)] = {}
                g = grad.data
                if g.dtype is not data.dtype:
                    g = g.astype(dt, copy=False)
                if maximize:  # (every library optimizer's first step)
                    g = -g
                new = update(st, data, g, group, dt)
                if type(new) is not np.ndarray or new.dtype.type is not dt:
                    new = np.asarray(new, dtype=dt)
                p.data = new
        return loss

    #: torch's assertion for capturable=True on the CPU: the state it names, the devices
    capturable_state = "params and state_steps"
    capturable_devices = ["cuda", "xpu", "hpu", "privateuseone", "xla"]
    #: options of torch's other implementations, whose arithmetic differs (refused)
    refused = ("fused", "differentiable")

    def update(self, st, p, g, o, dt):
        """A library optimizer's new values of p (overridden by each), from the gradient g
        (negated already for maximize=True)."""
        raise NotImplementedError

    def state_dict(self):
        return optim_state.state_dict(self)

    def load_state_dict(self, state_dict):
        optim_state.load_state_dict(self, state_dict, type(self).update is not Optimizer.update)

    language_methods = {
        "step": step,
        "zero_grad": zero_grad,
        "add_param_group": add_param_group,
        "state_dict": state_dict,
        "load_state_dict": load_state_dict,
    }
    language_attrs = {
        "param_groups": lambda o: o.param_groups,
        "defaults": lambda o: o.defaults,
        "state": optim_state.state_view,
    }

    def __repr__(self):
        text = f"{type(self).__name__} ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


@not_a_tensor_op(
    "SGD",
    "SGD(params, lr=0.001, momentum=0, dampening=0, weight_decay=0, nesterov=False)",
    "torch.optim.SGD: .step() moves each parameter against its .grad; .zero_grad()",
    category="optim",
)
class SGD(Optimizer):
    __slots__ = ()
    name = "SGD"

    def __init__(
        self,
        params,
        lr=0.001,
        momentum=0,
        dampening=0,
        weight_decay=0,
        nesterov=False,
        *,
        maximize=False,
        foreach=None,
        differentiable=False,
        fused=None,
    ):
        if momentum < 0:
            raise GradValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0:
            raise GradValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise GradValueError("Nesterov momentum requires a momentum and zero dampening")
        Optimizer.__init__(
            self,
            params,
            {
                "lr": lr,
                "momentum": momentum,
                "dampening": dampening,
                "weight_decay": weight_decay,
                "nesterov": nesterov,
                "maximize": maximize,
                "foreach": foreach,
                "differentiable": differentiable,
                "fused": fused,
            },
        )

    def update(self, st, p, g, o, dt):
        if not p.ndim and (dt is np.float64 or dt is np.float32):
            new = _sgd_number(st, p.item(), float(g), o, dt is np.float32)
            if new is not None:
                return np.array(new, dtype=dt)
        if not o["momentum"] and not o["weight_decay"] and p.ndim:
            # the plain step p.add_(g, alpha=-lr): add_alpha's fused step, called straight
            kind = _FMA_KINDS.get(dt)
            if kind is not None:
                new = native.quick(kind, dt(-o["lr"]), g, p)
                if new is not None:
                    return new
        m = o["momentum"]
        if p.ndim and (dt is np.float64 or dt is np.float32):
            got = _sgd_step(st, p, g, o, dt, m)
            if got is not None:
                return got
        p, g = decayed(p, g, o, dt)
        if m:
            buf = st.get("momentum_buffer")
            if buf is None:
                buf = g.copy()
            else:  # mul_(m).add_(g, alpha=1-damp)
                buf = add_alpha(buf * dt(m), g, 1 - o["dampening"], dt)
            st["momentum_buffer"] = buf
            g = add_alpha(g, buf, m, dt) if o["nesterov"] else buf
        return add_alpha(p, g, -o["lr"], dt)


#: the last options _sgd_step cast (lr, momentum, dampening, weight_decay, dtype, k4): kept
#: while a step's options are the same objects (a group's, step after step), whose values
#: (a zero's sign too) are then the same; casting them cost a microsecond a parameter
_SGD_K4 = [(None,) * 6]


def _sgd_step(st, p, g, o, dt, m):
    """SGD.update's step with weight decay or momentum by one compiled call
    (native_optim.sgd: the same fused steps), or None (nothing kept)."""
    lr, damp, wd = o["lr"], o["dampening"], o["weight_decay"]
    last = _SGD_K4[0]
    if last[0] is lr and last[1] is m and last[2] is damp and last[3] is wd and last[4] is dt:
        k4 = last[5]  # (the same option objects as the step before: the same constants)
    else:
        if type(lr) not in _OPTION or type(m) not in _OPTION or type(damp) not in _OPTION:
            return None
        if type(wd) not in _OPTION:
            return None
        k4 = (dt(wd), dt(m), dt(1 - damp), dt(-lr))
        _SGD_K4[0] = (lr, m, damp, wd, dt, k4)
    got = native_optim.sgd(p, g, st.get("momentum_buffer"), k4, wd, m, o["nesterov"])
    if got is None:
        return None
    if m:
        st["momentum_buffer"] = got[1]
    return got[0]


def _sgd_number(st, p, g, o, single):
    """SGD.update of a 0-d float64 (or float32: `single`) parameter on Python floats: the
    same roundings as the arrays' steps (a product of two values of the dtype rounded
    once, each `add_` a fused multiply-add rounded once: one_rounding, which `fma` takes
    for numbers too), without NumPy's per-call cost; None (nothing kept) where an option
    is not a number or a value not finite, and the arrays' steps run instead (a NaN's
    sign and payload)."""
    lr, m, damp, wd = o["lr"], o["momentum"], o["dampening"], o["weight_decay"]
    if (
        type(lr) not in _OPTION
        or type(m) not in _OPTION
        or type(damp) not in _OPTION
        or type(wd) not in _OPTION
        or p - p != 0.0
        or g - g != 0.0
        or not lr  # (-0.0 and 0.0 are one key of _CASTS: the arrays' steps keep the sign)
    ):
        return None
    key = (lr, m, damp, wd, single)
    options = _CASTS.get(key)
    if options is None:  # the options in the dtype, as the steps take them (dt(x))
        if len(_CASTS) > 64:
            _CASTS.clear()
        cast = _single if single else float
        options = _CASTS[key] = (cast(-lr), cast(m), cast(1 - damp), cast(wd))
    lr, m_dt, damp_dt, wd_dt = options
    if wd:
        g = one_rounding(wd_dt, p, g, single)
        if g - g != 0.0:
            return None
    buf = None
    if m:
        kept = st.get("momentum_buffer")
        if kept is None:
            buf = g
        else:
            scaled = kept.item() * m_dt
            if single:
                scaled = _single(scaled)
            if scaled - scaled != 0.0:
                return None
            buf = one_rounding(damp_dt, g, scaled, single)
            if buf - buf != 0.0:
                return None
        g = one_rounding(m_dt, buf, g, single) if o["nesterov"] else buf
        if g - g != 0.0:
            return None
    new = one_rounding(lr, g, p, single)
    if buf is not None:
        st["momentum_buffer"] = np.array(buf, dtype=np.float32 if single else np.float64)
    return new


#: the compiled fused step of each dtype (`fma`'s, through native.quick)
_FMA_KINDS = {np.float64: "fma64", np.float32: "fma32"}
_OPTION = (float, int)
#: (lr, momentum, dampening, weight_decay, single) -> -lr, momentum, 1 - dampening and
#: weight_decay in the dtype (a few options in a run: cleared past 64)
_CASTS: dict = {}


def _single(x):
    """x rounded to float32, as a Python float (an infinity beyond float32's range)."""
    try:
        return _unpack32(_pack32(x))[0]
    except OverflowError:
        return x * math.inf


_pack32, _unpack32 = struct.Struct("<f").pack, struct.Struct("<f").unpack


@not_a_tensor_op(
    "Adam",
    "Adam(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0)",
    "torch.optim.Adam: .step() takes an Adam step with each parameter's .grad; .zero_grad()",
    category="optim",
)
class Adam(Optimizer):
    __slots__ = ()
    name = "Adam"

    def __init__(
        self,
        params,
        lr=0.001,
        betas=(0.9, 0.999),
        eps=1e-08,
        weight_decay=0,
        amsgrad=False,
        *,
        foreach=None,
        maximize=False,
        capturable=False,
        differentiable=False,
        fused=None,
        decoupled_weight_decay=False,
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
                "amsgrad": amsgrad,
                "maximize": maximize,
                "foreach": foreach,
                "capturable": capturable,
                "differentiable": differentiable,
                "fused": fused,
                "decoupled_weight_decay": decoupled_weight_decay,
            },
        )

    def update(self, st, p, g, o, dt):
        beta1, beta2 = o["betas"]
        p, g = decayed(p, g, o, dt, o["decoupled_weight_decay"])
        if not st:
            st.update(step=0.0, exp_avg=np.zeros_like(p), exp_avg_sq=np.zeros_like(p))
            if o["amsgrad"]:
                st["max_exp_avg_sq"] = np.zeros_like(p)
        st["step"] += 1
        step = st["step"]
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        step_size = o["lr"] / bias_correction1
        # the whole step in one compiled loop, where it is loaded
        c, eps, value = dt(bias_correction2**0.5), dt(o["eps"]), dt(-step_size)
        got = native_optim.adam(
            st["exp_avg"],
            st["exp_avg_sq"],
            g,
            p,
            1 - beta1,
            beta2,
            c,
            eps,
            value,
            sqrt,
            st["max_exp_avg_sq"] if o["amsgrad"] else None,
        )
        if got is not None:
            st["exp_avg"], st["exp_avg_sq"], new, most = got
            if most is not None:
                st["max_exp_avg_sq"] = most
            return new
        avg, sq = moments(st, g, beta1, beta2, dt)
        if o["amsgrad"]:
            sq = st["max_exp_avg_sq"] = np.maximum(st["max_exp_avg_sq"], sq)
        denom = sqrt(sq) / dt(bias_correction2**0.5) + dt(o["eps"])
        return addcdiv(p, avg, denom, -step_size, dt)


# ------------------------------------------------ RMSprop, Adagrad, Adadelta, AdamW


@not_a_tensor_op(
    "RMSprop",
    "RMSprop(params, lr=0.01, alpha=0.99, eps=1e-08, weight_decay=0, momentum=0, centered=False)",
    "torch.optim.RMSprop: .step() divides each .grad by a running RMS",
    category="optim",
)
class RMSprop(Optimizer):
    __slots__ = ()
    name = "RMSprop"

    def __init__(
        self,
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
        Optimizer.__init__(
            self,
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

    def update(self, st, p, g, o, dt):
        alpha, m = o["alpha"], o["momentum"]
        if not st:
            st.update(step=0.0, square_avg=np.zeros_like(p))
            if m > 0:
                st["momentum_buffer"] = np.zeros_like(p)
            if o["centered"]:
                st["grad_avg"] = np.zeros_like(p)
        st["step"] += 1
        p, g = decayed(p, g, o, dt)
        sq = st["square_avg"] = squares_avg(st["square_avg"], g, alpha, dt)
        if o["centered"]:
            ga = st["grad_avg"] = lerp(st["grad_avg"], g, 1 - alpha, dt)
            avg = sqrt(fmadd(-ga, ga, sq, dt))  # addcmul(ga, ga, value=-1).sqrt_()
        else:
            avg = sqrt(sq)
        avg = avg + dt(o["eps"])
        if m > 0:  # mul_(m).addcdiv_(g, avg)
            buf = st["momentum_buffer"] = st["momentum_buffer"] * dt(m) + g / avg
            return add_alpha(p, buf, -o["lr"], dt)
        return addcdiv(p, g, avg, -o["lr"], dt)


@not_a_tensor_op(
    "Adagrad",
    "Adagrad(params, lr=0.01, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10)",
    "torch.optim.Adagrad: .step() divides each .grad by the root of its summed squares",
    category="optim",
)
class Adagrad(Optimizer):
    __slots__ = ()
    name = "Adagrad"

    def __init__(
        self,
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
        Optimizer.__init__(
            self,
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
        for group in self.param_groups:  # torch's Adagrad makes its state here, not at a step
            for p in group["params"]:
                self.kept[id(p)] = self._initial(p.data, group)

    @staticmethod
    def _initial(p, o):
        return {"step": 0.0, "sum": np.full_like(p, o["initial_accumulator_value"])}

    def update(self, st, p, g, o, dt):
        if not st:
            st.update(self._initial(p, o))
        st["step"] += 1
        p, g = decayed(p, g, o, dt)
        clr = o["lr"] / (1 + (st["step"] - 1) * o["lr_decay"])
        st["sum"] = fmadd(g, g, st["sum"], dt)  # addcmul_(g, g, value=1)
        std = sqrt(st["sum"]) + dt(o["eps"])
        return addcdiv(p, g, std, -clr, dt)


@not_a_tensor_op(
    "Adadelta",
    "Adadelta(params, lr=1.0, rho=0.9, eps=1e-06, weight_decay=0)",
    "torch.optim.Adadelta: .step() scales each .grad by the ratio of two running RMS",
    category="optim",
)
class Adadelta(Optimizer):
    __slots__ = ()
    name = "Adadelta"
    capturable_devices = ["cuda", "xpu", "hpu", "privateuseone"]

    def __init__(
        self,
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
        Optimizer.__init__(
            self,
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

    def update(self, st, p, g, o, dt):
        rho = o["rho"]
        if not st:
            st.update(step=0.0, square_avg=np.zeros_like(p), acc_delta=np.zeros_like(p))
        st["step"] += 1
        p, g = decayed(p, g, o, dt)
        sq = st["square_avg"] = squares_avg(st["square_avg"], g, rho, dt)
        std = sqrt(sq + dt(o["eps"]))  # square_avg.add(eps).sqrt_()
        delta = sqrt(st["acc_delta"] + dt(o["eps"])) / std * g  # .div_(std).mul_(g)
        st["acc_delta"] = squares_avg(st["acc_delta"], delta, rho, dt)
        return add_alpha(p, delta, -o["lr"], dt)


@not_a_tensor_op(
    "AdamW",
    "AdamW(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01)",
    "torch.optim.AdamW: Adam with decoupled weight decay",
    category="optim",
)
class AdamW(Adam):
    __slots__ = ()
    name = "AdamW"

    def __init__(
        self,
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
        betas = adam_checks(lr, eps, betas, weight_decay)
        Optimizer.__init__(
            self,
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


def replay_groups_same(opt, state):
    """Whether the optimizer's groups are those of `Optimizer.replay_groups` (a few C
    calls per group)."""
    groups, n, each = state
    if opt.param_groups is not groups or len(groups) != n:
        return False
    for g, params, items in each:
        p = g.get("params")
        if p is not params or len(p) != len(items) or any(a is not b for a, b in zip(p, items)):
            return False
    return True
