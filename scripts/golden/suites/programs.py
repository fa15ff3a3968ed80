"""tests/golden/programs.json: the programs of tests/programs/ (published code beside
the tutorials, and programs exercising Python's data model), recorded as the tutorials
suite records the tutorials (its docstring says how).

    $TORCH_PYTHON scripts/gen_golden.py programs [NAME ...]
"""

from golden.suites import tutorials


def main(argv):
    return tutorials.main(["--suite", "programs", *argv])
