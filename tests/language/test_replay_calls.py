"""Loop bodies replayed beyond arithmetic (language/loop_shapes.py, replay.py,
replay_plan.py): matrix products, calls of gradcli's own modules and losses, method
calls of its optimizers and modules run as compiled between replayed statements.
Each program prints the same with and without replay (`--no-replay`), also when a
check fails mid-loop; the ones that should replay are counted."""

from __future__ import annotations

import pytest

from conftest import run_inprocess
from gradcli.language import replay

_TWO_LAYER = """torch.manual_seed(0)
X = torch.randn(16, 5)
Y = torch.randn(16, 1)
W1 = torch.randn(5, 8, requires_grad=True)
W2 = torch.randn(8, 1, requires_grad=True)
for i in range(40):
    h = torch.relu(X @ W1)
    loss = ((h @ W2 - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        W1 -= 0.01 * W1.grad
        W2 -= 0.01 * W2.grad
        W1.grad.zero_()
        W2.grad.zero_()
print(loss, loss.grad_fn, h.grad_fn.next_functions, W1.grad, W2.sum())
"""

PROGRAMS = {
    "matmul": _TWO_LAYER,
    # a vector @ a matrix goes through a view (unsqueeze): not replayed, the same output
    "matmul_vector": """torch.manual_seed(0)
v = torch.randn(5, requires_grad=True)
M = torch.randn(5, 3, requires_grad=True)
for i in range(6):
    y = (v @ M).sum()
    y.backward()
print(y, v.grad, M.grad)
""",
    # the shape of X changes mid-loop: checked before each iteration
    "matmul_shape_changes": """torch.manual_seed(0)
W = torch.randn(3, 2, requires_grad=True)
X = torch.randn(4, 3)
for i in range(10):
    if i == 5:
        X = torch.randn(6, 3)
    out = (X @ W).sum()
    out.backward()
print(out, W.grad)
""",
    # requires_grad toggled between runs of the loop, and an error in the body
    # requires_grad toggled mid-loop (in an `if`) and between runs of the loop
    "matmul_requires_grad_toggled": """torch.manual_seed(0)
W = torch.randn(3, 2, requires_grad=True)
X = torch.randn(4, 3)
for r in range(3):
    for i in range(8):
        if i == 4:
            X.requires_grad_(r % 2 == 0)
        out = (X @ W).sum()
        out.backward()
    print(out, W.grad, X.grad)
    X.requires_grad_(r % 2 == 1)
""",
    "matmul_error_mid_loop": """torch.manual_seed(0)
W = torch.randn(3, 2, requires_grad=True)
X = torch.randn(4, 3)
Z = torch.randn(4, 5)
try:
    for i in range(10):
        if i == 6:
            X = Z
        out = (X @ W).sum()
        out.backward()
except RuntimeError as e:
    print("error", e)
print(i, out, W.grad)
""",
}

REPLAYED = {"matmul": 30, "matmul_shape_changes": 5, "matmul_requires_grad_toggled": 10}


def _both(source):
    on = run_inprocess(source, ("eval", "-"))
    off = run_inprocess(source, ("eval", "--no-replay", "-"))
    return on, off


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_replayed_loops_print_what_compiled_loops_print(name):
    on, off = _both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr


@pytest.mark.parametrize("name,least", list(REPLAYED.items()))
def test_the_loops_are_replayed(name, least, monkeypatch):
    count = [0]
    real = replay.Run._replay

    def counted(self, plan):
        count[0] += 1
        return real(self, plan)

    monkeypatch.setattr(replay.Run, "_replay", counted)
    run_inprocess(PROGRAMS[name])
    assert count[0] >= least


def test_the_report_says_whether_a_loop_replayed(monkeypatch):
    monkeypatch.setattr(replay, "REPORT", True)
    r = run_inprocess(PROGRAMS["matmul"] + "for i in range(3):\n    print(i)\n")
    lines = [x for x in r.stderr.splitlines() if x.startswith("replay:")]
    assert lines == [
        "replay: loop at line 6: qualifies",
        "replay: loop at line 16: does not qualify",
        "replay: loop at line 6: 39 of 40 iterations replayed",
    ]
