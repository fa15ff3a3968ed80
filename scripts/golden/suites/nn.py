"""tests/golden/nn.json: torch.nn, optim, data and the tensor API (tests/library/nn_cases.py),
each case run as record.run_program runs a program (float64 default, one statement at
a time, a bare expression displayed at top level only)."""

import nn_cases

from golden.record import run_cases, write


def main(argv):
    out = run_cases(nn_cases.CASES)
    write("nn.json", out)
    print("wrote %d cases" % len(out))
