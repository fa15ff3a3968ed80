"""Plans of a custom autograd.Function's forward and backward (library/autograd_function.py):
the ops a call ran, noted once and run again on the arrays of later calls of the same
kinds, without the language's dispatch of each op.

Only for a `forward(ctx, ...)` and `backward(ctx, ...)` of the program whose bodies the
language found to be made of ops alone (language/op_bodies.py: assignments of op
expressions, `ctx.attr = ...`, `ctx.save_for_backward(names)`, a last `return`; it
fills `BODIES`), so a call runs no other code of the program: what its ops are is a
function of the kinds of its arguments (tensors' dtype, shape, strides, requires_grad
and which of them are the same tensor; numbers' values), of the globals it reads (the
same objects: gradcli's namespaces or numbers) and, for the backward, of what its
forward set on ctx and of its gradients' kinds.  The first call of a kind runs as
compiled while a recorder notes each op the engine applies (engine/modes.py); each
argument and parameter of an op must come from the call's inputs, an earlier op's
output or a constant (a number, a string, a dtype), and each output, saved tensor and
gradient returned from an op or an input, else the kind has no plan.  A later call of
that kind runs each op's forward in order on the new arrays (a fresh node object per
op that keeps a node, as `Function.apply` makes it under no_grad).  Any mode
(forward-mode levels, saved-tensor hooks, a loop's recording), create_graph, grad mode
inside the forward, or `--no-replay` runs the call as compiled.
"""

from __future__ import annotations

import weakref
from operator import is_, itemgetter

import numpy as np

from ..core.tensor import Tensor
from ..engine import modes
from ..engine.function import Untracked, _array_out
from ..runtime import context
from .values import Module

#: a `def` body's code -> reader(fn): the values the function's globals hold now (a
#: tuple, in a fixed order), for the bodies language/op_bodies.py accepts
BODIES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

_MAX_KINDS = 8  # plans per Function class (then its calls run as compiled)
_NO = object()  # a kind that has no plan
_CONSTANT_TYPES = frozenset({int, float, bool, str, type(None), np.dtype})
_F64, _F32 = np.dtype(np.float64), np.dtype(np.float32)


class _Recorder:
    """Notes each op applied (engine/modes.py's recorder): its class, where each
    argument and parameter comes from ((True, slot): the call's input `slot`, or the
    output of op `slot - inputs`; (False, value): a constant); `bad` once one cannot
    be told, an op's output is a view of its input's storage, or an op takes no
    argument (the generator's draws: made by the compiled calls)."""

    __slots__ = ("notes", "spoiled", "bad", "tensors", "arrays", "n")

    def __init__(self, inputs):
        self.notes, self.spoiled, self.bad = [], False, False
        self.tensors, self.arrays, self.n = {}, {}, len(inputs)
        for i, t in enumerate(inputs):
            if type(t) is Tensor:
                self.tensors.setdefault(id(t), (i, t))
                self.arrays.setdefault(id(t.data), (i, t.data))

    def source(self, v):
        t = type(v)
        if t is Tensor:
            e = self.tensors.get(id(v))
            return (True, e[0]) if e is not None and e[1] is v else None
        if t is np.ndarray:
            e = self.arrays.get(id(v))
            return (True, e[0]) if e is not None and e[1] is v else None
        if t in _CONSTANT_TYPES or isinstance(v, (np.generic, np.dtype)):
            return (False, v)
        if t is tuple and all(type(x) in _CONSTANT_TYPES for x in v):
            return (False, v)
        return None

    def note(self, cls, args, params, out):
        if self.bad:
            return
        srcs = [self.source(a) for a in args]
        pars = [(k, self.source(v)) for k, v in params.items()]
        untracked = issubclass(cls, Untracked)
        if (
            None in srcs
            # (an op of no argument: the generator's draws, `draws`, run as compiled)
            or not args
            or getattr(cls, "draws", False)
            # (a Tensor the op's forward is given as it is, not its array: a parameter,
            # or an argument after an untracked op's first two)
            or any(type(v) is Tensor for v in params.values())
            or (untracked and any(type(a) is Tensor for a in args[2:]))
            or any(s is None for _, s in pars)
            or type(out) is not Tensor
            or (
                out.data.base is not None
                and any(type(a) is Tensor and np.shares_memory(out.data, a.data) for a in args)
            )
        ):
            self.bad = True
            return
        k = self.n + len(self.notes)
        self.notes.append((cls, untracked, tuple(srcs), tuple(pars)))
        self.tensors[id(out)] = (k, out)
        self.arrays[id(out.data)] = (k, out.data)


