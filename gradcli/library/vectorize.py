"""Jacobians in one batched pass, as torch.func computes them (jacrev is vmap of
vjp over the rows of the identity, jacfwd vmap of jvp over its columns).

jacrev: f runs once on its inputs expanded to a batch of N copies (N = the number of
output elements), each copy's output is paired with one row of the identity, and
one backward pass gives every row of the Jacobian.  jacfwd: f runs once on a batch
of numel(x) copies of x carrying the columns of the identity as tangents.  f runs
batched through vmap's rules (ops/batching.py); when it cannot (data-dependent
control flow, an op that refuses), the transform falls back to one pass per row or
column (library/func.py)."""

from __future__ import annotations

import numpy as np

from ..runtime import context
from ..core.tensor import Tensor
from ..ops import batching as bt
from ..ops.batching import Batched
from ..ops.registry import FUNCTIONS
from . import func
from . import transform_base as tb
from .vmap import State, _physical_out, _tree


class _Level:
    """A vmap level of its own while f runs batched."""

    def __enter__(self):
        self.prev = State.level
        State.level += 1
        return State.level

    def __exit__(self, *e):
        State.level = self.prev


def _probe_shapes(f, args):
    """f's outputs (for their shapes), without a graph; the random generator is put
    back, so that the batched run draws what a single run of f draws."""
    ctx = context.current
    prev = ctx.grad_enabled
    ctx.grad_enabled = False
    state = ctx.generator.get_state()
    try:
        out = f(*args)
    finally:
        ctx.grad_enabled = prev
        ctx.generator.set_state(state)
    return out


def jacrev_rows(f, argnums, nums, args):
    """jacrev(f, argnums)(*args) without aux, or None when f does not run batched."""
    if bt.level_of(args) or any(isinstance(x, Batched) for x in tb.leaves(list(args))):
        return None
    try:
        out0 = _probe_shapes(f, args)
        outs0 = tb.leaves(out0)
        if not outs0 or not all(isinstance(o, Tensor) for o in outs0):
            return None
        sizes = [o.data.size for o in outs0]
        n = sum(sizes)
        if n < 2:
            return None
        with func._Enabled(), _Level() as level:
            bargs = list(args)
            phys = []
            for k in nums:

                def make(x):
                    leaf = tb.track(bt.expand_to(x, n))
                    phys.append(leaf)
                    return Batched(leaf, level)

                bargs[k] = tb.tree_map(make, bargs[k])
            out = f(*bargs)
            outs = [_physical_out(o, level, n) for o in _leaves(out)]
            if [tuple(o.shape[1:]) for o in outs] != [tuple(o.data.shape) for o in outs0]:
                return None
            heads, off = [], 0
            for o, size in zip(outs, sizes):
                h = np.zeros((n, size), o.data.dtype)
                h[off : off + size] = np.eye(size, dtype=o.data.dtype)
                heads.append(Tensor(h.reshape((n,) + tuple(o.shape[1:]))))
                off += size
            gs = tb.grads(outs, heads, phys)
    except Exception:  # f does not batch: one backward pass per row
        return None
    per_output, off = [], 0
    for o0, size in zip(outs0, sizes):
        per_in = []
        for g, x in zip(gs, phys):
            rows = g if size == g.data.shape[0] else FUNCTIONS["index"](g, slice(off, off + size))
            per_in.append(FUNCTIONS["reshape"](rows, o0.data.shape + tuple(x.data.shape[1:])))
        off += size
        groups, i = [], 0
        for k in nums:
            m = len(tb.leaves(args[k]))
            groups.append(tb.unflatten(args[k], per_in[i : i + m]))
            i += m
        per_output.append(groups[0] if isinstance(argnums, int) else tuple(groups))
    return _structure(out0, per_output)


def jacfwd_columns(f, argnums, nums, args):
    """jacfwd(f, argnums)(*args) without aux, or None when f does not run batched."""
    if bt.level_of(args) or any(isinstance(x, Batched) for x in tb.leaves(list(args))):
        return None
    try:
        with func._Enabled(), _Level() as level:
            per_arg = {}
            out0 = None
            for k in nums:
                cols = []
                for x in tb.leaves(args[k]):
                    n = x.data.size
                    if n < 2:
                        return None
                    eye = Tensor(np.eye(n, dtype=x.data.dtype).reshape((n,) + x.data.shape))
                    bx = bt.expand_to(x, n)
                    ts = [None] * len(args)
                    for m in nums:  # each input of argnums has a tangent (zeros but the
                        ts[m] = tb.tree_map(FUNCTIONS["zeros_like"], args[m])  # column's)
                    ts[k] = tb.unflatten(
                        args[k],
                        [
                            eye if y is x else Tensor(np.zeros((n,) + y.data.shape, y.data.dtype))
                            for y in tb.leaves(args[k])
                        ],
                    )
                    phys = list(args)
                    phys[k] = tb.unflatten(
                        args[k], [bx if y is x else bt.expand_to(y, n) for y in tb.leaves(args[k])]
                    )

                    def run(*a):
                        b = [
                            tb.tree_map(lambda t: Batched(t, level), v) if i == k else v
                            for i, v in enumerate(a)
                        ]
                        return _tree(lambda o: _physical_out(o, level, n), f(*b))

                    out, tans = tb.tangents_at(run, phys, ts)
                    out0 = out
                    cols.append((x, tb.leaves(out), tb.leaves(tans)))
                per_arg[k] = cols
    except Exception:  # f does not batch: one pass per column
        return None
    first = per_arg[nums[0]][0]
    per_output = []
    for j, o in enumerate(first[1]):
        oshape = tuple(o.shape[1:])
        groups = []
        for k in nums:
            jacs = []
            for x, _outs, tans in per_arg[k]:
                t = tans[j]  # (n, *oshape)
                moved = (
                    FUNCTIONS["contiguous"](FUNCTIONS["movedim"](t, 0, -1)) if oshape else t
                )  # then reshape is a view, as torch's
                jacs.append(FUNCTIONS["reshape"](moved, oshape + x.data.shape))
            groups.append(tb.unflatten(args[k], jacs))
        per_output.append(groups[0] if isinstance(argnums, int) else tuple(groups))
    return _structure(out0, per_output)


def _structure(out, per_output):
    """The Jacobians in the structure of the output (a pytree: tuples, lists, dicts)."""
    if isinstance(out, (Tensor, Batched)):
        return per_output[0]
    items = iter(per_output)
    return _tree(lambda _t: next(items), out)


def _leaves(obj):
    out = []
    _tree(out.append, obj)
    return out


func.FAST.update(jacrev=jacrev_rows, jacfwd=jacfwd_columns)
