"""Random sampling beyond creation: `torch.multinomial`, `torch.bernoulli`, `x.exponential_()`,
`x.random_()`, and `torch.Generator` objects (`generator=` on every draw), each drawing
what PyTorch's CPU kernels draw from the same generator (numerics/random/sampling.py)."""

from __future__ import annotations

import numpy as np

from ..runtime import context
from ..numerics.random import sampling
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..core import dtypes
from ..core.convert import type_name
from ..core.tensor import Tensor
from ..engine.declare import none
from ..engine.function import Function
from ..ops.creation import TorchGenerator, draws_from
from ..ops.registry import register
from ..ops.topk import topk_indices
from .inplace import inplace


def _top(rows, n):
    return topk_indices(rows, n, 1, True, True)


@register(
    "multinomial",
    "multinomial(input, num_samples, replacement=False, *, generator=None)",
    "indices drawn from the categories of input's last dim, with weights input",
    method=True,
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("random values: nothing to compare finite differences with"),
    parser=None,
)
def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    if type(input) is not Tensor:
        raise GradTypeError(
            f"multinomial(): argument 'input' (position 1) must be Tensor, not {type_name(input)}"
        )
    if isinstance(num_samples, bool) or not isinstance(num_samples, int):
        raise GradTypeError(
            "multinomial(): argument 'num_samples' (position 2) must be int, not "
            f"{type_name(num_samples)}"
        )
    gen = draws_from(generator, "multinomial")
    p = input.data
    if not 1 <= p.ndim <= 2:
        raise GradRuntimeError("prob_dist must be 1 or 2 dim")
    if p.dtype.kind != "f":
        raise GradRuntimeError(
            "multinomial only supports floating-point dtypes for input, got: "
            + dtypes.scalar_type_name(p.dtype)
        )
    if num_samples <= 0:
        raise GradRuntimeError("cannot sample n_sample <= 0 samples")
    cats = p.shape[-1]
    if not replacement and num_samples > cats:
        raise GradRuntimeError(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement"
        )
    if cats > 1 << 24:
        raise GradRuntimeError("number of categories cannot exceed 2^24")
    rows = p.reshape(-1, cats)
    if not replacement or num_samples == 1:
        if p.size and not (np.all(p < np.inf) and np.all(p >= 0)):
            raise GradRuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if np.any(rows.sum(axis=1) == 0):
            raise GradRuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    else:
        for row in rows:
            if not np.all(row >= 0):  # (NaN too: the kernel tests val >= 0 first)
                raise GradRuntimeError(
                    "invalid multinomial distribution (encountering probability entry < 0)"
                )
            if not np.all(np.isfinite(row)):
                raise GradRuntimeError(
                    "invalid multinomial distribution (encountering probability entry = "
                    "infinity or NaN)"
                )
            if not np.cumsum(row, dtype=row.dtype)[-1] > 0:
                raise GradRuntimeError(
                    "invalid multinomial distribution (sum of probabilities <= 0)"
                )
    return Tensor(sampling.multinomial(gen, p, num_samples, bool(replacement), _top))


@register(
    "bernoulli",
    "bernoulli(input, *, generator=None)",
    "1 with probability input, else 0, for each element (input's dtype)",
    method=True,
    category="creation",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("random values: nothing to compare finite differences with"),
    parser=None,
)
def bernoulli(input, p=None, *, generator=None, out=None):
    if type(input) is not Tensor:
        raise GradTypeError(
            f"bernoulli(): argument 'input' (position 1) must be Tensor, not {type_name(input)}"
        )
    if p is not None:
        raise GradTypeError("bernoulli(input, p): gradcli draws torch.bernoulli(input) only")
    probs = input.data
    if probs.dtype.kind != "f":
        raise GradRuntimeError(
            f'"bernoulli_tensor_cpu_p_" not implemented for '
            f"'{dtypes.scalar_type_name(probs.dtype)}'"
        )
    gen = draws_from(generator, "bernoulli")
    if probs.size and not np.all((probs >= 0) & (probs <= 1)):
        raise GradRuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
    return Tensor(sampling.bernoulli_each(gen, probs))


class _Drawn(Function):
    """An in-place draw into a tensor of a graph: its gradient is zero."""

    __slots__ = ()
    jvp = none("a draw has no forward-mode rule in gradcli")
    saved_names = ()  # saves nothing
    formula = none("a random draw: shown as a named function with its local Jacobian")

    def forward(self, x, values):
        return values

    def backward(self, g, F):
        return (g * 0,)


def _drawn(name):
    return type(name, (_Drawn,), {"__slots__": (), "name": name})


