"""torch.autograd.forward_ad: dual_level, make_dual, unpack_dual (engine/forward.py)."""

from __future__ import annotations

from ..runtime.errors import GradRuntimeError, GradTypeError
from ..core import tangents as tan
from ..core.convert import type_name
from ..core.printing import show
from ..core.tensor import Tensor
from ..engine import forward as fw


class _Public:
    """The public levels (forward_ad's); PyTorch allows one at a time."""

    stack: list = []


class DualLevel:
    """`with fwAD.dual_level():` -- a context manager for the language's `with`."""

    language_context = True

    def __enter__(self):
        if _Public.stack:
            raise GradRuntimeError("Nested forward mode AD is not supported at the moment")
        level = fw.enter_level()
        _Public.stack.append(level)
        tan.SHOWN[0] = level
        return self

    def __exit__(self, *exc):
        level = _Public.stack.pop()
        fw.exit_level(level)
        return False

    def __repr__(self):
        return "<torch.autograd.forward_ad.dual_level object>"


def dual_level():
    return DualLevel()


def _level(level):
    if level is None:
        if not _Public.stack:
            raise GradRuntimeError(
                "Trying to create a dual Tensor for forward AD but no level "
                "exists, make sure to enter_dual_level() first."
            )
        return _Public.stack[-1]
    return level


def make_dual(tensor, tangent, *, level=None):
    if not isinstance(tensor, Tensor) or not isinstance(tangent, Tensor):
        bad = tangent if isinstance(tensor, Tensor) else tensor
        raise GradTypeError(f"make_dual(): expected Tensor arguments, got {type_name(bad)}")
    return fw.make_dual(tensor, tangent, _level(level))


class UnpackedDualTensor(tuple):
    """(primal, tangent) with .primal / .tangent, as PyTorch's namedtuple."""

    language_attrs = {"primal": lambda u: u[0], "tangent": lambda u: u[1]}

    def __repr__(self):
        return f"UnpackedDualTensor(primal={show(self[0])}, tangent={show(self[1])})"


def unpack_dual(tensor, *, level=None):
    if not isinstance(tensor, Tensor):
        return UnpackedDualTensor((tensor, None))
    if level is None:
        level = _Public.stack[-1] if _Public.stack else None
    t = None if level is None else fw.tangent_of(tensor, level)
    return UnpackedDualTensor((fw.primal_view(tensor), t))


def enter_dual_level():
    DualLevel().__enter__()
    return 0


def exit_dual_level(*, level=None):
    if not _Public.stack:
        raise GradRuntimeError(
            "Trying to exit a forward AD level that was not the last one "
            "that was created. This is not supported."
        )
    DualLevel().__exit__(None, None, None)


MEMBERS = {
    "dual_level": dual_level,
    "make_dual": make_dual,
    "unpack_dual": unpack_dual,
    "enter_dual_level": enter_dual_level,
    "exit_dual_level": exit_dual_level,
    "UnpackedDualTensor": UnpackedDualTensor,
}
