"""torch.func.vmap: f runs once on batched inputs (ops/batching.py), and the
transforms that run inside it on whole batches (grad, grad_and_value, jacrev,
jacfwd); also a batched tensor's surface in the language (shape, methods,
indexing).  See docs/calculus.md, Transforms."""

from __future__ import annotations

import numpy as np

from ..runtime import context
from ..runtime.device import CPU
from ..runtime.errors import GradError, GradRuntimeError, GradValueError
from ..core import dtypes
from ..core.convert import type_name
from ..core.tensor import Tensor
from ..ops import batching as bt
from ..ops.batching import Batched
from ..ops.return_types import ValuesIndices
from ..ops.registry import batch_kind
from . import func
from . import transform_base as tb
from .func import BATCHED, Transformed as func_transformed, _Enabled
from .func import _argnums as func_argnums
from .values import METHODS, Size


class State:
    level = 0  # the innermost running vmap's level (0: none)
    label = ""  # the function of the vmap whose results are being put together


# ---------------------------------------------------------------- the language surface


class BatchedMethod:
    """x.name on a batched tensor: the tensor method, batched."""

    __slots__ = ("obj", "name", "fn")

    def __init__(self, obj, name, fn):
        self.obj, self.name, self.fn = obj, name, fn

    def __call__(self, *a, **k):
        return bt.dispatch(self.fn, (self.obj,) + a, k, name=self.name)

    def __repr__(self):
        return f"<built-in method {self.name} of Tensor object>"


_ATTRS = {
    "shape": lambda b: Size(b.shape),
    "ndim": lambda b: b.ndim,
    "dtype": lambda b: dtypes.DType(b.dtype),
    "device": lambda b: CPU,
    "is_cuda": lambda b: False,
    "is_cpu": lambda b: True,
    "T": lambda b: bt.op("numpy_T", b),
    "mT": lambda b: bt.op("transpose", b, -2, -1),
    "requires_grad": lambda b: b.requires_grad,
    "is_leaf": lambda b: False,
    "grad_fn": lambda b: None,
    "data": lambda b: b,
}


def language_getattr(b, name):
    get = _ATTRS.get(name)
    if get is not None:
        return get(b)
    fn = METHODS.get(name)
    if fn is not None:
        return BatchedMethod(b, name, fn)
    raise AttributeError(name)


def language_getitem(b, key):
    return bt.op("index", b, key)


bt.LANGUAGE.update(getattr=language_getattr, getitem=language_getitem)


@batch_kind("size")
def _size(level, fn, args, kwargs):
    x = args[0]
    dim = args[1] if len(args) > 1 else kwargs.get("dim")
    if dim is None:
        return Size(x.shape)
    return x.shape[dim]


@batch_kind("dim")
def _dim(level, fn, args, kwargs):
    return args[0].ndim


@batch_kind("numel")
def _numel(level, fn, args, kwargs):
    return int(np.prod(args[0].shape, dtype=np.int64))


@batch_kind("item")
def _item(level, fn, args, kwargs):
    raise GradRuntimeError(
        "vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over "
        "calling .item() on a Tensor, please try to rewrite what you're doing with other "
        "operations. If error is occurring somewhere inside PyTorch internals, please file a "
        "bug report."
    )


@batch_kind("len")
def _len(level, fn, args, kwargs):
    return len(args[0])


# ---------------------------------------------------------------- vmap


def _tree(fn, obj):
    """fn on every tensor (Tensor or Batched) of a pytree (tuples, lists, dicts)."""
    if isinstance(obj, (Tensor, Batched)):
        return fn(obj)
    if type(obj) in (tuple, list):
        return type(obj)(_tree(fn, o) for o in obj)
    if type(obj) is dict:
        return {k: _tree(fn, v) for k, v in obj.items()}
    return obj


def _tree2(fn, obj, spec):
    """fn(tensor, its in_dim) over obj with in_dims spec (an int/None for a whole subtree)."""
    if spec is None or isinstance(spec, int):
        return _tree(lambda t: fn(t, spec), obj)
    if type(obj) in (tuple, list) and isinstance(spec, (tuple, list)) and len(obj) == len(spec):
        return type(obj)(_tree2(fn, o, s) for o, s in zip(obj, spec))
    if type(obj) is dict and isinstance(spec, dict):
        return {k: _tree2(fn, v, spec.get(k)) for k, v in obj.items()}
    raise GradValueError(
        f"vmap: in_dims is not compatible with the structure of `inputs`: "
        f"{type_name(spec)} for a {type_name(obj)}"
    )


