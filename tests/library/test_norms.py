"""The normalisation layers: golden cases (tests/golden/norms.json, recorded from
PyTorch 2.13 by scripts/gen_golden.py norms from tests/library/norm_cases.py) replayed
through the command line."""

import pytest

from conftest import check_result, load_golden, run_cases

NORMS = load_golden("norms.json")


@pytest.mark.parametrize("name", list(NORMS))
def test_norms_golden(name):
    case = NORMS[name]
    result = run_cases({name: case["source"]})[name]
    check_result(
        result, case["stdout"], case["error"], what=name, warnings=case.get("warnings", ())
    )
