"""Room on the C stack for deep recursion, and the depth limits that fit in it.

A program's recursion runs as nested Python calls, and many of them go through C
(a user function called as an object, a generator resumed by `yield from`, a
built-in calling back: `sorted(key=f)`), each using C stack.  Python (3.11)
counts those calls against `sys.getrecursionlimit()` but never looks at the C
stack itself: with the limit high and the usual 8 MiB stack, a deep enough chain
overflows it and the process dies (SIGSEGV) instead of raising RecursionError.

Measured on gradcli's own call paths, a unit of the recursion limit uses at most
about 510 bytes of C stack (a user function called back by `sorted(key=...)`;
`yield from` chains about 430, plain calls about 125).  `deepen()` makes room for
RECURSION_LIMIT units at BYTES_PER_UNIT (four times that, for what is not
measured) plus HEADROOM for the C code at the deepest call (NumPy, BLAS): it
raises the soft stack limit, which on Linux lets the main thread's stack grow
that far, and where it cannot, lowers the recursion limit to what the stack holds.
`--max-depth` is capped at what that recursion limit allows a plain recursive
function (about 6 units a call).
"""

from __future__ import annotations

from typing import Any

import sys
import types

RECURSION_LIMIT = 20_000
BYTES_PER_UNIT = 2048
HEADROOM = 8 << 20
UNITS_PER_CALL = 20 / 3  # a plain user function's call: about 6 units, with a margin

_state: dict[str, Any] = {"limit": None}


def _stack_bytes():
    """The soft stack limit after trying to raise it to what RECURSION_LIMIT needs
    (None: unlimited or unknown)."""
    try:
        import resource
    except ImportError:  # not a POSIX system: Python's default limit is what it is
        return None
    need = RECURSION_LIMIT * BYTES_PER_UNIT + HEADROOM
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
        if soft != resource.RLIM_INFINITY and soft < need:
            target = need if hard == resource.RLIM_INFINITY else min(need, hard)
            resource.setrlimit(resource.RLIMIT_STACK, (target, hard))
            soft = target
    except (OSError, ValueError):
        return 8 << 20  # the usual default, assumed
    return None if soft == resource.RLIM_INFINITY else soft


def deepen() -> int:
    """Make room on the stack and set Python's recursion limit to what fits; the limit.
    Done once per process (later calls return the same limit)."""
    if _state["limit"] is None:
        stack = _stack_bytes()
        limit = RECURSION_LIMIT
        if stack is not None:
            limit = min(limit, max(1000, (stack - HEADROOM) // BYTES_PER_UNIT))
        sys.setrecursionlimit(limit)
        _state["limit"] = limit
    return _state["limit"]


def max_depth_cap() -> int:
    """The deepest --max-depth the C stack allows (user function calls)."""
    limit = _state["limit"] or sys.getrecursionlimit()
    return max(1, int(limit / UNITS_PER_CALL))


# ---------------------------------------------------------------- frames' room
#
# CPython (3.11 and later) keeps its Python frames on a stack of memory chunks of
# 16 KiB: a call that does not fit in the current chunk maps a new one (mmap), and
# the return that empties it unmaps it (munmap) at once.  A program's recursion runs
# many Python frames deep per call of the language, and where its depth goes up and
# down across a chunk's end (fib(n - 1) + fib(n - 2)), every call there maps and
# unmaps a chunk: recursive fib(20) spent more than half its time in those two
# system calls.  `in_room(fn, *args)` calls fn in a frame of ROOM_SLOTS slots, for
# which CPython maps one chunk of twice that size: the frames of everything fn runs
# fit in the other half (untouched pages cost no memory), one mmap per call of
# `in_room`.

ROOM_SLOTS = 1 << 19  # 4 MiB of frame slots: a chunk of 8 MiB, 4 MiB for the callees
TOUCHED = 800  # frames of `touch`: about 80 KiB of the callees' half made resident


def touch(n=TOUCHED):
    """Make the first pages of the frames' room resident (called first in `in_room`),
    so that a run counting its memory from then on (limits.not_the_programs) does not
    count the pages its first calls use, as it did not in the chunk they used before."""
    if n:
        touch(n - 1)


def _call(fn, *args):
    return fn(*args)


in_room = types.FunctionType(_call.__code__.replace(co_stacksize=ROOM_SLOTS), {}, "in_room")
in_room.__doc__ = "fn(*args), its frames in a chunk of their own (see above)."
