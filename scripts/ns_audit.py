#!/usr/bin/env python3
"""Audit the torch-namespace functions and tensor methods against PyTorch: for every op
that gradcli exposes as `torch.NAME` and that is also in torch.nn.functional or is a loss
or reduction, and for every tensor method, call it with the op's declared sample
arguments (its `checks`), positional tensors only and every default, under gradcli and
under torch, and print where the printed results differ (shape, dtype, values, grad_fn).

    python scripts/ns_audit.py [--torch PYTHON] [--show]

Run with gradcli's venv from the repository root; PYTHON (default $TORCH_PYTHON) is the
venv with torch, run with ATEN_CPU_CAPABILITY=avx2.  Both sides work in float64, as
gradcli does by default.  The functional/loss names the torch namespace shares are found
from torch itself, so the audit widens as ops are added.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import gradcli.session  # noqa: E402,F401  (registers every built-in)
from gradcli.ops import registry as ops  # noqa: E402
from gradcli.core.tensor import Tensor  # noqa: E402
from gradcli.ops.registry import Arg  # noqa: E402

# run under torch: the names of torch's namespace that torch.nn.functional also has
TORCH_NAMES = (
    "import json, torch, torch.nn.functional as F\n"
    "print(json.dumps(sorted(n for n in dir(torch) if not n.startswith('_')"
    " and n in dir(F))))\n"
)

# run under torch: exec a program in float64 as gradcli runs it
TORCH_RUN = (
    "import sys, torch, torch.nn.functional as F\n"
    "torch.set_default_dtype(torch.float64)\n"
    "exec(compile(sys.stdin.read(), '<audit>', 'exec'), {'torch': torch, 'F': F})\n"
)

KINDS = ("loss", "reduce")


def _literal(v):
    if isinstance(v, list):
        return "[" + ", ".join(map(_literal, v)) + "]"
    return repr(v) if isinstance(v, int) else repr(float(v))


def samples(entry, every):
    """The op's samples' positional arguments: the leading tensors of the first sample,
    or (`every`) each sample's positional arguments, numbers and tuples too."""
    if not entry.checks:
        return []
    if every:
        return [list(args) for args, _ in entry.checks if args]
    out = []
    for a in entry.checks[0][0]:
        if not isinstance(a, (Arg, Tensor)):
            break
        out.append(a)
    return [out] if out else []


class _Inputs:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.lines = []

    def arg(self, a):
        """The text of one argument (a tensor made on a line of its own)."""
        if isinstance(a, (Arg, Tensor)):
            if isinstance(a, Tensor):  # a fixed sample (class labels, signs)
                data, grad = a.data.tolist(), ""
                dtype = "" if a.data.dtype.kind == "f" else f", dtype=torch.{a.data.dtype}"
            else:
                data = np.round(self.rng.uniform(a.lo, a.hi, size=a.shape), 2).tolist()
                grad, dtype = (", requires_grad=True" if a.grad else ""), ""
            name = f"a{len(self.lines)}"
            self.lines.append(f"{name} = torch.tensor({_literal(data)}{dtype}{grad})")
            return name
        if isinstance(a, list):
            return "[" + ", ".join(map(self.arg, a)) + "]"
        if isinstance(a, tuple):
            return "(" + "".join(self.arg(x) + ", " for x in a) + ")"
        return repr(a)


def calls(functional, every=False):
    """[(label, inputs, call)]: each audited call."""
    out, seen = [], set()
    for table in (ops.BUILTINS, ops.METHOD_ONLY):
        for name, entry in sorted(table.items()):
            if id(entry) in seen or "." in name:
                continue
            seen.add(id(entry))
            for k, args in enumerate(samples(entry, every)):
                b = _Inputs(sum(map(ord, entry.name)) * 100 + k)
                names = [b.arg(a) for a in args]
                inputs = "\n".join(b.lines)
                for n in [entry.name, *entry.aliases]:
                    if entry.function and (n in functional or entry.category in KINDS):
                        out.append((f"torch.{n}", inputs, f"torch.{n}({', '.join(names)})"))
                    if entry.method and names and names[0].startswith("a"):
                        call = f"{names[0]}.{n}({', '.join(names[1:])})"
                        out.append((f"Tensor.{n}", inputs, call))
    return out


def program(items):
    body = []
    for label, inputs, call in items:
        body.append(inputs)
        body.append("try:")
        body.append(f"    r = {call}")
        body.append(f"    print({label!r}, type(r).__name__, r)")
        body.append("except Exception as e:")
        body.append(f"    print({label!r}, 'error', type(e).__name__)")
        body.append(f"print({'=' * 8!r})")
    return "\n".join(body) + "\n"


def blocks(text):
    return [b.strip("\n") for b in text.split("=" * 8)]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--torch", default=os.environ.get("TORCH_PYTHON", sys.executable))
    p.add_argument("--show", action="store_true", help="print both sides of each difference")
    p.add_argument(
        "--every",
        action="store_true",
        help="every sample, with its positional numbers and tuples too (not only the first "
        "sample's leading tensors)",
    )
    opts = p.parse_args(argv)
    env = dict(os.environ, ATEN_CPU_CAPABILITY="avx2", MKL_ENABLE_INSTRUCTIONS="AVX2")
    functional = set(
        json.loads(
            subprocess.run(
                [opts.torch, "-c", TORCH_NAMES], capture_output=True, text=True, env=env
            ).stdout
        )
    )
    items = calls(functional, opts.every)
    src = program(items)
    theirs = subprocess.run(
        [opts.torch, "-c", TORCH_RUN], input=src, capture_output=True, text=True, env=env
    )
    genv = dict(os.environ, PYTHONPATH=ROOT)
    ours = subprocess.run(
        [sys.executable, "-m", "gradcli", "eval", "-"],
        input=src,
        capture_output=True,
        text=True,
        env=genv,
    )
    t, g = blocks(theirs.stdout), blocks(ours.stdout)
    if theirs.stderr.strip() or ours.stderr.strip():
        print("torch stderr:", theirs.stderr[-2000:], "\ngradcli stderr:", ours.stderr[-2000:])
    differ = 0
    for i, (label, _, call) in enumerate(items):
        a = t[i] if i < len(t) else "<missing>"
        b = g[i] if i < len(g) else "<missing>"
        if a != b:
            differ += 1
            print(f"DIFF {call}")
            if opts.show:
                print("  torch:  ", a.replace("\n", "\n           "))
                print("  gradcli:", b.replace("\n", "\n           "))
    print(f"{len(items)} calls, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
