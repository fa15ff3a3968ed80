"""The autograd API: backward, grad, no_grad, enable_grad, set_grad_enabled,
is_grad_enabled."""

from __future__ import annotations


from ..engine.autograd import run_backward
from ..core.convert import tensor_arg
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..ops.registry import not_a_tensor_op
from .values import Decorated, GradModeContext, truth
from ..core.tensor import type_name
from ..core.tensor import Tensor
from ..runtime import context


# ---------------------------------------------------------------- autograd


def _grad_tensor_arg(v):
    return None if v is None else tensor_arg(v)


@not_a_tensor_op(
    "backward",
    "backward(tensors, gradient=None, retain_graph=False, create_graph=False, inputs=None)",
    "accumulate d(tensors)/d(leaf) into each leaf's .grad; returns none",
    category="autograd",
)
def backward(
    tensors, gradient=None, retain_graph=None, create_graph=False, inputs=None, grad_tensors=None
):
    backward_leaves(tensors, gradient, retain_graph, create_graph, grad_tensors, inputs)


CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this function, "
    "make sure to reset the .grad fields of your parameters to None after use to break the "
    "cycle and avoid the leak."
)


def backward_leaves(
    tensors, gradient=None, retain_graph=None, create_graph=False, grad_tensors=None, inputs=None
):
    """backward(), returning the leaves whose .grad changed (for the `backward` command)."""
    if gradient is None:
        gradient = grad_tensors
    if inputs is not None:
        inputs = [inputs] if isinstance(inputs, Tensor) else list(inputs)
        if not inputs:
            raise GradRuntimeError("`inputs` argument to `backward()` cannot be empty.")
        inputs = [tensor_arg(i) for i in inputs]
        if not all(i.requires_grad for i in inputs):
            raise GradRuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    if create_graph:
        context.warn(CREATE_GRAPH_WARNING)
    if type(tensors) is Tensor and gradient is None and inputs is None:  # out.backward()
        return run_backward(
            (tensors,),
            (None,),
            truth(retain_graph) if retain_graph is not None else bool(create_graph),
            truth(create_graph),
        )
    outs = list(tensors) if isinstance(tensors, (list, tuple)) else [tensors]
    grads = (
        list(gradient)
        if isinstance(gradient, (list, tuple)) and any(isinstance(g, Tensor) for g in gradient)
        else [gradient] * 1
    )
    if len(grads) < len(outs):
        grads += [None] * (len(outs) - len(grads))
    outs = [tensor_arg(o) for o in outs]
    if retain_graph is None:
        retain_graph = bool(create_graph)
    return run_backward(
        outs,
        [_grad_tensor_arg(g) for g in grads],
        truth(retain_graph),
        truth(create_graph),
        inputs=inputs,
        accumulate=inputs is not None,
    )


@not_a_tensor_op(
    "grad",
    "grad(outputs, inputs, grad_outputs=None, retain_graph=False, create_graph=False)",
    "the gradients of outputs with respect to inputs, as a tuple; .grad untouched",
    category="autograd",
    batch="backward_samples",
)
def grad(
    outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, allow_unused=False
):
    outs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    ins = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    gos = (
        list(grad_outputs)
        if isinstance(grad_outputs, (list, tuple))
        else [grad_outputs] * len(outs)
    )
    if retain_graph is None:
        retain_graph = bool(create_graph)
    ins = [tensor_arg(i) for i in ins]
    uniq = list({id(t): t for t in ins}.values())  # an input named twice: PyTorch
    res = run_backward(
        [tensor_arg(o) for o in outs],
        [_grad_tensor_arg(g) for g in gos],
        truth(retain_graph),
        truth(create_graph),
        inputs=uniq,
        allow_unused=truth(allow_unused),
    )
    if len(uniq) == len(ins):
        return res
    at = {id(t): k for k, t in enumerate(uniq)}  # gives its gradient at each place
    return tuple(res[at[id(t)]] for t in ins)


NO_GRAD = GradModeContext(False, "no_grad")
ENABLE_GRAD = GradModeContext(True, "enable_grad")


@not_a_tensor_op(
    "no_grad",
    "with no_grad:",
    "a block whose results do not require grad",
    category="autograd",
)
def no_grad():
    return NO_GRAD


@not_a_tensor_op(
    "enable_grad",
    "with enable_grad:",
    "a block with grad mode on (inside no_grad)",
    category="autograd",
)
def enable_grad():
    return ENABLE_GRAD


class SetGradEnabled:
    """torch.set_grad_enabled(mode): grad mode set at once (a call on its own line), and
    a context (`with`) that restores the mode from before the call on exit, or a
    decorator (which restores it at once and sets `mode` around each call)."""

    __slots__ = ("prev", "mode")
    language_context = True

    def __init__(self, mode):
        if type(mode) is not bool:
            raise GradTypeError(
                "set_grad_enabled(): argument 'enabled' (position 1) must be "
                f"bool, not {type_name(mode)}"
            )
        self.prev, self.mode = context.current.grad_enabled, mode
        context.current.grad_enabled = mode

    def __call__(self, fn):
        context.current.grad_enabled = self.prev
        ctx = GradModeContext(self.mode, "set_grad_enabled")

        def decorated(*args, **kwargs):
            with ctx:
                return fn(*args, **kwargs)

        return Decorated(decorated, fn)

    def __enter__(self):
        context.current.grad_enabled = self.mode

    def __exit__(self, *exc):
        context.current.grad_enabled = self.prev

    def __repr__(self):
        return f"torch.autograd.grad_mode.set_grad_enabled(mode={self.mode})"


@not_a_tensor_op(
    "set_grad_enabled",
    "set_grad_enabled(mode)",
    "grad mode on or off: at once, or for a `with` block",
    category="autograd",
)
def set_grad_enabled(mode):
    return SetGradEnabled(mode)


@not_a_tensor_op(
    "is_grad_enabled",
    "is_grad_enabled()",
    "whether grad mode is on",
    category="autograd",
)
def is_grad_enabled():
    return context.current.grad_enabled
