"""Methods of dicts, sets, strings and numbers (the allowlist the language reaches them
through)."""

from __future__ import annotations

from ..runtime.errors import GradRuntimeError, GradTypeError, GradValueError
from ..runtime.limits import check_items
from ..core.convert import type_name
from ..library.stdlib import DictView, LazyIterator
from .parser import Tree
from .iteration import iter_values
from .items import del_item, get_item, set_item


def _key(k):
    try:
        hash(k)
    except TypeError:
        raise GradTypeError(f"unhashable type: '{type_name(k)}'") from None
    return k


def _get(d, k, default=None):
    return d.get(_key(k), default)


def _pop(d, k, *default):
    try:
        return d.pop(_key(k), *default)
    except KeyError:
        raise GradRuntimeError(repr(k), type_name="KeyError") from None


def _popitem(d):
    try:
        return d.popitem()
    except KeyError:
        raise GradRuntimeError("'popitem(): dictionary is empty'", type_name="KeyError") from None


def _setdefault(d, k, default=None):
    check_items(len(d) + 1, "the dict")
    return d.setdefault(_key(k), default)


def _update(d, other=(), /, **kw):
    items = other.items() if isinstance(other, dict) else other
    for k, v in items:
        d[_key(k)] = v
    d.update(kw)
    check_items(len(d), "the dict")


def _set_add(st, v):
    check_items(len(st) + 1, "the set")
    st.add(_key(v))


def _set_update(st, *others):
    for o in others:
        if not isinstance(o, (set, frozenset, dict)):
            o = [_key(v) for v in o]
        check_items(len(st) + len(o), "the set")
        st.update(o)  # (a set's items merged as Python merges them: the same order)


def _set_pop(st):
    try:
        return st.pop()
    except KeyError:
        raise GradRuntimeError("'pop from an empty set'", type_name="KeyError") from None


def _remove(st, v):
    try:
        st.remove(_key(v))
    except KeyError:
        raise GradRuntimeError(repr(v), type_name="KeyError") from None


def _getitem(o, k):
    """o.__getitem__(k): o[k], a dict's missing key Python's KeyError."""
    try:
        return get_item(o, k)
    except KeyError:
        raise GradRuntimeError(repr(k), type_name="KeyError") from None


def _contains(o, k):
    return (_key(k) if isinstance(o, (dict, set, frozenset)) else k) in o


def _sized(o, *args):
    if args:  # (a method-wrapper of no arguments, in Python's words)
        raise GradTypeError(f"expected 0 arguments, got {len(args)}")
    return len(o)


# the special methods a program calls by name (`d.__setitem__` in a lambda, `key=d.__getitem__`)
_ITEMS = {"__getitem__": _getitem, "__contains__": _contains, "__len__": _sized}
_MUTABLE = {**_ITEMS, "__setitem__": set_item, "__delitem__": del_item}

DICT_METHODS = {
    **_MUTABLE,
    "keys": lambda d: DictView(d, "keys"),
    "values": lambda d: DictView(d, "values"),
    "items": lambda d: DictView(d, "items"),
    "get": _get,
    "pop": _pop,
    "setdefault": _setdefault,
    "update": _update,
    "copy": lambda d: d.copy(),
    "clear": lambda d: d.clear(),
    "popitem": _popitem,
}
SET_METHODS = {
    "__contains__": _contains,
    "__len__": _sized,
    "add": _set_add,
    "remove": _remove,
    "discard": lambda st, v: st.discard(_key(v)),
    "copy": lambda st: st.copy(),
    "clear": lambda st: st.clear(),
    "union": lambda st, *o: st.union(*o),
    "intersection": lambda st, *o: st.intersection(*o),
    "difference": lambda st, *o: st.difference(*o),
    "symmetric_difference": lambda st, o: st.symmetric_difference(o),
    "isdisjoint": lambda st, o: st.isdisjoint(o),
    "update": _set_update,
    "intersection_update": lambda st, *o: st.intersection_update(*o),
    "difference_update": lambda st, *o: st.difference_update(*o),
    "symmetric_difference_update": lambda st, o: st.symmetric_difference_update(o),
    "pop": _set_pop,
    "issubset": lambda st, o: st.issubset(o),
    "issuperset": lambda st, o: st.issuperset(o),
}


