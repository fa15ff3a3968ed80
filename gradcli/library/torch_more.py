"""The rest of the torch namespace the tutorials use: torch.normal, randperm,
movedim, set_default_device, torch.accelerator (none), torch.utils.data,
torch.optim.lr_scheduler and the generator that manual_seed returns."""

from __future__ import annotations

import numpy as np

from ..engine.declare import none
from ..runtime import context
from ..numerics.random import sampling
from ..runtime.device import on_cpu
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..core import dtypes
from ..core.convert import tensor_arg, type_name
from ..core.tensor import Tensor
from ..ops.dims import norm_dims
from ..ops.creation import TorchGenerator, checked_seed, draws_from
from ..ops.registry import FUNCTIONS, Arg, register
from ..ops.shape import size_args
from . import data, optim_more
from .methods import write_


def manual_seed(seed):
    """torch.manual_seed(n): seeds the default generator and returns it."""
    context.current.generator.manual_seed(checked_seed(seed))
    return TorchGenerator.wrapping(context.current.generator)


def _float_dtype(dtype):
    dt = context.current.default_float if dtype is None else dtypes.as_numpy(dtype)
    if dt.kind != "f":
        raise GradRuntimeError(
            f"\"normal_kernel_cpu\" not implemented for '{dtypes.DType(dt)!r}'".replace(
                "torch.", ""
            ).title()
        )
    return dt


@register(
    "normal",
    "normal(mean, std, size=None)",
    "samples of N(mean, std^2): numbers and a size, or tensors of means and/or stds",
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("random values, or not a tensor op"),
    parser=None,
)
def normal(
    mean=0.0,
    std=1.0,
    size=None,
    *,
    generator=None,
    out=None,
    dtype=None,
    layout=None,
    device=None,
    pin_memory=False,
    requires_grad=False,
):
    on_cpu(device)
    gen = draws_from(generator, "normal")
    m_t, s_t = type(mean) is Tensor, type(std) is Tensor
    if not m_t and not s_t:
        if size is None:
            raise GradTypeError(
                "normal() received an invalid combination of arguments - got "
                "(float, float), but expected one of: (Tensor mean, Tensor std) "
                "or (float mean, float std, tuple of ints size)"
            )
        shape = size_args((size,))
        dt = _float_dtype(dtype)
        if std < 0:
            raise GradRuntimeError(f"normal expects std >= 0.0, but found std {float(std)}")
        return Tensor(
            sampling.normal(gen, shape, float(mean), float(std), dt), requires_grad=requires_grad
        )
    if m_t and mean.data.dtype.kind != "f" or s_t and std.data.dtype.kind != "f":
        raise GradRuntimeError('"normal" expects a floating point tensor')
    if m_t and not s_t:  # output.normal_(0, std).add_(mean)
        if std < 0:
            raise GradRuntimeError(f"normal expects std >= 0.0, but found std {float(std)}")
        noise = sampling.normal(gen, mean.data.shape, 0.0, float(std), mean.data.dtype)
        return Tensor(noise + mean.data)
    if s_t and np.any(std.data < 0):
        raise GradRuntimeError("normal expects all elements of std >= 0.0")
    ref = mean if m_t else std
    shape = np.broadcast_shapes(mean.data.shape, std.data.shape) if m_t else std.data.shape
    noise = sampling.normal(
        gen, shape, 0.0, 1.0, ref.data.dtype
    )  # normal_(0, 1).mul_(std).add_(mean)
    return Tensor((noise * std.data + (mean.data if m_t else mean)).astype(ref.data.dtype))


@register(
    "randperm",
    "randperm(n)",
    "a random permutation of 0 .. n-1 (int64)",
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("random values, or not a tensor op"),
    parser=None,
)
def randperm(
    n,
    *,
    generator=None,
    out=None,
    dtype=None,
    layout=None,
    device=None,
    pin_memory=False,
    requires_grad=False,
):
    on_cpu(device)
    if isinstance(n, bool) or not isinstance(n, int):
        raise GradTypeError(f"randperm(): argument 'n' must be int, not {type_name(n)}")
    if n < 0:
        raise GradRuntimeError(f"n must be non-negative, got{n}")
    gen = draws_from(generator, "randperm")
    out = sampling.randperm(gen, n)
    return Tensor(out if dtype is None else out.astype(dtypes.as_numpy(dtype)))


