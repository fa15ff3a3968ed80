"""Record tests/golden/hostile.json from real PyTorch: the programs where gradcli
once differed from PyTorch in silence (tests/hostile_cases.py), run as
scripts/gen_golden.py runs its cases.

    $TORCH_PYTHON scripts/gen_golden_hostile.py
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

from gen_golden import record_cases  # noqa: E402
from hostile_cases import CASES  # noqa: E402


def main():
    record_cases(CASES, "hostile.json", lstrip=True)


if __name__ == "__main__":
    main()
