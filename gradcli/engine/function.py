"""Graph nodes: `Function`, the base of every differentiable op, and how an op's
call becomes a node (`apply`, `apply2`); `AccumulateGrad`, which stands for a leaf in
`next_functions`; and the tables the op table fills so the engine can call ops by name.

A `Function` subclass is one differentiable op, written as in early tinygrad:
`forward` works on NumPy arrays and may `save` arrays for later; `backward`
receives the gradient of the output, an array namespace `F` and the saved
values, and returns one gradient per tensor input.  The same `backward` code
runs in two modes (engine/autograd.py runs them):

* fast: `F` is `ArrayF`, gradients and saved values are plain ndarrays;
* create_graph: `F` is `TensorF`, gradients and saved values are Tensors and
  every step is itself recorded, so gradients can be differentiated again.

The instance is the graph node (`grad_fn`); its class attribute `name` is
PyTorch's name for it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..runtime import context
from ..core.tensor import Tensor, next_seq
from . import versions
from .declare import none
from .modes import state as _modes

_OUT = versions.OWN  # marker: a saved value that is the op's own output


#: a replay kernel's `keeps` when its op saves its output (Function.replay_kernel,
#: engine/replay.run_kernels)
KEEPS_OUT = 2


class Function:
    """Base of every graph node.  Subclasses set `name` and define
    `forward(self, *arrays, **params) -> ndarray` and
    `backward(self, g, F, *saved) -> tuple of gradients (None where not needed)`."""

    __slots__ = (
        "parents",
        "needs",
        "saved",
        "saved_src",
        "watch",
        "out_dtype",
        "fw",
        "vers",
        "out_vc",
        "fpass",
        "epoch",
        "seq",
    )
    # The facets each op declares in its own class body (engine/declare.py; the test of
    # the declarations fails on a facet a concrete op leaves to these defaults):
    name: str = "Backward"  # PyTorch's grad_fn name
    jvp: Any = None  # forward-mode rule, jvp(ts, F, *saved) (engine/forward.py); none(why): no rule
    # PyTorch's view of the saved values (engine/saved.py):
    saved_names: Any = None  # per saved value, PyTorch's name (grad_fn._saved_<name>), None: not
    #                     saved; none(why): the names are not known (every value is packed)
    saved_order: Any = None  # the saved values' positions in the order PyTorch saves them
    saved_extra: Any = None  # the node's other _saved_<name> attributes: name -> function(node)
    saved_uses: Any = None  # per saved value, the inputs whose gradient uses it (None: all)
    differentiable_twice = True
    # what PyTorch saves for the backward (indices, a mask) is kept outside `saved`: the
    # backward frees it all the same (saved becomes None), so a second pass fails
    holds_saved = False
    # efficient zero gradients (engine/zero_grads.py) reaching it: True, its inputs get
    # efficient zeros (PyTorch's mul, add, views keep them); False, it runs on plain zeros
    # (PyTorch's other kernels materialise them: neg's gives -0.); a tuple: per input
    zeros_through: Any = True
    sums_as_is = False  # backward returns F.sum_to's / F.sum_scaled's results untouched
    #                     (schedule.py may defer them)
    # a piece of split/chunk/unbind: backward is `F.pad_into(g, self.shape, self.key)`, the
    # key full slices then an int or a slice of step 1; the backward loop gathers the
    # pieces of one input into one array instead (engine/piece_grads.py)
    cut_piece = False

    def save(self, *arrays):
        self.saved = arrays

    #: optional: number_forward(self, a, k, v), forward for a 0-d float64 or float32 array
    #: and a Python number k (v: k as the arithmetic takes it, rounded to float32 for a
    #: float32 array), as a Python float operation (engine/number_nodes.py); None: none
    number_forward = None
    #: optional: pair_forward(self, a, b), forward for two 0-d arrays of one dtype, float64
    #: or float32, as a Python float operation (engine/number_nodes.py pair_node); None: none
    pair_forward = None
    #: optional: grad_factor(self), the number k (a Python float, or an int a double holds)
    #: when this node's backward, on a 0-d float64 or float32 gradient g with its saved
    #: values as they are, gives its first input g * k as scalar_times makes it and its
    #: second input nothing (`tensor * number`, `tensor + number`: 1); None otherwise
    #: (engine/passes.py runs a chain of such nodes as one loop on Python floats)
    grad_factor: Any = None

    def replay_kernel(self, *args, **params):
        """For a replayed loop body (engine/replay.py `kernel_of`): (f, arity, keeps, w)
        when `forward(*args, **params)`, for arguments of these types, dtypes and dims
        (a replayed plan's are the same every iteration), is `f(*args[:arity])` (with w
        for the second, a number's form taken once, when w is not None) and nothing
        more once a whole forward has set the node's fields, saving those arguments as
        they are when `keeps` (its output when `keeps` is KEEPS_OUT).  None (the
        default): the whole forward.
        A subclass with a forward of its own does not inherit it (each checks its type)."""
        return None

    def passes_through(self):
        """Whether backward gives each input whose gradient it makes the output's
        gradient itself, as it is, and saves nothing (engine/schedule.py `made_now`, for
        a graph whose shapes do not change: Add's and Sub's of operands of the output's
        shape).  False (the default): backward runs."""
        return False

    @classmethod
    def apply(cls, *args, **params):
        """Run the op on Tensors (or Python scalars, treated as constants) and
        record a node when grad mode is on and an input requires grad; under a mode
        (engine/modes.py), through its layers (`_moded`)."""
        if _modes.on:
            return _moded(cls, args, params)
        node = cls.__new__(cls)
        node.saved = ()
        if len(args) == 2:  # most ops: unrolled, this is the hot path
            a, b = args
            if type(a) is Tensor:
                da, pa = a.data, (a.grad_fn or a) if a.requires_grad else None
            else:
                da, pa = a, None
            if type(b) is Tensor:
                db, pb = b.data, (b.grad_fn or b) if b.requires_grad else None
            else:
                db, pb = b, None
            arrays = (da, db)
            parents = (pa, pb)
            needs = (pa is not None, pb is not None)
        elif len(args) == 1:
            a = args[0]
            if type(a) is Tensor:
                arrays, parents = (a.data,), ((a.grad_fn or a) if a.requires_grad else None,)
            else:
                arrays, parents = args, (None,)
            needs = (parents[0] is not None,)
        else:
            arrays = [a.data if type(a) is Tensor else a for a in args]
            parents = [
                (a.grad_fn or a) if type(a) is Tensor and a.requires_grad else None for a in args
            ]
            needs = [p is not None for p in parents]
        out = node.forward(*arrays, **params)
        if type(out) is not np.ndarray:  # NumPy gives scalars for 0-d results
            out = _array_out(node, out)
        if True not in needs or not context.current.grad_enabled:
            return Tensor(out)
        node.seq = next_seq()  # (PyTorch's sequence_nr: the backward pass's order)
        node.needs = needs
        node.parents = parents
        node.watch = None
        node.out_dtype = out.dtype
        saved = node.saved
        if saved:
            if len(saved) == 1 and len(args) == 1:  # (a unary op's input or output)
                s = saved[0]
                a = args[0]
                srcs = node.saved_src = (
                    (_OUT,) if s is out else (a if s is arrays[0] and type(a) is Tensor else None,)
                )
            else:
                srcs = node.saved_src = _sources(saved, out, args, arrays)
            if versions.state.inference is not None:
                versions.check_saved(srcs)
            if versions.state.bumped:
                versions.record(node, srcs)
        return Tensor(out, True, node)

    @classmethod
    def apply2(cls, a, b, dt):
        """`cls.apply(a, b, dt=dt)` for a binary op whose first operand `a` is a Tensor
        and whose second is a Tensor or a Python number: the same node, made with
        less work (the arithmetic operators' path); under a mode, `_moded2`."""
        if _modes.on:
            return _moded2(cls, a, b, dt)
        node = cls.__new__(cls)
        node.saved = ()
        da = a.data
        pa = (a.grad_fn or a) if a.requires_grad else None
        if type(b) is Tensor:
            db = b.data
            pb = (b.grad_fn or b) if b.requires_grad else None
        else:
            db, pb = b, None
        out = node.forward(da, db, dt)
        if type(out) is not np.ndarray:  # NumPy gives scalars for 0-d results
            out = _array_out(node, out)
        if (pa is None and pb is None) or not context.current.grad_enabled:
            return Tensor(out)
        node.seq = next_seq()
        node.needs = (pa is not None, pb is not None)
        node.parents = (pa, pb)
        node.watch = None
        node.out_dtype = out.dtype
        saved = node.saved
        if saved:
            if (
                len(saved) == 2
                and saved[0] is da
                and saved[1] is db
                and da is not db
                and out is not da
                and out is not db
            ):
                # the two operands saved as they are (_sources' common case)
                if pb is None and cls.saved_uses is not None and cls.saved_uses[0] == (1,):
                    # PyTorch keeps no `self` that only a constant's gradient would use
                    # (versions.kept): `y * 1.00001` holds no reference to y
                    node.saved = (None, db)
                    srcs = node.saved_src = (None, b if type(b) is Tensor else None)
                else:
                    srcs = node.saved_src = (a, b if type(b) is Tensor else None)
            elif len(saved) == 1 and saved[0] is da and out is not da:  # (x ** k)
                srcs = node.saved_src = (a,)
            else:
                srcs = node.saved_src = _sources(saved, out, (a, b), (da, db))
            if versions.state.inference is not None:
                versions.check_saved(srcs)
            if versions.state.bumped:
                versions.record(node, srcs)
        return Tensor(out, True, node)

    def __repr__(self):
        return f"<{self.name}>"

    # PyTorch's grad_fn interface
    def next_functions(self):
        out = []
        for p in self.parents:
            if p is None:
                out.append((None, 0))
            elif type(p) is Tensor:
                out.append((AccumulateGrad(p), 0))
            else:
                out.append((p, 0))
        return tuple(out)


class Untracked(Function):
    """Base of a node class whose output is never differentiable (an integer or bool
    result: argmax's indices, a comparison's mask, a cast to an integer dtype): `apply`
    runs its forward and gives a Tensor that requires no grad, whatever its inputs
    require, and makes no node, as PyTorch gives such results.  It goes through `apply`
    so a recording (engine/replay.py) notes it as an op that made no node, and a
    replayed iteration runs its forward again.  Its forward keeps nothing on the node
    (`apply` calls it on the class itself, making no object): its first two arguments
    may be tensors, the others are constants."""

    __slots__ = ()
    jvp = none("no gradient: its output is an integer or bool tensor")
    saved_names = ()  # it saves nothing
    formula = none("no gradient: its output is an integer or bool tensor")

    def backward(self, g, F):  # (never called: no node is made)
        raise NotImplementedError(self.name)

    @classmethod
    def apply(cls, *args, **params):
        m = _modes
        if m.on and m.recorder is not None:  # (a recorder alone: note the plain op)
            m.on = False
            try:
                out = cls.apply(*args, **params)
            finally:
                m.on = True
            m.recorder.note(cls, args, params, out)
            return out
        a = args[0]
        if type(a) is Tensor:
            a = a.data
        n = len(args)
        if n == 1:
            out = cls.forward(cls, a, **params)
        elif n == 2:  # (a comparison)
            b = args[1]
            out = cls.forward(cls, a, b.data if type(b) is Tensor else b, **params)
        else:
            b = args[1]
            out = cls.forward(cls, a, b.data if type(b) is Tensor else b, *args[2:], **params)
        return Tensor(out if type(out) is np.ndarray else np.asarray(out))


def _moded(cls, args, params):
    """`cls.apply(*args, **params)` under the active modes, in their fixed nesting
    (engine/modes.py): a recorder alone notes the plain op; else forward mode's layer
    makes the op (or the plain op), and saved-tensor hooks pack what its node saved."""
    m = _modes
    rec = m.recorder
    if rec is not None:  # (alone: modes.refresh spoils it when another layer opens)
        out = plain_apply(cls, args, params)
        rec.note(cls, args, params, out)
        return out
    out = m.dual.apply(cls, args, params) if m.dual is not None else plain_apply(cls, args, params)
    if m.packer is not None:
        m.packer.after(out)
    return out


def _moded2(cls, a, b, dt):
    """`cls.apply2(a, b, dt)` under the active modes: a recorder notes the plain apply2;
    forward mode makes it as `apply(a, b, dt=dt)`; hooks alone pack the plain apply2's."""
    m = _modes
    rec = m.recorder
    if rec is not None:
        m.on = False
        try:
            out = cls.apply2(a, b, dt)
        finally:
            m.on = True
        rec.note(cls, (a, b, dt), {}, out)
        return out
    if m.dual is not None:
        return cls.apply(a, b, dt=dt)
    m.on = False
    try:
        out = cls.apply2(a, b, dt)
    finally:
        m.on = True
    m.packer.after(out)
    return out


def plain_apply(cls, args, params):
    """`cls.apply(*args, **params)` as it runs with no mode active: the innermost layer
    (an op's forward applies no other op, so nothing runs outside the modes meanwhile)."""
    m = _modes
    m.on = False
    try:
        return cls.apply(*args, **params)
    finally:
        m.on = True


def _array_out(node, raw):
    """A forward's NumPy scalar as a 0-d array, also where the node saved it (so that
    "saved is the output" stays recognisable)."""
    out = np.asarray(raw)
    if any(s is raw for s in node.saved):
        node.saved = tuple(out if s is raw else s for s in node.saved)
    return out


def _source(s, out, args, arrays):
    """Where a saved array came from (for create_graph): the op's output, an
    input Tensor, or None for a constant."""
    if s is out:
        return _OUT
    for a, d in zip(args, arrays):
        if s is d and type(a) is Tensor:
            return a
    return None


def _sources(saved, out, args, arrays):
    if len(saved) == 2 == len(arrays):  # the common case: the two inputs saved as they are
        s0, s1 = saved
        d0, d1 = arrays
        if s0 is d0 and s1 is d1 and d0 is not d1 and out is not d0 and out is not d1:
            a, b = args
            return (a if type(a) is Tensor else None, b if type(b) is Tensor else None)
    if len(saved) == 1:
        return (_source(saved[0], out, args, arrays),)
    if len(saved) == len(arrays):
        # each input saved in its place: its source is the argument in that place, even
        # when two arguments share one array (`x * x.detach()`: the detached one's
        # saved value is a constant, not x)
        return [
            _OUT
            if s is out
            else a
            if s is d and type(a) is Tensor
            else _source(s, out, args, arrays)
            for s, a, d in zip(saved, args, arrays)
        ]
    return [_source(s, out, args, arrays) for s in saved]


class AccumulateGrad:
    """Stands for a leaf in `next_functions`, as in PyTorch."""

    __slots__ = ("variable",)
    name = "AccumulateGrad"

    def __init__(self, variable):
        self.variable = variable

    def __repr__(self):
        return "<AccumulateGrad>"


# The op table (gradcli/ops/registry.py) fills these; the engine calls ops by name
# through them and never imports the ops.
FUNCTIONS: dict[str, object] = {}  # internal name -> op function (also for Tensor operators)
TENSOR_F: dict[str, object] = {}  # differentiable helpers VJPs use in create_graph mode


class _TensorF:
    """Differentiable versions of the VJP helpers, looked up in TENSOR_F on first use."""

    tensor_mode = True

    def __getattr__(self, name):
        fn = TENSOR_F[name]
        setattr(self, name, fn)
        return fn


TensorF = _TensorF()
