"""Forward-mode AD: tangents carried beside tensors, one per dual level.

A dual level is a number; a tensor may carry a tangent at several levels (the
table is gradcli/core/tangents.py).  While a level is visible, ops run through
this module's layer of engine/modes.py (`_dual_apply`; no cost to the reverse-mode
hot path when no level is open): it runs the op as usual and then, for each level
at which an input carries a tangent, asks the node for the output's tangent with its
`jvp(ts, F, *saved)` -- the forward-mode rule written beside the op's
`forward` and `backward` in the op families.  `ts` holds the inputs'
tangents (None for an input without one; `ts.args` and `ts.params` are the
op's arguments), `F` is the differentiable namespace and `saved` the node's
saved values as tensors (the output as the result tensor), as in a
create_graph backward.  Tangents are computed with ordinary recorded ops, so
reverse mode differentiates through them and forward mode over reverse works.

Levels nest as functorch's do: while the tangent of level L is computed only
the levels outside L (smaller numbers) see the computation, so an outer
`jacfwd` differentiates an inner one and tangents of different levels are
never confused.
"""

from __future__ import annotations

import re

import numpy as np

from .declare import none
from ..runtime.errors import GradRuntimeError, ShapeError
from ..core import tangents as tan
from ..runtime import context
from ..core.tensor import Tensor, next_seq
from . import modes, versions
from .function import _OUT, Function, TensorF, _sources, plain_apply
from .zero_terms import with_zero_term


def no_forward_rule(node):
    """PyTorch's error for an op without a forward-mode rule (its node declares
    `jvp = none(why)`)."""
    aten = (
        getattr(node, "aten", "")
        or re.sub(r"(?<!^)(?=[A-Z])", "_", re.sub(r"Backward\d*$", "", node.name)).lower()
    )
    return GradRuntimeError(
        f"Trying to use forward AD with aten::{aten} that does not support it.",
        type_name="NotImplementedError",
    )


class State:
    levels: list = modes.state.levels  # open levels, outermost first
    visible: tuple = ()  # levels whose tangents ops propagate right now
    counter = 0


def set_visible(levels):
    """Ops propagate the tangents of `levels` from now on (none: forward mode's layer
    leaves the modes)."""
    State.visible = levels
    modes.set_dual(_LAYER if levels else None)


def enter_level() -> int:
    State.counter += 1
    level = State.counter
    State.levels.append(level)
    set_visible(tuple(State.levels))
    return level


def exit_level(level):
    if level in State.levels:
        State.levels.remove(level)
    tan.clear_level(level)
    set_visible(tuple(State.levels))
    if tan.SHOWN[0] == level:
        tan.SHOWN[0] = None


def make_dual(t, tangent, level):
    """A new tensor with t's values (an alias: gradients flow to t) carrying `tangent`."""
    if tuple(tangent.data.shape) != tuple(t.data.shape):
        raise GradRuntimeError(
            "Trying to set a forward gradient that has a different size than that of the "
            f"original Tensor, this is not supported. Tensor is of size {list(t.data.shape)} "
            f"while the given forward gradient is of size {list(tangent.data.shape)}."
        )
    if t.data.dtype.kind != "f":
        raise GradRuntimeError(
            "Expected both tensor and its forward grad to be floating point or complex"
        )
    hidden = State.visible
    set_visible(())
    try:
        d = DualView.apply(t) if t.requires_grad else Tensor(t.data)
    finally:
        set_visible(hidden)
    if t.requires_grad:  # a view of t, as PyTorch's: an in-place op on d rebases t
        versions.link_view(d, t, _dual_view)
    if tangent.data.dtype != t.data.dtype:
        tangent = Tensor(tangent.data.astype(t.data.dtype))
    for other, tg in (tan.tangents_of(t) or {}).items():  # an alias keeps outer levels'
        if other != level:
            tan.set_tangent(d, other, tg)
    tan.set_tangent(d, level, tangent)
    return d


def tangent_of(t, level):
    return tan.tangent_at(t, level)


