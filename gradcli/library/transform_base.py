"""What torch.func and torch.autograd.functional share: inputs made differentiable
for one transform without cutting them from outer ones, results handed back
without the transform's own graph, and tuples of tensors walked as PyTorch's
pytrees (tensors, tuples and lists)."""

from __future__ import annotations

import weakref

import numpy as np

from ..runtime.errors import GradRuntimeError, GradTypeError
from ..core import tangents as tan
from ..runtime import context
from ..core.convert import type_name
from ..core.tensor import Tensor
from ..engine import forward as fw
from ..engine.autograd import run_backward
from ..ops.registry import FUNCTIONS
from ..ops.shape import alias


def copy_tangents(src, dst):
    for level, tg in (tan.tangents_of(src) or {}).items():
        if level in fw.State.levels:
            tan.set_tangent(dst, level, tg)
    return dst


def track(x):
    """x as an input that requires grad: a new leaf (with x's tangents) when x does
    not require grad, else an alias of x, so an outer transform still sees x."""
    if not isinstance(x, Tensor):
        return x
    if x.requires_grad:
        return alias(x)
    if x.data.dtype.kind != "f":
        raise GradRuntimeError("only Tensors of floating point dtype can require gradients")
    leaf = copy_tangents(x, Tensor(x.data, True))
    key = id(leaf)
    _TRACKED[key] = weakref.ref(leaf, lambda _r: _TRACKED.pop(key, None))
    return leaf


_TRACKED = {}  # id -> weak reference: the leaves `track` made (a transform's own inputs)


def release(t):
    """A result without the transform's graph (its tangents of open levels kept),
    unless it depends on a tensor from outside the transform that requires grad (f
    closing over a parameter): then it is differentiable, as PyTorch's."""
    if not isinstance(t, Tensor):
        return t
    if t.grad_fn is not None and _reaches_outer(t.grad_fn):
        return t
    return copy_tangents(t, Tensor(t.data))


def _reaches_outer(node):
    """Whether the graph under `node` reaches a leaf that requires grad and is not
    one a transform made."""
    stack, seen = [node], {id(node)}
    while stack:
        for p in stack.pop().parents:
            if p is None:
                continue
            if type(p) is Tensor:
                ref = _TRACKED.get(id(p))
                if p.requires_grad and (ref is None or ref() is not p):
                    return True
            elif id(p) not in seen:
                seen.add(id(p))
                stack.append(p)
    return False


def tree_map(fn, obj):
    if isinstance(obj, Tensor):
        return fn(obj)
    if isinstance(obj, tuple) and type(obj) is tuple:
        return tuple(tree_map(fn, o) for o in obj)
    if isinstance(obj, list):
        return [tree_map(fn, o) for o in obj]
    if type(obj) is dict:  # PyTorch's pytrees: a dict's values in insertion order
        return {k: tree_map(fn, v) for k, v in obj.items()}
    return obj


def leaves(obj):
    out = []
    tree_map(out.append, obj)
    return out


def unflatten(obj, items):
    it = iter(items)
    return tree_map(lambda _t: next(it), obj)


def grads(outputs, heads, inputs, create_graph=True):
    """d<heads, outputs>/d inputs; zeros for an input not used; retains the graph."""
    pairs = [(o, h) for o, h in zip(outputs, heads) if o.requires_grad]
    if not pairs:
        return [Tensor(np.zeros_like(x.data)) for x in inputs]
    gs = run_backward(
        [o for o, _ in pairs],
        [h for _, h in pairs],
        retain_graph=True,
        create_graph=create_graph,
        inputs=list(inputs),
        allow_unused=True,
    )
    return [Tensor(np.zeros_like(x.data)) if g is None else g for g, x in zip(gs, inputs)]


def keeping_aux(func, has_aux):
    """(run, box): run(*a) is func(*a); with has_aux, func returns (output, aux), run
    returns the output and keeps each aux in box (torch.func's `has_aux=True`)."""
    box = []

    def run(*a):
        out = func(*a)
        if has_aux:
            out, aux = out
            box.append(aux)
        return out

    return run, box


def tangents_at(func, args, tangents_by_arg, level_out=None):
    """Run func(*args) with args[i] dual with tangents_by_arg[i] (None: no tangent);
    returns (output, tangents of its tensors in the same structure)."""
    level = fw.enter_level()
    try:
        duals = []
        for a, t in zip(args, tangents_by_arg):
            if t is None:
                duals.append(a)
            else:
                duals.append(tree_map_pair(lambda x, v: fw.make_dual(x, v, level), a, t))
        out = func(*duals)
        tans = tree_map(lambda o: _tangent_or_zeros(o, level), out)
        return out, tans
    finally:
        fw.exit_level(level)


def _tangent_or_zeros(o, level):
    t = fw.tangent_of(o, level)
    if t is None:
        return Tensor(
            np.zeros(o.data.shape, o.data.dtype if o.data.dtype.kind == "f" else np.float64)
        )
    return t