class _Steps:
    """The noted ops, run again: `run(inputs)` gives the slots, the constants first, then
    the inputs' arrays (numbers), then each op's output array, in order."""

    __slots__ = ("steps", "consts", "n")

    def __init__(self, notes, n):
        consts = []  # (n: the number of inputs, whose slots come after them)

        def slot(src):
            is_slot, x = src
            if is_slot:
                return x  # (shifted below)
            consts.append(x)
            return -len(consts)

        raw = []
        for cls, untracked, srcs, pars in notes:
            idx = [slot(s) for s in srcs]
            named = [(k, slot(s)) for k, s in pars]
            raw.append((cls, untracked, idx, named))
        c = len(consts)
        steps: list = []
        for cls, untracked, idx, named in raw:
            idx = tuple(i + c if i >= 0 else -1 - i for i in idx)
            fixed = {k: consts[-1 - i] for k, i in named if i < 0}
            moving = tuple((k, i + c) for k, i in named if i >= 0)
            step = _step(cls, untracked, idx, fixed, moving)
            if not untracked and not moving:  # (its kernel asked for at its first run)
                step = _asking(cls, idx, fixed, step, steps, len(steps))
            steps.append(step)
        self.steps, self.consts, self.n = steps, tuple(consts), c

    def run(self, inputs):
        slots = list(self.consts)
        slots += [t.data if type(t) is Tensor else t for t in inputs]
        for step in self.steps:  # (a list: a step may put its kernel in its place)
            step(slots)
        return slots


def _step(cls, untracked, idx, fixed, moving):
    """One op of a plan: a function of the slots that appends the op's output array
    (its forward run as `Function.apply` runs it under no_grad: on the class for an op
    that makes no node, else on a new node object)."""
    fn, ndarray, asarray = cls.forward, np.ndarray, np.asarray
    get = itemgetter(*idx)  # (one index: the item itself, else a tuple)
    one = len(idx) == 1

    def args(s):
        if not moving:
            return ((get(s),) if one else get(s)), fixed
        params = dict(fixed)
        for k, i in moving:
            params[k] = s[i]
        return ((get(s),) if one else get(s)), params

    if untracked:
        if one and not moving:

            def step(s):
                out = fn(cls, get(s), **fixed)
                s.append(out if type(out) is ndarray else asarray(out))

        elif not moving:

            def step(s):
                out = fn(cls, *get(s), **fixed)
                s.append(out if type(out) is ndarray else asarray(out))

        else:

            def step(s):
                a, params = args(s)
                out = fn(cls, *a, **params)
                s.append(out if type(out) is ndarray else asarray(out))

        return step
    new = cls.__new__
    if not moving:

        def step(s):
            node = new(cls)
            node.saved = ()
            out = fn(node, *((get(s),) if one else get(s)), **fixed)
            s.append(out if type(out) is ndarray else _array_out(node, out))

        return step

    def step(s):
        a, params = args(s)
        node = new(cls)
        node.saved = ()
        out = fn(node, *a, **params)
        s.append(out if type(out) is ndarray else _array_out(node, out))

    return step


def _asking(cls, idx, fixed, whole, steps, at):
    """The plan's step `at` (`whole`: the op's forward on a new node) for its first
    run; after it, the op's kernel in its place when the op has one for these
    arguments (Function.replay_kernel, engine/replay.py: its forward is one NumPy
    function of arguments of this kind, and a plan's kind of arguments, of inputs,
    constants and earlier ops' outputs, is the same at each run; the node, which
    the step makes only to run the forward, is not needed)."""
    get = itemgetter(*idx)
    one = len(idx) == 1

    def step(s):
        args = (get(s),) if one else get(s)
        node = cls.__new__(cls)
        node.saved = ()
        out = cls.forward(node, *args, **fixed)
        s.append(out if type(out) is np.ndarray else _array_out(node, out))
        kernel = node.replay_kernel(*args, **fixed)
        if kernel is not None:
            steps[at] = _kernel_step(kernel, idx, whole)
        else:
            steps[at] = whole

    return step


