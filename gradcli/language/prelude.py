"""Python built-ins of the language that need its own values (classes, generators,
iterators): isinstance, zip, enumerate, sorted, dict, set, next, getattr, super,
staticmethod/classmethod/property, the exception types ...; and the Python meaning
of sum/len/list/any/all on the values that only the language makes (iterators,
dicts, sets, objects)."""

from __future__ import annotations

import numpy as np

from ..runtime.errors import GradError, GradTypeError, GradValueError
from ..runtime.limits import check_items
from ..core.convert import type_name
from ..core.printing import show
from ..core.tensor import Tensor
from ..library.stdlib import DictView, LazyIterator, ListIterator, bounded_list, bounded_values
from ..library.stdlib import plain_items
from ..library.numpy_ns import NUMPY_VALUES
from ..library.values import BuiltinFunction, LIBRARY_TYPES, program_object, python_protocol
from ..library.values import truth
from ..ops.registry import BUILTINS
from . import datamodel
from . import runtime as rt
from .unbound import PY_TYPES
from .classes import LanguageObject, Super, callable_class, is_user_class, no_super
from .exceptions import BUILTIN_TYPES, is_instance
from .items import del_attr
from .iteration import counted, iterate
from .names import install_classes, type_of
from .instance_vars import vars_


def _items(x):
    """The items of x as a list (within the list limit)."""
    if isinstance(x, range):
        check_items(len(x), "the items of this range")
        return list(x)
    items = iterate(x)
    return bounded_values(items) if getattr(type(items), "language_lazy", False) else items


def _each(x):
    """The items of x one at a time (a generator is not run ahead), each a step."""
    return counted(x if isinstance(x, range) else iterate(x))


def _lazy(x):
    """Values whose items only the language can list (not a tensor, list, tuple, str)."""
    return (
        isinstance(x, (dict, set, frozenset, DictView))
        or hasattr(type(x), "language_remaining")
        or is_user_class(type(x))
    )


def _items_only(x):
    """Values Python's sum, min and max go through item by item: _lazy's and a library
    container's (a deque)."""
    return _lazy(x) or hasattr(type(x), "language_iter")


_PY_TYPES = PY_TYPES  # the built-in functions int, float, ... -> Python's types (for isinstance)


def _class_of(t):
    if isinstance(t, tuple):
        return tuple(_class_of(c) for c in t)
    py = _PY_TYPES.get(id(t)) or LIBRARY_TYPES.get(id(t))
    if py is not None:
        return py
    if t is LanguageObject:  # `object`: every value is one, as in Python
        return object
    if isinstance(t, type):
        return t
    raise GradTypeError("isinstance() arg 2 must be a type, a tuple of types, or a union")


def isinstance_(obj, classinfo):
    cls = _class_of(classinfo)
    obj = _PY_TYPES.get(id(obj), obj)  # the language's int, list ... are classes
    if isinstance(obj, GradError):  # by the exception classes' family, as `except`
        return is_instance(obj, cls)
    return isinstance(obj, cls)


def issubclass_(cls, classinfo):
    # issubclass(bool, int), issubclass(torch.Size, tuple), issubclass(OrderedDict, dict)
    cls = _PY_TYPES.get(id(cls)) or LIBRARY_TYPES.get(id(cls), cls)
    if not isinstance(cls, type):
        raise GradTypeError("issubclass() arg 1 must be a class")
    info = _class_of(classinfo)
    # a library class standing for a subclass it cannot be in Python (nn.Parameter)
    bases = cls.__dict__.get("language_bases", ())
    return issubclass(cls, info) or any(issubclass(b, info) for b in bases)


def zip_(*iterables, strict=False):
    if strict:
        lists = [list(_items(x)) for x in iterables]
        if len({len(v) for v in lists}) > 1:
            raise GradValueError(_unequal(list(map(len, lists))))
        return ListIterator(zip(*lists))
    plain = all(plain_items(x) for x in iterables)
    return LazyIterator(zip(*(iter(_each(x)) for x in iterables)), "zip object", plain)


