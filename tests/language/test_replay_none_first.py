"""A forward (or a function) seen through by a replayed loop that binds a name to None
before an `if p is not None:` of a parameter binds it again (`loss = None`, then `if
targets is not None: loss = F.cross_entropy(logits, targets)`: language/through_shapes.py
`_branches`, as the `if ... else` form): which statements run is a function of what the
call is given, checked before each replayed iteration, so a target that is None one
iteration and a tensor the next runs as compiled.  Each program prints exactly what it
prints with `--no-replay`, in float32 and float64, and the ones that should replay do."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_HEAD = """import torch
import torch.nn as nn
import torch.nn.functional as F
torch.set_default_dtype({dt})
torch.manual_seed(6)
X = torch.randn(30, 5)
Y = torch.randint(0, 3, (30,))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(5, 12)
        self.fc2 = nn.Linear(12, 3)
    def forward(self, x, targets=None):
        logits = self.fc2(torch.tanh(self.fc1(x)))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits, targets)
        return logits, loss
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
"""

_CASES = {
    # the training loop given targets, the model called without them after it
    "trained": """for step in range(20):
    logits, loss = model(X, Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 4:
        print(step, loss.item())
logits, nothing = model(X)
print(nothing, logits[0], loss)
""",
    # a function seen through, its result None without a target
    "function": """def mse(out, target=None):
    err = None
    if target is not None:
        err = ((out - target) ** 2).mean()
    return err
w = torch.randn(5, 1, requires_grad=True)
t = X[:, :1] * 2
for step in range(15):
    err = mse(X @ w, t)
    err.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
    w.grad = None
print(err, w, mse(X @ w))
""",
    # a target that is None in some iterations: those run as compiled
    "sometimes_none": """ts = [Y, Y, Y, None, Y, Y, None, Y, Y, Y, Y, Y]
for t in ts:
    logits, loss = model(X, t)
    s = logits.pow(2).mean()
    s.backward()
    print(loss is None, s.item())
print(loss, model.fc1.weight.grad)
""",
}
PROGRAMS = {
    f"{name}_{dt}": _HEAD.format(dt=f"torch.{dt}") + loop
    for name, loop in _CASES.items()
    for dt in ("float32", "float64")
}

#: iterations replayed, at least
REPLAYED = {"trained": 14, "function": 10, "sometimes_none": 4}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_none_first_prints_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr


@pytest.mark.parametrize("name,least", list(REPLAYED.items()))
def test_none_first_replays(name, least, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[f"{name}_float64"]) >= least
