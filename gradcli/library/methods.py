"""Tensor methods that are not ops: .size(), .item(), .requires_grad_(), hooks,
.to(), casts, .backward() ...  Every op registered with method=True is a method too
(`fill_methods`, run once when the library is loaded)."""

from __future__ import annotations


import numpy as np

from ..engine.declare import none
from ..core import dtypes
from ..engine.hooks import leaf_hooks, node_watch, post_accumulate_hooks, watch
from ..engine import versions
from ..core.convert import type_name
from ..runtime.device import Device, on_cpu
from ..runtime.device import device as _device
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..ops.registry import BUILTINS, FUNCTIONS, METHOD_ONLY, internal, register
from ..ops.shape import numpy_T, to
from ..core.layout import CONTIGUOUS, PRESERVE, memory_format_arg
from .autograd_api import backward_leaves
from ..engine.straight import backward_out
from .values import METHODS, Size
from .inference import check_requires_grad, detached
from ..core.tensor import Tensor
from ..ops.dims import norm_dims, one_dim
from ..runtime.limits import check_objects

internal("numpy_T", batch="numpy_T")(numpy_T)


# ---------------------------------------------------------------- tensor methods


def _method(name, sig, doc, **kw):
    return register(name, sig, doc, method=True, function=False, category="tensor", **kw)


