"""torch.autograd.functional beyond jacobian/hessian (calculus.py): vjp, jvp, hvp, vhp,
the forward-mode Jacobian (strategy="forward-mode", computed with the forward-mode
engine, one tangent per input element), and gradgradcheck."""

from __future__ import annotations

import numpy as np

from ..runtime.errors import GradRuntimeError
from ..runtime import context
from ..core.tensor import Tensor
from ..engine import forward as fw
from . import transform_base as tb
from .calculus import gradcheck
from .transform_base import _as_tuple, _check_callable, _postprocess, _preprocess


def _vector(v, inputs_or_outputs, what, fn_name, single_ok):
    if v is None:
        if len(inputs_or_outputs) != 1 or inputs_or_outputs[0].data.size != 1:
            raise GradRuntimeError(
                f"The vector v can only be None if the {what} is a single "
                "Tensor with a single element."
            )
        return (Tensor(np.ones(inputs_or_outputs[0].data.shape, inputs_or_outputs[0].data.dtype)),)
    _, vs = _as_tuple(v, "v", fn_name)
    if len(vs) != len(inputs_or_outputs):
        raise GradRuntimeError(
            f"v is a tuple of invalid length: should be {len(inputs_or_outputs)} but got {len(vs)}."
        )
    for i, (a, b) in enumerate(zip(vs, inputs_or_outputs)):
        if a.data.shape != b.data.shape:
            raise GradRuntimeError(
                f"Entry {i} in v has invalid size: should be "
                f"torch.Size({list(b.data.shape)}) but got "
                f"torch.Size({list(a.data.shape)})."
            )
    return vs


def _finish(ts, create_graph):
    return tuple(t if create_graph else Tensor(t.data) for t in ts)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    _check_callable(func, "vjp")
    prev = context.current.grad_enabled
    context.current.grad_enabled = True
    try:
        is_in, ins = _as_tuple(inputs, "inputs", "vjp")
        ins = _preprocess(ins, create_graph)
        out = func(*ins)
        is_out, outs = _as_tuple(out, "outputs of the user-provided function", "vjp")
        _strict_outputs(outs, strict)
        vs = _vector(v, outs, "user-provided function returns", "vjp", True)
        gs = tb.grads(outs, vs, ins, create_graph=create_graph)
        return (
            _postprocess((_finish(outs, create_graph),), (is_out, True))[0]
            if is_out
            else _finish(outs, create_graph)[0],
            _postprocess((_finish(gs, create_graph),), (is_in, True))[0]
            if is_in
            else _finish(gs, create_graph)[0],
        )
    finally:
        context.current.grad_enabled = prev


def _strict_outputs(outs, strict):
    if strict:
        for i, o in enumerate(outs):
            if not o.requires_grad:
                raise GradRuntimeError(
                    f"Output {i} of the user-provided function does not require gradients. The "
                    "outputs must be computed in a differentiable manner from the input when "
                    "running in strict mode."
                )


def _zeros_requiring_grad(ts):
    """torch.zeros_like(t, requires_grad=True) of each: the stand-in gradients of the
    double-backward trick (backward is linear in them, so their value never shows)."""
    return tuple(Tensor(np.zeros_like(t.data), True) for t in ts)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """J v by the double-backward trick, as PyTorch computes it: the inputs' gradients
    taken along zero grad_outputs that require grad, then differentiated with respect
    to those grad_outputs along v (so a result's graph is the backward's backward)."""
    _check_callable(func, "jvp")
    is_in, ins = _as_tuple(inputs, "inputs", "jvp")
    vs = _vector(v, ins, "input to the user-provided function", "jvp", True)
    ctx = context.current
    prev = ctx.grad_enabled
    ctx.grad_enabled = True
    try:
        ins = _preprocess(ins, create_graph)
        out = func(*ins)
        is_out, outs = _as_tuple(out, "outputs of the user-provided function", "jvp")
        _strict_outputs(outs, strict)
        gos = _zeros_requiring_grad(outs)
        gins = tb.grads(outs, gos, ins, create_graph=True)
        ctx.grad_enabled = create_graph or prev
        tans = tb.grads(gins, vs, gos, create_graph=create_graph)
        return (
            _finish(outs, create_graph) if is_out else _finish(outs, create_graph)[0],
            _finish(tans, create_graph) if is_out else _finish(tans, create_graph)[0],
        )
    finally:
        ctx.grad_enabled = prev


