#!/usr/bin/env python3
"""gradcli's performance goals, measured side by side in one run.

Each workload is timed for gradcli (`gradcli eval` as a subprocess, start-up
subtracted where it is not the point), for NumPy by hand (the floor), for
PyTorch eager when `torch` can be imported and for JAX's jit (compile included)
when `jax` can be imported; both are optional, the benchmark runs without them.
Times are CPU time (user + system, of the child process for gradcli, of this
process for the peers), the median of runs interleaved with the peers' runs, so
that a busy shared machine slows every side alike.  Prints a table of times and
the ratio each goal is stated in, with the goal beside it.  Plain Python (no
tensors: scripts/plain_python/) is timed in gradcli and in CPython, the same
program text timing itself.

    GRADCLI_PYTHON=.venv/bin/python python scripts/bench.py [--quick] [--plain-only]

Run it with a Python that has torch (e.g. $TORCH_PYTHON) for the
PyTorch columns; GRADCLI_PYTHON (default: the same Python) runs gradcli, best one
with gradcli's `exact` extra, whose MKL a torch environment does not have.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PY = sys.executable
# gradcli runs in its own environment when given (GRADCLI_PYTHON: a venv with gradcli's
# `exact` extra, whose MKL gives PyTorch's float math and products), as in bench_suite.py
GRADCLI_PY = os.environ.get("GRADCLI_PYTHON") or PY

# bytecode is cached as it is for an installed package (pip compiles it at install time)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


#: the start-up's floor: the imports gradcli cannot do without, with the one setting
#: gradcli makes before NumPy loads that changes their CPU time (OpenBLAS's workers
#: sleep instead of spinning: gradcli/__init__.py)
IMPORTS = "import os; os.environ.setdefault('OPENBLAS_THREAD_TIMEOUT', '4'); import numpy, lark"


def run(cmd):
    """CPU time of one child process, and its stdout."""
    t = _child_cpu()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=ENV)
    dt = _child_cpu() - t
    if r.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{r.stderr}")
    return dt, r.stdout


def cpu(fn):
    """CPU time of fn() in this process (all its threads)."""
    t = time.process_time()
    fn()
    return time.process_time() - t


def interleaved(n, *fns, raw=None):
    """Run the functions (each returns a time, or None) in turn n times; the medians.
    `raw`, a list, receives the lists of times themselves."""
    times = [[] for _ in fns]
    for _ in range(n):
        for ts, fn in zip(times, fns):
            ts.append(fn())
    if raw is not None:
        raw.extend(times)
    return [None if None in ts else statistics.median(ts) for ts in times]


_PROGRAMS = {}


def gradcli_program(src):
    if src not in _PROGRAMS:
        with tempfile.NamedTemporaryFile("w", suffix=".ag", delete=False) as f:
            f.write(src)
        _PROGRAMS[src] = f.name
    return [GRADCLI_PY, "-m", "gradcli", "eval", "-q", "--seed", "0", _PROGRAMS[src]]


def gradcli_time(src):
    return lambda: run(gradcli_program(src))[0]


def gradcli_clock(src):
    """The CPU time a gradcli program measures itself and prints last (its loop alone)."""
    return lambda: float(run(gradcli_program(src))[1].split()[-1])


def child_peak_rss_kib(cmd):
    """Peak resident memory of a child process (KiB)."""
    code = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
        "stdout=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    r = subprocess.run([PY, "-c", code, *cmd], capture_output=True, text=True, cwd=ROOT, check=True)
    return int(r.stdout.strip())


def _try(name):
    try:
        return __import__(name)
    except ImportError:
        return None


torch = _try("torch")
jax = _try("jax")
if torch is not None:
    torch.set_default_dtype(torch.float64)


# --------------------------------------------------------------------------
# "Learning PyTorch with Examples": fitting a cubic to sin, tensors and autograd,
# as published (2,000 points, 2,000 iterations, manual SGD under no_grad)
# --------------------------------------------------------------------------

TUTORIAL = """x = linspace(-pi, pi, 2000, dtype={dt})
y = sin(x)
a = randn((), dtype={dt}, requires_grad=true)
b = randn((), dtype={dt}, requires_grad=true)
c = randn((), dtype={dt}, requires_grad=true)
d = randn((), dtype={dt}, requires_grad=true)
learning_rate = 1e-6
for t in range({n}):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
"""


def timed_tutorial(dt, n):
    """The tutorial as published, its loop timed by the program itself (CPU time, read
    before and after the `for` statement and printed last), as PyTorch's side is timed
    in this process: no difference of two processes' start-ups, which moves by more than
    a tenth of the loop from run to run on a shared machine."""
    head, loop = TUTORIAL.format(dt="torch." + dt, n=n).split("for t in range")
    return (
        "import time\n"
        + head
        + "t0 = time.process_time()\nfor t in range"
        + loop
        + "print(time.process_time() - t0)\n"
    )


def tutorial_torch(dt, n):
    dtype = getattr(torch, dt)

    def go():
        torch.manual_seed(0)
        x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
        y = torch.sin(x)
        a = torch.randn((), dtype=dtype, requires_grad=True)
        b = torch.randn((), dtype=dtype, requires_grad=True)
        c = torch.randn((), dtype=dtype, requires_grad=True)
        d = torch.randn((), dtype=dtype, requires_grad=True)
        learning_rate = 1e-6
        for t in range(n):
            y_pred = a + b * x + c * x**2 + d * x**3
            loss = (y_pred - y).pow(2).sum()
            if t % 100 == 99:
                loss.item()
            loss.backward()
            with torch.no_grad():
                a -= learning_rate * a.grad
                b -= learning_rate * b.grad
                c -= learning_rate * c.grad
                d -= learning_rate * d.grad
                a.grad = None
                b.grad = None
                c.grad = None
                d.grad = None

    return lambda: cpu(go)


def tutorial_jax(dt, n):
    if jax is None:
        return None
    import jax.numpy as jnp

    if dt == "float64":
        jax.config.update("jax_enable_x64", True)
    dtype = getattr(jnp, dt)

    def go():
        x = jnp.linspace(-math.pi, math.pi, 2000, dtype=dtype)
        y = jnp.sin(x)
        key = jax.random.PRNGKey(0)
        p = jax.random.normal(key, (4,), dtype=dtype)

        def loss(p):
            y_pred = p[0] + p[1] * x + p[2] * x**2 + p[3] * x**3
            return ((y_pred - y) ** 2).sum()

        @jax.jit
        def step(p):
            lv, g = jax.value_and_grad(loss)(p)
            return p - 1e-6 * g, lv

        for t in range(n):
            p, lv = step(p)
            if t % 100 == 99:
                float(lv)
        p.block_until_ready()

    return lambda: cpu(go)


# the same tutorial's first part, "PyTorch: Tensors" (no autograd: the gradients
# written by hand, three dot products), as published (tests/tutorials/)
TENSORS_PATH = os.path.join(ROOT, "tests", "tutorials", "polynomial_tensor.py")
TENSORS_LOOP = "for t in range(2000):"


def tensors_source(n):
    with open(TENSORS_PATH) as f:
        text = f.read()
    assert TENSORS_LOOP in text, TENSORS_PATH
    return text.replace(TENSORS_LOOP, f"for t in range({n}):")


def tensors_gradcli(n):
    cmd = gradcli_program(tensors_source(n))
    cmd[cmd.index("--seed") : cmd.index("--seed") + 2] = ["--dtype", "float32"]
    return lambda: run(cmd)[0]


def tensors_torch(n):
    if torch is None:
        return lambda: None
    full, none = (compile(tensors_source(k), TENSORS_PATH, "exec") for k in (n, 0))

    def go(code):
        import contextlib
        import io

        with contextlib.redirect_stdout(io.StringIO()):
            exec(code, {"__name__": "tutorial"})  # noqa: S102  (the tutorial's own text)

    return lambda: cpu(lambda: go(full)) - cpu(lambda: go(none))


# --------------------------------------------------------------------------
# mean(3*(x+2)^2) forward + backward (2x2 and 1e7 elements)
# --------------------------------------------------------------------------

_ITERATIONS = """i = 0
while i < {n}:
    out = mean(3*(x+2)^2)
    out.backward()
    i += 1