# ------------------------------------------------------------- lists, tuples and strings
# (runtime.LIST_METHODS and STR_METHODS add these to the ones they define)


def _most_common(c, n=None):
    if n is not None and not isinstance(n, int):
        raise GradTypeError(f"'{type_name(n)}' object cannot be interpreted as an integer")
    return c.most_common(n)


def _elements(c):
    for v in c.values():
        if isinstance(v, int) and v > 0:
            check_items(v, "the elements")
    return LazyIterator(c.elements(), "itertools.chain object")


def _subtract(c, other=(), /, **kw):
    if not isinstance(other, dict):
        other = iter_values(other)
    c.subtract(other, **kw)


def _counter_update(c, other=(), /, **kw):
    # (counts added, as Counter.update adds them, not replaced as dict.update does)
    if not isinstance(other, dict):
        other = [_key(v) for v in iter_values(other)]
    check_items(len(c) + len(other) + len(kw), "the Counter")
    c.update(other, **kw)


COUNTER_METHODS = {
    "most_common": _most_common,
    "elements": _elements,
    "subtract": _subtract,
    "update": _counter_update,
    "total": lambda c: c.total(),
}

FROZENSET_METHODS = {
    k: SET_METHODS[k]
    for k in (
        "__contains__",
        "__len__",
        "copy",
        "union",
        "intersection",
        "difference",
        "symmetric_difference",
        "isdisjoint",
        "issubset",
        "issuperset",
    )
}


def _one_argument(name, fn):
    """list.<name>(v) refusing another number of arguments in Python's words."""

    def method(lst, *args):
        if len(args) != 1:
            raise GradTypeError(f"list.{name}() takes exactly one argument ({len(args)} given)")
        return fn(lst, args[0])

    method.__name__ = name
    return method


def _list_extend(lst, items):
    items = list(items)
    check_items(len(lst) + len(items), "the list")
    lst.extend(items)


def _list_insert(lst, *args):
    if len(args) != 2:
        raise GradTypeError(f"insert expected 2 arguments, got {len(args)}")
    check_items(len(lst) + 1, "the list")
    lst.insert(*args)


def _list_remove(lst, v):
    try:
        lst.remove(v)
    except ValueError:
        raise GradValueError("list.remove(x): x not in list") from None


def _list_sort(lst, *, key=None, reverse=False):
    try:
        lst.sort(key=key, reverse=bool(reverse))
    except TypeError as e:
        raise GradTypeError(str(e)) from None


TUPLE_METHODS = {"count": tuple.count, "index": tuple.index}

LIST_MORE = {
    **_MUTABLE,
    "extend": _one_argument("extend", _list_extend),
    "insert": _list_insert,
    "remove": _one_argument("remove", _list_remove),
    "clear": lambda lst: lst.clear(),
    "copy": lambda lst: lst.copy(),
    "count": _one_argument("count", lambda lst, v: lst.count(v)),
    "reverse": lambda lst: lst.reverse(),
    "sort": _list_sort,
}


def _padded(method):
    """str.ljust, rjust, center, zfill: the width is held to the item limit first."""

    def pad(s, width, *fill):
        if isinstance(width, int):
            check_items(width, "the result", "characters")
        return method(s, width, *fill)

    return pad


def _expandtabs(s, tabsize=8):
    if isinstance(tabsize, int):  # (an upper bound of the result's size)
        check_items(len(s) + s.count("\t") * max(tabsize, 0), "the result", "characters")
    return s.expandtabs(tabsize)


