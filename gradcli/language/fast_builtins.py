"""What the fast tier's calls of built-ins run (the trees: fast_calls.py): a call of a
built-in function of the language by its name (`set(t)`, `isinstance(x, C)`, `len(xs)`,
`zip(a, b)`), of a method of a list, set or dict (`xs.append(v)`, `seen.add(v)`,
`d.get(k)`) and of a function of one of gradcli's own modules with plain arguments
(`math.tanh(x)`, `random.uniform(-1, 1)`), each a function made for its call site.

Each runs the function the general path would reach (the built-in's own, the
container's method from runtime.py's tables, the module's member) with the arguments
as they are, its errors placed as `invoke.call` places them (`call_failed` with the
same callee, arguments and name), without the steps between: the call site's
dispatch, `invoke.call`'s checks, the BuiltinFunction or BoundMethod around it, and
the running frames made for the callee (fast_support.framed).  Those frames matter
only to code of the program that the callee runs (inspect.currentframe), so a site
takes this way only when no code of the program can run in the call: its arguments
are of the kinds it knows (a set's items, a dict's key hashed by Python's own hash,
numbers and strings), else it answers SLOW and the generated code makes the general
call with the values it computed."""

from __future__ import annotations

import sys
from types import FunctionType

from ..library.stdlib import LazyIterator, StdModule
from ..core.tensor import Tensor
from ..library.torch_ns import namespace
from ..library.values import METHODS as TENSOR_METHODS
from ..library.values import BoundMethod, BuiltinFunction, Module
from ..ops.registry import BUILTINS, METHOD_ONLY
from ..runtime import context
from ..runtime.limits import SMALL
from .arity import BareName, MethodName
from .classes import HASH_PLAIN, SCALARS, LanguageObject, hash_plain_class
from .containers import DICT_METHODS, SET_METHODS
from .invoke import call_failed
from .fast_dispatch import plain_binary_op
from .fast_support import framed as in_frames
from .prelude import _SUM_BOUND, isinstance_, reversed_, set_, sum_items, zip_
from .runtime import LIST_METHODS
from .state import state

#: what a site answers when the call is not its case: the general call is made
SLOW = object()

#: what iteration.iterate hands a loop as it is, or as Python iterates it (a set or a
#: dict: live, whose RuntimeError fast_support.fail gives in the same words)
ITERATED = frozenset({list, tuple, str, range, set, dict})
#: ... and a lazy iterator's own (zip, a generator expression: what its __next__ gives)
LAZY = LazyIterator


class TableSite:
    """A site of generated code asking for a class's LOOKUP table (fast_calls.class_table):
    the last plain class met there and its table, which is made with the class and never
    replaced (classes.py), so the next object of that class finds it with one test; until
    a plain class is met, the last class met (a list, a float: its answer None, which
    never changes either), so that a site that only ever sees a list (`topo.append(v)`)
    asks no more than one that sees a plain class."""

    __slots__ = ("cls", "table")

    def __init__(self):
        self.cls = self.table = None

    def find(self, t):
        """The table of class t (None if it is not plain), kept when there is one or
        when none is kept."""
        # (classes.LOOKUP: a class of the language has it, None if it is not plain)
        table = getattr(t, "__gradcli_lookup__", None) if issubclass(t, LanguageObject) else None
        if table is not None or self.table is None:
            self.cls, self.table = t, table
        return table


def hash_plain(v):
    """Whether hashing v and comparing it with a set's or dict's items runs no code of
    the program: a number, a string, None, or an object whose class keeps Python's
    own hash and equality (identity)."""
    t = type(v)
    return t in HASH_PLAIN or hash_plain_class(t)


def _failing(raw, fn, name, line, col):
    """raw(*args), its errors as `invoke.call` gives them for a call of fn."""

    def run(*args):
        try:
            return raw(*args)
        except Exception as e:
            return call_failed(e, fn, list(args), {}, name, line, col, {})

    return run


# ----------------------------------------------------------------- built-in functions


