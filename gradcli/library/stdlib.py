"""The Python modules a program may import, as gradcli's own modules with exactly
the surface listed here: `math` (all of it), `random` (CPython's Mersenne Twister,
the same numbers as CPython's `random` after `seed(n)`), `functools`, `itertools`,
`collections`, `copy` and `time`.  Each function is wrapped (BuiltinFunction), so
a program reaches no Python object through them; anything that could run long or
grow large is bounded by the limits."""

from __future__ import annotations

import collections as _collections
import itertools as _itertools
import keyword as _keyword
import math as _math

from ..runtime.errors import (
    GradAttributeError,
    GradError,
    GradRuntimeError,
    GradTypeError,
    GradValueError,
)
from ..runtime import context
from ..runtime.limits import check_held, check_items, check_total
from ..core.printing import show
import numpy as np

from ..core.tensor import Tensor
from . import numpy_ns, typing_ns
from .values import BuiltinFunction, Module, builtin_class, program_object, tensor_number


class ListIterator:
    """An iterator of the language over values already computed (what zip, map,
    enumerate, a generator expression and the itertools functions give)."""

    __slots__ = ("items", "pos")

    def __init__(self, items):
        self.items, self.pos = list(items), 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.pos >= len(self.items):
            raise StopIteration
        v = self.items[self.pos]
        self.pos += 1
        return v

    def language_remaining(self):
        """The values not handed out yet (and the iterator is then exhausted)."""
        rest = self.items[self.pos :]
        self.pos = len(self.items)
        return rest

    def __repr__(self):
        return "<iterator object>"


class DictView:
    """`d.keys()`, `d.values()`, `d.items()`: live views of a dict, as Python's: each
    loop goes through the dict as it is then, `len` and `in` work, and it prints as
    `dict_keys(['a'])` (`odict_keys` for an OrderedDict such as a state_dict)."""

    __slots__ = ("d", "kind", "prefix")

    def __init__(self, d, kind, prefix="dict"):
        self.d, self.kind, self.prefix = d, kind, prefix

    def _view(self):
        return (
            self.d.keys()
            if self.kind == "keys"
            else self.d.values()
            if self.kind == "values"
            else self.d.items()
        )

    def language_iter(self):
        return live(self._view())

    def __iter__(self):
        return iter(list(self._view()))

    def __len__(self):
        return len(self.d)

    language_len = __len__

    def __contains__(self, v):
        return v in self._view()

    def type_name_of(self):
        return f"{self.prefix}_{self.kind}"

    @property
    def setlike(self):
        """Whether it is a set to Python's operators (`d.keys() - s`, `d.items() & t`): the
        keys and the items are, the values are not."""
        return self.kind != "values"

    def __repr__(self):
        return f"{self.type_name_of()}([{', '.join(show(v) for v in self._view())}])"


def live(items, line=None, col=None):
    """Python's own iterator over a dict, a set or a dict's view, for a loop: a change of
    its size while the loop runs is Python's RuntimeError (`dictionary changed size
    during iteration`), in the language's words (placed at line, col when given)."""
    it = iter(items)
    while True:
        try:
            v = next(it)
        except StopIteration:
            return
        except RuntimeError as e:
            raise GradRuntimeError(str(e), line, col) from None
        yield v


def plain_items(x):
    """Whether taking the items of x one at a time runs none of the program's code: a
    list, tuple, range, string, tensor or NumPy array, an iterator over values already
    computed, a plain LazyIterator (zip, enumerate, iter of such values), or a library
    object whose class says so (`language_plain`: a DataLoader of a TensorDataset)."""
    t = type(x)
    if t is LazyIterator:
        return x.plain
    if t in _PLAIN:
        return True
    plain = getattr(t, "language_plain", None)
    return plain is not None and not program_object(x) and plain(x)


def _lazy_next(it):
    """it.__next__(), as next(it) does (its end the language's StopIteration)."""
    try:
        return next(it.it)
    except StopIteration:
        raise GradError("", type_name="StopIteration") from None


