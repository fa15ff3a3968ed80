"""The compiled code of engine/straight.py's functions, kept in the user's cache directory
from one run to the next.

Making a replayed graph's straight-line backward costs about 2 ms (its tree 0.9 ms, the
compile 1.1 ms), at the graph's fifth pass, in every run of a training loop; the code is
the same for the same key (the schedule's numbers, the leaves' order and the nodes'
`holds_saved`: `straight._make`'s key, whose text names only numbers, truth values and
classes) and the same straight.py.  So each code made is written (marshal, the format
Python's own .pyc files use) to a file named by a hash of that key, straight.py's text and
the interpreter's cache tag; a later run takes it from there at the graph's second pass
instead of building it.  The file holds the key's text too, checked before its code is
taken; a file that cannot be read or written costs only the making."""

from __future__ import annotations

import marshal
import os
import sys
from types import CodeType

try:
    from _blake2 import blake2b
except ImportError:  # (a Python built without it)
    from hashlib import blake2b

#: the most code files kept: a new one past it first removes the quarter used least
#: recently (a read marks its file used), so codes of an older straight.py or interpreter,
#: never read again, give way
MAX_FILES = 512
_tag: list = []  # straight.py's text and the interpreter, hashed once a process


def _folder():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "gradcli", "backward")


def _named(key):
    """(the key's text, its file) or None where the key's text would not name it the
    same in another run (an object's address)."""
    text = repr(key)
    if " at 0x" in text:
        return None
    if not _tag:
        h = blake2b(digest_size=8)
        with open(os.path.join(os.path.dirname(__file__), "straight.py"), "rb") as f:
            h.update(f.read())
        h.update(f"{sys.implementation.cache_tag} {marshal.version}".encode())
        _tag.append(h.digest())
    name = blake2b(text.encode() + _tag[0], digest_size=12).hexdigest()
    return text.encode(), os.path.join(_folder(), name + ".code")


def read(key):
    """The code kept for `key`, or None."""
    try:
        named = _named(key)
        if named is None:
            return None
        text, path = named
        with open(path, "rb") as f:
            data = f.read()
        if not data.startswith(text + b"\n"):
            return None
        code = marshal.loads(data[len(text) + 1 :])
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if type(code) is not CodeType:
        return None
    try:
        os.utime(path)  # (used now: the last to be removed, `_evict`)
    except OSError:
        pass
    return code


def _evict(folder, names):
    """Remove the quarter of the files in `folder` (`names`) used least recently."""
    dated = []
    for name in names:
        path = os.path.join(folder, name)
        try:
            dated.append((os.stat(path).st_mtime, path))
        except OSError:
            continue
    dated.sort()
    for _, path in dated[: max(1, len(dated) - MAX_FILES * 3 // 4)]:
        try:
            os.remove(path)
        except OSError:
            pass


def write(key, code):
    """Keep `code` for `key` (nothing where the folder cannot be written)."""
    try:
        named = _named(key)
        if named is None:
            return
        text, path = named
        folder = os.path.dirname(path)
        os.makedirs(folder, exist_ok=True)
        names = os.listdir(folder)
        if len(names) >= MAX_FILES:
            _evict(folder, names)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            f.write(text + b"\n" + marshal.dumps(code))
        os.replace(tmp, path)
    except (OSError, ValueError):
        pass
