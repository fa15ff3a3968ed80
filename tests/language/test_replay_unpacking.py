"""A forward returning a tuple in a replayed loop: `logits, loss = model(xb, yb)` is split
in two (language/loop_split.py `_unpacked`: the statement, then its second name an alias
of one of its ops' outputs, replay_plan._alias), and a forward (or a function) seen
through may test a parameter with `if targets is None:` (through_shapes._branches: what
branch runs is a function of what the checks hold).  Each program prints exactly what it
prints with `--no-replay`, in float32 and float64, and replays."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_HEAD = """import torch
import torch.nn as nn
import torch.nn.functional as F
torch.set_default_dtype({dt})
g = torch.manual_seed(0)
X = torch.randn(40, 6)
Y = torch.randint(0, 4, (40,))
Xv = torch.randn(12, 6)
Yv = torch.randint(0, 4, (12,))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 16)
        self.fc2 = nn.Linear(16, 4)
    def forward(self, x, targets=None):
        h = torch.tanh(self.fc1(x))
        logits = self.fc2(h)
        if targets is None:
            loss = None
        else:
            loss = F.cross_entropy(logits, targets)
        return logits, loss
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
"""
_CASES = {
    # makemore's loop: the logits and the loss made, printed every 10 steps, the
    # values, graphs and gradients the program keeps after it
    "train": """for step in range(40):
    logits, loss = model(X, Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(step, loss.item(), logits.shape)
print(loss, logits.sum(), logits.grad_fn, loss.grad_fn.next_functions)
print(model.fc1.weight.grad.sum(), model.fc2.bias)
logits, loss = model(Xv)
print(loss, logits.sum())
""",
    # the second name read by the statements after it (a made name's number appended),
    # a validation forward without targets in a loop of its own (its loss None: no plan)
    "both_read": """losses, vals = [], []
for step in range(30):
    logits, loss = model(X, Y)
    acc = (logits.argmax(1) == Y).float().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(losses[::7], acc)
with torch.no_grad():
    for step in range(5):
        out, nothing = model(Xv)
        vals.append(out.sum().item())
print(vals, nothing)
""",
    # a function of the program seen through, testing its weight parameter, returning a
    # tuple, and the forward's values kept by the program each iteration
    "function": """w = torch.rand(4)
def loss_fn(logits, y, weight=None):
    if weight is not None:
        loss = F.cross_entropy(logits, y, weight=weight)
    else:
        loss = F.cross_entropy(logits, y)
    return loss, logits.softmax(1)
kept = []
for step in range(30):
    logits, unused = model(X, Y)
    loss, probs = loss_fn(logits, Y, w)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        kept.append(probs)
print(loss, probs.sum(), [p.grad_fn for p in kept], kept[0].sum())
for step in range(10):
    logits, unused = model(X, Y)
    loss, probs = loss_fn(logits, Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss, probs[0])
""",
    # the forward given the minibatch as the data indexed by the head's draw
    # (`model(X[ix], Y[ix])`), the batch's size changed partway (a plan for each), and
    # the data rebound to other tensors for the last steps
    "drawn": """for step in range(45):
    if step == 30:
        X, Y = X * 2, Y.flip(0)
    ix = torch.randint(0, X.shape[0], (8 if step < 20 else 5,))
    logits, loss = model(X[ix], Y[ix])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 9 == 0:
        print(step, loss.item(), logits.shape)
print(loss, logits.sum(), logits.grad_fn, model.fc2.bias)
""",
    # the model swapped for one whose forward returns three values, then a number
    "broken": """class Three(Net):
    def forward(self, x, targets=None):
        return x, x, x
for step in range(12):
    if step == 6:
        model = Three()
    try:
        logits, loss = model(X, Y)
    except ValueError as e:
        print(step, e)
        break
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss)
""",
}
PROGRAMS = {
    f"{name}_{dt}": _HEAD.format(dt=f"torch.{dt}") + loop
    for name, loop in _CASES.items()
    for dt in ("float32", "float64")
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_unpacking_prints_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr


#: replayed iterations at least
_AT_LEAST = {"train": 30, "both_read": 25, "function": 30, "drawn": 30, "broken": 0}


@pytest.mark.parametrize("name", [n for n in PROGRAMS if not n.startswith("broken")])
def test_unpacking_replays(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= _AT_LEAST[name.rsplit("_", 1)[0]]
