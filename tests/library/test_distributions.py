"""torch.distributions: golden cases (tests/golden/distributions.json, recorded from
PyTorch 2.13 by scripts/gen_golden.py distributions from
tests/library/distributions_cases.py) replayed through the command line."""

import pytest

from conftest import check_result, load_golden, run_cases

DISTRIBUTIONS = load_golden("distributions.json")


@pytest.mark.parametrize("name", list(DISTRIBUTIONS))
def test_distributions_golden(name):
    case = DISTRIBUTIONS[name]
    result = run_cases({name: case["source"]})[name]
    check_result(
        result, case["stdout"], case["error"], what=name, warnings=case.get("warnings", ())
    )
