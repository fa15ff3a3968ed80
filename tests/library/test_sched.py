"""torch.optim.lr_scheduler: golden cases (tests/golden/sched.json, recorded from
PyTorch 2.13 by scripts/gen_golden.py sched from tests/library/sched_cases.py) replayed
through the command line."""

import pytest

from conftest import check_result, load_golden, run_cases

SCHED = load_golden("sched.json")


@pytest.mark.parametrize("name", list(SCHED))
def test_sched_golden(name):
    case = SCHED[name]
    result = run_cases({name: case["source"]})[name]
    warnings = case.get("warnings", ())
    check_result(result, case["stdout"], case["error"], what=name, warnings=warnings)
    # and no warning torch did not give (the step-order warning is easily given wrongly)
    for line in result.stderr.splitlines():
        if "UserWarning: " in line:
            text = "UserWarning: " + line.split("UserWarning: ", 1)[1]
            assert text in warnings, f"{name}: torch did not warn {text!r}"
