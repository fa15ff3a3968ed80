"""Built-ins of the language that are not tensor ops: print, range, autograd calls,
tensor methods such as .item(), the `torch` module, constants and dtypes.

Everything is registered in the same registry as the ops (`gradcli.ops.register`),
so `:help`, completion and the docs see one list."""
from __future__ import annotations

import functools
import math

import numpy as np

from ..core import dtypes
from ..engine.autograd import leaf_hooks, run_backward, watch
from ..core.convert import tensor_arg, to_array, type_name
from ..base.device import Device, on_cpu
from ..base.device import device as _device
from ..base.errors import GradAssertionError, GradRuntimeError, GradTypeError, GradValueError
from ..ops.registry import BUILTINS, FUNCTIONS, METHOD_ONLY, register
from ..ops.creation import REQUIRES_GRAD_ERROR
from ..ops.shape import numpy_T, size_args, to
from ..language.runtime import METHODS, BuiltinFunction, GradModeContext, Module, Size, UserFunction, truth
from ..core.tensor import Tensor

FUNCTIONS["numpy_T"] = numpy_T


def _session():
    from .. import session
    return session.current()


# ---------------------------------------------------------------- output

@register("print", "print(*values, sep=' ', end='\\n')", "print values as Python and PyTorch do",
          category="misc")
def print_(*values, sep=" ", end="\n"):
    from ..core.printing import show_str
    _session().out.print(sep.join(show_str(v) for v in values) + end)


@register("display", "display(*values)", "show each value's repr on its own line (Jupyter's display)",
          category="misc")
def display(*values):
    from ..core.printing import show
    for v in values:
        _session().out.print(show(v) + "\n")


# ---------------------------------------------------------------- Python basics

@register("len", "len(x)", "length of a list, string or a tensor's first dim", category="misc")
def len_(x):
    if isinstance(x, Tensor):
        if x.data.ndim == 0:
            raise GradTypeError("len() of a 0-d tensor")
        return x.data.shape[0]
    if isinstance(x, (list, tuple, str)):
        return len(x)
    n = getattr(type(x), "language_len", None)            # containers, datasets, loaders
    if n is not None:
        return n(x)
    raise GradTypeError(f"object of type '{type_name(x)}' has no len()")


@register("range", "range(stop) or range(start, stop, step=1)", "integers for a for loop",
          category="misc")
def range_(*args):
    if not 1 <= len(args) <= 3:
        raise GradTypeError(f"range expected 1 to 3 arguments, got {len(args)}")
    args = [a.item() if isinstance(a, Tensor) else a for a in args]
    for a in args:
        if isinstance(a, bool) or not isinstance(a, int):
            raise GradTypeError(f"'{type_name(a)}' object cannot be interpreted as an integer")
    return range(*args)


def _scalar(x, conv, what):
    if isinstance(x, Tensor):
        return conv(x.item())
    if isinstance(x, str):
        try:
            return conv(x.strip())
        except ValueError:
            raise GradValueError(f"could not convert string to {what}: {x!r}")
    if isinstance(x, (int, float)):
        try:
            return conv(x)
        except (OverflowError, ValueError) as e:
            raise GradValueError(str(e))
    raise GradTypeError(f"{what}() argument must be a string or a number, not '{type_name(x)}'")


@register("float", "float(x)", "a Python float (float('inf') and float('nan') work); as a dtype, float64",
          category="misc")
def float_(x=0.0):
    return _scalar(x, float, "float")


@register("int", "int(x)", "a Python int (truncates); as a dtype, int64", category="misc")
def int_(x=0):
    return _scalar(x, int, "int")


@register("bool", "bool(x)", "truth of a value; as a dtype, bool", category="misc")
def bool_(x=False):
    return truth(x)


@register("str", "str(x)", "the text print would show", category="misc")
def str_(x=""):
    from ..core.printing import show_str
    return show_str(x)


@register("list", "list(x)", "a list of the items of x", category="misc")
def list_(x=()):
    from ..base.limits import check_items, check_objects
    if isinstance(x, Tensor):
        check_objects(len(x), "list() of this tensor", 300)
        return [FUNCTIONS["index"](x, i) for i in range(len(x))]
    if isinstance(x, (list, tuple, range, str)):
        check_items(len(x), "the list")
        return list(x)
    it = getattr(type(x), "language_iter", None)
    if it is not None:
        return list(it(x))
    raise GradTypeError(f"'{type_name(x)}' object is not iterable")


