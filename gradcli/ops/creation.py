"""Creation functions: tensor ones zeros full eye arange linspace rand randn *_like Variable."""

from __future__ import annotations

import math

import numpy as np

from ..engine.declare import none
from ..engine.function import Function, Untracked
from ..core import dtypes
from ..core.convert import tensor_arg, to_array, type_name
from ..runtime.device import Device, on_cpu
from ..numerics.floats.fma import fma
from ..numerics.parallel import chunks
from ..runtime.errors import GradRuntimeError, GradTypeError, GradValueError
from ..core.tensor import Tensor
from .registry import register
from .shape import size_args
from ..runtime import context
from ..runtime.limits import check_alloc

REQUIRES_GRAD_ERROR = "Only Tensors of floating point and complex dtype can require gradients"


def leaf(arr, requires_grad=False):
    """A new leaf tensor; only floating tensors may require grad (PyTorch's rule)."""
    if requires_grad and arr.dtype.kind != "f":
        raise GradRuntimeError(REQUIRES_GRAD_ERROR)
    return Tensor(arr, bool(requires_grad))


def _dt(dtype, default=None):
    if dtype is None:
        return default if default is not None else context.current.default_float
    return dtypes.as_numpy(dtype)


def _check_sizes(size):
    for n in size:
        if n < 0:
            raise GradRuntimeError(
                f"Trying to create tensor with negative dimension {n}: {list(size)}"
            )
    check_alloc(size)
    return size


@register(
    "tensor",
    "tensor(data, dtype=None, requires_grad=False)",
    "a tensor from a number or nested list",
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
    parser=None,
)
def tensor(data, dtype=None, requires_grad=False, device=None):
    on_cpu(device)
    arr = to_array(data, None if dtype is None else _dt(dtype))
    if isinstance(data, Tensor):
        arr = arr.copy()
    return leaf(arr, requires_grad)


def _sizes(sizes, size, name):
    """The sizes given as *size, or as the keyword size= (torch.ones(size=(2, 3)))."""
    if size is None:
        return sizes
    if sizes:
        raise GradTypeError(f"{name}() got multiple values for argument 'size'")
    return (size,)


def _filled(value, size, dtype, requires_grad):
    size = _check_sizes(size_args(size))
    return leaf(np.full(size, value, dtype=_dt(dtype)), requires_grad)


@register(
    "ones",
    "ones(*size, dtype=None, requires_grad=False)",
    "a tensor of ones",
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
    parser=None,
)
def ones(*sizes, size=None, dtype=None, requires_grad=False, device=None):
    on_cpu(device)
    size = _sizes(sizes, size, "ones")
    return _filled(1, size, dtype, requires_grad)


@register(
    "zeros",
    "zeros(*size, dtype=None, requires_grad=False)",
    "a tensor of zeros",
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
    parser=None,
)
def zeros(*sizes, size=None, dtype=None, requires_grad=False, device=None):
    on_cpu(device)
    size = _sizes(sizes, size, "zeros")
    if any(isinstance(n, int) and n < 0 for n in size_args(size)):
        raise GradRuntimeError("zeros: Dimension size must be non-negative.")  # (its own words)
    return _filled(0, size, dtype, requires_grad)


@register(
    "empty",
    "empty(*size, dtype=None, requires_grad=False)",
    "a tensor of the given size (of zeros here)",
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
    parser=None,
)
def empty(*sizes, size=None, dtype=None, requires_grad=False, device=None):
    on_cpu(device)
    size = _sizes(sizes, size, "empty")
    return _filled(0, size, dtype, requires_grad)


@register(
    "full",
    "full(size, fill_value, dtype=None, requires_grad=False)",
    "a tensor filled with one value",
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
    parser=None,
)
def full(size, fill_value, dtype=None, requires_grad=False, device=None):
    on_cpu(device)
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    if not isinstance(fill_value, (int, float)):
        raise GradTypeError(
            "full(): argument 'fill_value' (position 2) must be Number, not "
            + type_name(fill_value)
        )
    if dtype is None:
        dtype = dtypes.scalar_dtype(fill_value)
    return _filled(fill_value, (size,) if isinstance(size, int) else size, dtype, requires_grad)


