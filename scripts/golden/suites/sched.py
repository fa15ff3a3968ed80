"""tests/golden/sched.json: torch.optim.lr_scheduler (tests/library/sched_cases.py), each
case run as record.run_program runs a program (float64 default, one statement at a time,
a bare expression displayed at top level only)."""

import sched_cases

from golden.record import run_cases, write


def main(argv):
    out = run_cases(sched_cases.CASES, module="__main__")  # (the program's classes)
    write("sched.json", out)
    print("wrote %d cases" % len(out))
