"""Dropout in a replayed loop (ops/nn.py `_Noise`: the noise an op of no tensor whose
value is the generator's next draws, run in its place every iteration, never hoisted,
language/replay_plan._invariant): the draws come from the program's generator in the
compiled loop's order, so the values, the gradients and the draws the program makes
after (or between, in an `if`) are the same.  Each program prints the same with and
without replay (`--no-replay`); the ones that should replay are counted."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_HEAD = """import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(3)
X = torch.randn(24, 5)
y = (X[:, 0] * X[:, 1] > 0).long()
"""

PROGRAMS = {
    # a Sequential with Dropout trained on the whole batch, a draw of the program's in
    # an `if` every few steps
    "sequential": _HEAD
    + """model = nn.Sequential(nn.Linear(5, 12), nn.ReLU(), nn.Dropout(0.3), nn.Linear(12, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
crit = nn.CrossEntropyLoss()
for step in range(30):
    loss = crit(model(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 7 == 6:
        print(step, loss.item(), torch.rand(1).item())
print(model[3].weight, model[3].weight.grad, torch.rand(2))
""",
    # F.dropout of a tensor that needs no gradient (its product not hoisted), the seed
    # set again mid-loop
    "functional_of_data": _HEAD
    + """w = torch.randn(5, 1, requires_grad=True)
t = X[:, 2:3]
for step in range(16):
    h = F.dropout(X, 0.5)
    loss = ((h @ w - t) ** 2).mean()
    w.grad = None
    loss.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
    if step == 9:
        torch.manual_seed(11)
print(w, loss, h)
""",
    # the program's own module seeing through `self.drop(...)`, train() and eval() between
    # the loops, a permuted input (its draws in memory order)
    "own_module": _HEAD
    + """class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(5, 8)
        self.drop = nn.Dropout(0.4)
        self.out = nn.Linear(8, 2)
    def forward(self, x):
        h = self.drop(torch.tanh(self.fc(x)))
        return self.out(h)
net = Net()
for epoch in range(3):
    net.train()
    for step in range(6):
        loss = F.cross_entropy(net(X), y)
        loss.backward()
    net.eval()
    for step in range(3):
        val = F.cross_entropy(net(X), y)
    print(epoch, loss, val, net.fc.weight.grad.sum())
P = torch.randn(5, 4, 6).permute(2, 0, 1)
v = torch.randn(6, 5, 4, requires_grad=True)
for step in range(5):
    z = (F.dropout(P * v, 0.25) ** 2).sum()
    z.backward()
print(z, v.grad, torch.rand(3))
""",
    # a training step in a `def` whose calls replay, its value appended
    "in_a_def": _HEAD
    + """model = nn.Sequential(nn.Linear(5, 6), nn.Dropout(0.2), nn.Sigmoid(), nn.Linear(6, 2))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
def fit(xb, yb):
    opt.zero_grad()
    loss = F.cross_entropy(model(xb), yb)
    loss.backward()
    opt.step()
    return loss.item()
batches = list(zip(X.split(6), y.split(6)))
hist = []
for epoch in range(4):
    for xb, yb in batches:
        hist.append(fit(xb, yb))
print(hist, torch.rand(1))
""",
    # in place (not replayed: the same results), p of 0 and of 1
    "edges": _HEAD
    + """m = nn.Sequential(nn.Linear(5, 8), nn.Dropout(0.25, inplace=True), nn.Tanh(), nn.Linear(8, 1))
for step in range(5):
    l = m(X).sum()
    l.backward()
print(m[0].weight.grad)
d0, d1 = nn.Dropout(0.0), nn.Dropout(1.0)
w = torch.randn(5, 1, requires_grad=True)
for step in range(4):
    a = (d0(X @ w) * 2).sum()
    b = d1(X @ w).sum()
    a.backward()
print(a, b, w.grad, torch.rand(1))
""",
    # the module put in eval() (or train()) after a statement ran it: not replayed in the
    # mode the statement found it in (replay_plan.MODULE_STATES)
    "mode_changed_after_the_forward": _HEAD
    + """model = nn.Sequential(nn.Linear(5, 6), nn.Dropout(0.5), nn.Linear(6, 1))
outs = []
for step in range(5):
    o = model(X).sum()
    o.backward()
    model.eval()
    outs.append(o.item())
print(outs)
model.train()
for step in range(5):
    model.eval()
    o = model(X).sum()
    o.backward()
    model.train()
    outs.append(o.item())
print(outs, model[0].weight.grad)
""",
    # `model.train()` first in the body (a call that keeps the plan's checks), an `if`
    # that validates in eval() every few steps
    "train_first": _HEAD
    + """model = nn.Sequential(nn.Linear(5, 10), nn.Tanh(), nn.Dropout(0.2), nn.Linear(10, 2))
opt = torch.optim.Adam(model.parameters(), lr=0.02)
crit = nn.CrossEntropyLoss()
model.eval()
for step in range(24):
    model.train()
    loss = crit(model(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 9:
        model.eval()
        with torch.no_grad():
            acc = (model(X).argmax(1) == y).float().mean().item()
        print(step, loss.item(), acc)
print(model.training, model[2].training, model[3].weight)
""",
    # channel-wise dropout (Dropout2d after a Conv2d, Dropout1d of an unbatched input)
    "channels": _HEAD
    + """Z = X.view(4, 6, 5)[:, None].repeat(1, 2, 1, 1)
T, X3 = y[:4], X[:3]
net = nn.Sequential(nn.Conv2d(2, 3, 3), nn.Dropout2d(0.4), nn.Flatten(), nn.Linear(36, 2))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(12):
    loss = F.cross_entropy(net(Z), T)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss, net[3].weight.grad, torch.rand(2))
drop = nn.Dropout1d(0.5)
w = torch.ones(5, requires_grad=True)
for step in range(6):
    out = (drop(X3 * w) ** 2).sum()
    out.backward()
print(out, w.grad, torch.rand(2))
""",
}

#: iterations replayed (calls and loop iterations), at least
REPLAYED = {
    "sequential": 20,
    "functional_of_data": 10,
    "own_module": 12,
    "in_a_def": 15,
    "train_first": 15,
    "channels": 15,
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_dropout_loops_print_what_compiled_loops_print(name):
    for flags in ((), ("--dtype", "float32")):
        on, off = replay_both(PROGRAMS[name], *flags)
        assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
        assert off.returncode == 0, off.stderr


@pytest.mark.parametrize("name,least", list(REPLAYED.items()))
def test_dropout_loops_are_replayed(name, least, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= least
