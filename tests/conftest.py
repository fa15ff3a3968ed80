"""Helpers shared by the test files (imported as `from conftest import ...`):
running gradcli as a subprocess or in-process, and comparing a run with a golden
record from PyTorch."""

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import gradcli  # noqa: F401  (first: it sets NumPy's CPU dispatch before NumPy loads)
import numpy as np
import pytest

from gradcli.numerics import mkl

#: tests of MKL-backed exactness run only where the mkl package is installed
needs_mkl = pytest.mark.skipif(
    not mkl.available(),
    reason="the mkl package is not installed (pip install gradcli[exact]; the test extra has it)",
)


def digest(a):
    """A value's bytes (C order, little-endian) as a sha256: how goldens record arrays."""
    a = np.ascontiguousarray(a)
    return hashlib.sha256(a.astype(a.dtype.newbyteorder("<")).tobytes()).hexdigest()


ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
TIMEOUT = float(os.environ.get("GRADCLI_TEST_TIMEOUT", "60"))

# a message longer than this is matched on its first sentence only
LONG_MESSAGE = 60


def run_gradcli(source=None, args=("eval", "-"), timeout=TIMEOUT, cwd=None):
    """Run ``python -m gradcli ARGS`` in the repository root (or in ``cwd``, with this
    repository's gradcli imported all the same).

    ``source`` (str or None) is written to stdin.  Returns the
    ``subprocess.CompletedProcess`` (text mode: .returncode, .stdout, .stderr).
    """
    env = dict(os.environ)
    env["NO_COLOR"] = "1"
    env["PYTHONIOENCODING"] = "utf-8"
    env.pop("PYTHONSTARTUP", None)
    if cwd is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "gradcli", *args],
        input="" if source is None else source,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=str(ROOT if cwd is None else cwd),
        env=env,
        timeout=timeout,
    )


def replay_both(source, *flags):
    """A program's runs (run_inprocess) with replay and with `--no-replay`: (on, off)."""
    on = run_inprocess(source, ("eval", *flags, "-"))
    off = run_inprocess(source, ("eval", "--no-replay", *flags, "-"))
    return on, off


def replayed_iterations(monkeypatch, source):
    """How many iterations a program's loops replayed (calls of replay.Run._replay)."""
    from gradcli.language import replay

    count = [0]
    real = replay.Run._replay

    def counted(self, plan):
        count[0] += 1
        return real(self, plan)

    monkeypatch.setattr(replay.Run, "_replay", counted)
    run_inprocess(source)
    return count[0]


def run_inprocess(source, args=("eval", "-")):
    """Run gradcli's command line in this process (much faster than a subprocess),
    with stdin, stdout and stderr redirected and global state reset first."""
    import contextlib
    import io
    import types

    from gradcli.cli import main
    from gradcli.session import reset_globals

    reset_globals()
    out, err = io.StringIO(), io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(source.encode("utf-8")), encoding="utf-8")
    old_stdin = sys.stdin
    sys.stdin = stdin
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        sys.stdin = old_stdin
    return types.SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


class Run:
    """A program run in this process through a Session: its output, and the
    GradError it ended with (None when it ran to the end)."""

    def __init__(self, source):
        import contextlib
        import io

        from gradcli.runtime.errors import GradError
        from gradcli.output import TextOutput
        from gradcli.session import Session, reset_globals

        reset_globals()
        self.stream = io.StringIO()
        self.session = Session(TextOutput(self.stream), filename="<test>")
        self.error = None
        with contextlib.redirect_stderr(io.StringIO()):
            try:
                self.session.run(source)
            except GradError as e:
                self.error = e
        reset_globals()
        self.out = self.stream.getvalue()

    def value(self, name):
        return self.session.scope.vars[name]


def assert_refused(source, type_name=None, text=None):
    """`source` must end in gradcli's own error, with a line and column (and the
    given type name / text in its message)."""
    r = Run(source)
    e = r.error
    assert e is not None, f"{source!r} ran: {r.out!r}"
    assert isinstance(e.line, int) and isinstance(e.column, int), (source, e.message)
    if type_name is not None:
        assert e.type_name == type_name, (source, e.type_name, e.message)
    if text is not None:
        assert text in e.message, (source, e.message)
    return e


def run_cases(sources):
    """Run many programs in this process: {name: source} -> {name: result}.
    (tests/fidelity/test_examples.py runs the seed examples as real subprocesses.)"""
    return {name: run_inprocess(src) for name, src in sources.items()}


def squash(text):
    """Lower-case and collapse runs of whitespace to one space."""
    return re.sub(r"\s+", " ", text).strip().lower()


def error_needle(message):
    """The part of torch's error message gradcli's stderr must contain."""
    first = message.splitlines()[0] if message else ""
    if len(first) > LONG_MESSAGE:
        # first sentence: up to a period followed by whitespace or the end
        # (so "torch.Size" or "1.5" do not cut the message short)
        m = re.search(r"\.(\s|$)", first)
        if m:
            first = first[: m.start()]
    first = first.rstrip(". ")
    return squash(first)


def check_result(result, stdout, error, what="program", warnings=()):
    """Assert that a gradcli run matches a golden record: stdout, the error, and each
    warning torch gave (its text, without torch's "(Triggered internally at ...)")."""
    for w in warnings:
        text = w.split(" (Triggered internally at")[0]
        assert text in result.stderr, "%s: torch warned %r, not found in stderr:\n%s" % (
            what,
            text,
            result.stderr,
        )
    if error is None:
        assert result.stdout == stdout, "%s: stdout differs from torch's\n--- stderr ---\n%s" % (
            what,
            result.stderr,
        )
        assert result.returncode == 0, "%s: exit code %d\n--- stderr ---\n%s" % (
            what,
            result.returncode,
            result.stderr,
        )
    else:
        assert result.stdout == stdout, (
            "%s: stdout before the error differs from torch's\n--- stderr ---\n%s"
            % (what, result.stderr)
        )
        assert result.returncode == 1, (
            "%s: torch raised %s, expected exit code 1, got %d\n--- stderr ---\n%s"
            % (what, error["type"], result.returncode, result.stderr)
        )
        needle = error_needle(error["message"])
        assert needle in squash(result.stderr), (
            "%s: torch's message %r not found in stderr:\n%s" % (what, needle, result.stderr)
        )


def load_golden(name):
    with open(GOLDEN / name, encoding="utf-8") as fh:
        return json.load(fh)


@pytest.fixture(autouse=True)
def _fresh_run_context():
    """Every test starts in a fresh run context (grad mode on, default dtype, limits),
    whatever an earlier in-process run left active."""
    from gradcli.runtime import context

    context.activate(context.Context())
    yield


class _Capture:
    """What a run prints, kept as one string."""

    def __init__(self):
        self.text = ""

    def print(self, text):
        self.text += text


@pytest.fixture
def session_out(monkeypatch):
    """A fresh session whose printed output is captured: `session_out.text`."""
    from gradcli import session
    from gradcli.output import TextOutput

    s = session.Session(TextOutput())
    cap = _Capture()
    monkeypatch.setattr(s.context, "out", cap)
    return cap
