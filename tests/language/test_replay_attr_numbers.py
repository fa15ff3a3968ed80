"""A forward seen through (replay_through.py) that reads a number attribute of its
module (`self.eps` of the instance, or of its class), as a LayerNorm written by hand
does: the number taken as a constant of the plan, its identity checked with the
module's state, so rebinding it mid-loop runs that iteration as compiled.  Each
program prints exactly what it prints with `--no-replay`, in float32 and float64, and
replays."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_HEAD = """import torch
import torch.nn as nn
torch.set_default_dtype({dt})
g = torch.manual_seed(0)
class Norm(nn.Module):
    scale = 0.5
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))
    def forward(self, x):
        m = x.mean(-1, keepdim=True)
        v = ((x - m) ** 2).mean(-1, keepdim=True)
        return (x - m) / torch.sqrt(v + self.eps) * self.weight * self.scale
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 8)
        self.norm = Norm(8)
        self.out = nn.Linear(8, 1)
    def forward(self, x):
        return self.out(torch.tanh(self.norm(self.fc(x))))
X = torch.randn(16, 6)
Y = torch.randn(16, 1)
net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.05)
for i in range(12):
    loss = ((net(X) - Y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
{extra}print(loss)
print(net.norm.weight)
"""
_CASES = {
    "instance_and_class": "",
    "rebound": "    if i == 5:\n        net.norm.eps = 0.25\n",
    "class_rebound": "    if i == 6:\n        Norm.scale = 2.0\n",
    "int_attr": "    if i == 4:\n        net.norm.eps = 1\n",
}
PROGRAMS = {
    f"{name}_{dt}": _HEAD.format(dt=f"torch.{dt}", extra=extra)
    for name, extra in _CASES.items()
    for dt in ("float32", "float64")
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_attr_numbers_print_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_attr_numbers_replay(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= 6
