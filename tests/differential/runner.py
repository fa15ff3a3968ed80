"""Run programs under PyTorch and gradcli, compare what they print, classify and shrink.

* ``TorchWorker``: one process of a Python with torch running tests/differential/torch_half.py,
  fed many programs (each in a fresh namespace, from the same state and seed);
* ``run_gradcli``: one program in this process, as ``gradcli eval`` runs it;
* ``classify``: None when both print the same (and fail alike), else the kind of the
  first difference: ``wrong value``, ``wrong grad``, ``grad_fn name``, ``last bit``,
  ``error text``, ``missed error``, ``refusal``, ``crash``, ``hang`` or ``output``;
* ``minimise``: drops top-level statements while the difference keeps its kind.

Outputs are compared record by record: a record starts at a line led by one of the
generator's labels (``val:``, ``grad:``, ``fn:``, ``err:``).
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import math
import os
import re
import signal
import subprocess
import sys
import threading
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TIMEOUT = 10.0

KINDS = (
    "wrong value",
    "wrong grad",
    "grad_fn name",
    "last bit",
    "error text",
    "missed error",
    "refusal",
    "crash",
    "hang",
    "output",
)


AVX2 = {
    "ATEN_CPU_CAPABILITY": "avx2",
    "MKL_ENABLE_INSTRUCTIONS": "AVX2",
    "ONEDNN_MAX_CPU_ISA": "AVX2",
}


def torch_python():
    """The Python that has torch: $GRADCLI_TORCH_PYTHON, else this one if it has torch,
    else None (the differential test is then skipped)."""
    env = os.environ.get("GRADCLI_TORCH_PYTHON")
    if env:
        return env
    try:
        import importlib.util

        if importlib.util.find_spec("torch") is not None:
            return sys.executable
    except (ImportError, ValueError):
        pass
    return None


class TorchWorker:
    """A long-lived torch process; programs go in as JSON lines, results come out."""

    def __init__(self, python):
        # torch held to its AVX2 kernels (oneDNN's and MKL's too), which gradcli reproduces,
        # as the goldens are recorded: on an AVX-512 machine torch would pick others
        env = dict(os.environ)
        for name, value in AVX2.items():
            env.setdefault(name, value)
        self.proc = subprocess.Popen(
            [python, str(HERE / "torch_half.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
            env=env,
        )

    def start(self, sources):
        """Send every source now (from a thread, so that neither side blocks); read the
        results later with `results`."""

        def feed():
            for s in sources:
                self.proc.stdin.write(json.dumps(s) + "\n")
            self.proc.stdin.flush()

        t = threading.Thread(target=feed, daemon=True)
        t.start()
        return t

    def results(self, n):
        out = []
        for _ in range(n):
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the torch process ended early")
            out.append(json.loads(line))
        return out

    def run(self, source):
        self.proc.stdin.write(json.dumps(source) + "\n")
        self.proc.stdin.flush()
        return self.results(1)[0]

    def run_many(self, sources):
        t = self.start(sources)
        res = self.results(len(sources))
        t.join()
        return res

    def close(self):
        with contextlib.suppress(Exception):
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


# ------------------------------------------------------------------ gradcli's half


class _Hang(BaseException):
    """Raised by the alarm (a BaseException: gradcli's `except Exception` cannot catch it)."""


def torch_conv_results(cases_module, seed, count):
    """The digests of torch_conv.py's run of `count` cases of `cases_module` (conv_cases,
    conv_gemm_cases) drawn from `seed`, under the Python with torch held to its AVX2
    kernels; skips the test where there is none or where torch runs another number of
    threads than gradcli."""
    import pytest

    from gradcli.numerics import parallel

    python = torch_python()
    if python is None:
        pytest.skip("no Python with torch (set GRADCLI_TORCH_PYTHON; .ci/run does)")
    env = dict(os.environ)
    for name, value in AVX2.items():
        env.setdefault(name, value)
    r = subprocess.run(
        [python, str(HERE / "torch_conv.py"), cases_module, str(seed), str(count)],
        capture_output=True,
        text=True,
        cwd=HERE,
        env=env,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    got = json.loads(r.stdout)
    if got["info"]["threads"] != parallel.THREADS:
        pytest.skip(f"torch runs {got['info']['threads']} threads, gradcli {parallel.THREADS}")
    return got["results"]


def _alarm(signum, frame):
    raise _Hang()


def run_gradcli(source, timeout=TIMEOUT):
    """Run one program in this process as `gradcli eval` runs a file: the same dict as
    the torch half gives, with status ``crash`` for anything but a gradcli error."""
    from gradcli.runtime import context
    from gradcli.runtime.errors import GradError
    from gradcli.output import TextOutput
    from gradcli.session import Session, reset_globals

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))  # as the CLI does
    reset_globals()
    buf, err = io.StringIO(), io.StringIO()
    error, status = None, "ok"
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        with (
            contextlib.redirect_stdout(buf),
            contextlib.redirect_stderr(err),
            warnings.catch_warnings(),
        ):
            warnings.simplefilter("ignore", RuntimeWarning)  # (NumPy's: the CLI hides them)
            session = Session(TextOutput(buf), filename="<program>", ctx=context.Context())
            session.run(source)
    except GradError as e:
        error, status = {"type": e.type_name, "message": e.message}, "error"
        if e.type_name == "InternalError" or "internal error" in e.message:
            status = "crash"
    except _Hang:
        status = "hang"
    except Exception as e:  # noqa: BLE001 - a crash is a finding
        error, status = {"type": type(e).__name__, "message": str(e)}, "crash"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        reset_globals()
    return {"stdout": buf.getvalue(), "error": error, "status": status}


