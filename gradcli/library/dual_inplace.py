"""In-place ops on dual tensors (forward-mode AD): the tangent changes as PyTorch's
generated code changes it (checked against torch 2.13, tests/golden/fidelity.json).

PyTorch computes the primal in place first, then updates the tangent with an in-place
op of its own, recorded by reverse-mode autograd like any other (a tangent that
requires grad shows it as its grad_fn; a leaf tangent that requires grad refuses it):

* most ops copy the new tangent in: `self_t.copy_(new_t)` (CopyBackwards);
* `zero_` is `self_t.zero_()` (ZeroBackward0), `fill_(number)` and `copy_` from a tensor
  without a tangent `self_t.fill_(0)` (FillBackward2), `fill_(tensor)`
  `self_t.fill_(value_t)` (FillBackward3), `copy_(src)` `self_t.copy_(src_t)`,
  `masked_fill_` `self_t.masked_fill_(mask, 0 or value_t)` (MaskedFillBackward0/1);
* on a view of a dual tensor the view's tangent is a view of the base's tangent, so
  the base's tangent becomes CopySlices and the views' AsStridedBackward0;
* a tensor without a tangent gets one: a copy of the source's (`copy_`:
  CloneBackward0), zeros changed as above (`fill_`, `masked_fill_`, a view's base), or
  the op's tangent itself (AddBackward0 for `add_`).

`inplace.inplace` calls `run` under a forward-mode level; `inplace.py` fills `OPS`
with its in-place functions (this module is below it)."""

from __future__ import annotations

import numpy as np

from ..core import tangents as tan
from ..core.tensor import Tensor
from ..engine import versions
from ..ops.registry import FUNCTIONS
from ..core.layout import CONTIGUOUS
from ..engine.forward import State as _forward, _dual_view as dual_view, set_visible

#: the in-place functions of library/inplace.py: copy_, fill_, zero_, masked_fill_
OPS: dict = {}


def run(x, compute, cast, plain, tangent_op, alias=None):
    """`inplace` under forward-mode levels: `plain(x, compute, cast)` changes the primal
    (computing the op on a snapshot of x that carries x's tangents); then x's tangent at
    each level is updated by `tangent_op(xt, level)` (None: copy the op's tangent in).
    `alias(t, o)`: the op with `o` for the arguments that are x itself (`x.mul_(x)`):
    PyTorch's formula reads their primal after the op (the new values), their tangent
    before it, so the tangent is computed again with such an `o`."""
    levels = _forward.visible
    results = []
    snaps = []

    def keep(t):
        if t is not x:  # a snapshot of x: it carries x's tangents
            for level in levels:
                xt = tan.tangent_at(x, level)
                if xt is not None:
                    tan.set_tangent(t, level, xt)
        snaps.append(t)
        r = compute(t)
        results.append(r)
        return r

    old = {level: tan.tangent_at(x, level) for level in levels} if alias is not None else None
    plain(x, keep, cast)
    r = results[0] if results else None
    if alias is not None and snaps:
        o = Tensor(x.data.copy(), x.requires_grad, x.grad_fn)  # the new primal, old tangents
        for level, xt in old.items():
            if xt is not None:
                tan.set_tangent(o, level, xt)
        r = alias(snaps[0], o)
    for level in levels:
        rt = tan.tangent_at(r, level) if isinstance(r, Tensor) else None
        xt = tan.tangent_at(x, level)
        if rt is None and xt is None:
            continue
        _update(x, level, xt, rt, tangent_op)
    return x


def _update(x, level, xt, rt, tangent_op):
    via = getattr(x, "view_of", None)
    if via is not None:
        vt = _view_tangent(x, level, xt, via)
        if vt is not None:
            _apply(vt, rt, level, tangent_op)
            return
    if xt is None:
        if tangent_op is None:  # the op's own tangent (fresh: a result)
            tan.set_tangent(x, level, _as_x(x, rt))
            return
        new = getattr(tangent_op, "new", None)
        t = new(x, level) if new is not None else None
        if t is not None:
            tan.set_tangent(x, level, t)
            return
        xt = Tensor(np.zeros_like(x.data))
        tan.set_tangent(x, level, xt)
    _apply(xt, rt, level, tangent_op)


def _view_tangent(x, level, xt, via):
    """The tangent of view x as a view of its base's tangent (made zeros when x has no
    tangent), so that changing it rebases the base's tangent (CopySlices); None when x
    keeps a tangent of its own (make_dual's view of a base without one)."""
    base, view = via
    bt = tan.tangent_at(base, level)
    if bt is None and xt is not None:
        bt = _dual_base_tangent(base, level, xt)
    if xt is None:
        if bt is None:
            bt = Tensor(np.zeros_like(base.data))
            tan.set_tangent(base, level, bt)
        xt = view(bt)
    elif bt is None or getattr(xt, "view_of", None) is not None:
        return None
    if not np.may_share_memory(xt.data, bt.data):
        return None
    versions.link_view(xt, bt, view)
    tan.set_tangent(x, level, xt)
    return xt


def _dual_base_tangent(base, level, xt):
    """The tangent of make_dual's view of `base` (a view of base's storage with a tangent
    of its own) that xt is a view of: PyTorch's forward-mode base of x."""
    for w in versions.live_views(base):
        if w.view_of[1] is dual_view:
            wt = tan.tangent_at(w, level)
            if wt is not None and wt is not xt and np.may_share_memory(wt.data, xt.data):
                return wt
    return None


def _apply(xt, rt, level, tangent_op):
    """xt (a tangent) changed in place, by autograd's in-place ops."""
    vis = _forward.visible
    set_visible(tuple(L for L in vis if L < level))  # as the ops' forward rules run
    try:
        if tangent_op is not None:
            tangent_op(xt, level)
        elif rt is None:
            OPS["fill_"](xt, 0)
        else:
            OPS["copy_"](xt, rt)
    finally:
        set_visible(vis)


def _as_x(x, rt):
    d = x.data
    if rt.data.shape == d.shape and rt.data.dtype == d.dtype:
        return rt
    return Tensor(np.array(np.broadcast_to(rt.data, d.shape), dtype=d.dtype))


def tangent_or_zeros(v, level):
    """v's tangent at `level`, or zeros of v's shape (PyTorch's zeros for a tensor
    without one)."""
    t = tan.tangent_at(v, level)
    return t if t is not None else Tensor(np.zeros_like(v.data))


def copy_source(src):
    """copy_'s tangent op: the source's tangent copied in, or zeros (fill_(0)); a tensor
    without a tangent gets a copy of the source's."""

    def op(xt, level):
        st = tan.tangent_at(src, level)
        if st is None:
            OPS["fill_"](xt, 0)
        else:
            OPS["copy_"](xt, st)

    def new(x, level):  # a tensor without a tangent: a copy of the source's
        st = tan.tangent_at(src, level)
        if st is None or st.data.shape != x.data.shape:
            return None
        return FUNCTIONS["clone"](
            st if st.data.dtype == x.data.dtype else FUNCTIONS["to"](st, x.data.dtype),
            memory_format=CONTIGUOUS,
        )

    op.new = new
    return op
