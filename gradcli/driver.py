"""The driver: what the command line, the REPL and the notebook kernel share to run
programs: reading sources, turning options into a run context, making a session,
binding `--set` values, running sources and reporting their errors.  Nothing here
parses the command line, and nothing imports `gradcli.cli`."""

from __future__ import annotations

import os
import sys

from .language.parser import Tree

from .runtime import context
from .numerics import native
from .runtime.gctune import tune as tune_gc
from .runtime.heap import tune as tune_heap
from .runtime.limits import start_total
from .runtime.settings import Settings
from .runtime.stack import deepen, max_depth_cap
from .runtime.errors import GradError, Interrupted, did_you_mean, fill_column
from .core import dtypes
from .core.convert import to_array
from .core.tensor import Tensor
from .language.state import state
from .language.parser import parse
from .output import JsonOutput, TextOutput
from .session import Session


class UsageError(Exception):
    pass


MAX_SOURCE = 64 << 20  # bytes of one program (or notebook) read


def _read_bounded(f, name):
    """The bytes of `f`, in chunks: binary input (a NUL byte) and input over
    MAX_SOURCE are refused as soon as they are seen (`gradcli eval /dev/zero`)."""
    chunks, size = [], 0
    while True:
        chunk = f.read(1 << 20)
        if not chunk:
            return b"".join(chunks)
        if b"\x00" in chunk:
            raise UsageError(f"{name}: binary input (NUL byte)")
        size += len(chunk)
        if size > MAX_SOURCE:
            raise UsageError(f"{name}: more than {MAX_SOURCE >> 20} MiB: too big for a program")
        chunks.append(chunk)


