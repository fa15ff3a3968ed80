#!/usr/bin/env python3
"""gradcli's performance goals (issue 6), measured side by side in one run.

Each workload is timed for gradcli (`gradcli eval` as a subprocess, start-up
subtracted where it is not the point), for NumPy by hand (the floor) and for
PyTorch eager when `torch` can be imported (it is optional: the benchmark runs
without it).  Prints a table of times and the ratios the goals are stated in.

    python scripts/bench.py [--quick]
"""
from __future__ import annotations

import argparse
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


# bytecode is cached as it is for an installed package (pip compiles it at install time)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(cmd, stdin=None):
    t = time.perf_counter()
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=ROOT, env=ENV)
    dt = time.perf_counter() - t
    if r.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{r.stderr}")
    return dt, r.stdout


def best_of(n, fn):
    return min(fn() for _ in range(n))


def gradcli_program(src):
    with tempfile.NamedTemporaryFile("w", suffix=".ag", delete=False) as f:
        f.write(src)
    return [PY, "-m", "gradcli", "eval", "-q", f.name]


def child_peak_rss_kib(cmd):
    """Peak resident memory of a child process (KiB)."""
    code = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
            "stdout=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    r = subprocess.run([PY, "-c", code, *cmd], capture_output=True, text=True, cwd=ROOT, check=True)
    return int(r.stdout.strip())


LOOP = """x = {make}
i = 0
while i < {n}:
    out = mean(3*(x+2)^2)
    out.backward()
    i += 1
"""


def per_iter_gradcli(make, n, repeats):
    base = best_of(repeats, lambda: run(gradcli_program(LOOP.format(make=make, n=0)))[0])
    full = best_of(repeats, lambda: run(gradcli_program(LOOP.format(make=make, n=n)))[0])
    return max(full - base, 1e-9) / n


def per_iter_numpy(shape, n):
    import numpy as np
    x = np.ones(shape)
    t = time.perf_counter()
    for _ in range(n):
        b = x + 2
        out = (3 * b * b).mean()          # forward: 3 passes over the data
        g = (6.0 / x.size) * b             # backward: d mean(3 b^2)/dx = 6 b / n
        del out, g
    return (time.perf_counter() - t) / n


def per_iter_torch(shape, n):
    try:
        import torch
    except ImportError:
        return None
    torch.set_default_dtype(torch.float64)
    x = torch.ones(shape, requires_grad=True)
    for _ in range(3):
        torch.mean(3 * (x + 2) ** 2).backward()
    t = time.perf_counter()
    for _ in range(n):
        out = torch.mean(3 * (x + 2) ** 2)
        out.backward()
    return (time.perf_counter() - t) / n


CHAIN = """x = tensor(1.0, requires_grad=true)
y = x
i = 0
while i < {n}:
    y = y * 1.000001
    i += 1
{bwd}
"""


def chain_backward_gradcli(n, repeats):
    build = best_of(repeats, lambda: run(gradcli_program(CHAIN.format(n=n, bwd="")))[0])
    full = best_of(repeats, lambda: run(gradcli_program(CHAIN.format(n=n, bwd="y.backward()")))[0])
    return max(full - build, 1e-9)


def chain_backward_torch(n):
    try:
        import torch
    except ImportError:
        return None
    torch.set_default_dtype(torch.float64)
    x = torch.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 1.000001
    t = time.perf_counter()
    y.backward()
    return time.perf_counter() - t


PER_SAMPLE = """from torch.func import grad, vmap
w = randn(4, 8)
xs = randn({n}, 8)
ys = randn({n}, 4)
def loss(w, x, y):
    return ((x @ w.T - y) ** 2).mean()
{body}
"""
VMAP_BODY = "g = vmap(grad(loss), in_dims=(None, 0, 0))(w, xs, ys)"
LOOP_BODY = ("gs = []\nfor i in range({n}):\n    gs.append(grad(loss)(w, xs[i], ys[i]))\n"
             "g = stack(gs)")


