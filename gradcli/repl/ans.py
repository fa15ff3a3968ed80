"""`_` and `ans`: the last value the REPL displayed (as Python's `_`, MATLAB's `ans`).

The REPL's session gets its own copy of the built-in names, and each value the
output shows for an expression statement is bound there as `_` and `ans`; a
variable of the same name (`for _ in ...`) shadows it, as in Python.
"""

from __future__ import annotations

NAMES = ("_", "ans")


def install(session):
    names = dict(session.builtins)
    session.builtins = names
    session.compiler.builtins = names
    out = session.out
    show = out.value

    def value(v, line):
        show(v, line)
        for n in NAMES:
            names[n] = v
        out.values_shown += 1  # the transcript notes which inputs bound `_` (for :save)

    out.values_shown = 0
    out.value = value
