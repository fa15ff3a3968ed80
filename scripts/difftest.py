#!/usr/bin/env python3
"""Differential testing of gradcli against PyTorch on random autograd programs.

    python scripts/difftest.py --count 1000 --seed 1          # summary and each difference
    python scripts/difftest.py --count 5000 --seed 7 --quiet  # the match rate, by kind
    python scripts/difftest.py --show 42                      # program 42's text
    python scripts/difftest.py --count 200 --minimise         # shrink each difference
    python scripts/difftest.py --count 500 --wide             # the wider programs

Programs come from tests/differential/generator.py; torch runs them in one process of
$GRADCLI_TORCH_PYTHON (or this Python, if it has torch); gradcli in this process.
Differences that the README's "Known differences from PyTorch" allows are counted
apart (tests/differential/allowed.py says which); the exit status is 1 when any other
difference is found.
"""

import argparse
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from differential import allowed, generator, runner, widegen  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0, help="the first program's number")
    ap.add_argument("--area", choices=generator.AREAS)
    ap.add_argument("--show", type=int, metavar="N", help="print program N and stop")
    ap.add_argument("--quiet", action="store_true", help="the summary only")
    ap.add_argument("--minimise", action="store_true", help="shrink each difference")
    ap.add_argument("--kind", help="report only differences of this kind")
    ap.add_argument("--wide", action="store_true", help="the wider programs of widegen.py")
    ap.add_argument("--all", action="store_true", help="report allowed differences too")
    args = ap.parse_args(argv)
    gen = widegen if args.wide else generator
    if args.show is not None:
        print(gen.program(args.show, args.area)[1], end="")
        return 0
    python = runner.torch_python()
    if python is None:
        print("no Python with torch: set GRADCLI_TORCH_PYTHON", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    report = run(python, range(args.seed, args.seed + args.count), args)
    n = args.count
    kinds = collections.Counter(k for _, k, a in report if a is None)
    allowed_kinds = collections.Counter(a for _, k, a in report if a is not None)
    same = n - len(report)
    print(
        f"{n} programs in {time.perf_counter() - t0:.1f} s: {same} print the same "
        f"({100 * same / n:.2f}%), {sum(allowed_kinds.values())} differ as allowed, "
        f"{sum(kinds.values())} differ otherwise"
    )
    for k, c in kinds.most_common():
        print(f"  {c:5d}  {k}")
    for k, c in allowed_kinds.most_common():
        print(f"  {c:5d}  allowed: {k}")
    return 1 if kinds else 0


def run(python, seeds, args):
    """[(seed, kind, allowed-id or None)] of the programs that differ; prints each."""
    worker = runner.TorchWorker(python)
    gen = widegen if args.wide else generator
    progs = [gen.program(s, args.area) for s in seeds]
    feeder = worker.start([src for _, src in progs])
    gres = [runner.run_gradcli(src) for _, src in progs]
    tres = worker.results(len(progs))
    feeder.join()
    out = []
    for seed, (area, src), t, g in zip(seeds, progs, tres, gres):
        t, g = runner.settle(src, t, g, worker)
        kind = runner.classify(t, g)
        if kind is None:
            continue
        allow = allowed.which(src, t, g, kind)
        out.append((seed, kind, allow))
        if args.quiet or (args.kind and kind != args.kind) or (allow and not args.all):
            continue
        if args.minimise:
            src = runner.minimise(src, kind, worker.run)
            t, g = worker.run(src), runner.run_gradcli(src)
        tt, gt = runner.first_difference(t, g)
        print("=" * 72)
        print(f"program {seed} ({area}): {kind}" + (f" (allowed: {allow})" if allow else ""))
        print(src, end="")
        print("--- torch:\n" + tt.rstrip())
        print("--- gradcli:\n" + gt.rstrip())
    worker.close()
    return out


if __name__ == "__main__":
    sys.exit(main())
