"""Run-time guards: the memory cap, recursion depth, step budget, and the sizes of
the plain Python values (lists, strings, integers) a program makes.

The memory cap holds for the whole run (`check_total`): what the process holds
beyond what it held when the run began, tensors, strings, containers and
generators' values alike, plus what is about to be made.  The cheap measure is
the resident size (one read of /proc/self/statm, about 1.5 us); it can only
overstate what the program holds (freed memory glibc keeps for reuse, buffers of
the BLAS), so only when it says "over" is the C heap itself asked (mallinfo2:
what is in use), and the resident size is then taken as the new reference.
Checked before every big allocation (check_alloc, check_items, ...) and every
SAMPLE iterations of a loop, or up to SAMPLE_MAX while the run stays far below the cap
and the looks find it not growing (`look`, called by language/iteration.py `sample`).
An allocation within
half of what the last look left is let through without a look (`room`): many small
pieces of one string are not a read of /proc each.

Every guard raises `LimitError` *before* the big thing is made: NumPy commits
memory lazily, so catching MemoryError afterwards is not enough (the process
would be killed by the kernel first).
"""

from __future__ import annotations

import math
import os

from .errors import LimitError
from . import context
from . import heap
from .stack import max_depth_cap


def _limits():
    return context.current.limits


_HINT = "raise the cap with --max-memory if you mean it"


def _fmt(n):
    if n >= 1 << 50:
        return "more than 1 PiB"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024


def _shape_text(shape):
    text = str(tuple(shape))
    return text if len(text) <= 80 else text[:77] + "...)"


SAMPLE = 16  # loop iterations between two looks at the run's total, at first
SAMPLE_MAX = 1024  # ... and at most, while the looks find the run quiet (`look`)
QUIET = 1 << 20  # growth between two looks that keeps the next look as far, or further
SMALL = 1 << 16  # allocations below this are not worth a look of their own
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_statm: list = []  # the open /proc/self/statm (None: not Linux)


def _rss():
    """The process's resident bytes, or None where /proc is not there."""
    if not _statm:
        try:
            _statm.append(os.open("/proc/self/statm", os.O_RDONLY))
        except OSError:
            _statm.append(None)
    fd = _statm[0]
    if fd is None:
        return None
    return int(os.pread(fd, 64, 0).split()[1]) * _PAGE


def start_total(limits):
    """Keep the run's total from now on (the command line's runs; a run begun
    otherwise, a test's Session, checks each object against the cap alone)."""
    rss = _rss()
    if rss is not None:
        limits.base_rss = rss
        limits.base_used = heap.in_use() or 0
        limits.room = 0


def resident():
    """The process's resident bytes now (None where that is not known)."""
    return _rss()


def not_the_programs(limits, before):
    """The resident bytes gained since `before` (resident() then) are not the program's:
    the run's total, when kept, leaves them out (the pages of the frame chunk a program
    runs in: runtime/stack.in_room)."""
    if limits.base_rss is not None and before is not None:
        limits.base_rss += max(0, _rss() - before)


def look():
    """A loop's look at the run's total (check_total), every so many iterations; how
    many until the next one: twice as many as the last time (up to SAMPLE_MAX) when
    the resident size grew by less than QUIET since the last look and the run holds
    less than half its cap, else SAMPLE again.  A loop that keeps what it makes grows
    by QUIET within some SAMPLE_MAX iterations, or each of its iterations makes less
    than QUIET / SAMPLE_MAX bytes; a look is a read of /proc (some microseconds),
    which every SAMPLE iterations cost more than a plain loop's work."""
    limits = _limits()
    if limits.base_rss is None:
        return SAMPLE
    rss = _rss()
    check_total(0, rss=rss)
    last, limits.last_rss = limits.last_rss, rss
    if last is not None and rss - last < QUIET and rss - limits.base_rss < limits.max_memory // 2:
        limits.every = min(limits.every * 2, SAMPLE_MAX)
    else:
        limits.every = SAMPLE
    return limits.every


def check_total(extra=0, what="the result", rss=None):
    """Refuse making `extra` more bytes when the run would then hold more than the
    memory cap (with extra 0: when it already does); `rss`: the resident size, when
    just read."""
    limits = _limits()
    if limits.base_rss is None:
        return
    if extra and extra <= limits.room:  # within half of what the last look left
        limits.room -= extra
        return
    if rss is None:
        rss = _rss()
    cap = limits.max_memory
    grown = rss - limits.base_rss
    if grown + extra <= cap:
        limits.room = (cap - grown - extra) // 2
        return
    used = heap.in_use()
    if used is not None:
        used -= limits.base_used
        if used + extra <= cap:
            limits.base_rss = rss - max(used, 0)  # what the resident size overstates
            limits.room = (cap - used - extra) // 2
            return
    else:
        used = rss - limits.base_rss
    held = f"the program holds {_fmt(max(used, 0))}"
    if extra:
        raise LimitError(
            f"{what} needs {_fmt(extra)} and {held}: more than the memory cap of {_fmt(cap)}",
            hint=_HINT,
        )
    raise LimitError(f"{held}, more than the memory cap of {_fmt(cap)}", hint=_HINT)