@register(
    "eye",
    "eye(n, m=None, dtype=None, requires_grad=False)",
    "identity matrix",
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
    parser=None,
)
def eye(n, m=None, dtype=None, requires_grad=False, device=None):
    on_cpu(device)
    m = n if m is None else m
    _check_sizes((n, m))
    return leaf(np.eye(n, m, dtype=_dt(dtype)), requires_grad)


def _num(v):
    return v.item() if isinstance(v, Tensor) else v


@register(
    "arange",
    "arange(start=0, end, step=1, dtype=None, requires_grad=False)",
    "evenly spaced values in [start, end)",
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
    parser=None,
)
def arange(start, end=None, step=1, dtype=None, requires_grad=False, device=None):
    on_cpu(device)
    start, end, step = _num(start), _num(end), _num(step)
    _numbers("arange", (start, end, step), (_REAL,) * 3)
    if end is None:
        start, end = 0, start
    if step == 0 or step != step:
        raise GradRuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise GradRuntimeError(f"unsupported range: {start:g} -> {end:g}")
    if (end - start) * step < 0:
        raise GradRuntimeError("upper bound and larger bound inconsistent with step sign")
    all_int = all(isinstance(v, int) for v in (start, end, step))
    dt = _dt(dtype, dtypes.int64 if all_int else None)
    n = math.ceil((end - start) / step)
    _check_sizes((n,))
    if dt.kind == "f":
        # PyTorch computes in double (its accumulate type), each vector from its base
        start, step = float(start), float(step)
        arr = _range_fill(
            n,
            dt,
            lambda i: fma(step, i, start).astype(dt),
            lambda base, i: fma(i, step, base).astype(dt),
        )
    else:
        arr = np.arange(start, end, step).astype(dt)
    return leaf(arr, requires_grad)


_REAL = (int, float)


def _numbers(name, args, kinds, hint=None):
    """PyTorch's TypeError unless each argument's type is one of its kinds (None is
    an omitted argument); the message lists the types of all of them."""
    if all(v is None or type(v) in k for v, k in zip(args, kinds)):
        return
    got = ", ".join(type_name(v) for v in args if v is not None)
    raise GradTypeError(
        f"{name}() received an invalid combination of arguments - got ({got}), "
        "but expected one of:",
        hint=hint,
    )


