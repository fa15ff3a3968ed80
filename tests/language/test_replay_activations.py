"""Activation modules whose forward is one pure op (`replay_op`: GELU's `gelu`, Softplus's
`softplus`, Softmax's and LogSoftmax's given a dim) called by a replayed loop, alone or in a Sequential: each program prints the
same with and without replay (`--no-replay`), the ones that should replay are counted,
and a module whose attribute changes mid-loop (GELU's `approximate`) runs as compiled
from then on, with the new value."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_HEAD = """import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(5)
X = torch.randn(20, 4)
y = (X[:, 0] - X[:, 3] > 0).long()
"""

PROGRAMS = {
    "sequential_gelu": _HEAD
    + """model = nn.Sequential(nn.Linear(4, 9), nn.GELU(), nn.Linear(9, 9),
    nn.GELU(approximate="tanh"), nn.Dropout(0.2), nn.Linear(9, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for step in range(25):
    loss = F.cross_entropy(model(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 8 == 7:
        print(step, loss.item())
print(model[2].weight.grad, model[0].bias)
""",
    "softplus_alone": _HEAD
    + """act = nn.Softplus(beta=2.0, threshold=1.5)
w = torch.randn(4, 3, requires_grad=True)
for step in range(20):
    out = act(X @ w).pow(2).mean()
    out.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
    w.grad = None
print(out, w)
""",
    # the attribute changed mid-loop: the module's state check fails, the iteration runs
    # as compiled with the new approximation
    "changed_mid_loop": _HEAD
    + """g = nn.GELU()
w = torch.randn(4, 2, requires_grad=True)
outs = []
for step in range(18):
    o = g(X @ w).sum()
    o.backward()
    outs.append(o.item())
    if step == 9:
        g.approximate = "tanh"
print(outs, w.grad)
""",
    # LogSoftmax(dim=1) closing a Sequential, with NLLLoss
    "log_softmax_nll": _HEAD
    + """model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2), nn.LogSoftmax(dim=1))
crit = nn.NLLLoss()
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for step in range(20):
    loss = crit(model(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss, model[2].weight.grad)
""",
    # a Softmax without a dim (its function chooses one and warns: run as compiled), and
    # one whose dim changes mid-loop (from then on as compiled, with the new dim)
    "softmax_dims": _HEAD
    + """w = torch.randn(4, 3, requires_grad=True)
bare, sm = nn.Softmax(), nn.Softmax(dim=1)
Z = X[:, :3]
for step in range(12):
    a = (bare(X @ w) * Z).sum()
    a.backward()
print(a, w.grad)
outs = []
for step in range(14):
    o = (sm(X @ w) * Z).sum()
    o.backward()
    outs.append(o.item())
    if step == 8:
        sm.dim = 0
print(outs, w.grad)
""",
}

#: iterations replayed, at least
REPLAYED = {
    "sequential_gelu": 20,
    "softplus_alone": 15,
    "changed_mid_loop": 12,
    "log_softmax_nll": 15,
    "softmax_dims": 6,
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_activation_loops_print_what_compiled_loops_print(name):
    for flags in ((), ("--dtype", "float32")):
        on, off = replay_both(PROGRAMS[name], *flags)
        assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
        assert off.returncode == 0, off.stderr


@pytest.mark.parametrize("name,least", list(REPLAYED.items()))
def test_activation_loops_are_replayed(name, least, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= least
