"""Which tensors are `nn.Parameter`s.

A Parameter is an ordinary `Tensor` (the engine's fast paths test `type(x) is
Tensor`, so it cannot be a subclass); this table remembers which tensors were
made by `nn.Parameter(...)`, so that they print as `Parameter containing:` and
`isinstance(p, nn.Parameter)` holds.  Entries go when the tensor is freed."""

from __future__ import annotations

import weakref

_PARAMS: dict[int, weakref.ref] = {}


def mark(t):
    """Record tensor t as a Parameter (returns t)."""
    key = id(t)
    _PARAMS[key] = weakref.ref(t, lambda _r, key=key: _PARAMS.pop(key, None))
    return t


def is_parameter(t) -> bool:
    r = _PARAMS.get(id(t))
    return r is not None and r() is t


_UNINITIALIZED: dict[int, weakref.ref] = {}


def set_uninitialized(t, flag=True):
    """A lazy layer's Parameter before its first call (prints `<UninitializedParameter>`)."""
    key = id(t)
    if flag:
        _UNINITIALIZED[key] = weakref.ref(t, lambda _r, key=key: _UNINITIALIZED.pop(key, None))
    else:
        _UNINITIALIZED.pop(key, None)
    return t


def is_uninitialized(t) -> bool:
    r = _UNINITIALIZED.get(id(t))
    return r is not None and r() is t
