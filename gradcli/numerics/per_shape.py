"""Tables made from sizes alone (a convolution's or a pooling's window indices, oneDNN's
offsets and the threads' shares), kept for their arguments: a loop calls the same layer
on the same shapes every step, and the tables cost more than the arithmetic of a small
layer."""

from __future__ import annotations

import numpy as np

#: at most this many argument tuples kept by one memo, and this many values in one result
ENTRIES, VALUES = 32, 1 << 18


def memo():
    """A decorator keeping fn(*args) (hashable arguments; a tuple result) for its
    arguments, in a store of its own shared by the functions it decorates: small results
    only (at most VALUES values in their arrays), their arrays made read-only (they are
    shared); the store is emptied when it holds ENTRIES results."""
    store: dict = {}

    def per_shape(fn):
        def kept(*args):
            key = (fn.__name__, args)
            got = store.get(key)
            if got is None:
                got = fn(*args)
                arrays = [a for a in got if isinstance(a, np.ndarray)]
                if sum(a.size for a in arrays) <= VALUES:
                    for a in arrays:
                        a.setflags(write=False)
                    if len(store) >= ENTRIES:
                        store.clear()
                    store[key] = got
            return got

        kept.__name__, kept.__qualname__, kept.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__
        return kept

    return per_shape
