"""In-place tensor operations with PyTorch's semantics: `x.add_(y)`, `x[i] = v`, `x += y`.

One rule (`inplace`) serves them all.  The new values are computed by the
out-of-place op on a snapshot of x (so values the op saves for backward are not
changed under it) and written into x's own array, so every tensor sharing that
storage (views made by indexing, view/reshape/t/transpose/permute/squeeze/
unsqueeze/expand, and detach) sees them.  Then, as in PyTorch:

* x's version counter (shared with its views, engine/versions.py) is bumped, so a
  graph that saved x for backward refuses to use the changed values;
* under grad mode a leaf that requires grad (or a view of one) is refused;
* a tensor in a graph is rebased: its grad_fn becomes the op's node (AddBackward0,
  MulBackward0 ...), whose parent is x's former grad_fn;
* an in-place op on a view of a tensor in a graph rebases the base instead: the base's
  grad_fn becomes CopySlices (the whole base, with the view's region replaced by the
  op's result) and the view's AsStridedBackward0 (the region of the new base);
* under no_grad only the values change (the gradient-descent step `w -= lr * w.grad`).

For the compiler: `x[key] = v` is `setitem(x, key, v)`, and `x op= y` on a tensor
target is `AUGMENTED[op](x, y)` (returning x itself, to bind back to the target).
"""

from __future__ import annotations

import numpy as np

from ..engine.declare import none
from ..runtime import context
from ..runtime.errors import GradError, GradRuntimeError, GradTypeError, ShapeError
from ..core.convert import tensor_arg, to_array
from ..core.tensor import Tensor, type_name
from ..engine import nograd_views, versions
from ..engine.autograd import nested_backward
from ..engine.forward import State as _forward, linear
from ..engine.vjp_arrays import ArrayF
from ..engine.function import Function
from .overlap import (
    EXPANDED_INDEX_PUT,
    EXPANDED_MASKED,
    OVERLAP,
    PARTIAL,
    overlaps,
    partial_overlap,
    writable,
)
from .scalar_steps import ARRAY_STEPS, array_update, scalar_step, zeroed
from . import dual_inplace
from ..ops.registry import BUILTINS, FUNCTIONS, METHOD_ONLY, OPERATORS, register
from ..ops.combine import masked_fill
from ..ops import pointwise, scaled
from ..core.layout import CONTIGUOUS
from ..ops.indexing import _norm_key, index
from ..ops.tensor_args import tensors_only

LEAF = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation."
)


# ---------------------------------------------------------------- the rule


def check_leaf(x):
    """PyTorch's refusal of an in-place op on a leaf that requires grad (or a view of one)."""
    if context.current.grad_enabled:
        via = getattr(x, "view_of", None)
        if via is not None and versions.state.no_grad_views:
            nograd_views.check_inplace(x)
        if x.requires_grad and x.grad_fn is None:
            raise GradRuntimeError(LEAF)
        if via is not None and via[0].requires_grad and via[0].grad_fn is None:
            raise GradRuntimeError(VIEW_OF_LEAF)


def _shape(s):
    return "[" + ", ".join(map(str, s)) + "]"


def _values(x, r, cast):
    """r's values as x's shape and dtype; PyTorch's errors where they cannot be."""
    arr = r.data if isinstance(r, Tensor) else np.asarray(r)
    xd = x.data
    if arr.shape != xd.shape:
        try:
            if np.broadcast_shapes(arr.shape, xd.shape) != xd.shape:
                raise ValueError
        except ValueError:
            raise ShapeError(
                f"output with shape {_shape(xd.shape)} doesn't match the broadcast "
                f"shape {_shape(np.broadcast_shapes(arr.shape, xd.shape))}"
            ) from None
        arr = np.broadcast_to(arr, xd.shape)
    if arr.dtype != xd.dtype:
        if not cast and not np.can_cast(arr.dtype, xd.dtype, "same_kind"):
            raise GradRuntimeError(
                f"result type {versions.type_word(arr.dtype)} can't be cast to "
                f"the desired output type {versions.type_word(xd.dtype)}"
            )
        arr = arr.astype(xd.dtype)
    return arr