@register("tuple", "tuple(x)", "a tuple of the items of x", category="misc")
def tuple_(x=()):
    return tuple(list_(x))


# abs/min/max/round: Python meanings on plain numbers, tensor ops otherwise
def _dual(name, py):
    entry = BUILTINS[name]
    tensor_fn = entry.fn

    def fn(*args, **kwargs):
        if args and not kwargs and all(isinstance(a, (int, float)) for a in args) and \
                (len(args) > 1 or name in ("abs", "round")):
            return py(*args)
        if len(args) == 1 and not kwargs and isinstance(args[0], (list, tuple)) and \
                name in ("min", "max") and args[0] and \
                all(isinstance(a, (int, float)) for a in args[0]):
            return py(args[0])
        if name in ("max", "min") and len(args) == 2 and not kwargs and \
                isinstance(args[1], Tensor):
            return FUNCTIONS["maximum" if name == "max" else "minimum"](*args)
        return tensor_fn(*args, **kwargs)
    entry.fn = fn


_dual("abs", abs)
_dual("max", max)
_dual("min", min)
_dual("round", round)


def _python_sum():
    """sum(list) is Python's sum (start + each item: sum([1, 2]) is 3); else the tensor op."""
    entry = BUILTINS["sum"]
    tensor_fn = entry.fn

    @functools.wraps(tensor_fn)              # its signature, for "did you mean" hints
    def fn(*args, **kwargs):
        if args and isinstance(args[0], (list, tuple, range)):
            if len(args) > 2 or set(kwargs) - {"start"}:
                raise GradTypeError(f"sum() takes at most 2 arguments ({len(args)} given)")
            total = kwargs.get("start", args[1] if len(args) > 1 else 0)
            if isinstance(total, str):
                raise GradTypeError("sum() can't sum strings [use ''.join(seq) instead]")
            for v in args[0]:
                if isinstance(v, (str, list, tuple)) or v is None:
                    raise GradTypeError(f"unsupported operand type(s) for +: '{type_name(total)}' "
                                        f"and '{type_name(v)}'")
                total = total + v
            return total
        return tensor_fn(*args, **kwargs)
    entry.fn = fn


_python_sum()


# ---------------------------------------------------------------- tensor methods

def _method(name, sig, doc, **kw):
    return register(name, sig, doc, method=True, function=False, category="tensor", **kw)


@_method("size", "x.size(dim=None)", "the shape (torch.Size), or the size of one dim")
def size(x, dim=None):
    s = Size(x.data.shape)
    if dim is None:
        return s
    from ..ops.reduce import norm_dims
    (d,) = norm_dims(dim, x.data.ndim) or (0,)
    if x.data.ndim == 0:
        raise GradRuntimeError("dimension specified as 0 but tensor has no dimensions")
    return s[d]


@_method("dim", "x.dim()", "number of dims")
def dim(x):
    return x.data.ndim


@_method("numel", "x.numel()", "number of elements")
def numel(x):
    return int(x.data.size)


@register("item", "x.item()", "the value of a one-element tensor as a Python number",
          method=True, function=False, category="tensor")
def item(x):
    return x.item()


@_method("tolist", "x.tolist()", "the values as (nested) Python lists")
def tolist(x):
    from ..base.limits import check_objects
    check_objects(x.data.size, "tolist()", 32)
    return x.data.tolist()


@_method("detach", "x.detach()", "the same values, cut off from the graph")
def detach(x):
    return Tensor(x.data)


@_method("requires_grad_", "x.requires_grad_(requires_grad=True)",
         "set requires_grad in place and return x")
def requires_grad_(x, requires_grad=True):
    if requires_grad and x.data.dtype.kind != "f":
        raise GradRuntimeError("only Tensors of floating point dtype can require gradients")
    if not requires_grad and x.grad_fn is not None:
        raise GradRuntimeError(
            "you can only change requires_grad flags of leaf variables. If you want to use a "
            "computed variable in a subgraph that doesn't require differentiation use "
            "var_no_grad = var.detach().")
    x.requires_grad = bool(requires_grad)
    return x


@_method("retain_grad", "x.retain_grad()", "keep .grad for a non-leaf tensor")
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


