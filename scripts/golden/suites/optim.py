"""tests/golden/optim.json: torch.optim's optimizers and options beyond nn.json's
(tests/library/optim_cases.py), each case run as record.run_program runs a program
(float64 default, one statement at a time, a bare expression displayed at top level
only)."""

import optim_cases

from golden.record import run_cases, write


def main(argv):
    out = run_cases(optim_cases.CASES)
    write("optim.json", out)
    print("wrote %d cases" % len(out))