def _kernel_step(kernel, idx, whole):
    """A step that appends the kernel's output: `f(a)`, `f(a, b)` or `f(a, w)`, the
    number's form taken once (a whole forward's step when the result is no array)."""
    f, arity, _, w = kernel
    i = idx[0]
    if arity == 1:

        def step(s):
            out = f(s[i])
            if type(out) is np.ndarray:
                s.append(out)
            else:
                whole(s)

    elif w is None:
        j = idx[1]

        def step(s):
            out = f(s[i], s[j])
            if type(out) is np.ndarray:
                s.append(out)
            else:
                whole(s)

    else:

        def step(s):
            out = f(s[i], w)
            if type(out) is np.ndarray:
                s.append(out)
            else:
                whole(s)

    return step


class _Forward:
    """A forward's plan for one kind of arguments (`reads`: the function, its globals'
    reader and the values they held)."""

    __slots__ = (
        "steps",
        "outs",
        "tuple_out",
        "saves",
        "attrs",
        "fn",
        "reader",
        "values",
        "backwards",
    )

    def __init__(self, steps, outs, tuple_out, saves, attrs, reads):
        self.steps, self.outs, self.tuple_out = steps, outs, tuple_out
        self.saves, self.attrs = saves, attrs
        self.fn, self.reader, self.values = reads
        self.backwards = {}  # kinds of the gradients -> _Backward or _NO


class _Backward:
    """A backward's plan for one kind of gradients (of its forward's plan)."""

    __slots__ = ("steps", "grads", "fn", "reader", "values")

    def __init__(self, steps, grads, reads):
        self.steps, self.grads = steps, grads
        self.fn, self.reader, self.values = reads


def _kinds(args):
    """What a plan is chosen by: per argument its type and, for a tensor, its array's
    dtype, shape and strides, requires_grad and the first argument that is the same
    tensor; a number's value (a float's bits); None when an argument is anything else."""
    out = []
    for i, a in enumerate(args):
        t = type(a)
        if t is Tensor:
            d = a.data
            same = i
            for j in range(i):
                if args[j] is a:
                    same = j
                    break
            dt = d.dtype  # (NumPy's own float64 and float32 named: hashing a dtype costs)
            dk = "d" if dt is _F64 else "f" if dt is _F32 else dt
            out.append((dk, d.shape, d.strides, a.requires_grad, same))
        elif t is float:  # (a number that equals only itself as it is: no text made)
            out.append((t, a) if a and a == a else (t, a.hex()))
        elif t is int or t is bool:
            out.append((t, a))
        elif a is None:
            out.append(None)
        else:
            return None
    return tuple(out)


def _reads(fn):
    """(reader, the values of the globals fn reads now) when fn's body is one a plan may
    stand for and each global is a namespace of gradcli's or a number, else None."""
    body = getattr(fn, "body", None)  # (a function of the program's: its code)
    try:
        reader = BODIES.get(body)
    except TypeError:  # (no weak reference to it: not a body of the program's)
        return None
    if reader is None:
        return None
    values = reader(fn)
    for v in values:
        if type(v) is not Module and type(v) not in _CONSTANT_TYPES:
            return None
    return reader, values


def _still(fn, plan):
    """Whether fn is the function a plan was made for and its globals hold what they
    held then."""
    # (a reader gives as many values as it gave when the plan was made: one per name
    # its body reads)
    return fn is plan.fn and (not plan.values or all(map(is_, plan.reader(fn), plan.values)))


def _recording(rec, fn, *args):
    """fn(*args) with the recorder `rec` seeing the ops it applies (and none after)."""
    modes.set_recorder(rec)
    try:
        return fn(*args)
    finally:
        if modes.state.recorder is rec:
            modes.set_recorder(None)


def usable():
    """Whether a call may use or make a plan now: no mode on, plans allowed."""
    return not modes.state.on and context.current.replay


_TABLES: dict = {}  # Function class -> {kinds: plan} (as autograd_function keeps its ctx classes)


