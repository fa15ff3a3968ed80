"""The `torch` namespace and the settings a program can change: seed, printing
precision, default dtype; assert_close; the names every program starts with."""

from __future__ import annotations

import math
import types

import numpy as np

from ..engine.declare import none
from ..core import dtypes
from ..core.convert import tensor_arg, to_array, type_name
from ..runtime.errors import GradAssertionError, GradTypeError, GradValueError
from ..ops.registry import BUILTINS, register
from ..ops.shape import size_args
from ..ops.inverse import linalg_inv
from .autograd_api import ENABLE_GRAD, NO_GRAD
from .values import GradModeContext, Module, Size, truth
from .torch_names import name_classes
from . import calculus, nn as nn_library, random_api, saved_hooks, torch_more, transforms
from ..core.tensor import Tensor
from ..core.printing import DEFAULT_PRINTOPTS
from ..runtime import context
from ..runtime.settings import accepts


@register(
    "seed",
    "seed(n)",
    "seed the random generator (as torch.manual_seed)",
    category="misc",
    aliases=("manual_seed",),
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a tensor op"),
    parser=None,
)
def seed(n):
    if isinstance(n, Tensor):
        n = n.item()
    if isinstance(n, bool) or not isinstance(n, int):
        raise GradTypeError("seed(): expected an integer")
    torch_more.manual_seed(n)


@register(
    "is_tensor",
    "is_tensor(x)",
    "whether x is a tensor",
    category="misc",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a tensor op"),
    parser=None,
)
def is_tensor(x):
    return isinstance(x, Tensor)


@register(
    "numel",
    "numel(x)",
    "number of elements",
    category="misc",
    batch="numel",
    inplace=None,
    pure=False,
    checks=none("not a tensor op"),
    parser=None,
)
def numel_fn(x):
    return int(tensor_arg(x).data.size)


_PROFILES = {
    "default": (4, 1000, 3, 80),
    "short": (2, 1000, 2, 80),
    "full": (4, math.inf, 3, 80),
}  # precision, threshold, edgeitems, linewidth


@register(
    "set_printoptions",
    "set_printoptions(precision=None, threshold=None, edgeitems=None, "
    "linewidth=None, profile=None, sci_mode=None)",
    "print options as torch's (precision, summarising, line width, scientific notation)",
    category="misc",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a tensor op"),
    parser=None,
)
def set_printoptions(
    precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None
):
    ctx = context.current
    thr, edge, _ = ctx.printopts or DEFAULT_PRINTOPTS
    if profile in _PROFILES:  # as torch: an unknown profile changes nothing
        ctx.precision, thr, edge, ctx.linewidth = _PROFILES[profile]
    if precision is not None:
        p = int(precision)
        if p not in accepts("precision"):  # as --precision
            raise GradValueError(
                f"set_printoptions(): precision must be {accepts('precision')}, got {p}"
            )
        ctx.precision = p
    if threshold is not None:
        thr = threshold
    if edgeitems is not None:
        edge = int(edgeitems)
        if edge < 1:
            raise GradValueError(f"set_printoptions(): edgeitems must be at least 1, got {edge}")
    if linewidth is not None:
        ctx.linewidth = int(linewidth)
    opts = (thr, edge, None if sci_mode is None else bool(sci_mode))  # sci_mode: always set
    ctx.printopts = None if opts == DEFAULT_PRINTOPTS else opts


@register(
    "set_default_dtype",
    "set_default_dtype(dtype)",
    "float64 (default) or float32",
    category="misc",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a tensor op"),
    parser=None,
)
def set_default_dtype(dtype):
    dt = dtypes.as_numpy(dtype)
    if dt.kind != "f":
        raise GradTypeError("only floating-point types are supported as the default type")
    context.current.default_float = dt


@register(
    "get_default_dtype",
    "get_default_dtype()",
    "the default floating dtype",
    category="misc",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a tensor op"),
    parser=None,
)
def get_default_dtype():
    return dtypes.DType(context.current.default_float)


# ---------------------------------------------------------------- asserts


@register(
    "assert_close",
    "assert_close(a, b, tol=1e-6)",
    "fail (exit 1) unless a and b are equal within tol, element-wise",
    category="misc",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a tensor op"),
    parser=None,
)
def assert_close(a, b, tol=1e-6, rtol=None, atol=None):
    x, y = to_array(a).astype(np.float64), to_array(b).astype(np.float64)
    try:
        np.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        raise GradAssertionError(f"shapes differ: {list(x.shape)} and {list(y.shape)}")
    atol = tol if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    ok = np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=True)
    if not np.all(ok):
        diff = np.abs(x - y)
        worst = (
            np.unravel_index(np.nanargmax(np.where(ok, -1, diff)), diff.shape) if diff.ndim else ()
        )
        raise GradAssertionError(
            f"values differ: largest difference {float(diff[worst]):.6g} at index "
            f"{list(map(int, worst))} (tolerance {atol:g})"
        )