@_method("register_hook", "x.register_hook(hook)",
         "call hook(grad) whenever x's gradient is computed; a result replaces it; "
         "returns a handle with .remove()")
def register_hook(x, hook):
    if not x.requires_grad:
        raise GradRuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if not callable(hook):
        raise GradTypeError(f"register_hook(): the hook must be a function, not {type_name(hook)}")
    hooks = watch(x).hooks if x.grad_fn is not None else leaf_hooks(x)
    hooks.append(hook)
    return RemovableHandle(hooks, hook)


@_method("zero_", "x.zero_()", "fill with zeros in place and return x")
def zero_(x):
    from ..core.tensor import GradMode
    if GradMode.enabled and x.requires_grad:
        raise GradRuntimeError(
            "a leaf Variable that requires grad is being used in an in-place operation.")
    x.data = np.zeros_like(x.data)
    return x


@_method("fill_", "x.fill_(value)", "fill with value in place and return x")
def fill_(x, value):
    from ..core.tensor import GradMode
    if GradMode.enabled and x.requires_grad:
        raise GradRuntimeError(
            "a leaf Variable that requires grad is being used in an in-place operation.")
    x.data = np.full_like(x.data, value.item() if isinstance(value, Tensor) else value)
    return x


@_method("backward",
         "x.backward(gradient=None, retain_graph=False, create_graph=False, inputs=None)",
         "accumulate gradients of x into the leaves' .grad")
def backward_method(x, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    backward_leaves(x, gradient, retain_graph, create_graph, inputs=inputs)


@_method("to", "x.to(dtype), x.to(device, dtype), x.to(other, copy=False)",
         "x converted to dtype (x itself if it has it already, unless copy=true)")
def to_method(x, *args, dtype=None, device=None, non_blocking=False, copy=False,
              memory_format=None, **unknown):
    if unknown:
        got = ", ".join(f"{k}={type_name(v)}" for k, v in unknown.items())
        raise GradTypeError(f"to() received an invalid combination of arguments - got ({got}, ), "
                            "but expected one of:")
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
        raise GradTypeError("to() received an invalid combination of arguments: expected "
                            "to(device=None, dtype=None, non_blocking=False, copy=False) or "
                            "to(other, non_blocking=False, copy=False)")
    on_cpu(device)
    if isinstance(dtype, Tensor):
        dtype = dtype.data.dtype
    dt = x.data.dtype if dtype is None else dtypes.as_numpy(dtype)
    return to(x, dt, copy=copy)


@_method("cpu", "x.cpu()", "x itself (gradcli computes on the CPU)")
def cpu(x):
    return x


@_method("cuda", "x.cuda()", "an error: gradcli computes on the CPU only")
def cuda(x, device=None, non_blocking=False):
    on_cpu("cuda")


@register("device", "device(type)", "torch.device: 'cpu' (the only one gradcli computes on)",
          category="misc")
def device(type, index=None):
    return _device(type, index)


@_method("type", "x.type(dtype=None)", "the type name, or a copy converted to dtype")
def type_method(x, dtype=None):
    if dtype is None:
        return {"float64": "torch.DoubleTensor", "float32": "torch.FloatTensor",
                "int64": "torch.LongTensor", "bool": "torch.BoolTensor"}.get(
            x.data.dtype.name, "torch.Tensor")
    return to(x, dtypes.as_numpy(dtype))


def _cast_method(name, dt):
    _method(name, f"x.{name}()", f"a copy as {dtypes.TORCH_NAMES[dt]}")(lambda x: to(x, dt))


_cast_method("double", dtypes.float64)
_cast_method("long", dtypes.int64)


@_method("float", "x.float()", "a copy as torch.float32")
def _float_m(x):
    return to(x, dtypes.float32)


@_method("int", "x.int()", "a copy as torch.int32")
def _int_m(x):
    return to(x, np.dtype(np.int32))


@_method("bool", "x.bool()", "a copy as torch.bool")
def _bool_m(x):
    return to(x, dtypes.bool_)


@_method("is_floating_point", "x.is_floating_point()", "whether the dtype is floating")
def is_floating_point(x):
    return x.data.dtype.kind == "f"


@_method("contiguous", "x.contiguous()", "x itself")
def contiguous(x):
    return x




# ---------------------------------------------------------------- autograd


def _grad_tensor_arg(v):
    return None if v is None else tensor_arg(v)


@register("backward",
          "backward(tensors, gradient=None, retain_graph=False, create_graph=False, inputs=None)",
          "accumulate d(tensors)/d(leaf) into each leaf's .grad; returns none", category="autograd")
def backward(tensors, gradient=None, retain_graph=None, create_graph=False, inputs=None,
             grad_tensors=None):
    backward_leaves(tensors, gradient, retain_graph, create_graph, grad_tensors, inputs)


CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this function, "
    "make sure to reset the .grad fields of your parameters to None after use to break the "
    "cycle and avoid the leak.")


