"""The modules of the transforms: torch.func, torch.autograd.forward_ad, and the
additions to torch.autograd.functional (vjp, jvp, hvp, vhp) and torch.autograd
(gradgradcheck, Function, function.once_differentiable)."""

from __future__ import annotations

from ..engine.declare import none
from ..ops.registry import register
from . import autograd_function, forward_ad, func, functional, vectorize, vmap  # noqa: F401
from . import stdlib
from .nn.stateless import functional_call, make_functional_with_buffers, stack_module_state
from .values import Module


def install(torch_members, autograd, autograd_functional):
    torch_members["func"] = Module(
        "torch.func",
        dict(
            func.MEMBERS,
            functional_call=functional_call,
            stack_module_state=stack_module_state,
            vmap=vmap.vmap,
        ),
    )
    torch_members["vmap"] = vmap.vmap  # torch.vmap is torch.func.vmap
    autograd.members["forward_ad"] = Module("torch.autograd.forward_ad", dict(forward_ad.MEMBERS))
    autograd.members["gradgradcheck"] = functional.torch_gradgradcheck
    autograd.members["Function"] = autograd_function.Function
    autograd.members["function"] = Module(
        "torch.autograd.function",
        {
            "once_differentiable": autograd_function.once_differentiable,
            "Function": autograd_function.Function,
            "FunctionCtx": autograd_function.FunctionCtx,
        },
    )
    stdlib.add_module(
        "functorch",
        lambda: Module(
            "functorch",
            {
                "grad": func.grad,
                "grad_and_value": func.grad_and_value,
                "vjp": func.vjp,
                "jvp": func.jvp,
                "jacrev": func.jacrev,
                "jacfwd": func.jacfwd,
                "hessian": func.hessian,
                "vmap": vmap.vmap,
                "make_functional_with_buffers": make_functional_with_buffers,
            },
        ),
    )
    autograd_functional.members.update(
        {"vjp": functional.vjp, "jvp": functional.jvp, "hvp": functional.hvp, "vhp": functional.vhp}
    )


register(
    "gradgradcheck",
    "gradgradcheck(f, inputs, grad_outputs=None, eps=1e-6, atol=1e-5, rtol=1e-3)",
    "gradcheck of f's first derivatives (second-order check); prints the "
    "worst errors per input and returns True or False",
    category="autograd",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("a transform of functions: its own tests check it"),
    parser=None,
)(functional.gradgradcheck)