@_method(
    "size",
    "x.size(dim=None)",
    "the shape (torch.Size), or the size of one dim",
    batch="size",
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def size(x, dim=None):
    s = Size(x.data.shape)
    if dim is None:
        return s
    (d,) = norm_dims(dim, x.data.ndim) or (0,)
    if x.data.ndim == 0:
        raise GradRuntimeError("dimension specified as 0 but tensor has no dimensions")
    return s[d]


@_method(
    "dim",
    "x.dim()",
    "number of dims",
    batch="dim",
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def dim(x):
    return x.data.ndim


@_method(
    "numel",
    "x.numel()",
    "number of elements",
    batch="numel",
    aliases=("nelement",),
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def numel(x):
    return int(x.data.size)


@register(
    "item",
    "x.item()",
    "the value of a one-element tensor as a Python number",
    method=True,
    function=False,
    category="tensor",
    batch="item",
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def item(x):
    return x.item()


@_method(
    "tolist",
    "x.tolist()",
    "the values as (nested) Python lists",
    batch="item",
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def tolist(x):
    check_objects(x.data.size, "tolist()", 32)
    return x.data.tolist()


@_method(
    "detach",
    "x.detach()",
    "the same values, cut off from the graph",
    batch="elementwise",
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def detach(x):
    r = Tensor(x.data)
    versions.share(r, x)  # as in PyTorch: one storage, one version counter
    return detached(x, r)


@_method(
    "detach_",
    "x.detach_()",
    "cut x off from the graph in place (a leaf without requires_grad) and return x",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def detach_(x):
    if getattr(x, "view_of", None) is not None:
        raise GradRuntimeError(
            "Can't detach views in-place. Use detach() instead. If you are using "
            "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
            "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
            "called on these gradients. To fix this error, please refer to the "
            "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
        )
    x.grad_fn = None
    x.requires_grad = False
    return x


@_method(
    "requires_grad_",
    "x.requires_grad_(requires_grad=True)",
    "set requires_grad in place and return x",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def requires_grad_(x, requires_grad=True):
    if requires_grad and x.data.dtype.kind != "f":
        raise GradRuntimeError("only Tensors of floating point dtype can require gradients")
    if requires_grad:
        check_requires_grad(x)
    if not requires_grad and x.grad_fn is not None:
        raise GradRuntimeError(
            "you can only change requires_grad flags of leaf variables. If you want to use a "
            "computed variable in a subgraph that doesn't require differentiation use "
            "var_no_grad = var.detach()."
        )
    x.requires_grad = bool(requires_grad)
    return x


@_method(
    "retain_grad",
    "x.retain_grad()",
    "keep .grad for a non-leaf tensor",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def retain_grad(x):
    if not x.requires_grad:
        raise GradRuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    if x.grad_fn is not None:
        x.retains_grad = True
        watch(x).retain = True


class RemovableHandle:
    """What register_hook returns: .remove() takes the hook away."""

    __slots__ = ("hooks", "hook")

    def __init__(self, hooks, hook):
        self.hooks, self.hook = hooks, hook

    def remove(self):
        if self.hook in self.hooks:
            self.hooks.remove(self.hook)

    language_methods = {"remove": remove}

    def __repr__(self):
        return "<torch.utils.hooks.RemovableHandle object>"


def node_hook(node, hook, kind):
    """grad_fn.register_hook(fn) (kind "post": fn(grad_inputs, grad_outputs)) or
    grad_fn.register_prehook(fn) ("pre": fn(grad_outputs)); a handle to remove it."""
    if not callable(hook):
        raise GradTypeError(
            f"register_{'pre' if kind == 'pre' else ''}hook(): the hook must be a function"
        )
    w = node_watch(node)
    hooks = w.post if kind == "post" else w.pre
    hooks.append(hook)
    return RemovableHandle(hooks, hook)


@_method(
    "register_hook",
    "x.register_hook(hook)",
    "call hook(grad) whenever x's gradient is computed; a result replaces it; "
    "returns a handle with .remove()",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def register_hook(x, hook):
    if not x.requires_grad:
        raise GradRuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if not callable(hook):
        raise GradTypeError(f"register_hook(): the hook must be a function, not {type_name(hook)}")
    hooks = watch(x).hooks if x.grad_fn is not None else leaf_hooks(x)
    hooks.append(hook)
    return RemovableHandle(hooks, hook)


@register(
    "register_post_accumulate_grad_hook",
    "x.register_post_accumulate_grad_hook(hook)",
    "call hook(x) after a backward has accumulated x's .grad (a leaf); a handle to remove it",
    method=True,
    function=False,
    category="tensor",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def register_post_accumulate_grad_hook(x, hook):
    if not x.requires_grad:
        raise GradRuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if x.grad_fn is not None:
        raise GradRuntimeError(
            "post accumulate grad hooks cannot be registered on non-leaf tensors"
        )
    hooks = post_accumulate_hooks(x)
    hooks.append(hook)
    return RemovableHandle(hooks, hook)


def write_(x, values):
    """x's values replaced in place: into its array when that can be written (so
    `p.data.fill_(0)` reaches the parameter p whose array p.data shares), else rebound."""
    if versions.state.mutation_allowed is not None:
        versions.state.mutation_allowed.before_write(x)
    arr = x.data
    if (
        isinstance(arr, np.ndarray)
        and arr.flags.writeable
        and arr.shape == values.shape
        and arr.dtype == values.dtype
    ):
        arr[...] = values
    else:
        x.data = values
    versions.bump(x)
    return x


@_method(
    "backward",
    "x.backward(gradient=None, retain_graph=False, create_graph=False, inputs=None)",
    "accumulate gradients of x into the leaves' .grad",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def backward_method(x, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    if (
        gradient is None
        and retain_graph is None
        and create_graph is False
        and inputs is None
        and type(x) is Tensor
    ):  # loss.backward(): backward_leaves' first case
        backward_out(x)
        return
    backward_leaves(x, gradient, retain_graph, create_graph, inputs=inputs)


@_method(
    "to",
    "x.to(dtype), x.to(device, dtype), x.to(other, copy=False)",
    "x converted to dtype (x itself if it has it already, unless copy=true)",
    batch="elementwise",
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def to_method(
    x, *args, dtype=None, device=None, non_blocking=False, copy=False, memory_format=None, **unknown
):
    if unknown:
        got = ", ".join(f"{k}={type_name(v)}" for k, v in unknown.items())
        raise GradTypeError(
            f"to() received an invalid combination of arguments - got ({got}, ), "
            "but expected one of:"
        )
    args = list(args)
    if args and (args[0] is None or isinstance(args[0], (str, Device))):
        device = args.pop(0)
    if args and not isinstance(args[0], bool):
        dtype = args.pop(0)
    if args:
        non_blocking = args.pop(0)
    if args:
        copy = args.pop(0)
    if args or not isinstance(non_blocking, bool) or not isinstance(copy, bool):
        raise GradTypeError(
            "to() received an invalid combination of arguments: expected "
            "to(device=None, dtype=None, non_blocking=False, copy=False) or "
            "to(other, non_blocking=False, copy=False)"
        )
    on_cpu(device)
    if isinstance(dtype, Tensor):
        dtype = dtype.data.dtype
    dt = x.data.dtype if dtype is None else dtypes.as_numpy(dtype)
    return to(x, dt, copy=copy)


@_method(
    "type_as",
    "x.type_as(other)",
    "x converted to other's dtype (x itself if it has it)",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def type_as(x, other):
    if not isinstance(other, Tensor):
        raise GradTypeError(
            f"type_as(): argument 'other' (position 1) must be Tensor, not {type_name(other)}"
        )
    return to(x, other.data.dtype)


@_method(
    "cpu",
    "x.cpu()",
    "x itself (gradcli computes on the CPU)",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def cpu(x):
    return x


@_method(
    "cuda",
    "x.cuda()",
    "an error: gradcli computes on the CPU only",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def cuda(x, device=None, non_blocking=False):
    on_cpu("cuda")


@register(
    "device",
    "device(type)",
    "torch.device: 'cpu' (the only one gradcli computes on)",
    category="misc",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def device(type, index=None):
    return _device(type, index)


@_method(
    "type",
    "x.type(dtype=None)",
    "the type name, or a copy converted to dtype",
    batch="elementwise",
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def type_method(x, dtype=None):
    if dtype is None:
        return dtypes.legacy_type(x.data)
    return to(x, dtypes.as_numpy(dtype))


def _cast_method(name, dt, batch):
    _method(
        name,
        f"x.{name}()",
        f"a copy as {dtypes.TORCH_NAMES.get(dt, 'torch.' + dt.name)}",
        batch=batch,
        inplace=None,
        pure=True,
        checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
        parser=None,
    )(lambda x: to(x, dt))


_cast_method("double", dtypes.float64, "elementwise")
_cast_method("long", dtypes.int64, "elementwise")
_cast_method("char", np.dtype(np.int8), None)
_cast_method("short", np.dtype(np.int16), None)
_cast_method("half", np.dtype(np.float16), None)


@_method(
    "float",
    "x.float()",
    "a copy as torch.float32",
    batch="elementwise",
    inplace=None,
    pure=True,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def _float_m(x):
    return to(x, dtypes.float32)


@_method(
    "int",
    "x.int()",
    "a copy as torch.int32",
    batch="elementwise",
    inplace=None,
    pure=True,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def _int_m(x):
    return to(x, np.dtype(np.int32))


@_method(
    "bool",
    "x.bool()",
    "a copy as torch.bool",
    batch="elementwise",
    inplace=None,
    pure=True,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def _bool_m(x):
    return to(x, dtypes.bool_)


@_method(
    "is_floating_point",
    "x.is_floating_point()",
    "whether the dtype is floating",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def is_floating_point(x):
    return x.data.dtype.kind == "f"


@_method(
    "contiguous",
    "x.contiguous(memory_format=torch.contiguous_format)",
    "x itself, or a contiguous copy (CloneBackward0)",
    batch="elementwise",
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def contiguous(x, memory_format=CONTIGUOUS):
    if memory_format_arg(memory_format, "contiguous", none=None) is PRESERVE:
        raise GradRuntimeError("preserve memory format is unsupported by the contiguous operator")
    return x if x.data.flags.c_contiguous else FUNCTIONS["clone"](x, memory_format=CONTIGUOUS)


@_method(
    "stride",
    "x.stride(dim=None)",
    "the steps, in elements, between neighbours along each dim (a tuple, or dim's)",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def stride(x, dim=None):
    steps = tuple(s // x.data.itemsize for s in x.data.strides)
    if dim is None:
        return steps
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise GradTypeError(
            f"stride() received an invalid combination of arguments - got ({type_name(dim)}), "
            "but expected one of:\n * (int dim)\n * ()"
        )
    d = one_dim(dim, x.data.ndim)
    return steps[d] if steps else 1


@_method(
    "numpy",
    "x.numpy(force=False)",
    "the values as a NumPy array (shown as NumPy shows it)",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a differentiable op, or a cast the gradient tests do not sample"),
    parser=None,
)
def numpy_(x, *, force=False):
    if x.requires_grad and not force:
        raise GradRuntimeError(
            "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
        )
    return x.data


# tensor methods: every registered op with method=True, plus the ones above
def fill_methods():
    for name, entry in BUILTINS.items():
        if entry.method:
            METHODS[name] = getattr(entry.fn, "method", entry.fn)
    for name, entry in METHOD_ONLY.items():
        METHODS[name] = entry.fn
