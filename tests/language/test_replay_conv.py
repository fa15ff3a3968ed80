"""Loops through convolutions, max pooling and average pooling replayed (conv2d,
max_pool2d and avg_pool2d declare themselves pure: their nodes make their window tables
from the shapes and the parameters): each program prints the same with and without replay (`--no-replay`),
in float64 and float32 (oneDNN's reproduced kernels), also when a shape or a module
changes mid-loop; the ones that should replay are counted."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_NET = """import torch.nn.functional as F
from torch import nn
{dtype}torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, padding=1)
        self.conv2 = nn.Conv2d(4, 8, 3, stride=2{conv2})
        self.pool = nn.MaxPool2d(2{pool})
        self.fc = nn.Linear({features}, 3)
    def forward(self, x):
        h = F.relu(self.conv(x))
        h = self.pool(torch.tanh(self.conv2(h)))
        return self.fc(h.flatten(1))
net = Net()
X = torch.randn(6, 2, 11, 11)
y = torch.randint(0, 3, (6,))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
loss_fn = nn.CrossEntropyLoss()
for i in range(12):
{extra}    opt.zero_grad()
    loss = loss_fn(net(X), y)
    loss.backward()
    opt.step()
print(loss, loss.grad_fn.next_functions)
print(net.conv.weight.grad.sum(), net.conv.bias.grad, net.conv2.weight.grad[0, 0])
print(net.fc.weight.sum(), net.conv.weight[0, 0])
"""


def _net(dtype="", conv2="", pool="", features=32, extra=""):
    return _NET.format(dtype=dtype, conv2=conv2, pool=pool, features=features, extra=extra)


_F32 = "torch.set_default_dtype(torch.float32)\n"

_FUNCTIONAL = """import torch.nn.functional as F
{dtype}torch.manual_seed(0)
w = torch.randn(3, 2, 3, 3, requires_grad=True)
w2 = torch.randn(4, 1, 2, 2, requires_grad=True)
b = torch.randn(3, requires_grad=True)
x = torch.randn(4, 2, 9, 8, requires_grad=True)
u = torch.randn(2, 7, 7, requires_grad=True)
for i in range(8):
{extra}    h = F.conv2d(x, w, b, stride=2, padding=1)
    p = F.max_pool2d(h, 3, stride=2, padding=1, ceil_mode=True)
    q = F.max_pool2d(F.conv2d(u, w2, padding=1, dilation=2, groups=2), 2, dilation=2)
    loss = p.sum() + (q * q).mean()
    loss.backward()
print(loss, h.grad_fn, p.grad_fn, p.grad_fn._saved_stride, p.grad_fn._saved_ceil_mode)
print(x.grad[0, 1], w.grad[1], b.grad, u.grad[1, 2], w2.grad.sum())
"""

_AVG = """import torch.nn.functional as F
from torch import nn
{dtype}torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, padding=1)
        self.pool = nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False)
        self.fc = nn.Linear(64, 3)
    def forward(self, x):
        return self.fc(self.pool(F.relu(self.conv(x))).flatten(1))
net = Net()
X = torch.randn(6, 2, 8, 8)
y = torch.randint(0, 3, (6,))
x = torch.randn(3, 2, 9, 7, requires_grad=True)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
loss_fn = nn.CrossEntropyLoss()
for i in range(10):
{extra}    opt.zero_grad()
    loss = loss_fn(net(X), y)
    loss.backward()
    opt.step()
    p = F.avg_pool2d(x, 2, ceil_mode=True, divisor_override=3)
    q = F.avg_pool2d(x * x, 3, stride=2, padding=1)
    s = p.sum() + q.mean()
    s.backward()
print(loss, net.conv.weight.grad.sum(), net.fc.weight.sum(), net.conv.weight[0, 0])
print(s, x.grad[1, 0], p.grad_fn, p.grad_fn._saved_stride, p.grad_fn._saved_divisor_override)
"""

PROGRAMS = {
    "conv_net": _net(),
    "conv_net_float32": _net(_F32),
    # the shape of the batch changes mid-loop: checked before each iteration
    "conv_net_batch_changes": _net(
        extra="    if i == 6:\n        X = torch.randn(3, 2, 11, 11)\n"
        "        y = torch.randint(0, 3, (3,))\n"
    ),
    # a module replaced, a padding mode that pads first (not replayed), ceil_mode
    "conv_net_module_changes": _net(
        pool=", ceil_mode=True",
        features=72,
        extra="    if i == 4:\n        net.conv = nn.Conv2d(2, 4, 3, padding=1, "
        "padding_mode='reflect')\n    if i == 8:\n        net.pool = nn.MaxPool2d(3, 2, 1)\n",
    ),
    # 'same' padding of an even kernel (padded first, the pad's positions made from the
    # shape) warns once
    "conv_same_even": """torch.manual_seed(0)
w = torch.randn(2, 1, 2, 4, requires_grad=True)
x = torch.randn(3, 1, 6, 6)
for i in range(5):
    out = torch.nn.functional.conv2d(x, w, padding="same").pow(2).sum()
    out.backward()
print(out, w.grad)
""",
    "functional": _FUNCTIONAL.format(dtype="", extra=""),
    "functional_float32": _FUNCTIONAL.format(dtype=_F32, extra=""),
    # a nan in the pooled input from the middle of the loop on
    "functional_nan": _FUNCTIONAL.format(
        dtype="",
        extra="    if i == 4:\n        with torch.no_grad():\n"
        "            x[1, 0, 2, 3] = float('nan')\n",
    ),
    # average pooling: nn.AvgPool2d and F.avg_pool2d (the windows made from the shape)
    "avg_pool": _AVG.format(dtype="", extra=""),
    "avg_pool_float32": _AVG.format(dtype=_F32, extra=""),
    # the pooled input's size changes mid-loop: its windows are made again
    "avg_pool_size_changes": _AVG.format(
        dtype="", extra="    if i == 5:\n        x = torch.randn(2, 2, 6, 11, requires_grad=True)\n"
    ),
}

REPLAYED = {
    "conv_net": 11,
    "conv_net_float32": 11,
    "conv_net_batch_changes": 7,
    "conv_net_module_changes": 2,
    "functional": 7,
    "functional_float32": 7,
    "functional_nan": 5,
    "conv_same_even": 4,
    "avg_pool": 9,
    "avg_pool_float32": 9,
    "avg_pool_size_changes": 6,
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_replayed_conv_loops_print_what_compiled_loops_print(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr


@pytest.mark.parametrize("name,least", list(REPLAYED.items()))
def test_the_conv_loops_are_replayed(name, least, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= least
