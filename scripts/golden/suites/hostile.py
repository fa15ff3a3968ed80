"""tests/golden/hostile.json: the programs where gradcli once differed from PyTorch
in silence (tests/robustness/hostile_cases.py), each run as record.run_program runs a program."""

from hostile_cases import CASES

from golden.record import record_cases


def main(argv):
    record_cases(CASES, "hostile.json", lstrip=True)
