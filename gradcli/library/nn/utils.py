"""torch.nn.utils: gradient clipping, parameters as one vector, and skip_init.

`clip_grad_norm_` computes what torch 2.13 computes on the CPU, in its order and in the
gradients' dtype: each gradient's norm (`_foreach_norm`, torch's `linalg.vector_norm`),
the norm of those norms stacked, `max_norm / (total + 1e-6)` as torch's reflected
division computes it (`reciprocal()` then `*`), clamped to 1, and each gradient
multiplied by it in place. `clip_grad_value_` clamps each gradient in place to
`[-clip_value, clip_value]` (clamp_min, then clamp_max). `parameters_to_vector` is
`cat` of the parameters' flat views (a graph is recorded, as in torch). `skip_init`
makes a module without drawing its initial values."""

from __future__ import annotations

import inspect

import numpy as np

from ...core.convert import type_name
from ...core.tensor import Tensor
from ...engine import versions
from ...engine.function import FUNCTIONS
from ...numerics.sums.vector_norm import vector_norm
from ...runtime import context
from ...runtime.errors import GradRuntimeError, GradTypeError
from ..values import program_object, replay_compiled
from .module import Module


def _tensors(parameters, what):
    if type(parameters) is Tensor:
        return [parameters]
    try:
        out = list(parameters)
    except TypeError:
        raise GradTypeError(
            f"{what}(): parameters must be a Tensor or an iterable of Tensors, "
            f"not {type_name(parameters)}"
        ) from None
    for p in out:
        if type(p) is not Tensor:
            raise GradTypeError(f"{what}(): expected Tensors, got {type_name(p)}")
    return out


def _grads(parameters, what):
    return [p.grad for p in _tensors(parameters, what) if p.grad is not None]


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The norm of the tensors' norms (as if they were one vector), as a 0-d tensor."""
    ts = _tensors(tensors, "get_total_norm")
    p = float(norm_type)
    if not ts:
        return Tensor(np.array(0.0, dtype=context.current.default_float))
    norms = [vector_norm(t.data, p, None, False) for t in ts]
    dt = np.result_type(*norms)
    total = np.asarray(vector_norm(np.array(norms, dtype=dt), p, None, False))
    if error_if_nonfinite and not np.isfinite(total):
        raise GradRuntimeError(
            f"The total norm of order {p} for gradients from `parameters` is non-finite, so "
            "it cannot be clipped. To disable this error and scale the gradients by the "
            "non-finite norm anyway, set `error_if_nonfinite=False`"
        )
    return Tensor(total)


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Each gradient times min(max_norm / (total_norm + 1e-6), 1), in place."""
    grads = _grads(parameters, "clip_grads_with_norm_")
    if not grads:
        return None
    total = total_norm.data
    dt = total.dtype.type
    with np.errstate(all="ignore"):
        coef = _coef64(total, max_norm) if dt is np.float64 else None
        if coef is None:
            coef = dt(1) / (total + dt(1e-6)) * dt(float(max_norm))  # (1 / x) * max_norm
            coef = np.minimum(coef, dt(1.0))  # clamp(max=1.0): NaN stays NaN
        for g in grads:
            data = g.data
            if data.dtype.type is np.float64 and type(coef) is float:
                np.multiply(data, coef, out=data)
            else:
                c = np.asarray(coef, dtype=dt).astype(data.dtype)
                np.multiply(data, c, out=data, casting="unsafe")
            versions.bump(g)
    return None


def _coef64(total, max_norm):
    """The clamped factor of a 0-d float64 total norm as a Python float (the same IEEE
    double steps as the arrays': (1 / (total + 1e-6)) * max_norm, then min(., 1) where
    a NaN stays NaN), or None where the sum is zero (a total norm given as -1e-6)."""
    if total.ndim:
        return None
    den = float(total) + 1e-6
    if den == 0.0:
        return None
    coef = 1.0 / den * float(max_norm)
    return 1.0 if coef > 1.0 else coef


@replay_compiled
def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Clip the gradients' total norm to max_norm; returns the total norm before."""
    params = _tensors(parameters, "clip_grad_norm_")
    grads = [p.grad for p in params if p.grad is not None]
    total = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(params, max_norm, total, foreach)
    return total


@replay_compiled
def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp each gradient to [-clip_value, clip_value] in place."""
    c = float(clip_value)
    for g in _grads(parameters, "clip_grad_value_"):
        dt = g.data.dtype.type
        lo, hi = dt(-c), dt(c)
        np.maximum(g.data, lo, out=g.data)  # clamp_min_, then clamp_max_ (NaN stays NaN)
        np.minimum(g.data, hi, out=g.data)
        versions.bump(g)
    return None


def parameters_to_vector(parameters):
    """cat of each parameter's view(-1)."""
    ps = _tensors(parameters, "parameters_to_vector")
    return FUNCTIONS["cat"]([FUNCTIONS["view"](p, -1) for p in ps])


def vector_to_parameters(vec, parameters):
    """Each parameter's data from the next slice of vec."""
    if type(vec) is not Tensor:
        raise GradTypeError(f"expected torch.Tensor, but got: {type_name(vec)}")
    flat = vec.data.reshape(-1)
    at = 0
    for p in _tensors(parameters, "vector_to_parameters"):
        n = p.data.size
        p.data = flat[at : at + n].reshape(p.data.shape).astype(p.data.dtype, copy=False)
        at += n


def _takes_device(cls):
    try:
        return "device" in inspect.signature(cls.__init__).parameters
    except (TypeError, ValueError):
        return False


def skip_init(module_cls, *args, **kwargs):
    """module_cls(*args, **kwargs) without its initialisation: PyTorch builds it on the
    meta device and gives it new, uninitialised storage, so it draws nothing from the
    generator; here its parameters and buffers are zeros and the generator's state is
    as it was."""
    if not isinstance(module_cls, type):
        raise GradTypeError("issubclass() arg 1 must be a class")
    if not issubclass(module_cls, Module):
        raise GradRuntimeError(f"Expected a Module; got {module_cls.__name__}")
    if program_object(module_cls) or not _takes_device(module_cls):
        raise GradRuntimeError("Module must support a 'device' arg to skip initialization")
    gen = context.current.generator
    state = gen.torch_state()
    try:
        m = module_cls(*args, **kwargs)
    finally:
        gen.set_torch_state(state)
    for _, t in m.named_parameters() + m.named_buffers():
        t.data = np.zeros_like(t.data)
    return m


UTILS = {
    "skip_init": skip_init,
    "clip_grad_norm_": clip_grad_norm_,
    "clip_grad_norm": clip_grad_norm_,
    "clip_grad_value_": clip_grad_value_,
    "get_total_norm": get_total_norm,
    "clip_grads_with_norm_": clip_grads_with_norm_,
    "parameters_to_vector": parameters_to_vector,
    "vector_to_parameters": vector_to_parameters,
}
