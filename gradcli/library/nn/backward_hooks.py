"""Module.register_full_backward_hook and register_full_backward_pre_hook, as PyTorch
does them: the module's tensor inputs that require grad pass through one node when it
is called, and so do its outputs; the outputs' node catches the gradients of all the
outputs at once (the pre-hooks see them first, and may replace them), the inputs' node
calls hook(module, grad_input, grad_output) once with the gradients of all the inputs,
whose result replaces them.  grad_input has a place per argument: None for one that is
not a tensor, zeros for a tensor no gradient reached; grad_output None for an output
no gradient reached.  When no input requires grad the hooks run at the outputs with
grad_input all None, with torch's warning.

PyTorch's node has an output per tensor; gradcli's nodes have one output, so the
tensors are flattened into one (the carrier, `_Join`, named BackwardHookFunctionBackward
as torch's node) and each tensor the module sees is its part of it (`_Part`): the
carrier's gradient is then all of theirs together.  Tensors of several dtypes share a
carrier of their widest dtype (every value of the others is exact in it), each part
and each gradient the hooks see in its tensor's own dtype; a single tensor passes
through its own node, as in torch."""

from __future__ import annotations

import numpy as np

from ...core.tensor import Tensor
from ...engine.declare import none
from ...engine.forward import linear
from ...engine.function import Function
from ...ops.registry import FUNCTIONS
from ...runtime import context
from ...runtime.errors import GradRuntimeError, GradTypeError
from ..methods import node_hook

NO_INPUT_WARNING = (
    "Full backward hook is firing when gradients are computed with respect to module "
    "outputs since no inputs require gradients. See https://docs.pytorch.org/docs/main/"
    "generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more "
    "details."
)


class Identity(Function):
    """An identity node under one of PyTorch's names (its `name` and `formula` the
    subclass's): the gradient passes through as it is."""

    __slots__ = ()
    saved_names = ()
    jvp = linear

    def forward(self, x):
        return x

    def backward(self, g, F):
        return (g,)

    def __repr__(self):
        return f"<torch.autograd.function.{self.name} object>"


class BackwardHookFunction(Identity):
    """One tensor's identity node (a module's only tensor input or output)."""

    __slots__ = ()
    name = "BackwardHookFunctionBackward"
    formula = none("an identity the module's backward hooks sit on")


class _Join(Function):
    """The tensors flattened into one carrier: its gradient is all of theirs."""

    __slots__ = ("sizes", "shapes")
    name = "BackwardHookFunctionBackward"
    saved_names = ()
    formula = none("an identity the module's backward hooks sit on")
    jvp = linear

    def forward(self, *xs):
        self.sizes = [x.size for x in xs]
        self.shapes = [x.shape for x in xs]
        return np.concatenate([x.reshape(-1) for x in xs])

    def backward(self, g, F):
        return tuple(F.reshape(p, s) for p, s in zip(F.split(g, self.sizes, 0), self.shapes))

    def __repr__(self):
        return f"<torch.autograd.function.{self.name} object>"


class _Part(Function):
    """One tensor of the carrier, as the module's code (or its caller) receives it."""

    __slots__ = ("start", "shape", "total", "seen", "carrier_dtype")
    name = "BackwardHookFunctionBackward"
    saved_names = ()
    formula = none("an identity the module's backward hooks sit on")
    jvp = linear

    def forward(self, carrier, start, shape, seen, dtype):
        self.start, self.shape, self.total, self.seen = start, shape, carrier.size, seen
        self.carrier_dtype = carrier.dtype
        part = carrier[start : start + int(np.prod(shape))].reshape(shape)
        return part if part.dtype == dtype else part.astype(dtype)

    def backward(self, g, F):
        self.seen.add(self.start)
        n = int(np.prod(self.shape))
        where = (slice(self.start, self.start + n),)
        if F.tensor_mode:
            return (F.pad_into(F.reshape(g, (n,)), (self.total,), where),)
        out = np.full(self.total, -0.0, dtype=self.carrier_dtype)  # (-0.0 + x is x)
        out[where] = g.reshape(-1)
        return (out,)

    def __repr__(self):
        return f"<torch.autograd.function.{self.name} object>"


class _Carried:
    """Tensors passed through one carrier: the carrier's node, each tensor's place."""

    def __init__(self, tensors):
        self.shapes = [t.data.shape for t in tensors]
        self.dtypes = [t.data.dtype for t in tensors]
        carrier = _Join.apply(*tensors)
        self.node = carrier.grad_fn
        self.seen: set = set()
        self.starts, start = [], 0
        self.parts = []
        for t in tensors:
            self.starts.append(start)
            self.parts.append(
                _Part.apply(
                    carrier, start=start, shape=t.data.shape, seen=self.seen, dtype=t.data.dtype
                )
            )
            start += t.data.size

    def pieces(self, g, unseen):
        """The carrier's gradient g (a Tensor) cut into the tensors' gradients, each in its
        tensor's dtype; `unseen(shape, dtype)` for a tensor no gradient reached."""
        out = []
        for start, shape, dtype in zip(self.starts, self.shapes, self.dtypes):
            if start not in self.seen:
                out.append(unseen(shape, dtype))
                continue
            n = int(np.prod(shape))
            piece = FUNCTIONS["reshape"](FUNCTIONS["narrow"](g, 0, start, n), shape)
            out.append(piece if piece.data.dtype == dtype else FUNCTIONS["to"](piece, dtype))
        return out

    def joined(self, pieces):
        """The tensors' gradients as the carrier's (None: zeros)."""
        flat = [
            FUNCTIONS["reshape"](p, (-1,))
            if isinstance(p, Tensor)
            else Tensor(np.zeros(int(np.prod(s)), dtype=dt))
            for p, s, dt in zip(pieces, self.shapes, self.dtypes)
        ]
        return flat[0] if len(flat) == 1 else FUNCTIONS["cat"](flat, 0)


