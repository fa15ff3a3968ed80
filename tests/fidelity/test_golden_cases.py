"""Golden-file tests: gradcli's output must equal PyTorch's, byte for byte.

tests/golden/cases.json is recorded from real PyTorch by
scripts/gen_golden.py cases (cases in tests/fidelity/golden_cases.py).  Each case is a
program in the common subset of Python and gradcli; here it is run with
``python -m gradcli eval -`` (source on stdin, cwd = repository root) and

  * its stdout must equal the recorded stdout exactly;
  * if torch raised, gradcli must exit with code 1, having printed the same
    stdout up to the error, and its stderr must contain the first line of
    torch's message (compared case-insensitively with whitespace collapsed;
    for a long message only its first sentence).

The runners (``run_gradcli``, a subprocess; ``run_inprocess``) and the
comparison (``check_result``) live in tests/conftest.py.
"""

import pytest

from conftest import check_result, error_needle, load_golden, run_cases, squash  # noqa: F401
from conftest import ROOT, run_gradcli, run_inprocess  # noqa: F401  (used from here by other helpers)

# ---------------------------------------------------------------------------
# the tests
# ---------------------------------------------------------------------------

CASES = load_golden("cases.json")


@pytest.mark.parametrize("name", list(CASES))
def test_golden_case(name):
    case = CASES[name]
    result = run_cases({name: case["source"]})[name]
    check_result(
        result, case["stdout"], case["error"], what=name, warnings=case.get("warnings", ())
    )


def test_error_needle():
    assert (
        error_needle("grad can be implicitly created only for scalar outputs")
        == "grad can be implicitly created only for scalar outputs"
    )
    assert (
        error_needle(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            "or complex dtype. Got: Long"
        )
        == "mean(): could not infer output dtype"
    )
    assert error_needle(
        "Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] "
        "has a shape of torch.Size([2])."
    ) == squash(
        "Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] "
        "has a shape of torch.Size([2])"
    )
    assert squash("  A\n  b\tC ") == "a b c"