#: the plain classes of the program met as isinstance's second argument (a class stays
#: plain: its LOOKUP table is made with it and never replaced), for the generated code's
#: test (fast_calls.FastBuiltinCalls.builtin_form); emptied when it grows large
PLAIN_CLASSES = set()


def _isinstance(bf, name, line, col):
    general = _failing(isinstance_, bf, name, line, col)

    def run(v, c):
        if (
            type(c) is type
            and issubclass(c, LanguageObject)  # (a class of the program: getattr can't fail)
            and getattr(c, "__gradcli_lookup__", None) is not None  # (LOOKUP: a plain one)
        ):
            if len(PLAIN_CLASSES) >= 512:  # (classes made again and again: not kept all)
                PLAIN_CLASSES.clear()
            PLAIN_CLASSES.add(c)
            return isinstance(v, c)  # a plain class of the program: Python's answer
        return general(v, c)  # (isinstance_ runs no code of the program)

    return run


def _set(bf, name, line, col):
    def run(items=()):
        t = type(items)
        if t is tuple or t is list:  # (set_: the items as they are)
            for v in items:
                tv = type(v)
                if tv not in HASH_PLAIN and not hash_plain_class(tv):
                    return SLOW
            return set(items)
        return SLOW

    return run


_SIZED = frozenset({list, tuple, str, dict, set})


def _len(bf, name, line, col):
    def run(x):
        return len(x) if type(x) in _SIZED else SLOW  # (len_ and _len: Python's len)

    return run


_LISTED = frozenset({list, tuple, range, str})  # (iterated as they are, no code of the program)


def _listed(raw):
    def site(bf, name, line, col):
        general = _failing(raw, bf, name, line, col)

        def run(*args):
            for a in args:
                if type(a) not in _LISTED:
                    return SLOW
            return general(*args)

        return run

    return site


def _sum(bf, name, line, col):
    """sum(items, start) of a generator expression (or another lazy iterator): prelude's
    _sum, its `+` taking the case of a plain class first as the fast tier's operators
    do (fast_dispatch.plain_binary_op: the same special method called, the same answer),
    run as the general call runs it: the line the call's, the fast functions running
    here the running frames of the program's code it calls."""
    add = plain_binary_op("+")

    def total_of(items, start=0):
        return sum_items(add, items, start)

    general = _failing(total_of, bf, name, line, col)

    def run(*args):
        if type(args[0]) is not LazyIterator:  # (prelude's _pythonic: _sum for these)
            return SLOW
        state.line = line
        return in_frames(sys._getframe(1), general, *args)

    return run


def summed(bf, name, line, col):
    """sum(generator expression[, start]) at (line, col), the generator expression's loop
    and the sum made one (fast_comprehensions' kind "sum": its function takes each item
    and adds it, no generator nor lazy iterator between them), without --max-steps (its
    steps are counted as _sum's and the generator's): the items added as _sum adds them
    (sum_items' two floats and two ints, else `+` with a plain class first), in the
    running frames and with the errors placed as _sum's general call has them. run(fn,
    the items of its first iterable, the program's variables, scope and built-ins[,
    start])."""
    add = plain_binary_op("+")

    def plus(total, v):  # (sum_items' step)
        t = type(v)
        if t is type(total):
            if t is float:
                return total + v
            if t is int:
                r = total + v
                if -_SUM_BOUND < r < _SUM_BOUND:
                    return r
        return add(total, v)

    def run(fn, items, gv, gs, builtins, *start):
        state.line = line
        try:
            return in_frames(
                sys._getframe(1), fn, items, plus, start[0] if start else 0, gv, gs, builtins
            )
        except Exception as e:  # (as _failing places _sum's: its arguments' kinds)
            return call_failed(
                e, bf, [LazyIterator(iter(()), _GENEXP), *start], {}, name, line, col, {}
            )

    return run


_GENEXP = "generator object <genexpr>"


