"""Saved tensors as PyTorch shows them: `grad_fn._saved_<name>` and the hooks of
`torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook)`.

A node keeps what its backward needs in `node.saved`, a tuple of arrays (or Python
numbers), in the order its op's `forward` saved them.  Each op class may say how
PyTorch names them (`saved_names`: one name per saved value, None for a value
PyTorch does not save; `none(why)` where the names are not known, and then every value
is packed), in which order PyTorch saves them (`saved_order`) and which other,
non-tensor, attributes its node has (`saved_extra`: name -> function of the node);
each op class declares these beside its forward (engine/declare.py).

Hooks cost nothing while none are registered: this module's layer of engine/modes.py
is active only while a `saved_tensors_hooks` context is open.  After the op is made as
usual (with its tangents, under forward mode), the layer calls the innermost pack hook
on each value PyTorch would save (in PyTorch's order, grad mode off, as PyTorch runs
it) and replaces `node.saved` by a `Packed`:
a sequence whose iteration calls the unpack hook for each packed value (again in
PyTorch's order) and yields the values in the op's own order.  The backward loop
(autograd._pass) steps a node reading `node.saved` with `if saved:` and
`node.backward(g, F, *saved)`, so a packed node runs through it unchanged, its
unpack hooks called each time its backward runs (and on each `_saved_*` access).
"""

from __future__ import annotations

import numpy as np

from ..runtime import context
from ..runtime.errors import GradAttributeError, GradRuntimeError, GradTypeError
from ..core.convert import type_name
from ..core.tensor import Tensor
from . import modes
from .passes import SECOND_BACKWARD
from .versions import OWN, kept


class State:
    stack: list = []  # (pack_hook, unpack_hook) of the open contexts, innermost last
    disabled: list = []  # messages of the open disable_saved_tensors_hooks contexts


def push(pack_hook, unpack_hook):
    if State.disabled:
        raise GradRuntimeError(State.disabled[-1])
    State.stack.append((pack_hook, unpack_hook))
    _refresh()


def pop():
    if State.stack:
        State.stack.pop()
    _refresh()


def push_disabled(message):
    if State.stack:
        raise GradRuntimeError(message)
    State.disabled.append(message)


def pop_disabled():
    if State.disabled:
        State.disabled.pop()


def reset():
    """No hooks, nothing disabled (a fresh run)."""
    State.stack.clear()
    State.disabled.clear()
    _refresh()


def _refresh():
    modes.set_packer(_LAYER if State.stack else None)


def _pack_result(out):
    if type(out) is not Tensor:
        out = (
            next((t for t in out if type(t) is Tensor), None)
            if isinstance(out, (tuple, list))
            else None
        )
        if out is None:
            return
    node = out.grad_fn
    if node is None or not State.stack or not node.saved or type(node.saved) is Packed:
        return
    _pack(node, out)


class _Layer:
    """Saved-tensor hooks' layer of engine/modes.py: `after(out)` packs what the node
    of the op's result saved."""

    __slots__ = ()
    after = staticmethod(_pack_result)


_LAYER = _Layer()


def _kept(node, i, names):
    """Whether PyTorch saves value i of `node`: it has a name there (when the op's
    names are known) and a gradient that uses it is needed."""
    if type(names) is tuple and (i >= len(names) or names[i] is None):
        return False
    return kept(node, i)


def _order(node, n):
    order = node.saved_order
    return range(n) if order is None else order


def _pack(node, out):
    """Call the innermost pack hook on each value PyTorch saves for `node`."""
    if State.disabled:
        raise GradRuntimeError(State.disabled[-1])
    pack, unpack = State.stack[-1]
    saved, srcs = node.saved, node.saved_src
    names = node.saved_names
    todo = [
        i
        for i in _order(node, len(saved))
        if type(saved[i]) is np.ndarray and _kept(node, i, names)
    ]
    if not todo:
        return
    raw, boxes = list(saved), [None] * len(saved)
    ctx = context.current
    prev = ctx.grad_enabled
    ctx.grad_enabled = False
    try:
        for i in todo:
            src = srcs[i]
            t = out if src is OWN else src if type(src) is Tensor else Tensor(saved[i])
            boxes[i] = pack(t)
            raw[i] = _Meta(saved[i], src)
    finally:
        ctx.grad_enabled = prev
    node.saved = Packed(raw, boxes, tuple(todo), unpack)


class _Meta:
    """What stays known of a packed value: its shape, dtype and strides (for messages
    and `_saved_*_sym_sizes`), and where it came from."""

    __slots__ = ("shape", "dtype", "strides", "src")

    def __init__(self, arr, src):
        self.shape, self.dtype, self.strides, self.src = arr.shape, arr.dtype, arr.strides, src


