"""Methods of dicts and sets (the allowlist the language reaches them through)."""

from __future__ import annotations

from ..runtime.errors import GradRuntimeError, GradTypeError
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
    "issubset": lambda st, o: st.issubset(o),
    "issuperset": lambda st, o: st.issuperset(o),
}
