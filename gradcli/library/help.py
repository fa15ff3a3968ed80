"""`help(NAME)`: a built-in's signature, its doc, an example and its PyTorch name.

The example is made from the op table's own gradient-check samples (`checks`):
each sample tensor gets round values from its range, the built-in runs on them,
and the call and its result are shown as the REPL would show them, so an example
can never disagree with what gradcli does.  The REPL's `help`, `help(mean)`,
`mean?`, `?` and `:help mean` all come here (repl/help.py adds the REPL's topics).
"""

from __future__ import annotations

import numpy as np

from ..runtime import context
from ..runtime.errors import GradValueError, did_you_mean
from ..core.printing import show
from ..core.tensor import Tensor
from ..ops.registry import BUILTINS, METHOD_ONLY, Arg, not_a_tensor_op

_TORCH = {"arith", "compare", "creation", "linalg", "math", "reduce", "shape", "tensor"}
_PYTORCH_NAMES = {
    "backward": "torch.autograd.backward (and Tensor.backward)",
    "grad": "torch.autograd.grad",
    "jacobian": "torch.autograd.functional.jacobian",
    "hessian": "torch.autograd.functional.hessian",
    "gradcheck": "torch.autograd.gradcheck",
    "no_grad": "torch.no_grad",
    "enable_grad": "torch.enable_grad",
    "is_grad_enabled": "torch.is_grad_enabled",
    "seed": "torch.manual_seed",
    "manual_seed": "torch.manual_seed",
    "set_printoptions": "torch.set_printoptions",
    "set_default_dtype": "torch.set_default_dtype",
    "get_default_dtype": "torch.get_default_dtype",
    "is_tensor": "torch.is_tensor",
    "numel": "torch.numel",
    "device": "torch.device",
    "assert_close": "close to torch.testing.assert_close",
}
_OWN = {"plot", "graph", "backward_trace", "load", "save", "help", "display"}


def _sample(arg, k):
    """Round sample values for an Arg: evenly spread over its range, one decimal."""
    n = int(np.prod(arg.shape)) if arg.shape else 1
    lo, hi = arg.lo, arg.hi
    vals = np.round(np.linspace(lo + (hi - lo) * 0.15, hi - (hi - lo) * 0.15, n) + 0.1 * k, 1)
    return Tensor(vals.reshape(arg.shape) if arg.shape else np.array(vals[0]))


def _source(v):
    if type(v) is Tensor:
        return show(v)
    return repr(v).replace("True", "true").replace("False", "false")


def _plainness(check):
    """How well a sample reads as an example: 1-D tensors of a few values first."""
    args, kwargs = check
    shapes = [a.shape for a in list(args) + list(kwargs.values()) if isinstance(a, Arg)]
    ndim = max((len(sh) for sh in shapes), default=0)
    size = sum(int(np.prod(sh)) if sh else 1 for sh in shapes)
    return ({1: 0, 2: 1, 0: 2}.get(ndim, 3), size > 12, len(kwargs), size)


def example(entry, name=None) -> str | None:
    """`call` and its result, from the first gradient-check sample; None if none."""
    if not entry.checks:
        return None
    args, kwargs = min(entry.checks, key=_plainness)
    values = [(_sample(a, i) if isinstance(a, Arg) else a) for i, a in enumerate(args)]
    kw = {k: (_sample(v, 9) if isinstance(v, Arg) else v) for k, v in kwargs.items()}
    try:
        result = entry.fn(*values, **kw)
    except Exception:  # a sample the checks use differently: no example
        return None
    parts = [_source(v) for v in values] + [f"{k}={_source(v)}" for k, v in kw.items()]
    name = name or entry.name
    if entry.function:
        call = f"{name}({', '.join(parts)})"
    else:
        call = f"{parts[0]}.{name}({', '.join(parts[1:])})"
    text = show(result)
    if len(call) > 100 or text.count("\n") > 6:
        return None
    return f"{call}\n{text}"


def pytorch_name(entry) -> str | None:
    if entry.name in _PYTORCH_NAMES:
        return _PYTORCH_NAMES[entry.name]
    if entry.name in _OWN:
        return None
    if entry.category == "loss":
        return f"torch.nn.functional.{entry.name}"
    if entry.category in _TORCH or entry.category == "activation":
        if not entry.function:
            return f"Tensor.{entry.name}"
        return f"torch.{entry.name}" + (f" (and Tensor.{entry.name})" if entry.method else "")
    return None


def entry_of(x):
    """The op-table entry for a name or a built-in function value (or None)."""
    if isinstance(x, str):
        name = x
        for prefix in ("x.", "torch.", "F.", "torch.nn.functional.", "Tensor."):
            if name.startswith(prefix) and name[len(prefix) :].isidentifier():
                name = name[len(prefix) :]
                break
        return BUILTINS.get(name) or METHOD_ONLY.get(name)
    for table in (BUILTINS, METHOD_ONLY):
        for entry in table.values():
            if entry.fn is x:
                return entry
    return None


def help_text(entry, name=None) -> str:
    lines = [entry.sig, f"    {entry.doc}"]
    if name and entry.name != name and name.isidentifier():
        lines.append(f"    ({name} is another name for {entry.name})")
    if entry.method and entry.function:
        lines.append(f"    also a tensor method: x.{entry.name}(...)")
    torch_name = pytorch_name(entry)
    if torch_name:
        lines.append(f"    PyTorch: {torch_name}")
    elif entry.name in _OWN:
        lines.append("    gradcli's own (not in PyTorch)")
    ex = example(entry, name if name and name.isidentifier() else None)
    if ex:
        lines.append("example:")
        lines.extend("    " + line for line in ex.split("\n"))
    return "\n".join(lines)


@not_a_tensor_op(
    "help",
    "help(name)",
    'help on a built-in: help(mean) or help("mean"); in the REPL also mean?, ? and :help',
    category="misc",
)
def help_(x=None):
    if x is None:
        text = (
            'help(NAME) shows a built-in: help(mean), help("backward"), help(x.sum); '
            "in the REPL, :help lists them all"
        )
    else:
        entry = entry_of(getattr(x, "fn", x))
        if entry is None:
            from .name_docs import find, of_value, text as doc_text  # (start-up)

            if isinstance(x, str) and find(x) is None:
                raise GradValueError(
                    f"help(): no built-in named {x!r}",
                    hint=did_you_mean(x, list(BUILTINS) + list(METHOD_ONLY)),
                )
            found = find(x) if isinstance(x, str) else of_value(x)
            name = getattr(x, "name", None)
            if found is not None:
                text = doc_text(*found)
            elif name and getattr(x, "params", None) is not None:
                text = f"{name}({', '.join(x.params)}): a function defined in this program"
            else:
                text = f"{show(x)}: no help for this value"
        else:
            text = help_text(entry, x if isinstance(x, str) else None)
    context.current.out.print(text + "\n")
    return None