def backward_leaves(tensors, gradient=None, retain_graph=None, create_graph=False,
                    grad_tensors=None, inputs=None):
    """backward(), returning the leaves whose .grad changed (for the `backward` command)."""
    if gradient is None:
        gradient = grad_tensors
    if inputs is not None:
        inputs = [inputs] if isinstance(inputs, Tensor) else list(inputs)
        if not inputs:
            raise GradRuntimeError("`inputs` argument to `backward()` cannot be empty.")
        inputs = [tensor_arg(i) for i in inputs]
        if not all(i.requires_grad for i in inputs):
            raise GradRuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    if create_graph:
        from ..session import warn
        warn(CREATE_GRAPH_WARNING)
    if type(tensors) is Tensor and gradient is None and inputs is None:    # out.backward()
        return run_backward((tensors,), (None,), truth(retain_graph) if retain_graph is not None
                            else bool(create_graph), truth(create_graph))
    outs = list(tensors) if isinstance(tensors, (list, tuple)) else [tensors]
    grads = list(gradient) if isinstance(gradient, (list, tuple)) and \
        any(isinstance(g, Tensor) for g in gradient) else [gradient] * 1
    if len(grads) < len(outs):
        grads += [None] * (len(outs) - len(grads))
    outs = [tensor_arg(o) for o in outs]
    if retain_graph is None:
        retain_graph = bool(create_graph)
    return run_backward(outs, [_grad_tensor_arg(g) for g in grads], truth(retain_graph),
                        truth(create_graph), inputs=inputs, accumulate=inputs is not None)


@register("grad", "grad(outputs, inputs, grad_outputs=None, retain_graph=False, create_graph=False)",
          "the gradients of outputs with respect to inputs, as a tuple; .grad untouched",
          category="autograd")
def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         allow_unused=False):
    outs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    ins = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    gos = list(grad_outputs) if isinstance(grad_outputs, (list, tuple)) else [grad_outputs] * len(outs)
    if retain_graph is None:
        retain_graph = bool(create_graph)
    return run_backward([tensor_arg(o) for o in outs], [_grad_tensor_arg(g) for g in gos],
                        truth(retain_graph), truth(create_graph),
                        inputs=[tensor_arg(i) for i in ins], allow_unused=truth(allow_unused))


NO_GRAD = GradModeContext(False, "no_grad")
ENABLE_GRAD = GradModeContext(True, "enable_grad")


@register("no_grad", "with no_grad:", "a block whose results do not require grad",
          category="autograd")
def no_grad():
    return NO_GRAD


@register("enable_grad", "with enable_grad:", "a block with grad mode on (inside no_grad)",
          category="autograd")
def enable_grad():
    return ENABLE_GRAD


@register("is_grad_enabled", "is_grad_enabled()", "whether grad mode is on", category="autograd")
def is_grad_enabled():
    from ..core.tensor import GradMode
    return GradMode.enabled


@register("seed", "seed(n)", "seed the random generator (as torch.manual_seed)",
          category="misc", aliases=("manual_seed",))
def seed(n):
    from ..base import random
    if isinstance(n, Tensor):
        n = n.item()
    if isinstance(n, bool) or not isinstance(n, int):
        raise GradTypeError("seed(): expected an integer")
    random.default_generator.manual_seed(n)


@register("is_tensor", "is_tensor(x)", "whether x is a tensor", category="misc")
def is_tensor(x):
    return isinstance(x, Tensor)


@register("numel", "numel(x)", "number of elements", category="misc")
def numel_fn(x):
    return int(tensor_arg(x).data.size)


