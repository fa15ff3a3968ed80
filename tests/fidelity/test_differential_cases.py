"""The differential test's findings as golden cases (tests/fidelity/golden_cases_differential.py
and golden_cases_differential_wide.py, recorded from torch into tests/golden/differential.json
and differential_wide.json): each must match PyTorch."""

import pytest

from conftest import check_result, load_golden, run_cases

CASES = {**load_golden("differential.json"), **load_golden("differential_wide.json")}


@pytest.mark.parametrize("name", list(CASES))
def test_differential_case(name):
    case = CASES[name]
    result = run_cases({name: case["source"]})[name]
    check_result(
        result, case["stdout"], case["error"], what=name, warnings=case.get("warnings", ())
    )