# ---------------------------------------------------------------- namespace

CONSTANTS = {"pi": math.pi, "inf": math.inf, "nan": math.nan, "e": math.e}
DTYPE_NAMES = {n: dtypes.DType(dt) for n, dt in dtypes.NAMES.items()}
DTYPE_NAMES.update(
    {
        "float16": dtypes.DType(np.float16),
        "half": dtypes.DType(np.float16),
        "int32": dtypes.DType(np.int32),
        "uint8": dtypes.DType(np.uint8),
        "int8": dtypes.DType(np.int8),
        "int16": dtypes.DType(np.int16),
        "short": dtypes.DType(np.int16),
    }
)

_namespace = None


def inference_mode(mode=True):
    """torch.inference_mode(mode=True): no graph is recorded in its block (as no_grad;
    gradcli has no inference tensors); as a decorator, in the function's body."""
    label = "torch.autograd.grad_mode.inference_mode object"
    if callable(mode) and not isinstance(mode, bool):  # @torch.inference_mode, no brackets
        return GradModeContext(False, label)(mode)
    return GradModeContext(not truth(mode), label)


def namespace() -> dict:
    """Names every program starts with (read-only: a program's own variables shadow them)."""
    global _namespace
    if _namespace is None:
        ns = {}
        for name, entry in BUILTINS.items():
            if entry.function and "." not in name:  # (linalg.vector_norm: torch.linalg's)
                ns[name] = entry.fn
        ns.update(CONSTANTS)
        for name in (
            "float64",
            "float32",
            "double",
            "int64",
            "long",
            "int32",
            "float16",
            "half",
            "uint8",
        ):
            ns[name] = DTYPE_NAMES[name]
        ns["no_grad"] = NO_GRAD
        ns["enable_grad"] = ENABLE_GRAD
        torch_members = dict(DTYPE_NAMES)
        torch_members.update(
            {
                "no_grad": NO_GRAD,
                "enable_grad": ENABLE_GRAD,
                "pi": math.pi,
                "inf": math.inf,
                "nan": math.nan,
                "e": math.e,
                "Size": lambda s=(): Size(size_args((s,))),
                "from_numpy": from_numpy,
            }
        )
        functional = Module("torch.nn.functional", dict(nn_library.FUNCTIONAL))
        nn = Module("torch.nn", {"functional": functional, **nn_library.members(Module)})
        autograd_functional = Module("torch.autograd.functional")
        autograd = Module(
            "torch.autograd",
            {
                "functional": autograd_functional,
                "gradcheck": calculus.torch_gradcheck,
                "profiler": Module("torch.autograd.profiler", {"profile": torch_more.Profile}),
                # PyTorch's module (library/saved_hooks.py), not gradcli's own graph() picture
                "graph": Module("torch.autograd.graph", dict(saved_hooks.MEMBERS)),
            },
        )
        cuda = Module("torch.cuda", {"is_available": lambda: False, "device_count": lambda: 0})
        torch_members.update(
            {
                "nn": nn,
                "autograd": autograd,
                "cuda": cuda,
                "linalg": Module(
                    "torch.linalg",
                    {"inv": linalg_inv, "vector_norm": BUILTINS["linalg.vector_norm"].fn},
                ),
            }
        )
        torch_members.update(torch_more.namespaces(Module))
        torch_members.update(random_api.namespace_members())
        torch_members["inference_mode"] = inference_mode
        transforms.install(torch_members, autograd, autograd_functional)
        ns["torch"] = Module("torch", torch_members)
        ns["F"] = functional
        for members in (ns, torch_members, cuda.members):
            _name_functions(members)
        name_classes(ns)
        _namespace = ns
    return _namespace


def from_numpy(a):
    """torch.from_numpy(a): a tensor sharing a's memory (writes show in both)."""
    if not isinstance(a, np.ndarray):
        raise GradTypeError(f"expected np.ndarray (got {type_name(a)})")
    if a.dtype.name not in ("float64", "float32", "float16", "int64", "int32", "uint8", "bool"):
        raise GradTypeError(
            f"can't convert np.ndarray of type numpy.{a.dtype.name}. The only supported types "
            "are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, "
            "uint64, uint32, uint16, uint8, and bool."
        )
    return Tensor(a)


def _name_functions(members):
    """Give each built-in function its language name, so it prints as `<built-in function
    relu>` (core.printing.callable_name), not as Python's `<function unary.<locals>.fn ...>`."""
    for name, v in members.items():
        if isinstance(v, types.FunctionType) and getattr(v, "_gradcli_name", None) is None:
            v._gradcli_name = name