def _scalar_func(func, fn_name):
    def f(*a):
        out = func(*a)
        is_t, outs = _as_tuple(out, "outputs of the user-provided function", fn_name)
        if is_t or outs[0].data.size != 1:
            raise GradRuntimeError(
                f"The Tensor returned by the function given to {fn_name} "
                "should contain a single element"
            )
        return outs[0]

    return f


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """v^T H: reverse over reverse."""
    _check_callable(func, "vhp")
    prev = context.current.grad_enabled
    context.current.grad_enabled = True
    try:
        is_in, ins = _as_tuple(inputs, "inputs", "vhp")
        ins = _preprocess(ins, create_graph)
        vs = _vector(v, ins, "input to the user-provided function", "vhp", True)
        out = _scalar_func(func, "vhp")(*ins)
        g = tb.grads((out,), (None,), ins, create_graph=True)
        h = tb.grads(g, vs, ins, create_graph=create_graph)
        value = out if create_graph else Tensor(out.data)
        res = _finish(h, create_graph)
        return value, res if is_in else res[0]
    finally:
        context.current.grad_enabled = prev


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """H v by the double-backward trick, as PyTorch computes it: the gradient's backward
    along zero vectors that require grad, differentiated with respect to them along v."""
    _check_callable(func, "hvp")
    ctx = context.current
    prev = ctx.grad_enabled
    ctx.grad_enabled = True
    try:
        is_in, ins = _as_tuple(inputs, "inputs", "hvp")
        ins = _preprocess(ins, create_graph)
        vs = _vector(v, ins, "input to the user-provided function", "hvp", True)
        out = _scalar_func(func, "hvp")(*ins)
        jac = tb.grads((out,), (None,), ins, create_graph=True)
        grad_jac = _zeros_requiring_grad(ins)
        double_back = tb.grads(jac, grad_jac, ins, create_graph=True)
        ctx.grad_enabled = create_graph or prev
        h = tb.grads(double_back, vs, grad_jac, create_graph=create_graph)
        value = out if create_graph else Tensor(out.data)
        res = _finish(h, create_graph)
        return value, res if is_in else res[0]
    finally:
        ctx.grad_enabled = prev


def gradgradcheck(
    func,
    inputs,
    grad_outputs=None,
    eps=1e-6,
    atol=1e-5,
    rtol=1e-3,
    gen_non_contig_grad_outputs=False,
    raise_exception=False,
    quiet=False,
    **_torch_options,
):
    """gradcheck of the first derivative: inputs and (random, seeded) grad_outputs are
    both checked, as in PyTorch."""
    _check_callable(func, "gradgradcheck")
    is_t = isinstance(inputs, (tuple, list))
    items = list(inputs) if is_t else [inputs]
    diff = [x for x in items if isinstance(x, Tensor) and x.requires_grad]
    prev = context.current.grad_enabled
    context.current.grad_enabled = True
    try:
        outs = func(*items)
    finally:
        context.current.grad_enabled = prev
    outs = [
        o
        for o in (outs if isinstance(outs, (tuple, list)) else (outs,))
        if isinstance(o, Tensor) and o.data.dtype.kind == "f"
    ]
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        heads = [Tensor(rng.standard_normal(o.data.shape), True) for o in outs]
    else:
        heads = list(grad_outputs) if isinstance(grad_outputs, (tuple, list)) else [grad_outputs]
    n = len(items)

    def first(*a):
        context.current.grad_enabled = True  # also while gradcheck perturbs without a graph
        xs = list(a[:n])
        hs = a[n:]
        out = func(*xs)
        os = [
            o
            for o in (out if isinstance(out, (tuple, list)) else (out,))
            if isinstance(o, Tensor) and o.data.dtype.kind == "f"
        ]
        wrt = [x for x in xs if isinstance(x, Tensor) and x.requires_grad]
        return tuple(tb.grads(os, hs, wrt, create_graph=True))

    if not diff:
        raise GradRuntimeError(
            "gradgradcheck expects at least one input tensor to require "
            "gradient, but none of the them have requires_grad=True."
        )
    return gradcheck(
        first,
        tuple(items) + tuple(heads),
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
        quiet=quiet,
    )


def torch_gradgradcheck(
    func,
    inputs,
    grad_outputs=None,
    *,
    eps=1e-6,
    atol=1e-5,
    rtol=1e-3,
    gen_non_contig_grad_outputs=False,
    raise_exception=True,
    **options,
):
    """torch.autograd.gradgradcheck: prints nothing; True, or (raise_exception=True, torch's
    default) an error."""
    return gradgradcheck(
        func,
        inputs,
        grad_outputs,
        eps,
        atol,
        rtol,
        gen_non_contig_grad_outputs,
        raise_exception,
        quiet=True,
        **options,
    )


_ = fw