def write(x, arr):
    """Store `arr` (x's shape and dtype) into x's storage and bump its version (into an
    expand()ed view, or a detached one, only fill_/zero_ come when elements share
    memory: `inplace` refuses the others)."""
    if versions.state.mutation_allowed is not None:
        versions.state.mutation_allowed.before_write(x)
    d = x.data
    if d.flags.writeable:
        np.copyto(d, arr)
    elif getattr(x, "view_of", None) is not None or (x.vc is not None and overlaps(d)):
        w = writable(d)  # an expand()ed view: written through
        if w is None:
            x.data = np.array(arr, dtype=d.dtype, copy=True)
        elif overlaps(d):  # only what changed, as PyTorch's kernels
            np.copyto(w, arr, where=arr != d)  # write (masked_fill_: where the mask is)
        else:
            np.copyto(w, arr)
    else:  # a read-only array no other tensor shares
        x.data = np.array(arr, dtype=d.dtype, copy=True)
    versions.bump(x)


def _snapshot(t):
    """t's current values and graph position, in an array of their own."""
    return Tensor(t.data.copy(), t.requires_grad, t.grad_fn)


def inplace(x, compute, cast=False, overlap_ok=False, inputs=(), tangent=None, alias=None):
    """x takes the values of `compute(x)` (an out-of-place op) in place; returns x.
    As PyTorch's TensorIterator, refuses an x whose elements share memory (an expand()ed
    tensor), except for fill_(number) and zero_ (`overlap_ok` True) and masked_fill_ and
    x[index] = v, which PyTorch does with a warning (`overlap_ok` its text); and, as
    PyTorch, refuses `inputs` (the op's tensor arguments) that share part of x's memory.
    `tangent(xt, level)`: the op on x's tangent (library/dual_inplace.py; None: copy_);
    `alias(t, o)`: the op with o for the arguments that are x itself (dual_inplace.run)."""
    if not isinstance(x, Tensor):
        raise GradTypeError(f"in-place operation on a {type_name(x)}: only tensors change in place")
    check_leaf(x)
    if overlap_ok is not True and not x.data.flags.writeable and overlaps(x.data):
        if not overlap_ok:
            raise GradRuntimeError(OVERLAP)
        context.warn(overlap_ok)  # masked_fill_, index_put_: deprecated, still done
    for t in inputs:
        if type(t) is Tensor and partial_overlap(x.data, t.data):
            raise GradRuntimeError(PARTIAL)
    if _forward.visible:
        return dual_inplace.run(x, compute, cast, _inplace, tangent, alias)
    return _inplace(x, compute, cast)


def _inplace(x, compute, cast):
    if not context.current.grad_enabled:
        write(x, _values(x, compute(x), cast))
        _regenerate_after_no_grad(x)
        return x
    via = getattr(x, "view_of", None)
    if via is None:
        r = compute(_snapshot(x))
        write(x, _values(x, r, cast))
        if isinstance(r, Tensor) and r.requires_grad:
            x.grad_fn, x.requires_grad = r.grad_fn, True
            versions.adopt(r.grad_fn, x)
            _regenerate(x, None)
        return x
    base, view = via
    bsnap = _snapshot(base)
    vt = view(bsnap)
    r = compute(vt)
    arr = _values(x, r, cast)
    if not (base.requires_grad or (isinstance(r, Tensor) and r.requires_grad)):
        write(x, arr)
        return x
    r = Tensor(arr, True, r.grad_fn) if r.requires_grad else Tensor(arr)
    new = CopySlices.apply(bsnap, r, view=view)
    new.grad_fn.take_op(r.grad_fn, vt.grad_fn)
    write(x, arr)
    base.grad_fn, base.requires_grad = new.grad_fn, True
    _regenerate(base, None)
    return x


def _regenerate(base, skip):
    """The views of `base`, whose graph just changed, become its regions again
    (AsStridedBackward0 of the new grad_fn), as PyTorch regenerates their grad_fn."""
    views = versions.live_views(base)
    if views and versions.state.no_grad_views:
        views = nograd_views.regenerated(views)
    if not views:
        return
    src = Tensor(base.data, True, base.grad_fn)
    for v in views:
        if v is not skip:
            v.grad_fn = AsStrided.apply(src, view=v.view_of[1]).grad_fn
            v.requires_grad = True