"""
LOOP = "x = {make}\n" + _ITERATIONS


#: a training step written as a `def` (model, loss, backward, update, bookkeeping),
#: called {n} times: the memory row for calls
DEF_STEP = """import torch
X = torch.randn(32, 4)
y = torch.randn(32, 1)
w = torch.zeros(4, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)

def step(X, y, lr):
    pred = X @ w + b
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w.sub_(lr * w.grad)
        b.sub_(lr * b.grad)
        w.grad.zero_()
        b.grad.zero_()
    return loss

losses = []
for i in range({n}):
    loss = step(X, y, 0.01)
    if i % 100 == 0:
        losses.append(loss.item())
print(len(losses), loss)
"""


#: iterations a loop row's gradcli program makes before the ones it times (the 1e7 row)
WARM = 2
#: the same loop, WARM iterations and then n timed by the program itself (the 1e7 row)
WARM_LOOP = (
    "import time\nx = {make}\n"
    + _ITERATIONS.replace("{n}", "{warm}")
    + "t0 = time.process_time()\n"
    + _ITERATIONS
    + "print(time.process_time() - t0)\n"
)


def loop_torch(shape, n):
    if torch is None:
        return None

    def go():
        x = torch.ones(shape, requires_grad=True)
        for _ in range(n):
            out = torch.mean(3 * (x + 2) ** 2)
            out.backward()

    return lambda: cpu(go)


def loop_numpy(shape, n):
    import numpy as np

    def go():
        x = np.ones(shape)
        for _ in range(n):
            b = x + 2
            out = (3 * b * b).mean()  # forward: 3 passes over the data
            g = (6.0 / x.size) * b  # backward: d mean(3 b^2)/dx = 6 b / n
            del out, g

    return lambda: cpu(go)


# --------------------------------------------------------------------------
# a 100,000-step scalar chain y = y * 1.00001, built and differentiated
# --------------------------------------------------------------------------

#: the chain timed by the program itself: its build and backward, and its backward
_CHAIN_LOOP = "while i < {n}:\n    y = y * 1.00001\n    i += 1\n"
_CHAIN_HEAD = "import time\nx = tensor(1.0, requires_grad=true)\ny = x\ni = 0\n"
_CHAIN_TAIL = "y.backward()\nprint(time.process_time() - t0)\n"
TIMED_CHAIN = _CHAIN_HEAD + "t0 = time.process_time()\n" + _CHAIN_LOOP + _CHAIN_TAIL
TIMED_CHAIN_BACKWARD = _CHAIN_HEAD + _CHAIN_LOOP + "t0 = time.process_time()\n" + _CHAIN_TAIL


def chain_torch(n, backward_only=False):
    if torch is None:
        return None

    def go():
        x = torch.tensor(1.0, requires_grad=True)
        y = x
        for _ in range(n):
            y = y * 1.00001
        if backward_only:
            return y
        y.backward()

    if backward_only:

        def timed():
            y = go()
            return cpu(y.backward)

        return timed
    return lambda: cpu(go)


PER_SAMPLE = """import time
from torch.func import grad, vmap
w = randn(4, 8)
xs = randn({n}, 8)
ys = randn({n}, 4)
def loss(w, x, y):
    return ((x @ w.T - y) ** 2).mean()
