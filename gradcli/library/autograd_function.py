"""torch.autograd.Function: custom ops with their own backward (and jvp).

A subclass (in the language, or in Python) defines `forward` and `backward` as
staticmethods, either `forward(ctx, *args)` or `forward(*args)` with
`setup_context(ctx, inputs, output)`; `Cls.apply(*args)` runs forward without
recording its inner ops and records one graph node per output tensor, named
`<ClsName>Backward` as in PyTorch.  The node calls `backward(ctx, *grads)`;
under create_graph the user's backward is itself recorded (double backward),
unless it is wrapped in `once_differentiable`.  In forward mode the class's
`jvp(ctx, *tangents)` staticmethod gives the output's tangent.
"""

from __future__ import annotations

import weakref
from types import SimpleNamespace

import numpy as np

from ..engine.declare import none
from ..runtime import context
from ..runtime.errors import GradRuntimeError
from ..core.tensor import Tensor
from ..engine import forward as fw, saved, versions
from ..engine.passes import SECOND_BACKWARD
from ..engine.autograd import Function as Node


_OWN = (
    "to_save",
    "needs_input_grad",
    "non_differentiable",
    "materialize_grads",
    "_out_nodes",
    "_in_backward",
    "_clear_on_access",
    "_accessed",
    "_reader",
    "_plan",
)


class FunctionCtx:
    """The `ctx` object: save_for_backward / saved_tensors, needs_input_grad,
    mark_non_differentiable, set_materialize_grads, and any attribute."""

    language_attrs = {
        "saved_tensors": lambda c: c.saved_tensors,
        "needs_input_grad": lambda c: c.needs_input_grad,
    }
    # whether reading one of language_attrs runs no code of the program (the language may
    # then read it without making the running frames): the saved tensors unless
    # saved-tensor hooks packed them (unpacking calls the program's hook)
    language_quiet_attrs = {
        "saved_tensors": lambda c: type(c.to_save) is tuple,
        "needs_input_grad": lambda c: True,
    }

    def __init__(self):
        self.to_save = ()
        self.needs_input_grad = ()
        self.non_differentiable = set()
        self.materialize_grads = True
        self._out_nodes = ()  # weak references to the nodes of the outputs
        self._in_backward = False  # in the Function's backward
        # the class's clear_saved_tensors_on_access; the outputs whose backward read the
        # saved tensors (each output is a node of its own here: PyTorch's one node reads
        # them once), and the output whose backward runs
        self._clear_on_access, self._accessed, self._reader = False, set(), None
        self._plan = None  # library/function_plans.py: the plan of the forward's kind

    def save_for_backward(self, *tensors):
        for i, t in enumerate(tensors):  # (not tensors.index(t): == of tensors is a tensor)
            if t is not None and not isinstance(t, Tensor):
                raise GradRuntimeError(
                    "save_for_backward can only save variables, but argument "
                    f"{i} is of type {type(t).__name__}",
                    type_name="TypeError",
                )
        self.to_save = tensors

    def language_delattr(self, name):
        if name in _OWN or name not in self.__dict__:
            raise GradRuntimeError(
                f"'{type(self).__name__}' object has no attribute '{name}'",
                type_name="AttributeError",
            )
        del self.__dict__[name]

    def save_for_forward(self, *tensors):
        self.to_save_forward = tensors

    @property
    def saved_tensors(self):
        if self._clear_on_access and self._in_backward:
            if self._reader in self._accessed:
                raise GradRuntimeError(
                    "saved_tensors can only be accessed once when "
                    "clear_saved_tensors_on_access=True is set on the autograd.Function. "
                    "Either access saved_tensors only once, or set "
                    "clear_saved_tensors_on_access=False."
                )
            self._accessed.add(self._reader)
        if self.to_save and not self._in_backward:
            for ref in self._out_nodes:  # a backward without retain_graph freed them
                node = ref()
                if node is not None and node.saved is None:
                    raise GradRuntimeError(SECOND_BACKWARD)
        return tuple(self.to_save)

    def mark_non_differentiable(self, *tensors):
        self.non_differentiable.update(id(t) for t in tensors)

    def set_materialize_grads(self, value):
        self.materialize_grads = bool(value)

    def mark_dirty(self, *tensors):
        pass

    language_methods = {
        "save_for_backward": save_for_backward,
        "save_for_forward": save_for_forward,
        "mark_non_differentiable": mark_non_differentiable,
        "set_materialize_grads": set_materialize_grads,
        "mark_dirty": mark_dirty,
    }

    def __repr__(self):
        return f"<torch.autograd.function.{type(self).__name__} object>"


def once_differentiable(fn):
    """backward decorator: it runs without recording, so its result cannot be
    differentiated again (as PyTorch's)."""
    inner = fn.__func__ if isinstance(fn, staticmethod) else fn

    def wrapper(ctx, *grads):
        prev = context.current.grad_enabled
        context.current.grad_enabled = False
        try:
            out = inner(ctx, *grads)
        finally:
            context.current.grad_enabled = prev
        items = out if isinstance(out, tuple) else (out,)
        items = tuple(Tensor(g.data) if isinstance(g, Tensor) else g for g in items)
        return items if isinstance(out, tuple) else items[0]

    wrapper.__name__ = getattr(inner, "__name__", "backward")
    return wrapper


