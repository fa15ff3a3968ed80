"""torch.backends as PyTorch's CPU build has it, and the switches of determinism and
matmul precision that training scripts set before they start: `torch.backends.cudnn`'s
flags (`deterministic`, `benchmark`, `enabled`, `allow_tf32`), `torch.backends.cuda.matmul`'s
and `torch.backends.mkldnn`'s, read and set as module attributes (each run's own values,
from PyTorch's defaults; `cuda.matmul.allow_tf32` is float32 matmul precision below
"highest", as PyTorch's); `torch.use_deterministic_algorithms` and
`torch.set_float32_matmul_precision` with their queries; `torch.set_num_threads`.  Nothing here changes what gradcli
computes: it runs one CPU path, the same with any of them."""

from __future__ import annotations

import os

from ..core.convert import type_name
from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradTypeError
from .values import Module

# each module's flags and PyTorch's defaults (a CPU build: cuDNN not available)
_FLAGS = {
    "torch.backends.cudnn": {
        "enabled": True,
        "benchmark": False,
        "deterministic": False,
        "allow_tf32": True,
        "benchmark_limit": 10,
    },
    "torch.backends.cuda.matmul": {
        "allow_fp16_reduced_precision_reduction": True,
        "allow_bf16_reduced_precision_reduction": True,
    },
    "torch.backends.mkldnn": {"enabled": True, "deterministic": False},
}


_MATMUL = "torch.backends.cuda.matmul"


def _flags(name):
    """This run's flags of the module `name` (PyTorch's defaults at the run's start)."""
    state = context.current.backend_flags
    if state is None:
        state = context.current.backend_flags = {}
    if name not in state:
        state[name] = dict(_FLAGS[name])
    return state[name]


class FlagModule(Module):
    """A module of torch.backends whose flags the program reads and sets."""

    __slots__ = ()

    def get(self, attr, builtins):
        if attr == "allow_tf32" and self.name == _MATMUL:  # (float32 matmul precision's)
            return _flags_of_run()["fp32"] != "highest"
        flags = _flags(self.name)
        if attr in flags:
            return flags[attr]
        return super().get(attr, builtins)

    def language_getattr(self, name):
        return self.get(name, {})

    def language_setattr(self, name, value):
        if name == "allow_tf32" and self.name == _MATMUL:
            _flags_of_run()["fp32"] = "high" if value else "highest"
            return
        _flags(self.name)[name] = value


def _bool_arg(fn, name, value, position):
    if value is not True and value is not False:
        raise GradTypeError(
            f"{fn}(): argument '{name}' (position {position}) must be bool, not {type_name(value)}"
        )


def use_deterministic_algorithms(mode, *, warn_only=False):
    _bool_arg("_set_deterministic_algorithms", "mode", mode, 1)
    state = _flags_of_run()
    state["deterministic"], state["warn_only"] = mode, bool(warn_only) and mode


def _flags_of_run():
    state = context.current.backend_flags
    if state is None:
        state = context.current.backend_flags = {}
    return state.setdefault(
        "torch", {"deterministic": False, "warn_only": False, "fp32": "highest"}
    )


def set_float32_matmul_precision(precision):
    if precision not in ("highest", "high", "medium"):
        context.warn(
            f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
            "setFloat32MatmulPrecision call has no effect."
        )
        return
    _flags_of_run()["fp32"] = precision


def set_num_threads(n):
    """torch.set_num_threads(n): what get_num_threads() then gives (gradcli's own threads
    are its own: the values are the same with any)."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise GradRuntimeError(f"set_num_threads expects an int, but got {type_name(n)}")
    if n <= 0:
        raise GradRuntimeError("set_num_threads expects a positive integer")
    _flags_of_run()["threads"] = n


def get_num_threads():
    return _flags_of_run().get("threads") or os.cpu_count() or 1


FUNCTIONS = {
    "set_num_threads": set_num_threads,
    "get_num_threads": get_num_threads,
    "use_deterministic_algorithms": use_deterministic_algorithms,
    "are_deterministic_algorithms_enabled": lambda: _flags_of_run()["deterministic"],
    "is_deterministic_algorithms_warn_only_enabled": lambda: _flags_of_run()["warn_only"],
    "set_float32_matmul_precision": set_float32_matmul_precision,
    "get_float32_matmul_precision": lambda: _flags_of_run()["fp32"],
}


def namespace():
    """torch.backends."""
    return Module(
        "torch.backends",
        {
            "mps": Module(
                "torch.backends.mps", {"is_available": lambda: False, "is_built": lambda: False}
            ),
            "cuda": Module(
                "torch.backends.cuda",
                {
                    "is_built": lambda: False,
                    "matmul": FlagModule("torch.backends.cuda.matmul", {}),
                },
            ),
            "cudnn": FlagModule(
                "torch.backends.cudnn",
                {"is_available": lambda: False, "version": lambda: None},
            ),
            "mkldnn": FlagModule("torch.backends.mkldnn", {"is_available": lambda: True}),
        },
    )
