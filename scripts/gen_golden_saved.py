"""Record tests/golden/saved.json from real PyTorch: the saved-tensor cases
(tests/saved_cases.py), run as scripts/gen_golden.py runs its cases.

    $TORCH_PYTHON scripts/gen_golden_saved.py
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

from gen_golden import record_cases  # noqa: E402
from saved_cases import CASES  # noqa: E402


def main():
    # importing torch.autograd.forward_ad the first time warns about torch.jit (torch's
    # own import, not the program's)
    record_cases(CASES, "saved.json", drop_warning=lambda w: "torch.jit" in w)


if __name__ == "__main__":
    main()