t0 = time.process_time()
{body}
print(time.process_time() - t0)
"""
VMAP_REPS = 20  # vmap takes a few ms: repeated, and the average taken
VMAP_BODY = (
    f"for _ in range({VMAP_REPS}):\n    g = vmap(grad(loss), in_dims=(None, 0, 0))(w, xs, ys)"
)
LOOP_BODY = (
    "gs = []\nfor i in range({n}):\n    gs.append(grad(loss)(w, xs[i], ys[i]))\ng = stack(gs)"
)


# --------------------------------------------------------------------------
# plain Python: the same program text (scripts/plain_python/) run by gradcli and by
# CPython, each timed by the program itself around its work
# --------------------------------------------------------------------------

PLAIN = os.path.join(HERE, "plain_python")
PLAIN_ROWS = (
    ("loop.py", "300k-step while + for loops"),
    ("comprehension.py", "comprehensions"),
    ("fib.py", "recursive fib(20), 5 times"),
    ("user_class.py", "user class with operators"),
    ("micrograd.py", "micrograd Value, tiny MLP"),
)


def plain_gradcli(name):
    cmd = [GRADCLI_PY, "-m", "gradcli", "eval", "-q", os.path.join(PLAIN, name)]
    return lambda: float(run(cmd)[1].split()[-1])


def plain_cpython(name):
    cmd = [PY, "-S", os.path.join(PLAIN, name)]
    return lambda: float(run(cmd)[1].split()[-1])


def plain_python_rows(rep):
    """Each plain-Python program in gradcli and in CPython (same text, same clock)."""
    rows = []
    for name, title in PLAIN_ROWS:
        g, c = interleaved(rep, plain_gradcli(name), plain_cpython(name))
        rows.append((f"plain Python: {title}", g, "CPython", c, ratio(g, c), "<= 3.0"))
    return rows


def fmt(t):
    if t is None:
        return "n/a"
    if t >= 1:
        return f"{t:.2f} s"
    if t >= 1e-3:
        return f"{t * 1e3:.1f} ms"
    return f"{t * 1e6:.1f} us"


def ratio(a, b):
    return None if a is None or b is None else a / b


def verdict(r, goal):
    """'met' or 'NOT met' for a ratio against a goal written `<= 0.5`, `< 1` or `>= 10`;
    '' for rows that are information only."""
    parts = goal.split()
    if r is None or len(parts) < 2 or parts[0] not in ("<=", "<", ">="):
        return ""
    bound = float(parts[1])
    ok = {"<=": r <= bound, "<": r < bound, ">=": r >= bound}[parts[0]]
    return "met" if ok else "NOT met"


def first_prompt(cmd, timeout=30.0):
    """Wall-clock seconds from starting `cmd` in a pseudo-terminal until its `>>>` prompt shows."""
    import pty
    import select

    master, slave = pty.openpty()
    env = dict(
        ENV,
        TERM="xterm",
        PROMPT_TOOLKIT_NO_CPR="1",
        XDG_STATE_HOME=tempfile.mkdtemp(),
        NO_COLOR="1",
    )
    t = time.perf_counter()
    p = subprocess.Popen(
        cmd, stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env, close_fds=True
    )
    os.close(slave)
    seen = b""
    try:
        while b">>>" not in seen:
            if time.perf_counter() - t > timeout:
                raise SystemExit(f"no prompt from {' '.join(cmd)}: {seen[-200:]!r}")
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    break
        return time.perf_counter() - t
    finally:
        p.kill()
        p.wait()
        os.close(master)


def has_ptpython():
    import importlib.util

    return importlib.util.find_spec("ptpython") is not None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer repeats and iterations")
    ap.add_argument(
        "--plain-only", action="store_true", help="only the plain-Python rows against CPython"
    )
    ap.add_argument(
        "--suite-only", action="store_true", help="only the workload suite (scripts/bench_suite.py)"
    )
    args = ap.parse_args()
    rep = 3 if args.quick else 5
    if args.suite_only:
        import bench_suite

        sys.exit(0 if bench_suite.run_all(1 if args.quick else 3) else 1)
    rows = []

    run(gradcli_program("1\n"))  # warm-up: writes the bytecode cache
    if args.plain_only:
        print_rows(plain_python_rows(rep))
        return

    # start-up
    small = "x = ones(2, 2, requires_grad=true)\nbackward mean(3*(x+2)^2)\n"
    start, floor = interleaved(
        rep * 2, gradcli_time(small), lambda: run([GRADCLI_PY, "-c", IMPORTS])[0]
    )
    rows.append(
        (
            "start-up: gradcli eval small.ag",
            start,
            "import numpy, lark",
            floor,
            ratio(start, floor),
            "<= 1.1",
        )
    )

    # the REPL's first prompt (wall time, in a pseudo-terminal), beside ptpython's
    prompt_g = min(first_prompt([GRADCLI_PY, "-m", "gradcli"]) for _ in range(rep))
    prompt_p = (
        min(first_prompt([PY, "-m", "ptpython"]) for _ in range(rep)) if has_ptpython() else None
    )
    rows.append(
        (
            "REPL first prompt (wall time)",
            prompt_g,
            "ptpython",
            prompt_p,
            ratio(prompt_g, prompt_p) if prompt_p else None,
            "<= 1.0",
        )
    )

    # the tutorial loop, float32 as published and float64
    n_tut = 500 if args.quick else 2000
    for dt in ("float32", "float64"):
        g, tt, tj = interleaved(
            rep,
            gradcli_clock(timed_tutorial(dt, n_tut)),
            tutorial_torch(dt, n_tut) if torch else (lambda: None),
            tutorial_jax(dt, n_tut) or (lambda: None),
        )
        rows.append(
            (
                f"tutorial loop {dt}, {n_tut} iterations",
                g,
                "PyTorch eager",
                tt,
                ratio(g, tt),
                "<= 0.5",
            )
        )
        rows.append(("", None, "JAX jit (compile incl.)", tj, ratio(g, tj), "< 1 (beat it)"))

    # "PyTorch: Tensors": what it costs without autograd (information, no goal)
    g0, g1, tt = interleaved(rep, tensors_gradcli(0), tensors_gradcli(n_tut), tensors_torch(n_tut))
    rows.append(
        (
            f"'PyTorch: Tensors', {n_tut} iterations",
            g1 - g0,
            "PyTorch eager",
            tt,
            ratio(g1 - g0, tt) if tt else None,
            "(info)",
        )
    )

    # the scalar chain, build + backward
    n_chain = 100_000
    # (each part timed by the program itself: the build and backward, the backward)
    gb, gbw, tt, tb = interleaved(
        rep,
        gradcli_clock(TIMED_CHAIN.format(n=n_chain)),
        gradcli_clock(TIMED_CHAIN_BACKWARD.format(n=n_chain)),
        chain_torch(n_chain) or (lambda: None),
        chain_torch(n_chain, True) or (lambda: None),
    )
    rows.append(
        ("100k scalar chain, build + backward", gb, "PyTorch eager", tt, ratio(gb, tt), "<= 0.5")
    )
    rows.append(("  of it: backward", gbw, "PyTorch eager", tb, ratio(gbw, tb), "(info)"))

    # the 2x2 loop
    n_small = 5000 if args.quick else 20000
    # (timed by the program itself, as the tutorial: after WARM iterations)
    g, tt, npt = interleaved(
        rep,
        gradcli_clock(
            WARM_LOOP.format(make="ones(2, 2, requires_grad=true)", warm=WARM, n=n_small)
        ),
        loop_torch((2, 2), n_small) or (lambda: None),
        loop_numpy((2, 2), n_small),
    )
    g = g / n_small
    tt = tt and tt / n_small
    npt = npt / n_small
    rows.append(
        ("2x2 forward+backward, per iteration", g, "PyTorch eager", tt, ratio(g, tt), "<= 0.3")
    )
    rows.append(("", None, "NumPy by hand", npt, ratio(g, npt), "(floor)"))

    # 1e7 elements
    n_big = 3 if args.quick else 5
    make = "ones(10000000, requires_grad=true)"
    # gradcli's side: the CPU time of n_big iterations after WARM, read by the program
    # itself (`time.process_time`): the first iterations of a fresh process fault in the
    # loop's memory (`runtime/heap.py` keeps it for the later ones), which on a virtual
    # machine costs from ~10 to ~200 ms an 80 MB array, more than the iterations, and
    # moves from run to run; the peers run in this warm process (docs/developer/performance.md:
    # "The 1e7 row, warm")
    g, tt, npt = interleaved(
        max(2, rep // 2 + 1),
        gradcli_clock(WARM_LOOP.format(make=make, warm=WARM, n=n_big)),
        loop_torch((10_000_000,), n_big) or (lambda: None),
        loop_numpy((10_000_000,), n_big),
    )
    g = g / n_big
    tt = tt and tt / n_big
    npt = npt / n_big
    rows.append(("1e7 elements forward+backward", g, "NumPy by hand", npt, ratio(g, npt), "<= 1.3"))
    rows.append(("", None, "PyTorch eager", tt, ratio(g, tt), "< 1"))

    # per-sample gradients: vmap(grad) against a Python loop of grad
    n_ps = 1000
    # each side's CPU time read by the program itself around its body (a difference of
    # two processes' times around a vmap of ~1.5 ms was once negative)
    gv, gl = interleaved(
        rep,
        gradcli_clock(PER_SAMPLE.format(n=n_ps, body=VMAP_BODY)),
        gradcli_clock(PER_SAMPLE.format(n=n_ps, body=LOOP_BODY.format(n=n_ps))),
    )
    gv = gv / VMAP_REPS
    rows.append(
        (
            f"per-sample grads, {n_ps} samples, vmap",
            gv,
            "Python loop of grad",
            gl,
            ratio(gl, gv),
            ">= 10 (loop / vmap)",
        )
    )

    # peak memory
    small_mem = LOOP.format(make="ones(100, 100, requires_grad=true)", n=2000)
    big_mem = LOOP.format(make="ones(100, 100, requires_grad=true)", n=20000)
    m1 = child_peak_rss_kib(gradcli_program(small_mem))
    m2 = child_peak_rss_kib(gradcli_program(big_mem))
    rows.append(
        (
            "peak memory, 20000 vs 2000 iterations",
            m2 * 1024,
            "2000 iterations",
            m1 * 1024,
            m2 / m1,
            "<= 1.1",
        )
    )

    # a training step in a `def`, called in a loop: memory stays flat however many calls
    m1 = child_peak_rss_kib(gradcli_program(DEF_STEP.format(n=1_000)))
    m2 = child_peak_rss_kib(gradcli_program(DEF_STEP.format(n=100_000)))
    rows.append(
        (
            "peak memory, def called 1e5 vs 1e3 times",
            m2 * 1024,
            "1000 calls",
            m1 * 1024,
            m2 / m1,
            "<= 1.1",
        )
    )

    rows += plain_python_rows(rep)

    print_rows(rows)

    # whole programs as people write them, beside PyTorch (scripts/bench_suite.py)
    if torch is not None:
        import bench_suite

        print()
        bench_suite.run_all(1 if args.quick else 3)


def print_rows(rows):
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}; CPU time, medians of interleaved runs"
    )
    print(f"{'workload':40} {'gradcli':>10}  {'vs':24} {'time':>10} {'ratio':>7}  goal")
    for name, g, peer, t, r, goal in rows:
        if "memory" in name:
            gs, ts = f"{g / 2**20:.0f} MiB", f"{t / 2**20:.0f} MiB"
        else:
            gs, ts = ("" if g is None else fmt(g)), fmt(t)
        rs = "n/a" if r is None else f"{r:.2f}"
        print(f"{name:40} {gs:>10}  {peer:24} {ts:>10} {rs:>7}  {goal:22} {verdict(r, goal)}")


if __name__ == "__main__":
    main()
