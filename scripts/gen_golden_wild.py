"""Record tests/golden/wild.json from real PyTorch (the torch API that lectures and books
use: generators and sampling, sorting, counting, numpy spellings, the makemore
lectures); cases in tests/wild_cases.py, run as scripts/gen_golden.py runs its cases.

    $TORCH_PYTHON scripts/gen_golden_wild.py
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from gen_golden import GOLDEN, ROOT, _record, _write, run_program  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "tests"))  # the cases are test data
import wild_cases  # noqa: E402


def main():
    out = {}
    for name, source in wild_cases.CASES:
        out[name] = _record(run_program(source, "<%s>" % name), source=source)
    _write(os.path.join(GOLDEN, "wild.json"), out)
    print("wrote %d cases" % len(out))


if __name__ == "__main__":
    main()