def _translate(s, table):
    if not isinstance(table, dict):
        raise GradTypeError(f"'{type_name(table)}' object is not subscriptable")
    longest = max((len(v) for v in table.values() if isinstance(v, str)), default=1)
    check_items(len(s) * max(longest, 1), "the result", "characters")
    return s.translate(table)


def _maketrans(*args):
    if args and isinstance(args[0], dict):
        for k in args[0]:
            if not isinstance(k, (int, str)):
                raise GradTypeError("keys in translate table must be strings or integers")
    return str.maketrans(*args)


STR_MORE = {
    **_ITEMS,
    "expandtabs": _expandtabs,
    "translate": _translate,
    "isascii": str.isascii,
    "isdecimal": str.isdecimal,
    "isnumeric": str.isnumeric,
    "isprintable": str.isprintable,
    "istitle": str.istitle,
    "splitlines": str.splitlines,
    "rsplit": str.rsplit,
    "lstrip": str.lstrip,
    "rstrip": str.rstrip,
    "find": str.find,
    "rfind": str.rfind,
    "index": str.index,
    "rindex": str.rindex,
    "count": str.count,
    "partition": str.partition,
    "rpartition": str.rpartition,
    "removeprefix": str.removeprefix,
    "removesuffix": str.removesuffix,
    "isdigit": str.isdigit,
    "isalpha": str.isalpha,
    "isalnum": str.isalnum,
    "isspace": str.isspace,
    "isupper": str.isupper,
    "islower": str.islower,
    "isidentifier": str.isidentifier,
    "title": str.title,
    "capitalize": str.capitalize,
    "swapcase": str.swapcase,
    "casefold": str.casefold,
    "ljust": _padded(str.ljust),
    "rjust": _padded(str.rjust),
    "center": _padded(str.center),
    "zfill": _padded(str.zfill),
}


# int and float: their values (`(7).real`) and their methods (`(7).bit_length()`)
INT_ATTRS = {
    "real": lambda v: v.real,
    "imag": lambda v: v.imag,
    "numerator": lambda v: v.numerator,
    "denominator": lambda v: v.denominator,
}
FLOAT_ATTRS = {"real": lambda v: v.real, "imag": lambda v: v.imag}
INT_METHODS = {
    "bit_length": int.bit_length,
    "bit_count": int.bit_count,
    "as_integer_ratio": int.as_integer_ratio,
    "conjugate": int.conjugate,
}
FLOAT_METHODS = {
    "is_integer": float.is_integer,
    "hex": float.hex,
    "as_integer_ratio": float.as_integer_ratio,
    "conjugate": float.conjugate,
    "fromhex": lambda f, s: float.fromhex(s),  # ((2.5).fromhex: the class method's)
}


def _fromkeys(iterable, value=None):
    items = iter_values(iterable)
    check_items(len(items), "the dict")
    return {_key(k): value for k in items}


# methods of the type itself: dict.fromkeys(keys), float.fromhex("0x1p-2")
CLASS_METHODS = {
    dict: {"fromkeys": _fromkeys},
    float: {"fromhex": float.fromhex},
    str: {"maketrans": _maketrans},
}


# set displays of constants, in the order CPython's compiler gives them (both tiers)
def constant_item(node):
    """Whether a display's item is a constant to CPython's compiler (a literal, a signed
    number, a tuple of constants)."""
    if not isinstance(node, Tree):
        return False
    if node.data in ("number", "string", "true", "false", "none"):
        return True
    if node.data == "unary":
        return len(node.children) == 2 and constant_item(node.children[1])
    return node.data == "tuple_items" and all(constant_item(c) for c in node.children)


def constant_set(values):
    """A set display of more than two constants, in the order CPython's gives it: the
    compiler makes them one frozenset constant (made again from its own items when the
    code's constants are merged), and the display updates an empty set with it (an
    order that set(values) would not give)."""
    out = set()
    out.update(frozenset(tuple(frozenset(values))))
    return out