def _dims(in_dims, args, label):
    if in_dims is None or isinstance(in_dims, int):
        return [in_dims] * len(args)
    if not isinstance(in_dims, (tuple, list)) or len(in_dims) != len(args):
        raise GradValueError(
            f"vmap({label}, in_dims={in_dims!r}, ...)(<inputs>): in_dims is not compatible "
            f"with the structure of `inputs`. in_dims has structure {type_name(in_dims)} but "
            f"inputs has structure of {len(args)} arguments."
        )
    return list(in_dims)


class _NoRandom:
    """The generator while vmap(randomness="error") runs: drawing is PyTorch's error."""

    def __getattr__(self, name):
        def refuse(*a, **k):
            raise GradRuntimeError(
                "vmap: called random operation while in randomness error mode. Please either "
                "use the 'same' or 'different' randomness flags on vmap or perform the "
                "randomness operation out of vmap"
            )

        return refuse


def vmap(func, in_dims=0, out_dims=0, randomness="error", chunk_size=None):
    if randomness not in ("error", "different", "same"):
        raise GradRuntimeError(
            f"Only allowed values for randomness are 'error', 'different', "
            f"or 'same'. Got {randomness}"
        )
    label = getattr(func, "name", None) or getattr(func, "__name__", None) or "<lambda>"

    def wrapper(*args, **kwargs):
        dims = _dims(in_dims, args, label)
        sizes = []

        def check(t, d):
            if d is None:
                return t
            nd = len(t.shape)
            if not -nd <= d < nd:
                raise GradValueError(
                    f"vmap({label}, in_dims={in_dims!r}, ...)(<inputs>): Got in_dim={d} for "
                    f"some input, but that input is a Tensor of dimensionality {nd} so "
                    f"expected in_dim to satisfy -{nd} <= in_dim < {nd}."
                )
            sizes.append(t.shape[d % nd])
            return t

        for a, d in zip(args, dims):
            _tree2(check, a, d)
        if not sizes:
            raise GradValueError(
                f"vmap({label}, in_dims={in_dims!r}, ...)(<inputs>): at least one input must "
                "be a Tensor mapped over a dimension (in_dims not all None)."
            )
        if len(set(sizes)) > 1:
            raise GradValueError(
                "vmap: Expected all tensors to have the same size in the "
                f"mapped dimension, got sizes {sizes} for the mapped dimension"
            )
        n = sizes[0]
        ctx = context.current
        saved_gen = ctx._generator
        if randomness == "error":
            ctx._generator = _NoRandom()
        prev_level = State.level
        level = State.level = max(State.level, bt.level_of(args, kwargs)) + 1
        if randomness == "same":
            bt.SAME_RANDOMNESS.add(level)
        try:
            if randomness == "different":
                out = _per_sample(func, args, dims, kwargs, n)
            else:
                bargs = [
                    _tree2(
                        lambda t, d: t if d is None else bt.moved_in(t, d % len(t.shape), level),
                        a,
                        d,
                    )
                    for a, d in zip(args, dims)
                ]
                out = _run(func, bargs, kwargs, level, n)
        finally:
            bt.SAME_RANDOMNESS.discard(level)
            State.level = prev_level
            if randomness == "error":
                ctx._generator = saved_gen
        State.label = label
        return _outputs(out, out_dims, level, n)

    return func_transformed(wrapper, label, ("vmap", wrapper, None))


def _per_sample(func, args, dims, kwargs, n):
    """randomness="different": f on each sample (each draws its own random numbers)."""
    outs = []
    for b in range(n):
        sample = [
            _tree2(
                lambda t, d: (
                    t
                    if d is None
                    else bt.op("index", t, (slice(None),) * (d % len(t.shape)) + (b,))
                ),
                a,
                d,
            )
            for a, d in zip(args, dims)
        ]
        outs.append(bt.call(func, sample, kwargs))
    return _Stacked(outs)


class _Stacked:
    __slots__ = ("outs",)

    def __init__(self, outs):
        self.outs = outs


def _run(func, bargs, kwargs, level, n):
    if bt.resolve(func, bargs)[1] is not None:
        # vmap(torch.sum)(x): the op itself, batched
        return bt.dispatch(func, bargs, kwargs, level)
    try:
        return func(*bargs, **kwargs)
    except GradError as e:
        if e.line is not None:  # an error of the program itself
            raise
        return bt.loop(func, bargs, kwargs, level, n)  # library code that met a Batched


