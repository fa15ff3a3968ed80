"""The Python data model for objects of the program's classes: `a + b`, `-a`, `a < b`,
`x in a`, `a += b`, `iter`/`next`, `with`, `len`, `abs`, `format` ... call the special
methods the class defines (classes.DUNDERS), as Python calls them.

Python's own operators and built-ins do the dispatch (the reflected method, a
subclass's first, NotImplemented, `__ne__` from `__eq__`, `__bool__` then `__len__`):
a class of the program is a real Python class whose methods are UserFunctions, which
Python binds and calls like its own functions.  Only values of the program reach
them, and their errors come back in Python's words (values.python_protocol).  What
Python would do through exceptions of its own (StopIteration ending a loop, IndexError
ending the old `__getitem__` iteration, an exception handed to `__exit__`) is done
here with the language's exceptions."""

from __future__ import annotations

import operator

from ..runtime import context
from ..runtime.errors import GradError, GradTypeError, python_type_name
from ..runtime.limits import check_items
from ..core.convert import type_name
from ..library.values import program_object, python_protocol, truth
from .exceptions import ancestors, catchable, public_type
from .classes import plain_class_attr
from .functions import Generator, UserFunction
from ..core.tensor import Tensor

BINARY = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": operator.pow,
    "^": operator.pow,  # (the language's power)
    "@": operator.matmul,
    "&": operator.and_,
    "|": operator.or_,
    "<<": operator.lshift,
    ">>": operator.rshift,
}
INPLACE = {
    "+": operator.iadd,
    "-": operator.isub,
    "*": operator.imul,
    "/": operator.itruediv,
    "//": operator.ifloordiv,
    "%": operator.imod,
    "**": operator.ipow,
    "^": operator.ipow,
    "@": operator.imatmul,
    "&": operator.iand,
    "|": operator.ior,
    "<<": operator.ilshift,
    ">>": operator.irshift,
}
UNARY = {"-": operator.neg, "+": operator.pos, "~": operator.invert}
COMPARE = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}


def involves(a, b):
    """Is a or b an object of a class of the program?"""
    return program_object(a) or program_object(b)


def binary(op, a, b):
    """`a op b` with an object of the program's classes on either side."""
    return python_protocol(BINARY[op], a, b)


_DUNDER = {
    "+": "add",
    "-": "sub",
    "*": "mul",
    "/": "truediv",
    "//": "floordiv",
    "%": "mod",
    "**": "pow",
    "^": "pow",
    "@": "matmul",
}
_NUMBERS = (int, float, bool)
NO = object()  # plain_binary: not a case it answers


def plain_binary(op, a, b, augmented):
    """`a op b` when one side is an object of a plain class of the program
    (classes.PLAIN) and the other an object of the same class or a number: its
    special method called here, as Python's operator calls it (a number's own
    method answers NotImplemented to the object, so the object's is the only one
    asked); NO for any other case, which `binary` answers."""
    ta, tb = type(a), type(b)
    name = _DUNDER.get(op)
    if name is None:
        return NO
    if getattr(ta, "__gradcli_plain__", False):
        if tb is not ta and tb not in _NUMBERS:
            return NO
        if augmented and plain_class_attr(ta, f"__i{name}__") is not None:
            return NO
        f = plain_class_attr(ta, f"__{name}__")
        if type(f) is not UserFunction:
            return NO
        q = f.quick
        r = f.run({q[0]: a, q[1]: b}) if q is not None and len(q) == 2 else f(a, b)
    elif ta in _NUMBERS and getattr(tb, "__gradcli_plain__", False):
        f = plain_class_attr(tb, f"__r{name}__")
        if type(f) is not UserFunction:
            return NO
        q = f.quick
        r = f.run({q[0]: b, q[1]: a}) if q is not None and len(q) == 2 else f(b, a)
    else:
        return NO
    if r is NotImplemented:
        raise refused(op, name, ta, tb, augmented)
    return r


def tensor_binary(op, a, b, augmented):
    """`a op b` (`a op= b`) with a tensor on one side and an object of a plain class of
    the program on the other, as Python's operator asks them: a tensor's methods answer
    NotImplemented to such an object (PyTorch's turn its TypeError into that), so the
    object's are the only ones asked, `__op__` when it is on the left (its `__iop__`
    first, by `inplace`: NO here), `__rop__` when it is on the right; Python's TypeError
    when it has none or it answers NotImplemented.  NO for a method that is not a
    function of the program (`inplace`, `binary` ask it)."""
    name = _DUNDER.get(op)
    if name is None:
        return NO
    ta, tb = type(a), type(b)
    if tb is Tensor:
        if augmented and plain_class_attr(ta, f"__i{name}__") is not None:
            return NO
        f, x, y = plain_class_attr(ta, f"__{name}__"), a, b
    else:
        f, x, y = plain_class_attr(tb, f"__r{name}__"), b, a
    if f is None:
        raise refused(op, name, ta, tb, augmented)
    if type(f) is not UserFunction:
        return NO
    q = f.quick
    r = f.run({q[0]: x, q[1]: y}) if q is not None and len(q) == 2 else f(x, y)
    if r is NotImplemented:
        raise refused(op, name, ta, tb, augmented)
    return r


def refused(op, name, ta, tb, augmented=False):
    """Python's TypeError when the special method `name` of `a op b` (`a op= b`)
    answered NotImplemented (ta, tb: the operands' classes)."""
    return GradTypeError(
        f"unsupported operand type(s) for {_sign(op, name, augmented)}: "
        f"'{ta.__name__}' and '{tb.__name__}'"
    )


def _sign(op, name, augmented):
    """The operator as Python's TypeError names it: `** or pow()` and `**=` for a power
    (gradcli's `^` too), `+=` for an augmented `+`."""
    if name == "pow":
        return "**=" if augmented else "** or pow()"
    return op + "=" if augmented else op


