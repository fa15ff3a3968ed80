"""The golden cases: tests/golden/cases.json and grad_fn_names.json from
tests/fidelity/golden_cases.py, reliability.json from golden_cases_reliability.py,
differential.json and differential_wide.json from golden_cases_differential.py and
golden_cases_differential_wide.py, and examples.json from
scripts/examples/*.ag.

    gen_golden.py cases                   all five files
    gen_golden.py cases --reliability     only reliability.json
    gen_golden.py cases --differential    only differential.json and differential_wide.json
    gen_golden.py cases --differential-wide   only differential_wide.json

  cases.json          {name: {"source", "stdout", "error"[, "warnings"]}}
  grad_fn_names.json  {"setup": src, "names": {expr: name | null}}
  examples.json       {"seed_000": {"file", "seed", "stdout", "error"[, "warnings"]}, ...}

Every case and example is run as record.run_program runs a program.  Examples run
in a fresh process each, after ``torch.manual_seed(EXAMPLE_SEED)`` (record.py); the
seed is stored in examples.json ("seed") and tests/fidelity/test_examples.py runs
``gradcli eval --seed SEED FILE``.
"""

import json
import os
import subprocess
import sys
import warnings

import torch

from golden.record import (
    ENTRY,
    EXAMPLE_SEED,
    EXAMPLES,
    ROOT,
    normalise,
    record,
    run_program,
    write,
)


def gen_cases():
    import golden_cases

    out = {}
    for name, source in golden_cases.CASES:
        res = run_program(source, "<%s>" % name)
        out[name] = record(res, source=source)
    return out, golden_cases


def gen_reliability():
    """tests/golden/reliability.json from tests/fidelity/golden_cases_reliability.py."""
    import golden_cases_reliability

    return {
        name: record(run_program(source, "<%s>" % name), source=source)
        for name, source in golden_cases_reliability.CASES
    }


def gen_differential():
    """tests/golden/differential.json from tests/fidelity/golden_cases_differential.py."""
    import golden_cases_differential

    return {
        name: record(run_program(source, "<%s>" % name), source=source)
        for name, source in golden_cases_differential.CASES
    }


def gen_differential_wide():
    """tests/golden/differential_wide.json from golden_cases_differential_wide.py."""
    import golden_cases_differential_wide

    return {
        name: record(run_program(source, "<%s>" % name), source=source)
        for name, source in golden_cases_differential_wide.CASES
    }


def gen_grad_fn_names(golden_cases):
    torch.set_default_dtype(torch.float64)
    ns = {"torch": torch, "F": torch.nn.functional}
    exec(compile(golden_cases.GRAD_FN_SETUP, "<setup>", "exec"), ns)
    names = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for expr in golden_cases.GRAD_FN_EXPRS:
            if expr in names:
                raise ValueError("duplicate grad_fn expression: " + expr)
            value = eval(compile(expr, "<expr>", "eval"), ns)
            fn = value.grad_fn
            names[expr] = None if fn is None else type(fn).__name__
            # the printed form must be exactly <NAME> (or None)
            printed = normalise(str(fn))
            assert printed == ("None" if fn is None else "<%s>" % names[expr]), printed
    return {"setup": golden_cases.GRAD_FN_SETUP, "names": names}


def gen_examples():
    out = {}
    if not os.path.isdir(EXAMPLES):
        return out
    for fname in sorted(os.listdir(EXAMPLES)):
        if not fname.endswith(".ag"):
            continue
        path = os.path.join(EXAMPLES, fname)
        # fresh process: torch's default RNG state, no state from other files
        proc = subprocess.run(
            [sys.executable, ENTRY, "cases", "--run-file", path, str(EXAMPLE_SEED)],
            capture_output=True,
            text=True,
            check=True,
        )
        res = json.loads(proc.stdout)
        rel = os.path.relpath(path, ROOT)
        out[fname[:-3]] = record(res, file=rel, seed=EXAMPLE_SEED)
    return out


def main(argv):
    if len(argv) == 3 and argv[0] == "--run-file":
        with open(argv[1], encoding="utf-8") as fh:
            src = fh.read()
        res = run_program(src, argv[1], seed=int(argv[2]))
        sys.__stdout__.write(json.dumps(res))
        return 0
    if argv == ["--reliability"]:
        write("reliability.json", gen_reliability())
        return 0
    if argv == ["--differential"]:
        write("differential.json", gen_differential())
        write("differential_wide.json", gen_differential_wide())
        return 0
    if argv == ["--differential-wide"]:
        write("differential_wide.json", gen_differential_wide())
        return 0
    if argv:
        print(__doc__)
        return 2
    cases, golden_cases = gen_cases()
    write("cases.json", cases)
    names = gen_grad_fn_names(golden_cases)
    write("grad_fn_names.json", names)
    write("reliability.json", gen_reliability())
    write("differential.json", gen_differential())
    write("differential_wide.json", gen_differential_wide())
    examples = gen_examples()
    write("examples.json", examples)
    n_err = sum(1 for c in cases.values() if c["error"])
    print(
        "torch %s: %d cases (%d ending in an error), %d grad_fn names, %d examples"
        % (torch.__version__, len(cases), n_err, len(names["names"]), len(examples))
    )
    return 0