def _regenerate_after_no_grad(x):
    """A change under no_grad moves the version of every view of x's storage; PyTorch
    then makes the grad_fn of those in a graph again (AsStridedBackward0 of the base,
    whose own grad_fn stays): so does gradcli, at once."""
    via = getattr(x, "view_of", None)
    base = x if via is None else via[0]
    if not base.requires_grad:
        return
    views = [v for v in versions.live_views(base) if v.grad_fn is not None]
    if views and versions.state.no_grad_views:
        views = nograd_views.regenerated(views)
    if not views:
        return
    src = base if base.grad_fn is None else Tensor(base.data, True, base.grad_fn)
    context.current.grad_enabled = True
    try:
        for v in views:
            v.grad_fn = AsStrided.apply(src, view=v.view_of[1]).grad_fn
    finally:
        context.current.grad_enabled = False


def _region(arr, view):
    """The part of array `arr` that `view` (a view op, as made by the view's tensor) selects."""
    prev = context.current.grad_enabled
    context.current.grad_enabled = False
    try:
        d = view(Tensor(arr)).data
    finally:
        context.current.grad_enabled = prev
    if d.flags.writeable:
        return d
    return writable(d) if arr.flags.writeable else d  # an expand()ed region, written


class CopySlices(Function):
    """The base of a view after an in-place op on the view: the old base with the
    view's region replaced by the op's result."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ("view", "fn")
    name = "CopySlices"
    saved_names = none("PyTorch's names of its saved values are not recorded")
    qualified_name = "torch::autograd::CopySlices"  # (grad_fn.name())
    jvp = linear  # linear in its tensor inputs
    holds_saved = True  # (its in-place op's node, freed: a second backward fails, as in PyTorch)

    def forward(self, b, r, view):
        self.view, self.fn = view, None
        out = b.copy()
        _region(out, view)[...] = r
        return out

    def take_op(self, fn, vnode):
        """When the in-place op's node `fn` took the view (`vnode`, of the base) as its
        first input, this node runs fn itself, as PyTorch's CopySlices does: its inputs
        become the base's and fn's others, and the base's gradient is g with the view's
        region replaced by fn's gradient for the view, one tensor (CopySlices under
        create_graph), where the view's own node would add a second."""
        if fn is None or vnode is None or not fn.parents or fn.parents[0] is not vnode:
            return
        self.fn = fn
        self.parents = (self.parents[0], *fn.parents[1:])
        self.needs = (self.needs[0], *fn.needs[1:])

    def backward(self, g, F):
        if self.fn is not None:
            return self._through_op(g, F)
        if F.tensor_mode:
            return self._recorded(g)
        gb = gr = None
        if self.needs[0]:
            gb = g.copy()
            region = _region(gb, self.view)
            if overlaps(region):  # PyTorch copies into the view's region of the gradient
                raise GradRuntimeError(OVERLAP)
            region[...] = 0
        if self.needs[1]:
            gr = np.array(_region(g, self.view))
        return gb, gr

    def _recorded(self, g):
        """The backward under create_graph, as ops of the graph: g with the view's region
        zeroed (CopySlices again) and the region of g (AsStridedBackward0)."""
        gb = gr = None
        if self.needs[0]:
            region = _region(g.data.copy(), self.view)
            if overlaps(region):
                raise GradRuntimeError(OVERLAP)
            zeros = Tensor(np.zeros(region.shape, dtype=g.data.dtype))
            gb = CopySlices.apply(g, zeros, view=self.view)
        if self.needs[1]:
            gr = AsStrided.apply(g, view=self.view)
        return gb, gr

    def _through_op(self, g, F):
        """g with the view's region replaced by the op's gradient for the view, and the
        op's gradients for its other inputs."""
        if F.tensor_mode:
            region = _region(g.data.copy(), self.view)
            if overlaps(region):
                raise GradRuntimeError(OVERLAP)
            # (PyTorch gives the op a clone of the region: CloneBackward0)
            res = nested_backward(
                self.fn,
                FUNCTIONS["clone"](AsStrided.apply(g, view=self.view), memory_format=CONTIGUOUS),
                F,
            )
            if not self.needs[0]:
                return (None, *res[1:])
            res0 = res[0]
            if res0 is None:
                res0 = Tensor(np.zeros(region.shape, dtype=g.data.dtype))
            return (CopySlices.apply(g, res0, view=self.view), *res[1:])
        # (laid out as the base is, row-major here: a gradient of another layout, as a
        # pad's or a permute's, would refuse the view's `view(-1)`)
        out = np.array(g, copy=True, order="C")
        region = _region(out, self.view)
        if overlaps(region):
            raise GradRuntimeError(OVERLAP)
        res = nested_backward(self.fn, np.array(region), ArrayF)
        if not self.needs[0]:
            return (None, *res[1:])
        region[...] = 0 if res[0] is None else res[0]
        return (out, *res[1:])