def inplace(op, a, b):
    """`a op= b`: a's `__iadd__` ... when it has one, else `a op b` (Python's order).
    A container on the left is not extended by the object's items (`lst += obj`
    is `lst + obj`, which only the object's `__radd__` can answer)."""
    if program_object(a):
        return python_protocol(INPLACE[op], a, b)
    try:
        return binary(op, a, b)
    except GradTypeError as e:  # Python names the augmented operator (`+=`)
        name = _DUNDER.get(op)
        head = f"unsupported operand type(s) for {_sign(op, name, False)}: "
        if e.message.startswith(head):
            raise GradTypeError(
                f"unsupported operand type(s) for {_sign(op, name, True)}: "
                + e.message[len(head) :]
            ) from None
        raise


def unary(op, v):
    return python_protocol(UNARY[op], v)


def compare(op, a, b):
    return python_protocol(COMPARE[op], a, b)


def _has(v, name):
    """Does v's class (or a class of the program it derives from) define `name`?"""
    for c in type(v).__mro__:
        if name in c.__dict__:
            return c.__dict__[name] is not None
    return False


def _is(err, name):
    return isinstance(err, GradError) and name in ancestors(python_type_name(err))


def contains(item, container):
    """`item in container` for an object of the program: its `__contains__`, else a
    search through its items."""
    if _has(container, "__contains__"):
        return truth(python_protocol(operator.contains, container, item))
    for v in items(container):
        if v is item or truth(python_protocol(operator.eq, v, item)):
            return True
    return False


class ProgramIterator:
    """A loop's view of an iterator of the program (a class with `__next__`), or of
    what its `__iter__` returned: the StopIteration its `__next__` raises ends the loop,
    as in Python; past the list-size limit of values it is an error (`sum(obj)` over an
    endless iterator ends, as itertools.count() does)."""

    __slots__ = ("it", "left")
    language_lazy = True  # taken one value at a time

    def __init__(self, it):
        self.it, self.left = it, context.current.limits.max_items

    def __iter__(self):
        return self

    def __next__(self):
        self.left -= 1
        if self.left < 0:
            check_items(context.current.limits.max_items + 1, "the values of this iterator")
        try:
            return next(self.it) if not program_object(self.it) else self.it.__next__()
        except GradError as e:
            if _is(e, "StopIteration"):
                raise StopIteration from None
            raise

    def language_remaining(self):
        return self

    def __repr__(self):
        return repr(self.it)


class _Indexed:
    """The items of an object with `__getitem__` and no `__iter__`: obj[0], obj[1] ...
    until IndexError (Python's old sequence protocol)."""

    __slots__ = ("obj", "i")
    language_lazy = True

    def __init__(self, obj):
        self.obj, self.i = obj, 0

    def __iter__(self):
        return self

    def __next__(self):
        try:
            v = self.obj.__getitem__(self.i)
        except GradError as e:
            if _is(e, "IndexError") or _is(e, "StopIteration"):
                raise StopIteration from None
            raise
        self.i += 1
        return v

    def language_remaining(self):
        return self

    def __repr__(self):
        return "<iterator object>"


def iter_of(obj):
    """iter(obj) for an object of the program: what its `__iter__` returns (an
    iterator of the program, a generator ...), or its items by `__getitem__`."""
    if _has(obj, "__iter__"):
        it = obj.__iter__()
        if program_object(it):
            if not _has(it, "__next__"):
                raise GradTypeError(f"iter() returned non-iterator of type '{type_name(it)}'")
            return it
        if getattr(type(it), "language_lazy", False) or hasattr(type(it), "language_remaining"):
            return it
        raise GradTypeError(f"iter() returned non-iterator of type '{type_name(it)}'")
    if _has(obj, "__getitem__"):
        return _Indexed(obj)
    raise GradTypeError(f"'{type_name(obj)}' object is not iterable")


def items(obj):
    """What a `for` loop over an object of the program goes through, one at a time (a
    generator of the program as it is: its own loops count --max-steps)."""
    it = iter_of(obj)
    return it if type(it) is Generator else ProgramIterator(it)


def next_of(it):
    """next(it) for an iterator of the program: its `__next__` (a StopIteration it
    raises is the language's, for `next(it, default)` to catch)."""
    if not _has(it, "__next__"):
        raise GradTypeError(f"'{type_name(it)}' object is not an iterator")
    return it.__next__()


def stop_iteration(err):
    return _is(err, "StopIteration")


def with_protocol(m, line, col):
    """Python's TypeError when the object m of the program lacks `__enter__` or
    `__exit__`."""
    for name in ("__enter__", "__exit__"):
        if not _has(m, name):  # (Python 3.11's words)
            missed = " (missed __exit__ method)" if name == "__exit__" else ""
            raise GradTypeError(
                f"'{type_name(m)}' object does not support the context manager protocol" + missed,
                line,
                col,
            )


def run_with(m, bind, body, s, line, col):
    """`with m as name: body` for an object of the program: name is what `__enter__`
    returns; `__exit__` gets the exception's class and the exception (no traceback:
    None) and suppresses it when it returns a true value."""
    with_protocol(m, line, col)
    try:
        v = m.__enter__()
    except GradError as e:
        raise e.at(line, col)
    if bind is not None:
        bind(s, v)
    try:
        r = body(s)
    except GradError as e:
        if not catchable(e):  # (limits, an interruption: no handler sees them)
            raise
        try:
            suppress = truth(m.__exit__(public_type(e), e, None))
        except GradError as e2:
            raise e2.at(line, col)
        if suppress:
            return None
        raise
    try:
        m.__exit__(None, None, None)
    except GradError as e:
        raise e.at(line, col)
    return r
