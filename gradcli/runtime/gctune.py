"""Python's cyclic garbage collector, tuned for autograd graphs.

A graph is many small objects (a node and a tensor per op) with no reference
cycles: reference counting frees them, and the cyclic collector only re-scans
them.  With the default thresholds (700, 10, 10) a 100,000-op graph is scanned
over and over (about a third of the time of building it).  `tune()` moves what
start-up made (modules, tables) out of the collector's sight (`gc.freeze`) and
collects less often; cyclic garbage is still collected.

The command line starts with the collector off (`hold()`, from the package's
`__init__`): importing gradcli makes tens of thousands of objects and no cyclic
garbage, and the default thresholds scanned them (and NumPy's) over and over while
they were made, a twentieth of the instructions of a short run's start.  `tune()`
turns it back on.
"""

from __future__ import annotations

import gc

THRESHOLDS = (100_000, 50, 100)


_held = False


def hold():
    """Collector off until `tune()` (the command line's start: imports make no cycles)."""
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True


def tune():
    global _held
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    if _held:
        _held = False
        gc.enable()
