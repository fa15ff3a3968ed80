"""The `torch` namespace and the settings a program can change: seed, printing
precision, default dtype; assert_close; the names every program starts with; and the
rest of the namespace the tutorials use: torch.normal, randperm, movedim,
set_default_device, torch.accelerator (none), torch.utils.data,
torch.optim.lr_scheduler and the generator that manual_seed returns."""

from __future__ import annotations

import math
import types

import numpy as np

from ..engine.declare import none
from ..core import dtypes
from ..core.convert import tensor_arg, to_array, type_name
from ..runtime.errors import GradAssertionError, GradRuntimeError, GradTypeError, GradValueError
from ..numerics.random import sampling
from ..runtime.device import on_cpu
from ..ops.shape import alias
from ..ops.dims import norm_dims
from ..ops.creation import TorchGenerator, checked_seed, draws_from
from ..ops.registry import BUILTINS, FUNCTIONS, METHOD_ONLY, Arg, register, not_a_tensor_op
from ..ops.shape import size_args
from ..ops.inverse import linalg_inv
from ..ops.det import linalg_det
from ..ops.linalg_solve import linalg_slogdet
from ..ops import torch_forms
from ..core import layout
from .methods import write_
from .autograd_api import ENABLE_GRAD, NO_GRAD
from .values import BuiltinFunction, Module, Size
from .stdlib import EXCEPTION_CLASSES
from .torch_names import name_classes
from . import calculus, counting, random_api  # noqa: F401  (counting: its ops)
from .nn import module as nn_module
from . import optim
from . import amp, anomaly, backends, checkpointing, inference, type_info
from .inference import inference_mode
from ..core.tensor import Tensor
from ..core.printing import DEFAULT_PRINTOPTS
from ..runtime import context
from ..runtime.settings import accepts


#: torch.special's names of functions the torch namespace has (special name -> torch's)
_SPECIAL = {
    "expit": "sigmoid",
    "exp2": "exp2",
    "expm1": "expm1",
    "log1p": "log1p",
    "erf": "erf",
    "erfc": "erfc",
    "erfinv": "erfinv",
    "logsumexp": "logsumexp",
    "softmax": "softmax",
    "log_softmax": "log_softmax",
    "xlogy": "xlogy",
    "logit": "logit",
    "sinc": "sinc",
    "digamma": "digamma",
    "psi": "digamma",
    "gammaln": "lgamma",
}


def _no_cuda_seed(seed):
    """torch.cuda.manual_seed(_all): PyTorch keeps the call until CUDA starts, which it
    never does on a CPU: nothing happens."""
    return None


def manual_seed(seed):
    """torch.manual_seed(n): seeds the default generator and returns it."""
    context.current.generator.manual_seed(checked_seed(seed))
    return TorchGenerator.wrapping(context.current.generator)


def initial_seed():
    """torch.initial_seed(): the seed the default generator was last seeded with."""
    return context.current.generator.initial_seed()


def compile(
    model=None,
    *,
    fullgraph=False,
    dynamic=None,
    backend="inductor",
    mode=None,
    options=None,
    disable=False,
):
    """torch.compile(fn), `@torch.compile`, `@torch.compile(mode=...)`: the function itself,
    run as it is (torch's compiled code computes what eager code does; gradcli has one
    way to run it).  A module is refused: torch wraps it in an OptimizedModule, whose
    repr and state_dict keys ('_orig_mod.') gradcli does not make."""
    if model is None:
        return BuiltinFunction("compile", compile)
    if isinstance(model, nn_module.Module):
        raise GradRuntimeError(
            "torch.compile of an nn.Module is not supported (torch wraps it in an "
            "OptimizedModule): compile its forward's function, or use the module as it is"
        )
    if not callable(model):
        raise GradAssertionError(
            f"A callable function is expected, but {_py_class(model)} is provided."
        )
    return model


def _py_class(v):
    return f"<class '{type_name(v)}'>"


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
    if nd == 0:  # (each dim checked: 0 and -1 name a scalar's one place)
        for d in src + dst:
            norm_dims(d, nd)
        return alias(x)
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


def _data_members(Namespace):
    """torch.utils.data's members, with its modules dataset, sampler and dataloader (which
    published code imports from: `from torch.utils.data.dataloader import DataLoader`):
    made when a program first reads the namespace."""
    from .data import members as data_members

    members = data_members()
    parts = {
        "dataset": "Dataset IterableDataset TensorDataset Subset random_split",
        "sampler": "Sampler SequentialSampler RandomSampler SubsetRandomSampler BatchSampler",
        "dataloader": "DataLoader default_collate get_worker_info",
    }
    modules = {
        part: Namespace(f"torch.utils.data.{part}", {n: members[n] for n in names.split()})
        for part, names in parts.items()
    }
    return _named({**members, **modules})