@register("set_printoptions", "set_printoptions(precision=4)", "digits printed after the point",
          category="misc")
def set_printoptions(precision=None, **_ignored):
    from ..core.printing import options
    if precision is not None:
        p = int(precision)
        if not 0 <= p <= 30:       # as --precision: a huge one would print gigabytes
            raise GradValueError(f"set_printoptions(): precision must be from 0 to 30, got {p}")
        options.precision = p


@register("set_default_dtype", "set_default_dtype(dtype)", "float64 (default) or float32",
          category="misc")
def set_default_dtype(dtype):
    dt = dtypes.as_numpy(dtype)
    if dt.kind != "f":
        raise GradTypeError("only floating-point types are supported as the default type")
    dtypes.default.float = dt


@register("get_default_dtype", "get_default_dtype()", "the default floating dtype", category="misc")
def get_default_dtype():
    return dtypes.DType(dtypes.default.float)


# ---------------------------------------------------------------- asserts

@register("assert_close", "assert_close(a, b, tol=1e-6)",
          "fail (exit 1) unless a and b are equal within tol, element-wise", category="misc")
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
        worst = np.unravel_index(np.nanargmax(np.where(ok, -1, diff)), diff.shape) if diff.ndim else ()
        raise GradAssertionError(
            f"values differ: largest difference {float(diff[worst]):.6g} at index "
            f"{list(map(int, worst))} (tolerance {atol:g})")


# ---------------------------------------------------------------- namespace

CONSTANTS = {"pi": math.pi, "inf": math.inf, "nan": math.nan, "e": math.e}
DTYPE_NAMES = {n: dtypes.DType(dt) for n, dt in dtypes.NAMES.items()}
DTYPE_NAMES.update({"float16": dtypes.DType(np.float16), "half": dtypes.DType(np.float16),
                    "int32": dtypes.DType(np.int32), "uint8": dtypes.DType(np.uint8)})

_namespace = None


def namespace() -> dict:
    """Names every program starts with (read-only: a program's own variables shadow them)."""
    global _namespace
    if _namespace is None:
        ns = {}
        for name, entry in BUILTINS.items():
            if entry.function:
                ns[name] = entry.fn
        ns.update(CONSTANTS)
        for name in ("float64", "float32", "double", "int64", "long", "int32", "float16",
                     "half", "uint8"):
            ns[name] = DTYPE_NAMES[name]
        ns["no_grad"] = NO_GRAD
        ns["enable_grad"] = ENABLE_GRAD
        torch_members = dict(DTYPE_NAMES)
        torch_members.update({"no_grad": NO_GRAD, "enable_grad": ENABLE_GRAD, "pi": math.pi,
                              "inf": math.inf, "nan": math.nan, "e": math.e,
                              "Size": lambda s=(): Size(size_args((s,)))})
        functional = Module("torch.nn.functional", dict(nn_library.FUNCTIONAL))
        nn = Module("torch.nn", {"functional": functional, **nn_library.members(Module)})
        autograd_functional = Module("torch.autograd.functional")
        autograd = Module("torch.autograd", {"functional": autograd_functional,
                                             "gradcheck": calculus.torch_gradcheck})
        cuda = Module("torch.cuda", {"is_available": lambda: False, "device_count": lambda: 0})
        torch_members.update({"nn": nn, "autograd": autograd, "cuda": cuda})
        torch_members.update(torch_more.namespaces(Module))
        ns["torch"] = Module("torch", torch_members)
        ns["F"] = functional
        _namespace = ns
    return _namespace


# tensor methods: every registered op with method=True, plus the ones above
def _fill_methods():
    for name, entry in BUILTINS.items():
        if entry.method:
            METHODS[name] = entry.fn
    for name, entry in METHOD_ONLY.items():
        METHODS[name] = entry.fn


from . import calculus, graphviz  # noqa: E402,F401  (jacobian, hessian, gradcheck, graph)

from . import io  # noqa: E402,F401  (load/save, registered on import)
from . import optim  # noqa: E402,F401  (SGD, Adam)
from . import nn as nn_library  # noqa: E402  (torch.nn's classes)
from . import optim_more, torch_more  # noqa: E402  (RMSprop..., normal, randperm, data ...)

_method("numpy", "x.numpy(force=False)", "the values as a NumPy array")(torch_more.numpy_method)

_fill_methods()