def _zip(bf, name, line, col):
    """zip(a, b ...) of lists, tuples, ranges or strings: zip_'s iterator, made without
    _each's steps when no --max-steps counts them (each item as it is: iterate lists a
    tuple's or a string's items, which are its own)."""
    general = _listed(zip_)(bf, name, line, col)
    limits = context

    def run(*args):
        if limits.current.limits.max_steps is None:
            for a in args:
                if type(a) not in _LISTED:
                    return SLOW
            return LazyIterator(zip(*args), "zip object", True)
        return general(*args)

    return run


#: name -> (the built-in's own function, its site's maker, the numbers of arguments)
FUNCTIONS = {
    "sum": (None, _sum, (1, 2)),
    "isinstance": (isinstance_, _isinstance, (2,)),
    "set": (set_, _set, (0, 1)),
    "len": (None, _len, (1,)),
    "zip": (zip_, _zip, (1, 2, 3)),
    "reversed": (reversed_, _listed(reversed_), (1,)),
}


def function_site(name, n, bf, line, col):
    """The run(*args) of `name(a1, ... an)` where `name` is the built-in bf, or None."""
    entry = FUNCTIONS.get(name)
    if entry is None or n not in entry[2] or type(bf) is not BuiltinFunction:
        return None
    raw, maker, _ = entry
    if raw is not None and bf.fn is not raw:
        return None
    if raw is None and getattr(bf.fn, "__name__", None) != name:
        return None
    return maker(bf, BareName(name), line, col)


# ----------------------------------------------------------------- methods of containers


def _method(m, attr, line, col):
    """o.attr(*args) for a container o whose method m runs no code of the program."""

    def run(o, *args):
        try:
            return m(o, *args)
        except Exception as e:
            return call_failed(e, BoundMethod(o, attr, m), list(args), {}, attr, line, col, {})

    return run


def _append(m, attr, line, col):
    general = _method(m, attr, line, col)
    limits = context

    def run(o, v):
        n = len(o) + 1  # (check_items: within the items limit, below a look at the memory)
        if n < SMALL and n <= limits.current.limits.max_items:
            o.append(v)
            return None
        return general(o, v)

    return run


def _pop(m, attr, line, col):
    """xs.pop() of a list: its last item, an empty list's error as the table's pop gives it."""
    general = _method(m, attr, line, col)

    def run(o):
        return o.pop() if o else general(o)

    return run


def _hashing(m, attr, line, col):
    """A method whose first argument is hashed (set.add, dict.get ...)."""
    general = _method(m, attr, line, col)

    def run(o, *args):
        if not args or not hash_plain(args[0]):
            return SLOW
        return general(o, *args)

    return run


def _set_add(m, attr, line, col):
    general = _method(m, attr, line, col)
    limits = context

    def run(o, v):
        t = type(v)
        if t not in HASH_PLAIN and not hash_plain_class(t):
            return SLOW
        n = len(o) + 1  # (_set_add's check_items)
        if n < SMALL and n <= limits.current.limits.max_items:
            o.add(v)
            return None
        return general(o, v)

    return run


#: (type, name) -> the site's maker, for the methods that run no code of the program
#: (or only a hash, checked: _hashing); the method itself is the table's
METHODS = {
    (list, "append"): _append,
    (list, "pop"): _pop,
    (list, "insert"): _method,
    (list, "copy"): _method,
    (list, "clear"): _method,
    (list, "reverse"): _method,
    (set, "add"): _set_add,
    (set, "discard"): _hashing,
    (set, "remove"): _hashing,
    (set, "copy"): _method,
    (set, "clear"): _method,
    (set, "pop"): _method,
    (dict, "get"): _hashing,
    (dict, "pop"): _hashing,
    (dict, "setdefault"): _hashing,
    (dict, "keys"): _method,
    (dict, "values"): _method,
    (dict, "items"): _method,
    (dict, "copy"): _method,
    (dict, "clear"): _method,
}
_TABLES = {list: LIST_METHODS, set: SET_METHODS, dict: DICT_METHODS}


_ONE = (_append, _set_add)  # (of one argument: any other number is the general call's)
_NONE = (_pop,)  # (of none)


