"""Differential test against CPython: random plain-Python programs
(tests/differential/pygen.py) run by gradcli, with its fast tier and without, must print
what the CPython running the tests prints and end as it does (the same error type and
message). A brief run: GRADCLI_PYDIFF_COUNT programs (10 by default) from a fixed first
seed, and as many from a seed made from the commit, so that each commit tries programs
no earlier one did. `scripts/pydifftest.py` runs any number of them and shrinks what it
finds.
"""

from __future__ import annotations

import os

import pytest

from differential import pygen, pyrun
from differential.test_differential import commit_seed

COUNT = int(os.environ.get("GRADCLI_PYDIFF_COUNT", "10"))
FIXED_SEED = 0
SHOWN = 3  # differences shrunk and printed when the test fails


def check(first):
    bad = []
    for seed in range(first, first + COUNT):
        src = pygen.program(seed)
        py, diffs = pyrun.compare(src)
        assert py["status"] == "ok" or py["error"], f"program {seed} hangs in CPython"
        bad += [(seed, src, tier, kind) for tier, kind, _ in diffs]
    if not bad:
        return
    lines = [f"{len(bad)} runs of {COUNT} programs differ from CPython (first seed {first}):"]
    for seed, src, tier, kind in bad[:SHOWN]:
        small = pyrun.minimise(src, tier, kind, budget=150)
        py, g = pyrun.run_cpython(small), pyrun.run_gradcli(small, tier == "fast")
        lines += [f"--- program {seed} ({tier}): {kind}, shrunk:", small.rstrip()]
        lines += ["CPython:", py["stdout"].rstrip(), str(py["error"] or "")]
        lines += ["gradcli:", g["stdout"].rstrip(), str(g["error"] or "")]
    lines.append("(python scripts/pydifftest.py --seed N --count 1 --minimise shows program N)")
    pytest.fail("\n".join(lines), pytrace=False)


def test_fixed_seed():
    check(FIXED_SEED)


def test_commit_seed():
    seed = commit_seed()
    if seed is None:
        pytest.skip("not a git checkout and no GRADCLI_DIFF_SEED")
    check(seed)


def test_generator_is_deterministic_and_varied():
    assert pygen.program(123) == pygen.program(123)
    assert len({pygen.program(s) for s in range(30)}) == 30


def test_programs_run_in_cpython():
    """The generator's programs are well-typed enough: CPython runs most to the end."""
    ends = [pyrun.run_cpython(pygen.program(s)) for s in range(200, 230)]
    assert all(r["status"] in ("ok", "error") for r in ends)
    assert sum(r["error"] is None for r in ends) >= 25


def test_classify():
    """Each kind of difference is found (records made up)."""
    ok = {"stdout": "1\n", "error": None, "status": "ok"}
    assert pyrun.classify(ok, ok) is None
    assert pyrun.classify(ok, dict(ok, stdout="2\n")) == "output"
    err = {"stdout": "1\n", "error": ("ValueError", "bad"), "status": "error"}
    assert pyrun.classify(ok, err) == "refusal"
    assert pyrun.classify(err, ok) == "missed error"
    assert pyrun.classify(err, dict(err, error=("ValueError", "worse"))) == "error text"
    assert pyrun.classify(ok, dict(ok, status="crash")) == "crash"


def test_minimise_keeps_the_difference():
    """A difference planted in the comparison survives shrinking, and the rest goes."""
    src = "a = 1\nb = 2\nif a:\n    print(a)\n    print(b)\nprint(min([3, 4]))\n"

    def gradcli(source, fast=True, timeout=None):
        r = pyrun.run_cpython(source)
        return dict(r, stdout=r["stdout"].replace("2", "X"))

    small = pyrun.minimise(src, "fast", "output", gradcli_run=gradcli)
    assert small == "a = 1\nb = 2\nif a:\n    print(b)\n"