def _outputs(out, out_dims, level, n):
    if isinstance(out, _Stacked):
        out = bt.stack_results(out.outs, level, n)
    if isinstance(out, (Tensor, Batched)):
        d = out_dims if not isinstance(out_dims, (tuple, list)) else out_dims[0]
        return bt.moved_out(out, level, d, n)
    if type(out) is ValuesIndices:
        return ValuesIndices(
            _outputs(out[0], out_dims, level, n), _outputs(out[1], out_dims, level, n), out.kind
        )
    if type(out) in (tuple, list, Size):
        ds = out_dims if isinstance(out_dims, (tuple, list)) else [out_dims] * len(out)
        return tuple(_outputs(o, d, level, n) for o, d in zip(out, ds))
    if type(out) is dict:
        return {k: _outputs(v, out_dims, level, n) for k, v in out.items()}
    if out_dims is None:
        return out
    label = State.label
    raise GradValueError(
        f"vmap({label}, ...): `{label}` must only return Tensors, got type "
        f"<class '{type_name(out)}'>. Did you mean to set out_dims= to None "
        "for output?"
    )


# ---------------------------------------------------------------- transforms on a batch


def _physical_inputs(obj, level, n, phys):
    """obj's tensors as Batched of `level` over fresh physical leaves (plain tensors
    expanded to the batch); the leaves are appended to phys."""

    def make(t):
        v = bt.unwrap(t, level)
        if v is None:
            v = bt.expand_to(t, n)
        if type(v) is not Tensor:
            raise _Nested()
        leaf = tb.track(v)
        phys.append(leaf)
        return Batched(leaf, level)

    return _tree(make, obj)


class _Nested(Exception):
    """A batched input of an outer vmap too: left to the loop."""


def _physical_out(o, level, n):
    v = bt.unwrap(o, level)
    if v is None:
        if isinstance(o, Batched):
            raise _Nested()
        v = bt.expand_to(o, n)
    return v


def _release(obj, level, keep):
    return _tree(
        lambda t: (
            t
            if keep
            else Batched(tb.release(t.value), level)
            if isinstance(t, Batched)
            else tb.release(t)
        ),
        obj,
    )


def _grad_batched(level, how, args, kwargs):
    kind, f, (argnums, has_aux) = how
    args = list(args)
    n = bt.batch_size(args, kwargs, level)
    nums = func_argnums(argnums, len(args))
    phys = []
    try:
        with _Enabled():
            for k in nums:
                args[k] = _physical_inputs(args[k], level, n, phys)
            out = f(*args, **kwargs)
            aux = None
            if has_aux:
                if not (isinstance(out, tuple) and len(out) == 2):
                    raise GradRuntimeError(
                        f"{kind}(f)(*args): output of function f should be "
                        "a tuple: (output, aux) if has_aux is True"
                    )
                out, aux = out
            if not isinstance(out, (Tensor, Batched)):
                raise GradRuntimeError(
                    f"{kind}(f)(*args): Expected f(*args) to return a "
                    f"Tensor, got <class '{type_name(out)}'>"
                )
            if len(out.shape):
                raise GradRuntimeError(
                    f"{kind}(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                    f"tensor with {len(out.shape)} dims. Maybe you wanted to use the vjp or "
                    "jacrev APIs instead?"
                )
            ov = _physical_out(out, level, n)
            gs = tb.grads((ov,), (Tensor(np.ones(n, ov.data.dtype)),), phys)
    except _Nested:
        return NotImplemented
    it = iter(Batched(g, level) for g in gs)
    pieces = [_tree(lambda _t: next(it), args[k]) for k in nums]
    keep = any(p.requires_grad and p.grad_fn is not None for p in phys)
    g = pieces[0] if isinstance(argnums, int) else tuple(pieces)
    g = _release(g, level, keep)
    value = _release(Batched(ov, level), level, keep)
    if kind == "grad":
        return (g, _release(aux, level, keep)) if has_aux else g
    return (g, (value, _release(aux, level, keep))) if has_aux else (g, value)


