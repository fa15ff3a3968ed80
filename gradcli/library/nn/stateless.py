"""torch.func.functional_call: call a module with some of its parameters and buffers
replaced by the tensors given (for the call only), as torch.func does; and
torch.func.stack_module_state, the stacked parameters and buffers of models of one class
(what an ensemble hands to functional_call under vmap).

The replacement is done in the module's own tables (`_parameters`, `_buffers`), so
a layer's forward reads the given tensor where it reads `self.weight`; the tables
are put back when the call returns or fails.  The tensors given need not be
Parameters (make_dual results, detached tensors, tensors of an outer transform)."""

from __future__ import annotations

from ...runtime.errors import GradRuntimeError, GradTypeError, GradValueError
from ...core.convert import type_name
from ...core.tensor import Tensor
from ...ops.registry import FUNCTIONS
from .module import Module


def _owner(module, dotted):
    """(the submodule that holds `dotted`'s last part, that part)."""
    *path, leaf = dotted.split(".")
    m = module
    for p in path:
        sub = m.__dict__.get("_modules", {}).get(p)
        if not isinstance(sub, Module):
            raise GradValueError(
                f"{type(m).__name__} has no attribute `{p}`", type_name="AttributeError"
            )
        m = sub
    return m, leaf


def _merge(dicts):
    if isinstance(dicts, dict):
        return dict(dicts)
    if not isinstance(dicts, (tuple, list)):
        raise GradTypeError(
            "Expected all elements of parameter_and_buffer_dicts to be "
            f"dictionaries, got {type_name(dicts)}"
        )
    merged = {}
    for d in dicts:
        if not isinstance(d, dict):
            raise GradValueError(
                "Expected all elements of parameter_and_buffer_dicts to be dictionaries"
            )
        for k in d:
            if k in merged:
                raise GradValueError(
                    f"{k} appeared in multiple dictionaries; behavior of "
                    "functional call is ambiguous"
                )
        merged.update(d)
    return merged


_MISSING = object()


def functional_call(
    module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False
):
    if not isinstance(module, Module):
        raise GradTypeError(
            f"functional_call(): expected a torch.nn.Module, got {type_name(module)}"
        )
    values = _merge(parameter_and_buffer_dicts)
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    kwargs = {} if kwargs is None else kwargs
    if strict:
        known = {n for n, _ in module.named_parameters()} | {n for n, _ in module.named_buffers()}
        missing = sorted(known - set(values))
        unexpected = sorted(set(values) - known)
        if missing or unexpected:
            parts = []
            if unexpected:
                parts.append("Unexpected key(s): " + ", ".join(repr(k) for k in unexpected) + ".")
            if missing:
                parts.append("Missing key(s): " + ", ".join(repr(k) for k in missing) + ".")
            raise GradRuntimeError(
                f"Error(s) in reparametrizing for {type(module).__name__}:\n\t" + "\n\t".join(parts)
            )
    undo = []
    try:
        for name, value in values.items():
            owner, leaf = _owner(module, name)
            d = owner.__dict__
            for key in ("_parameters", "_buffers"):
                table = d.get(key)
                if table is not None and leaf in table:
                    undo.append((table, leaf, table[leaf]))
                    table[leaf] = value
                    break
            else:
                undo.append((d, leaf, d.get(leaf, _MISSING)))
                d[leaf] = value
        return module(*args, **kwargs)
    finally:
        for table, leaf, old in reversed(undo):
            if old is _MISSING:
                table.pop(leaf, None)
            else:
                table[leaf] = old


class FunctionalModuleWithBuffers:
    """What functorch.make_functional_with_buffers returns: func(params, buffers, *args)
    calls the module with those parameters and buffers (in named_parameters order)."""

    language_callable = True
    language_methods = {}

    def __init__(self, module, param_names, buffer_names):
        self.module, self.param_names, self.buffer_names = module, param_names, buffer_names

    def __call__(self, params, buffers, *args, **kwargs):
        values = dict(zip(self.param_names, params))
        values.update(zip(self.buffer_names, buffers))
        return functional_call(self.module, values, args, kwargs)

    def __repr__(self):
        return (
            "FunctionalModuleWithBuffers(\n  (stateless_model): "
            + repr(self.module).replace("\n", "\n  ")
            + "\n)"
        )


def make_functional_with_buffers(model, disable_autograd_tracking=False):
    if not isinstance(model, Module):
        raise GradTypeError(
            f"make_functional_with_buffers(): expected a torch.nn.Module, got {type_name(model)}"
        )
    params = list(model.named_parameters())
    buffers = list(model.named_buffers())
    fn = FunctionalModuleWithBuffers(model, [n for n, _ in params], [n for n, _ in buffers])
    ps = tuple(p for _, p in params)
    if disable_autograd_tracking:
        ps = tuple(Tensor(p.data) for p in ps)
    return fn, ps, tuple(b for _, b in buffers)


def _stacked_leaf(tensors, name):
    """The tensors stacked, a new leaf that requires grad when all of them do."""
    wanted = [t.requires_grad for t in tensors]
    if any(wanted) and not all(wanted):
        raise GradRuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    return Tensor(FUNCTIONS["stack"](list(tensors)).data, requires_grad=all(wanted))


def stack_module_state(models):
    """(params, buffers): each name of the models' named_parameters and named_buffers ->
    the models' tensors stacked along a new first dimension (new leaves)."""
    models = list(models)
    if not models:
        raise GradRuntimeError("stack_module_state: Expected at least one model, got 0.")
    if any(not isinstance(m, Module) for m in models):
        raise GradTypeError(
            "stack_module_state(): expected torch.nn.Modules, got "
            + next(type_name(m) for m in models if not isinstance(m, Module))
        )
    if len({bool(m.training) for m in models}) != 1:
        raise GradRuntimeError(
            "stack_module_state: Expected all models to have the same training/eval mode."
        )
    if any(type(m) is not type(models[0]) for m in models):
        raise GradRuntimeError("stack_module_state: Expected all models to be of the same class.")
    out = []
    for tables in (
        [dict(m.named_parameters()) for m in models],
        [dict(m.named_buffers()) for m in models],
    ):
        out.append({k: _stacked_leaf([t[k] for t in tables], k) for k in tables[0]})
    return out[0], out[1]