def _distributions(Namespace):
    """torch.distributions' members (its distributions, kl_divergence and its modules),
    made when a program first reads the namespace."""
    from .distributions import members

    return _named(members(Namespace))


def _schedulers():
    """torch.optim.lr_scheduler's members, made when a program first reads the namespace."""
    from .lr_scheduler import SCHEDULERS
    from .lr_cycles import SCHEDULERS as CYCLES

    return _named({**SCHEDULERS, **CYCLES})


def _swa_members():
    """torch.optim.swa_utils' members (with the schedulers' module it derives from), made
    when a program first reads the namespace."""
    from .swa_utils import MEMBERS

    return dict(MEMBERS)


def _graph_members():
    """torch.autograd.graph's members (library/saved_hooks.py), made when a program first
    reads the namespace."""
    from .saved_hooks import MEMBERS

    return _named(dict(MEMBERS))


def _named(members):
    """members, a namespace's made at its first read, with their library classes named
    as PyTorch names them."""
    name_classes(members)
    return members


def namespaces(Namespace):
    """torch.accelerator, torch.utils(.data), torch.distributions, torch.optim(.lr_scheduler),
    as the language's namespaces (`Namespace(name, members)`)."""
    return {
        "accelerator": Namespace(
            "torch.accelerator",
            {
                "is_available": lambda check_available=False: False,
                "current_accelerator": lambda check_available=False: None,
                "device_count": lambda: 0,
            },
        ),
        "utils": Namespace(
            "torch.utils",
            {
                "data": Namespace("torch.utils.data", load=lambda: _data_members(Namespace)),
                "checkpoint": Namespace(
                    "torch.utils.checkpoint", load=lambda: dict(checkpointing.MEMBERS)
                ),
            },
        ),
        "distributions": Namespace("torch.distributions", load=lambda: _distributions(Namespace)),
        "optim": Namespace(
            "torch.optim",
            {
                "lr_scheduler": Namespace("torch.optim.lr_scheduler", load=_schedulers),
                "swa_utils": Namespace("torch.optim.swa_utils", load=_swa_members),
                "Optimizer": optim.Optimizer,
            },
        ),
        "backends": backends.namespace(),
        **backends.FUNCTIONS,
        "manual_seed": manual_seed,
        "initial_seed": initial_seed,
    }


from . import transforms  # noqa: E402  (registers after the ops above, as it always has)


@not_a_tensor_op(
    "seed",
    "seed(n=None)",
    "seed the random generator (as torch.manual_seed); torch.seed(): a fresh seed, returned",
    category="misc",
    aliases=("manual_seed",),
)
def seed(n=None):
    if n is None:  # torch.seed(): the default generator reseeded at random, its seed given
        return context.current.generator.seed()
    if isinstance(n, Tensor):
        n = n.item()
    if isinstance(n, bool) or not isinstance(n, int):
        raise GradTypeError("seed(): expected an integer")
    manual_seed(n)


@not_a_tensor_op(
    "is_tensor",
    "is_tensor(x)",
    "whether x is a tensor",
    category="misc",
)
def is_tensor(x):
    return isinstance(x, Tensor)


@not_a_tensor_op(
    "numel",
    "numel(x)",
    "number of elements",
    category="misc",
    batch="numel",
)
def numel_fn(x):
    return int(tensor_arg(x).data.size)


_PROFILES = {
    "default": (4, 1000, 3, 80),
    "short": (2, 1000, 2, 80),
    "full": (4, math.inf, 3, 80),
}  # precision, threshold, edgeitems, linewidth


