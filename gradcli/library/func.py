"""torch.func: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap, linearize.

Each transform returns a function of the language.  Inputs are tracked
(transform_base.track) so that transforms compose: the reverse transforms always
create the graph, and forward ones open a dual level of the forward-mode engine,
whose levels nest (engine/forward.py), so jacfwd(jacrev(f)), grad(grad(f)) and
vmap(grad(f)) work to any depth.  vmap runs f once per sample and stacks the
results (see docs/calculus.md, Transforms).
"""

from __future__ import annotations

import numpy as np

from ..runtime.errors import GradRuntimeError
from ..core.convert import type_name
from ..runtime import context
from ..core.tensor import Tensor
from ..ops import batching as bt
from ..ops.registry import FUNCTIONS
from ..ops.shape import alias
from . import transform_base as tb


BATCHED = {}  # transform kind -> its implementation on a batch of vmap (library/vmap.py)
FAST = {}  # jacrev/jacfwd in one batched pass (library/vectorize.py); None: f does not batch


class Transformed:
    """A function made by a transform (PyTorch prints it as the wrapped function).
    `how`: (kind, f, options) for the transforms that also run batched inside vmap."""

    __slots__ = ("fn", "label", "how")

    def __init__(self, fn, label, how=None):
        self.fn, self.label, self.how = fn, label, how

    def __call__(self, *a, **k):
        level = bt.level_of(a, k)
        if level:  # called inside vmap with batched arguments
            run = BATCHED.get(self.how[0]) if self.how else None
            out = run(level, self.how, a, k) if run is not None else NotImplemented
            return bt.loop(self.fn, a, k, level) if out is NotImplemented else out
        return self.fn(*a, **k)

    def __repr__(self):
        return f"<function {self.label}>"


def _label(f):
    return getattr(f, "name", None) or getattr(f, "__name__", None) or "<lambda>"


def _argnums(argnums, n):
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    if not nums:
        raise GradRuntimeError("argnums must be non-empty")
    for a in nums:
        if not isinstance(a, int) or isinstance(a, bool):
            raise GradRuntimeError(f"argnums must be int or Tuple[int, ...], got: {type_name(a)}")
        if not -n <= a < n:
            raise GradRuntimeError(f"Got argnum={a}, but only {n} positional inputs")
    nums = tuple(a % n for a in nums)
    if len(set(nums)) != len(nums):
        raise GradRuntimeError(f"argnums elements must be unique, got {tuple(argnums)}")
    return nums


class _Enabled:
    def __enter__(self):
        self.prev = context.current.grad_enabled
        context.current.grad_enabled = True

    def __exit__(self, *e):
        context.current.grad_enabled = self.prev


def _outer(args):
    return any(t.requires_grad for t in tb.leaves(list(args)))


def _finish(obj, outer):
    return obj if outer else tb.tree_map(tb.release, obj)


def _grad_and_value(f, argnums, has_aux, args, kwargs, name="grad_and_value"):
    nums = _argnums(argnums, len(args))
    outer = _outer([args[n] for n in nums])
    args = list(args)
    originals = {}  # a tracked input -> the argument it stands for
    with _Enabled():
        for n in nums:
            tracked = tb.tree_map(tb.track, args[n])
            for t, o in zip(tb.leaves(tracked), tb.leaves(args[n])):
                originals[id(t)] = o
            args[n] = tracked
        out = f(*args, **kwargs)
        aux = None
        if has_aux:
            if not (isinstance(out, tuple) and len(out) == 2):
                raise GradRuntimeError(
                    f"{name}(f)(*args): output of function f should be a "
                    "tuple: (output, aux) if has_aux is True"
                )
            out, aux = out
        if not isinstance(out, Tensor):
            raise GradRuntimeError(
                f"{name}(f)(*args): Expected f(*args) to return a Tensor, "
                f"got <class '{type_name(out)}'>"
            )
        if out.data.ndim != 0:
            raise GradRuntimeError(
                f"{name}(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor with "
                f"{out.data.ndim} dims. Maybe you wanted to use the vjp or jacrev APIs instead?"
            )
        wrt = tb.leaves([args[n] for n in nums])
        gs = tb.grads((out,), (None,), wrt)
        pieces = [
            tb.unflatten(args[n], gs[k : k + len(tb.leaves(args[n]))])
            for n, k in zip(nums, _offsets([args[n] for n in nums]))
        ]
    g = pieces[0] if isinstance(argnums, int) else tuple(pieces)
    g = _finish(g, outer)
    value = _finish(out, outer)
    if has_aux:  # an input given back as aux is the argument itself (PyTorch unwraps it)
        aux = tb.tree_map(
            lambda t: originals[id(t)] if id(t) in originals else _finish(t, outer), aux
        )
        return g, (value, aux)
    return g, value


def _offsets(objs):
    out, k = [], 0
    for o in objs:
        out.append(k)
        k += len(tb.leaves(o))
    return out


def grad_and_value(func, argnums=0, has_aux=False):
    def wrapper(*args, **kwargs):
        g, v = _grad_and_value(func, argnums, has_aux, args, kwargs)
        return g, v

    return Transformed(wrapper, _label(func), ("grad_and_value", func, (argnums, has_aux)))


def grad(func, argnums=0, has_aux=False):
    def wrapper(*args, **kwargs):
        g, v = _grad_and_value(func, argnums, has_aux, args, kwargs)
        if has_aux:
            return g, v[1]
        return g

    return Transformed(wrapper, _label(func), ("grad", func, (argnums, has_aux)))