def check_alloc(shape, itemsize=8):
    """Refuse a tensor over the memory cap before anything is allocated."""
    if type(shape) is tuple:  # (a small one of Python ints: nothing else to check)
        n = math.prod(shape)  # (a negative dim returns below too; NumPy's ints: not int)
        if type(n) is int and 0 <= n * itemsize < SMALL and n * itemsize <= _limits().max_memory:
            return
    shape = tuple(map(int, shape))
    if min(shape, default=0) < 0:
        return  # the caller reports negative sizes in its own words
    n = math.prod(shape) * itemsize
    if n > _limits().max_memory:
        raise LimitError(
            f"a tensor of shape {_shape_text(shape)} needs {_fmt(n)}, more than "
            f"the memory cap of {_fmt(_limits().max_memory)}",
            hint=_HINT,
        )
    if n >= SMALL:
        check_total(n, f"a tensor of shape {_shape_text(shape)}")


def check_reduction(shape, dim=None, itemsize=8):
    """Refuse reducing an empty tensor over some dims when the result would be over the cap:
    `zeros(0, 5 * 10**8).sum(0)` is 5e8 values (4 GB), while `.sum(1)` is empty and a
    whole reduction one value.  Dims the op will refuse are left to it."""
    if 0 not in shape or dim is None or isinstance(dim, bool):
        return
    try:
        reduced = {int(d) % len(shape) for d in (dim if isinstance(dim, (tuple, list)) else (dim,))}
    except (TypeError, ValueError, ZeroDivisionError):
        return
    check_alloc([n for i, n in enumerate(shape) if i not in reduced], itemsize)


def check_broadcast(*shapes, itemsize=8):
    """Refuse an element-wise result whose broadcast shape is over the memory cap
    (`ones(100000, 1) * ones(1, 100000)`).  Shapes that do not broadcast pass:
    the op itself reports the mismatch."""
    first = shapes[0]
    if len(shapes) == 2:  # (NumPy's broadcast_shapes costs a few microseconds)
        if shapes[1] == first:
            return  # same shapes: the result is no bigger than an input
        out = _broadcast2(first, shapes[1])
        if out is not None:
            check_alloc(out, itemsize)
        return
    if all(s == first for s in shapes):
        return
    import numpy as np

    try:
        out = np.broadcast_shapes(*shapes)
    except ValueError:
        return
    check_alloc(out, itemsize)


def _broadcast2(a, b):
    """np.broadcast_shapes(a, b) of two shapes, or None where they do not broadcast."""
    if len(a) < len(b):
        a, b = b, a
    k = len(a) - len(b)
    out = list(a)
    for i, m in enumerate(b):
        n = a[k + i]
        if m != n:
            if n == 1:
                out[k + i] = m
            elif m != 1:
                return None
    return tuple(out)


def check_objects(n, what, bytes_each=64):
    """Refuse turning a tensor into `n` Python objects (list(x), x.tolist(), `for r in x`)
    when they would take more than the memory cap, or more than max_items of them."""
    if n > _limits().max_items or n * bytes_each > _limits().max_memory:
        raise LimitError(
            f"{what} would make {n} Python objects (the limit is "
            f"{min(_limits().max_items, _limits().max_memory // bytes_each)})",
            hint="work on the tensor as a whole, or on a slice of it",
        )
    if n * bytes_each >= SMALL:
        check_total(n * bytes_each, what)


def check_items(n, what="the result", unit="elements"):
    """Refuse a list, tuple or string longer than max_items."""
    if n > _limits().max_items:
        raise LimitError(
            f"{what} would have {n} {unit}, more than the limit of {_limits().max_items}"
        )
    if n >= SMALL:
        check_total(8 * n, what)  # (a pointer or more each; a character, less)


def check_held(nbytes, what):
    """Refuse holding more than the memory cap in values gradcli keeps on its own
    (a generator's values are made before they are consumed)."""
    if nbytes > _limits().max_memory:
        raise LimitError(
            f"{what} would hold {_fmt(nbytes)}, more than the memory cap of "
            f"{_fmt(_limits().max_memory)}",
            hint=_HINT,
        )
    if nbytes >= SMALL:
        check_total(nbytes, what)


def check_format_spec(spec):
    """Refuse a format width or precision that would make a string over max_items
    (`"{:>9999999999}".format(1)`)."""
    if not spec:
        return
    digits = ""
    for ch in spec + " ":
        if ch.isdigit():
            digits += ch
            continue
        if digits and (len(digits) > 12 or int(digits) > _limits().max_items):
            raise LimitError(
                f"format spec {spec[:30]!r}: width or precision too large "
                f"(the limit is {_limits().max_items})"
            )
        digits = ""


def depth_hint():
    """What to say when recursion is too deep: raise --max-depth, or (at its cap)
    that the C stack allows no deeper."""
    cap = max_depth_cap()
    if _limits().max_depth < cap:
        return "raise it with --max-depth"
    return f"--max-depth is capped at {cap}: the C stack allows no deeper recursion"


def depth_exceeded():
    """The error for a user function called deeper than --max-depth."""
    return LimitError(
        f"maximum recursion depth exceeded ({_limits().max_depth} nested calls of user functions)",
        hint=depth_hint(),
    )
