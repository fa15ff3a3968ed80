"""vmap's batching: a batched tensor, and how an op runs on one.

Inside `vmap(f)`, f's mapped inputs are `Batched` values: a physical tensor whose
dim 0 is the batch (one row per sample) standing for the logical per-sample tensor
(its shape, ndim, len and indexing are the per-sample ones).  An op that meets a
Batched argument runs through `dispatch`: the op's batching rule (registry's
BATCH_RULES, filled by ops/batch_rules.py, one rule per op) computes the result for
the whole batch with one call of ordinary ops on the physical tensors; an op
without a rule falls back to a loop over the samples whose results are stacked.
Because rules run ordinary ops, autograd records them as usual: grad inside vmap
differentiates the physical computation (library/vmap.py).

A Batched has a `level` (one per running vmap): a rule unwraps the arguments of
the innermost level; their values may themselves be Batched of an outer level,
and the ops the rule calls then dispatch again (nested vmap).  The language
reaches dispatch where a built-in fails on a Batched argument (language/invoke.py,
runtime.py) and through a Batched's methods; nothing is added to the path of an
op on ordinary tensors.
"""

from __future__ import annotations

from ..runtime import context
from ..runtime.errors import GradError, GradRuntimeError, GradValueError
from ..core.tensor import Tensor
from .return_types import ValuesIndices
from .registry import BATCH_RULES, BUILTINS, FUNCTIONS, METHOD_ONLY


#: what the language sees of a batched tensor, filled by library/vmap.py (above this
#: layer): "getattr" (x.name), "getitem" (x[key])
LANGUAGE: dict = {}


class Batched:
    """A batched tensor of vmap level `level`: `value`'s dim 0 is the batch."""

    __slots__ = ("value", "level")
    language_callable = False

    def language_getattr(self, name):
        return LANGUAGE["getattr"](self, name)

    def language_getitem(self, key):
        return LANGUAGE["getitem"](self, key)

    def __init__(self, value, level):
        self.value, self.level = value, level

    @property
    def shape(self):
        return tuple(self.value.shape[1:])

    @property
    def ndim(self):
        return len(self.value.shape) - 1

    @property
    def batch(self):
        return self.value.shape[0]

    @property
    def dtype(self):
        return self.value.dtype

    @property
    def requires_grad(self):
        return self.value.requires_grad

    def __array__(self, *a, **k):
        raise TypeError("a batched tensor is not an array")

    def __bool__(self):
        raise GradRuntimeError(
            "vmap: It looks like you're attempting to use a Tensor in some data-dependent "
            "control flow. We don't support that yet, please file an issue at "
            "https://github.com/pytorch/pytorch/issues ."
        )

    language_bool = __bool__

    def __len__(self):
        if not self.shape:
            raise GradRuntimeError("len() of a 0-d tensor", type_name="TypeError")
        return self.shape[0]

    def __repr__(self):
        return f"BatchedTensor(lvl={self.level}, bdim=0, value=\n    {self.value!r}\n)"


# ---------------------------------------------------------------- finding Batched arguments


def _top(obj, level):
    if type(obj) is Batched:
        return max(level, obj.level)
    if type(obj) in (list, tuple):
        for o in obj:
            if type(o) is Batched:
                level = max(level, o.level)
    return level


def level_of(args, kwargs=None):
    """The innermost vmap level among args (one list/tuple deep) and kwargs; 0: none."""
    level = 0
    for a in args:
        level = _top(a, level)
    if kwargs:
        for a in kwargs.values():
            level = _top(a, level)
    return level


def has_batched(args, kwargs=None):
    return level_of(args, kwargs) > 0


def batch_size(args, kwargs, level):
    for a in list(args) + list((kwargs or {}).values()):
        for o in a if type(a) in (list, tuple) else (a,):
            if type(o) is Batched and o.level == level:
                return o.batch
    raise GradRuntimeError("vmap: no batched argument")


def unwrap(x, level):
    """x's physical value if x is batched at `level`, else None."""
    return x.value if type(x) is Batched and x.level == level else None


def wrap(obj, level):
    """Results of physical ops as Batched of `level` (tensors, tuples, lists)."""
    if isinstance(obj, (Tensor, Batched)):
        return Batched(obj, level)
    if type(obj) in (tuple, list):
        return type(obj)(wrap(o, level) for o in obj)
    if type(obj) is ValuesIndices:
        return ValuesIndices(wrap(obj[0], level), wrap(obj[1], level), obj.kind)
    return obj


# ---------------------------------------------------------------- calling ops

_NAMES: dict = {}


def name_of(fn):
    """The op-table name of a built-in function object (None if it is not one)."""
    if not _NAMES:
        for table in (FUNCTIONS, METHOD_ONLY, BUILTINS):
            for name, v in table.items():
                f = getattr(v, "fn", v)
                _NAMES.setdefault(id(f), (name, f))
        for name, f in EXTRA_NAMES.items():
            _NAMES.setdefault(id(f), (name, f))
    hit = _NAMES.get(id(fn))
    return hit[0] if hit is not None and hit[1] is fn else None