@register(
    "movedim",
    "movedim(input, source, destination)",
    "move dims source to positions destination (the others keep their order)",
    method=True,
    checks=[((Arg((2, 3, 4)), 0, 2), {}), ((Arg((2, 3, 4)), (0, 1), (2, 0)), {})],
    category="shape",
    batch="movedim",
    inplace=None,
    pure=False,
    parser=None,
)
def movedim(input, source, destination):
    x = tensor_arg(input)
    nd = x.data.ndim
    src = list(source) if isinstance(source, (list, tuple)) else [source]
    dst = list(destination) if isinstance(destination, (list, tuple)) else [destination]
    if len(src) != len(dst):
        raise GradRuntimeError(
            f"movedim: Invalid source or destination dims: source ({src} dims) "
            f"should contain the same number of dims as destination ({dst} dims)"
        )
    src = [norm_dims(d, nd)[0] for d in src]
    dst = [norm_dims(d, nd)[0] for d in dst]
    order = [-1] * nd
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(nd) if d not in src)
    order = [o if o != -1 else next(rest) for o in order]
    return FUNCTIONS["permute"](x, *order)


@register(
    "set_default_device",
    "set_default_device(device)",
    "the device new tensors are made on: gradcli has only the CPU",
    category="misc",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("random values, or not a tensor op"),
    parser=None,
)
def set_default_device(device):
    on_cpu(device)


PROFILER_NOTE = (
    "torch.autograd.profiler is not supported by gradcli: the block runs "
    "unprofiled and the table is empty"
)


class Profile:
    """torch.autograd.profiler.profile(...): runs the block, warns once, measures nothing."""

    def __init__(self, *args, **kwargs):
        context.warn(PROFILER_NOTE)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def key_averages(self, *args, **kwargs):
        return self

    def table(self, *args, **kwargs):
        return "(" + PROFILER_NOTE + ")"

    language_context = True
    language_callable = True
    language_methods = {"key_averages": key_averages, "table": table}

    def __repr__(self):
        return "<torch.autograd.profiler.profile object>"


def _in_place_check(x):
    if context.current.grad_enabled and x.requires_grad and x.grad_fn is None:
        raise GradRuntimeError(
            "a leaf Variable that requires grad is being used in an in-place operation."
        )
    if x.data.dtype.kind != "f":
        raise GradRuntimeError(
            f"expected a floating point tensor, got {dtypes.DType(x.data.dtype)}"
        )


@register(
    "normal_",
    "x.normal_(mean=0, std=1)",
    "fill x with N(mean, std^2) samples in place",
    method=True,
    function=False,
    category="tensor",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("random values, or not a tensor op"),
    parser=None,
)
def normal_method(x, mean=0.0, std=1.0, *, generator=None):
    _in_place_check(x)
    if std < 0:
        raise GradRuntimeError(f"normal expects std >= 0.0, but found std {float(std)}")
    return write_(
        x,
        sampling.normal(
            draws_from(generator, "normal_"), x.data.shape, float(mean), float(std), x.data.dtype
        ),
    )


@register(
    "uniform_",
    "x.uniform_(from=0, to=1)",
    "fill x with uniform samples in [from, to)",
    method=True,
    function=False,
    category="tensor",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("random values, or not a tensor op"),
    parser=None,
)
def uniform_method(x, a=0.0, b=1.0, *, generator=None, **kw):
    _in_place_check(x)
    a, b = kw.pop("from", a), kw.pop("to", b)
    if kw:
        raise GradTypeError(f"uniform_() got an unexpected keyword argument '{next(iter(kw))}'")
    return write_(
        x,
        sampling.uniform(
            draws_from(generator, "uniform_"), x.data.shape, float(a), float(b), x.data.dtype
        ),
    )


def namespaces(Namespace):
    """torch.accelerator, torch.utils(.data), torch.optim(.lr_scheduler), as the language's
    namespaces (`Namespace(name, members)`)."""
    return {
        "accelerator": Namespace(
            "torch.accelerator",
            {
                "is_available": lambda check_available=False: False,
                "current_accelerator": lambda check_available=False: None,
                "device_count": lambda: 0,
            },
        ),
        "utils": Namespace("torch.utils", {"data": Namespace("torch.utils.data", data.members())}),
        "optim": Namespace(
            "torch.optim",
            {"lr_scheduler": Namespace("torch.optim.lr_scheduler", dict(optim_more.SCHEDULERS))},
        ),
        "backends": Namespace(
            "torch.backends",
            {
                "mps": Namespace(
                    "torch.backends.mps", {"is_available": lambda: False, "is_built": lambda: False}
                ),
                "cuda": Namespace("torch.backends.cuda", {"is_built": lambda: False}),
            },
        ),
        "manual_seed": manual_seed,
    }
