"""tests/golden/ops_more.json: order statistics, nan-reductions, moments, index updates and
the other torch functions real code uses (tests/ops/ops_more_cases.py), each case run as
record.run_program runs a program."""

import ops_more_cases

from golden.record import run_cases, write


def main(argv):
    out = run_cases(ops_more_cases.CASES)
    write("ops_more.json", out)
    print("wrote %d cases" % len(out))
