"""Module.register_full_backward_hook and register_full_backward_pre_hook, as PyTorch
does them: the module's tensor inputs and outputs pass through an identity node
(BackwardHookFunctionBackward) when it is called; the outputs' node catches the
gradients of the outputs (the pre-hooks see them first, and may replace them), the
inputs' node calls hook(module, grad_input, grad_output) with the gradients of the
inputs, whose result replaces them.  When no input requires grad the hooks run at
the outputs with grad_input (None,), with torch's warning."""

from __future__ import annotations

from ...core.tensor import Tensor
from ...engine.declare import none
from ...engine.forward import linear
from ...engine.function import Function
from ...runtime import context
from ...runtime.errors import GradTypeError
from ..methods import node_hook

NO_INPUT_WARNING = (
    "Full backward hook is firing when gradients are computed with respect to module "
    "outputs since no inputs require gradients. See https://docs.pytorch.org/docs/main/"
    "generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more "
    "details."
)


class BackwardHookFunction(Function):
    __slots__ = ()
    name = "BackwardHookFunctionBackward"
    saved_names = ()
    formula = none("an identity the module's backward hooks sit on")
    jvp = linear

    def forward(self, x):
        return x

    def backward(self, g, F):
        return (g,)

    def __repr__(self):
        return f"<torch.autograd.function.{self.name} object>"


def _tuple(r, n, what):
    if r is None:
        return None
    if not isinstance(r, (tuple, list)) or len(r) != n:
        raise GradTypeError(f"{what} must return None or a tuple of {n} gradients")
    return tuple(r)


def call_with_hooks(module, args, kwargs, run):
    """run(args, kwargs) -> outputs, with the module's full backward hooks around it."""
    d = module.__dict__
    hooks, pre = d.get("_backward_hooks", []), d.get("_backward_pre_hooks", [])
    state = {"go": None}
    wrap = [i for i, a in enumerate(args) if type(a) is Tensor and a.requires_grad]
    if wrap and context.current.grad_enabled:
        args = list(args)
        for i in wrap:
            args[i] = BackwardHookFunction.apply(args[i])

        def at_input(grad_outputs):  # the gradient of the module's input
            go = state["go"]
            gi = grad_outputs
            for hook in list(hooks):
                r = _tuple(hook(module, gi, go), len(gi), "backward hook")
                if r is not None:
                    gi = r
            return gi

        for i in wrap:
            node_hook(args[i].grad_fn, at_input, "pre")
        args = tuple(args)
    out = run(args, kwargs)
    outs = out if isinstance(out, tuple) else (out,)
    if not any(type(o) is Tensor and o.requires_grad for o in outs):
        return out
    wrapped = tuple(
        BackwardHookFunction.apply(o) if type(o) is Tensor and o.requires_grad else o for o in outs
    )

    def at_output(grad_outputs):
        go = grad_outputs
        for hook in list(pre):
            r = _tuple(hook(module, go), len(go), "backward pre hook")
            if r is not None:
                go = r
        state["go"] = go
        if not wrap:
            context.warn(NO_INPUT_WARNING)
            for hook in list(hooks):
                hook(module, (None,), go)
        return go

    for o in wrapped:
        if type(o) is Tensor and o.grad_fn is not None:
            node_hook(o.grad_fn, at_output, "pre")
    return wrapped if isinstance(out, tuple) else wrapped[0]
