"""A replayed statement may pass an op the shape of a pure expression, or one of its
sizes (`y.reshape(y_hat.shape)`, `x.view(x.size(0), -1)`, `h.shape[-1]`; loop_shapes.
_shape_read), also in a function it sees through; and may view a loop target's tensor
(replay_plan._view_base).  Each program
prints the same with and without replay (`--no-replay`), and the loops replay; a node
that saves such a view saves a source of that iteration's tensor's version counter
(replay_plan.SwapView)."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_HEAD = """torch.manual_seed(3)
X = torch.randn(32, 2, 3)
Y = torch.randn(32, 1)
w = torch.randn(6, 1, requires_grad=True)
"""

PROGRAMS = {
    # the shape of another expression, in a function the statement sees through
    "reshape_by_shape": _HEAD
    + """def loss_of(y_hat, y):
    return ((y_hat - y.reshape(y_hat.shape)) ** 2).mean()
for i in range(20):
    loss = loss_of(X.reshape(32, 6) @ w, Y.reshape(-1))
    loss.backward()
print(loss, w.grad)
""",
    # x.view(x.size(0), -1), x.shape[-1] and x.size(1), inline
    "sizes": _HEAD
    + """for i in range(20):
    h = X.view(X.size(0), -1) @ w
    z = h.reshape(h.shape[0] // 2, 2 * h.shape[-1]).sum(h.size(1))
    loss = (z * z).mean()
    loss.backward()
print(loss, z.shape, w.grad)
""",
    # a view of a loop target's tensor, only an operand (y.reshape(-1, 1) - y_hat)
    "target_view_operand": _HEAD
    + """v = torch.randn(3, 1, requires_grad=True)
batches = list(zip(X.split(8), Y.reshape(-1).split(8)))
for epoch in range(5):
    for xb, yb in batches:
        y_hat = xb.sum(1) @ v
        loss = ((y_hat - yb.reshape(-1, 1)) ** 2).mean()
        loss.backward()
print(loss, v.grad)
""",
    # a view of a loop target's tensor that an op saves (mm's input), the target changed
    # in place after the backward; the classic tutorial's `x.view(x.size(0), -1)` in a
    # module's forward
    "target_view_saved": _HEAD
    + """batches = list(zip(X.split(8), Y.split(8)))
for epoch in range(3):
    for xb, yb in batches:
        loss = ((xb.view(8, 6) @ w - yb) ** 2).mean()
        loss.backward()
        xb.mul_(1.0)
print(loss, w.grad)
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(6, 1)
    def forward(self, x):
        x = x.view(x.size(0), -1)
        return self.fc(torch.tanh(x))
net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for epoch in range(3):
    for xb, yb in batches:
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(net(xb), yb)
        loss.backward()
        opt.step()
print(loss, net.fc.weight)
""",
    # ... changed in place before the backward: the backward's error, in its place
    "target_view_changed": _HEAD
    + """batches = list(zip(X.split(8), Y.split(8)))
for epoch in range(3):
    for i, (xb, yb) in enumerate(batches):
        loss = ((xb.view(8, 6) @ w - yb) ** 2).mean()
        if epoch == 2 and i == 2:
            xb.mul_(1.0)
        loss.backward()
print(loss, w.grad)
""",
    # a module of the program's class with a `shape` of its own: not seen through
    "module_with_shape": _HEAD
    + """class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(6, 1)
        self.calls = 0
    @property
    def shape(self):
        self.calls += 1
        return (32, 1)
    def forward(self, x):
        return self.fc(x)
net = Net()
for i in range(10):
    out = net(X.reshape(32, 6))
    loss = ((out - Y.reshape(net.shape)) ** 2).mean()
    loss.backward()
print(loss, net.calls, net.fc.weight.grad)
""",
}

#: iterations replayed, at least
REPLAYED = {
    "reshape_by_shape": 15,
    "sizes": 15,
    "target_view_operand": 15,
    "target_view_saved": 9,
    "target_view_changed": 8,
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_the_same_with_and_without_replay(name, dtype):
    on, off = replay_both(PROGRAMS[name], "--dtype", dtype)
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    if name == "target_view_changed":
        assert "modified by an inplace operation" in off.stderr
    else:
        assert off.returncode == 0, off.stderr


@pytest.mark.parametrize("name,least", list(REPLAYED.items()))
def test_the_loops_are_replayed(name, least, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= least


def test_a_module_with_a_shape_of_its_own_is_not_seen_through(monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS["module_with_shape"]) == 0
