"""The workload suite of scripts/bench.py: whole programs as people write them
(scripts/workloads/*.py: modules, optimizers, losses, `def`s, bookkeeping in the loop),
each run by gradcli and by PyTorch eager as it is, in float64 and in float32.

Every program is valid both as Python with `import torch` and as gradcli source: it
times its own training loop with `time.process_time()` and prints that last ("loop
SECONDS"), after its results.  For each program and default dtype:

* the results (every line but the last) of gradcli and of PyTorch with its default
  threads and its AVX2 kernels must be the same text (gradcli reproduces the threads'
  order of summation and the AVX2 kernels' vector widths);
* the loop's CPU time is the median of runs interleaved with PyTorch's, PyTorch
  running with one intra-op thread (as gradcli computes on one);
* peak memory (the child's maximum resident set) of each side, once.

Goals: every workload at most 1.0x PyTorch, the geometric mean at most 0.6x, and peak
memory at most PyTorch's.

    GRADCLI_PYTHON=.venv/bin/python python scripts/bench_suite.py [--quick] [NAME ...]
    (python: one with torch==2.13.0; GRADCLI_PYTHON: one with gradcli[exact])
"""

from __future__ import annotations

import argparse
import glob
import math
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WORKLOADS = os.path.join(HERE, "workloads")
PY = sys.executable
# gradcli runs in its own environment when given (GRADCLI_PYTHON: a venv with gradcli's
# `exact` extra, whose MKL gives PyTorch's float math and products), else beside torch
GRADCLI_PY = os.environ.get("GRADCLI_PYTHON") or PY
DTYPES = ("float64", "float32")
ONE_THREAD = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
# gradcli computes as PyTorch's AVX2 kernels do (docs/developer/numerics.md): the results
# are compared with torch held to them; the times are torch's as it runs by default
AVX2 = {
    "ATEN_CPU_CAPABILITY": "avx2",
    "MKL_ENABLE_INSTRUCTIONS": "AVX2",
    "ONEDNN_MAX_CPU_ISA": "AVX2",
}
# bytecode is cached as it is for an installed package (pip compiles it at install time):
# each workload's first, untimed run writes what a timed run would otherwise compile
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def names():
    return sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(WORKLOADS, "*.py")))


def program(name, dtype):
    """The workload's text with its default dtype set first, in a file of its own."""
    with open(os.path.join(WORKLOADS, name + ".py"), encoding="utf-8") as f:
        body = f.read()
    src = f"import torch\ntorch.set_default_dtype(torch.{dtype})\n" + body
    fd, path = tempfile.mkstemp(suffix=".py", prefix=f"{name}_{dtype}_")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(src)
    return path


def _run(cmd, env=None):
    """The child's stdout."""
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env={**ENV, **(env or {})})
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{r.stderr[-2000:]}")
    return r.stdout


def gradcli_cmd(path):
    return [GRADCLI_PY, "-m", "gradcli", "eval", "-q", path]


def torch_cmd(path):
    return [PY, path]


def _split(out):
    lines = out.strip().splitlines()
    if not lines or not lines[-1].startswith("loop "):
        raise RuntimeError(f"no loop time printed last:\n{out[-500:]}")
    return "\n".join(lines[:-1]), float(lines[-1].split()[1])


def _peak(cmd, env=None):
    code = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
        "stdout=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    r = subprocess.run(
        [PY, "-c", code, *cmd],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        env={**ENV, **(env or {})},
    )
    return int(r.stdout.strip()) * 1024


def measure(name, dtype, rep):
    """One row: gradcli's and PyTorch's loop times (medians), same results, peaks."""
    path = program(name, dtype)
    try:
        g_out = _run(gradcli_cmd(path))
        t_out = _run(torch_cmd(path), AVX2)
        same = _split(g_out)[0] == _split(t_out)[0]
        gt, tt = [], []
        for _ in range(rep):
            gt.append(_split(_run(gradcli_cmd(path)))[1])
            tt.append(_split(_run(torch_cmd(path), ONE_THREAD))[1])
        g_mem = _peak(gradcli_cmd(path))
        t_mem = _peak(torch_cmd(path), ONE_THREAD)
        return {
            "name": name,
            "dtype": dtype,
            "gradcli": statistics.median(gt),
            "torch": statistics.median(tt),
            "same": same,
            "gradcli_mem": g_mem,
            "torch_mem": t_mem,
            "diff": None if same else (_split(g_out)[0], _split(t_out)[0]),
        }
    finally:
        os.unlink(path)


def report(rows, out=sys.stdout):
    """The table and the goals; True when every goal is met."""
    ok = True
    print(
        f"{'workload':24} {'dtype':8} {'gradcli':>9} {'torch':>9} {'ratio':>6}  "
        f"{'results':9} {'peak MiB':>15}",
        file=out,
    )
    for r in rows:
        ratio = r["gradcli"] / r["torch"] if r["torch"] > 0 else math.inf
        mem = f"{r['gradcli_mem'] / 2**20:.0f} / {r['torch_mem'] / 2**20:.0f}"
        fast, lean = ratio <= 1.0, r["gradcli_mem"] <= r["torch_mem"]
        ok = ok and fast and lean and r["same"]
        print(
            f"{r['name']:24} {r['dtype']:8} {r['gradcli'] * 1e3:8.1f}ms {r['torch'] * 1e3:8.1f}ms "
            f"{ratio:6.2f}  {'same' if r['same'] else 'DIFFER':9} {mem:>15}"
            f"{'' if fast else '  > 1.0x'}{'' if lean else '  memory > torch'}",
            file=out,
        )
    for dtype in DTYPES:
        ratios = [r["gradcli"] / r["torch"] for r in rows if r["dtype"] == dtype and r["torch"]]
        if ratios:
            geo = math.exp(sum(map(math.log, ratios)) / len(ratios))
            met = geo <= 0.6
            ok = ok and met
            print(
                f"geometric mean, {dtype}: {geo:.2f}x torch (goal <= 0.6: "
                f"{'met' if met else 'NOT met'})",
                file=out,
            )
    for r in rows:
        if r["diff"] is not None:
            g, t = r["diff"]
            print(f"\n{r['name']} {r['dtype']}: gradcli printed\n{g}\ntorch printed\n{t}", file=out)
    return ok


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="one timed run per side")
    ap.add_argument("names", nargs="*", help="workloads (default: all)")
    args = ap.parse_args(argv)
    try:
        import torch  # noqa: F401  (the peer: PyTorch must be importable)
    except ImportError:
        raise SystemExit("run this with a Python that has torch (torch==2.13.0)")
    return 0 if run_all(1 if args.quick else 3, args.names or names()) else 1


def run_all(rep, which=None):
    """Measure and report the workloads (all by default); True when every goal is met."""
    rows = [measure(n, dt, rep) for n in (which or names()) for dt in DTYPES]
    return report(rows)


if __name__ == "__main__":
    sys.exit(main())
