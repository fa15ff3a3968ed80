#!/usr/bin/env python3
"""Long fuzz runs of gradcli (see tests/robustness/fuzzing.py, which holds the machinery that
tests/robustness/test_fuzz.py runs briefly in CI):

    scripts/fuzz.py --count 100000
    scripts/fuzz.py --seconds 600 --mode mutate --seed 7
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "robustness"))
from fuzzing import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
