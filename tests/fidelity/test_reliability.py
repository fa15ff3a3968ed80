"""golden cases (tests/fidelity/golden_cases_reliability.py, recorded from torch into
tests/golden/reliability.json): each must match PyTorch's output or error."""

import pytest

from conftest import check_result, load_golden, run_cases

CASES = load_golden("reliability.json")


@pytest.mark.parametrize("name", list(CASES))
def test_reliability_case(name):
    case = CASES[name]
    result = run_cases({name: case["source"]})[name]
    check_result(
        result, case["stdout"], case["error"], what=name, warnings=case.get("warnings", ())
    )
