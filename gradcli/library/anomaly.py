"""torch.autograd's anomaly mode: `detect_anomaly(check_nan=True)` and
`set_detect_anomaly(mode, check_nan=True)` (context managers; the second sets the mode
when it is made, as PyTorch's), `torch.is_anomaly_enabled()` and
`torch.is_anomaly_check_nan_enabled()`. The mode is the run's (`Context.anomaly`); with
its NaN check on, a backward pass checks each node's gradients as PyTorch's engine does
(engine/observe.py `active`): a NaN is PyTorch's error, "Function 'DivBackward0' returned
nan values in its 1th output.", after its warning naming the node."""

from __future__ import annotations

from ..runtime import context
from ..runtime.errors import GradTypeError
from ..core.convert import type_name

_WARNING = (
    "Anomaly Detection has been enabled. This mode will increase the runtime and should "
    "only be enabled for debugging."
)


def _flag(v, what):
    if not isinstance(v, bool):
        raise GradTypeError(f"{what}(): argument 'enabled' must be bool, not {type_name(v)}")
    return v


class DetectAnomaly:
    """`with torch.autograd.detect_anomaly():` (PyTorch warns when it is made)."""

    __slots__ = ("check_nan", "prev")
    language_callable = True
    language_context = True

    def __init__(self, check_nan=True):
        self.check_nan = _flag(check_nan, "set_anomaly_enabled")
        self.prev = None
        context.current.warn(_WARNING)

    def __enter__(self):
        self.prev = context.current.anomaly
        context.current.anomaly = (True, self.check_nan)
        return None

    def __exit__(self, *exc):
        context.current.anomaly = self.prev
        return False


class SetDetectAnomaly:
    """`torch.autograd.set_detect_anomaly(mode, check_nan=True)`: the mode set now, and
    set back when a `with` block over it ends."""

    __slots__ = ("prev",)
    language_callable = True
    language_context = True

    def __init__(self, mode, check_nan=True):
        self.prev = context.current.anomaly
        state = (_flag(mode, "set_anomaly_enabled"), _flag(check_nan, "set_anomaly_enabled"))
        context.current.anomaly = context.ANOMALY_OFF if state == context.ANOMALY_OFF else state

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        context.current.anomaly = self.prev
        return False


def is_anomaly_enabled():
    """Whether anomaly mode is on (torch.autograd.detect_anomaly, set_detect_anomaly)."""
    return context.current.anomaly[0]


def is_anomaly_check_nan_enabled():
    """Whether anomaly mode checks each backward node's gradients for NaN."""
    return context.current.anomaly[1]
