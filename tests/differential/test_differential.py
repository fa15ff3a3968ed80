"""Differential test against PyTorch: random autograd programs (tests/differential/)
run under torch and gradcli must print the same and fail alike, except for the
differences the README's "Known differences from PyTorch" lists.

torch is a test-only dependency that only CI installs (in a venv of its own, named by
$GRADCLI_TORCH_PYTHON); without it the comparisons are skipped. Each run checks
GRADCLI_DIFF_COUNT programs (1,000 by default) from a fixed first seed, and as many
again from a seed made from the commit (`git rev-parse HEAD`), so that each commit
tries programs no earlier one did. `scripts/difftest.py` runs any number of them and
shrinks what it finds.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from differential import allowed, generator, runner

ROOT = Path(__file__).resolve().parents[2]
COUNT = int(os.environ.get("GRADCLI_DIFF_COUNT", "1000"))
FIXED_SEED = 0
SHOWN = 8  # differences printed (each shrunk) when the test fails


def commit_seed():
    """A first seed that changes with each commit ($GRADCLI_DIFF_SEED, else HEAD's hash),
    or None outside a git checkout."""
    env = os.environ.get("GRADCLI_DIFF_SEED")
    if env:
        return int(env)
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    if not re.fullmatch(r"[0-9a-f]{40}", head):
        return None
    return 10**6 + int(head[:12], 16) % 10**12  # clear of the fixed seed's programs


@pytest.fixture(scope="module")
def worker():
    python = runner.torch_python()
    if python is None:
        pytest.skip("no Python with torch (set GRADCLI_TORCH_PYTHON; .ci/run does)")
    w = runner.TorchWorker(python)
    yield w
    w.close()


def check(worker, first):
    seeds = range(first, first + COUNT)
    progs = [generator.program(s)[1] for s in seeds]
    feeder = worker.start(progs)
    gres = [runner.run_gradcli(src) for src in progs]
    tres = worker.results(len(progs))
    feeder.join()
    bad = []
    for seed, src, t, g in zip(seeds, progs, tres, gres):
        t, g = runner.settle(src, t, g, worker)
        kind = runner.classify(t, g)
        if kind is not None and allowed.which(src, t, g, kind) is None:
            bad.append((seed, kind, src))
    if not bad:
        return
    lines = [f"{len(bad)} of {COUNT} programs differ from torch (first seed {first}):"]
    for seed, kind, src in bad[:SHOWN]:
        small = runner.minimise(src, kind, worker.run)
        tt, gt = runner.first_difference(worker.run(small), runner.run_gradcli(small))
        lines += [f"--- program {seed}: {kind}, shrunk:", small.rstrip(), "torch:", tt.rstrip()]
        lines += ["gradcli:", gt.rstrip()]
    lines.append("(python scripts/difftest.py --seed N --count 1 --minimise shows program N)")
    pytest.fail("\n".join(lines), pytrace=False)


def test_fixed_seed(worker):
    check(worker, FIXED_SEED)


def test_commit_seed(worker):
    seed = commit_seed()
    if seed is None:
        pytest.skip("not a git checkout and no GRADCLI_DIFF_SEED")
    check(worker, seed)


def test_allow_list_is_the_readme_s():
    """Every allowed difference has its entry (and reason) in the README, and the README
    allows nothing the test does not know."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Known differences from PyTorch", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^- `([a-z0-9-]+)`", section, re.M))
    assert listed == set(allowed.ALLOWED)


def test_generator_is_deterministic():
    assert generator.program(123) == generator.program(123)
    assert len({generator.program(s)[1] for s in range(50)}) == 50


def test_classify():
    """The comparison finds each kind of difference (records made up; no torch needed)."""
    ok = {"stdout": "val:t1 tensor([1., 2.])\n", "error": None, "status": "ok"}
    assert runner.classify(ok, ok) is None
    grad_t = {"stdout": "grad:a tensor([3., 5.])\n", "error": None, "status": "ok"}
    grad_g = {"stdout": "grad:a tensor([4., 6.])\n", "error": None, "status": "ok"}
    assert runner.classify(grad_t, grad_g) == "wrong grad"
    fn_t = {"stdout": "val:t tensor(1., grad_fn=<TBackward0>)\n", "error": None, "status": "ok"}
    fn_g = {"stdout": "val:t tensor(1., grad_fn=<TransposeBackward0>)\n", "error": None}
    assert runner.classify(fn_t, dict(fn_g, status="ok")) == "grad_fn name"
    zero_t = {"stdout": "grad:a tensor([0., -0.])\n", "error": None, "status": "ok"}
    zero_g = {"stdout": "grad:a tensor([0., 0.])\n", "error": None, "status": "ok"}
    assert runner.classify(zero_t, zero_g) == "last bit"
    err = {"stdout": "", "error": {"type": "RuntimeError", "message": "boom"}, "status": "error"}
    assert runner.classify(ok, dict(err, stdout=ok["stdout"])) == "refusal"
    assert runner.classify(dict(err, stdout=ok["stdout"]), ok) == "missed error"
    shape = {"stdout": "", "error": {"type": "ShapeError", "message": "boom"}, "status": "error"}
    assert runner.classify(err, shape) is None
    assert runner.classify(err, dict(shape, error={"type": "ValueError", "message": "boom"}))
    assert runner.classify(ok, dict(ok, status="crash")) == "crash"
    assert runner.classify(ok, dict(ok, status="hang")) == "hang"


def test_allowed_is_narrow():
    """Each allowed difference is recognised only where its reason holds (records made
    up; no torch needed)."""
    cat = {"stdout": "grad:gx tensor([1.], grad_fn=<CatBackward0>)\n"}
    add = {"stdout": "grad:gx tensor([1.], grad_fn=<AddBackward0>)\n"}
    second = "gx, = torch.autograd.grad(y, x, create_graph=True)\n"
    assert allowed.which("p = x.chunk(2)\n" + second, cat, add, "grad_fn name")
    assert allowed.which(second, cat, add, "grad_fn name") is None
    assert allowed.which("p = x.chunk(2)\n", cat, add, "grad_fn name") is None
    val = {"stdout": "val:t tensor([1.], grad_fn=<CatBackward0>)\n"}
    assert allowed.which("p = x.split(1)\n" + second, val, dict(val), "grad_fn name") is None
    t = {"stdout": "grad:a tensor([0.1235])\n"}
    g = {"stdout": "grad:a tensor([0.1234])\n"}
    assert allowed.which("x = torch.ones(1)\n", t, g, "last bit") is None
    assert allowed.which("x = torch.ones(1, dtype=torch.float32)\n", t, g, "last bit")
    z = {"stdout": "grad:a tensor([-0.])\n"}
    assert allowed.which("x = torch.ones(1)\n", z, {"stdout": "grad:a tensor([0.])\n"}, "last bit")
