"""tests/golden/inplace.json: in-place operations, version counters, views
(tests/ops/inplace_cases.py), each case run as record.run_program runs a program (float64
default, one statement at a time, a bare expression displayed at top level only)."""

import inplace_cases

from golden.record import run_cases, write


def main(argv):
    out = run_cases(inplace_cases.CASES)
    write("inplace.json", out)
    print("wrote %d cases" % len(out))
