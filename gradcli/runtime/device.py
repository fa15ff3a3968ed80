"""Devices.  gradcli computes on the CPU only; `torch.device`, `device=` arguments,
`x.to(device)` and `torch.cuda.is_available()` exist so that PyTorch code written
to run anywhere (`device = "cuda" if torch.cuda.is_available() else "cpu"`) runs
unchanged.  Naming any other device is PyTorch's error on a CPU-only build."""

from __future__ import annotations

from .errors import GradAssertionError, GradRuntimeError

# the device types torch's parser knows, in the order its error message lists them
TYPES = (
    "cpu",
    "cuda",
    "ipu",
    "xpu",
    "mkldnn",
    "opengl",
    "opencl",
    "ideep",
    "hip",
    "ve",
    "fpga",
    "maia",
    "xla",
    "lazy",
    "vulkan",
    "mps",
    "meta",
    "hpu",
    "mtia",
    "privateuseone",
)


class Device:
    """torch.device: a type and an optional index."""

    __slots__ = ("type", "index")

    def __init__(self, type_: str, index=None):
        self.type, self.index = type_, index

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        return type(other) is Device and (other.type, other.index) == (self.type, self.index)

    def __hash__(self):
        return hash((self.type, self.index))


CPU = Device("cpu")


def device(spec, index=None) -> Device:
    """torch.device("cpu"), torch.device("cuda:1"), torch.device("cpu", 0)."""
    if type(spec) is Device:
        return spec
    if isinstance(spec, bool) or not isinstance(spec, (str, int)):
        raise GradRuntimeError(f"device(): expected a device string, got {type(spec).__name__}")
    if isinstance(spec, int):
        raise GradRuntimeError("Cannot access accelerator device when none is available.")
    kind, sep, num = spec.partition(":")
    if kind not in TYPES:
        raise GradRuntimeError(
            f"Expected one of {', '.join(TYPES)} device type at start of device string: {spec}"
        )
    if sep:
        if not num.isdigit() or (len(num) > 1 and num[0] == "0") or index is not None:
            raise GradRuntimeError(f"Invalid device string: '{spec}'")
        index = int(num)
    return Device(kind, index)


def on_cpu(spec) -> Device:
    """A `device=` argument: the CPU (any index), or PyTorch's error for the others."""
    if spec is None:
        return CPU
    d = device(spec)
    if d.type == "cpu":
        return d
    if d.type == "cuda":
        raise GradAssertionError("Torch not compiled with CUDA enabled")
    raise GradRuntimeError(
        f"PyTorch is not linked with support for {d.type} devices",
        hint="gradcli computes on the CPU only",
    )
