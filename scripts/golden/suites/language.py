"""tests/golden/language.json: the language cases (tests/language/language_cases.py), each run
as record.run_program runs a program."""

from language_cases import CASES

from golden.record import record_cases


def main(argv):
    record_cases(CASES, "language.json", lstrip=True)
