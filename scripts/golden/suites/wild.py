"""tests/golden/wild.json: the torch API that lectures and books use (generators and
sampling, sorting, counting, numpy spellings, the makemore lectures;
tests/library/wild_cases.py), each case run as record.run_program runs a program."""

import wild_cases

from golden.record import run_cases, write


def main(argv):
    out = run_cases(wild_cases.CASES)
    write("wild.json", out)
    print("wrote %d cases" % len(out))
