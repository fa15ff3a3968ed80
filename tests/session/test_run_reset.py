"""A fresh run in the same process starts from a fresh state: a run that ended inside
`with torch.inference_mode():` (an error in the block) leaves no mode entered and no
inference checks on for the next run (the tests and the fuzzer run many programs in one
process)."""

from __future__ import annotations

from conftest import run_inprocess
from gradcli.engine import versions
from gradcli.library import inference


def test_an_error_inside_inference_mode_leaves_nothing_for_the_next_run():
    r = run_inprocess(
        "import torch\nx = torch.ones(2)\nwith torch.inference_mode():\n"
        "    y = x * 2\n    z = undefined_name\n"
    )
    assert r.returncode != 0 and "NameError" in r.stderr
    r = run_inprocess(
        "import torch\nprint(torch.is_inference_mode_enabled())\n"
        "x = torch.ones(2, requires_grad=True)\nprint((x * 2).sum())\n"
    )
    assert r.stdout == "False\ntensor(4., grad_fn=<SumBackward0>)\n", r.stderr
    assert versions.state.inference is None
    assert not inference.SPANS.modes and not inference.SPANS.starts


def test_inference_tensors_of_the_same_run_are_still_checked():
    r = run_inprocess(
        "import torch\nwith torch.inference_mode():\n    t = torch.ones(2)\n"
        "w = torch.ones(2, requires_grad=True)\ny = w * t\n"
    )
    assert "Inference tensors cannot be saved for backward" in r.stderr