def _unequal(sizes):
    """zip(strict=True)'s words for arguments of unequal lengths, as CPython finds them
    (the first argument that ends early, or the first that goes on after the first)."""
    short = min(sizes)
    i = sizes.index(short)
    if i == 0:
        i, what = next(j for j, n in enumerate(sizes) if n > short), "longer"
    else:
        what = "shorter"
    return f"zip() argument {i + 1} is {what} than argument{' ' if i == 1 else 's 1-'}{i}"


def enumerate_(iterable, start=0):
    plain = plain_items(iterable)
    return LazyIterator(enumerate(_each(iterable), start), "enumerate object", plain)


def map_(fn, /, *iterables):
    return LazyIterator(
        (fn(*args) for args in zip(*(iter(_each(x)) for x in iterables))), "map object"
    )


def filter_(fn, iterable, /):
    test = truth if fn is None else (lambda v: truth(fn(v)))
    return LazyIterator((v for v in _each(iterable) if test(v)), "filter object")


def reversed_(seq, /):
    return ListIterator(list(_items(seq))[::-1])


def sorted_(iterable, /, *, key=None, reverse=False):
    items = list(_items(iterable))
    try:
        return sorted(items, key=key, reverse=truth(reverse))
    except TypeError as e:
        raise GradTypeError(str(e)) from None


def dict_(*args, **kwargs):
    if len(args) > 1:
        raise GradTypeError(f"dict expected at most 1 argument, got {len(args)}")
    d = {}
    if args:
        src = args[0]
        pairs = src.items() if isinstance(src, dict) else _items(src)
        for i, p in enumerate(pairs):
            k, v = _pair(p, i)
            d[k] = v
    d.update(kwargs)
    return d


def _pair(p, i):
    """An item of dict(pairs) as Python takes it: any iterable of two, the key hashable."""
    if isinstance(p, (tuple, list, str)):
        items = list(p)
    elif isinstance(p, Tensor) or program_object(p) or hasattr(type(p), "language_iter"):
        items = list(_items(p))
    else:
        raise GradTypeError(f"cannot convert dictionary update sequence element #{i} to a sequence")
    if len(items) != 2:
        raise GradValueError(
            f"dictionary update sequence element #{i} has length {len(items)}; 2 is required"
        )
    try:
        hash(items[0])
    except TypeError:
        raise GradTypeError(f"unhashable type: '{type_name(items[0])}'") from None
    return items


def set_(iterable=(), /):
    try:
        return set(_items(iterable))
    except TypeError as e:
        raise GradTypeError(str(e)) from None


def frozenset_(iterable=(), /):
    try:
        return frozenset(_items(iterable))
    except TypeError as e:
        raise GradTypeError(str(e)) from None


def id_(obj, /):
    """Python's id: an int unique to the object while it lives (it reaches nothing)."""
    return id(obj)


def ascii_(obj, /):
    return show(obj).encode("ascii", "backslashreplace").decode("ascii")


# Python's types that stay out of the language: isinstance(v, complex) answers (False),
# a call is refused with the reason (README, "How gradcli differs from Python")
LEFT_OUT = {
    "complex": (complex, "complex numbers are not supported (gradcli has no complex type)"),
    "bytes": (bytes, "bytes are not supported (a program's text is str: it reads no files)"),
    "bytearray": (bytearray, "bytearray is not supported (a program's text is str)"),
    "memoryview": (memoryview, "memoryview is not supported (it reaches Python's memory)"),
}


def _left_out(name):
    def refuse(*args, **kwargs):
        raise GradError(LEFT_OUT[name][1], type_name="NotImplementedError")

    return refuse


def iter_(x, /):
    if program_object(x):
        return datamodel.iter_of(x)
    if hasattr(type(x), "language_remaining"):
        return x
    kind = "iterator object"
    if type(x) in (list, tuple, str, range, set, frozenset, dict):  # list_iterator ...
        kind = f"{type(iter(x)).__name__} object"
    return LazyIterator(iter(_each(x)), kind, plain_items(x))


