"""Loop bodies with a statement calling a library function that declares
`replay_compiled` (library/values.py; loop_shapes._library_call, replay_checks.
library_checks): gradient clipping between the backward and the optimizer's step, run
as compiled between replayed statements.  Each program prints the same with and
without replay (`--no-replay`), also when the name is bound to the program's own
function between runs of the loop, and with the function's value assigned (`gn =
clip_grad_norm_(...)`, its number appended); the ones that should replay are counted."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_DATA = """torch.manual_seed(1)
X = torch.randn(24, 4)
Y = (X[:, :1] * 3.0 - X[:, 1:2]).tanh() * 4.0
"""

PROGRAMS = {
    # the statement through torch's namespace, model.parameters() of gradcli's module
    "norm_torch_path": _DATA
    + """model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
for i in range(30):
    opt.zero_grad()
    loss = ((model(X) - Y) ** 2).mean()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    opt.step()
print(loss, [p.grad for p in model.parameters()], list(model.parameters()))
""",
    # a namespace variable, a list of tensors, a keyword argument; plain tensors
    "value_list": _DATA
    + """import torch.nn as nn
w = torch.randn(4, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
params = [w, b]
for i in range(25):
    loss = ((X @ w + b - Y) ** 2).sum()
    loss.backward()
    nn.utils.clip_grad_value_(params, clip_value=0.05)
    with torch.no_grad():
        w -= 0.5 * w.grad
        b -= 0.5 * b.grad
        w.grad.zero_()
        b.grad.zero_()
print(loss, w, b, w.grad)
""",
    # the function imported by name, keyword literals, a module of the program's class
    "norm_imported_program_module": _DATA
    + """import torch.nn as nn
from torch.nn.utils import clip_grad_norm_


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 6)
        self.out = nn.Linear(6, 1)

    def forward(self, x):
        return self.out(torch.relu(self.fc(x)))


model = Net()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for i in range(30):
    opt.zero_grad()
    loss = ((model(X) - Y) ** 2).mean()
    loss.backward()
    clip_grad_norm_(model.parameters(), max_norm=0.3, norm_type=2.0)
    opt.step()
print(loss, list(model.parameters()))
""",
    # the name bound to the program's own function mid-loop (in an `if`) and between
    # runs of the loop: the iterations after it call that (checked before each one)
    "rebound": _DATA
    + """from torch.nn.utils import clip_grad_norm_


def halve(ps, m):
    print("the program's", len(ps), m, loss.item())
    ps[0].grad.mul_(0.5)


w = torch.randn(4, 1, requires_grad=True)
params = [w]
for r in range(2):
    for i in range(12):
        loss = ((X @ w - Y) ** 2).mean()
        loss.backward()
        clip_grad_norm_(params, 0.1)
        with torch.no_grad():
            w -= 0.3 * w.grad
            w.grad.zero_()
        if r == 0 and i == 8:
            clip_grad_norm_ = halve
    print(r, loss, w)
    from torch.nn.utils import clip_grad_norm_
""",
    # the norm assigned, its number appended to a dict's list, the tensor itself to a list
    "norm_assigned": _DATA
    + """model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
hist = {"norm": []}
norms = []
for i in range(30):
    opt.zero_grad()
    loss = ((model(X) - Y) ** 2).mean()
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    opt.step()
    hist["norm"].append(gn.item())
    norms.append(gn)
print(loss, gn, hist, norms[-3:], norms[0] is norms[1])
""",
    # the name bound to the program's own function mid-loop: its value (None) appended,
    # as compiled
    "norm_assigned_rebound": _DATA
    + """from torch.nn.utils import clip_grad_norm_


def halve(ps, m):
    print("the program's", len(ps), m)
    ps[0].grad.mul_(0.5)


w = torch.randn(4, 1, requires_grad=True)
params = [w]
got = []
for i in range(12):
    loss = ((X @ w - Y) ** 2).mean()
    loss.backward()
    n = clip_grad_norm_(params, 0.1)
    with torch.no_grad():
        w -= 0.3 * w.grad
        w.grad.zero_()
    got.append(n)
    if i == 8:
        clip_grad_norm_ = halve
print(loss, w, got)
""",
}

REPLAYED = {
    "norm_torch_path": 25,
    "value_list": 20,
    "norm_imported_program_module": 25,
    "rebound": 10,
    "norm_assigned": 20,
    "norm_assigned_rebound": 6,
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


def test_another_function_of_that_name_is_not_replayed(monkeypatch):
    # the program's own function named as a declared one: the loop runs as compiled
    source = PROGRAMS["rebound"].replace("from torch.nn.utils import clip_grad_norm_", "")
    source = source.replace("def halve(", "def clip_grad_norm_(")
    on, off = replay_both(source)
    assert on.stdout == off.stdout and "the program's" in on.stdout
    assert replayed_iterations(monkeypatch, source) == 0
