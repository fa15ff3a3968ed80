"""The functions of the `torch` namespace itself whose signature is ATen's, not
torch.nn.functional's (`torch.kl_div`, not `F.kl_div`).  The losses: `reduction` is an
int (0 none, 1 mean, 2 sum; any other number is none) whose default is none, so
`torch.kl_div(x, t)` is per-element where `F.kl_div(x, t)` is a mean.  `torch.embedding`
takes (weight, indices), F's arguments swapped, and -1 (or any negative) for no
padding_idx.  Each form calls the op's own function (the F form); its errors are
PyTorch's argument parser's."""

from __future__ import annotations

import inspect

from ..core.convert import tensor_arg
from ..runtime.errors import GradRuntimeError, GradTypeError
from .registry import FUNCTIONS

_NONE = object()  # a parameter with no default
_REDUCTIONS = {1: "mean", 2: "sum"}


def _form(name, tensors, options, keyword_only=(), required=False):
    """torch.NAME: `tensors` (required), then `options` [(name, default)] and the int
    `reduction` (its default none, or required with the options when `required`), then
    the `keyword_only` [(name, default)]."""
    params = [(t, _NONE) for t in tensors]
    params += [(o, _NONE if required else d) for o, d in [*options, ("reduction", 0)]]
    positional = [p for p, _ in params]
    keyword = dict(keyword_only)

    def call(*args, **kwargs):
        if len(args) > len(params):
            low = sum(d is _NONE for _, d in params)
            raise GradTypeError(
                f"{name}() takes from {low} to {len(params)} positional arguments but "
                f"{len(args)} were given"
            )
        bound = dict(zip(positional[: len(args)], args, strict=True))
        for k, v in kwargs.items():
            if k in bound:
                raise GradTypeError(f"{name}() got multiple values for argument '{k}'")
            if k not in positional and k not in keyword:
                raise GradTypeError(f"{name}() got an unexpected keyword argument '{k}'")
            bound[k] = v
        missing = [p for p, d in params if d is _NONE and p not in bound]
        if missing:
            n = len(missing)
            raise GradTypeError(
                f"{name}() missing {n} required positional argument{'s' if n == 1 else ''}: "
                + ", ".join(f'"{m}"' for m in missing)
            )
        reduction = bound.pop("reduction", 0)
        if isinstance(reduction, bool) or not isinstance(reduction, int):
            where = f" (position {len(args)})" if len(args) == len(params) else ""
            raise GradTypeError(
                f"{name}(): argument 'reduction'{where} must be int, not {type(reduction).__name__}"
            )
        given = {o: bound.pop(o, d) for o, d in [*options, *keyword_only]}
        inputs = [bound[t] for t in tensors]
        return FUNCTIONS[name](*inputs, **given, reduction=_REDUCTIONS.get(reduction, "none"))

    call.__name__ = call.__qualname__ = name
    call.__doc__ = (
        f"F.{name} with ATen's signature: reduction an int (0 none, 1 mean, 2 sum), by default none"
    )
    P = inspect.Parameter
    call.__signature__ = inspect.Signature(
        [P(p, P.POSITIONAL_OR_KEYWORD, default=P.empty if d is _NONE else d) for p, d in params]
        + [P(k, P.KEYWORD_ONLY, default=d) for k, d in keyword_only]
    )
    return call


def embedding(weight, indices=_NONE, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """F.embedding(indices, weight) with ATen's signature: the weight first, and a negative
    padding_idx for none"""
    if indices is _NONE:
        raise GradTypeError('embedding() missing 1 required positional arguments: "indices"')
    for what, v in (("padding_idx", padding_idx), ("scale_grad_by_freq", scale_grad_by_freq)):
        kind = int if what == "padding_idx" else bool
        if isinstance(v, bool) is not (kind is bool) or not isinstance(v, int):
            raise GradTypeError(
                f"embedding(): argument '{what}' must be {kind.__name__}, not {type(v).__name__}"
            )
    if tensor_arg(weight).data.ndim != 2:
        raise GradRuntimeError("'weight' must be 2-D")
    return FUNCTIONS["embedding"](
        indices,
        weight,
        padding_idx=padding_idx if padding_idx >= 0 else None,
        scale_grad_by_freq=scale_grad_by_freq,
        sparse=sparse,
    )


embedding.__signature__ = inspect.signature(embedding).replace(  # type: ignore[attr-defined]
    parameters=[
        p.replace(default=inspect.Parameter.empty) if p.name == "indices" else p
        for p in inspect.signature(embedding).parameters.values()
    ]
)


def torch_members():
    """{name: torch.NAME} of the functions whose torch-namespace form is ATen's (made when the
    `torch` namespace is, after every op is registered)."""
    return {
        "embedding": embedding,
        "binary_cross_entropy_with_logits": _form(
            "binary_cross_entropy_with_logits",
            ("input", "target"),
            [("weight", None), ("pos_weight", None)],
        ),
        "kl_div": _form("kl_div", ("input", "target"), [], keyword_only=[("log_target", False)]),
        "hinge_embedding_loss": _form(
            "hinge_embedding_loss", ("input", "target"), [("margin", 1.0)]
        ),
        "cosine_embedding_loss": _form(
            "cosine_embedding_loss", ("input1", "input2", "target"), [("margin", 0.0)]
        ),
        "margin_ranking_loss": _form(
            "margin_ranking_loss", ("input1", "input2", "target"), [("margin", 0.0)]
        ),
        "poisson_nll_loss": _form(
            "poisson_nll_loss",
            ("input", "target"),
            [("log_input", True), ("full", False), ("eps", 1e-8)],
            required=True,
        ),
    }
