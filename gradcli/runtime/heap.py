"""The C heap's settings for big tensors (Linux with glibc; nothing elsewhere).

glibc serves a request above its mmap threshold (128 KiB, raised as blocks are
freed up to 32 MiB) with a fresh `mmap` and unmaps it on `free`: every page of a
new array then faults and is zeroed by the kernel on first touch.  A loop over
1e7 float64 values (80 MB arrays) spent more CPU time in those page faults (system
time, ~9 ms per array) than in its arithmetic.  `tune()`, called once
per run where the run is configured (`driver.configure`, beside `gctune.tune`),
has glibc serve blocks up to `KEEP` bytes from its heap and keep up to `KEEP` bytes
of freed memory at the heap's top, so a loop's arrays reuse the pages of the
previous iteration's.  Where a loop's arrays keep their sizes the peak is what
the live arrays need, as before; what changes is that freed memory is kept for
reuse during a run instead of returned at once, and arrays that keep growing can
leave freed holes too small for the next one (a higher peak: docs/developer/performance.md).  The REPL gives it back after
each input (`release()`: glibc's `malloc_trim`), so an idle REPL does not hold
the memory of a big tensor it no longer has.

Opt-out: `GRADCLI_NO_MALLOPT=1`; glibc's own settings win too (any of
`MALLOC_MMAP_THRESHOLD_`, `MALLOC_TRIM_THRESHOLD_`, `MALLOC_MMAP_MAX_`,
`MALLOC_TOP_PAD_` in the environment, or `glibc.malloc.*` in `GLIBC_TUNABLES`:
gradcli then leaves the allocator alone).  ctypes is already imported by NumPy at
start-up, so this costs no import.
"""

from __future__ import annotations

import ctypes
import os
import sys

#: blocks up to this size come from the heap, and this much freed memory at its top
#: is kept (above: glibc's own behaviour, an mmap per block, given back on free)
KEEP = 512 << 20
M_TRIM_THRESHOLD = -1  # glibc's <malloc.h> parameter numbers
M_MMAP_THRESHOLD = -3
GLIBC_VARS = (
    "MALLOC_MMAP_THRESHOLD_",
    "MALLOC_TRIM_THRESHOLD_",
    "MALLOC_MMAP_MAX_",
    "MALLOC_TOP_PAD_",
)
OPT_OUT = "GRADCLI_NO_MALLOPT"

_libc: list = []  # glibc once tune() has set it up, else empty


def wanted(environ=None) -> bool:
    """Whether gradcli should set the allocator (no opt-out, no glibc settings given)."""
    env = os.environ if environ is None else environ
    if env.get(OPT_OUT, "") not in ("", "0"):
        return False
    if any(k in env for k in GLIBC_VARS):
        return False
    return "glibc.malloc." not in env.get("GLIBC_TUNABLES", "")


def glibc():
    """The C library if it is glibc, else None (musl, macOS, Windows)."""
    try:
        version = os.confstr("CS_GNU_LIBC_VERSION")
    except (AttributeError, ValueError, OSError):
        return None
    if not version or not version.startswith("glibc"):
        return None
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
        libc.malloc_trim.argtypes = (ctypes.c_size_t,)
    except (OSError, AttributeError):
        return None
    return libc


def tune() -> bool:
    """Keep big blocks in the heap for reuse (once per process); whether it is set."""
    if _libc:
        return True
    if not wanted():
        return False
    libc = glibc()
    if libc is None:
        return False
    if libc.mallopt(M_MMAP_THRESHOLD, KEEP) != 1 or libc.mallopt(M_TRIM_THRESHOLD, KEEP) != 1:
        return False
    _libc.append(libc)
    return True


def release():
    """Give freed heap memory back to the system (the REPL, waiting for input)."""
    if _libc:
        _libc[0].malloc_trim(0)


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


_mallinfo: list = []  # glibc's mallinfo2, once looked up (None: not there)


def in_use():
    """Bytes the C heap has handed out and not had back (glibc's mallinfo2: blocks in
    use plus mmapped blocks) and Python's small objects, or None without glibc 2.33.  It walks the heap's free
    lists: tens of microseconds to a few milliseconds, for the rare careful check."""
    if not _mallinfo:
        libc = _libc[0] if _libc else glibc()
        fn = getattr(libc, "mallinfo2", None) if libc is not None else None
        if fn is not None:
            fn.restype = _MallInfo2
            fn.argtypes = ()
        _mallinfo.append(fn)
    fn = _mallinfo[0]
    if fn is None:
        return None
    info = fn()
    # Python's small objects (ints, floats, short tuples) live in its own arenas, not
    # the C heap: counted at 32 bytes a block (a float or an int is 24 to 32)
    return info.uordblks + info.hblkhd + 32 * sys.getallocatedblocks()