class CustomNode(Node):
    """The graph node of one output of a custom Function's apply."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = (
        "ctx",
        "fn_cls",
        "k",
        "n_out",
        "out_meta",
        "argpos",
        "nargs",
        "shapes",
        "__weakref__",
    )
    name = "CustomBackward"
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def forward(self, *arrays, out, setup):
        (self.ctx, self.fn_cls, self.k, self.n_out, self.out_meta, self.argpos, self.nargs) = setup
        self.shapes = [(a.shape, a.dtype) for a in arrays]  # (the tensor inputs')
        return out

    def ctx_attr(self, name, missing):
        """An attribute the Function's forward set on ctx, or `saved_tensors` or
        `needs_input_grad` (`missing` when ctx has none of the name): PyTorch's ctx is
        the output's node."""
        read = FunctionCtx.language_attrs.get(name)
        if read is not None:
            return read(self.ctx)
        return missing if name in _OWN else self.ctx.__dict__.get(name, missing)

    def backward(self, g, F, *_saved):
        """(`_saved`: a placeholder the engine frees after a backward without
        retain_graph, so that a second one fails, and ctx.saved_tensors after it.)"""
        ctx, cls = self.ctx, self.fn_cls
        grads = []
        for j, (shape, dt) in enumerate(self.out_meta):
            if j == self.k:
                grads.append(g if F.tensor_mode else Tensor(np.asarray(g)))
            elif ctx.materialize_grads:
                grads.append(Tensor(np.zeros(shape, dt)))
            else:
                grads.append(None)
        running, ctx._in_backward = ctx._in_backward, True
        ctx._reader = self.k
        try:
            if cls.boxed_grads_call is True:  # the grads as one list
                res = cls.backward(ctx, grads)
            elif ctx._plan is not None and not F.tensor_mode:
                plans = _PLANS[0]  # (imported: its forward made the plan)
                res = plans.backward(cls, ctx, grads, self.nargs)
                if type(res) is plans.Arrays:  # (its plan's: an array or None each)
                    return _valid(self, [res[i] for i in self.argpos], F)
            else:
                res = cls.backward(ctx, *grads)
        finally:
            ctx._in_backward = running
        res = res if isinstance(res, tuple) else (res,)
        if len(res) != self.nargs:
            raise GradRuntimeError(
                f"function {self.name} returned an incorrect number of "
                f"gradients (expected {self.nargs}, got {len(res)})"
            )
        out = []
        for i in self.argpos:
            r = res[i]
            if r is None:
                out.append(None)
            elif not isinstance(r, Tensor):
                out.append(Tensor(np.asarray(r, dtype=float)) if F.tensor_mode else np.asarray(r))
            else:
                out.append(r if F.tensor_mode else r.data)
        return _valid(self, out, F)

    def jvp(self, ts, F):
        cls = self.fn_cls
        if "jvp" not in _defined(cls):
            raise GradRuntimeError(
                "You must implement the jvp function for custom "
                "autograd.Function to use it with forward mode AD.",
                type_name="NotImplementedError",
            )
        tangents = [None] * self.nargs
        for t, i in zip(ts, self.argpos):
            tangents[i] = t
        out = cls.jvp(self.ctx, *tangents)
        outs = out if isinstance(out, tuple) else (out,)
        return outs[self.k]

    def __repr__(self):
        return f"<torch.autograd.function.{self.name} object>"


def _valid(node, grads, F):
    """The gradients a Function's backward gave its tensor inputs (arrays, or Tensors
    under create_graph), as PyTorch's engine takes them (validate_outputs): one of an
    input that needs none is not looked at; one of another shape is summed to the
    input's when the input's shape expands to it, and refused otherwise; one of
    another float dtype is cast to the input's."""
    for j, r in enumerate(grads):
        if r is None or not node.needs[j]:
            continue
        shape, dt = node.shapes[j]
        a = r.data if F.tensor_mode else r
        if a.shape != shape:
            n = len(a.shape) - len(shape)
            if n < 0 or any(s not in (1, d) for s, d in zip(shape, a.shape[n:])):
                raise GradRuntimeError(
                    f"Function {node.name} returned an invalid gradient at index {j} - "
                    f"got {list(a.shape)} but expected shape compatible with {list(shape)}"
                )
            r = grads[j] = F.sum_to(r, shape)
        if not F.tensor_mode and r.dtype != dt and r.dtype.kind == dt.kind == "f":
            grads[j] = r.astype(dt)
    return tuple(grads)


_NODES = {}


def _node_class(cls):
    node = _NODES.get(cls)
    if node is None:
        name = f"{cls.__name__}Backward"
        attrs = {"__slots__": (), "name": name, "language_type_path": _FUNCTION_MODULE + name}
        node = _NODES[cls] = type(name, (CustomNode,), attrs)
    return node


