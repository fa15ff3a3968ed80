"""What the running program reports to, in one place: the output sink, the line
being run, the loop-step count and the program's origin.  The session sets it
(Session.activate / Session.run); the compiler's closures, warnings and the
command line read it."""

from __future__ import annotations


class State:
    """The current run of the language (one per process; a session re-points it)."""

    __slots__ = ("out", "line", "steps", "origin", "ticks")

    def __init__(self):
        self.out = None  # output sink (gradcli.output)
        self.line = 0  # line of the statement being run
        self.steps = 0  # loop iterations so far (--max-steps)
        self.origin = None  # (file name, source text) of the program being run
        self.ticks = 0  # iterations until the next look at the run's memory (iteration.tick)

    def reset(self):
        self.line = self.steps = 0


state = State()