def _jacrev_batched(level, how, args, kwargs):
    _, f, (argnums, has_aux) = how
    args = list(args)
    n = bt.batch_size(args, kwargs, level)
    nums = func_argnums(argnums, len(args))
    phys, per_arg = [], []
    try:
        with _Enabled():
            for k in nums:
                before = len(phys)
                args[k] = _physical_inputs(args[k], level, n, phys)
                per_arg.append((before, len(phys)))
            out = f(*args, **kwargs)
            aux = None
            if has_aux:
                out, aux = out
            per_output = []
            for o in _leaves(out):
                ov = _physical_out(o, level, n)
                oshape = tuple(o.shape)
                rows = []
                for e in tb.basis(Tensor(np.zeros(oshape, ov.data.dtype))):
                    head = Tensor(np.broadcast_to(e.data, (n,) + oshape))
                    rows.append(tb.grads((ov,), (head,), phys))
                jacs = []
                for k, x in enumerate(phys):
                    parts = [r[k] for r in rows]
                    shape = (n,) + oshape + tuple(x.shape[1:])
                    jacs.append(
                        Batched(
                            bt.op("reshape", bt.op("stack", parts, 1), shape)
                            if parts
                            else Tensor(np.zeros(shape, x.data.dtype)),
                            level,
                        )
                    )
                groups = [_unflat(args[k], jacs[a:b]) for k, (a, b) in zip(nums, per_arg)]
                per_output.append(groups[0] if isinstance(argnums, int) else tuple(groups))
    except _Nested:
        return NotImplemented
    keep = any(p.requires_grad and p.grad_fn is not None for p in phys)
    res = per_output[0] if isinstance(out, (Tensor, Batched)) else tuple(per_output)
    res = _release(res, level, keep)
    return (res, _release(aux, level, keep)) if has_aux else res


def _jacfwd_batched(level, how, args, kwargs):
    _, f, (argnums, has_aux) = how
    args = list(args)
    n = bt.batch_size(args, kwargs, level)
    nums = func_argnums(argnums, len(args))
    try:
        phys_args = [_tree(lambda t: _physical_out(t, level, n), a) for a in args]
    except _Nested:
        return NotImplemented
    inner, box = tb.keeping_aux(
        lambda *a: f(
            *[
                _tree(lambda t: Batched(t, level), x)
                if i in nums or _has_batched(args[i])
                else args[i]
                for i, x in enumerate(a)
            ],
            **kwargs,
        ),
        has_aux,
    )

    def run(*a):
        return _tree(lambda o: _physical_out(o, level, n), inner(*a))

    for i, a in enumerate(args):  # unbatched inputs stay as they are
        if i not in nums and not _has_batched(a):
            phys_args[i] = a
    cols = {}
    out = None
    with _Enabled():
        for k in nums:
            cols[k] = []
            for leaf_i, x in enumerate(_leaves(phys_args[k])):
                for e in tb.basis(Tensor(np.zeros(tuple(x.shape[1:]), x.data.dtype))):
                    tangent = Tensor(np.ascontiguousarray(np.broadcast_to(e.data, x.shape)))
                    ts = [None] * len(args)
                    ts[k] = _unflat(
                        phys_args[k],
                        [
                            tangent if j == leaf_i else Tensor(np.zeros(y.shape, y.data.dtype))
                            for j, y in enumerate(_leaves(phys_args[k]))
                        ],
                    )
                    out, tans = tb.tangents_at(run, list(phys_args), ts)
                    cols[k].append((leaf_i, _leaves(tans)))
        if out is None:
            out = run(*phys_args)
        per_output = []
        for j, o in enumerate(_leaves(out)):
            groups = []
            for k in nums:
                jacs = []
                for leaf_i, x in enumerate(_leaves(phys_args[k])):
                    parts = [t[j] for li, t in cols[k] if li == leaf_i]
                    shape = tuple(o.shape) + tuple(x.shape[1:])
                    jacs.append(
                        Batched(bt.op("reshape", bt.op("stack", parts, -1), shape), level)
                        if parts
                        else Batched(Tensor(np.zeros(shape)), level)
                    )
                groups.append(_unflat(args[k], jacs))
            per_output.append(groups[0] if isinstance(argnums, int) else tuple(groups))
    keep = any(t.requires_grad for t in _leaves(phys_args) if isinstance(t, Tensor))
    res = per_output[0] if isinstance(out, Tensor) else tuple(per_output)
    res = _release(res, level, keep)
    return (res, _release(box[0], level, keep)) if has_aux else res


def _has_batched(obj):
    return any(isinstance(t, Batched) for t in _leaves(obj))


def _leaves(obj):
    out = []
    _tree(out.append, obj)
    return out


def _unflat(obj, items):
    it = iter(items)
    return _tree(lambda _t: next(it), obj)


BATCHED.update(
    vmap=lambda level, how, a, k: how[1](*a, **k),  # nested: levels of its own
    grad=_grad_batched,
    grad_and_value=_grad_batched,
    jacrev=_jacrev_batched,
    jacfwd=_jacfwd_batched,
)
func.MEMBERS["vmap"] = vmap
