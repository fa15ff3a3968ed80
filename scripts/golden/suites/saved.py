"""tests/golden/saved.json: the saved-tensor cases (tests/engine/saved_cases.py), each run as
record.run_program runs a program."""

from saved_cases import CASES

from golden.record import record_cases


def main(argv):
    # importing torch.autograd.forward_ad the first time warns about torch.jit (torch's
    # own import, not the program's)
    record_cases(CASES, "saved.json", drop_warning=lambda w: "torch.jit" in w)
