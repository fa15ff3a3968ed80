"""Record tests/golden/inplace.json from real PyTorch: in-place operations, version
counters, views; cases in tests/inplace_cases.py (test data), run as
scripts/gen_golden.py runs its cases (float64 default, one statement at a time, a bare
expression displayed at top level only).

    $TORCH_PYTHON scripts/gen_golden_inplace.py
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from gen_golden import GOLDEN, ROOT, _record, _write, run_program  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "tests"))  # the cases are test data
import inplace_cases  # noqa: E402


def main():
    out = {}
    for name, source in inplace_cases.CASES:
        out[name] = _record(run_program(source, "<%s>" % name), source=source)
    _write(os.path.join(GOLDEN, "inplace.json"), out)
    print("wrote %d cases" % len(out))


if __name__ == "__main__":
    main()
