"""Order statistics, nan-reductions, moments, index updates and the other torch functions
real code uses: golden cases (tests/golden/ops_more.json, recorded from PyTorch 2.13 by
scripts/gen_golden.py ops_more from tests/ops/ops_more_cases.py) replayed through the
command line: values bit for bit in float32 and float64, grad_fn names, gradients and
errors in PyTorch's words."""

import pytest

from conftest import check_result, load_golden, run_cases

CASES = load_golden("ops_more.json")


@pytest.mark.parametrize("name", list(CASES))
def test_ops_more_golden(name):
    case = CASES[name]
    result = run_cases({name: case["source"]})[name]
    check_result(
        result, case["stdout"], case["error"], what=name, warnings=case.get("warnings", ())
    )
