"""BatchNorm in a replayed loop: its node's forward takes the statistics and updates the
running ones in place (ops/norm_pool.py BatchNorm, `writes`), nn.BatchNorm's
num_batches_tracked bumped there, so a Sequential or a program's module holding
BatchNorm1d/2d and Dropout replays, in training and in evaluation, and prints what the
loop run as compiled prints (running statistics, num_batches_tracked and its version
included)."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_MLP = """import torch
from torch import nn
torch.manual_seed(0)
X = torch.randn(48, 5)
y = torch.randint(0, 3, (48,))
model = nn.Sequential(
    nn.Linear(5, 16), nn.BatchNorm1d(16{bn}), nn.ReLU(), nn.Dropout(0.25), nn.Linear(16, 3)
)
opt = torch.optim.AdamW(model.parameters(), lr=0.01)
criterion = nn.CrossEntropyLoss()
for epoch in range(3):
    model.train()
    perm = torch.randperm(len(X))
    running = 0.0
    for i in range(0, len(X), 12):
        idx = perm[i : i + 12]
        out = model(X[idx])
        loss = criterion(out, y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item() * len(idx)
    model.eval()
    with torch.no_grad():
        acc = (model(X).argmax(1) == y).float().mean().item()
    print(epoch, running, acc)
bn = model[1]
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
print({versions}out.grad_fn)
print(list(model.parameters())[2].grad)
"""

_CNN = """import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(1)
X = torch.randn(32, 2, 6, 6, dtype=torch.float64)
y = torch.randint(0, 3, (32,))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3)
        self.bn = nn.BatchNorm2d(4, momentum=None)
        self.drop = nn.Dropout(0.3)
        self.fc = nn.Linear(64, 3)
        self.out = nn.BatchNorm1d(3, affine=False)

    def forward(self, x):
        h = F.relu(self.bn(self.conv(x)))
        h = self.drop(h.flatten(1))
        return self.out(self.fc(h))


net = Net().double()
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
for epoch in range(3):
    net.train()
    for xb, yb in zip(X.split(8), y.split(8)):
        loss = F.cross_entropy(net(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    net.eval()
    for xb in X.split(8):
        s = net(xb).sum()
    print(epoch, loss.item(), s.item())
print(net.bn.running_mean, net.bn.running_var, net.bn.num_batches_tracked)
print(net.out.running_mean, net.out.running_var, net.out.num_batches_tracked._version)
"""

# a BatchNorm on an input that needs no gradient, under no_grad: an op that makes no
# node, never hoisted (its running statistics change each iteration)
_NO_GRAD = """import torch
from torch import nn
torch.manual_seed(2)
X = torch.randn(10, 4)
bn = nn.BatchNorm1d(4, momentum=0.5)
with torch.no_grad():
    for i in range(6):
        out = bn(X)
print(out, bn.running_mean, bn.running_var, bn.num_batches_tracked)
"""

# a batch of one sample in training: PyTorch's error, num_batches_tracked bumped first
_ONE = """import torch
from torch import nn
torch.manual_seed(3)
X = torch.randn(13, 4)
model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4))
try:
    for i in range(0, len(X), 4):
        xb = X[i : i + 4]
        loss = (model(xb) ** 2).sum()
        loss.backward()
except ValueError as e:
    print(e)
print(model[1].num_batches_tracked, model[1].running_mean, model[0].weight.grad)
"""

# train() and eval() inside the loop: no plan, the loop runs as compiled
_SWITCH = """import torch
from torch import nn
torch.manual_seed(4)
Z = torch.randn(10, 4)
bn = nn.BatchNorm1d(4)
for k in range(5):
    bn.train()
    a = bn(Z)
    bn.eval()
    b = bn(Z)
print(a.sum().item(), b.sum().item(), bn.running_var, bn.num_batches_tracked)
"""

_VERSIONS = "bn.num_batches_tracked._version, bn.running_mean._version, "

PROGRAMS = {
    "mlp": _MLP.format(bn="", versions=_VERSIONS),
    "mlp_cumulative": _MLP.format(bn=", momentum=None, affine=False", versions=_VERSIONS),
    "mlp_untracked": _MLP.format(bn=", track_running_stats=False", versions=""),
    "cnn": _CNN,
    "no_grad": _NO_GRAD,
    "one_sample": _ONE,
    "switch": _SWITCH,
}

_REPLAYS = {
    # (4 batches an epoch: the first epoch's first noted)
    "mlp": 3 * 4 - 1,
    "mlp_cumulative": 3 * 4 - 1,
    "mlp_untracked": 3 * 4 - 1,
    # (training: 4 batches an epoch, the first noted; evaluation: 4 batches an epoch, the
    # first noted, the plan kept from one epoch's loop to the next's)
    "cnn": 3 * 4 - 1 + 3 * 4 - 1,
    "no_grad": 5,
    # (the second and third batches replayed; the last, of one sample, fails its
    # checks after its batch statement: the rest of its iteration runs as compiled)
    "one_sample": 3,
    "switch": 0,
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_batch_norm_loops_print_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr


@pytest.mark.parametrize("name", list(_REPLAYS))
def test_batch_norm_loops_replay(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) == _REPLAYS[name]