EXTRA_NAMES: dict = {}  # other function objects of the library that are ops by another name


def call(fn, args, kwargs=None):
    """fn(*args, **kwargs), batched when an argument is."""
    kwargs = kwargs or {}
    level = level_of(args, kwargs)
    if level:
        return dispatch(fn, args, kwargs, level)
    return fn(*args, **kwargs)


def op(name, *args, **kwargs):
    """The op `name` of the table, batched when an argument is."""
    return call(FUNCTIONS[name], args, kwargs)


def resolve(fn, args=()):
    """(the op behind fn, its name), or (fn, None): a built-in as a value
    (BuiltinFunction: .fn) or with Python's meaning for some values (sum of a list:
    __wrapped__, the op, when the first argument is a tensor)."""
    for _ in range(3):
        name = name_of(fn)
        if name is not None:
            return fn, name
        inner = getattr(fn, "__wrapped__", None)
        if inner is not None and args and isinstance(args[0], (Tensor, Batched)):
            fn = inner
            continue
        inner = getattr(fn, "fn", None)
        if inner is None or hasattr(fn, "obj") or hasattr(fn, "how"):
            break
        fn = inner
    return fn, None


def dispatch(fn, args, kwargs, level=None, name=None):
    level = level or level_of(args, kwargs)
    if name is None:
        f, name = resolve(fn, args)
        if name is not None:
            fn = f
    rule = BATCH_RULES.get(name) if name else None
    if rule is not None:
        out = rule(level, fn, list(args), dict(kwargs))
        if out is not NotImplemented:
            return out
    return loop(fn, args, kwargs, level)


def loop_sample(obj, level, b):
    """Sample b of obj's values batched at `level` (in lists, tuples and dicts), the rest
    as they are: the arguments a rule that runs sample by sample calls with."""
    return _sample(obj, level, b)


def _sample(obj, level, b):
    if type(obj) is Batched and obj.level == level:
        return op("index", obj.value, b)
    if type(obj) in (list, tuple):
        return type(obj)(_sample(o, level, b) for o in obj)
    if type(obj) is dict:
        return {k: _sample(v, level, b) for k, v in obj.items()}
    return obj


SAME_RANDOMNESS: set = set()  # the levels of vmap(randomness="same") running


def loop(fn, args, kwargs, level, size=None):
    """The fallback: fn on each sample, the results stacked (a rule-less op).  Under
    randomness="same" every sample draws the same numbers (the generator is rewound)."""
    n = size if size is not None else batch_size(args, kwargs, level)
    start = context.current.generator.get_state() if level in SAME_RANDOMNESS else None
    outs = []
    for b in range(n):
        if start is not None:
            context.current.generator.set_state(start)
        outs.append(call(fn, _sample(list(args), level, b), _sample(dict(kwargs), level, b)))
    return stack_results(outs, level, n)


def stack_results(outs, level, n):
    first = outs[0] if outs else None
    if isinstance(first, (Tensor, Batched)):
        return Batched(op("stack", list(outs), 0), level)
    if type(first) is ValuesIndices:
        return ValuesIndices(
            stack_results([o[0] for o in outs], level, n),
            stack_results([o[1] for o in outs], level, n),
            first.kind,
        )
    if type(first) in (tuple, list):
        parts = [stack_results([o[k] for o in outs], level, n) for k in range(len(first))]
        return type(first)(parts) if type(first) is list else tuple(parts)
    if type(first) is dict:
        return {k: stack_results([o[k] for o in outs], level, n) for k in first}
    if first is None or all(o == first for o in outs):
        return first
    raise GradValueError(
        "vmap: a function returned a value that is not a Tensor and differs "
        "between samples; vmap can only return tensors for those"
    )


def expand_to(x, n):
    """An unbatched tensor as a physical batch of n copies (a broadcast view)."""
    return op("expand", op("unsqueeze", x, 0), n, *x.shape)


def moved_in(x, dim, level):
    """x (a Tensor or Batched) mapped over `dim`, as a Batched of `level`."""
    return Batched(x if dim == 0 else op("movedim", x, dim, 0), level)


def moved_out(x, level, dim, n):
    """A result of vmap: the batch of level `level` put at `dim` (unbatched: expanded)."""
    v = unwrap(x, level)
    if v is None:
        v = expand_to(x, n) if isinstance(x, (Tensor, Batched)) else x
    if dim is None or not isinstance(v, (Tensor, Batched)):
        return v
    nd = len(v.shape)
    d = dim % nd if -nd <= dim < nd else dim
    if not 0 <= d < nd:
        raise GradValueError(f"vmap: out_dim {dim} is out of range for a result with {nd - 1} dims")
    return v if d == 0 else op("movedim", v, 0, d)


def failed_on_batched(err, fn, args, kwargs):
    """Whether an error raised by a built-in means 'this op met a Batched argument'."""
    if isinstance(err, GradError) and err.line is not None:
        return False
    return has_batched(args, kwargs)
