"""Branches in a replayed loop body: a schedule (language/loop_schedules.py: `lr = 0.1 if
i < 30 else 0.01`, an `if`/`elif`/`else` of such assignments, `g["lr"] *= 0.5` of an
optimizer's groups under an `if`) runs as compiled in its place, its names read by the
steps as they are then; a step through `.data` (`p.data += -lr * p.grad`) runs as
compiled in a loop of the body (loop_updates._data_step), not in a compiled tail; an `if`
at the top of a body whose head draws a batch (`if it % 10 == 0: print(evaluate())`)
joins the head (replay_head._headed).  Each branch is taken on some iterations and not
others; in "fallback" a name a schedule reads comes to hold an object of the program's
class (whose `__rmul__` prints) and in "tensor" a tensor: those iterations run as
compiled.  Each program prints exactly what it prints with `--no-replay`, in float32 and
float64, and replays."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_HEAD = """import torch
import torch.nn as nn
import torch.nn.functional as F
torch.set_default_dtype({dt})
g = torch.manual_seed(3)
X = torch.randn(40, 6)
Y = torch.randint(0, 3, (40,))
W = torch.randn(6, 3, requires_grad=True)
b = torch.zeros(3, requires_grad=True)
params = [W, b]
model = nn.Sequential(nn.Linear(6, 10), nn.ReLU(), nn.Linear(10, 3))
"""
_CASES = {
    # a step schedule written out with if/elif/else after the backward, a no_grad step
    "elif": """for step in range(50):
    loss = F.cross_entropy(X @ W + b, Y)
    loss.backward()
    if step < 10:
        lr = 0.5
    elif step < 30:
        lr = 0.1
        mom = 1
    else:
        lr = 0.02
    with torch.no_grad():
        W -= lr * W.grad
        b -= lr * b.grad
    W.grad.zero_()
    b.grad.zero_()
    if step % 10 == 0:
        print(step, loss.item(), lr)
print(loss, W, b, lr, W._version)
""",
    # makemore's step: a ternary rate and `p.data += -lr * p.grad`; version counters
    # untouched by the steps through `.data`
    "data": """lossi = []
for i in range(40):
    logits = X @ W + b
    loss = F.cross_entropy(logits, Y)
    for p in params:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 25 else 0.01
    for p in params:
        p.data += -lr * p.grad
    lossi.append(loss.log10().item())
print(loss, sum(lossi), W._version, b._version, W, b)
""",
    # an optimizer's rate changed under an `if` (no else) and set under an elif
    "groups": """opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for epoch in range(45):
    loss = F.cross_entropy(model(X), Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 15 == 14:
        for group in opt.param_groups:
            group["lr"] *= 0.5
    if epoch == 5:
        for group in opt.param_groups:
            group["lr"] = 0.08
    elif epoch > 40:
        for group in opt.param_groups:
            group["lr"] = 0.001
    if epoch % 9 == 0:
        print(epoch, loss.item(), opt.param_groups[0]["lr"])
print(loss, [p.sum() for p in model.parameters()])
""",
    # a periodic evaluation at the top of a body whose head draws a minibatch; its
    # branch reads the last iteration's loss
    "evaltop": """opt = torch.optim.Adam(model.parameters(), lr=1e-2)
def evaluate():
    with torch.no_grad():
        return F.cross_entropy(model(X), Y).item()
steps = 40
for it in range(steps):
    if it % 10 == 0 or it == steps - 1:
        val = evaluate()
        print(it, val, loss.item() if it else None)
    ix = torch.randint(0, 40, (8,))
    xb, yb = X[ix], Y[ix]
    loss = F.cross_entropy(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss, val)
""",
    # a name the schedule reads holds an object of the program's class from iteration 20
    # (its `__rmul__` prints: run as compiled), and a number again from 30
    "fallback": """class Half:
    def __rmul__(self, other):
        print("half of", other)
        return other / 2
scale = 1.0
for i in range(40):
    if i == 20:
        scale = Half()
    if i == 30:
        scale = 0.5
    loss = F.cross_entropy(X @ W + b, Y)
    W.grad = None
    b.grad = None
    loss.backward()
    lr = 0.1 * scale if i % 2 == 0 else 0.05 * scale
    with torch.no_grad():
        W -= lr * W.grad
        b -= lr * b.grad
print(loss, W, b)
""",
    # the rate becomes a 0-d tensor from iteration 15 (the steps as compiled then)
    "tensor": """late = torch.tensor(0.02)
for i in range(30):
    loss = F.cross_entropy(X @ W + b, Y)
    W.grad = None
    b.grad = None
    loss.backward()
    lr = 0.1 if i < 15 else late
    with torch.no_grad():
        W -= lr * W.grad
        b -= lr * b.grad
print(loss, W, b)
""",
    # `total += correct` of a made name: no schedule (it would read what the replay
    # makes) but, as before schedules, the start of a compiled tail
    "made": """opt = torch.optim.SGD(model.parameters(), lr=0.1)
total = 0
for i in range(45):
    out = model(X)
    loss = F.cross_entropy(out, Y)
    opt.zero_grad()
    loss.backward()
    correct = (out.argmax(1) == Y).sum()
    total += correct
    opt.step()
print(total, loss)
""",
}
PROGRAMS = {
    f"{name}_{dt}": _HEAD.format(dt=f"torch.{dt}") + loop
    for name, loop in _CASES.items()
    for dt in ("float32", "float64")
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_branches_print_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr


#: replayed iterations at least (first iterations noted; "fallback"'s iterations with the
#: program's object run as compiled)
_AT_LEAST = {
    "made": 40,
    "elif": 40,
    "data": 35,
    "groups": 30,
    "evaltop": 30,
    "fallback": 15,
    "tensor": 12,
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_branches_replay(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= _AT_LEAST[name.split("_")[0]]


def test_fallback_runs_the_programs_code():
    on, _ = replay_both(PROGRAMS["fallback_float32"])
    assert on.stdout.count("half of") == 10