def next_(it, /, *default):
    if program_object(it):
        try:
            return datamodel.next_of(it)
        except GradError as e:
            if default and datamodel.stop_iteration(e):
                return default[0]
            raise
    if not hasattr(type(it), "language_remaining"):
        raise GradTypeError(f"'{type_name(it)}' object is not an iterator")
    try:
        return next(it)
    except StopIteration:
        if default:
            return default[0]
        raise GradError("", type_name="StopIteration") from None


# torch.Tensor's special methods (dir(torch.Tensor) in torch 2.13)
_TENSOR_DUNDERS = frozenset(
    (
        "abs add and annotations array array_priority array_wrap bool class complex contains "
        "cuda_array_interface deepcopy delattr delitem dict dir div dlpack "
        "dlpack_c_exchange_api dlpack_device doc eq float floordiv format ge getattribute "
        "getitem getstate gt hash iadd iand idiv ifloordiv ilshift imod imul index init "
        "init_subclass int invert ior ipow irshift isub iter itruediv ixor le len long lshift "
        "lt matmul mod module mul ne neg new nonzero or pos pow radd rand rdiv reduce "
        "reduce_ex repr reversed rfloordiv rlshift rmatmul rmod rmul ror rpow rrshift rshift "
        "rsub rtruediv rxor setattr setitem setstate sizeof str sub subclasshook "
        "torch_dispatch torch_function truediv weakref xor"
    ).split()
)
_PLAIN = (int, float, bool, str, list, tuple, dict, set, frozenset, range, type(None))


def _has_dunder(obj, name):
    """hasattr(obj, "__len__") ...: Python's answer (a bool, never the attribute)."""
    if type(obj) is Tensor:
        return name[2:-2] in _TENSOR_DUNDERS
    if isinstance(obj, _PLAIN) or isinstance(obj, NUMPY_VALUES) or program_object(obj):
        return hasattr(obj, name)  # (a NumPy array, torch.Size: their types' own answer)
    if isinstance(obj, type) and (is_user_class(obj) or obj in _PLAIN):
        return hasattr(obj, name)
    try:
        rt.get_attr(obj, name)
    except GradError:
        return False
    return True


def hasattr_(obj, name):
    if isinstance(name, str) and len(name) > 4 and name[:2] == name[-2:] == "__":
        return _has_dunder(obj, name)
    try:
        rt.get_attr(obj, name)
    except GradError:
        return False
    return True


def getattr_(obj, name, *default):
    if not isinstance(name, str):
        raise GradTypeError("attribute name must be string")
    try:
        return rt.get_attr(obj, name)
    except GradError:
        if default:
            return default[0]
        raise


def setattr_(obj, name, value):
    if not isinstance(name, str):
        raise GradTypeError("attribute name must be string")
    rt.set_attr(obj, name, value)


def delattr_(obj, name):
    if not isinstance(name, str):
        raise GradTypeError("attribute name must be string")
    del_attr(obj, name)


def slice_(*args):
    if not 1 <= len(args) <= 3:
        raise GradTypeError(f"slice expected at least 1 argument, got {len(args)}")
    return slice(*args)


def super_(*args):
    if len(args) == 1:  # unbound: `super(C).__init__()` (Python's no-op in a method)
        return Super(args[0], None)
    if len(args) != 2:
        no_super()
    return Super(*args)


def hash_(x):
    """hash(x): Python's (an object of the program: its __hash__, checked by Python)."""
    return python_protocol(hash, x)


def format_(value, spec=""):
    """format(value, spec): what `f"{value:spec}"` gives."""
    if not isinstance(spec, str):
        raise GradTypeError(f"format() argument 2 must be str, not {type_name(spec)}")
    return rt.format_field(value, spec)


def callable_(x):
    return callable(x) and (not isinstance(x, type) or callable_class(x))


