"""Record tests/golden/indexing.json from real PyTorch: the cases of
tests/ops/indexing_cases.py (index_select, gather, scatter, repeat, topk, inverse, ravel,
softmax without a dim), each run as record.run_program runs a program; and
tests/golden/topk_ties.json: torch.topk's indices on random rows full of ties (and
NaNs), every path of its CPU kernel (partial_sort, nth_element, sorted or not).

    $TORCH_PYTHON scripts/gen_golden.py indexing
"""

import random

from indexing_cases import CASES

from golden.record import record_cases, write


def topk_ties():
    import torch

    rng = random.Random(1)
    rows = []
    for _ in range(240):
        n = rng.choice([1, 2, 3, 5, 8, 16, 17, 20, 33, 64, 65, 100, 130, 200, 300])
        m = rng.choice([2, 3, 5, 10, 1000])
        row = [float(rng.randrange(m)) for _ in range(n)]
        if rng.random() < 0.2:
            for _ in range(rng.randrange(1, 4)):
                row[rng.randrange(n)] = float("nan")
        k = rng.randrange(0, n + 1) if rng.random() < 0.5 else min(n, rng.choice([1, 2, 3]))
        largest, srt = rng.random() < 0.7, rng.random() < 0.8
        dtype = rng.choice([torch.float64, torch.float32])
        idx = torch.tensor(row, dtype=dtype).topk(k, largest=largest, sorted=srt).indices
        rows.append(
            {
                "row": [None if v != v else v for v in row],
                "k": k,
                "largest": largest,
                "sorted": srt,
                "dtype": str(dtype).replace("torch.", ""),
                "indices": idx.tolist(),
            }
        )
    path = write("topk_ties.json", rows, separators=(",", ":"))
    print(f"{len(rows)} rows -> {path}")


def main(argv):
    # importing torch.autograd.forward_ad the first time warns about torch.jit (torch's
    # own import, not the program's)
    record_cases(CASES, "indexing.json", drop_warning=lambda w: "torch.jit" in w)
    topk_ties()
