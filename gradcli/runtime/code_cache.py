"""gradcli's own modules read from one file of compiled code (start-up time).

Python imports a module of a package by trying its possible file names in the
package's folder and then reading its `.pyc` from `__pycache__`: about 0.2M
instructions a module before its code runs, and a run of the command line imports
about 300 of gradcli's.  The command line (`gradcli/__init__.py`) installs `Finder`
first on `sys.meta_path`: it knows each module's file and keeps the compiled code of
the modules earlier runs imported in one file (`__pycache__/gradcli-code.<tag>.bin`
in the package): its table of modules read once, and each module's code unmarshalled
straight from the file mapped into memory (neither a copy of the whole file nor one of
each module's bytes: 2 x 5 MB of fresh pages a start).  A module is found there only
while its source file has the size and modification time recorded with its code; any
other module, and any module whose source changed, is imported as Python imports it,
and `save()` (at the command line's exit) writes the file again with what was imported
that way.

The module is Python's own (`SourceFileLoader`: its `__file__`, `__cached__`,
`__spec__`, source for tracebacks and resources); only where its code comes from
differs.  Nothing is written where Python would write no bytecode
(`sys.dont_write_bytecode`, a folder that cannot be written).
"""

from __future__ import annotations

import _imp
import marshal
import mmap
import os
import sys
from importlib.machinery import ModuleSpec, SourceFileLoader
from importlib.util import MAGIC_NUMBER

#: the folder holding the package `gradcli` (its modules' files are named from here)
_BASE = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))
_PACKAGE = "gradcli"
_PREFIX = _PACKAGE + "."
_module_type = type(sys)
_FORMAT = 2  # the file's layout: a new layout ignores files of an older one
#: the file starts with the length of its table (then the table, then the modules' code)
_HEAD = 8


def _file_name():
    opt = sys.flags.optimize
    tag = sys.implementation.cache_tag + (f".opt-{opt}" if opt else "")
    return os.path.join(_BASE, _PACKAGE, "__pycache__", f"{_PACKAGE}-code.{tag}.bin")


class _Loader(SourceFileLoader):
    """Python's loader of a source file, given the module's compiled code."""

    def __init__(self, fullname, path, code):
        super().__init__(fullname, path)
        self._code = code

    def create_module(self, spec):
        """The module, with the file names Python's import gives it already set (so that
        its setting them finds them: no AttributeError made and dropped for each)."""
        module = _module_type(spec.name)
        if spec.origin is not None:
            module.__file__ = spec.origin
        if spec.cached is not None:
            module.__cached__ = spec.cached
        return module

    def get_code(self, fullname):
        code, self._code = self._code, None
        if code is None or fullname != self.name:
            return super().get_code(fullname)
        code = marshal.loads(code if type(code) is bytes else _code_bytes(code))
        _imp._fix_co_filename(code, self.path)  # (as Python's loader: a copied .pyc's code)
        return code


class Finder:
    """The meta-path finder of gradcli's modules whose code is in the file."""

    def __init__(self, entries):
        #: module name -> (file, cached file, is a package, st_mtime_ns, st_size, code):
        #: code the module's marshalled code, or where it is in the mapped file
        #: (offset, length)
        self.entries = entries
        self.missed: list[str] = []  # gradcli's modules left to Python's import

    def find_spec(self, name, path=None, target=None):
        entry = self.entries.get(name)
        if entry is None:
            if name.startswith(_PREFIX):
                self.missed.append(name)
            return None
        file, cached, is_package, mtime, size, code = entry
        try:
            st = os.stat(file)
        except OSError:
            st = None
        if st is None or st.st_mtime_ns != mtime or st.st_size != size:
            self.missed.append(name)
            return None
        spec = ModuleSpec(name, _Loader(name, file, code), origin=file, is_package=is_package)
        spec.has_location = True
        spec.cached = cached
        if is_package:
            spec.submodule_search_locations = [os.path.dirname(file)]
        return spec


_finder: Finder | None = None
#: the modules' code in the file, mapped (read only; kept for the process: a new file
#: replaces the file, never writes into it)
_view: memoryview | None = None