class AsStrided(Function):
    """A view's grad_fn after an in-place op on it: its region of the new base."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ("shape", "view")
    name = "AsStridedBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")
    jvp = linear  # linear in its tensor inputs

    def forward(self, b, view):
        self.shape, self.view = b.shape, view
        return np.array(_region(b, view))

    def backward(self, g, F):
        if F.tensor_mode:  # as PyTorch's as_strided_backward: zeros, g copied into the
            z = Tensor(np.zeros(self.shape, dtype=g.data.dtype))  # region, the whole
            return (AsStrided.apply(CopySlices.apply(z, g, view=self.view), view=_whole),)
        out = np.zeros(self.shape, dtype=g.dtype)
        _region(out, self.view)[...] = g
        return (out,)


def _whole(t):
    return t


# ---------------------------------------------------------------- nodes of their own


def _zeros_like(g, F):
    """derivatives.yaml's zeros_like(grad) (zero_, fill_): +0 whatever g's signs."""
    if F.tensor_mode:
        return Tensor(np.zeros(g.data.shape, g.data.dtype))
    return np.zeros(np.shape(g), np.asarray(g).dtype)


class Zero(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ()
    name = "ZeroBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")
    jvp = linear  # linear in its tensor inputs

    def forward(self, x):
        return np.zeros_like(x)

    def backward(self, g, F):
        return (_zeros_like(g, F),)


class FillNumber(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ()
    name = "FillBackward2"
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def jvp(self, ts, F, *saved):
        return Zero.apply(ts[0])  # a constant: its tangent is zero

    def forward(self, x, value):
        return np.full_like(x, value)

    def backward(self, g, F):
        return (_zeros_like(g, F),)


class FillTensor(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ("dt",)
    name = "FillBackward3"
    saved_names = none("PyTorch's names of its saved values are not recorded")
    jvp = linear  # linear in its tensor inputs

    def forward(self, x, value):
        return np.full_like(x, value)

    def backward(self, g, F):
        n = self.needs
        return (_zeros_like(g, F) if n[0] else None, F.sum_to(g, ()) if n[1] else None)


class Copy(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ("shape",)
    name = "CopyBackwards"
    saved_names = none("PyTorch's names of its saved values are not recorded")
    jvp = linear  # linear in its tensor inputs

    def forward(self, x, src):
        self.shape = np.shape(src)
        out = np.empty_like(x)
        out[...] = src
        return out

    def backward(self, g, F):
        n = self.needs
        return (_zeros_like(g, F) if n[0] else None, F.sum_to(g, self.shape) if n[1] else None)


class IndexPut(Function):
    """`x[index] = v` with an advanced index (tensor of indices, mask)."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ("key", "shape")
    name = "IndexPutBackward0"
    holds_saved = True  # (its indices: a second backward fails, as in PyTorch)
    saved_names = none("PyTorch's names of its saved values are not recorded")
    jvp = linear  # linear in its tensor inputs

    def forward(self, x, v, key):
        self.key, self.shape = key, np.shape(v)
        out = x.copy()
        try:
            out[key] = v
        except ValueError:
            raise ShapeError(
                f"shape mismatch: value tensor of shape {_shape(np.shape(v))} cannot "
                f"be broadcast to indexing result of shape "
                f"{_shape(x[key].shape)}"
            ) from None
        return out

    def backward(self, g, F):
        n = self.needs
        gx = gv = None
        if F.tensor_mode:  # g with zeros put at the index (IndexPutBackward0), g[index]
            zero = Tensor(np.zeros((), dtype=g.data.dtype))
            gx = IndexPut.apply(g, zero, key=self.key) if n[0] else None
            gv = F.sum_to(F.take(g, self.key), self.shape) if n[1] else None
            return gx, gv
        if n[0]:
            gx = g.copy()
            gx[self.key] = 0
        if n[1]:
            gv = F.sum_to(g[self.key], self.shape)
        return gx, gv


