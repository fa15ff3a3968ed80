#!/usr/bin/env python3
"""Instructions per iteration of scripts/bench.py's loop workloads, counted by
valgrind's callgrind: a number that does not move with the load of a shared machine,
for telling a 2% change of the hot path from noise (bench.py's ratios are the goals;
this is the tool for the steps towards them).

    python scripts/icount.py [--no-replay] [tut32 tut64 2x2 chain ...]
    python scripts/icount.py [--no-replay] polynomial_nn logistic_adam ...
    python scripts/icount.py plain:user_class plain:micrograd ...

A name of scripts/workloads/ counts an iteration of that program's timed loop (the
first `for ... in range(N):` after `t0 = time.process_time()`, run with other counts),
in the default float64.  `plain:NAME` counts an iteration of the timed loop of
scripts/plain_python/NAME.py in gradcli and in CPython (`python -S`), with their ratio.

Each workload runs in this file's child mode twice under callgrind, with N and
N + STEPS iterations, and the difference is divided by STEPS (start-up and set-up
cancel out).  What makes the counts repeat to the instruction: the collector off
after set-up (gctune.tune() first, as the CLI does), hash seed and address-space
layout fixed (PYTHONHASHSEED=0, `setarch -R`), and one thread in NumPy's and MKL's
libraries: an idle worker thread spins, and under valgrind its spinning is counted
by the scheduler's whim (the 2x2 loop read anything from 125k to 265k per iteration
before).  Needs valgrind (and setarch, optional); runs the gradcli of this checkout.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "scripts"))

STEPS = 200
BASE = 10


def _programs():
    import bench

    head, loop = bench.TUTORIAL.split("for t in range({n}):\n")
    tut = {
        dt: (
            "torch.manual_seed(0)\n" + head.format(dt="torch." + dt) + "t = 0\n",
            textwrap.dedent(loop),
        )
        for dt in ("float32", "float64")
    }
    return {
        "tut32": tut["float32"],
        "tut64": tut["float64"],
        "2x2": ("x = ones(2, 2, requires_grad=true)\n", "out = mean(3*(x+2)^2)\nout.backward()\n"),
        # one step of the chain and its share of the backward: the whole graph is
        # differentiated at the end, so the body runs n steps and then backward
        "chain": ("x = tensor(1.0, requires_grad=true)\n", None),
    }


WORKLOADS = os.path.join(ROOT, "scripts", "workloads")
PLAIN = os.path.join(ROOT, "scripts", "plain_python")


def _plain(name, n):
    """The plain-Python program `name` with its timed loop run n times."""
    with open(os.path.join(PLAIN, name + ".py"), encoding="utf-8") as f:
        text = f.read()
    at = text.index("t0 = time.process_time()")
    return text[:at] + re.sub(
        r"(for [^\n]* in range\()\d+(\):)", r"\g<1>%d\2" % n, text[at:], count=1
    )


def _workload(name, n):
    """(set-up, the timed loop run n times) of the workload `name`."""
    with open(os.path.join(WORKLOADS, name + ".py"), encoding="utf-8") as f:
        text = f.read()
    at = text.index("t0 = time.process_time()")
    loop = re.sub(r"(for [^\n]* in range\()\d+(\):)", r"\g<1>%d\2" % n, text[at:], count=1)
    return text[:at], loop


def child(name, n):
    from gradcli.runtime.gctune import tune
    from gradcli.runtime.heap import tune as tune_heap
    from gradcli.numerics import native
    from gradcli.output import TextOutput
    from gradcli.session import Session

    # the run's set-up as the command line makes it (driver.configure): without the
    # cached native loops' allocator, arrays lie on glibc's 16-byte boundaries and
    # nearly every matrix product copies its operands first
    tune()
    tune_heap()
    native.preload()
    s = Session(TextOutput(io.StringIO(), quiet=True))
    if name.startswith("plain:"):
        s.run(_plain(name[6:], n))
        return
    if name not in _programs():  # a workload: its set-up, then its loop
        setup, loop = _workload(name, n)
        s.run(setup)
        import gc

        gc.collect()
        gc.disable()
        if REPLAY is False:
            s.context.replay = False
        s.run(loop)
        return
    setup, body = _programs()[name]
    s.run(setup)
    import gc

    gc.collect()
    gc.disable()
    if body is None:  # the chain: n steps, then backward through all of them
        s.run("y = x\ni = 0\nwhile i < %d:\n    y = y * 1.00001\n    i += 1\ny.backward()\n" % n)
        return
    if REPLAY is False:
        s.context.replay = False
    # the body as a loop statement, as the program runs it (loop bodies are replayed:
    # gradcli/language/replay.py)
    loop = "for t in range(%d):\n" % n if "t %" in body else "i = 0\nwhile i < %d:\n" % n
    s.run(loop + textwrap.indent(body, "    ") + ("" if "t %" in body else "    i += 1\n"))


#: False (`--no-replay`): loop bodies run as compiled, not replayed
REPLAY = None


def count(name, n, cpython=False):
    env = dict(
        os.environ,
        PYTHONHASHSEED="0",
        OMP_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
        OPENBLAS_NUM_THREADS="1",
        KMP_BLOCKTIME="0",
    )
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        os.path.abspath(__file__),
        "--child",
        name,
        str(n),
    ] + (["--no-replay"] if REPLAY is False else [])
    if cpython:  # the plain program itself, in CPython
        cmd[4:] = ["-S", "-c", _plain(name[6:], n)]
    arch = shutil.which("setarch")
    if arch:
        cmd = [arch, os.uname().machine, "-R"] + cmd
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    m = re.search(r"Collected : (\d+)", r.stderr)
    if r.returncode != 0 or not m:
        raise SystemExit(f"{name}: valgrind failed\n{r.stderr[-2000:]}")
    return int(m.group(1))


def main(argv):
    global REPLAY
    if "--no-replay" in argv:
        argv = [a for a in argv if a != "--no-replay"]
        REPLAY = False
    if argv[:1] == ["--child"]:
        child(argv[1], int(argv[2]))
        return
    if not shutil.which("valgrind"):
        raise SystemExit("icount needs valgrind")
    names = argv or list(_programs())
    unknown = [
        n
        for n in names
        if n not in _programs()
        and not os.path.exists(os.path.join(WORKLOADS, n + ".py"))
        and not os.path.exists(os.path.join(PLAIN, n[6:] + ".py"))
    ]
    if unknown:
        raise SystemExit(
            f"unknown workload {unknown[0]!r}: one of {', '.join(_programs())} or a name of "
            "scripts/workloads/"
        )
    for name in names:
        base, big = BASE, BASE + STEPS
        if name == "chain":
            base, big = 2000, 2000 + 100 * STEPS
        per = (count(name, big) - count(name, base)) / (big - base)
        unit = "step" if name == "chain" else "iteration"
        if name.startswith("plain:"):
            py = (count(name, big, True) - count(name, base, True)) / (big - base)
            print(
                f"{name:16} {per:10.0f} instructions per {unit}, CPython {py:.0f} "
                f"({per / py:.2f}x)",
                flush=True,
            )
            continue
        print(f"{name:16} {per:10.0f} instructions per {unit}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