class Packed:
    """A node's saved values after pack hooks: iterating unpacks (calls the unpack hook
    on each packed value, in PyTorch's order) and yields the values in the op's order."""

    __slots__ = ("raw", "boxes", "order", "unpack")
    unchecked = True  # no version checks (versions.check): the hooks own the values

    def __init__(self, raw, boxes, order, unpack):
        self.raw, self.boxes, self.order, self.unpack = raw, boxes, order, unpack

    def __len__(self):
        return len(self.raw)

    def __getitem__(self, i):
        return self.raw[i]

    def __iter__(self):
        vals = list(self.raw)
        for i in self.order:
            vals[i] = self.unpacked(i).data
        return iter(vals)

    def unpacked(self, i):
        """The unpack hook's Tensor for packed value i (`unpack` is one hook, or a dict
        index -> hook when a value has hooks of its own: SavedTensor.register_hooks)."""
        unpack = self.unpack
        return _unpacked(unpack[i] if type(unpack) is dict else unpack, self.boxes[i])


def _unpacked(unpack, box):
    r = unpack(box)
    if not isinstance(r, Tensor):
        raise GradTypeError(
            "Output of saved tensor unpack_hook expected to be a Tensor "
            f"but got result of type {type_name(r)}"
        )
    return r


def pack_values(values):
    """A custom Function's saved tensors (ctx.save_for_backward), packed by the innermost
    hooks in the order given when hooks are on; else `values` as they are."""
    if not State.stack:
        return values
    if State.disabled:
        raise GradRuntimeError(State.disabled[-1])
    pack, unpack = State.stack[-1]
    ctx = context.current
    prev = ctx.grad_enabled
    ctx.grad_enabled = False
    try:
        boxes = [None if t is None else (pack(t),) for t in values]
    finally:
        ctx.grad_enabled = prev
    return PackedValues(boxes, unpack)


class PackedValues:
    """ctx.saved_tensors after pack hooks: iterating unpacks each value again."""

    __slots__ = ("boxes", "unpack")

    def __init__(self, boxes, unpack):
        self.boxes, self.unpack = boxes, unpack

    def __len__(self):
        return len(self.boxes)

    def __iter__(self):
        return iter([None if b is None else _unpacked(self.unpack, b[0]) for b in self.boxes])


# ---------------------------------------------------------------- grad_fn._saved_<name>


def saved_attr(node, attr):
    """`node._saved_<name>`: a saved input is that tensor, a saved output a new tensor
    sharing its values, a constant a tensor of it; under hooks, a new tensor with the
    unpack hook's values.  After the graph was freed: PyTorch's error."""
    field = attr[len("_saved_") :]
    extra = node.saved_extra
    if extra is not None and field in extra:
        return extra[field](node)
    names = node.saved_names
    if type(names) is not tuple or field not in names:
        raise GradAttributeError(f"'{node.name}' object has no attribute '{attr}'")
    i = names.index(field)
    saved = node.saved
    if saved is None:
        raise GradRuntimeError(SECOND_BACKWARD)
    if i >= len(saved) or not _kept(node, i, names):
        return None
    if type(saved) is Packed and i in saved.order:
        src = saved.raw[i].src
        data = saved.unpacked(i).data
        if src is OWN:
            return Tensor(data, True, node)
        if type(src) is Tensor:
            return Tensor(data, src.requires_grad, src.grad_fn)
        return Tensor(data)
    s = saved[i]
    if s is None:  # an optional argument not given (layer_norm's weight): None
        return None
    src = node.saved_src[i]
    if src is OWN:
        return Tensor(s, True, node)
    if type(src) is Tensor:
        return src
    return Tensor(np.asarray(s))


_FREED_HOOKS = (
    "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate "
    "values of the graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or if you "
    "need to access saved variables after calling backward."
)


