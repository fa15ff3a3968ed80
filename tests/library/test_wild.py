"""The torch API that lectures and books use every day: golden cases
(tests/golden/wild.json, recorded from PyTorch 2.13 by scripts/gen_golden.py wild from
tests/library/wild_cases.py) replayed through the command line."""

import pytest

from conftest import check_result, load_golden, run_cases

WILD = load_golden("wild.json")


@pytest.mark.parametrize("name", list(WILD))
def test_wild_golden(name):
    case = WILD[name]
    result = run_cases({name: case["source"]})[name]
    check_result(
        result, case["stdout"], case["error"], what=name, warnings=case.get("warnings", ())
    )
