"""Loop bodies with a compiled tail (loop_compile._tail, language/replay_tail.py): the
statements from the first one a replayed body may not have on run as compiled each
iteration, after the statements before them are replayed and the names they made are
bound.  Each program prints the same with and without replay (`--no-replay`), and the
loops that should replay do."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations, run_inprocess

_DATA = """torch.manual_seed(2)
X = torch.randn(40, 3)
Y = X @ torch.tensor([[1.5], [-2.0], [0.5]]) + 0.1 * torch.randn(40, 1)
Xt, Yt, Xv, Yv = X[:30], Y[:30], X[30:], Y[30:]
"""

PROGRAMS = {
    # early stopping: a no_grad validation number, an `if` on it, a `break`
    "early_stopping": _DATA
    + """import torch.nn as nn
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
best, wait, vals = 1e9, 0, []
for step in range(200):
    opt.zero_grad()
    loss = ((model(Xt) - Yt) ** 2).mean()
    loss.backward()
    opt.step()
    with torch.no_grad():
        val = ((model(Xv) - Yv) ** 2).mean().item()
    vals.append(val)
    if val < best - 1e-4:
        best, wait = val, 0
    else:
        wait += 1
        if wait == 3:
            break
print(step, best, len(vals), loss, loss.grad_fn, model.weight, model.weight.grad)
""",
    # the tail reads the made name, through a function of the program too; a `continue`
    "reads_made_name": _DATA
    + """w = torch.zeros(3, 1, requires_grad=True)
seen = []


def note(k):
    seen.append(round(loss.item(), 6))
    return k % 4 == 0


for k in range(24):
    loss = ((Xt @ w - Yt) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        w.grad.zero_()
    if note(k):
        continue
    print(k, loss.item(), loss.requires_grad)
print(seen[-3:], loss, w)
""",
    # the tail changes a number the replayed steps read (its checks fail then), a
    # nested loop of the program's own in the tail, a `while` loop
    "changes_what_replay_reads": _DATA
    + """w = torch.zeros(3, 1, requires_grad=True)
lr, i, hist = 0.2, 0, {}
while i < 30:
    out = Xt @ w
    loss = ((out - Yt) ** 2).sum() / 30
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        w.grad = None
    i += 1
    for j in range(2):
        hist[(i, j)] = out[j, 0].item()
    if i % 10 == 0:
        lr = lr * 0.5
print(i, lr, loss, w, out.grad_fn, len(hist), hist[(30, 1)])
""",
    # the tail binds a made name again: no tail (the loop runs as compiled)
    "rebinds_made_name": _DATA
    + """w = torch.ones(3, 1, requires_grad=True)
for k in range(10):
    loss = ((Xt @ w - Yt) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
        w.grad.zero_()
    loss = loss.detach() * 2
print(loss, w)
""",
}

REPLAYED = {
    "early_stopping": 10,
    "reads_made_name": 20,
    "changes_what_replay_reads": 20,
}


@pytest.mark.parametrize("name", list(PROGRAMS))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_the_same_with_and_without_replay(name, dtype):
    on, off = replay_both(PROGRAMS[name], "--dtype", dtype)
    assert on.stderr == off.stderr == ""
    assert on.stdout == off.stdout
    assert "tensor(" in on.stdout


@pytest.mark.parametrize("name,least", list(REPLAYED.items()))
def test_the_loops_are_replayed(name, least, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= least


def test_a_tail_that_binds_a_made_name_is_not_replayed(monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS["rebinds_made_name"]) == 0


def test_an_error_in_the_tail_is_placed_as_compiled():
    source = PROGRAMS["reads_made_name"].replace(
        "    return k % 4 == 0",
        '    if k == 13:\n        raise ValueError("late")\n    return k % 4 == 0',
    )
    on, off = replay_both(source)
    assert on.stdout == off.stdout and "11 " in on.stdout
    assert on.stderr == off.stderr and "ValueError: late" in on.stderr


def test_a_loop_without_backward_has_no_tail(monkeypatch):
    # plain Python (its function stays in the fast tier): the loop does not qualify
    from gradcli.language import replay

    monkeypatch.setattr(replay, "REPORT", True)
    source = (
        "def f(xs, a):\n    out = []\n    for x in xs:\n        y = a * 2\n"
        "        out.append(str(x + y))\n    return out\nprint(f([1, 2], 3))\n"
    )
    r = run_inprocess(source)
    assert "['7', '8']" in r.stdout
    assert "replay: loop at line 3: does not qualify" in r.stderr


def _sets_made(monkeypatch, source):
    """How many shadow sets a program's replayed loops made (replay_plan.Plan.sets)."""
    from gradcli.language import replay_plan

    made = [0]
    real = replay_plan.Plan.sets

    def counted(self):
        made[0] += 1
        return real(self)

    monkeypatch.setattr(replay_plan.Plan, "sets", counted)
    out = run_inprocess(source)
    assert out.returncode == 0, out.stderr
    return made[0]


_HELD = (
    _DATA
    + """w = torch.zeros(3, 1, requires_grad=True)
kept = []
def note(k):
    kept.append(KEPT)
for k in range(40):
    loss = ((Xt @ w - Yt) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        w.grad.zero_()
    note(k)
print(len(kept), kept[-1], loss, w)
"""
)


def test_a_tails_shadow_sets_are_used_again(monkeypatch):
    """The set handed over with the names bound before the tail is used again at its
    turn once the program lets go of them (replay.Run.lend): two sets for the loop,
    its iterations' ops by their kernels; a value the tail keeps keeps its set."""
    assert _sets_made(monkeypatch, _HELD.replace("KEPT", "loss.item()")) == 2
    assert _sets_made(monkeypatch, _HELD.replace("KEPT", "loss")) > 30
    for kept in ("loss.item()", "loss"):
        on, off = replay_both(_HELD.replace("KEPT", kept))
        assert (on.stdout, on.stderr) == (off.stdout, off.stderr)
        assert off.returncode == 0 and "tensor(" in on.stdout