def _range_fill(n, dt, value, lane=None):
    """n values the way PyTorch's range kernels write them: value(index) each, except
    that with `lane` (arange), in each chunk of at::parallel_for, whole pairs of
    256-bit vectors get lane(value(first index), i) for their lane i.  The
    arithmetic is FMA, as the kernels are compiled (gradcli/fma.py)."""
    lanes = max(1, 32 // dt.itemsize)
    out = np.empty(n, dt)
    for b, e in chunks(n):
        nv = (e - b) // (2 * lanes) * 2 * lanes if lane is not None else 0
        if nv:
            base = value(np.arange(b, b + nv, lanes))
            out[b : b + nv] = lane(base[:, None], np.arange(lanes)[None, :]).reshape(-1)
        out[b + nv : e] = value(np.arange(b + nv, e))
    return out


@register(
    "linspace",
    "linspace(start, end, steps, dtype=None, requires_grad=False)",
    "steps values evenly spaced from start to end",
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
    parser=None,
)
def linspace(start, end, steps, dtype=None, requires_grad=False, device=None):
    on_cpu(device)
    start, end, steps = _num(start), _num(end), _num(steps)
    _numbers(
        "linspace",
        (start, end, steps),
        (_REAL, _REAL, (int,)),
        hint="linspace(start, end, steps): steps is an int",
    )
    if steps < 0:
        raise GradRuntimeError("number of steps must be non-negative")
    dt = _dt(dtype)
    _check_sizes((steps,))
    if steps == 1:
        return leaf(np.array([start], dtype=dt), requires_grad)
    # PyTorch fills the first half forward from start and the second half back from
    # end, in the dtype itself (in double for integers, then truncated)
    ct = dt.type if dt.kind == "f" else np.float64
    a, b = ct(start), ct(end)
    if dt.kind != "f":
        a, b = ct(int(a)), ct(int(b))  # start and end are cast to the dtype first
    step = (b - a) / ct(steps - 1) if steps > 1 else ct(0)
    half = steps // 2

    def value(i):
        return np.where(i < half, fma(step, i, a, ct), fma(-step, steps - i - 1, b, ct)).astype(dt)

    return leaf(_range_fill(steps, dt, value), requires_grad)


class TorchGenerator:
    """`torch.Generator()`: a CPU generator of its own (a fresh one draws what a fresh
    torch.Generator() draws), or, from torch.manual_seed, the default generator
    (`torch.default_generator`: `wrapping(None)`, the running program's own)."""

    __slots__ = ("_gen",)

    def __init__(self, device="cpu"):
        on_cpu(device)
        # a copy of the default generator's machinery, seeded as a new torch.Generator()
        self._gen = context.current.generator.clone().manual_seed(DEFAULT_SEED)

    @classmethod
    def wrapping(cls, gen):
        g = cls.__new__(cls)
        g._gen = gen
        return g

    @property
    def gen(self):
        g = self._gen
        return context.current.generator if g is None else g

    def initial_seed(self):
        return self.gen.initial_seed()

    def manual_seed(self, seed):
        if isinstance(seed, float):
            raise GradRuntimeError("manual_seed expected a long, but got float")
        self.gen.manual_seed(checked_seed(seed))
        return self

    def seed(self):
        return self.gen.seed()

    def get_state(self):
        return Tensor(self.gen.torch_state())

    def set_state(self, new_state):
        set_rng_state_of(self.gen, new_state)
        return self

    language_methods = {
        "initial_seed": initial_seed,
        "manual_seed": manual_seed,
        "seed": seed,
        "get_state": get_state,
        "set_state": set_state,
    }
    language_attrs = {"device": lambda g: Device("cpu")}

    def __repr__(self):
        return "<torch._C.Generator object>"


DEFAULT_SEED = 67280421310721  # a new torch.Generator()'s seed (c10's default_rng_seed_val)


def set_rng_state_of(gen, new_state, what="set_state"):
    """A generator's state from a uint8 tensor of torch's layout, with torch's checks."""
    if type(new_state) is not Tensor:
        raise GradTypeError(f"expected a torch.ByteTensor, but got {type_name(new_state)}")
    if new_state.data.dtype != np.uint8:
        raise GradTypeError("RNG state must be a torch.ByteTensor")
    if new_state.data.size != 5056:
        raise GradRuntimeError(
            "Expected a CPUGeneratorImplState of size 5056 but found the input RNG state "
            f"size to be {new_state.data.size}"
        )
    gen.set_torch_state(new_state.data.reshape(-1))


@register(
    "get_rng_state",
    "get_rng_state()",
    "the default generator's state (a uint8 tensor, as torch's)",
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("random values"),
    parser=None,
)
def get_rng_state():
    return Tensor(context.current.generator.torch_state())


@register(
    "set_rng_state",
    "set_rng_state(new_state)",
    "set the default generator's state (from get_rng_state)",
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("random values"),
    parser=None,
)
def set_rng_state(new_state):
    set_rng_state_of(context.current.generator, new_state)


def checked_seed(seed):
    """A seed as torch accepts it (an int, or a one-element tensor), with torch's errors."""
    if isinstance(seed, Tensor):
        seed = seed.item()
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise GradTypeError(f"manual_seed expected an int, got {type_name(seed)}")
    if not -(1 << 63) <= seed < 1 << 64:
        raise GradValueError("Overflow when unpacking long long")  # PyTorch's words
    return seed


def draws_from(generator, name):
    """The generator a `generator=` argument names (None: the default one)."""
    if generator is None:
        return context.current.generator
    if type(generator) is not TorchGenerator:
        raise GradTypeError(
            f"{name}(): argument 'generator' must be torch.Generator, not {type_name(generator)}"
        )
    return generator.gen


def _random(kind, size, dtype, requires_grad, generator=None):
    size = _check_sizes(size_args(size))
    dt = _dt(dtype)
    if dt.kind != "f":
        raise GradRuntimeError(
            f'"{"normal" if kind == "randn" else "uniform"}_kernel_cpu" not '
            f"implemented for '{dtypes.TORCH_NAMES[dt][6:].capitalize()}'"
        )
    if generator is None and not requires_grad:  # (an op: a replayed loop draws again)
        return Draws.apply(kind=kind, size=size, dtype=dt)
    gen = draws_from(generator, kind)
    arr = gen.randn(size, dt) if kind == "randn" else gen.rand(size, dt)
    return leaf(arr, requires_grad)


class Draws(Function):
    """`rand` and `randn` of the default generator, as an op of no tensor: its value is
    the generator's next draws (`draws`), so a replayed loop runs it in its place every
    iteration, never hoisted, and draws what the compiled loop would.  Drawn from a
    generator object or as a leaf that requires grad, the values are made without it
    (a replayed statement that reads them then falls back to the compiled loop)."""

    name = "Draws"  # (never a node: no tensor argument)
    draws = True
    jvp = none("no tensor argument: its draws are constants, never a node")
    saved_names = ()  # it saves nothing
    formula = none("no tensor argument: its draws are constants, never a node")

    def backward(self, g, F):  # (never called: no node is made)
        raise NotImplementedError(self.name)

    def forward(self, kind, size, dtype):
        gen = context.current.generator
        return gen.randn(size, dtype) if kind == "randn" else gen.rand(size, dtype)


@register(
    "rand",
    "rand(*size, dtype=None, requires_grad=False)",
    "uniform random values in [0, 1) (PyTorch's generator, see seed)",
    category="creation",
    batch=None,
    inplace=None,
    pure=True,
    checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
    parser=None,
)
def rand(*sizes, size=None, generator=None, dtype=None, requires_grad=False, device=None):
    on_cpu(device)
    size = _sizes(sizes, size, "rand")
    return _random("rand", size, dtype, requires_grad, generator)


@register(
    "randn",
    "randn(*size, dtype=None, requires_grad=False)",
    "standard normal random values (PyTorch's generator, see seed)",
    category="creation",
    batch=None,
    inplace=None,
    pure=True,
    checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
    parser=None,
)
def randn(*sizes, size=None, generator=None, dtype=None, requires_grad=False, device=None):
    on_cpu(device)
    size = _sizes(sizes, size, "randn")
    return _random("randn", size, dtype, requires_grad, generator)


@register(
    "randint",
    "randint(low=0, high, size, dtype=int64, requires_grad=False)",
    "random integers in [low, high) (PyTorch's generator, see seed)",
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
    parser=None,
)
def randint(
    *args,
    size=None,
    low=None,
    high=None,
    generator=None,
    dtype=None,
    requires_grad=False,
    device=None,
):
    on_cpu(device)
    args = list(args)
    if size is None and args and isinstance(args[-1], (tuple, list)):
        size = args.pop()
    if high is None and args:
        high = args.pop()
    if low is None:
        low = args.pop() if args else 0
    if args or size is None or high is None:
        raise GradTypeError("randint() expects randint(high, size) or randint(low, high, size)")
    size = _check_sizes(size_args((size,)))
    low, high = _num(low), _num(high)
    _numbers("randint", (low, high, size), ((int,), (int,), (tuple,)))
    if high <= low:
        raise GradRuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
        )
    dt = _dt(dtype, dtypes.int64)
    arr = draws_from(generator, "randint").randint(low, high, size, np.int64)
    return leaf(arr.astype(dt), requires_grad)