class SavedTensor:
    """`grad_fn._raw_saved_<name>`: one value a node saved.  `register_hooks(pack_hook,
    unpack_hook)` calls pack_hook now on a detached tensor of the value (grad mode off)
    and unpack_hook each time the value is used (its backward, `_saved_<name>`)."""

    __slots__ = ("node", "index")

    def __init__(self, node, index):
        self.node, self.index = node, index

    def register_hooks(self, pack_hook, unpack_hook):
        if not callable(pack_hook) or not callable(unpack_hook):
            raise GradTypeError(
                "register_hooks(): incompatible function arguments: the hooks must be functions"
            )
        node, i = self.node, self.index
        saved = node.saved
        if saved is None:
            raise GradRuntimeError(_FREED_HOOKS)
        if not _kept(node, i, node.saved_names):
            raise GradRuntimeError(
                "Calling register_hooks on a saved tensor with value None is forbidden"
            )
        packed = type(saved) is Packed
        if packed and i in saved.order:
            raise GradRuntimeError(
                "Calling register_hooks on a saved tensor whose hooks have already been set. "
                "Hint: only one pair of hooks is allowed at a time."
            )
        value = saved[i]
        ctx = context.current
        prev = ctx.grad_enabled
        ctx.grad_enabled = False
        try:
            box = pack_hook(Tensor(value))
        finally:
            ctx.grad_enabled = prev
        if packed:
            raw, boxes, done = list(saved.raw), list(saved.boxes), set(saved.order)
            old = saved.unpack
            unpacks = dict(old) if type(old) is dict else {j: old for j in done}
        else:
            raw, boxes, done, unpacks = list(saved), [None] * len(saved), set(), {}
        raw[i], boxes[i], unpacks[i] = _Meta(value, node.saved_src[i]), box, unpack_hook
        done.add(i)
        order = tuple(j for j in _order(node, len(raw)) if j in done)
        node.saved = Packed(raw, boxes, order, unpacks)

    language_methods = {"register_hooks": register_hooks}

    def __repr__(self):
        return "<torch._C._autograd.SavedTensor object>"


def raw_saved_attr(node, attr):
    """`node._raw_saved_<name>`: the SavedTensor of a saved tensor value."""
    field = attr[len("_raw_saved_") :]
    names = node.saved_names
    if type(names) is not tuple or field not in names:
        raise GradAttributeError(f"'{node.name}' object has no attribute '{attr}'")
    i = names.index(field)
    saved = node.saved
    if saved is not None and i < len(saved) and _kept(node, i, names):
        if not isinstance(saved[i], (np.ndarray, _Meta)):  # a number PyTorch keeps as such
            raise GradAttributeError(f"'{node.name}' object has no attribute '{attr}'")
    return SavedTensor(node, i)


def attr_names(node):
    """The `_saved_*` attributes `node` has (for completion)."""
    names = [n for n in node.saved_names or () if n is not None] + list(node.saved_extra or ())
    return ["_saved_" + n for n in dict.fromkeys(names)]


def saved_array(node, i):
    """Value i's shape and strides source (the array, or what packing kept of it)."""
    saved = node.saved
    if saved is None:
        raise GradRuntimeError(SECOND_BACKWARD)
    return saved[i]


# ---------------------------------------------------------------- helpers for declarations


def saved_const(v):
    """A `saved_extra` attribute that is always `v` (as addmm's `_saved_alpha`, 1)."""
    return lambda node: v


def saved_operands(names, first_input=0):
    """`saved_extra` of mm's and addmm's `_saved_<operand>_sym_sizes` (kept always) and
    `_sym_strides` (kept only when the operand's gradient is needed) for their saved
    operands `names` (the inputs from `first_input` on)."""

    def meta(i, strides):
        def get(node):
            if strides and not node.needs[first_input + i]:
                return ()
            arr = saved_array(node, i)
            if not strides:
                return tuple(arr.shape)
            return tuple(s // arr.dtype.itemsize for s in arr.strides)

        return get

    out = {}
    for i, n in enumerate(names):
        out[n + "_sym_sizes"] = meta(i, False)
        out[n + "_sym_strides"] = meta(i, True)
    return out


def shown_int(v):
    """An int64 as PyTorch's `_saved_<name>` shows it: a negative one as the unsigned
    64-bit number of the same bits (a dim of -1 is 18446744073709551615)."""
    return v + (1 << 64) if v < 0 else v


def given(dim, normalised):
    """What a node keeps of a dim argument: PyTorch saves it as the call gave it (not
    wrapped), so the int given, else the dim it means."""
    return dim if type(dim) is int else normalised


def saved_shown(attr):
    """A `saved_extra` attribute: the node's `attr` (an int or a tuple of ints) as
    PyTorch shows it (shown_int)."""

    def get(self):  # self: the node (a computed name only on gradcli's own objects)
        v = getattr(self, attr)
        return tuple(shown_int(d) for d in v) if isinstance(v, tuple) else shown_int(v)

    return get


def saved_shape(attr="shape"):
    """A `saved_extra` attribute: the node's input shape `attr` as a tuple (a view's or
    a reduction's `_saved_self_sym_sizes`)."""

    def get(self):  # self: the node
        return tuple(getattr(self, attr))

    return get