def tree_map_pair(fn, a, b):
    if isinstance(a, Tensor):
        return fn(a, b)
    if isinstance(a, (tuple, list)):
        return type(a)(tree_map_pair(fn, x, y) for x, y in zip(a, b))
    return a


def basis(x):
    """One-hot tensors over x's elements, in order."""
    n = x.data.size
    for j in range(n):
        e = np.zeros(n, dtype=x.data.dtype)
        e[j] = 1
        yield Tensor(e.reshape(x.data.shape))


def assemble(parts, out_shape, in_shape, dtype):
    """stack(parts).reshape(out_shape + in_shape), differentiable (for nesting)."""
    shape = tuple(out_shape) + tuple(in_shape)
    if not parts:
        return Tensor(np.zeros(shape, dtype))
    return FUNCTIONS["reshape"](FUNCTIONS["stack"](list(parts), 0), shape)


def move_last(t, in_shape, out_shape):
    """columns (one per input element, stacked first) to out_shape + in_shape."""
    n_in = int(np.prod(in_shape)) if in_shape else 1
    flat = FUNCTIONS["reshape"](t, (n_in, int(np.prod(out_shape)) if out_shape else 1))
    return FUNCTIONS["reshape"](
        FUNCTIONS["transpose"](flat, 0, 1), tuple(out_shape) + tuple(in_shape)
    )


# ---------------------------------------------------------------- torch.autograd.functional's helpers


def _type_name(v):
    return type_name(v)


def _as_tuple(value, what, fn_name):
    """(is_tuple, tuple of Tensors), with PyTorch's messages."""
    is_tuple = isinstance(value, (tuple, list))
    items = tuple(value) if is_tuple else (value,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            if is_tuple:
                raise GradTypeError(
                    f"The {what} given to {fn_name} must be either a Tensor or a tuple of Tensors "
                    f"but the value at index {i} has type <class '{_type_name(el)}'>."
                )
            raise GradTypeError(
                f"The {what} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
                f"the given {what} has type <class '{_type_name(el)}'>."
            )
    return is_tuple, items


def _check_callable(func, fn_name):
    if not callable(func):
        raise GradTypeError(
            f"{fn_name}(): the first argument must be a function, got {_type_name(func)}"
        )


def _fn(name):
    return FUNCTIONS[name]


def _preprocess(inputs, create_graph):
    """PyTorch's _grad_preprocess: fresh leaves, or views keeping the graph."""
    out = []
    for x in inputs:
        if create_graph and x.requires_grad:
            out.append(_fn("reshape")(x, x.data.shape))  # view_as: ViewBackward0
        else:
            if x.data.dtype.kind != "f":
                raise GradRuntimeError(
                    "Only Tensors of floating point and complex dtype can require gradients"
                )
            out.append(copy_tangents(x, Tensor(x.data, True)))
    return tuple(out)


def _postprocess(res, shape):
    """_tuple_postprocess: unpack the levels that were not tuples."""
    is_outer, is_inner = shape
    if not is_inner:
        res = tuple(el[0] for el in res)
    if not is_outer:
        res = res[0]
    return res


def jacobian_forward(func, inputs, create_graph=False, strict=False):
    """strategy="forward-mode": one forward-mode pass per input element."""
    if strict:
        raise GradRuntimeError(
            "torch.autograd.functional.jacobian: `strict=True` and "
            '`strategy="forward-mode"` are not supported together (yet). '
            'Please either set `strict=False` or `strategy="reverse-mode"`.'
        )
    _check_callable(func, "jacobian")
    is_in, ins = _as_tuple(inputs, "inputs", "jacobian")
    prev = context.current.grad_enabled
    context.current.grad_enabled = True
    try:
        if create_graph:
            ins = _preprocess(ins, True)
        cols = [[] for _ in ins]
        outs = None
        for i, x in enumerate(ins):
            for e in basis(x):
                ts = [None] * len(ins)
                ts[i] = e
                out, tans = tangents_at(func, ins, ts)
                is_out, outs = _as_tuple(out, "outputs of the user-provided function", "jacobian")
                cols[i].append(tans if is_out else (tans,))
        if outs is None:
            out = func(*ins)
            is_out, outs = _as_tuple(out, "outputs of the user-provided function", "jacobian")
        jac = []
        for k, o in enumerate(outs):
            row = []
            for i, x in enumerate(ins):
                parts = [c[k] for c in cols[i]]
                j = move_last(
                    assemble(parts, (len(parts),), o.data.shape, x.data.dtype)
                    if parts
                    else Tensor(np.zeros((0,) + o.data.shape)),
                    x.data.shape,
                    o.data.shape,
                )
                row.append(j if create_graph else Tensor(j.data))
            jac.append(tuple(row))
        if is_in and not is_out:  # as torch: a list for tuple inputs, one output
            return list(jac[0])
        return _postprocess(tuple(jac), (is_out, is_in))
    finally:
        context.current.grad_enabled = prev