def _checked(r, n, what):
    if r is None:
        return None
    if not isinstance(r, (tuple, list)):
        raise GradTypeError(f"{what} must return None or a tuple of {n} gradients")
    if len(r) != n:
        words = "grad_input" if what == "backward hook" else "grad_output"
        raise GradRuntimeError(
            f"{'Backward hook' if what == 'backward hook' else 'Backward pre hook'} returned "
            f"an invalid number of {words}, got {len(r)}, but expected {n}"
        )
    return tuple(r)


def _grad_input(given, idx, grads):
    """grad_input: the gradients of the arguments at `idx`, zeros for another tensor
    argument (torch's node gives a tensor that needs no gradient zeros), None for the
    rest."""
    gi = [Tensor(np.zeros_like(a.data)) if type(a) is Tensor else None for a in given]
    for i, g in zip(idx, grads):
        gi[i] = g
    return tuple(gi)


def _zeros(shape, dtype):
    return Tensor(np.zeros(shape, dtype=dtype))


def _wrap(items):
    """(new items, the indices of the tensors requiring grad, the carrier or None)."""
    idx = [i for i, a in enumerate(items) if type(a) is Tensor and a.requires_grad]
    if not idx:
        return items, idx, None
    ts = [items[i] for i in idx]
    items = list(items)
    if len(ts) == 1:
        items[idx[0]] = BackwardHookFunction.apply(items[idx[0]])
        return tuple(items), idx, None
    carried = _Carried(ts)
    for i, p in zip(idx, carried.parts):
        items[i] = p
    return tuple(items), idx, carried


def call_with_hooks(module, args, kwargs, run):
    """run(args, kwargs) -> outputs, with the module's full backward hooks around it."""
    d = module.__dict__
    hooks, pre = d.get("_backward_hooks", []), d.get("_backward_pre_hooks", [])
    state = {"go": None}
    n_in = len(args)
    wrap = []
    if context.current.grad_enabled:
        args, wrap, carried_in = _wrap(args)
    if wrap:
        given = list(args)

        def call_hooks(gi):
            go = state["go"]
            if go is None:
                return None
            for hook in list(hooks):
                r = _checked(hook(module, gi, go), n_in, "backward hook")
                if r is not None:
                    gi = r
            state["go"] = None
            return gi

        if carried_in is not None:

            def at_inputs(grad_outputs):  # the carrier's gradient: every input's
                (g,) = grad_outputs
                pieces = carried_in.pieces(g, _zeros)
                r = call_hooks(_grad_input(given, wrap, pieces))
                if r is None:
                    return None
                return (carried_in.joined([r[i] for i in wrap]),)

            node_hook(carried_in.node, at_inputs, "pre")
        else:
            for i in wrap:

                def at_input(grad_outputs, i=i):  # one input's gradient
                    r = call_hooks(_grad_input(given, [i], grad_outputs))
                    return None if r is None else (r[i],)

                node_hook(args[i].grad_fn, at_input, "pre")
    out = run(args, kwargs)
    outs = out if isinstance(out, tuple) else (out,)
    n_out = len(outs)
    outs, oidx, carried_out = _wrap(outs)
    if not oidx:
        return out

    def at_outputs(go):
        for hook in list(pre):
            r = _checked(hook(module, go), n_out, "backward pre hook")
            if r is not None:
                go = r
        state["go"] = go
        if not wrap:
            context.warn(NO_INPUT_WARNING)
            for hook in list(hooks):
                hook(module, (None,) * n_in, go)
            state["go"] = None
        return go

    if carried_out is not None:

        def at_output_carrier(grad_outputs):
            (g,) = grad_outputs
            go = [None] * n_out
            for i, p in zip(oidx, carried_out.pieces(g, lambda shape, dtype: None)):
                go[i] = p
            go = at_outputs(tuple(go))
            return (carried_out.joined([go[i] for i in oidx]),)

        node_hook(carried_out.node, at_output_carrier, "pre")
    else:
        for i in oidx:

            def at_output(grad_outputs, i=i):
                go = [None] * n_out
                go[i] = grad_outputs[0]
                go = at_outputs(tuple(go))
                return (go[i],)

            node_hook(outs[i].grad_fn, at_output, "pre")
    return outs if isinstance(out, tuple) else outs[0]