def read_source(path) -> tuple[str, str]:
    """(filename, text): UTF-8 (a BOM is dropped), CRLF made LF; at most MAX_SOURCE."""
    if path == "-":
        name = "<stdin>"
        data = _read_bounded(sys.stdin.buffer, name) if sys.stdin is not None else b""
    else:
        if os.path.isdir(path):
            raise UsageError(f"cannot read {path}: it is a directory")
        name = path
        try:
            with open(path, "rb") as f:
                data = _read_bounded(f, name)
        except OSError as e:
            hint = ""
            if not os.path.splitext(path)[1] and not os.path.exists(path):
                d = did_you_mean(path, ["eval"])
                hint = f" ({d[:-1]} as in 'gradcli eval FILE'?)" if d else ""
            raise UsageError(f"cannot read {path}: {e.strerror or e}{hint}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UsageError(f"{name}: not UTF-8 text (byte {e.start})")
    if "\x00" in text:
        raise UsageError(f"{name}: binary input (NUL byte)")
    return name, text.replace("\r\n", "\n").replace("\r", "\n")


def configure(args) -> context.Context:
    """A fresh run context with the settings given on the command line (runtime/settings.py
    checks them)."""
    settings = Settings.of(args)
    wrong = settings.check()
    if wrong is not None:
        raise UsageError(wrong)
    ctx = context.Context()
    ctx.default_float = dtypes.NAMES[settings.dtype]
    ctx.precision = settings.precision
    ctx.limits.max_memory = settings.memory_bytes()
    deepen()  # room on the C stack, and Python's recursion limit that fits in it
    ctx.limits.max_depth = min(settings.max_depth, max_depth_cap())
    ctx.limits.max_steps = settings.max_steps
    ctx.replay = settings.replay
    ctx.fast_tier = settings.fast_tier
    tune_gc()  # collect less often: graphs have no cycles
    tune_heap()  # big arrays reuse freed pages (glibc)
    native.preload()  # cached native loops, and arrays aligned as PyTorch's storages
    ctx.seed = settings.seed
    return ctx


def make_session(args, echo_assign=False, ctx: context.Context | None = None) -> Session:
    """A session writing text or JSON lines as `args` say, running in `ctx` (by default
    a fresh context configured from `args`)."""
    cls = JsonOutput if args.json else TextOutput
    session = Session(
        cls(quiet=args.quiet, echo_assign=echo_assign),
        ctx=ctx if ctx is not None else configure(args),
    )
    start_total(session.context.limits)  # the run's memory is counted from here
    return session


def _set_target(item):
    """NAME of a `--set NAME=VALUE` item, after checking that it is exactly one
    assignment to one name (the value is any expression of the language)."""
    name, eq, value = item.partition("=")
    name = name.strip()
    if not eq or not name.isidentifier() or not value.strip():
        raise UsageError(f"--set wants NAME=VALUE, got {item!r}")
    if "\n" in value or "\r" in value:
        raise UsageError("--set VALUE must be one line")
    try:
        tree = parse(item)
    except GradError:
        return name, False  # run it anyway: the syntax error is reported with a caret
    stmts = [c for c in tree.children if isinstance(c, Tree)]
    smalls = (
        [c for c in stmts[0].children if c is not None]
        if len(stmts) == 1 and stmts[0].data == "simple_stmt"
        else []
    )
    ok = (
        len(smalls) == 1
        and smalls[0].data == "assign"
        and len(smalls[0].children) == 2
        and isinstance(smalls[0].children[0], Tree)
        and smalls[0].children[0].data == "name"
    )
    if not ok:
        raise UsageError(f"--set wants NAME=VALUE with one expression as VALUE, got {item!r}")
    return name, True


def _set_value(v):
    """A list given to --set becomes a tensor; whole numbers become the default
    float dtype, as in a calculator (`--set x=[1,2,3]` is tensor([1., 2., 3.]))."""
    if not isinstance(v, list):
        return v
    try:
        a = to_array(v)
    except GradError:
        return v
    if a.dtype.kind in "iu":
        a = a.astype(context.current.default_float)
    return Tensor(a)


def apply_sets(session, sets):
    """Bind each `--set NAME=VALUE` in order; returns an exit code (0 if all went well)."""
    for item in sets:
        name, _ = _set_target(item)
        try:
            session.run(item + "\n", filename="--set")
        except GradError as e:
            fill_column(e, item)
            session.report(e, item)
            return e.exit_code
        except KeyboardInterrupt:
            return 130
        session.scope.vars[name] = _set_value(session.scope.vars.get(name))
    return 0


def usage_error(message, as_json=False) -> int:
    """Report bad usage (exit 2): on stderr, and as an error record under --json."""
    sys.stderr.write(f"gradcli: error: {message}\n")
    sys.stderr.flush()
    if as_json:
        import json  # only here and under --json (start-up time)

        sys.stdout.write(
            json.dumps(
                {
                    "kind": "error",
                    "line": None,
                    "column": None,
                    "type": "UsageError",
                    "message": str(message),
                    "hint": None,
                    "file": None,
                }
            )
            + "\n"
        )
        sys.stdout.flush()
    return 2


def is_notebook(name, text) -> bool:
    """A FILE named .ipynb, or stdin holding a notebook's JSON: a program (or -e CODE)
    may start with '{' too (a dict literal or comprehension)."""
    if name.endswith(".ipynb"):
        return True
    if name != "<stdin>" or not text.lstrip().startswith("{"):
        return False
    import json  # only for stdin that starts with '{' (start-up time)

    try:
        nb = json.loads(text)
    except ValueError:
        return False
    return isinstance(nb, dict) and "cells" in nb


def _notebook(session, name, text, debug, check, as_json):
    """Run (or with `check`, check) a Jupyter notebook; the exit code."""
    # imported here, for notebooks only (start-up time: json, dataclasses; difflib for
    # `gradcli check`); tests/architecture/test_layers.py allows these imports (LAZY_IMPORTS)
    from .notebook import NotebookError, run_notebook

    try:
        if check and not is_notebook(name, text):
            raise NotebookError(
                f"check runs notebooks (.ipynb): {name} is not one "
                "(run a program with gradcli eval)"
            )
        if check:
            from .notebook_check import check_notebook

            return check_notebook(session, name, text, as_json, debug)
        return run_notebook(session, name, text, debug)
    except NotebookError as e:
        return usage_error(e, as_json)


def run_sources(session, sources, debug=False, check=False, as_json=False):
    """Run each (filename, text) in turn, sharing variables; returns the exit code.
    A notebook (a .ipynb FILE, or a notebook's JSON on stdin) runs cell by cell."""
    for name, text in sources:
        if check or is_notebook(name, text):
            code = _notebook(session, name, text, debug, check, as_json)
            if code:
                return code
            continue
        try:
            session.run(text, filename=name)
        except GradError as e:
            fill_column(e, e.origin[1] if e.origin else text)
            session.report(e, text)
            return e.exit_code
        except KeyboardInterrupt:
            err = Interrupted("interrupted", state.line or None)
            fill_column(err, text)
            session.filename = name
            session.report(err, text)
            return 130
        except Exception as e:  # a bug in gradcli: still no traceback unless --debug
            if debug:
                raise
            err = GradError(
                f"internal error: {type(e).__name__}: {e}",
                state.line or None,
                type_name="InternalError",
            )
            fill_column(err, text)
            session.report(err, text)
            return 1
    return 0