class IndexAdd(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ("axis", "idx", "alpha")
    name = "IndexAddBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")
    jvp = linear  # linear in its tensor inputs
    differentiable_twice = False

    def forward(self, x, src, axis, idx, alpha):
        self.axis, self.idx, self.alpha = axis, idx, alpha
        out = x.copy()
        np.add.at(np.moveaxis(out, axis, 0), idx, np.moveaxis(src * alpha, axis, 0))
        return out

    def backward(self, g, F):
        n = self.needs
        gs = np.take(g, self.idx, axis=self.axis) * self.alpha if n[1] else None
        return (g if n[0] else None, gs)


# ---------------------------------------------------------------- methods


def _method(name, sig, doc):
    return register(
        name,
        sig,
        doc,
        method=True,
        function=False,
        category="tensor",
        batch=None,
        inplace=None,
        pure=False,
        checks=none("an in-place method: its op's samples check it"),
        parser=None,
    )


@_method("zero_", "x.zero_()", "fill with zeros in place and return x")
def zero_(x):
    if zeroed(x):  # (a gradient's array: filled and its version bumped, all the rule does)
        return x
    return inplace(x, Zero.apply, overlap_ok=True, tangent=lambda xt, level: zero_(xt))


@_method("fill_", "x.fill_(value)", "fill with value in place and return x")
def fill_(x, value):
    if isinstance(value, Tensor):
        if isinstance(x, Tensor):
            check_leaf(x)  # autograd refuses a leaf before the kernel checks value
        if value.data.ndim:
            raise GradRuntimeError(
                "fill_ only supports 0-dimension value tensor but got tensor "
                f"with {value.data.ndim} dimensions."
            )
        return inplace(
            x,
            lambda t: FillTensor.apply(t, value),
            cast=True,
            tangent=lambda xt, lv: fill_(xt, dual_inplace.tangent_or_zeros(value, lv)),
        )
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise GradTypeError(f"fill_(): argument 'value' must be Number, not {type_name(value)}")
    return inplace(
        x,
        lambda t: FillNumber.apply(t, value=value),
        cast=True,
        overlap_ok=True,
        tangent=lambda xt, level: fill_(xt, 0),
    )


@_method("copy_", "x.copy_(src)", "x's values replaced by src's (broadcast, cast) in place")
def copy_(x, src, non_blocking=False):
    if not isinstance(src, Tensor):
        raise GradTypeError(
            f"copy_(): argument 'src' (position 1) must be Tensor, not {type_name(src)}"
        )
    xs, ss = x.data.shape if isinstance(x, Tensor) else (), src.data.shape
    if isinstance(x, Tensor):
        check_leaf(x)  # autograd refuses a leaf before the kernel checks shapes
    try:
        if np.broadcast_shapes(xs, ss) != xs:
            raise ValueError
    except ValueError:
        _broadcast_error(xs, ss)
    return inplace(
        x,
        lambda t: Copy.apply(t, src),
        cast=True,
        inputs=(src,),
        tangent=dual_inplace.copy_source(src),
    )


def _broadcast_error(a, b):
    """TensorIterator's words: a pair of sizes that do not broadcast, else the output's
    shape against the broadcast one (a dim of 1 in x, or one x lacks, is no mismatch)."""
    for i in range(1, max(len(a), len(b)) + 1):
        m = a[-i] if i <= len(a) else 1
        n = b[-i] if i <= len(b) else 1
        if m != n and m != 1 and n != 1:
            raise ShapeError(
                f"The size of tensor a ({m}) must match the size of tensor b ({n}) "
                f"at non-singleton dimension {max(len(a), len(b)) - i}"
            )
    raise ShapeError(
        f"output with shape {_shape(a)} doesn't match the broadcast shape "
        f"{_shape(np.broadcast_shapes(a, b))}"
    )


@_method("masked_fill_", "x.masked_fill_(mask, value)", "value where mask is true, in place")
def masked_fill_(x, mask, value):
    return inplace(
        x,
        lambda t: masked_fill(t, mask, value),
        cast=True,
        overlap_ok=EXPANDED_MASKED,
        tangent=lambda xt, lv: masked_fill_(
            xt, mask, dual_inplace.tangent_or_zeros(value, lv) if isinstance(value, Tensor) else 0
        ),
    )