@register(
    "randint_like",
    "randint_like(input, low=0, high, dtype=None, requires_grad=False)",
    "random integers in [low, high) in the shape (and dtype) of input",
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
    parser=None,
)
def randint_like(
    input, *args, low=None, high=None, dtype=None, generator=None, requires_grad=False, device=None
):
    x = tensor_arg(input)
    if dtype is None:
        dtype = dtypes.DType(x.data.dtype)
    bounds = {} if low is None else {"low": low}
    if high is not None:
        bounds["high"] = high
    size = tuple(x.data.shape)
    return randint(
        *args,
        size,
        **bounds,
        generator=generator,
        dtype=dtype,
        requires_grad=requires_grad,
        device=device,
    )


def _own_shape(x, value, requires_grad):
    """`value` in x's shape and dtype (a valid shape: only the memory's check), as
    _filled makes it."""
    shape, dt = x.data.shape, x.data.dtype
    check_alloc(shape)
    if dt.kind == "f":
        if not requires_grad:  # (an op of the engine: a recording notes it)
            return Fill.apply(x, value)
        return leaf(Fill.forward(Fill, x.data, value), requires_grad)
    return leaf(np.full(shape, value, dt), requires_grad)


class Fill(Untracked):
    """`value` in the shape and float dtype of an array (np.full's copy, without its
    Python steps: the same rounding): the values of `ones_like`, `zeros_like` and
    `full_like`, an op that makes no node, so a recording notes it
    (library/function_plans.py)."""

    __slots__ = ()
    name = "fill"

    def forward(self, a, value):
        out = np.empty(a.shape, a.dtype)
        out.fill(value)
        return out


