"""torch.optim's Adamax, NAdam, RAdam, Rprop, ASGD, step(closure) and the options gradcli
refuses: golden cases (tests/golden/optim.json, recorded from PyTorch 2.13 by
scripts/gen_golden.py optim from tests/library/optim_cases.py) replayed through the
command line."""

import os
import sys

import pytest

from conftest import check_result, load_golden, run_cases
from gradcli.numerics import mkl

OPTIM = load_golden("optim.json")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from optim_cases import NEEDS_MKL  # noqa: E402


@pytest.mark.parametrize("name", list(OPTIM))
def test_optim_golden(name):
    if name in NEEDS_MKL and not mkl.available():
        pytest.skip("torch's sqrt is MKL's: bit for bit only with the mkl package (the test extra)")
    case = OPTIM[name]
    result = run_cases({name: case["source"]})[name]
    check_result(
        result, case["stdout"], case["error"], what=name, warnings=case.get("warnings", ())
    )


@pytest.mark.parametrize(
    "make",
    [
        "torch.optim.SGD([w], lr=0.1, fused=True)",
        "torch.optim.Adam([w], fused=True)",
        "torch.optim.AdamW([w], differentiable=True)",
        "torch.optim.NAdam([w], foreach=True)",
        "torch.optim.RAdam([w], foreach=True)",
        "torch.optim.ASGD([w], foreach=True)",
    ],
)
def test_options_of_torchs_other_implementations_are_refused(make):
    """torch takes these, but its fused, foreach (for these three) and differentiable
    implementations round differently from the single-tensor one gradcli has (measured
    against torch): refused rather than answered with other numbers."""
    src = f"import torch\nw = torch.tensor([1.0], requires_grad=True)\n{make}\n"
    result = run_cases({"case": src})["case"]
    assert result.returncode == 1
    assert "is not supported by gradcli" in result.stderr and "Traceback" not in result.stderr
