"""The engine's side of replayed loop bodies (the language's side, which
decides what is replayed and when, is gradcli/language/replay.py).

* `recording()`: while it is open, every `Function.apply` / `apply2` call is noted (the
  op's class, its arguments and parameters, the Tensor it gave): how an iteration of a
  loop body reached the engine.  It is a mode (engine/modes.py), used only while no
  other is active (`plain()`), so a run without it pays nothing.
* `Shadow` nodes: per noted op that made a node, one node object made once with the
  fields `apply` would give it (class, needs, parents among the other shadows or the
  program's leaf tensors, creation number), whose
  `forward` runs again each replayed iteration (`forward`): the same op's own forward
  on that iteration's arrays, setting what it sets (its saved values, shapes), with
  what `apply` does after it (a saved value apply2 drops, the version records).  The
  graph of shadows is a graph of real nodes: `backward_with` runs the engine's own
  `out.backward()` through it (engine/straight.py: the steps of the schedule found once
  for its structure written out as one function; autograd.plain_node where hooks may
  run), which frees their saved values as it frees any node's.  When the
  program can see the values (the loop ends, or runs an iteration as compiled), the
  shadows of the last iterations become the graph of the Tensors it sees (`hand_over`:
  creation numbers of now, in their order) and new shadows are made for the next.
"""

from __future__ import annotations

import contextlib
import itertools
import weakref

import numpy as np

from ..core.tensor import Tensor, next_seq
from . import autograd, modes, straight, versions
from .function import KEEPS_OUT, _array_out


def plain():
    """Whether ops run plain (no forward-mode level open, no saved-tensor hooks context,
    no recording: engine/modes.py): what a replayed plan assumes."""
    return not modes.state.on


class Recorder:
    """What `recording` notes, per op applied: (class, arguments, parameters, the node it
    made or None, whether its output requires grad, the saved values apply2 dropped (a
    mask, or None), where its saved values come from (or None), whether its output's
    array is a view of its first argument's storage (a view op's: engine/versions.py
    `viewing` then shares the argument's version counter with it)).  An argument or a
    saved value's source is ("op", k) when it is the output of the k-th op noted,
    ("tensor", weak reference) for any other Tensor, ("value", v) otherwise.  Outputs
    are held weakly (an intermediate value is freed when the op after it is done, as
    without recording); `index_of` tells which op made a Tensor still alive."""

    __slots__ = ("notes", "ids", "spoiled")

    def __init__(self):
        self.notes = Notes()
        self.ids = {}
        self.spoiled = False  # another mode opened meanwhile (modes.refresh)  # id(output) -> (op index, weak reference to it)

    def index_of(self, t):
        e = self.ids.get(id(t))
        return e[0] if e is not None and e[1]() is t else None

    def _ref(self, v):
        if type(v) is Tensor:
            k = self.index_of(v)
            return ("op", k) if k is not None else ("tensor", weakref.ref(v))
        return ("value", v)

    def note(self, cls, args, params, out):
        node = out.grad_fn if type(out) is Tensor else None
        saved = (getattr(node, "saved", None) or ()) if node is not None else ()
        mask = tuple(x is None for x in saved) if any(x is None for x in saved) else None
        srcs = tuple(self._ref(x) for x in node.saved_src) if saved else None
        self.notes.append(
            (
                cls,
                tuple(self._ref(a) for a in args),
                params,
                node,
                type(out) is Tensor and out.requires_grad,
                mask,
                srcs,
                _viewed(args, out),
            )
        )
        if type(out) is Tensor:
            self.ids[id(out)] = (len(self.notes) - 1, weakref.ref(out))
            self.notes.arrays[id(out.data)] = (len(self.notes) - 1, weakref.ref(out.data))


class Notes(list):
    """A Recorder's notes, and the arrays of the Tensors its ops gave: id(array) -> (the
    op's index, a weak reference to the array), for `made_by` (an index op's key holds
    its index tensor's array, not the Tensor)."""

    __slots__ = ("arrays",)

    def __init__(self):
        super().__init__()
        self.arrays = {}

    def made_by(self, a):
        """The index of the noted op whose output Tensor's array is `a`, else None."""
        e = self.arrays.get(id(a))
        return e[0] if e is not None and e[1]() is a else None