def method_sites(attr, n, line, col):
    """[(type, run(o, *args))] for `o.attr(...)` of n arguments with o of one of these
    types."""
    out = []
    for t, table in _TABLES.items():
        maker = METHODS.get((t, attr))
        m = table.get(attr)
        if maker is not None and m is not None:
            if (maker in _ONE and n != 1) or (maker in _NONE and n):
                maker = _method
            out.append((t, maker(m, attr, line, col)))
    return out


# ----------------------------------------------------------------- modules' functions


def module_site(attr, line, col):
    """run(o, *args) for `o.attr(...)` with o one of gradcli's own modules (math,
    random ...) whose member attr is a built-in function and arguments that are
    numbers, strings or None (nothing of the program to call back)."""

    def run(o, *args):
        f = o.members.get(attr)  # (StdModule.get: its members only)
        if type(f) is not BuiltinFunction:
            return SLOW
        for a in args:
            if type(a) not in SCALARS:
                return SLOW
        try:
            return f.fn(*args)
        except Exception as e:
            return call_failed(e, f, list(args), {}, attr, line, col, {})

    return run


MODULE = StdModule
TORCH_MODULE = Module
_OPERANDS = frozenset({Tensor, int, float, bool})


def torch_site(attr, line, col):
    """run(o, *args) for `o.attr(...)` with o a namespace of the torch API (`torch`, `F`:
    library.values.Module, whose attributes a program cannot set) where attr reaches an
    op that declares itself pure or quiet (ops/registry.py: its function runs no code of
    the program, no hook) and the arguments are tensors and numbers: the op's function
    called as the general method call calls it (invoke.call: the errors placed at the
    call by call_failed), without its steps: the running frames made for the callee
    (nothing of the program runs to read them), the attribute's general lookup. None
    when attr is no such op (no site)."""
    entry = BUILTINS.get(attr)
    if entry is None or (entry.pure is not True and entry.pure != "quiet"):
        return None
    fn = entry.fn
    names = namespace()

    def run(o, *args):
        got = o.get(attr, names)  # (members first, then the built-ins: get_attr's)
        if got is not fn and (
            getattr(got, "__wrapped__", None) is not fn or not args or type(args[0]) is not Tensor
        ):  # (torch.tanh: the op of a tensor, library/torch_ns.tensor_input)
            return SLOW
        for a in args:
            if type(a) not in _OPERANDS:
                return SLOW
        state.line = line
        try:
            return fn(*args)
        except Exception as e:
            return call_failed(e, fn, list(args), {}, attr, line, col, {})

    return run


TENSOR = Tensor
_NUMBERS = frozenset({int, float, bool})


def tensor_site(attr, line, col):
    """run(o, *args) for `o.attr(...)` with o a tensor where attr is the method of an op
    that declares itself pure or quiet (ops/registry.py: its function runs no code of the
    program, no hook) and the arguments are tensors and numbers (numbers only for an op
    pure only as a method, `pure="method"`): the method's function called as
    fast_dispatch.method_caller calls it (its errors placed by call_failed), without the
    running frames made for a callee that runs no code of the program. None when attr
    is no such method (no site)."""
    entry = METHOD_ONLY.get(attr) or BUILTINS.get(attr)
    if entry is None or entry.pure not in (True, "method", "quiet"):
        return None
    fn = entry.fn if attr in METHOD_ONLY else getattr(entry.fn, "method", entry.fn)
    if type(fn) is not FunctionType:
        return None
    kinds = _NUMBERS if entry.pure == "method" else _OPERANDS
    name = MethodName(attr)

    def run(o, *args):
        if TENSOR_METHODS.get(attr) is not fn:  # (the table's method: library/methods.py)
            return SLOW
        for a in args:
            if type(a) not in kinds:
                return SLOW
        state.line = line
        try:
            return fn(o, *args)
        except Exception as e:
            return call_failed(e, fn, (o, *args), {}, name, line, col, {})

    return run
