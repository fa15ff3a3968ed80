"""The modes ops run under, in one place: what `Function.apply` / `apply2`
(engine/function.py) consult.

A mode is a layer around the making of a node.  There are three kinds, and each has a
fixed place in the nesting, whatever order they were opened in (outermost first):

* a recorder (engine/replay.py `recording`): notes every op applied, for a replayed
  loop body.  It runs alone: a replayed plan assumes plain ops, so when another layer
  opens while it is on, the recording is spoiled (`spoiled`) and notes nothing more;
* saved-tensor hooks (engine/saved.py): the pack hook called on what the node saved,
  once the op and its tangents are made;
* forward-mode levels (engine/forward.py): tangents computed beside the output, for the
  levels visible now (while the tangent of level L is computed, only the levels below L).

Each active layer is an object in its slot of `state`, set by the module that owns it;
`state.on` says whether any is: the one test the plain path pays.  Nothing here changes
a function or a class: opening or closing a mode is a change of this state.
"""

from __future__ import annotations


class Modes:
    """The active layers.  `recorder`: an object with `note(cls, args, params, out)` and
    `spoiled`; `packer`: an object with `after(out)` (pack what out's node saved);
    `dual`: an object with `apply(cls, args, params)` (the op with its tangents);
    `levels`: the open forward-mode levels, outermost first (what a create_graph
    backward gives a saved output's tangents for: engine/autograd.py)."""

    __slots__ = ("on", "recorder", "packer", "dual", "levels")

    def __init__(self):
        self.on = False
        self.recorder = None
        self.packer = None
        self.dual = None
        self.levels = []


state = Modes()


def refresh():
    """`state.on` again after a layer was set or cleared; a recorder that is not alone
    any more is spoiled (what runs from now on is not a plain op)."""
    s = state
    rec = s.recorder
    if rec is not None and (s.packer is not None or s.dual is not None):
        rec.spoiled = True
        s.recorder = rec = None
    s.on = rec is not None or s.packer is not None or s.dual is not None


def set_recorder(rec):
    state.recorder = rec
    refresh()


def set_packer(packer):
    state.packer = packer
    refresh()


def set_dual(dual):
    state.dual = dual
    refresh()
