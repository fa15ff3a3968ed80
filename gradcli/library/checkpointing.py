"""torch.utils.checkpoint: `checkpoint(function, *args, use_reentrant=...)` and
`checkpoint_sequential`.  PyTorch's checkpointing trades memory for time: it keeps the
inputs, drops what the function saved, and runs the function again in the backward
(the same ops on the same values, the random draws replayed).  gradcli runs the function
once and keeps its graph: the outputs and every gradient are the same numbers.  What a
program sees is PyTorch's: without `use_reentrant` its warning and the reentrant variant;
the reentrant variant's outputs come from one node, CheckpointFunctionBackward, and
require grad only when an input tensor does (else its warning, and no gradient reaches
the function's parameters); the non-reentrant variant's outputs are the function's own."""

from __future__ import annotations

from ..core.tensor import Tensor
from ..engine.declare import none
from ..runtime import context
from ..runtime.errors import GradValueError
from .autograd_api import NO_GRAD
from .nn.backward_hooks import Identity

_EXPLICIT = (
    "the use_reentrant parameter should be passed explicitly. {when} use_reentrant=False is "
    "recommended, but if you need to preserve the current default behavior, you can pass "
    "use_reentrant=True. Refer to docs for more details on the differences between the two "
    "variants."
)


class CheckpointFunction(Identity):
    """The reentrant checkpoint's node over an output of the function (its gradient
    goes on to the function's graph, kept instead of recomputed)."""

    __slots__ = ()
    name = "CheckpointFunctionBackward"
    formula = none("a checkpointed function: its graph is the function's own")


def _unexpected(kwargs):
    if kwargs:
        raise GradValueError("Unexpected keyword arguments: " + ",".join(kwargs))


def _reentrant(function, args):
    if not any(type(a) is Tensor and a.requires_grad for a in args):
        context.warn("None of the inputs have requires_grad=True. Gradients will be None")
        with NO_GRAD:
            return function(*args)
    out = function(*args)
    wrap = lambda v: CheckpointFunction.apply(v) if type(v) is Tensor else v  # noqa: E731
    return tuple(wrap(v) for v in out) if isinstance(out, tuple) else wrap(out)


def checkpoint(
    function,
    *args,
    use_reentrant=None,
    context_fn=None,
    determinism_check="default",
    debug=False,
    early_stop=True,
    **kwargs,
):
    if use_reentrant is None:
        when = (
            "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
            "exception."
        )
        context.warn("torch.utils.checkpoint: " + _EXPLICIT.format(when=when))
        use_reentrant = True
    kwargs.pop("preserve_rng_state", True)  # (one run: the draws are the function's own)
    if use_reentrant:
        _unexpected(kwargs)
        return _reentrant(function, args)
    return function(*args, **kwargs)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):  # noqa: A002
    """The functions (a Sequential's children) in `segments` runs, each but the last
    checkpointed."""
    if use_reentrant is None:
        when = "In version 2.9 we will raise an exception if use_reentrant is not passed."
        context.warn("torch.utils.checkpoint.checkpoint_sequential: " + _EXPLICIT.format(when=when))
        use_reentrant = True
    kwargs.pop("preserve_rng_state", True)
    _unexpected(kwargs)
    children = getattr(functions, "children", None)
    funcs = list(children()) if children is not None else list(functions)

    def run(start, end):
        def forward(x):
            for j in range(start, end + 1):
                x = funcs[j](x)
            return x

        return forward

    size = len(funcs) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant)
    return run(end + 1, len(funcs) - 1)(input)


MEMBERS = {"checkpoint": checkpoint, "checkpoint_sequential": checkpoint_sequential}