class Tangents(tuple):
    """The inputs' tangents at one level, with the op's arguments (`args`) and
    parameters (`params`)."""


def _tangents(ts, args, params):
    t = Tangents(ts)
    t.args, t.params = args, params
    return t


def _saved_for_jvp(s, src, result):
    if src is _OUT:
        return result
    if src is not None:
        return src
    if type(s) in (int, float):
        return s
    return Tensor(np.asarray(s))


def _dual_apply(cls, args, params):
    vis = State.visible
    present = set()
    for a in args:
        if type(a) is Tensor:
            tg = tan.tangents_of(a)
            if tg:
                present.update(L for L in tg if L in vis)
    if not present:
        return plain_apply(cls, args, params)
    node = cls.__new__(cls)
    node.seq = next_seq()
    node.saved = ()
    arrays = [a.data if type(a) is Tensor else a for a in args]
    parents = [(a.grad_fn or a) if type(a) is Tensor and a.requires_grad else None for a in args]
    needs = [p is not None for p in parents]
    out = node.forward(*arrays, **params)
    if type(out) is not np.ndarray:
        raw, out = out, np.asarray(out)
        if node.saved:
            node.saved = tuple(out if s is raw else s for s in node.saved)
    srcs = _sources(node.saved, out, args, arrays) if node.saved else ()
    if True in needs and context.current.grad_enabled:
        node.needs, node.parents, node.watch, node.out_dtype = needs, parents, None, out.dtype
        if node.saved:
            node.saved_src = srcs
            if versions.state.inference is not None:
                versions.check_saved(srcs)
        result = Tensor(out, True, node)
    else:
        result = Tensor(out)
    if out.dtype.kind != "f":
        return result
    saved_arrays = node.saved
    for level in sorted(present):  # outer first: an inner rule may use the output's outer tangent
        set_visible(tuple(L for L in vis if L < level))
        try:
            ts = _tangents(
                [tan.tangent_at(a, level) if type(a) is Tensor else None for a in args],
                args,
                params,
            )
            saved = [_saved_for_jvp(s, src, result) for s, src in zip(saved_arrays, srcs)]
            if not node.jvp:  # None, or the op's none(why): no rule
                raise no_forward_rule(node)
            t = node.jvp(ts, TensorF, *saved)
        finally:
            set_visible(vis)
        if t is None:
            continue
        if type(t) is not Tensor:
            t = Tensor(np.asarray(t, dtype=out.dtype))
        if t.data.shape != out.shape:
            if np.broadcast_shapes(t.data.shape, out.shape) == out.shape:
                set_visible(tuple(L for L in vis if L < level))
                try:
                    t = t + Tensor(np.zeros(out.shape, out.dtype))
                finally:
                    set_visible(vis)
            else:
                raise ShapeError(
                    f"{cls.name}: forward rule gave a tangent of shape "
                    f"{list(t.data.shape)} for an output of {list(out.shape)}"
                )
        tan.set_tangent(result, level, t)
    if result.grad_fn is node:  # for a create_graph backward (see saved_output)
        node.fw = tan.tangents_of(result)
    return result


class _Layer:
    """Forward mode's layer of engine/modes.py: `apply` makes the op with its tangents."""

    __slots__ = ()
    apply = staticmethod(_dual_apply)


_LAYER = _Layer()


# ---------------------------------------------------------------- rules shared by op families


def _zero_like(a):
    if type(a) is Tensor:
        return Tensor(np.zeros_like(a.data))
    if type(a) in (int, float, bool):
        return 0
    return a  # a constant array or parameter: kept


def linear(self, ts, F, *saved):
    """The rule of an op linear in its tensor inputs: the op itself applied to the
    tangents (zero for inputs without one), with the same parameters."""
    targs = [t if t is not None else _zero_like(a) for t, a in zip(ts, ts.args)]
    return type(self).apply(*targs, **ts.params)


