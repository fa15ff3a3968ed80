"""torch.nn's padding layers: nn.ZeroPad1d/2d/3d, nn.ConstantPad1d/2d/3d,
nn.ReflectionPad1d/2d/3d, nn.ReplicationPad1d/2d/3d and nn.CircularPad1d/2d/3d, each
F.pad with its mode (ops/padding.py), with PyTorch's reprs: an int padding is that many
on every side of the module's dims, a tuple is kept as given."""

from __future__ import annotations

from ...ops import batching
from ...runtime.errors import GradValueError
from .module import Module


class PadNd(Module):
    """PyTorch's _ConstantPadNd, _ReflectionPadNd ...: `mode` and `dims` per class."""

    mode = "constant"
    dims = 1

    def __init__(self, padding):
        super().__init__()
        self.padding = (padding,) * (2 * self.dims) if isinstance(padding, int) else tuple(padding)

    def forward(self, input):
        return batching.op("pad", input, self.padding, mode=self.mode)

    def extra_repr(self):
        return f"{self.padding}"


class ConstantPadNd(PadNd):
    def __init__(self, padding, value):
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return batching.op("pad", input, self.padding, mode="constant", value=self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ZeroPadNd(ConstantPadNd):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class CircularPadNd(PadNd):
    mode = "circular"

    def forward(self, input):
        n = len(getattr(input, "shape", ()))
        if n not in (self.dims + 1, self.dims + 2):
            raise GradValueError(
                f"expected {self.dims + 1}D or {self.dims + 2}D input (got {n}D input)"
            )
        return super().forward(input)


def _layers():
    out = {}
    for dims in (1, 2, 3):
        for kind, base in (
            ("Zero", ZeroPadNd),
            ("Constant", ConstantPadNd),
            ("Reflection", PadNd),
            ("Replication", PadNd),
            ("Circular", CircularPadNd),
        ):
            name = f"{kind}Pad{dims}d"
            mode = {"Zero": "constant", "Constant": "constant"}.get(kind, kind.lower())
            mode = {"reflection": "reflect", "replication": "replicate"}.get(mode, mode)
            what = "zeros" if kind == "Zero" else "value" if kind == "Constant" else mode
            attrs = {
                "dims": dims,
                "mode": mode,
                "__module__": __name__,
                "__qualname__": name,
                "__doc__": f"pads the last {dims} dims of the input ({what}): F.pad, mode {mode}",
            }
            out[name] = type(name, (base,), attrs)
    return out


PADDING = _layers()