@_method(
    "index_add_",
    "x.index_add_(dim, index, source, alpha=1)",
    "add alpha * source's slices into x's slices number index along dim, in place",
)
def index_add_(x, dim, index_, source, *, alpha=1):
    x, src, idx = tensor_arg(x), tensor_arg(source), tensor_arg(index_)
    nd = max(x.data.ndim, 1)
    if not -nd <= dim < nd:
        raise GradRuntimeError(
            f"Dimension out of range (expected to be in range of [{-nd}, {nd - 1}], but got {dim})",
            type_name="IndexError",
        )
    if idx.data.dtype.kind not in "iu" or idx.data.ndim > 1:
        raise GradRuntimeError("index_add_(): Expected dtype int32/int64 for index")
    axis = dim % nd
    if src.data.shape[axis : axis + 1] != idx.data.shape[:1] and idx.data.ndim:
        raise ShapeError("index_add_(): Number of indices should be equal to source.size(dim)")
    return inplace(
        x, lambda t: IndexAdd.apply(t, src, axis=axis, idx=idx.data.reshape(-1), alpha=alpha)
    )


@_method("add_", "x.add_(other, alpha=1)", "x + alpha * other, in place")
def add_(x, other, *, alpha=1):
    if type(alpha) is int and alpha == 1:
        return inplace(x, lambda t: FUNCTIONS["add"](t, other), inputs=(other,))
    return inplace(x, lambda t: scaled.add(t, other, alpha=alpha), inputs=(other,))


@_method(
    "addcmul_",
    "x.addcmul_(tensor1, tensor2, *, value=1)",
    "x + value * tensor1 * tensor2, in place",
)
def addcmul_(x, *args, **kw):
    pointwise.check("addcmul_", (x, *args), kw, True)
    return inplace(x, lambda t: pointwise.addcmul(t, *args, **kw), inputs=args)


@_method(
    "addcdiv_",
    "x.addcdiv_(tensor1, tensor2, *, value=1)",
    "x + value * tensor1 / tensor2, in place",
)
def addcdiv_(x, *args, **kw):
    pointwise.check("addcdiv_", (x, *args), kw, True)
    return inplace(x, lambda t: pointwise.addcdiv(t, *args, **kw), inputs=args)


@_method("sub_", "x.sub_(other, alpha=1)", "x - alpha * other, in place")
def sub_(x, other, *, alpha=1):
    if type(alpha) is int and alpha == 1:
        return inplace(x, lambda t: FUNCTIONS["sub"](t, other), inputs=(other,))
    return inplace(x, lambda t: scaled.sub(t, other, alpha=alpha), inputs=(other,))


def _inplace_of(entry):
    """The in-place method an op declares (`register(inplace=...)`): x.f_(...) is
    x.f(...) stored into x."""
    fn, name, decl = entry.fn, entry.inplace.name, entry.inplace
    # (an op whose in-place method parses its arguments in words of its own: round_)
    fn = getattr(fn, "inplace_call", fn)

    def method(x, *args, **kw):
        alias = None
        # x.mul_(x) in forward mode: PyTorch's tangent formula reads the argument x's new
        # primal (dual_inplace.run); div_ and pow_ read the result as well: not done
        if decl.reads_argument and _forward.visible and any(a is x for a in args):

            def alias(t, o):
                return fn(t, *[o if a is x else a for a in args], **kw)

        return inplace(x, lambda t: fn(t, *args, **kw), inputs=(*args, *kw.values()), alias=alias)

    if decl.tensors_only:  # torch's words name the method (atan2_), position 1
        plain = method

        def method(x, *args, **kw):
            if args:
                tensors_only(name, x, args[0], method=True, broadcast=False)
            return plain(x, *args, **kw)

    method.__name__ = name
    _method(name, f"x.{name}(...)", f"x.{entry.name}(...), in place")(method)
    return method


def _alias_of(alias, method):
    """x.alias_(...), the in-place method of an op's alias (x.subtract_: x.sub_)."""

    def run(x, *args, **kw):
        return method(x, *args, **kw)

    run.__name__ = f"{alias}_"
    _method(run.__name__, f"x.{alias}_(...)", f"x.{alias}(...), in place")(run)