_NODES = {n: _drawn(n) for n in ("RandomBackward0", "RandomBackward1", "RandomBackward2")}
_NODES["ExponentialBackward0"] = _drawn("ExponentialBackward0")


def _fill(x, name, values):
    node = _NODES[name]
    return inplace(x, lambda t: node.apply(t, values=values.astype(x.data.dtype, copy=False)))


def _check_tensor(x, what):
    if type(x) is not Tensor:
        raise GradTypeError(f"{what}(): argument 'self' must be Tensor, not {type_name(x)}")


@register(
    "exponential_",
    "x.exponential_(lambd=1, *, generator=None)",
    "fill x with samples of the exponential distribution of rate lambd, in place",
    method=True,
    function=False,
    category="tensor",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("random values: nothing to compare finite differences with"),
    parser=None,
)
def exponential_(x, lambd=1.0, *, generator=None):
    _check_tensor(x, "exponential_")
    if x.data.dtype.kind != "f":
        raise GradRuntimeError(
            "Exponential distribution is a continuous probability distribution. dtype must be a "
            f"floating point but you specified {dtypes.scalar_type_name(x.data.dtype)}"
        )
    if not (lambd > 0 and lambd != float("inf")):
        raise GradRuntimeError(
            f"exponential_ expects lambda > 0.0, but found lambda={float(lambd):g}"
        )
    gen = draws_from(generator, "exponential_")
    return _fill(
        x, "ExponentialBackward0", sampling.exponential(gen, x.data.shape, lambd, x.data.dtype)
    )


def _full_range(gen, n, dt):
    """random_() with no bounds: [0, 2**digits] for floats, [0, max] for integers."""
    dt = np.dtype(dt)
    if dt == np.bool_:
        return (gen._raw32(n) & np.uint64(1)).astype(np.bool_)
    wide = dt in (np.dtype(np.float64), np.dtype(np.int64))
    raw = gen._raw64(n) if wide else gen._raw32(n)
    if dt.kind == "f":
        mod = (1 << np.finfo(dt).nmant + 1) + 1
    else:
        mod = int(np.iinfo(dt).max) + 1
    return (raw % np.uint64(mod)).astype(dt)


_FLOAT_DIGITS = {"float32": 24, "float64": 53, "float16": 11}
_C_NAME = {"float32": "float", "float64": "double", "float16": "c10::Half"}


@register(
    "random_",
    "x.random_(from=0, to=None, *, generator=None)",
    "fill x with integers drawn uniformly from [from, to) (no bounds: the dtype's range)",
    method=True,
    function=False,
    category="tensor",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("random values: nothing to compare finite differences with"),
    parser=None,
)
def random_(x, *args, generator=None, **kw):
    _check_tensor(x, "random_")
    args = list(args)
    low = kw.pop("from", None)
    high = kw_high = kw.pop("to", None)
    if kw:
        raise GradTypeError(f"random_() got an unexpected keyword argument '{next(iter(kw))}'")
    if len(args) > 2:
        raise GradTypeError(f"random_() takes at most 2 arguments ({len(args)} given)")
    if len(args) == 2:
        low, high = args
    elif len(args) == 1:
        high = args[0]  # random_(to), or random_(from, to=...) when `to` is a keyword
        if kw_high is not None:
            low, high = high, kw_high
    gen = draws_from(generator, "random_")
    shape, dt = x.data.shape, x.data.dtype
    if low is None and high is None:
        return _fill(x, "RandomBackward2", _full_range(gen, int(np.prod(shape)), dt).reshape(shape))
    one_bound = low is None
    low = 0 if low is None else low
    for v in (low, high):
        if isinstance(v, bool) or not isinstance(v, int):
            raise GradTypeError(f"random_(): argument 'to' must be int, not {type_name(v)}")
    if high <= low:
        raise GradRuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
        )
    digits = _FLOAT_DIGITS.get(dt.name)
    if digits is not None:
        bound = 1 << digits
        for what, v in (("from", low), ("to - 1", high - 1)):
            if not -bound <= v <= bound:
                context.warn(
                    f"{what} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                    f"limitations {_C_NAME[dt.name]} can support "
                    "discrete uniform distribution only within this range. This warning will "
                    "become an error in version 1.7 release, please fix the code in advance"
                )
    values = gen.randint(low, high, shape, np.int64)
    return _fill(x, "RandomBackward1" if one_bound else "RandomBackward0", values)


def namespace_members():
    """Names of the torch namespace from this module."""
    return {"Generator": TorchGenerator}