def vjp(func, *primals, has_aux=False):
    outer = _outer(primals)
    with _Enabled():
        args = [tb.tree_map(tb.track, p) for p in primals]
        out = func(*args)
        aux = None
        if has_aux:
            out, aux = out
    outs = tb.leaves(out)
    wrt = tb.leaves(args)

    def vjp_fn(*cotangents):
        cots = tb.leaves(list(cotangents))
        if len(cots) != len(outs):
            raise GradRuntimeError(
                "Expected pytree structure of cotangents to be the same as "
                "pytree structure of outputs to the function."
            )
        with _Enabled():
            gs = tb.grads(outs, cots, wrt)
        res = tuple(
            tb.unflatten(a, gs[k : k + len(tb.leaves(a))]) for a, k in zip(args, _offsets(args))
        )
        return _finish(res, outer)

    fn = Transformed(vjp_fn, "vjp.<locals>.wrapper")
    if has_aux:
        return _finish(out, outer), fn, _finish(aux, outer)
    return _finish(out, outer), fn


def jvp(func, primals, tangents, *, has_aux=False):
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise GradRuntimeError(
            "jvp(f, primals, tangents): Expected primals to be a tuple. "
            "E.g. it should be valid to call f(*primals)."
        )
    if len(primals) != len(tangents):
        raise GradRuntimeError(
            "jvp(f, primals, tangents): Expected primals and tangents to "
            "have the same python structure."
        )
    run, box = tb.keeping_aux(func, has_aux)
    with _Enabled():
        out, tans = tb.tangents_at(run, list(primals), list(tangents))
        out = tb.tree_map(lambda o: alias(o) if o.requires_grad else o, out)  # the primal view
    if has_aux:
        return out, tans, box[0]
    return out, tans


def linearize(func, *primals):
    out = func(*primals)

    def jvp_fn(*tangents):
        return jvp(func, primals, tangents)[1]

    return out, Transformed(jvp_fn, "linearize.<locals>.jvp_fn")


def _jac_structure(out, per_output):
    """The Jacobians in the structure of the output (a pytree: tuples, lists, dicts)."""
    if isinstance(out, Tensor):
        return per_output[0]
    return tb.unflatten(out, per_output)


def jacrev(func, argnums=0, has_aux=False, chunk_size=None):
    def wrapper(*args):
        nums = _argnums(argnums, len(args))
        outer = _outer([args[n] for n in nums])
        fast = None if has_aux else FAST["jacrev"](func, argnums, nums, args)
        if fast is not None:
            return _finish(fast, outer)
        args_ = list(args)
        with _Enabled():
            for n in nums:
                args_[n] = tb.tree_map(tb.track, args_[n])
            out = func(*args_)
            aux = None
            if has_aux:
                out, aux = out
            wrt = [args_[n] for n in nums]
            per_output = []
            for o in tb.leaves(out):
                rows = [tb.grads((o,), (e,), wrt) for e in tb.basis(o)]
                per_in = [
                    tb.assemble([r[k] for r in rows], o.data.shape, x.data.shape, x.data.dtype)
                    for k, x in enumerate(wrt)
                ]
                per_output.append(per_in[0] if isinstance(argnums, int) else tuple(per_in))
        res = _finish(_jac_structure(out, per_output), outer)
        return (res, _finish(aux, outer)) if has_aux else res

    return Transformed(wrapper, _label(func), ("jacrev", func, (argnums, has_aux)))


def jacfwd(func, argnums=0, has_aux=False, randomness="error"):
    def wrapper(*args):
        nums = _argnums(argnums, len(args))
        fast = None if has_aux else FAST["jacfwd"](func, argnums, nums, args)
        if fast is not None:
            return _finish(fast, _outer([args[n] for n in nums]))
        run, box = tb.keeping_aux(func, has_aux)
        cols = {}
        out = None
        with _Enabled():
            for n in nums:
                x = args[n]
                cols[n] = []
                for e in tb.basis(x):
                    ts = [None] * len(args)
                    for m in nums:  # each input of argnums has a tangent, as PyTorch's
                        ts[m] = tb.tree_map(FUNCTIONS["zeros_like"], args[m])  # basis
                    ts[n] = e
                    out, tans = tb.tangents_at(run, list(args), ts)
                    cols[n].append(tb.leaves(tans))
            if out is None:
                out = run(*args)
            per_output = []
            for k, o in enumerate(tb.leaves(out)):
                per_in = []
                for n in nums:
                    x = args[n]
                    parts = [c[k] for c in cols[n]]
                    j = (
                        FUNCTIONS["reshape"](
                            FUNCTIONS["stack"](parts, -1), o.data.shape + x.data.shape
                        )
                        if parts
                        else Tensor(np.zeros(o.data.shape + x.data.shape))
                    )
                    per_in.append(j)
                per_output.append(per_in[0] if isinstance(argnums, int) else tuple(per_in))
        outer = _outer([args[n] for n in nums])
        res = _finish(_jac_structure(out, per_output), outer)
        return (res, _finish(box[0], outer)) if has_aux else res

    return Transformed(wrapper, _label(func), ("jacfwd", func, (argnums, has_aux)))


def hessian(func, argnums=0):
    inner = jacrev(func, argnums)
    return Transformed(jacfwd(inner, argnums).fn, _label(func), ("jacfwd", inner, (argnums, False)))


MEMBERS = {
    "grad": grad,
    "grad_and_value": grad_and_value,
    "vjp": vjp,
    "jvp": jvp,
    "jacrev": jacrev,
    "jacfwd": jacfwd,
    "hessian": hessian,
    "linearize": linearize,
}
