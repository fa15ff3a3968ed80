"""torch.amp as training scripts use it behind a `use_amp` switch: `torch.autocast`
(and `torch.amp.autocast`, `torch.cpu.amp.autocast`, `torch.cuda.amp.autocast`) and
`torch.amp.GradScaler` (and `torch.cuda.amp.GradScaler`).

An autocast that is off runs its block as it is; one that is on would run the block's
matmuls in bfloat16 or float16, which gradcli does not do: it is refused in those words.
A scaler that is on multiplies the loss by its scale (a float32 number: 2**16 unless
given), unscales the gradients before the step (skipped, and the scale halved, when one
is not finite) and grows the scale after `growth_interval` clean steps, as PyTorch's; a
scaler of CUDA (no CUDA here) is off, with PyTorch's warning, and one that is off passes
the loss and the step through."""

from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor
from ..engine import versions
from ..ops.registry import FUNCTIONS
from ..runtime import context
from ..runtime.errors import GradRuntimeError


class Autocast:
    """torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None): a
    context manager (and decorator) whose block runs as it is when it is off."""

    __slots__ = ("device_type", "enabled", "prev")
    language_callable = True
    language_context = True

    def __init__(self, device_type="cpu", dtype=None, enabled=True, cache_enabled=None):
        self.device_type, self.enabled, self.prev = device_type, bool(enabled), []
        if self.enabled and device_type == "cuda":
            context.warn(
                "User provided device_type of 'cuda', but CUDA is not available. Disabling"
            )
            self.enabled = False
        if self.enabled:
            raise GradRuntimeError(
                "torch.autocast that is enabled is not supported by gradcli (it computes in "
                "the tensors' own dtypes, not in bfloat16 or float16): pass enabled=False",
                type_name="NotImplementedError",
            )

    def __enter__(self):
        self.prev.append(_STATE.get("enabled", False))
        _STATE["enabled"] = False
        return self

    def __exit__(self, *exc):
        _STATE["enabled"] = self.prev.pop()
        return False

    def __call__(self, fn):
        def decorated(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)

        return decorated

    def __repr__(self):
        return "<torch.autocast object>"


_STATE: dict = {}


def _deprecated_autocast(device):
    def make(enabled=True, dtype=None, cache_enabled=True):
        context.current.warn(
            f"`torch.{device}.amp.autocast(args...)` is deprecated. Please use "
            f"`torch.amp.autocast('{device}', args...)` instead.",
            "FutureWarning",
        )
        return Autocast(device, dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)

    return make


def is_autocast_enabled(device_type=None):
    return False