def _like(fn, name, doc, batch, fill=None, pure=False):
    @register(
        name,
        f"{name}(input, dtype=None, requires_grad=False)",
        doc,
        category="creation",
        batch=batch,
        inplace=None,
        # (a new leaf, not a node; a fill runs no code of the program, and a draw of the
        # default generator is an op that draws in its place: Draws)
        pure=pure if fill is None else "quiet",
        checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
        parser=None,
    )
    def like(input, dtype=None, requires_grad=False, device=None):
        on_cpu(device)
        x = tensor_arg(input)
        if fill is not None and dtype is None:
            return _own_shape(x, fill, requires_grad)
        return fn(
            x.data.shape,
            dtype=dtypes.DType(x.data.dtype) if dtype is None else dtype,
            requires_grad=requires_grad,
        )

    return like


_like(ones, "ones_like", "ones in the shape (and dtype) of input", "elementwise", 1)
_like(zeros, "zeros_like", "zeros in the shape (and dtype) of input", "elementwise", 0)
# torch leaves the values unset (whatever the memory held); gradcli's are zeros
_like(
    zeros,
    "empty_like",
    "a tensor in the shape (and dtype) of input, values unset",
    "elementwise",
    0,
)
# random values: each sample draws its own (the per-sample loop)
_like(randn, "randn_like", "standard normal values in the shape of input", None, pure=True)
_like(rand, "rand_like", "uniform [0, 1) values in the shape of input", None, pure=True)


@register(
    "full_like",
    "full_like(input, fill_value, dtype=None, requires_grad=False)",
    "fill_value in the shape (and dtype) of input",
    category="creation",
    batch="elementwise",
    inplace=None,
    pure="quiet",  # (a new leaf, not a node: never replayed)
    checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
    parser=None,
)
def full_like(input, fill_value, dtype=None, requires_grad=False, device=None):
    on_cpu(device)
    x = tensor_arg(input)
    if dtype is None and type(fill_value) in (float, int):
        return _own_shape(x, fill_value, requires_grad)
    return full(
        x.data.shape,
        fill_value,
        dtype=dtypes.DType(x.data.dtype) if dtype is None else dtype,
        requires_grad=requires_grad,
    )


