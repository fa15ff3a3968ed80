"""Code from the wild beside the tutorials: published programs nobody wrote for gradcli
(micrograd, d2l's class-based chapters ...) and programs exercising Python's data model
and numpy beside torch, each run as ``python NAME.py`` under real torch 2.13 to record
its output (tests/golden/programs.json, by ``scripts/gen_golden.py programs``)
and run here by gradcli (in a fresh directory each, as torch ran it), whose output must
be the same.  Each file's header names its
source and lists every adaptation."""

import hashlib
import json

import pytest

from conftest import ROOT, check_result, run_gradcli

PROGRAMS = ROOT / "tests" / "programs"
TIMEOUT = 300


def _golden():
    with open(ROOT / "tests" / "golden" / "programs.json", encoding="utf-8") as fh:
        golden = json.load(fh)
    golden.pop("_about", None)
    return golden


GOLDEN = _golden()


def test_every_program_is_recorded():
    files = sorted(p.stem for p in PROGRAMS.glob("*.py") if not p.name.startswith("_"))
    assert files == sorted(GOLDEN), (
        "tests/programs and tests/golden/programs.json differ: run scripts/gen_golden.py programs"
    )


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_matches_file(name):
    with open(ROOT / GOLDEN[name]["file"], "rb") as fh:
        digest = hashlib.sha256(fh.read()).hexdigest()
    assert digest == GOLDEN[name]["sha256"], (
        "%s changed since its golden output was recorded: run "
        "scripts/gen_golden.py programs %s" % (GOLDEN[name]["file"], name)
    )


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_program(name, tmp_path):
    rec = GOLDEN[name]
    # in a fresh directory, as torch's run was recorded: a program may write files there
    # (PyTorch's recipes save and load checkpoints)
    path = str(ROOT / rec["file"])
    result = run_gradcli(args=("eval", *rec["flags"], path), timeout=TIMEOUT, cwd=tmp_path)
    check_result(result, rec["stdout"], rec["error"], what=rec["file"])
