"""Record the golden output of the tutorial suite (tests/tutorials/*.py) from real PyTorch.

Run with the torch venv (torch is never a test dependency):

    $TORCH_PYTHON scripts/gen_golden.py tutorials [NAME ...]
    $TORCH_PYTHON scripts/gen_golden.py programs [NAME ...]

Writes tests/golden/tutorials.json (with NAMEs, only those entries are re-recorded);
the programs suite, the programs of tests/programs/ (published code beside the
tutorials, and programs exercising Python's data model) into tests/golden/programs.json:

    {"_about": "...",
     NAME: {"file": "tests/tutorials/NAME.py",
            "sha256": hash of the file's bytes (the test checks the file was not
                      changed after recording),
            "flags": gradcli options the test runs it with,
            "stdout": what the script printed (addresses normalised),
            "error": null, or {"type", "message"} of the exception that stopped it,
            "torch_seconds": wall time torch took to run the script body,
            "torch_cpu_seconds": CPU time of that process over the same span (all
                                 threads; steadier than wall time on a busy machine),
            "torch_threads": torch.get_num_threads() in that run}}

How a tutorial is run: as ``python NAME.py`` runs it (``runpy.run_path`` with
``__name__ == "__main__"``, in a fresh process per tutorial, with the working
directory a fresh temporary one): only what the script prints is output, a bare
expression statement prints nothing (no displayhook).  torch's default dtype is
left as torch's (float32), so gradcli runs the files with ``--dtype float32``;
``-q`` because gradcli otherwise shows the value of a bare expression statement as
a REPL would.  Every tutorial seeds torch's generator itself (the files say where
a seed was added), so no ``--seed`` is given.

Addresses are normalised as the other suites do (record.normalise): ``<MulBackward0 object
at 0x..>`` becomes ``<MulBackward0>``, ``<a.b.C object at 0x..>`` becomes
``<a.b.C object>``, and any other `` at 0x..`` is dropped.

``torch_seconds`` is measured inside the process from just before the script runs
to its end (``import torch`` is done first and not counted).  Each tutorial is run
twice and the two outputs must agree (a check that the seeding makes it
deterministic); the smaller of the two times is recorded.  The machine may be
shared: read the times as rough.
"""

import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

from golden.record import ROOT
from golden.record import normalise as normalise_objects

TUTORIALS = os.path.join(ROOT, "tests", "tutorials")
GOLDEN = os.path.join(ROOT, "tests", "golden", "tutorials.json")
SUITE = "tutorials"
# The programs suite computes with NumPy beside torch: NumPy's AVX-512 dispatch is turned off
# in the torch process as gradcli turns it off in its own (gradcli/__init__.py: gradcli
# computes as torch's AVX2 kernels do), so both run NumPy's AVX2 loops on any machine.
NUMPY_ENV = {
    "programs": {
        "NPY_DISABLE_CPU_FEATURES": (
            "X86_V4 AVX512_ICL AVX512_SPR AVX512F AVX512CD AVX512_KNL AVX512_KNM "
            "AVX512_SKX AVX512_CLX AVX512_CNL"
        )
    }
}

FLAGS = ["-q", "--dtype", "float32"]

_AT_RE = re.compile(r" at 0x[0-9a-fA-F]+")


def normalise(text):
    return _AT_RE.sub("", normalise_objects(text))


# The program each tutorial runs in (a fresh interpreter): argv = [file, result path].
RUNNER = r"""
import json, runpy, sys, time
import torch
path, result_path = sys.argv[1], sys.argv[2]
sys.argv = [path]
error = None
start = time.perf_counter()
cpu_start = time.process_time()
try:
    runpy.run_path(path, run_name="__main__")
except Exception as e:
    msg = str(e)
    error = {"type": type(e).__name__, "message": msg.splitlines()[0] if msg else ""}
seconds = time.perf_counter() - start
cpu_seconds = time.process_time() - cpu_start
sys.stdout.flush()
with open(result_path, "w") as fh:
    json.dump({"error": error, "seconds": seconds, "cpu_seconds": cpu_seconds,
               "threads": torch.get_num_threads()}, fh)
"""


def tutorial_names():
    return sorted(
        f[:-3] for f in os.listdir(TUTORIALS) if f.endswith(".py") and not f.startswith("_")
    )


def run_once(path):
    with tempfile.TemporaryDirectory() as tmp:
        result_path = os.path.join(tmp, "result.json")
        proc = subprocess.run(
            [sys.executable, "-c", RUNNER, path, result_path],
            capture_output=True,
            text=True,
            encoding="utf-8",
            cwd=tmp,
            env=dict(os.environ, PYTHONIOENCODING="utf-8", **NUMPY_ENV.get(SUITE, {})),
            timeout=600,
        )
        if not os.path.exists(result_path):
            raise RuntimeError(
                "%s: the runner died (exit %d):\n%s" % (path, proc.returncode, proc.stderr)
            )
        with open(result_path, encoding="utf-8") as fh:
            result = json.load(fh)
    result["stdout"] = normalise(proc.stdout)
    if result["error"] is not None:
        result["error"]["message"] = normalise(result["error"]["message"])
    return result


def record(name):
    path = os.path.join(TUTORIALS, name + ".py")
    with open(path, "rb") as fh:
        digest = hashlib.sha256(fh.read()).hexdigest()
    first = run_once(path)
    second = run_once(path)
    if (first["stdout"], first["error"]) != (second["stdout"], second["error"]):
        raise RuntimeError(
            "%s: two runs under torch printed different output; is every random draw seeded?" % name
        )
    return {
        "file": "tests/%s/%s.py" % (SUITE, name),
        "sha256": digest,
        "flags": list(FLAGS),
        "stdout": first["stdout"],
        "error": first["error"],
        "torch_seconds": round(min(first["seconds"], second["seconds"]), 3),
        "torch_cpu_seconds": round(min(first["cpu_seconds"], second["cpu_seconds"]), 3),
        "torch_threads": first["threads"],
    }


def main(argv):
    import torch

    global TUTORIALS, GOLDEN, SUITE
    if argv[:1] == ["--suite"]:
        SUITE = argv[1]
        TUTORIALS = os.path.join(ROOT, "tests", SUITE)
        GOLDEN = os.path.join(ROOT, "tests", "golden", SUITE + ".json")
        argv = argv[2:]

    names = argv or tutorial_names()
    unknown = [n for n in names if n not in tutorial_names()]
    if unknown:
        sys.exit("no such tutorial: " + ", ".join(unknown))
    golden = {}
    if argv and os.path.exists(GOLDEN):
        with open(GOLDEN, encoding="utf-8") as fh:
            golden = json.load(fh)
    golden["_about"] = (
        "Recorded by scripts/gen_golden.py %s from torch %s "
        "(python NAME.py semantics, default dtype float32); see that "
        "suite's docstring." % (SUITE, torch.__version__)
    )
    for name in names:
        rec = record(name)
        golden[name] = rec
        print(
            "%-36s %7.2f s  %s"
            % (
                name,
                rec["torch_seconds"],
                "error: %s" % rec["error"]["type"] if rec["error"] else "ok",
            )
        )
    ordered = {"_about": golden.pop("_about")}
    for name in sorted(golden):
        ordered[name] = golden[name]
    with open(GOLDEN, "w", encoding="utf-8") as fh:
        json.dump(ordered, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