@register(
    "Variable",
    "Variable(data, requires_grad=False)",
    "legacy spelling of a leaf tensor (torch.autograd.Variable)",
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
    parser=None,
)
def variable(data, requires_grad=False, volatile=False):
    x = tensor_arg(data)
    if volatile:
        context.warn(
            "volatile was removed and now has no effect. Use `with torch.no_grad():` instead."
        )
        if requires_grad:
            raise GradValueError("Variable can't be volatile and require_grad at the same time!")
    return leaf(x.data, requires_grad)


def _legacy(name, dt):
    @register(
        name,
        f"{name}(data or *size)",
        f"legacy constructor: a {dtypes.TORCH_NAMES.get(dt, 'default float')} tensor",
        category="creation",
        batch=None,
        inplace=None,
        pure=False,
        checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
        parser=None,
    )
    def ctor(*args):
        dtype = dt if dt is not None else context.current.default_float
        if len(args) == 1 and isinstance(args[0], (list, tuple, Tensor, float)):
            return leaf(to_array(args[0], dtype))
        if not args:
            return leaf(np.zeros((0,), dtype=dtype))  # torch.Tensor() is tensor([])
        if all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            return leaf(np.zeros(_check_sizes(args), dtype=dtype))
        raise GradTypeError(f"{name}(): expected a list of values or sizes")

    return ctor


_legacy("FloatTensor", dtypes.float32)
_legacy("DoubleTensor", dtypes.float64)
_legacy("LongTensor", dtypes.int64)
_legacy("BoolTensor", dtypes.bool_)
_legacy("Tensor", None)


def _new(fn, name, doc):
    """x.new_ones(*size) and its kin: fn's tensor in x's dtype unless dtype= says."""

    @register(
        name,
        f"x.{name}(*size, dtype=None, requires_grad=False)",
        doc,
        method=True,
        function=False,
        category="creation",
        batch=None,
        inplace=None,
        pure=False,
        checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
        parser=None,
    )
    def new(self, *sizes, size=None, dtype=None, requires_grad=False, device=None):
        x = tensor_arg(self)
        dt = dtypes.DType(x.data.dtype) if dtype is None else dtype
        return fn(*sizes, size=size, dtype=dt, requires_grad=requires_grad, device=device)

    return new


_new(ones, "new_ones", "ones of the given size, in x's dtype")
_new(zeros, "new_zeros", "zeros of the given size, in x's dtype")
_new(empty, "new_empty", "a tensor of the given size (of zeros here), in x's dtype")


@register(
    "new_full",
    "x.new_full(size, fill_value, dtype=None, requires_grad=False)",
    "fill_value in the given size, in x's dtype",
    method=True,
    function=False,
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
    parser=None,
)
def new_full(self, size, fill_value, dtype=None, requires_grad=False, device=None):
    x = tensor_arg(self)
    dt = dtypes.DType(x.data.dtype) if dtype is None else dtype
    return full(size, fill_value, dtype=dt, requires_grad=requires_grad, device=device)


@register(
    "new_tensor",
    "x.new_tensor(data, dtype=None, requires_grad=False)",
    "a new leaf tensor of data, in x's dtype",
    method=True,
    function=False,
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("makes a new tensor from values or a shape: nothing to differentiate"),
    parser=None,
)
def new_tensor(self, data, dtype=None, requires_grad=False, device=None):
    x = tensor_arg(self)
    if isinstance(data, Tensor):
        context.warn(
            "To copy construct from a tensor, it is recommended to use "
            "sourceTensor.detach().clone() or sourceTensor.detach().clone()"
            ".requires_grad_(True), rather than tensor.new_tensor(sourceTensor)."
        )
    dt = dtypes.DType(x.data.dtype) if dtype is None else dtype
    return tensor(data, dtype=dt, requires_grad=requires_grad, device=device)
