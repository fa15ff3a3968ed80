"""Draws: the loops of a forward a replayed loop sees through
(`for exp in range(4, random.randint(4, 6)):`, through_shapes.through), whose iterable reads
none of the forward's parameters and locals: code of the program that runs outside the
plan.  Each such loop's iterable is compiled as `drawn` gives it: it is made as compiled
(noted, when an iteration is noted), or, in an iteration whose draws a replay made
ahead, taken from them (`DRAWS.queue`).

A replayed iteration (language/replay.py `Run._drawn`) makes the draws of its plan in
their order, each by its iterable's closure in a scope of the forward's globals, once
the checks have held and before the first statement, which is where the compiled
iteration makes them: only replayed assignments come before the last statement that
draws (replay_plan.py), and their ops run no code of the program.  What the draws gave
(each a range) picks the plan noted with those values (one per distinct draws, up to
MAX_KEYS; `Run.alts`); other values, an error or a value that is not a range run the
iteration as compiled with the draws already made handed to its loops in their order
(an error raised where the loop would have raised it), so the program's code runs
once, in the order and with the values the compiled loop gives it.
"""

from __future__ import annotations

from ..library.stdlib import StdModule
from ..library.values import Module as Namespace
from .functions import Scope
from .state import state

#: distinct draws a loop's run notes a plan for; others run as compiled
MAX_KEYS = 8


class _Draws:
    __slots__ = ("queue", "seen")

    def __init__(self):
        self.queue = None  # draws made ahead, the next last (a list), or None
        self.seen = None  # while an iteration is noted: [(site, scope, value)]


DRAWS = _Draws()


#: the end of a path of Run.tree: the draws of a noted iteration
END = object()


class Raised:
    """A draw made ahead that raised: raised again where the loop makes it."""

    __slots__ = ("error",)

    def __init__(self, error):
        self.error = error


def drawn(it, line, names):
    """The closure of a draw loop's iterable (`it`, compiled as the forward's; `names`:
    the globals it reads)."""
    site = (it, line, tuple(sorted(names)))

    def run(s):
        d = DRAWS
        q = d.queue
        if q:
            v = q.pop()
            if type(v) is Raised:
                raise v.error
        else:
            v = it(s)
        if d.seen is not None:
            d.seen.append((site, Scope(None, s.globals, s.depth, s.parent), v))
        return v

    return run


def make(tree):
    """The draws of an iteration made ahead (`tree`: Run.tree, [site, scope, body item,
    {value: the next node, or END}]): (((value, body item) ...) in order, up to the
    first that raised (a Raised) or that no noted iteration made after them, or up to
    the last; the values, when they were all noted in that order, else None; whether
    they are ranges no noted iteration made)."""
    out = []
    node = tree
    while True:
        (it, line, names), scope, at, after = node
        g = (scope.globals or scope).vars
        for name in names:
            if type(g.get(name, 0)) not in _PLAIN:  # (code of the program could run)
                return tuple(out), None, False
        state.line = line
        try:
            v = it(scope)
        except Exception as e:
            out.append((Raised(e), at))
            return tuple(out), None, False
        out.append((v, at))
        if type(v) is not range:
            return tuple(out), None, False
        node = after.get(v)
        if node is None:
            return tuple(out), None, True
        if node is END:
            return tuple(out), tuple(v for v, _ in out), False


#: what a draw's globals may hold for it to be made ahead (a built-in's name is unbound):
#: no code of the program runs, which could see a name a replayed statement made
_PLAIN = frozenset({int, float, bool, StdModule, Namespace})


def queued(values):
    """Hand draws made ahead to the loops that make them next (the compiled iteration)."""
    DRAWS.queue = values[::-1] if values else None


def settled():
    """The iteration ended: draws it did not take are let go."""
    DRAWS.queue = None
