"""index_select, gather, scatter, scatter_add, repeat, topk, inverse / linalg.inv, ravel
and softmax without a dim: the programs of tests/ops/indexing_cases.py against torch 2.13's
output (tests/golden/indexing.json, scripts/gen_golden.py indexing), and topk's order of
ties against libstdc++'s algorithms on many random rows."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import check_result, load_golden, run_inprocess
from gradcli.numerics.random import stl_order
from gradcli.ops.topk import topk_indices

CASES = load_golden("indexing.json")
TIES = load_golden("topk_ties.json")


@pytest.mark.parametrize("name", list(CASES))
def test_indexing_golden(name):
    case = CASES[name]
    result = run_inprocess(case["source"])
    check_result(
        result, case["stdout"], case["error"], what=name, warnings=case.get("warnings", ())
    )


def _less(x, y):
    return x[0] < y[0]


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 16, 17, 40, 300])
def test_stl_orderings_sort(n):
    """The three algorithms order (value, index) pairs by value (ties anywhere)."""
    rng = np.random.default_rng(n)
    vals = rng.integers(0, 4, n).tolist()
    for k in range(0, n + 1, max(1, n // 7)):
        a = list(zip(vals, range(n)))
        stl_order.partial_sort(a, 0, k, n, _less)
        assert [v for v, _ in a[:k]] == sorted(vals)[:k]
        assert sorted(a) == sorted(zip(vals, range(n)))
        if k:
            b = list(zip(vals, range(n)))
            stl_order.nth_element(b, 0, k - 1, n, _less)
            assert b[k - 1][0] == sorted(vals)[k - 1]
            assert all(v <= b[k - 1][0] for v, _ in b[:k]) and all(
                v >= b[k - 1][0] for v, _ in b[k:]
            )
    c = list(zip(vals, range(n)))
    stl_order.sort(c, 0, n, _less)
    assert [v for v, _ in c] == sorted(vals)


def test_topk_ties_as_torch():
    """torch.topk's indices on 240 random rows of ties and NaNs (every path of its CPU
    kernel), recorded from torch 2.13: the same positions."""
    wrong = []
    for i, case in enumerate(TIES):
        row = np.array([np.nan if v is None else v for v in case["row"]], dtype=case["dtype"])
        got = topk_indices(row, case["k"], 0, case["largest"], case["sorted"]).tolist()
        if got != case["indices"]:
            wrong.append((i, got, case["indices"]))
    assert not wrong, wrong[:3]


def test_chunk_pieces_are_chunks_pieces():
    """chunk_pieces (a GRU step's gates) makes the pieces of chunk it is asked for: the
    same values, the same nodes (name and saved dim and split size), the same gradients."""
    from gradcli.core.tensor import Tensor
    from gradcli.engine import autograd
    from gradcli.ops.registry import FUNCTIONS as F

    rng = np.random.default_rng(0)
    for shape, dim, which in (((4, 9), 1, (2,)), ((6, 3), 0, (0, 1)), ((2, 12), -1, (1, 3))):
        chunks = 3 if 9 in shape or 6 in shape else 4
        data = rng.standard_normal(shape)
        grads = []
        for make in (
            lambda x: [F["chunk"](x, chunks, dim)[i] for i in which],
            lambda x: list(F["chunk_pieces"](x, chunks, dim, which)),
        ):
            x = Tensor(data.copy(), True)
            pieces = make(x)
            names = [(p.grad_fn.name, p.grad_fn.given, p.data.tolist()) for p in pieces]
            total = F["sum"](F["mul"](pieces[-1], pieces[0]))
            autograd.run_backward([total], [None])
            grads.append((names, x.grad.data.tolist()))
        assert grads[0] == grads[1]
        assert grads[0][0][0][0] == "SplitBackward0"


def test_index_array_bounds_before_memory_cap():
    """x[indices] leaves one index array's bounds to NumPy's indexing: an index out of
    bounds is still PyTorch's IndexError, before the memory cap refuses the result."""
    src = "x = torch.zeros(2, 100000)\nidx = torch.full((100000,), 2)\nx[idx]\n"
    r = run_inprocess(src)
    assert r.returncode == 1
    assert "IndexError: index 2 is out of bounds for dimension 0 with size 2" in r.stderr
    r = run_inprocess(src.replace("full((100000,), 2)", "full((100000,), 1)"))
    assert "LimitError" in r.stderr and "memory cap" in r.stderr
