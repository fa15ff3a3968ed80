#!/usr/bin/env python3
"""Differential testing of gradcli against CPython on random plain-Python programs.

    python scripts/pydifftest.py --count 500 --seed 1    # summary and each difference
    python scripts/pydifftest.py --count 2000 --quiet    # the summary only
    python scripts/pydifftest.py --show 42               # program 42's text
    python scripts/pydifftest.py --count 200 --minimise  # shrink each difference

Programs come from tests/differential/pygen.py (its docstring says what they hold and
what they leave out, where gradcli is not Python by design); both CPython (this Python,
in this process) and gradcli (with its fast tier and without) run each one; the outputs
and the errors they end with (type and message) must be the same. The exit status is 1
when any program differs.
"""

import argparse
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from differential import pygen, pyrun  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0, help="the first program's number")
    ap.add_argument("--show", type=int, metavar="N", help="print program N and stop")
    ap.add_argument("--quiet", action="store_true", help="the summary only")
    ap.add_argument("--minimise", action="store_true", help="shrink each difference")
    args = ap.parse_args(argv)
    if args.show is not None:
        print(pygen.program(args.show), end="")
        return 0
    t0 = time.perf_counter()
    kinds = collections.Counter()
    differ = 0
    py_errors = 0
    for seed in range(args.seed, args.seed + args.count):
        src = pygen.program(seed)
        py, diffs = pyrun.compare(src)
        py_errors += py["error"] is not None
        if not diffs:
            continue
        differ += 1
        for tier, kind, _ in diffs:
            kinds[f"{kind} ({tier})"] += 1
        if args.quiet:
            continue
        tier, kind, g = diffs[0]
        if args.minimise:
            src = pyrun.minimise(src, tier, kind)
            py, g = pyrun.run_cpython(src), pyrun.run_gradcli(src, tier == "fast")
        print("=" * 72)
        print(f"program {seed}: {kind} ({', '.join(t for t, _, _ in diffs)})")
        print(src, end="")
        print("--- CPython:\n" + _shown(py))
        print(f"--- gradcli ({tier}):\n" + _shown(g))
        sys.stdout.flush()
    n = args.count
    print(
        f"{n} programs in {time.perf_counter() - t0:.1f} s: {n - differ} the same, "
        f"{differ} differ ({py_errors} end in an error under CPython)"
    )
    for k, c in kinds.most_common():
        print(f"  {c:5d}  {k}")
    return 1 if differ else 0


def _shown(r):
    """The end of a run's output, and its error."""
    lines = r["stdout"].splitlines()
    text = "\n".join(lines[-12:])
    if r["error"]:
        text += f"\n[{r['status']}] {r['error'][0]}: {r['error'][1]}"
    elif r["status"] != "ok":
        text += f"\n[{r['status']}]"
    return text


if __name__ == "__main__":
    sys.exit(main())