@not_a_tensor_op(
    "set_printoptions",
    "set_printoptions(precision=None, threshold=None, edgeitems=None, "
    "linewidth=None, profile=None, sci_mode=None)",
    "print options as torch's (precision, summarising, line width, scientific notation)",
    category="misc",
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


@not_a_tensor_op(
    "set_default_dtype",
    "set_default_dtype(dtype)",
    "float64 (default) or float32",
    category="misc",
)
def set_default_dtype(dtype):
    dt = dtypes.as_numpy(dtype)
    if dt.kind != "f":
        raise GradTypeError("only floating-point types are supported as the default type")
    context.current.default_float = dt


@not_a_tensor_op(
    "get_default_dtype",
    "get_default_dtype()",
    "the default floating dtype",
    category="misc",
)
def get_default_dtype():
    return dtypes.DType(context.current.default_float)


# ---------------------------------------------------------------- asserts


@not_a_tensor_op(
    "assert_close",
    "assert_close(a, b, tol=1e-6)",
    "fail (exit 1) unless a and b are equal within tol, element-wise",
    category="misc",
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


def namespace() -> dict:
    """Names every program starts with (read-only: a program's own variables shadow them)."""
    global _namespace
    if _namespace is None:
        ns = {}
        for name, entry in BUILTINS.items():
            if entry.function and "." not in name:  # (linalg.vector_norm: torch.linalg's)
                ns[name] = entry.fn if name == entry.name else _alias_function(entry.fn, name)
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
                "Size": Size,
                "dtype": torch_dtype,
                "from_numpy": from_numpy,
                "as_tensor": as_tensor,
                **layout.FORMATS,
            }
        )
        functional = Module("torch.nn.functional", load=_nn_functional)
        nn = Module("torch.nn", load=lambda: _nn_members(functional))
        autograd_functional = Module("torch.autograd.functional")
        autograd = Module(
            "torch.autograd",
            {
                "functional": autograd_functional,
                "gradcheck": calculus.torch_gradcheck,
                "detect_anomaly": anomaly.DetectAnomaly,
                "set_detect_anomaly": anomaly.SetDetectAnomaly,
                "profiler": Module("torch.autograd.profiler", {"profile": Profile}),
                # PyTorch's module (library/saved_hooks.py), not gradcli's own graph() picture
                "graph": Module("torch.autograd.graph", load=_graph_members),
            },
        )
        amp_names = amp.namespaces(Module)
        cuda = Module(
            "torch.cuda",
            {
                "amp": amp_names.pop("cuda_amp"),
                "is_available": lambda: False,
                "device_count": lambda: 0,
                # (seeding CUDA's generators: PyTorch queues it until CUDA starts; it never does)
                "manual_seed": _no_cuda_seed,
                "manual_seed_all": _no_cuda_seed,
            },
        )
        torch_members.update(
            {
                "cpu": Module("torch.cpu", {"amp": amp_names.pop("cpu_amp")}),
                **amp_names,
                "nn": nn,
                "autograd": autograd,
                "cuda": cuda,
                "linalg": Module(
                    "torch.linalg",
                    {
                        "inv": linalg_inv,
                        "det": linalg_det,
                        "slogdet": linalg_slogdet,
                        "solve": BUILTINS["linalg.solve"].fn,
                        "vector_norm": BUILTINS["linalg.vector_norm"].fn,
                        "matrix_norm": BUILTINS["linalg.matrix_norm"].fn,
                        "norm": BUILTINS["linalg.norm"].fn,
                        "cross": BUILTINS["linalg.cross"].fn,
                        "cholesky": BUILTINS["linalg.cholesky"].fn,
                        "eigvalsh": BUILTINS["linalg.eigvalsh"].fn,
                        "LinAlgError": EXCEPTION_CLASSES["torch._C._LinAlgError"],
                    },
                ),
            }
        )
        torch_members.update(namespaces(Module))
        for name, entry in BUILTINS.items():
            fn = getattr(entry.fn, "tensor_op", entry.fn)  # (abs, round: not Python's too)
            op = getattr(fn, "__wrapped__", fn)
            if entry.function and getattr(op, "tensor_input", False) and name not in torch_members:
                torch_members[name] = tensor_input(name, fn)
        torch_members.update(torch_forms.torch_members())  # ATen's int reduction, default none
        # torch.diff: the tensor method's op (the language's own diff(f) is a derivative)
        torch_members["diff"] = METHOD_ONLY["diff"].fn
        # torch.any / torch.all: the ops (the language's any and all are Python's)
        torch_members["any"], torch_members["all"] = BUILTINS["any"].fn, BUILTINS["all"].fn
        torch_members.update(random_api.namespace_members())
        torch_members["inference_mode"] = inference_mode
        torch_members["is_anomaly_enabled"] = anomaly.is_anomaly_enabled
        torch_members["is_anomaly_check_nan_enabled"] = anomaly.is_anomaly_check_nan_enabled
        torch_members["default_generator"] = TorchGenerator.wrapping(None)  # (the run's own)
        torch_members["compile"] = compile
        torch_members["finfo"] = BuiltinFunction("torch.finfo", type_info.finfo)
        torch_members["iinfo"] = BuiltinFunction("torch.iinfo", type_info.iinfo)
        torch_members["__version__"] = "2.13.0+cpu"  # (the PyTorch whose printing it follows)
        torch_members["is_inference_mode_enabled"] = inference.is_inference_mode_enabled
        transforms.install(torch_members, autograd, autograd_functional)
        # torch.special: the functions PyTorch also has under its own names there
        special = {k: torch_members[v] for k, v in _SPECIAL.items() if v in torch_members}
        torch_round = torch_members["round"]

        def special_round(input, *, decimals=0):
            """round(input, decimals=decimals): aten::round.decimals (RoundBackward1)"""
            return torch_round(input, decimals=decimals)

        special["round"] = special_round
        torch_members["special"] = Module("torch.special", special)
        ns["torch"] = Module("torch", torch_members)
        ns["F"] = functional
        for members in (ns, torch_members, cuda.members):
            _name_functions(members)
        name_classes(ns)
        # (torch.nn's classes are named when a program reads it; a parameter's type may
        # print before that)
        name_classes({"Module": nn_module.Module, "Parameter": nn_module.Parameter})
        _namespace = ns
    return _namespace