def _pythonic(name, py_meaning, when, three=None):
    """The built-in `name` with Python's meaning for values `when` picks (`three`: its
    meaning with three arguments, pow's)."""
    original = BUILTINS[name].fn

    def fn(*args, **kwargs):
        if three is not None and kwargs and set(kwargs) <= {"base", "exp", "mod"}:
            args, kwargs = _pow_arguments(args, kwargs), {}  # pow(2, exp=3): Python's names
        if three is not None and (len(args) == 3 or "mod" in kwargs):
            return three(*args, **kwargs)
        if args and when(args[0]):
            return py_meaning(*args, **kwargs)
        return original(*args, **kwargs)

    fn.__name__ = name
    fn.__wrapped__ = original  # its signature, for "did you mean" hints
    return fn


def _pow_arguments(args, kwargs):
    """pow's arguments by position, its keywords (base, exp, mod) placed as Python places them."""
    out = list(args)
    for pos, name in enumerate(("base", "exp", "mod"), 1):
        if name not in kwargs:
            continue
        if pos <= len(args):
            raise GradTypeError(f"argument for pow() given by name ('{name}') and position ({pos})")
        if len(out) < pos - 1:
            missing = ("base", "exp")[len(out)]
            raise GradTypeError(f"pow() missing required argument '{missing}' (pos {len(out) + 1})")
        out.append(kwargs[name])
    if len(out) < 2:
        missing = ("base", "exp")[len(out)]
        raise GradTypeError(f"pow() missing required argument '{missing}' (pos {len(out) + 1})")
    if len(out) == 3 and out[2] is None:
        out.pop()
    return tuple(out)


#: an int sum below this in size is the one runtime.binary_op gives (fast_ast.RESULT_BOUND)
_SUM_BOUND = 1 << 64


def _sum(iterable, start=0):
    add = _ADD.get("+")
    if add is None:  # (runtime.binary_op's `+`, its lookups made once)
        add = _ADD["+"] = rt.binary_op("+")
    return sum_items(add, iterable, start)


_ADD: dict = {}


def sum_items(add, iterable, start=0):
    """Python's sum of the items of `iterable` (counted as steps), `add` for the pairs
    that are not two floats or two ints (runtime.binary_op's function for `+`, or one
    with its answers: fast_builtins.py)."""
    total = start
    items = _each(iterable)
    if type(items) is LazyIterator:  # (its items are its generator's, one at a time)
        items = items.it
    for v in items:
        t = type(v)
        if t is type(total):  # two floats, two ints: runtime.binary_op's own answer
            if t is float:
                total = total + v
                continue
            if t is int:
                r = total + v
                if -_SUM_BOUND < r < _SUM_BOUND:
                    total = r
                    continue
        total = add(total, v)
    return total


def _is_number(x):
    return type(x) in (int, float, bool)


def _number_pow(*args, **kwargs):
    if len(args) == 2 and not kwargs and _is_number(args[1]):
        return rt.binary_op("**")(*args)
    return BUILTINS["pow"].fn(*args, **kwargs)  # anything else: the tensor op's words


def _pow3(base, exp, mod=None):
    """Python's pow(base, exp, mod): modular exponentiation of ints (bools count)."""
    if mod is None:
        return _number_pow(base, exp)
    args = (base, exp, mod)
    if all(type(v) in (int, bool) for v in args):
        try:
            return pow(base, exp, mod)
        except ValueError as e:
            raise GradValueError(str(e)) from None
    if all(_is_number(v) for v in args):
        raise GradTypeError("pow() 3rd argument not allowed unless all arguments are integers")
    raise GradTypeError(
        "unsupported operand type(s) for ** or pow(): "
        + ", ".join(f"'{type_name(v)}'" for v in args)
    )


def _extreme(name):
    """min/max of an iterable only the language can list (or of objects of the program)."""

    def run(*args, **kwargs):
        if len(args) == 1:
            return BUILTINS[name].fn(list(_items(args[0])), **kwargs)
        return BUILTINS[name].fn(*args, **kwargs)

    return run