class LazyIterator:
    """An iterator of the language that computes its values when asked (zip, map,
    filter, enumerate over a generator, a generator expression, itertools): an
    endless one is fine as long as its consumer stops (docs/language.md)."""

    __slots__ = ("it", "kind", "plain")
    language_lazy = True  # iteration.iterate hands it out as it is, unlisted
    language_methods = {"__next__": _lazy_next, "__iter__": lambda it: it}

    def __init__(self, it, kind="iterator object", plain=False):
        # plain: its values come from lists, tuples, ranges, strings or tensors (zip,
        # enumerate or iter of them, `plain_items`): taking one runs none of the
        # program's code (a loop over it may be replayed: control.py)
        self.it, self.kind, self.plain = it, kind, plain

    def __iter__(self):
        return self

    def __next__(self):
        return next(self.it)

    def language_remaining(self):
        """The values not handed out yet, as a list within the limits."""
        return bounded_values(self.it)

    def __repr__(self):
        return f"<{self.kind}>"


_PLAIN = frozenset({list, tuple, range, str, Tensor, np.ndarray, ListIterator})


# ---------------------------------------------------------------- math

_BIG = 10000  # factorial/comb/perm arguments beyond this would take long


def _bounded_int(fn, name):
    def run(*args):
        for a in args:
            if isinstance(a, int) and abs(a) > _BIG:
                raise GradValueError(f"math.{name}() argument {a} is too large (limit {_BIG})")
        return fn(*args)

    return run


def _prod(iterable, *, start=1):
    """math.prod, one factor at a time: its steps count (--max-steps), and an integer
    product beyond the integer limit is inf, as the language's `*` makes it (the product
    of range(1, 300001) took a minute)."""
    bits = context.current.limits.max_int_bits
    total = start
    for v in counted(iterable):
        if type(total) is int and type(v) is int:
            if total.bit_length() + v.bit_length() > bits + 1:
                total = _math.inf if (total < 0) == (v < 0) else -_math.inf
                continue
        total = total * v
    return total


def _lcm(*integers):
    """math.lcm, pairwise, refusing a result beyond the integer limit (the lcm of
    range(1, 50000) took a minute)."""
    bits = context.current.limits.max_int_bits
    out = 1
    for v in counted(integers):
        out = _math.lcm(out, v)
        if out.bit_length() > bits:
            raise GradValueError(f"math.lcm(): the result is too large (more than {bits} bits)")
    return out


_INDEX = frozenset({"factorial", "comb", "perm", "gcd", "lcm", "isqrt"})  # (take ints)