def linear_with(*zeros):
    """`linear` for a sum or difference, with `zeros[i]` standing for input i's missing
    tangent.  PyTorch adds a zero tensor that leaves the other term as it is (d + 2's
    tangent is d's, -0.0 included): x + -0.0 and x - 0.0 are exactly x, -0.0 - x is -x."""

    def rule(self, ts, F, *saved):
        targs = [
            t if t is not None else _signed_zero_like(a, z) for t, a, z in zip(ts, ts.args, zeros)
        ]
        return type(self).apply(*targs, **ts.params)

    return rule


def _signed_zero_like(a, z):
    if type(a) is Tensor:
        return Tensor(np.full_like(a.data, z))
    if type(a) in (int, float, bool):
        return z
    return a


#: the products whose rule PyTorch writes with b's tangent first (b_t * a_p + a_t * b_p);
#: the matrix products write a's first (a_t @ b_p + a_p @ b_t)
_B_FIRST = {"MulBackward0"}


def bilinear(self, ts, F, *saved):
    """The rule of a product (linear in each input), op(ta, b) + op(a, tb) in PyTorch's
    order, a missing tangent a zero term (engine/zero_terms.py)."""
    a, b = ts.args[0], ts.args[1]
    rest = ts.args[2:]
    ta, tb = ts[0], ts[1]
    ta_b = type(self).apply(ta, b, *rest, **ts.params) if ta is not None else None
    a_tb = type(self).apply(a, tb, *rest, **ts.params) if tb is not None else None
    b_first = type(self).name in _B_FIRST
    if ta_b is not None and a_tb is not None:
        return a_tb + ta_b if b_first else ta_b + a_tb
    out = ta_b if a_tb is None else a_tb
    if out is None or not context.current.grad_enabled:
        return out
    # the zero term (of the missing tangent) comes first where its pair is written first
    return with_zero_term(out, a if tb is None else b, type(self).name, (tb is None) == b_first)


def elementwise(self, ts, F, *saved):
    """The rule of an element-wise op whose backward multiplies g by the local
    derivative (inputs of the output's shape): sum_i backward(t_i)[i]."""
    out = None
    for i, t in enumerate(ts):
        if t is not None:
            term = self.backward(t, F, *saved)[i]
            out = term if out is None else out + term
    return out


def reduction(self, ts, F, *saved):
    """The rule of a reduction node (shape, axes, keepdim) whose backward is
    expand_back(g) * d(x): the tangent is the sum of t * d over the reduced axes,
    d being the backward of g = 1 (sum, mean, prod, max, norm, var, logsumexp)."""
    shape, axes, keepdim = self.shape, self.axes, self.keepdim
    if self.name.startswith("SumBackward"):  # d is 1: PyTorch's self_t.sum(dim), no product
        return F.sum(ts[0], axes, keepdim)
    if axes is None:
        out_shape = (1,) * len(shape) if keepdim else ()
    else:
        out_shape = tuple(
            1 if i in axes else n for i, n in enumerate(shape) if keepdim or i not in axes
        )
    d = self.backward(Tensor(np.ones(out_shape, ts[0].data.dtype)), F, *saved)[0]
    if not shape:
        return ts[0] * d
    return F.sum(ts[0] * d, axes, keepdim)


def add_terms(*terms):
    """The sum of the terms that are not None (None when all are)."""
    out = None
    for t in terms:
        if t is not None:
            out = t if out is None else out + t
    return out


def _dual_view(t):
    return DualView.apply(t) if t.requires_grad else Tensor(t.data.view())


class DualView(Function):
    """make_dual of a tensor that requires grad: a view of it (PyTorch's ViewBackward0)."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ()
    name = "ViewBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def forward(self, x):
        return x.view()

    def backward(self, g, F):
        return (g,)

    jvp = linear


class PrimalView(Function):
    """unpack_dual(t).primal: a view of t without its tangent (PyTorch's Identity node)."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ()
    name = "Identity"
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def forward(self, x):
        return x.view()

    def backward(self, g, F):
        return (g,)

    jvp = linear


def primal_view(t):
    hidden = State.visible
    set_visible(())
    try:
        return PrimalView.apply(t) if t.requires_grad else Tensor(t.data)
    finally:
        set_visible(hidden)
