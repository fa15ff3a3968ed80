"""Learning-rate schedules in a replayed loop (language/replay_head.py): a number the
iteration computes first (`lr = 0.1 * 0.99 ** i`, `lr = lrs[i]`, `lr = get_lr(it)`) and
reads only in steps (`p -= lr * p.grad`, `g["lr"] = lr` of an optimizer's param_groups
loop, which joins the head) runs in the body's head; a step reading it takes it as it is
when the step runs (replay_updates: LIVE_STEP), not as a constant whose check fails each
iteration.  Each program prints exactly what it prints with `--no-replay`, in float32 and
float64, and replays."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_HEAD = """import torch
import torch.nn as nn
import torch.nn.functional as F
torch.set_default_dtype({dt})
g = torch.manual_seed(0)
X = torch.randn(48, 5)
Y = torch.randint(0, 3, (48,))
W = torch.randn(5, 3, requires_grad=True)
b = torch.zeros(3, requires_grad=True)
s = torch.tensor(1.0, requires_grad=True)
params = [W, b, s]
model = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 3))
"""
_CASES = {
    # a decaying rate and a weight decay switched off, read by steps of a no_grad block
    # (a 0-d parameter's step too) and printed every 10 iterations
    "decay": """base = 0.2
for i in range(40):
    lr = base * 0.97 ** i
    wd = 1e-3 if i < 20 else 0
    logits = (X @ W + b) * s
    loss = F.cross_entropy(logits, Y)
    for p in params:
        p.grad = None
    loss.backward()
    with torch.no_grad():
        W -= lr * W.grad
        b.sub_(lr * b.grad)
        s -= lr * s.grad
        W -= wd * W
    if i % 10 == 0:
        print(i, loss.item(), lr, W._version, s.item())
print(loss, W, b, s, lr)
""",
    # a table of rates read by a loop over the parameters, then the makemore form
    # (`p.data += -lr * p.grad`: the body's compiled tail)
    "table": """lrs = [0.1 * 0.95 ** i for i in range(40)]
for i in range(40):
    lr = lrs[i]
    loss = F.cross_entropy((X @ W + b) * s, Y)
    for p in params:
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad
print(loss, W, s)
wb = [W, b]
for i in range(40):
    lr = 0.1 if i < 20 else 0.01
    loss = F.cross_entropy(X @ W + b, Y)
    for p in wb:
        p.grad = None
    loss.backward()
    for p in wb:
        p.data += -lr * p.grad
print(loss, W, b)
""",
    # the optimizer's groups given the rate of a def with an `if` (nanoGPT's get_lr), Adam
    "groups": """import math
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
def get_lr(it):
    if it < 5:
        return 1e-2 * (it + 1) / 5
    ratio = (it - 5) / 35
    return 1e-3 + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (1e-2 - 1e-3)
for it in range(40):
    lr = get_lr(it)
    for group in opt.param_groups:
        group["lr"] = lr
    loss = F.cross_entropy(model(X), Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 10 == 0:
        print(it, loss.item(), opt.param_groups[0]["lr"])
print(loss, group["lr"], [p.sum() for p in model.parameters()])
""",
    # the rate becomes a tensor, then an int, mid-loop: the step as compiled then
    "kinds": """for i in range(30):
    lr = 0.1 if i < 10 else (torch.tensor(0.05) if i < 20 else 0)
    loss = F.cross_entropy(X @ W + b, Y)
    W.grad = None
    b.grad = None
    loss.backward()
    with torch.no_grad():
        W -= lr * W.grad
        b -= lr * b.grad
print(loss, W, b)
""",
    # makemore's loop: a minibatch drawn in the head, the embedding an index of a
    # parameter by the head's index tensor (an op of the forward, not a batch)
    "makemore": """Xtr = torch.randint(0, 27, (200, 3), generator=g)
Ytr = torch.randint(0, 27, (200,), generator=g)
E = torch.randn((27, 4), generator=g)
W1 = torch.randn((12, 16), generator=g) * 0.2
b1 = torch.randn(16, generator=g) * 0.01
W2 = torch.randn((16, 27), generator=g) * 0.01
parameters = [E, W1, b1, W2]
for p in parameters:
    p.requires_grad = True
lossi = []
for i in range(40):
    ix = torch.randint(0, Xtr.shape[0], (16,), generator=g)
    Xb, Yb = Xtr[ix], Ytr[ix]
    emb = E[Xb]
    h = torch.tanh(emb.view(-1, 12) @ W1 + b1)
    loss = F.cross_entropy(h @ W2, Yb)
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 30 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
    if i % 10 == 0:
        print(f"{i:7d}: {loss.item():.4f}")
    lossi.append(loss.log10().item())
print(loss, sum(lossi), emb.grad_fn, E._version, E.grad.sum())
""",
}
PROGRAMS = {
    f"{name}_{dt}": _HEAD.format(dt=f"torch.{dt}") + loop
    for name, loop in _CASES.items()
    for dt in ("float32", "float64")
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_schedule_prints_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr


#: replayed iterations at least (the loops' first iterations are noted, the printing
#: ones and those after a change of the rate's type run as compiled)
_AT_LEAST = {"decay": 30, "table": 70, "groups": 30, "kinds": 20, "makemore": 30}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_schedule_replays(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= _AT_LEAST[name.split("_")[0]]