# the in-place methods the ops declare and that are not written above, and their aliases'
for _entry in list({id(e): e for e in BUILTINS.values()}.values()):
    if _entry.inplace and _entry.inplace.name not in METHOD_ONLY:
        _inplace_of(_entry)
    if _entry.inplace and _entry.inplace.name == f"{_entry.name}_":
        for _alias in _entry.aliases:
            if f"{_alias}_" not in METHOD_ONLY and f"{_alias}_" not in BUILTINS:
                _alias_of(_alias, METHOD_ONLY[_entry.inplace.name].fn)


# ---------------------------------------------------------------- x[key] = v, x op= y


def _strip_leading_ones(v):
    """The value of `x[key] = v` without its leading dims of size 1, as PyTorch views it
    before copying (slicePrefix1sSize): a (1, n) value fills a row of n."""
    shape = v.data.shape
    i = 0
    while i < len(shape) and shape[i] == 1:
        i += 1
    return FUNCTIONS["view"](v, shape[i:]) if i else v


def _advanced(key):
    """Whether `x[key] = v` is index_put_ (a tensor or list index), not a view's copy_."""
    for i in key if type(key) is tuple else (key,):
        if type(i) is list or (type(i) is Tensor and (i.data.ndim or i.data.dtype == np.bool_)):
            return True
    return False


def setitem(x, key, value):
    """`x[key] = value` with PyTorch's semantics; returns None."""
    x = tensor_arg(x)
    if isinstance(value, str) or not (isinstance(value, (Tensor, int, float, list, tuple))):
        raise GradTypeError(
            f"can't assign a {type_name(value)} to a torch.{versions.type_word(x.data.dtype)}Tensor"
        )
    v = value if isinstance(value, Tensor) else Tensor(to_array(value, x.data.dtype))
    try:
        k, _name, adv = _norm_key(key, x.data.shape)
    except GradError:
        if _advanced(key):  # index_put_: autograd's refusal comes before the kernel's checks
            check_leaf(x)
        raise
    if not adv:
        # a Python bool (x[True] = v) is a dim of 1 here: the view x[k], not x[key]'s copy
        bools = key is True or (type(key) is tuple and any(v is True for v in key))
        view = index(x, k if bools else key)
        if v.data.shape != view.data.shape:  # (PyTorch's copy_to: a value of the view's
            v = _strip_leading_ones(v)  # shape is copied as it is: x[i] += 1 on itself)
        if v.data.shape != view.data.shape:  # PyTorch's words for a value that does not fit
            FUNCTIONS["expand"](Tensor(v.data), *view.data.shape)
        copy_(view, v)
        return None
    check_leaf(x)
    v = _strip_leading_ones(v)
    if v.data.dtype != x.data.dtype:
        v = FUNCTIONS["to"](v, x.data.dtype)
    inplace(x, lambda t: IndexPut.apply(t, v, key=k), overlap_ok=EXPANDED_INDEX_PUT)
    return None


#: Python's float operation of the augmented operators that take the 0-d step on Python
#: floats first (library/scalar_steps.py: `w -= lr * w.grad` on a 0-d parameter)
_FLOAT_STEPS = {"+": float.__add__, "-": float.__sub__, "*": float.__mul__}


def _augmented(method, step, ufunc):
    """`x op= y` on a tensor x: the in-place method of the op that declares the operator
    (returning x), after the 0-d step on Python floats when `step` is given and the
    step of an array by another of its shape (`array_update`) when `ufunc` is."""
    if step is None:
        return method

    def run(x, y):
        r = scalar_step(x, y, step)
        if r is not None:
            return r
        if ufunc is not None and type(x) is Tensor and array_update(x, y, ufunc):
            return x
        return method(x, y)

    return run


# augmented assignment on a tensor target: `x op= y` is `AUGMENTED[op](x, y)`, for each
# operator an op declares (register(operators=...)) whose augmented form is in place
AUGMENTED = {
    o.symbol + "=": _augmented(
        METHOD_ONLY[e.inplace.name].fn,
        _FLOAT_STEPS.get(o.symbol),
        ARRAY_STEPS.get(o.symbol + "="),
    )
    for o, e in OPERATORS.values()
    if o.in_place and e.inplace
}

dual_inplace.OPS.update(copy_=copy_, fill_=fill_)
