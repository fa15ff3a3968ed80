"""Forward-mode tangents attached to tensors, one per dual level.

The table lives here (below printing, which shows the tangent of the public
`forward_ad` level as PyTorch does: `tensor(..., tangent=tensor(...))`); the
forward-mode engine (gradcli/engine/forward.py) fills and reads it.  A tensor's
entry goes away with the tensor, so nothing is added to Tensor itself.
"""

from __future__ import annotations

import weakref

TANGENTS: dict = {}  # id(tensor) -> (weakref to it, {level: tangent Tensor})
SHOWN = [None]  # the level whose tangent printing shows (forward_ad's), or None


def tangents_of(t):
    """{level: tangent} of t, or None."""
    e = TANGENTS.get(id(t))
    if e is None or e[0]() is not t:
        return None
    return e[1]


def tangent_at(t, level):
    e = TANGENTS.get(id(t))
    if e is None or e[0]() is not t:
        return None
    return e[1].get(level)


def set_tangent(t, level, tangent):
    key = id(t)
    e = TANGENTS.get(key)
    if e is None or e[0]() is not t:
        e = TANGENTS[key] = (weakref.ref(t, lambda _r: TANGENTS.pop(key, None)), {})
    if tangent is None:
        e[1].pop(level, None)
    else:
        e[1][level] = tangent


def clear_level(level):
    """Drop every tangent of `level` (the level is exited)."""
    for key, (ref, d) in list(TANGENTS.items()):
        d.pop(level, None)
        if not d:
            TANGENTS.pop(key, None)


def shown_tangent(t):
    level = SHOWN[0]
    return None if level is None else tangent_at(t, level)