def _code_bytes(where):
    """The marshalled code at (offset, length) of the mapped code: a view, not a copy."""
    offset, length = where
    assert _view is not None
    return _view[offset : offset + length]


def _read(path):
    """The file's table of modules (its entries' code where the code lies in the file),
    with the file mapped for their code; {} where there is none or it is damaged."""
    global _view
    try:
        with open(path, "rb") as f:
            try:
                data: mmap.mmap | bytes = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError):  # empty, or where files cannot be mapped: read
                data = f.read()
    except OSError:  # none yet
        return {}
    view = memoryview(data)
    try:
        size = int.from_bytes(view[:_HEAD], "little")
        loaded = marshal.loads(view[_HEAD : _HEAD + size])
    except (ValueError, EOFError, TypeError):  # damaged
        return {}
    if not (
        type(loaded) is tuple
        and len(loaded) == 3
        and loaded[:2] == (_FORMAT, _BASE)
        and type(loaded[2]) is dict
        and size > 0
    ):
        return {}
    code = view[_HEAD + size :]
    try:
        if any(not 0 <= e[5][0] <= e[5][0] + e[5][1] <= len(code) for e in loaded[2].values()):
            return {}  # (cut short)
    except (TypeError, IndexError):
        return {}
    _view = code
    return loaded[2]


def install():
    """Put the finder first on sys.meta_path, with the code the file holds (if any)."""
    global _finder
    _finder = Finder(_read(_file_name()))
    sys.meta_path.insert(0, _finder)


def _compiled(module):
    """The entry of a module Python imported from its source file: its code as
    marshalled bytes, from the .pyc Python wrote for it (None when there is none that
    matches the source)."""
    spec = module.__spec__
    file, cached = spec.origin, spec.cached
    if not file or not file.endswith(".py") or not cached:
        return None
    try:
        st = os.stat(file)
        with open(cached, "rb") as f:
            pyc = f.read()
    except OSError:
        return None
    if (
        pyc[:4] != MAGIC_NUMBER
        or int.from_bytes(pyc[4:8], "little") != 0  # (checked by its source's time and size)
        or int.from_bytes(pyc[8:12], "little") != int(st.st_mtime) & 0xFFFFFFFF
        or int.from_bytes(pyc[12:16], "little") != st.st_size & 0xFFFFFFFF
    ):
        return None
    is_package = spec.submodule_search_locations is not None
    return (file, cached, is_package, st.st_mtime_ns, st.st_size, pyc[16:])


def save():
    """Write the file again when gradcli's modules were imported outside it this run
    (quietly not, when interrupted or when the file cannot be written)."""
    try:
        _save()
    except KeyboardInterrupt:
        pass


def _save():
    if _finder is None or not _finder.missed or sys.dont_write_bytecode:
        return
    outside = [
        (name, sys.modules[name])
        for name in _finder.missed
        if name in sys.modules
        and type(getattr(sys.modules[name].__spec__, "loader", None)) is SourceFileLoader
    ]
    if not outside:
        return
    entries = {
        name: entry if type(entry[5]) is bytes else entry[:5] + (bytes(_code_bytes(entry[5])),)
        for name, entry in _finder.entries.items()
    }
    for name, module in outside:
        entry = _compiled(module)
        if entry is None:
            entries.pop(name, None)
        else:
            entries[name] = entry
    path = _file_name()
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(_layout(entries))
        os.replace(tmp, path)
    except BaseException as e:  # (an interrupt too: no file left half written)
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if not isinstance(e, OSError):
            raise


def _layout(entries):
    """The file's bytes: the table's length, the table (each entry's code given as where
    it lies in what follows), the modules' code one after another."""
    table, codes, offset = {}, [], 0
    for name, entry in entries.items():
        code = entry[5]
        table[name] = entry[:5] + ((offset, len(code)),)
        codes.append(code)
        offset += len(code)
    head = marshal.dumps((_FORMAT, _BASE, table))
    return len(head).to_bytes(_HEAD, "little") + head + b"".join(codes)