class GradScaler:
    """torch.amp.GradScaler(device="cuda", init_scale=2.0**16, growth_factor=2.0,
    backoff_factor=0.5, growth_interval=2000, enabled=True)."""

    language_callable = True

    def __init__(
        self,
        device="cuda",
        init_scale=2.0**16,
        growth_factor=2.0,
        backoff_factor=0.5,
        growth_interval=2000,
        enabled=True,
    ):
        if enabled and device == "cuda":
            context.warn(
                "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling."
            )
            enabled = False
        self._enabled = bool(enabled)
        self._scale = np.float32(init_scale)
        self._growth_factor, self._backoff_factor = float(growth_factor), float(backoff_factor)
        self._growth_interval, self._growth_tracker = int(growth_interval), 0
        self._per_optimizer: dict = {}  # id(optimizer) -> [stage, found_inf]

    def scale(self, outputs):
        if not self._enabled:
            return outputs
        if isinstance(outputs, (list, tuple)):
            return type(outputs)(self.scale(o) for o in outputs)
        return FUNCTIONS["mul"](outputs, Tensor(np.array(self._scale, dtype=np.float32)))

    def _state(self, optimizer):
        return self._per_optimizer.setdefault(id(optimizer), ["ready", False])

    def unscale_(self, optimizer):
        if not self._enabled:
            return
        state = self._state(optimizer)
        if state[0] == "unscaled":
            raise GradRuntimeError(
                "unscale_() has already been called on this optimizer since the last update()."
            )
        if state[0] == "stepped":
            raise GradRuntimeError("unscale_() is being called after step().")
        inv = np.float32(np.float64(self._scale) ** -1)  # (PyTorch's: double, then float)
        found = False
        for group in optimizer.param_groups:
            for p in group["params"]:
                g = p.grad
                if g is None:
                    continue
                found = found or not bool(np.isfinite(g.data).all())
                np.multiply(g.data, g.data.dtype.type(inv), out=g.data)
                versions.bump(g)
        state[0], state[1] = "unscaled", found

    def step(self, optimizer, *args, **kwargs):
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise GradRuntimeError(
                "Closure use is not currently supported if GradScaler is enabled."
            )
        state = self._state(optimizer)
        if state[0] == "stepped":
            raise GradRuntimeError("step() has already been called since the last update().")
        if state[0] == "ready":
            self.unscale_(optimizer)
        result = None if state[1] else optimizer.step(*args, **kwargs)
        state[0] = "stepped"
        return result

    def update(self, new_scale=None):
        if not self._enabled:
            return
        if new_scale is not None:
            value = new_scale.item() if isinstance(new_scale, Tensor) else new_scale
            self._scale = np.float32(value)
        else:
            if not self._per_optimizer:
                raise GradRuntimeError(
                    "No inf checks were recorded prior to update.", type_name="AssertionError"
                )
            if any(found for _, found in self._per_optimizer.values()):
                self._scale = np.float32(self._scale * np.float32(self._backoff_factor))
                self._growth_tracker = 0
            else:
                self._growth_tracker += 1
                if self._growth_tracker == self._growth_interval:
                    self._scale = np.float32(self._scale * np.float32(self._growth_factor))
                    self._growth_tracker = 0
        self._per_optimizer = {}

    def get_scale(self):
        return float(self._scale) if self._enabled else 1.0

    def is_enabled(self):
        return self._enabled

    def get_growth_factor(self):
        return self._growth_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def get_growth_interval(self):
        return self._growth_interval

    def state_dict(self):
        if not self._enabled:
            return {}
        return {
            "scale": float(self._scale),
            "growth_factor": self._growth_factor,
            "backoff_factor": self._backoff_factor,
            "growth_interval": self._growth_interval,
            "_growth_tracker": self._growth_tracker,
        }

    def load_state_dict(self, state_dict):
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise GradRuntimeError(
                "The source state dict is empty, possibly because it was saved "
                "from a disabled instance of GradScaler."
            )
        self._scale = np.float32(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._growth_tracker = state_dict["_growth_tracker"]

    def __repr__(self):
        return "<torch.amp.grad_scaler.GradScaler object>"


GradScaler.language_methods = {
    name: GradScaler.__dict__[name]
    for name in (
        "scale",
        "unscale_",
        "step",
        "update",
        "get_scale",
        "is_enabled",
        "get_growth_factor",
        "get_backoff_factor",
        "get_growth_interval",
        "state_dict",
        "load_state_dict",
    )
}


def _deprecated_scaler(
    init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000, enabled=True
):
    context.current.warn(
        "`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
        "`torch.amp.GradScaler('cuda', args...)` instead.",
        "FutureWarning",
    )
    return GradScaler("cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled)


def namespaces(Namespace):
    """torch.amp, torch.cpu and torch.cuda's amp modules, and torch's own names."""
    amp = Namespace("torch.amp", {"autocast": Autocast, "GradScaler": GradScaler})
    return {
        "amp": amp,
        "autocast": Autocast,
        "is_autocast_enabled": is_autocast_enabled,
        "cpu_amp": Namespace("torch.cpu.amp", {"autocast": _deprecated_autocast("cpu")}),
        "cuda_amp": Namespace(
            "torch.cuda.amp",
            {"autocast": _deprecated_autocast("cuda"), "GradScaler": _deprecated_scaler},
        ),
    }