def per_sample_grads(n, repeats):
    """(vmap time, Python-loop time) of per-sample gradients of a linear model."""
    base = best_of(repeats, lambda: run(gradcli_program(PER_SAMPLE.format(n=n, body="")))[0])
    vm = best_of(repeats, lambda: run(gradcli_program(PER_SAMPLE.format(n=n, body=VMAP_BODY)))[0])
    lp = best_of(repeats, lambda: run(gradcli_program(
        PER_SAMPLE.format(n=n, body=LOOP_BODY.format(n=n))))[0])
    return max(vm - base, 1e-9), max(lp - base, 1e-9)


def fmt(t):
    if t is None:
        return "n/a"
    if t >= 1:
        return f"{t:.2f} s"
    if t >= 1e-3:
        return f"{t * 1e3:.1f} ms"
    return f"{t * 1e6:.1f} us"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer repeats")
    args = ap.parse_args()
    rep = 2 if args.quick else 5
    rows = []

    run(gradcli_program("1\n"))          # warm-up: writes the bytecode cache
    floor = best_of(rep * 2, lambda: run([PY, "-c", "import numpy, lark"])[0])
    start = best_of(rep * 2, lambda: run(gradcli_program("x = ones(2, 2, requires_grad=true)\n"
                                                         "backward mean(3*(x+2)^2)\n"))[0])
    rows.append(("start-up: gradcli eval small.ag", start, "import numpy, lark", floor,
                 start / floor, "<= 1.3"))

    n_small = 5000 if args.quick else 20000
    g_small = per_iter_gradcli("ones(2, 2, requires_grad=true)", n_small, rep)
    t_small = per_iter_torch((2, 2), n_small)
    np_small = per_iter_numpy((2, 2), n_small)
    rows.append(("2x2 forward+backward, per iteration", g_small, "PyTorch eager", t_small,
                 g_small / t_small if t_small else None, "<= 0.5"))
    rows.append(("", None, "NumPy by hand", np_small, g_small / np_small, "(floor)"))

    n_big = 3 if args.quick else 5
    g_big = per_iter_gradcli("ones(10000000, requires_grad=true)", n_big, max(2, rep // 2))
    t_big = per_iter_torch((10_000_000,), n_big)
    np_big = per_iter_numpy((10_000_000,), n_big)
    rows.append(("1e7 elements forward+backward", g_big, "PyTorch eager", t_big,
                 g_big / t_big if t_big else None, "<= 0.5"))
    rows.append(("", None, "NumPy by hand", np_big, g_big / np_big, "aim <= 3"))

    n_chain = 100_000
    g_chain = chain_backward_gradcli(n_chain, max(2, rep // 2))
    t_chain = chain_backward_torch(n_chain)
    rows.append(("backward of a 100k-node chain", g_chain, "PyTorch eager", t_chain,
                 g_chain / t_chain if t_chain else None, "<= 1.0"))

    g_vm, g_loop = per_sample_grads(1000, max(2, rep // 2))
    rows.append(("per-sample grads, 1000 samples (vmap)", g_vm, "Python loop of grad", g_loop,
                 g_loop / g_vm, ">= 10 (loop/vmap)"))

    small_mem = LOOP.format(make="ones(100, 100, requires_grad=true)", n=2000)
    big_mem = LOOP.format(make="ones(100, 100, requires_grad=true)", n=20000)
    m1 = child_peak_rss_kib(gradcli_program(small_mem))
    m2 = child_peak_rss_kib(gradcli_program(big_mem))
    rows.append(("peak memory, 20000 vs 2000 iterations", m2 * 1024, "2000 iterations",
                 m1 * 1024, m2 / m1, "<= 1.1"))

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{platform.system()} {platform.release()}")
    print(f"{'workload':40} {'gradcli':>10}  {'vs':22} {'time':>10} {'ratio':>7}  goal")
    for name, g, peer, t, ratio, goal in rows:
        if "memory" in name:
            gs, ts = f"{g / 2**20:.0f} MiB", f"{t / 2**20:.0f} MiB"
        else:
            gs, ts = ("" if g is None else fmt(g)), fmt(t)
        rs = "n/a" if ratio is None else f"{ratio:.2f}"
        print(f"{name:40} {gs:>10}  {peer:22} {ts:>10} {rs:>7}  {goal}")


if __name__ == "__main__":
    main()