def settle(source, t, g, worker):
    """The two results, a side that ran out of time run again once (a loaded machine
    can stall one program past the timeout; a real hang hangs twice)."""
    if t["status"] == "hang":
        t = worker.run(source)
    if g["status"] == "hang":
        g = run_gradcli(source)
    return t, g


# ------------------------------------------------------------------ comparing

_LABEL = re.compile(r"^(val|grad|fn|err):")
_NUM = re.compile(r"-?(?:\d+\.\d*(?:e[+-]?\d+)?|\d+e[+-]?\d+|\d+|inf|nan)")
_FN = re.compile(r"(grad_fn=)?<\w+Backward\d*>|grad_fn=<\w+>")


def records(text):
    """The output cut where a labelled line starts: [(label, text)]."""
    out = []
    for line in text.splitlines(keepends=True):
        m = _LABEL.match(line)
        if m or not out:
            out.append([m.group(1) if m else "", line])
        else:
            out[-1][1] += line
    return [tuple(r) for r in out]


def numbers(text):
    """The numbers in a record, in their order (grad_fn names left out)."""
    return [float(x) for x in _NUM.findall(_FN.sub("", text))]


def _close(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= 2e-4 * max(abs(a), abs(b)) + 1.5e-4


def compare_record(label, t, g):
    """The kind of difference between two records with the same label."""
    if _FN.sub("", t) == _FN.sub("", g):
        return "grad_fn name"
    if label == "err":
        return "error text"
    tn, gn = numbers(t), numbers(g)
    wrong = "wrong grad" if label == "grad" else "wrong value"
    if len(tn) != len(gn) or ("None" in t) != ("None" in g):
        return wrong
    if all(_close(a, b) for a, b in zip(tn, gn)):
        return "last bit"
    return wrong


def _needle(message):
    first = (message or "").splitlines()[0] if message else ""
    return re.sub(r"\s+", " ", first).strip().rstrip(". ").lower()


_TYPES = {"ShapeError": "RuntimeError"}  # gradcli's report names a shape error so


def classify(t, g):
    """None if gradcli printed and failed exactly as torch did, else a kind."""
    if g["status"] == "hang":
        return "hang"
    if g["status"] == "crash":
        return "crash"
    tr, gr = records(t["stdout"]), records(g["stdout"])
    for (tl, tt), (gl, gt) in zip(tr, gr):
        if tt != gt:
            if tl != gl:
                if tl == "err":
                    return "missed error"
                if gl == "err":
                    return "refusal"
                return "output"
            return compare_record(tl, tt, gt)
    if len(tr) != len(gr):
        if len(gr) < len(tr) and g["error"] and not t["error"]:
            return "refusal"
        if len(gr) < len(tr) and g["error"]:
            return "error text"
        if len(gr) > len(tr) and t["error"] and not g["error"]:
            return "missed error"
        return "output"
    te, ge = t["error"], g["error"]
    if te is None and ge is None:
        return None
    if te is None:
        return "refusal"
    if ge is None:
        return "missed error"
    if te["type"] != _TYPES.get(ge["type"], ge["type"]):
        return "error text"
    tn, gn = _needle(te["message"]), _needle(ge["message"])
    if tn != gn and tn not in gn:
        return "error text"
    return None


# ------------------------------------------------------------------ shrinking


def statements(source):
    """The top-level statements of a program, each as its source text."""
    lines = source.splitlines(keepends=True)
    tree = ast.parse(source)
    return ["".join(lines[n.lineno - 1 : n.end_lineno]) for n in tree.body]


def minimise(source, kind, torch_run, gradcli_run=run_gradcli):
    """A shorter program whose difference is still of `kind` (statements dropped one at a
    time, from the end, until no single one can go)."""
    parts = statements(source)
    changed = True
    while changed:
        changed = False
        for i in reversed(range(len(parts))):
            if parts[i].startswith("import "):
                continue
            trial = "".join(parts[:i] + parts[i + 1 :])
            if not trial.strip():
                continue
            t = torch_run(trial)
            if t["error"] and t["error"]["type"] == "NameError":
                continue  # (a statement others need: the program would no longer run)
            if classify(t, gradcli_run(trial)) == kind:
                parts = parts[:i] + parts[i + 1 :]
                changed = True
    return "".join(parts)


def first_difference(t, g):
    """The first records that differ, for a report."""
    tr, gr = records(t["stdout"]), records(g["stdout"])
    for (_, tt), (_, gt) in zip(tr, gr):
        if tt != gt:
            return tt, gt
    te = "%s: %s" % (t["error"]["type"], t["error"]["message"]) if t["error"] else ""
    ge = "%s: %s" % (g["error"]["type"], g["error"]["message"]) if g["error"] else ""
    extra_t = "".join(x for _, x in tr[len(gr) :])
    extra_g = "".join(x for _, x in gr[len(tr) :])
    return extra_t + te, extra_g + ge
