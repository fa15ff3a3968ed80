"""Methods of dicts and sets (the allowlist the language reaches them through)."""

from __future__ import annotations

from ..runtime.errors import GradRuntimeError, GradTypeError, GradValueError
from ..runtime.limits import check_items
from ..core.convert import type_name
from ..library.stdlib import DictView


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


DICT_METHODS = {
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
    "extend": _list_extend,
    "insert": _list_insert,
    "remove": _list_remove,
    "clear": lambda lst: lst.clear(),
    "copy": lambda lst: lst.copy(),
    "count": lambda lst, v: lst.count(v),
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


STR_MORE = {
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