def _tensors_as_numbers(fn, index):
    """A math function of integers taking a one-element tensor as Python does, through
    its __index__ (a failed call tried again with the tensors' numbers)."""

    def run(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except TypeError:
            if Tensor not in map(type, args):
                raise
        return fn(*(tensor_number(a, index) if type(a) is Tensor else a for a in args), **kwargs)

    return run


def _math_module():
    members = {}
    for name, v in sorted(_math.__dict__.items()):
        if name.startswith("_"):
            continue
        if isinstance(v, float):
            members[name] = v
        elif callable(v):
            if name in ("factorial", "comb", "perm"):
                v = _bounded_int(v, name)
            v = {"prod": _prod, "lcm": _lcm}.get(name, v)
            if name in _INDEX:  # (the others take a tensor through its __float__)
                v = _tensors_as_numbers(v, True)
            members[name] = BuiltinFunction(f"math.{name}", v)
    return StdModule("math", members)


# ---------------------------------------------------------------- random

DEFAULT_RANDOM_SEED = 0


class _Generator:
    """The generator of `random` (made when a program first imports random: the
    Python modules below are imported only when used, for start-up time)."""

    g = None


def reset_random():
    if _Generator.g is not None:
        _Generator.g.seed(DEFAULT_RANDOM_SEED)
    numpy_ns.reset()
    _made.pop("numpy", None)
    _made.pop("logging", None)  # (a run's loggers are its own)


def _seed(a=None):
    if a is not None and not isinstance(a, (int, float, str)):
        raise GradTypeError("The only supported seed types are: None, int, float, str")
    _Generator.g.seed(a)


def _population(p):
    """A sequence to draw from, never copied into memory when it is a range."""
    return p if isinstance(p, (range, list, tuple, str)) else bounded_list(iter(p))


def _sample(population, k, **kw):
    check_items(k, "the sample")
    return _Generator.g.sample(_population(population), k, **kw)


def _choices(population, weights=None, *, cum_weights=None, k=1):
    check_items(k, "the choices")
    return _Generator.g.choices(_population(population), weights, cum_weights=cum_weights, k=k)


def _shuffle(x):
    if not isinstance(x, list):
        raise GradTypeError("random.shuffle() needs a list")
    _Generator.g.shuffle(x)


def _random_module():
    import random

    g = _Generator.g = random.Random(DEFAULT_RANDOM_SEED)
    members = {
        "seed": _seed,
        "random": g.random,
        "uniform": g.uniform,
        "randint": g.randint,
        "randrange": g.randrange,
        "choice": lambda seq: g.choice(_population(seq)),
        "choices": _choices,
        "shuffle": _shuffle,
        "sample": _sample,
        "gauss": g.gauss,
        "normalvariate": g.normalvariate,
        "lognormvariate": g.lognormvariate,
        "expovariate": g.expovariate,
        "triangular": g.triangular,
        "betavariate": g.betavariate,
        "gammavariate": g.gammavariate,
        "vonmisesvariate": g.vonmisesvariate,
        "paretovariate": g.paretovariate,
        "weibullvariate": g.weibullvariate,
        "getrandbits": lambda k: g.getrandbits(_bits(k)),
    }
    return StdModule("random", {k: BuiltinFunction(f"random.{k}", v) for k, v in members.items()})


def _bits(k):
    if isinstance(k, int) and k > context.current.limits.max_int_bits:
        raise GradValueError(
            f"random.getrandbits({k}): more than {context.current.limits.max_int_bits} bits"
        )
    return k


# ---------------------------------------------------------------- functools, itertools


def _wraps(wrapped, *args, **kwargs):
    """functools.wraps: the wrapper takes the wrapped function's __name__,
    __qualname__ and __doc__ (when both are the program's functions)."""

    def decorate(f):
        copy = getattr(f, "copy_names", None)  # a UserFunction of the language
        if copy is not None:
            copy(wrapped)
        return f

    return BuiltinFunction("functools.wraps.<decorator>", decorate)


class Partial:
    """functools.partial: `func` called with `args` and `keywords` before the call's own;
    its func, args and keywords readable, shown as Python shows it (a partial of a partial
    is one partial, as in Python)."""

    __slots__ = ("func", "args", "keywords")
    language_type_path = "functools.partial"
    language_attrs = {
        "func": lambda p: p.func,
        "args": lambda p: p.args,
        "keywords": lambda p: p.keywords,
    }

    def __init__(self, func, /, *args, **keywords):
        if not callable(func):
            raise GradTypeError("the first argument must be callable")
        if type(func) is Partial:
            args, keywords = func.args + args, {**func.keywords, **keywords}
            func = func.func
        self.func, self.args, self.keywords = func, args, keywords

    def __call__(self, *args, **keywords):
        return self.func(*self.args, *args, **{**self.keywords, **keywords})

    def __repr__(self):
        parts = [show(self.func), *map(show, self.args)]
        parts += [f"{k}={show(v)}" for k, v in self.keywords.items()]
        return f"functools.partial({', '.join(parts)})"


_CACHE_INFO: list = []  # functools' CacheInfo, a namedtuple made on first use


class LruCache:
    """functools.lru_cache's wrapper of a function: Python's own cache (its keys, hits,
    misses and eviction) around the program's function, with cache_info() and
    cache_clear()."""

    __slots__ = ("fn", "cached")
    language_type_path = "functools._lru_cache_wrapper"

    def __init__(self, fn, maxsize, typed):
        import functools as _functools

        self.fn, self.cached = fn, _functools.lru_cache(maxsize, typed)(fn)

    def __call__(self, *args, **kwargs):
        return self.cached(*args, **kwargs)

    def cache_info(self):
        if not _CACHE_INFO:
            _CACHE_INFO.append(namedtuple_class("CacheInfo", "hits misses maxsize currsize"))
        return _CACHE_INFO[0](*self.cached.cache_info())

    def cache_clear(self):
        self.cached.cache_clear()

    language_methods = {"cache_info": cache_info, "cache_clear": cache_clear}

    def __repr__(self):
        return "<functools._lru_cache_wrapper object>"


def _lru_cache(maxsize=128, typed=False):
    """functools.lru_cache(maxsize=128, typed=False), or @lru_cache on a function."""
    if callable(maxsize) and not isinstance(maxsize, bool):  # @lru_cache without a call
        return LruCache(maxsize, 128, typed)
    if maxsize is not None and (type(maxsize) is not int):
        raise GradTypeError("Expected first argument to be an integer, a callable, or None")
    if maxsize is not None and maxsize < 0:
        maxsize = 0
    return BuiltinFunction(
        "functools.lru_cache.<decorator>", lambda fn: LruCache(fn, maxsize, typed)
    )


def counted(it):
    """`it`, its items counted as steps against --max-steps when that is given (a
    built-in that iterates, sum(map(f, ...)) or functools.reduce, is stopped as a loop
    is); the language installs the counting (language/iteration.py)."""
    return _COUNTING[0](it)


_COUNTING = [lambda it: it]

# the language's exception classes by name (language/exceptions.py fills it): what a
# module offers as its own errors (re.error)
EXCEPTION_CLASSES: dict = {}


def bounded_list(it, what="the result"):
    """The items of an iterator, refusing more than the list limit."""
    limit = context.current.limits.max_items + 1
    items = []
    while len(items) < limit:  # in parts, each counted in the run's total
        part = list(_itertools.islice(it, min(1 << 16, limit - len(items))))
        items += part
        if len(part) < 1 << 16:
            break
        check_total(0, what)
    check_items(len(items), what)
    return items


def bounded_values(it, what="the values"):
    """The values a lazy iterator (a generator ...) makes, listed: within the list
    limit, and the strings and tensors held within the memory cap (a list
    of what an endless generator yields must end in an error, not an exhausted machine)."""
    out = []
    held = 0
    limits = context.current.limits
    for v in counted(it):
        out.append(v)
        if len(out) > limits.max_items:
            check_items(len(out), what)
        if not len(out) & 4095:  # what the values hold, in the run's total
            check_total(0, what)
        n = len(v) if type(v) is str else v.data.nbytes if type(v) is Tensor else 0
        if n:
            held += n
            check_held(held, what)
    return out


_COPYING = frozenset(
    {"product", "combinations", "combinations_with_replacement", "permutations"}
)  # these copy their inputs whole


def _iter_tool(name, fn):
    copies = name in _COPYING

    def run(*args, **kwargs):
        # the copying tools get their iterables listed first (bounded): itertools would
        # copy a huge range itself; the others take them lazily
        args = [
            a
            if isinstance(a, (int, float)) or a is None or callable(a)
            else bounded_list(iter(a))
            if copies
            else iter(a)
            for a in args
        ]
        return LazyIterator(fn(*args, **kwargs))

    return BuiltinFunction(f"itertools.{name}", run)


def _functools_module():
    import functools as _functools

    return StdModule(
        "functools",
        {
            "partial": BuiltinFunction("functools.partial", Partial),
            "reduce": BuiltinFunction(
                "functools.reduce", lambda f, it, *a: _functools.reduce(f, counted(it), *a)
            ),
            "wraps": BuiltinFunction("functools.wraps", _wraps),
            "lru_cache": BuiltinFunction("functools.lru_cache", _lru_cache),
            "cache": BuiltinFunction("functools.cache", lambda fn: LruCache(fn, None, False)),
        },
    )


def _itertools_module():
    tools = {
        "product": _itertools.product,
        "chain": _itertools.chain,
        "combinations": _itertools.combinations,
        "combinations_with_replacement": _itertools.combinations_with_replacement,
        "permutations": _itertools.permutations,
        "islice": _itertools.islice,
        "accumulate": _itertools.accumulate,
        "zip_longest": _itertools.zip_longest,
        "starmap": _itertools.starmap,
        "pairwise": _itertools.pairwise,
        "takewhile": _itertools.takewhile,
        "dropwhile": _itertools.dropwhile,
        "filterfalse": _itertools.filterfalse,
        "compress": _itertools.compress,
    }
    members = {k: _iter_tool(k, v) for k, v in tools.items()}
    members["count"] = BuiltinFunction("itertools.count", _count)
    members["cycle"] = BuiltinFunction("itertools.cycle", _cycle)
    members["repeat"] = BuiltinFunction("itertools.repeat", _repeat)
    members["tee"] = BuiltinFunction("itertools.tee", _tee)
    members["groupby"] = BuiltinFunction("itertools.groupby", _groupby)
    return StdModule("itertools", members)


def _groupby(iterable, key=None):
    """itertools.groupby, lazy: each group an iterator of the language's."""
    groups = _itertools.groupby(iter(iterable), key)
    return LazyIterator(
        ((k, LazyIterator(g, "itertools._grouper object")) for k, g in groups),
        "itertools.groupby object",
    )


def _count(start=0, step=1):
    """itertools.count, lazy; it stops with the list-size limit after max_items
    values (a consumer that never stops ends in an error, not a hang)."""
    if not all(isinstance(v, (int, float)) for v in (start, step)):
        raise GradTypeError("a number is required")
    limit = context.current.limits.max_items

    def values():
        v = start
        for _ in range(limit):
            yield v
            v += step
        check_items(limit + 1, "the values of itertools.count()")

    return LazyIterator(values())


def _endless(values, what):
    """`values` lazily, stopping with the list-size limit after max_items of them (a
    consumer that never stops ends in an error, not a hang)."""
    limit = context.current.limits.max_items

    def bounded():
        for n, v in enumerate(values):
            if n == limit:
                check_items(limit + 1, what)
            yield v

    return LazyIterator(bounded())


def _cycle(iterable):
    """itertools.cycle: the items (each read once, as Python's), again and again."""
    it, seen = iter(iterable), []

    def values():
        for v in it:
            seen.append(v)
            yield v
        while seen:
            yield from seen

    return _endless(values(), "the values of itertools.cycle()")


def _repeat(obj, times=None):
    """itertools.repeat: `times` times, or endlessly (bounded as itertools.count)."""
    if times is not None and not isinstance(times, int):
        raise GradTypeError(f"'{type(times).__name__}' object cannot be interpreted as an integer")
    if times is None or times > context.current.limits.max_items:
        return _endless(_itertools.repeat(obj), "the values of itertools.repeat()")
    return LazyIterator(_itertools.repeat(obj, times))


def _tee(iterable, n=2):
    if not isinstance(n, int):
        raise GradTypeError(f"'{type(n).__name__}' object cannot be interpreted as an integer")
    if n < 0:
        raise GradValueError("n must be >= 0")
    return tuple(LazyIterator(t) for t in _itertools.tee(iter(iterable), n))


# ---------------------------------------------------------------- collections


def _field_name(f):
    """A name of namedtuple's as its str() (a number's; any other value's shown, which is
    no identifier either: no code of the program run for it)."""
    return f if isinstance(f, str) else str(f) if type(f) in (int, float, bool) else show(f)


def namedtuple_class(typename, field_names, *, defaults=None):
    """collections.namedtuple's class (and typing.NamedTuple's: language/named_tuples.py)."""
    if isinstance(field_names, str):
        field_names = field_names.replace(",", " ").split()
    fields = tuple(_field_name(f) for f in bounded_list(iter(field_names)))
    typename = _field_name(typename)
    for f in (typename,) + fields:  # (the checks and words of collections.namedtuple)
        if not f.isidentifier():
            raise GradValueError(f"Type names and field names must be valid identifiers: {f!r}")
        if _keyword.iskeyword(f):
            raise GradValueError(f"Type names and field names cannot be a keyword: {f!r}")
    for i, f in enumerate(fields):
        if f.startswith("_"):
            raise GradValueError(f"Field names cannot start with an underscore: {f!r}")
        if f in fields[:i]:
            raise GradValueError(f"Encountered duplicate field name: {f!r}")
    defaults = tuple(defaults or ())
    dflt = dict(zip(fields[len(fields) - len(defaults) :], defaults))

    def new(cls, *args, **kwargs):  # (errors in the words of the __new__ Python writes)
        name = f"{typename}.__new__()"
        if len(args) > len(fields):
            most, least = len(fields) + 1, len(fields) + 1 - len(dflt)
            takes = f"from {least} to {most}" if least < most else str(most)
            raise GradTypeError(
                f"{name} takes {takes} positional arguments but {len(args) + 1} were given"
            )
        values = dict(zip(fields, args))
        for k, v in kwargs.items():
            if k in values:
                raise GradTypeError(f"{name} got multiple values for argument '{k}'")
            if k not in fields:
                raise GradTypeError(f"{name} got an unexpected keyword argument '{k}'")
            values[k] = v
        missing = [f"'{f}'" for f in fields if f not in values and f not in dflt]
        if missing:
            n = len(missing)
            names = (
                missing[0]
                if n == 1
                else " and ".join(missing)
                if n == 2
                else ", ".join(missing[:-1]) + ", and " + missing[-1]
            )
            plural = "" if n == 1 else "s"
            raise GradTypeError(f"{name} missing {n} required positional argument{plural}: {names}")
        return tuple.__new__(cls, [values.get(f, dflt.get(f)) for f in fields])

    def rep(self):

        return f"{typename}(" + ", ".join(f"{f}={show(v)}" for f, v in zip(fields, self)) + ")"

    def replace(self, **kwargs):
        unknown = [k for k in kwargs if k not in fields]
        if unknown:
            raise GradValueError(f"Got unexpected field names: {unknown!r}")
        return new(type(self), **dict(zip(fields, self), **kwargs))

    def make(cls, it):
        values = bounded_list(iter(it))
        if len(values) != len(fields):
            raise GradTypeError(f"Expected {len(fields)} arguments, got {len(values)}")
        return new(cls, *values)

    attrs = {f: (lambda i: lambda t: tuple.__getitem__(t, i))(i) for i, f in enumerate(fields)}
    attrs["_fields"] = lambda t: fields
    return type(
        typename,
        (tuple,),
        {
            "__new__": new,
            "__repr__": rep,
            "__doc__": f"{typename}({repr(fields).replace(chr(39), '')[1:-1]})",  # (Python's)
            "__slots__": (),
            "language_attrs": attrs,
            "language_methods": {
                "_replace": replace,
                "_asdict": lambda t: dict(zip(fields, t)),
                "count": tuple.count,
                "index": tuple.index,
            },
            "language_class_methods": {"_make": make},
            "language_class_attrs": {"_fields": fields, "_field_defaults": dflt},
            "language_callable": True,
            "__module__": "__main__",
        },
    )


def _deque_grown(method):
    """A deque method that adds items, within the list limit."""

    def grow(d, *args):
        method(d, *args)
        check_items(len(d), "the deque")

    return grow


def _deque_taken(name, method):
    """A deque method that takes an item: Python's IndexError or ValueError when it cannot."""

    def take(d, *args):
        try:
            return method(d, *args)
        except IndexError as e:
            raise GradError(str(e), type_name="IndexError") from None
        except ValueError as e:
            raise GradError(str(e), type_name="ValueError") from None

    take.__name__ = name
    return take


class deque(_collections.deque):
    """collections.deque with the methods a program calls (its repr is Python's)."""

    __slots__ = ()
    language_methods = {
        "append": _deque_grown(_collections.deque.append),
        "appendleft": _deque_grown(_collections.deque.appendleft),
        "extend": _deque_grown(lambda d, it: d.extend(bounded_list(iter(it)))),
        "extendleft": _deque_grown(lambda d, it: d.extendleft(bounded_list(iter(it)))),
        "pop": _deque_taken("pop", _collections.deque.pop),
        "popleft": _deque_taken("popleft", _collections.deque.popleft),
        "remove": _deque_taken("remove", _collections.deque.remove),
        "index": _deque_taken("index", _collections.deque.index),
        "insert": _deque_taken("insert", _collections.deque.insert),
        "rotate": lambda d, n=1: d.rotate(n),
        "count": lambda d, v: d.count(v),
        "clear": lambda d: d.clear(),
        "reverse": lambda d: d.reverse(),
        "copy": lambda d: deque(d, d.maxlen),
    }
    language_attrs = {"maxlen": lambda d: d.maxlen}
    language_iter = list
    language_len = len


def _collections_module():
    return StdModule(
        "collections",
        {
            "OrderedDict": builtin_class(
                "collections.OrderedDict", _collections.OrderedDict, _collections.OrderedDict
            ),
            "defaultdict": builtin_class(
                "collections.defaultdict", _collections.defaultdict, _collections.defaultdict
            ),
            "namedtuple": BuiltinFunction("collections.namedtuple", namedtuple_class),
            "Counter": builtin_class(
                "collections.Counter", _collections.Counter, _collections.Counter
            ),
            "deque": builtin_class(
                "collections.deque",
                deque,
                lambda it=(), maxlen=None: deque(bounded_list(iter(it)), maxlen),
            ),
        },
    )


# ---------------------------------------------------------------- copy, time


class _KeptAlive:
    """What copy.deepcopy keeps alive in a program's memo (Python keeps a list of the
    originals there): opaque, since the originals include an object's own __dict__."""

    __slots__ = ("objects",)

    def __init__(self):
        self.objects = []

    def __repr__(self):
        return f"<{len(self.objects)} objects kept alive>"


def _deepcopy(x, memo=None):
    """copy.deepcopy; with a program's `memo`, the copying runs on a private memo and
    only the copies (keyed by the originals' ids) are written back: Python's memo
    also holds the originals, an nn.Module's real __dict__ among them."""
    import copy as _copy

    if memo is None or type(memo) is not dict:
        return _copy.deepcopy(x, memo)
    kept = memo.get(id(memo))
    if type(kept) is not _KeptAlive:
        kept = _KeptAlive()
    private = {k: v for k, v in memo.items() if k != id(memo)}
    y = _copy.deepcopy(x, private)
    kept.objects += private.pop(id(private), ())
    memo.update(private)
    memo[id(memo)] = kept
    return y


def _copy_module():
    import copy as _copy

    return StdModule(
        "copy",
        {
            "deepcopy": BuiltinFunction("copy.deepcopy", _deepcopy),
            "copy": BuiltinFunction("copy.copy", _copy.copy),
        },
    )


def _time_module():
    import time as _time

    return StdModule(
        "time",
        {
            "perf_counter": BuiltinFunction("time.perf_counter", _time.perf_counter),
            "time": BuiltinFunction("time.time", _time.time),
            "monotonic": BuiltinFunction("time.monotonic", _time.monotonic),
            "process_time": BuiltinFunction("time.process_time", _time.process_time),
        },
    )


class StdModule(Module):
    """A Python module of gradcli's own: its members only (no torch built-ins)."""

    __slots__ = ()

    def get(self, attr, builtins):
        return super().get(attr, {})


class EmptyModule(StdModule):
    """`os`, `sys`, `numpy`: tutorials import them, often without using them, so the
    import succeeds and binds a module with nothing in it; the first use is the
    error (docs/language.md: what is out)."""

    __slots__ = ()

    WHY = {
        "os": "a program reaches no files, processes or environment",
        "sys": "a program reaches no part of the interpreter",
    }

    def get(self, attr, builtins):
        raise GradAttributeError(
            f"module '{self.name}' has no attribute '{attr}'",
            hint=f"gradcli's {self.name} module is empty: {self.WHY[self.name]}",
        )


_MODULES = {
    "math": _math_module,
    "random": _random_module,
    "functools": _functools_module,
    "itertools": _itertools_module,
    "collections": _collections_module,
    "copy": _copy_module,
    "time": _time_module,
    "os": lambda: EmptyModule("os"),
    "sys": lambda: EmptyModule("sys"),
    "numpy": lambda: numpy_ns.make_module(),
    "typing": lambda: typing_ns.make_module(StdModule, namedtuple_class),
}


_made = {}


def module(name):
    """The module `import name` binds, or None if there is no such safe module."""
    if name not in _made:
        make = _MODULES.get(name)
        if make is None:
            return None
        _made[name] = make()
    return _made[name]


def names():
    """The modules a program can import (those added by add_module included), for hints."""
    return tuple(k for k in _MODULES if k not in EmptyModule.WHY)


def add_module(name, make):
    """Another part of the library offers a module to `import name` (made on first use),
    with the members added to it before it was offered (`add_members`)."""
    for more in _PENDING.pop(name, ()):
        make = _with_members(make, more)
    _MODULES[name] = make


def add_members(name, make):
    """Another part of the library adds members (`make()`: name -> value) to the module
    `import name` binds, made with it on first use (functools.total_ordering: language),
    whichever of the two modules is imported first (the REPL, the kernel and the command
    line import them in different orders)."""
    base = _MODULES.get(name)
    if base is None:  # (offered later: add_module adds them)
        _PENDING.setdefault(name, []).append(make)
    else:
        _MODULES[name] = _with_members(base, make)


def _with_members(base, make):
    def made():
        m = base()
        m.members.update(make())
        return m

    return made


#: members added to a module not offered yet, by its name (`add_members`)
_PENDING: dict = {}
