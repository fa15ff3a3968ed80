"""torch.autograd.graph: saved_tensors_hooks, save_on_cpu, disable_saved_tensors_hooks
(the hooks themselves run in engine/saved.py)."""

from __future__ import annotations

import weakref

from ..core.tensor import Tensor
from ..engine.function import AccumulateGrad, Function

from ..runtime.errors import GradRuntimeError, GradTypeError, GradValueError
from ..engine import hooks, saved, versions
from .values import METHODS


class SavedTensorsHooks:
    """`with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):` -- while
    open, every tensor an op saves for backward goes through pack_hook, and backward
    (or a `_saved_*` access) gets it back through unpack_hook.  Contexts nest: the
    innermost one's hooks are used."""

    language_context = True
    label = "saved_tensors_hooks"

    def __init__(self, pack_hook, unpack_hook):
        for hook in (pack_hook, unpack_hook):
            if not callable(hook):
                raise GradTypeError(f"'{type(hook).__name__}' object is not callable")
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self):
        saved.push(self.pack_hook, self.unpack_hook)
        return self

    def __exit__(self, *exc):
        saved.pop()
        return False

    def __repr__(self):
        return f"<torch.autograd.graph.{self.label} object>"


class SaveOnCpu(SavedTensorsHooks):
    """`save_on_cpu(pin_memory=False, device_type="cuda")`: the saved tensors are kept
    on the CPU (with the device they came from) and moved back for backward.  gradcli's
    tensors are all on the CPU, so this changes nothing but the objects the graph holds
    (a `_saved_*` access gives a new tensor, as in PyTorch)."""

    label = "save_on_cpu"

    def __init__(self, pin_memory=False, device_type="cuda"):
        super().__init__(_pack_cpu, _unpack_cpu)


def _pack_cpu(t):
    return ("cpu", t)


def _unpack_cpu(packed):
    return packed[1]


class DisableSavedTensorsHooks:
    """`disable_saved_tensors_hooks(error_message)`: while open, registering hooks (or
    an op saving a tensor under hooks registered outside) raises error_message."""

    language_context = True

    def __init__(self, error_message):
        self.message = str(error_message)

    def __enter__(self):
        saved.push_disabled(self.message)
        return self

    def __exit__(self, *exc):
        saved.pop_disabled()
        return False

    def __repr__(self):
        return "<torch.autograd.graph.disable_saved_tensors_hooks object>"


class _Handle:
    """What the context's pack hook gives a node for one saved tensor."""

    __slots__ = ("__weakref__",)


def _ptr(t):
    return t.data.__array_interface__["data"][0]


OUTSIDE = (
    "Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"
    "in which the graph was originally recorded."
)


class _AllowMutationOnSavedContext:
    """`with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:` as PyTorch
    makes it: saved-tensor hooks record each saved tensor by (object, storage address,
    version), and an in-place op on a tensor of the same address and version (the
    tensor, or a view starting where it does) first clones every such saved tensor,
    which backward then uses; anything else reads the tensor as it is now.  The hooks
    own the saved values, so no version is checked; a backward after the context
    closed is refused, and contexts do not nest."""

    language_context = True

    def __init__(self):
        self.cloned = weakref.WeakKeyDictionary()
        self.original = weakref.WeakKeyDictionary()
        self.tid_to_handle = weakref.WeakValueDictionary()
        self.sid_to_tid: dict = {}
        self.open = False

    def __enter__(self):
        if versions.state.mutation_allowed is not None:
            raise GradRuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
        saved.push(self._pack, self._unpack)
        versions.state.mutation_allowed = self
        self.open = True
        return self

    def __exit__(self, *exc):
        saved.pop()
        versions.state.mutation_allowed = None
        self.open = False
        self.cloned.clear()
        self.original.clear()
        self.tid_to_handle.clear()
        self.sid_to_tid.clear()
        return False

    def _pack(self, t):
        sid = (_ptr(t), versions.version(t))
        tid = (id(t), *sid)
        self.sid_to_tid.setdefault(sid, set()).add(tid)
        handle = self.tid_to_handle.get(tid)
        if handle is None:
            handle = self.tid_to_handle[tid] = _Handle()
            self.original[handle] = t
        return handle

    def _unpack(self, handle):
        if not self.open:
            raise GradRuntimeError(OUTSIDE, type_name="AssertionError")
        if handle in self.cloned:
            return self.cloned[handle]
        if handle not in self.original:
            raise GradRuntimeError(OUTSIDE, type_name="AssertionError")
        return self.original[handle]

    def before_write(self, t):
        """An in-place op is about to change t: clone the saved tensors it aliases."""
        for tid in self.sid_to_tid.get((_ptr(t), versions.version(t)), ()):
            handle = self.tid_to_handle.get(tid)
            if handle is None or handle in self.cloned:
                continue  # (freed by a backward since, or cloned already)
            self.cloned[handle] = Tensor(self.original.pop(handle).data.copy(order="K"))

    def __repr__(self):
        return "<torch.autograd.graph._AllowMutationOnSavedContext object>"


def allow_mutation_on_saved_tensors():
    return _AllowMutationOnSavedContext()


def saved_tensors_hooks(pack_hook, unpack_hook):
    return SavedTensorsHooks(pack_hook, unpack_hook)


def save_on_cpu(pin_memory=False, device_type="cuda"):
    return SaveOnCpu(pin_memory, device_type)


def disable_saved_tensors_hooks(error_message):
    return DisableSavedTensorsHooks(error_message)


class _NodeType(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, (Function, AccumulateGrad))

    def __repr__(cls):
        return "<class 'torch.autograd.graph.Node'>"


class Node(metaclass=_NodeType):
    """torch.autograd.graph.Node: what every grad_fn is (for isinstance)."""


class MultiHandle:
    """What register_multi_grad_hook returns: .remove() takes every hook away."""

    __slots__ = ("handles",)

    def __init__(self, handles):
        self.handles = handles

    def remove(self):
        for h in self.handles:
            h.remove()

    language_methods = {"remove": remove}

    def __repr__(self):
        return "<torch.autograd.graph._MultiHandle object>"


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """torch.autograd.graph.register_multi_grad_hook: mode "all" calls fn(grads) once per
    backward pass, when the gradients of all the tensors that pass reaches are computed
    (None for the others); mode "any" calls fn(grad) with the first one of each pass."""
    if mode not in ("all", "any"):
        raise GradValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = list(tensors)
    n = len(tensors)
    state = {}  # pass number -> (calls so far, calls expected, buffer)

    def inner(idx):
        def hook(grad):
            key = hooks.pass_number()
            if mode == "any":
                if key not in state:
                    state.clear()
                    state[key] = True
                    fn(grad)
                return None
            count, expected, buffer = state.get(key) or (0, None, [None] * n)
            if count == 0:
                state.clear()
                expected = sum(1 for t in tensors if hooks.will_execute(t))
            buffer[idx] = grad
            count += 1
            state[key] = (count, expected, buffer)
            if count == expected:
                del state[key]
                fn(tuple(buffer))
            return None

        return hook

    return MultiHandle([METHODS["register_hook"](t, inner(i)) for i, t in enumerate(tensors)])


MEMBERS = {
    "register_multi_grad_hook": register_multi_grad_hook,
    "Node": Node,
    "saved_tensors_hooks": saved_tensors_hooks,
    "save_on_cpu": save_on_cpu,
    "disable_saved_tensors_hooks": disable_saved_tensors_hooks,
    "allow_mutation_on_saved_tensors": allow_mutation_on_saved_tensors,
}
