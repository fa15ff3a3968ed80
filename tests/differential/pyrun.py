"""Run tests/differential/pygen.py's programs under the CPython running this (in this
process, each in a fresh namespace) and under gradcli (with and without the fast tier),
compare what they print and how they end, and shrink a program that differs.

A result is ``{"stdout", "error": (type, message) or None, "status"}``, status one of
``ok``, ``error``, ``crash`` (gradcli failed with something else than its own error),
``hang``."""

from __future__ import annotations

import ast
import contextlib
import io
import signal
import sys
import warnings

TIMEOUT = 10.0


class _Hang(BaseException):
    """Raised by the alarm (a BaseException: no `except Exception` catches it)."""


def _alarm(signum, frame):
    raise _Hang()


@contextlib.contextmanager
def _limited(timeout):
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run_cpython(source, timeout=TIMEOUT):
    buf = io.StringIO()
    error, status = None, "ok"
    try:
        with (
            _limited(timeout),
            contextlib.redirect_stdout(buf),
            contextlib.redirect_stderr(io.StringIO()),
            warnings.catch_warnings(),
        ):
            warnings.simplefilter("ignore")
            code = compile(source, "<program>", "exec")
            exec(code, {"__name__": "__main__"})  # noqa: S102 - the generator's own programs
    except _Hang:
        status = "hang"
    except Exception as e:  # noqa: BLE001 - the program's own error, compared
        error, status = (type(e).__name__, str(e)), "error"
    return {"stdout": buf.getvalue(), "error": error, "status": status}


def run_gradcli(source, fast=True, timeout=TIMEOUT):
    from gradcli.output import TextOutput
    from gradcli.runtime import context
    from gradcli.runtime.errors import GradError
    from gradcli.session import Session, reset_globals

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))  # as the CLI does
    reset_globals()
    buf = io.StringIO()
    error, status = None, "ok"
    try:
        with (
            _limited(timeout),
            contextlib.redirect_stdout(buf),
            contextlib.redirect_stderr(io.StringIO()),
            warnings.catch_warnings(),
        ):
            warnings.simplefilter("ignore", RuntimeWarning)
            ctx = context.Context()
            ctx.fast_tier = fast
            Session(TextOutput(buf), filename="<program>", ctx=ctx).run(source)
    except GradError as e:
        error, status = (e.type_name, e.message), "error"
        if e.type_name == "InternalError" or "internal error" in e.message:
            status = "crash"
    except _Hang:
        status = "hang"
    except Exception as e:  # noqa: BLE001 - a crash is a finding
        error, status = (type(e).__name__, str(e)), "crash"
    finally:
        reset_globals()
    return {"stdout": buf.getvalue(), "error": error, "status": status}


def classify(py, g):
    """None when gradcli printed what CPython printed and ended as it did, else the kind
    of difference: ``crash``, ``hang``, ``output``, ``missed error``, ``refusal``,
    ``error text``."""
    if g["status"] in ("crash", "hang"):
        return g["status"]
    if py["stdout"] != g["stdout"]:
        return "output"
    if py["error"] == g["error"]:
        return None
    if py["error"] is None:
        return "refusal"
    if g["error"] is None:
        return "missed error"
    return "error text"


def compare(source, py=None):
    """[(tier, kind, gradcli's result)] of each tier whose run differs from CPython's."""
    py = py or run_cpython(source)
    out = []
    for tier, fast in (("fast", True), ("closures", False)):
        g = run_gradcli(source, fast)
        kind = classify(py, g)
        if kind is not None:
            out.append((tier, kind, g))
    return py, out


# ------------------------------------------------------------------ shrinking


def _statements(tree, top):
    """The statement nodes (only the top level's when `top`), last-starting first, each
    with whether it is alone in its block."""
    out = []
    for node in [tree] if top else ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            body = getattr(node, name, None)
            if isinstance(body, list):
                out += [(s, len(body) == 1) for s in body if isinstance(s, ast.stmt)]
    for h in [] if top else [n for n in ast.walk(tree) if isinstance(n, ast.ExceptHandler)]:
        out += [(s, len(h.body) == 1) for s in h.body]
    return sorted(out, key=lambda sa: (-sa[0].lineno, -sa[0].col_offset))


def _without(lines, node, alone):
    a, b = node.lineno - 1, node.end_lineno
    if node.col_offset != len(lines[a]) - len(lines[a].lstrip()):
        return None  # (a statement after `;` or sharing a line: left alone)
    keep = [" " * node.col_offset + "pass\n"] if alone else []
    return "".join(lines[:a] + keep + lines[b:])


def minimise(source, tier, kind, budget=400, gradcli_run=None):
    """A shorter program whose `tier` run still differs from CPython's in the same way:
    statements are dropped while that holds (the top level's first, then at any depth;
    from the last up, so that what is left above keeps its lines), `pass` put where a
    block would be left empty."""
    fast = tier == "fast"
    gradcli_run = gradcli_run or run_gradcli

    def still(src):
        try:
            ast.parse(src)
        except SyntaxError:
            return False
        py = run_cpython(src)
        if py["status"] == "hang":
            return False
        return classify(py, gradcli_run(src, fast)) == kind

    tries = 0
    changed = True
    while changed and tries < budget:
        changed = False
        for top in (True, False):
            below = None  # (line, column) of the last statement tried
            while tries < budget:
                tree = ast.parse(source)
                todo = [
                    (n, alone)
                    for n, alone in _statements(tree, top)
                    if below is None or (n.lineno, n.col_offset) < below
                ]
                todo = [(n, alone) for n, alone in todo if not isinstance(n, ast.Pass)]
                if not todo:
                    break
                node, alone = todo[0]
                below = (node.lineno, node.col_offset)
                trial = _without(source.splitlines(keepends=True), node, alone)
                if trial is None or trial == source:
                    continue
                tries += 1
                if still(trial):
                    source = trial
                    changed = True
    return source