def forward(cls, ctx, args):
    """`cls.forward(ctx, *args)` (grad mode off, no mode on), by its plan when its
    kind has one, else as compiled (noting a plan for the kind when the body allows)."""
    fn = cls.forward
    kinds = _kinds(args)
    if kinds is None:
        return fn(ctx, *args)
    table = _TABLES.get(cls)
    if table is None:
        table = _TABLES[cls] = {}
    plan = table.get(kinds)
    if plan is _NO:
        return fn(ctx, *args)
    if plan is not None and _still(fn, plan):
        return _run_forward(plan, ctx, args)
    if plan is None and len(table) >= _MAX_KINDS:
        return fn(ctx, *args)
    reads = _reads(fn)
    if reads is None or _reads(cls.backward) is None:
        return fn(ctx, *args)
    rec = _Recorder(args)
    out = _recording(rec, fn, ctx, *args)
    plan = _forward_plan(rec, ctx, out, (fn, *reads))
    table[kinds] = _NO if plan is None else plan
    if plan is not None:
        ctx._plan = plan
    return out


def _forward_plan(rec, ctx, out, reads):
    if rec.bad or rec.spoiled:
        return None
    is_tuple = type(out) is tuple
    outs = out if is_tuple else (out,)
    srcs = [rec.source(o) if type(o) is Tensor else None for o in outs]
    if None in srcs:
        return None
    saves = []
    for t in ctx.to_save if type(ctx.to_save) is tuple else (None,):
        s = None if t is None else rec.source(t)
        if t is not None and (s is None or type(t) is not Tensor):
            return None
        saves.append(s)
    if ctx.non_differentiable or ctx.materialize_grads is not True:
        return None
    attrs = {}
    for k, v in ctx.__dict__.items():
        if k not in _FRESH:
            if type(v) not in _CONSTANT_TYPES:
                return None
            attrs[k] = v
    return _Forward(
        _Steps(rec.notes, rec.n),
        tuple(x for _, x in srcs),
        is_tuple,
        tuple(saves),
        attrs,
        reads,
    )


_FRESH: frozenset = frozenset()  # a new ctx's own fields (set by autograd_function)


def fresh_fields(names):
    """The fields every ctx has (not the program's attributes)."""
    global _FRESH
    _FRESH = frozenset(names)


def _run_forward(plan, ctx, args):
    slots = plan.steps.run(args)
    n, c = len(args), plan.steps.n
    made = {}

    def tensor(k):
        if k < n:
            return args[k]
        t = made.get(k)
        if t is None:
            t = made[k] = Tensor(slots[k + c])
        return t

    outs = [tensor(k) for k in plan.outs]
    if plan.saves:
        ctx.to_save = tuple([None if s is None else tensor(s[1]) for s in plan.saves])
    if plan.attrs:
        ctx.__dict__.update(plan.attrs)
    ctx._plan = plan
    return tuple(outs) if plan.tuple_out else outs[0]


class Arrays(list):
    """A planned backward's gradients: an array or None per argument of apply."""

    __slots__ = ()


def backward(cls, ctx, grads, nargs):
    """`cls.backward(ctx, *grads)` (the node's backward without create_graph), by the
    plan of its forward's kind and its gradients' kinds when there is one (`Arrays`),
    else as compiled (what it returned; a plan noted for those kinds when it can be)."""
    plan = ctx._plan
    fn = cls.backward
    if (
        plan is None
        or not usable()
        or context.current.grad_enabled
        or type(ctx.to_save) is not tuple
        or ctx._clear_on_access
    ):
        return fn(ctx, *grads)
    kinds = _kinds(grads)
    got = plan.backwards.get(kinds) if kinds is not None else _NO
    if got is _NO:
        return fn(ctx, *grads)
    inputs = list(grads) + list(ctx.to_save)
    if got is not None and _still(fn, got):
        slots, c = got.steps.run(inputs), got.steps.n
        return Arrays([None if g is None else slots[g + c] for g in got.grads])
    reads = _reads(fn)
    if reads is None or got is None and len(plan.backwards) >= _MAX_KINDS:
        return fn(ctx, *grads)
    rec = _Recorder(inputs)
    res = _recording(rec, fn, ctx, *grads)
    plan.backwards[kinds] = _backward_plan(rec, res, (fn, *reads), nargs)
    return res


def _backward_plan(rec, res, reads, nargs):
    if rec.bad or rec.spoiled:
        return _NO
    res = res if type(res) is tuple else (res,)
    if len(res) != nargs:
        return _NO
    grads = []
    for r in res:
        if r is None:
            grads.append(None)
            continue
        s = rec.source(r) if type(r) is Tensor else None
        if s is None or not s[0]:
            return _NO
        grads.append(s[1])
    return _Backward(_Steps(rec.notes, rec.n), tuple(grads), reads)