def _nn_functional():
    """torch.nn.functional's members, made when a program first reads the namespace."""
    from .nn.namespace import FUNCTIONAL

    return dict(FUNCTIONAL)


def _nn_members(functional):
    """torch.nn's members, made when a program first reads the namespace: the layers,
    losses and containers (library/nn), their classes named as PyTorch names them."""
    from .nn.namespace import members

    return _named({"functional": functional, **members(Module)})


def torch_dtype(*args, **kwargs):
    """torch.dtype: the class of torch.float32 ... (type(x.dtype) is torch.dtype), which
    makes no new instances."""
    raise GradTypeError("cannot create 'torch.dtype' instances")


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


def as_tensor(data, dtype=None, device=None):
    """torch.as_tensor: `data` itself when it is a tensor of that dtype, a NumPy array's
    memory when its dtype is kept, else a new tensor as torch.tensor makes it."""
    on_cpu(device)
    want = None if dtype is None else dtypes.as_numpy(dtype)
    if isinstance(data, Tensor):
        return data if want is None or want == data.data.dtype else FUNCTIONS["to"](data, dtype)
    if isinstance(data, np.ndarray) and (want is None or want == data.dtype):
        return from_numpy(data)
    return FUNCTIONS["tensor"](data, dtype=dtype)


def tensor_input(name, fn):
    """torch.NAME of an op whose input is a Tensor (ops/unary.py: `fn.tensor_input`):
    a number, a list or None in its place is PyTorch's TypeError, where the bare name
    `NAME(2.0)` is the calculator's function of a number.  (`__wrapped__`: the op, for
    the call's arity errors and the fast tier's call of it; `op_function`: the op that a
    replayed loop calls.)"""

    def torch_fn(*args, **kwargs):
        if not args and "input" in kwargs:  # torch.tanh(input=x): PyTorch's keyword
            x = kwargs.pop("input")
            if not isinstance(x, Tensor):
                raise GradTypeError(
                    f"{name}(): argument 'input' must be Tensor, not {type_name(x)}"
                )
            args = (x,)
        elif not args and kwargs:  # torch.exp(inpt=x): PyTorch's parser
            raise GradTypeError(f'{name}() missing 1 required positional arguments: "input"')
        if len(args) == 1 and type(args[0]) is not Tensor and not isinstance(args[0], Tensor):
            raise GradTypeError(
                f"{name}(): argument 'input' (position 1) must be Tensor, not {type_name(args[0])}"
            )
        return fn(*args, **kwargs)

    torch_fn.__name__ = torch_fn.__qualname__ = fn.__name__
    torch_fn.__wrapped__ = fn
    torch_fn.op_function = name
    return torch_fn


def _alias_function(fn, alias):
    """An op's alias as a function of its own (`torch.greater` is not `torch.gt`, as in
    PyTorch): the op's code under the alias's name, so that its errors name the alias
    (language/arity.py follows `__wrapped__` to the op)."""
    if not isinstance(fn, types.FunctionType):
        return fn
    f = types.FunctionType(fn.__code__, fn.__globals__, alias, fn.__defaults__, fn.__closure__)
    f.__kwdefaults__ = fn.__kwdefaults__
    f.__dict__.update(fn.__dict__)
    f.__wrapped__ = fn  # type: ignore[attr-defined]
    f._gradcli_name = alias  # type: ignore[attr-defined]
    return f


def _name_functions(members):
    """Give each built-in function its language name, so it prints as `<built-in function
    relu>` (core.printing.callable_name), not as Python's `<function unary.<locals>.fn ...>`."""
    for name, v in members.items():
        if isinstance(v, types.FunctionType) and getattr(v, "_gradcli_name", None) is None:
            v._gradcli_name = name