def _viewed(args, out):
    """Whether out's array is a view of the storage of the Tensor args[0]."""
    if type(out) is not Tensor or not args or type(args[0]) is not Tensor:
        return False
    b = out.data.base
    return b is not None and (b is args[0].data or b is args[0].data.base)


@contextlib.contextmanager
def recording():
    """Note every op applied while open (a `Recorder`, engine/modes.py's outermost
    layer).  The caller checked `plain()`.  When the program opens a forward-mode level
    or saved-tensor hooks meanwhile, what it runs is not noted: the notes end with None."""
    rec = Recorder()
    modes.set_recorder(rec)
    try:
        yield rec
    finally:
        if modes.state.recorder is rec:
            modes.set_recorder(None)
        if rec.spoiled:
            rec.notes.append(None)


def shadow(cls, fields):
    """A new node of class `cls` with the fields of a noted node that do not change from
    one iteration to the next, `fields` = (needs, out_dtype, creation number), or None
    for an op that made no node (only its forward runs).  Parents are set by the caller
    (`link`); saved values and their sources by `forward`."""
    sh = cls.__new__(cls)
    sh.saved = ()
    if fields is not None:
        sh.needs, sh.out_dtype, sh.seq = fields
        sh.watch = None
    return sh


def link(sh, parents):
    """A shadow's parents (other shadows, leaf tensors, None)."""
    sh.parents = parents


def forward(sh, args, params, mask, srcs):
    """The shadow's op run again on `args` (arrays and constants) and `params` (keyword
    arguments, or None): its output array.  `srcs`: where its saved values come from
    (engine/function.py `_sources`: a leaf tensor, OWN, or None, which is also what an
    earlier op's output is given, `adopt_sources` naming its Tensor later; set each time,
    since backward clears them), False for an op that made no node (what it saves is let
    go at once, as apply lets go of such a node)."""
    sh.saved = ()
    out = sh.forward(*args) if params is None else sh.forward(*args, **params)
    if type(out) is not np.ndarray:  # NumPy gives scalars for 0-d results
        out = _array_out(sh, out)
    if srcs is False:
        sh.saved = ()
    elif sh.saved:
        _keep(sh, sh.saved, mask, srcs)
    return out


#: run_kernels' mark of an op that runs its whole forward (no kernel for its arguments)
WHOLE = -2


def kernel_of(sh, args, params):
    """The shadow's op's kernel for these arguments (Function.replay_kernel), or None."""
    return sh.replay_kernel(*args) if params is None else sh.replay_kernel(*args, **params)


def run_kernels(shadows, vals, program):
    """`forward` of several ops in a row, each through its kernel (`kernel_of` its
    arguments' kind), for shadows whose ops ran their whole forwards before on
    arguments of the same kind (the fields they set are set, and the same): program = per op (its index, its kernel's
    function, the slots of `vals` it reads (-1: none), its second operand's form (or
    None), whether it keeps what it saves, mask, srcs, the slots let go after it);
    each output into vals[index].  An op without a kernel runs its whole `forward`
    (second slot WHOLE: `f` reads its arguments from `vals`, `w` is its keyword
    arguments), so the ops after it keep theirs."""
    for j, f, i0, i1, w, keeps, mask, srcs, done in program:
        # (no local holds an operand past its op: an intermediate is let go when `done`
        # says, as compiled)
        if i1 == WHOLE:
            vals[j] = forward(shadows[j], f(vals), w, mask, srcs)
        elif i1 < 0:
            vals[j] = out = f(vals[i0])
            if keeps:
                saved = (out,) if keeps is KEEPS_OUT else (vals[i0],)
                if mask is None and not versions.state.bumped:  # (_keep's common case)
                    sh = shadows[j]
                    sh.saved = saved
                    sh.saved_src = srcs
                else:
                    _keep(shadows[j], saved, mask, srcs)
            else:
                shadows[j].saved = ()
            out = None
        else:
            vals[j] = f(vals[i0], vals[i1] if w is None else w)
            if keeps:
                _keep(shadows[j], (vals[i0], vals[i1]), mask, srcs)
            else:
                shadows[j].saved = ()
        for z in done:
            vals[z] = None