def _has_tensor_items(x):
    return isinstance(x, (list, tuple)) and any(type(v) is Tensor for v in x)


def _len(x):
    if program_object(x):  # its __len__, as Python checks it
        return python_protocol(len, x)
    return len(x) if isinstance(x, (dict, set, frozenset, DictView)) else len(_items(x))


def _truths(py, whole):
    """Python's any / all: the truth of each item, a tensor's as Python iterates it (a
    1-D tensor's elements: `whole` of its array; a 0-d tensor is not iterable)."""

    def fn(iterable, /):
        if type(iterable) is Tensor:
            d = iterable.data
            if d.ndim == 0:
                raise GradTypeError("iteration over a 0-d tensor")
            if d.ndim == 1:
                return bool(whole(d))
        return py(truth(v) for v in _each(iterable))

    fn.__name__ = py.__name__
    return fn


def _list(x=()):
    items = bounded_list(iter(_items(x)), "the list")
    check_items(len(items), "the list")
    return items


def prelude():
    """name -> value of the built-ins above (the table's own entries are kept for the rest)."""
    ns = {
        "isinstance": isinstance_,
        "issubclass": issubclass_,
        "zip": zip_,
        "enumerate": enumerate_,
        "map": map_,
        "filter": filter_,
        "reversed": reversed_,
        "sorted": sorted_,
        "dict": dict_,
        "set": set_,
        "frozenset": frozenset_,
        "id": id_,
        **{name: _left_out(name) for name in LEFT_OUT},
        "ascii": ascii_,
        "iter": iter_,
        "next": next_,
        "hasattr": hasattr_,
        "vars": vars_,
        "getattr": getattr_,
        "setattr": setattr_,
        "super": super_,
        "delattr": delattr_,
        "slice": slice_,
        "callable": callable_,
        "hash": hash_,
        "format": format_,
        "type": type_of,
        "repr": show,
        "staticmethod": staticmethod,
        "classmethod": classmethod,
        "property": property,
        "sum": _pythonic("sum", _sum, lambda x: _items_only(x) or _has_tensor_items(x)),
        "len": _pythonic("len", _len, _lazy),
        "list": _pythonic("list", _list, _lazy),
        "tuple": _pythonic("tuple", lambda x=(): tuple(_list(x)), _lazy),
        "any": _truths(any, np.any),
        "all": _truths(all, np.all),
        "min": _pythonic("min", _extreme("min"), _items_only),
        "max": _pythonic("max", _extreme("max"), _items_only),
        # two plain numbers: Python's pow, as the ** operator computes it on numbers
        "pow": _pythonic("pow", _number_pow, _is_number, three=_pow3),
    }
    out = {k: BuiltinFunction(k, v) for k, v in ns.items()}
    out["object"] = LanguageObject
    out["__name__"] = "__main__"  # a program is the main module (`if __name__ == "__main__":`)
    out["NotImplemented"] = NotImplemented  # (a special method's "not for these operands")
    out["Ellipsis"] = Ellipsis  # (what `...` is)
    out.update(BUILTIN_TYPES)
    return out


_installed = set()


def install(builtins):
    """Add the prelude to a namespace of built-ins (once; the namespace is shared)."""
    if id(builtins) in _installed:
        return
    for name, py in (
        ("int", int),
        ("float", float),
        ("bool", bool),
        ("str", str),
        ("list", list),
        ("tuple", tuple),
        ("Tensor", Tensor),
        ("range", range),
    ):
        if name in builtins:
            _PY_TYPES[id(builtins[name])] = py
    new = prelude()
    builtins.update(new)
    for name, py in (
        ("list", list),
        ("tuple", tuple),
        ("dict", dict),
        ("set", set),
        ("frozenset", frozenset),
        ("type", type),  # isinstance(int, type)
        *((name, py) for name, (py, _) in LEFT_OUT.items()),
    ):
        _PY_TYPES[id(new[name])] = py
    install_classes(builtins)
    _installed.add(id(builtins))
