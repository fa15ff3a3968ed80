"""The tutorial suite: published PyTorch and d2l tutorials, run unchanged by gradcli.

tests/tutorials/NAME.py hold the code of published tutorials (each file's header
names the repository, path and commit it was taken from and lists every
adaptation).  tests/golden/tutorials.json holds what each printed under real
torch 2.13, run as ``python NAME.py`` (scripts/gen_golden.py tutorials).  Each is
run here as ``python -m gradcli eval FLAGS tests/tutorials/NAME.py`` and its stdout
must equal torch's exactly (and, where torch raised, the same error).

tests/tutorials/STATUS says, per tutorial, "passes" or "pending: <what is
missing> (issue N)".  A pending tutorial is skipped with that reason (pytest
-rs shows it); a passing one must match.  scripts/tutorial_status.py shows
where each pending one stops today.
"""

import hashlib
import json
import os

import pytest

from conftest import ROOT, check_result, run_gradcli

TUTORIALS = ROOT / "tests" / "tutorials"
STATUS_FILE = TUTORIALS / "STATUS"
# a tutorial trains for a while: more time than a golden case
TIMEOUT = float(os.environ.get("GRADCLI_TUTORIAL_TIMEOUT", "300"))


def load_status(path=STATUS_FILE):
    """{name: None (passes) | reason (pending)} from the STATUS file."""
    status = {}
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, sep, rest = line.partition(":")
            rest = rest.strip()
            if not sep or name.strip() in status:
                raise ValueError("%s:%d: bad or repeated line %r" % (path, number, line))
            if rest == "passes":
                status[name.strip()] = None
            elif rest.startswith("pending:") and rest[len("pending:") :].strip():
                status[name.strip()] = rest[len("pending:") :].strip()
            else:
                raise ValueError(
                    "%s:%d: want 'NAME: passes' or 'NAME: pending: REASON', "
                    "got %r" % (path, number, line)
                )
    return status


def load_tutorial_golden():
    with open(ROOT / "tests" / "golden" / "tutorials.json", encoding="utf-8") as fh:
        golden = json.load(fh)
    golden.pop("_about", None)
    return golden


GOLDEN = load_tutorial_golden()
STATUS = load_status()


def test_manifest_covers_every_tutorial():
    files = sorted(p.stem for p in TUTORIALS.glob("*.py") if not p.name.startswith("_"))
    assert files == sorted(GOLDEN), (
        "tutorials and tests/golden/tutorials.json differ: run scripts/gen_golden.py tutorials"
    )
    assert files == sorted(STATUS), "tutorials and tests/tutorials/STATUS differ"


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_matches_file(name):
    """The golden output was recorded from the file as it is now."""
    with open(ROOT / GOLDEN[name]["file"], "rb") as fh:
        digest = hashlib.sha256(fh.read()).hexdigest()
    assert digest == GOLDEN[name]["sha256"], (
        "%s changed since its golden output was recorded: run "
        "$TORCH_PYTHON scripts/gen_golden.py tutorials %s" % (GOLDEN[name]["file"], name)
    )


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_tutorial(name):
    reason = STATUS.get(name, "not listed in tests/tutorials/STATUS")
    if reason is not None:
        pytest.skip("%s pending: %s" % (name, reason))
    rec = GOLDEN[name]
    result = run_gradcli(args=("eval", *rec["flags"], rec["file"]), timeout=TIMEOUT)
    check_result(result, rec["stdout"], rec["error"], what=rec["file"])


def test_load_status_rejects_bad_lines(tmp_path):
    good = tmp_path / "good"
    good.write_text("# comment\n\na: passes\nb: pending: classes\n")
    assert load_status(good) == {"a": None, "b": "classes"}
    for text in ("a: pass\n", "a: pending:\n", "a passes\n", "a: passes\na: passes\n"):
        bad = tmp_path / "bad"
        bad.write_text(text)
        with pytest.raises(ValueError):
            load_status(bad)