def _keep(sh, saved, mask, srcs):
    """What a shadow's forward saved, as `apply` keeps it (the saved values apply2 drops,
    where they come from, their versions)."""
    if mask is not None:  # (apply2: a value only a constant's gradient uses)
        saved = (
            (None if mask[0] else saved[0], None if mask[1] else saved[1])
            if len(saved) == 2
            else tuple(None if m else s for s, m in zip(saved, mask))
        )
    sh.saved = saved
    sh.saved_src = srcs
    if versions.state.bumped and srcs is not None:
        versions.record(sh, srcs)


def release(shadows, loose):
    """A set of shadows used again: the shadows `loose` (indices: those no backward of the
    body frees) let go of what they saved (their values are no one's any more: a loop
    without backward would otherwise hold two iterations' saved values).  What else a
    pass leaves on a node (its flow record's number, the versions it saw) is set again
    the same way each iteration: the graph's structure, and so which nodes a pass
    reaches, is the plan's."""
    for k in loose:
        shadows[k].saved = ()


def adopt_sources(node, i, t, base=None, remake=None):
    """The Tensor t now stands for saved value i of `node` (a shadow had no Tensor for
    it): version checks and PyTorch's saved-tensor views see it as apply made it; `base`:
    the tensor whose storage t views (they share a version counter, as `viewing` makes
    them); `remake(base)` making t from base: t is then one of base's views, as
    `viewing` records them (an in-place change of base gives it AsStridedBackward0)."""
    if remake is not None and getattr(t, "view_of", None) is None:
        versions.link_view(t, base, remake)
    elif base is not None:
        versions.share(t, base)
    srcs = list(node.saved_src)
    srcs[i] = t
    node.saved_src = tuple(srcs)


class ViewSource:
    """A saved value's source that is a view op's output of a replayed iteration (no
    Tensor of it is made): what a version check reads of it, the counter it shares with
    its base (`vc`) and `grad_fn`, whose `name` the error names."""

    __slots__ = ("vc", "grad_fn")

    def __init__(self, vc, grad_fn):
        self.vc, self.grad_fn = vc, grad_fn


def view_source(base, cls):
    """The ViewSource of the output of a view (node class `cls`) of the tensor base."""
    return ViewSource(versions.counter(base), cls)


def hand_over(nodes, numbers=None):
    """The shadows `nodes` (in the order their ops ran) become nodes a program sees:
    creation numbers of now, as the ops just made them (or the next of `numbers`,
    numbers taken before: `reserve`)."""
    for n in nodes:
        if hasattr(n, "needs"):  # (an op that made no node has a bare shadow)
            n.seq = next_seq() if numbers is None else next(numbers)


def reserve(count):
    """`count` creation numbers taken now, for what is made later as if made now: an
    iterator that goes on with numbers of the time after them."""
    return itertools.chain([next_seq() for _ in range(count)], iter(next_seq, None))


#: the backward of the graph under a node, fixed for a replayed body: its schedule and
#: its straight-line function (engine/straight.py), or None
schedule_of = straight.made_now

#: link_view(t, base, remake): the Tensor t is a view of base's storage, as a view op
#: makes it (engine/versions.py)
link_view = versions.link_view


#: whether `out.backward()` of a one-value output takes the plain path now (no tracer,
#: no hooks on leaves)
backward_ready = autograd.plain_path


#: `out.backward()` for the output of the node `root` (values `like`), as
#: backward_with(root, like, False, prog), through `prog` (schedule_of a graph of the
#: same structure); the caller checked backward_ready()
backward_with = straight.backward

#: backward_with(root, like, False, prog) whose leaves' gradients are returned instead of
#: stored when they are whole sums for exactly the leaves whose ids are `wanted`
#: (engine/straight.py): backward_taking(root, like, prog, wanted) -> taken or None;
#: give(taken) stores them as the pass would have
backward_taking = straight.backward_taking
give = straight.give
