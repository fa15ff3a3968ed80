"""Record tests/golden/indexing.json from real PyTorch: the cases of
tests/indexing_cases.py (index_select, gather, scatter, repeat, topk, inverse, ravel,
softmax without a dim), run as scripts/gen_golden.py runs its cases.

    /work/torchenv/bin/python scripts/gen_golden_indexing.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

from gen_golden import record_cases  # noqa: E402
from indexing_cases import CASES  # noqa: E402


def main():
    # importing torch.autograd.forward_ad the first time warns about torch.jit (torch's
    # own import, not the program's)
    record_cases(CASES, "indexing.json", drop_warning=lambda w: "torch.jit" in w)


if __name__ == "__main__":
    main()