def _ctx_class(cls):
    """The class of a Function's ctx: PyTorch's ctx is the output's node, of the class
    `<Function>Backward` in torch.autograd.function (its name in messages and type())."""
    ctx = _CTXS.get(cls)
    if ctx is None:
        name = f"{cls.__name__}Backward"
        attrs = {"language_type_path": _FUNCTION_MODULE + name}
        ctx = _CTXS[cls] = type(name, (FunctionCtx,), attrs)
    return ctx


_FUNCTION_MODULE = "torch.autograd.function."
_PLANS: list = []  # library/function_plans.py, imported with the first apply


def _plans():
    if not _PLANS:
        # (start-up: only a program that applies a Function imports it)
        from .function_plans import Arrays, backward, forward, fresh_fields, usable

        fresh_fields(_OWN)
        _PLANS.append(
            SimpleNamespace(Arrays=Arrays, backward=backward, forward=forward, usable=usable)
        )
    return _PLANS[0]


_CTXS: dict = {}


def _defined(cls):
    names = set()
    for c in cls.__mro__:
        if c is Function:
            break
        names.update(c.__dict__)
    return names


class _FunctionType(type):
    """Classes print as PyTorch's: torch.autograd.Function itself, user ones as __main__'s."""

    def __repr__(cls):
        if cls is Function:
            return "<class 'torch.autograd.function.Function'>"
        return f"<class '__main__.{cls.__name__}'>"


class Function(metaclass=_FunctionType):
    """torch.autograd.Function, to be subclassed."""

    language_subclassable = True
    # a subclass's own settings (PyTorch's), False unless it sets them; read by apply and
    # the node's backward as class attributes (a missing one's getattr raises inside)
    clear_saved_tensors_on_access = False
    boxed_grads_call = False

    @staticmethod
    def forward(*args, **kwargs):
        raise GradRuntimeError(
            "You must implement the forward function for custom autograd.Function.",
            type_name="NotImplementedError",
        )

    @staticmethod
    def backward(ctx, *grads):
        raise GradRuntimeError(
            "You must implement either the backward or vjp method for your "
            "custom autograd.Function to use it with backward mode AD.",
            type_name="NotImplementedError",
        )

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise GradRuntimeError(
            "You must implement the setup_context function.", type_name="NotImplementedError"
        )

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = _ctx_class(cls)()
        needs, argpos = [], []
        for i, a in enumerate(args):
            if isinstance(a, Tensor):
                argpos.append(i)
                needs.append(a.requires_grad)
            else:
                needs.append(False)
        ctx.needs_input_grad = tuple(needs)
        ctx._clear_on_access = cls.clear_saved_tensors_on_access is True
        separate = _defines(cls, "setup_context")
        prev, hidden = context.current.grad_enabled, fw.State.visible
        context.current.grad_enabled = False
        if hidden:
            fw.set_visible(())
        try:
            if separate:
                out = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, out)
            elif not kwargs and not hidden and (plans := _plans()).usable():
                out = plans.forward(cls, ctx, args)
            else:
                out = cls.forward(ctx, *args, **kwargs)
        finally:
            context.current.grad_enabled = prev
            if hidden or fw.State.visible:  # (the forward may have opened a level)
                fw.set_visible(hidden)
        is_tuple = isinstance(out, tuple)
        outs = out if is_tuple else (out,)
        tensors = [args[i] for i in argpos]
        node_cls = _node_class(cls)
        meta = [
            (o.data.shape, o.data.dtype) if isinstance(o, Tensor) else ((), np.float64)
            for o in outs
        ]
        results = []
        swap = {}
        nodes = []
        n_out, nargs = len(outs), len(args)
        for k, o in enumerate(outs):
            if not isinstance(o, Tensor):
                results.append(o)
                continue
            if id(o) in ctx.non_differentiable or o.data.dtype.kind != "f":
                r = o
            else:
                r = _record(node_cls, tensors, o, ctx, cls, k, n_out, meta, argpos, nargs)
            if isinstance(r.grad_fn, node_cls):
                nodes.append(r.grad_fn)
            results.append(r)
            swap[id(o)] = r
        if ctx.to_save:
            ctx.to_save = tuple(
                [swap.get(id(t), t) if t is not None else None for t in ctx.to_save]
            )
        ctx._out_nodes = tuple([weakref.ref(n) for n in nodes])
        if ctx.to_save:
            for n in nodes:  # what the engine frees after a backward (see backward)
                n.saved, n.saved_src = (None,), (None,)
                # (no source of a version to check: noted as checked now, as
                # versions.record notes a node, so the pass does not look again)
                n.epoch = versions.state.epoch
        if saved.State.stack and nodes:
            ctx.to_save = saved.pack_values(ctx.to_save)  # saved-tensor hooks
        return tuple(results) if is_tuple else results[0]


def _defines(cls, name):
    """Whether a class between cls and Function (cls included) defines `name`."""
    for c in cls.__mro__:
        if c is Function:
            return False
        if name in c.__dict__:
            return True
    return False


def _record(node_cls, tensors, o, ctx, cls, k, n_out, meta, argpos, nargs):
    """The output tensor k, recorded as a node of node_cls (the engine's apply)."""
    return node_cls.apply(*tensors, out=o.data, setup=(ctx, cls, k, n_out, meta, argpos, nargs))
